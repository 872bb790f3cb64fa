"""Uniform among the distinct legal card kinds in hand (the rule file's exact `random`).

Holding three 2s and a Pass gives two choices, not four.
"""
from numba import njit

from simcards.config import STRATEGY_NJIT_OPTIONS
from simcards.games.five_alive.view import legal_move, n_legal
from simcards.rng import rand_below


@njit(**STRATEGY_NJIT_OPTIONS)
def decide(view, rng):
    return legal_move(view, rand_below(rng, n_legal(view)))
