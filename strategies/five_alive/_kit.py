"""Helpers shared by Five Alive strategies (see simcards.games.five_alive.view for the accessors)."""
from numba import njit

from simcards.config import NJIT_OPTIONS
from simcards.games.five_alive.rules import LIMIT, N_KINDS, N_NUMBERS
from simcards.games.five_alive.view import hand_size, held, lives, n_players, total


@njit(inline="always", **NJIT_OPTIONS)
def playable(view, k):
    """Card kind k is in hand and may be played now."""
    return held(view, k) > 0 and (k >= N_NUMBERS or total(view) + k <= LIMIT)


@njit(inline="always", **NJIT_OPTIONS)
def highest_number(view, lowest=0):
    """The highest number card (at least ``lowest``) that keeps the total at 21 or under, or -1."""
    for k in range(min(N_NUMBERS - 1, LIMIT - total(view)), lowest - 1, -1):
        if held(view, k) > 0:
            return k
    return -1


@njit(inline="always", **NJIT_OPTIONS)
def first_held(view, order):
    """The first kind of ``order`` held in hand, or -1."""
    for k in order:
        if held(view, k) > 0:
            return k
    return -1


@njit(**NJIT_OPTIONS)
def cards_held(view):
    c = 0
    for k in range(N_KINDS):
        c += held(view, k)
    return c


@njit(**NJIT_OPTIONS)
def opponent_near_out(view, limit):
    """Some other player still in the game holds ``limit`` cards or fewer."""
    for q in range(n_players(view)):
        if q != view.seat and lives(view, q) > 0 and hand_size(view, q) <= limit:
            return True
    return False
