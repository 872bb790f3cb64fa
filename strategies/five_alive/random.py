"""Uniform among the distinct legal card kinds in hand (the rule file's exact `random`).

Holding three 2s and a Pass gives two choices, not four.
"""
from numba import njit

from simcards.config import NJIT_OPTIONS
from simcards.games.five_alive.rules import N_KINDS
from simcards.rng import rand_below
from ._kit import playable


@njit(**NJIT_OPTIONS)
def decide(view, rng):
    legal = 0
    for k in range(N_KINDS):
        if playable(view, k):
            legal += 1
    r = rand_below(rng, legal)
    for k in range(N_KINDS):
        if playable(view, k):
            if r == 0:
                return k
            r -= 1
    return -1
