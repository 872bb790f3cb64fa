"""Helpers shared by Vzhukh strategies (see simcards.games.vzhukh.view for the accessors)."""
from numba import njit

from simcards.config import NJIT_OPTIONS
from simcards.games.vzhukh.rules import (ATTACK, BEAT, JOKER, KRABLE, N_NUMBERS, TRANSFER, VOILA,
                                         VZHUKH, encode_move)
from simcards.games.vzhukh.view import held, stack_count, stack_kind, stack_sum


@njit(inline="always", **NJIT_OPTIONS)
def jokers_held(view):
    return held(view, VOILA) + held(view, KRABLE) + held(view, VZHUKH)


@njit(inline="always", **NJIT_OPTIONS)
def lowest_rank(view):
    """The lowest number card kind in hand, or -1."""
    for k in range(N_NUMBERS):
        if held(view, k) > 0:
            return k
    return -1


@njit(inline="always", **NJIT_OPTIONS)
def attack_lowest(view):
    """Every card of the lowest rank held: sheds low cards, keeps high ones for beating."""
    k = lowest_rank(view)
    return encode_move(ATTACK, k, held(view, k))


@njit(inline="always", **NJIT_OPTIONS)
def attack_biggest(view):
    """The rank whose cards add up to the most: the largest stack to face."""
    best, best_sum = -1, -1
    for k in range(N_NUMBERS):
        s = (k + 1) * held(view, k)
        if held(view, k) > 0 and s > best_sum:
            best, best_sum = k, s
    return encode_move(ATTACK, best, held(view, best))


@njit(inline="always", **NJIT_OPTIONS)
def can_transfer(view):
    return held(view, stack_kind(view)) > 0


@njit(inline="always", **NJIT_OPTIONS)
def transfer(view, count):
    """Transfer with ``count`` cards, or with all of the rank when count exceeds what is held."""
    k = stack_kind(view)
    return encode_move(TRANSFER, k, min(count, held(view, k)))


@njit(inline="always", **NJIT_OPTIONS)
def cheapest_beat(view):
    """The beat with the fewest points that suffice (ties: fewer cards), or -1."""
    s = stack_sum(view)
    best, best_cost = -1, 1 << 30
    for k in range(N_NUMBERS - 1, -1, -1):
        v = k + 1
        cost = v
        for c in range(1, held(view, k) + 1):   # the fewest cards of this rank worth more than s
            if cost > s:
                if cost < best_cost:
                    best, best_cost = encode_move(BEAT, k, c), cost
                break
            cost += v
    return best


@njit(inline="always", **NJIT_OPTIONS)
def joker(view, first, second, third):
    """The first of three joker kinds held, as a move, or -1."""
    if held(view, first) > 0:
        return encode_move(JOKER, first, 1)
    if held(view, second) > 0:
        return encode_move(JOKER, second, 1)
    if held(view, third) > 0:
        return encode_move(JOKER, third, 1)
    return -1


@njit(inline="always", **NJIT_OPTIONS)
def best_joker(view):
    """A free Krable-Bums on a single card, else Vzhukh, Voila, Krable-Bums; or -1."""
    if stack_count(view) == 1 and held(view, KRABLE) > 0:
        return encode_move(JOKER, KRABLE, 1)
    return joker(view, VZHUKH, VOILA, KRABLE)
