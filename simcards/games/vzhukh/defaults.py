"""Vzhukh's default decisions: what a strategy that leaves a decision out plays.

``attack``: every card of the lowest rank held. Low cards make poor beats, so
they are the ones to spend on attacks, and the high ones are kept for beating;
most strategies attack this way and only say how they defend.
"""
import numpy as np
from numba import njit

from simcards.config import FORCEINLINE_NJIT_OPTIONS, NJIT_OPTIONS
from simcards.engine import lowest_bit
from simcards.games.vzhukh.rules import ATTACK, N_NUMBERS, encode_move
from simcards.games.vzhukh.view import held


@njit(inline="always", **NJIT_OPTIONS)
def lowest_rank(view):
    """The lowest number card kind in hand, or -1."""
    # the kinds held as a bit mask, then its lowest bit: no branch on the hand (a loop that
    # stops at the first kind held mispredicts its exit about once a call)
    held_mask = 0
    for k in range(N_NUMBERS):
        held_mask |= np.int64(held(view, k) > 0) << k
    return lowest_bit(held_mask) if held_mask != 0 else -1


@njit(inline="always", **NJIT_OPTIONS)
def attack_lowest(view):
    """Every card of the lowest rank held."""
    k = lowest_rank(view)
    return encode_move(ATTACK, k, held(view, k))


@njit(**FORCEINLINE_NJIT_OPTIONS)
def attack(view, rng):
    return attack_lowest(view)
