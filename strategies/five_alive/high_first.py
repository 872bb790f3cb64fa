"""Highest number card that fits; else an action card in a fixed order (the rule file's exact `high_first`).

Action order: Pass, Skip, Reverse, Draw 1, Draw 2, =0, =10, Life, Killer, Redeal, =21.
"""
from numba import njit

from simcards.config import STRATEGY_NJIT_OPTIONS
from simcards.games.five_alive.rules import (DRAW1, DRAW2, KILLER, LIFE, PASS, REDEAL, REVERSE,
                                             SET0, SET10, SET21, SKIP)
from ._kit import first_held, highest_number

ACTION_ORDER = (PASS, SKIP, REVERSE, DRAW1, DRAW2, SET0, SET10, LIFE, KILLER, REDEAL, SET21)


@njit(**STRATEGY_NJIT_OPTIONS)
def decide(view, rng):
    k = highest_number(view)
    if k >= 0:
        return k
    return first_held(view, ACTION_ORDER)
