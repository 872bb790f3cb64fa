"""Like high_first, but keep one 0 in hand as insurance while a Killer may still come.

A 0 is the only defence against the Killer (a life saved); it never blocks a
play since it fits under any total. So the last 0 is played only when it is the
only legal card, or once a Killer lies on the pile and no other can come.
"""
from numba import njit

from simcards.config import NJIT_OPTIONS
from simcards.games.five_alive.rules import KILLER, LIMIT, N_NUMBERS
from strategies.five_alive._kit import first_held
from strategies.five_alive.high_first import ACTION_ORDER


@njit(**NJIT_OPTIONS)
def decide(view, rng):
    # Killer cards are unique in both editions: once one is on the pile the threat is gone
    keep = 1 if view.pile_counts[KILLER] == 0 else 0
    for k in range(min(N_NUMBERS - 1, LIMIT - view.total), 0, -1):
        if view.hand[k] > 0:
            return k
    if view.hand[0] > keep:
        return 0
    a = first_held(view, ACTION_ORDER)
    if a >= 0:
        return a
    return 0
