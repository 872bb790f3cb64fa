"""Like high_first, but keep one 0 in hand as insurance while a Killer may still come.

A 0 is the only defence against the Killer (a life saved); it never blocks a
play since it fits under any total. So the last 0 is played only when it is the
only legal card, or once a Killer lies on the pile and no other can come.
"""
from numba import njit

from simcards.config import STRATEGY_NJIT_OPTIONS
from simcards.games.five_alive.rules import KILLER
from simcards.games.five_alive.view import held, on_pile
from ._kit import first_held, highest_number
from .high_first import ACTION_ORDER


@njit(**STRATEGY_NJIT_OPTIONS)
def decide(view, rng):
    # both editions print one Killer: once it is on the pile the threat is gone
    keep = 1 if on_pile(view, KILLER) == 0 else 0
    k = highest_number(view, 1)
    if k >= 0:
        return k
    if held(view, 0) > keep:
        return 0
    a = first_held(view, ACTION_ORDER)
    if a >= 0:
        return a
    return 0
