"""Discover every game before these tests import the thirty_one package directly.

simcards.registry.games() discovers the game packages only while its registry is empty;
importing simcards.games.thirty_one first would register it alone and hide the other games
from tests that run later in the same session.
"""
from simcards.registry import games

games()
