"""Uniform among the legal moves, for both decisions (the rule file's exact `random`).

A play picks one of the playable cards, DRAW and PASS, whichever are legal, with one draw of
rand_below(count) over the engine's list in code order (cards by id, DRAW, PASS); a suit is one
of the four, the same way.
"""
from numba import njit

from simcards.config import STRATEGY_NJIT_OPTIONS
from simcards.rng import rand_below
from ._kit import V


@njit(**STRATEGY_NJIT_OPTIONS)
def play(view, rng):
    return V.legal_move(view, rand_below(rng, V.n_legal(view)))


@njit(**STRATEGY_NJIT_OPTIONS)
def name_suit(view, rng):
    return V.legal_move(view, rand_below(rng, V.n_legal(view)))
