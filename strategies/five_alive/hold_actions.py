"""Shed number cards while they fit and hold action cards for when nothing else does; then push the total up for the next player.

Action cards are always playable, so each one held is a bust avoided later.
When an action must be played, the ones that leave the total high (=21, Skip,
Pass, Reverse) come first: the next player then faces a total near 21 and is
the one likely to bust. Resetting cards (=10, =0) help the next player and go last.
"""
import numpy as np
from numba import njit

from simcards.config import STRATEGY_NJIT_OPTIONS
from simcards.games.five_alive.rules import (CARD_KEYS, DRAW1, DRAW2, KILLER, LIFE, PASS, REDEAL,
                                             REVERSE, SET0, SET10, SET21, SKIP)
from ._kit import first_held_by_priority, highest_number

ACTION_ORDER = (SET21, SKIP, PASS, REVERSE, DRAW2, DRAW1, LIFE, KILLER, REDEAL, SET10, SET0)

#: Run-time parameters (simcards.params), literal so that listing needs no import: a higher
#: priority goes first, equal ones keep ACTION_ORDER (all equal by default: that order).
PARAMS = {
    "first_set21": (0, 0, 9, "priority of =21"),
    "first_skip": (0, 0, 9, "priority of Skip"),
    "first_pass": (0, 0, 9, "priority of Pass"),
    "first_reverse": (0, 0, 9, "priority of Reverse"),
    "first_draw2": (0, 0, 9, "priority of Draw 2"),
    "first_draw1": (0, 0, 9, "priority of Draw 1"),
    "first_life": (0, 0, 9, "priority of Life"),
    "first_killer": (0, 0, 9, "priority of Killer"),
    "first_redeal": (0, 0, 9, "priority of Redeal"),
    "first_set10": (0, 0, 9, "priority of =10"),
    "first_set0": (0, 0, 9, "priority of =0"),
}
_PRIORITY_SLOT = np.array([list(PARAMS).index(f"first_{key}") if f"first_{key}" in PARAMS else -1
                           for key in CARD_KEYS], np.int64)


@njit(**STRATEGY_NJIT_OPTIONS)
def decide(view, rng, params):
    k = highest_number(view)
    if k >= 0:
        return k
    return first_held_by_priority(view, ACTION_ORDER, params, _PRIORITY_SLOT)
