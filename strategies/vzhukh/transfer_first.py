"""Transfer whenever possible, with every card of the rank, so the stack grows as it moves on; attack with the biggest stack.

A transfer spends only cards of a rank already in play and makes the next
player's problem larger; beating is the fall-back and jokers the last resort.
"""
from numba import njit

from simcards.config import FORCEINLINE_NJIT_OPTIONS
from ._kit import attack_biggest, best_joker, can_transfer, cheapest_beat, transfer


@njit(**FORCEINLINE_NJIT_OPTIONS)
def attack(view, rng):
    return attack_biggest(view)


@njit(**FORCEINLINE_NJIT_OPTIONS)
def defend(view, rng):
    if can_transfer(view):
        return transfer(view, 99)
    b = cheapest_beat(view)
    if b >= 0:
        return b
    return best_joker(view)
