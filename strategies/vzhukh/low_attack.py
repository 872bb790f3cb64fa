"""Attack with every card of the lowest rank to keep high cards for beating; defend by transfer, cheap beat, then joker.

Low cards make poor beats, so they are the ones to spend on attacks; a
transfer costs one card and passes the whole problem on; jokers are kept for
stacks that can be neither transferred nor beaten.
"""
from numba import njit

from simcards.config import FORCEINLINE_NJIT_OPTIONS
from ._kit import attack_lowest, best_joker, can_transfer, cheapest_beat, transfer


@njit(**FORCEINLINE_NJIT_OPTIONS)
def attack(view, rng):
    return attack_lowest(view)


@njit(**FORCEINLINE_NJIT_OPTIONS)
def defend(view, rng):
    if can_transfer(view):
        return transfer(view, 1)
    b = cheapest_beat(view)
    if b >= 0:
        return b
    return best_joker(view)
