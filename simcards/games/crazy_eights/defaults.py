"""Crazy Eights' default decisions: what a strategy that leaves a decision out plays.

``name_suit``: the suit we hold most cards of (ties: the lowest suit id), so that we can
follow it next time. Most strategies only say which card to play.
"""
from numba import njit

from simcards.compiled.config import FORCEINLINE_NJIT_OPTIONS, NJIT_OPTIONS
from simcards.compiled.engine import bit_count
from simcards.games.crazy_eights.rules import N_RANKS, N_SUITS, _SUIT0
from simcards.games.crazy_eights.view import hand


@njit(inline="always", **NJIT_OPTIONS)
def longest_suit(mask):
    """The suit with the most cards in ``mask`` (ties: the lowest suit id)."""
    best, most = 0, -1
    for su in range(N_SUITS):
        c = bit_count(mask & (_SUIT0 << (N_RANKS * su)))
        if c > most:
            best, most = su, c
    return best


@njit(**FORCEINLINE_NJIT_OPTIONS)
def name_suit(view, rng):
    return longest_suit(hand(view))
