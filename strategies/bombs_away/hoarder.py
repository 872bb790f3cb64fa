"""Hold the joker and the 6s (perfect duel answers) to the last; shed low cards first and duel only when nothing else is left.

Play order: 2, 3, 4, 5, 7, 8, 9, A, 10, J, Q, K, 6, joker. 5s and 9s go to the
leader; an answer is worth most when the hoarder would lose the points (the
game's default ``name_rank``, ``target`` and ``answer``: simcards/games/bombs_away/defaults.py).
"""
from numba import njit

from simcards.config import STRATEGY_NJIT_OPTIONS
from simcards.games.bombs_away.rules import (ACE, EIGHT, FIVE, FOUR, JACK, JOKER, KING, NINE,
                                             QUEEN, SEVEN, SIX, TEN, THREE, TWO)
from ._kit import first_legal

ORDER = (TWO, THREE, FOUR, FIVE, SEVEN, EIGHT, NINE, ACE, TEN, JACK, QUEEN, KING, SIX, JOKER)


@njit(**STRATEGY_NJIT_OPTIONS)
def play(view, rng):
    return first_legal(view, ORDER)


@njit(**STRATEGY_NJIT_OPTIONS)
def extra(view, rng):
    return first_legal(view, ORDER)
