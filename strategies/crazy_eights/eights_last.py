"""Keeps its eights to the last; otherwise plays the card of the suit it holds most, the higher points first.

Among the playable cards that are not eights, the one whose suit has the most cards in hand
(so that the suit to follow stays one it can follow again), ties to the card worth more points
(rule 9: they cost the most if the hand is lost), then to the lower card id. An eight only when
no other card can be played, and before drawing. Never draws or passes by choice. The suit of an
eight is the game's default: the suit held most.
"""
from numba import njit

from simcards.config import INLINED_STRATEGY_NJIT_OPTIONS
from simcards.engine import lowest_bit
from ._kit import EIGHTS_MASK, N_RANKS, V, card_points, suit_count


@njit(**INLINED_STRATEGY_NJIT_OPTIONS)
def play(view, rng):
    cards = V.playable_cards(view)
    others = cards & ~EIGHTS_MASK
    if others == 0:
        return lowest_bit(cards) if cards != 0 else V.legal_move(view, 0)
    h = V.hand(view)
    best, top = -1, -1
    rest = others
    while rest != 0:
        c = lowest_bit(rest)
        rest &= rest - 1
        key = suit_count(h, c // N_RANKS) * 64 + card_points(c)
        if key > top:
            best, top = c, key
    return best
