"""Beat with the fewest points that suffice: the beater attacks next, and jokers are saved for the end of the stock.

Beating ends the stack's journey for good (no penalty can come back round)
and gives the attack; a transfer is the fall-back. Jokers are held while the
stock is large, as insurance, and played first once the stock is short
(fewer cards than two per player), since each left in hand costs 60. Attacks
with the game's default (every card of the lowest rank).
"""
import numpy as np
from numba import njit

from simcards.config import FORCEINLINE_NJIT_OPTIONS
from simcards.games.vzhukh.view import n_players, stock_size
from simcards.params import slot
from ._kit import best_joker, can_transfer, cheapest_beat, transfer

#: Run-time parameters (simcards.params), literal so that listing needs no import.
PARAMS = {
    "joker_below": (2, 0, 30, "jokers first once the stock holds fewer cards than this per player"),
    "transfer_cards": (1, 1, 4, "cards of the rank a transfer adds (as many as held, up to this)"),
}
_JOKER_BELOW = slot(PARAMS, "joker_below")
_TRANSFER_CARDS = slot(PARAMS, "transfer_cards")


@njit(**FORCEINLINE_NJIT_OPTIONS)
def defend(view, rng, params):
    if stock_size(view) < np.int64(params[_JOKER_BELOW]) * n_players(view):
        j = best_joker(view)
        if j >= 0:
            return j
    b = cheapest_beat(view)
    if b >= 0:
        return b
    if can_transfer(view):
        return transfer(view, np.int64(params[_TRANSFER_CARDS]))
    return best_joker(view)
