"""Beat with the fewest points that suffice: the beater attacks next, and jokers are saved for the end of the stock.

Beating ends the stack's journey for good (no penalty can come back round)
and gives the attack; a transfer is the fall-back. Jokers are held while the
stock is large, as insurance, and played first once the stock is short
(fewer cards than two per player), since each left in hand costs 60. Attacks
with the game's default (every card of the lowest rank).
"""
from numba import njit

from simcards.config import FORCEINLINE_NJIT_OPTIONS
from simcards.games.vzhukh.view import n_players, stock_size
from ._kit import best_joker, can_transfer, cheapest_beat, transfer


@njit(**FORCEINLINE_NJIT_OPTIONS)
def defend(view, rng):
    if stock_size(view) < 2 * n_players(view):
        j = best_joker(view)
        if j >= 0:
            return j
    b = cheapest_beat(view)
    if b >= 0:
        return b
    if can_transfer(view):
        return transfer(view, 1)
    return best_joker(view)
