"""Helpers shared by Five Alive strategies (see simcards.games.five_alive.view for the accessors).

Legality is the engine's: it stores the legal kinds of the seat to move, read here
through ``view.legal_mask`` & co.; no strategy restates rule 4.
"""
from numba import njit

from simcards.config import NJIT_OPTIONS
from simcards.engine import highest_bit
from simcards.games.five_alive.rules import NUMBERS_MASK
from simcards.games.five_alive.view import hand_size, held_mask, legal_mask, lives, n_players


@njit(inline="always", **NJIT_OPTIONS)
def highest_number(view, lowest=0):
    """The highest number card (at least ``lowest``) that may be played now, or -1."""
    return highest_bit(legal_mask(view) & (NUMBERS_MASK >> lowest << lowest))


@njit(inline="always", **NJIT_OPTIONS)
def first_held_by_priority(view, order, params, slots):
    """The held kind of ``order`` with the highest priority ``params[slots[kind]]``, ties going
    to the earlier in ``order`` (a kind without a slot has priority 0); -1 if none is held.
    With equal priorities this is ``first_held(view, order)``: an order as run-time
    parameters, which ``simcards tune`` can search."""
    m = held_mask(view)
    best = -1
    top = -1.0
    for k in order:
        if (m >> k) & 1:
            p = params[slots[k]] if slots[k] >= 0 else 0.0
            if p > top:
                best = k
                top = p
    return best


@njit(inline="always", **NJIT_OPTIONS)
def first_held(view, order):
    """The first kind of ``order`` held in hand, or -1."""
    m = held_mask(view)
    for k in order:
        if (m >> k) & 1:
            return k
    return -1


@njit(inline="always", **NJIT_OPTIONS)
def cards_held(view):
    """Cards in the player's own hand."""
    return hand_size(view, view.seat)


@njit(**NJIT_OPTIONS)
def opponent_near_out(view, limit):
    """Some other player still in the game holds ``limit`` cards or fewer."""
    for q in range(n_players(view)):
        if q != view.seat and lives(view, q) > 0 and hand_size(view, q) <= limit:
            return True
    return False
