"""Vzhukh's default decisions: what a strategy that leaves a decision out plays.

``attack``: every card of the lowest rank held. Low cards make poor beats, so
they are the ones to spend on attacks, and the high ones are kept for beating;
most strategies attack this way and only say how they defend.
"""
from numba import njit

from simcards.compiled.config import FORCEINLINE_NJIT_OPTIONS, NJIT_OPTIONS
from simcards.games.vzhukh.rules import ATTACK, N_NUMBERS, encode_move
from simcards.games.vzhukh.view import held


@njit(inline="always", **NJIT_OPTIONS)
def lowest_rank(view):
    """The lowest number card kind in hand, or -1."""
    # a select per kind from the top down, no branch on the hand (a loop that stops at the
    # first kind held mispredicts its exit about once a call)
    lowest = -1
    for k in range(N_NUMBERS - 1, -1, -1):
        lowest = k if held(view, k) > 0 else lowest
    return lowest


@njit(inline="always", **NJIT_OPTIONS)
def attack_lowest(view):
    """Every card of the lowest rank held."""
    k = lowest_rank(view)
    return encode_move(ATTACK, k, held(view, k))


@njit(**FORCEINLINE_NJIT_OPTIONS)
def attack(view, rng):
    return attack_lowest(view)
