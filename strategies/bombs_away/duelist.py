"""Start a duel whenever possible (a duel card, a 6 on one, an ace to chain, the joker as a K): points only fall in duels.

An 8 names K when the forced duel would hit someone else (4 or more players),
else A. 5s and 9s go to the leader; an answer is worth most when the duelist
itself would lose the points, and least (most damage) otherwise (the game's default
``target`` and ``answer``: simcards/games/bombs_away/defaults.py).
"""
from numba import njit

from simcards.config import STRATEGY_NJIT_OPTIONS
from simcards.games.bombs_away.view import allowed, card, top
from simcards.games.bombs_away.rules import (ACE, EIGHT, FIVE, FOUR, JACK, JOKER, KING, NINE,
                                             QUEEN, SEVEN, SIX, TEN, THREE, TWO)
from ._kit import alive_count, first_legal, is_duel, standard_name

CHEAP = (SEVEN, FOUR, THREE, TWO, FIVE, NINE, EIGHT)


@njit(**STRATEGY_NJIT_OPTIONS)
def play(view, rng):
    for k in (KING, QUEEN, JACK, TEN):
        if allowed(view, k):
            return k
    if allowed(view, SIX) and top(view) >= 0 and is_duel(top(view)):
        return SIX
    if allowed(view, ACE):
        return ACE
    if allowed(view, JOKER):
        return JOKER
    return first_legal(view, CHEAP)


@njit(**STRATEGY_NJIT_OPTIONS)
def extra(view, rng):
    return play(view, rng)


@njit(**STRATEGY_NJIT_OPTIONS)
def name_rank(view, rng):
    if card(view) == EIGHT:
        return KING if alive_count(view) >= 4 else ACE
    return standard_name(view)
