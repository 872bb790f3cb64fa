"""Helpers shared by Five Alive strategies (a view is simcards.games.five_alive.fast.View)."""
from numba import njit

from simcards.config import NJIT_OPTIONS
from simcards.games.five_alive.rules import LIMIT, N_KINDS, N_NUMBERS


@njit(**NJIT_OPTIONS)
def playable(view, k):
    """Card kind k is in hand and may be played now."""
    return view.hand[k] > 0 and (k >= N_NUMBERS or view.total + k <= LIMIT)


@njit(**NJIT_OPTIONS)
def highest_number(view):
    """The highest number card that keeps the total at 21 or under, or -1."""
    for k in range(min(N_NUMBERS - 1, LIMIT - view.total), -1, -1):
        if view.hand[k] > 0:
            return k
    return -1


@njit(**NJIT_OPTIONS)
def first_held(view, order):
    """The first kind of ``order`` held in hand, or -1."""
    for k in order:
        if view.hand[k] > 0:
            return k
    return -1


@njit(**NJIT_OPTIONS)
def any_action(view):
    for k in range(N_NUMBERS, N_KINDS):
        if view.hand[k] > 0:
            return k
    return -1
