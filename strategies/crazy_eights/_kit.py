"""Helpers shared by Crazy Eights strategies. A view is simcards.games.crazy_eights.view.View,
read through the accessors of that module (re-exported here as ``V``).

What may be played comes from the engine's list of legal moves (``V.playable_cards``), never
from a copy of rule 4 here.
"""
import numpy as np
from numba import njit

from simcards.config import NJIT_OPTIONS
from simcards.engine import bit_count
from simcards.games.crazy_eights import view as V
from simcards.games.crazy_eights.rules import (CARD_POINTS, EIGHTS, N_RANKS, N_SUITS, _SUIT0)

__all__ = ["V", "INLINE", "EIGHTS_MASK", "suit_cards", "suit_count", "card_points",
           "next_seat", "lacks_suit"]

#: numba inlines these small helpers into the strategies (a call costs more than the helper)
INLINE = dict(NJIT_OPTIONS, inline="always")
EIGHTS_MASK = np.int64(EIGHTS)
_POINTS = CARD_POINTS


@njit(**INLINE)
def suit_cards(su):
    """Every card of suit ``su``, as a mask."""
    return np.int64(_SUIT0) << (N_RANKS * su)


@njit(**INLINE)
def suit_count(mask, su):
    """How many cards of suit ``su`` are in ``mask``."""
    return bit_count(mask & suit_cards(su))


@njit(**INLINE)
def card_points(c):
    """Rule 9's points of card ``c``."""
    return _POINTS[c]


@njit(**INLINE)
def next_seat(view):
    """The seat that plays after us."""
    q = view.seat + 1
    return q if q < V.n_players(view) else 0


@njit(**INLINE)
def lacks_suit(view, p, su):
    """The table knows seat p holds no card of suit ``su`` (it passed without a choice while
    that suit was to be followed, and has not drawn since)."""
    full = suit_cards(su)
    return (V.known_lacking(view, p) & full) == full


@njit(**INLINE)
def suits_held(mask):
    """How many of the four suits ``mask`` holds cards of."""
    c = 0
    for su in range(N_SUITS):
        c += suit_count(mask, su) > 0
    return c
