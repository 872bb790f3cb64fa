"""Steers the suit to follow: toward a suit the next player is known to lack, else toward its own longest suit, with an eight when that gains enough.

Each playable card is scored by the suit it leaves to follow (a card its own suit, an eight the
suit it would name): 16 a card we would still hold of that suit, 64 more when the next player
is known to hold none of it (it passed without a choice with that suit to follow and has not
drawn since); a card that is not an eight adds its points (dump the expensive ones), an eight
costs 32 (it is worth keeping unless it gains two cards of suit or a suit the next player
lacks). Ties to the lower card id. The suit an eight names is scored the same way. Never draws
or passes by choice.
"""
from numba import njit

from simcards.config import INLINED_STRATEGY_NJIT_OPTIONS
from simcards.engine import lowest_bit
from ._kit import (EIGHTS_MASK, N_RANKS, N_SUITS, V, card_points, lacks_suit, next_seat,
                   suit_count)

EIGHT_COST = 32


@njit(**INLINED_STRATEGY_NJIT_OPTIONS)
def _suit_value(view, mine, su, nxt):
    return 16 * suit_count(mine, su) + 64 * lacks_suit(view, nxt, su)


@njit(**INLINED_STRATEGY_NJIT_OPTIONS)
def _best_suit(view, mine, nxt):
    best, top = 0, -1
    for su in range(N_SUITS):
        v = _suit_value(view, mine, su, nxt)
        if v > top:
            best, top = su, v
    return best


@njit(**INLINED_STRATEGY_NJIT_OPTIONS)
def play(view, rng):
    cards = V.playable_cards(view)
    if cards == 0:
        return V.legal_move(view, 0)
    h = V.hand(view)
    nxt = next_seat(view)
    best, top = -1, -(1 << 20)
    rest = cards
    while rest != 0:
        c = lowest_bit(rest)
        rest &= rest - 1
        after = h & ~(1 << c)
        if (EIGHTS_MASK >> c) & 1:
            key = _suit_value(view, after, _best_suit(view, after, nxt), nxt) - EIGHT_COST
        else:
            key = _suit_value(view, after, c // N_RANKS, nxt) + card_points(c)
        if key > top:
            best, top = c, key
    return best


@njit(**INLINED_STRATEGY_NJIT_OPTIONS)
def name_suit(view, rng):
    return _best_suit(view, V.hand(view), next_seat(view))
