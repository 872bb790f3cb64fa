"""Uniform among the distinct legal ranks in hand, and uniform in every further choice (the rule file's exact `random`).

Suits never matter and the joker is one choice; a rank to name, an opponent and
a duel answer (by rank) are each drawn uniformly from the allowed ones. A
question with a single allowed answer is never asked, so it draws nothing.
"""
from numba import njit

from simcards.config import STRATEGY_NJIT_OPTIONS
from ._kit import uniform


@njit(**STRATEGY_NJIT_OPTIONS)
def play(view, rng):
    return uniform(view, rng)


@njit(**STRATEGY_NJIT_OPTIONS)
def extra(view, rng):
    return uniform(view, rng)


@njit(**STRATEGY_NJIT_OPTIONS)
def name_rank(view, rng):
    return uniform(view, rng)


@njit(**STRATEGY_NJIT_OPTIONS)
def target(view, rng):
    return uniform(view, rng)


@njit(**STRATEGY_NJIT_OPTIONS)
def answer(view, rng):
    return uniform(view, rng)
