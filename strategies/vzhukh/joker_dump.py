"""Spend jokers at the first chance: each one still in hand when the stock runs out costs 60 points.

Defends with a joker whenever one is held (a free Krable-Bums on a single
card first, then Vzhukh, Voila, Krable-Bums), else by transfer, else the
cheapest beat; attacks with the game's default (every card of the lowest rank).
"""
from numba import njit

from simcards.config import FORCEINLINE_NJIT_OPTIONS
from ._kit import best_joker, can_transfer, cheapest_beat, transfer


@njit(**FORCEINLINE_NJIT_OPTIONS)
def defend(view, rng):
    j = best_joker(view)
    if j >= 0:
        return j
    if can_transfer(view):
        return transfer(view, 1)
    return cheapest_beat(view)
