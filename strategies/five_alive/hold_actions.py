"""Shed number cards while they fit and hold action cards for when nothing else does; then push the total up for the next player.

Action cards are always playable, so each one held is a bust avoided later.
When an action must be played, the ones that leave the total high (=21, Skip,
Pass, Reverse) come first: the next player then faces a total near 21 and is
the one likely to bust. Resetting cards (=10, =0) help the next player and go last.
"""
from numba import njit

from simcards.config import NJIT_OPTIONS
from simcards.games.five_alive.rules import (DRAW1, DRAW2, KILLER, LIFE, PASS, REDEAL, REVERSE,
                                             SET0, SET10, SET21, SKIP)
from ._kit import first_held, highest_number

ACTION_ORDER = (SET21, SKIP, PASS, REVERSE, DRAW2, DRAW1, LIFE, KILLER, REDEAL, SET10, SET0)


@njit(**NJIT_OPTIONS)
def decide(view, rng):
    k = highest_number(view)
    if k >= 0:
        return k
    return first_held(view, ACTION_ORDER)
