"""Keep one full-value answer (10, J, Q, K, 6 or joker) for duels; attack only with spare duel cards.

Cheap cards go first (7, 4, 3, 2, 5, 9, 8, ace); a duel card is played when
another defender stays in hand. 5s and 9s go to the leader; a joker answer is
named 10; an answer is worth most when the keeper itself would lose the points (the
game's default ``name_rank``, ``target`` and ``answer``: simcards/games/bombs_away/defaults.py).
"""
from numba import njit

from simcards.config import STRATEGY_NJIT_OPTIONS
from simcards.games.bombs_away.view import allowed
from simcards.games.bombs_away.rules import (ACE, EIGHT, FIVE, FOUR, JACK, JOKER, KING, NINE,
                                             QUEEN, SEVEN, SIX, TEN, THREE, TWO)
from ._kit import defenders, first_legal

CHEAP = (SEVEN, FOUR, THREE, TWO, FIVE, NINE, EIGHT, ACE)
LAST = (TEN, JACK, QUEEN, KING, SIX, JOKER)


@njit(**STRATEGY_NJIT_OPTIONS)
def play(view, rng):
    if defenders(view) >= 2:
        for k in (KING, QUEEN, JACK, TEN):
            if allowed(view, k):
                return k
    for k in CHEAP:
        if allowed(view, k):
            return k
    return first_legal(view, LAST)


@njit(**STRATEGY_NJIT_OPTIONS)
def extra(view, rng):
    return play(view, rng)
