"""Helpers shared by Vzhukh strategies (a view is simcards.games.vzhukh.fast.View)."""
from numba import njit

from simcards.config import NJIT_OPTIONS
from simcards.games.vzhukh.rules import (ATTACK, BEAT, JOKER, KRABLE, N_NUMBERS, TRANSFER, VOILA,
                                         VZHUKH, encode_move)


@njit(**NJIT_OPTIONS)
def stack_sum(view):
    return (view.stack_kind + 1) * view.stack_count


@njit(**NJIT_OPTIONS)
def jokers_held(view):
    return view.hand[VOILA] + view.hand[KRABLE] + view.hand[VZHUKH]


@njit(**NJIT_OPTIONS)
def lowest_rank(view):
    """The lowest number card kind in hand, or -1."""
    for k in range(N_NUMBERS):
        if view.hand[k] > 0:
            return k
    return -1


@njit(**NJIT_OPTIONS)
def attack_lowest(view):
    """Every card of the lowest rank held: sheds low cards, keeps high ones for beating."""
    k = lowest_rank(view)
    return encode_move(ATTACK, k, view.hand[k])


@njit(**NJIT_OPTIONS)
def attack_biggest(view):
    """The rank whose cards add up to the most: the largest stack to face."""
    best, best_sum = -1, -1
    for k in range(N_NUMBERS):
        s = (k + 1) * view.hand[k]
        if view.hand[k] > 0 and s > best_sum:
            best, best_sum = k, s
    return encode_move(ATTACK, best, view.hand[best])


@njit(**NJIT_OPTIONS)
def can_transfer(view):
    return view.hand[view.stack_kind] > 0


@njit(**NJIT_OPTIONS)
def transfer(view, count):
    """Transfer with ``count`` cards, or with all of the rank when count exceeds what is held."""
    c = min(count, view.hand[view.stack_kind])
    return encode_move(TRANSFER, view.stack_kind, c)


@njit(**NJIT_OPTIONS)
def cheapest_beat(view):
    """The beat with the fewest points that suffice (ties: fewer cards), or -1."""
    s = stack_sum(view)
    best, best_cost = -1, 1 << 30
    for k in range(N_NUMBERS - 1, -1, -1):
        c = s // (k + 1) + 1          # fewest cards of this rank worth more than s
        if c <= view.hand[k]:
            cost = (k + 1) * c
            if cost < best_cost:
                best, best_cost = encode_move(BEAT, k, c), cost
    return best


@njit(**NJIT_OPTIONS)
def joker(view, first, second, third):
    """The first of three joker kinds held, as a move, or -1."""
    if view.hand[first] > 0:
        return encode_move(JOKER, first, 1)
    if view.hand[second] > 0:
        return encode_move(JOKER, second, 1)
    if view.hand[third] > 0:
        return encode_move(JOKER, third, 1)
    return -1


@njit(**NJIT_OPTIONS)
def best_joker(view):
    """A free Krable-Bums on a single card, else Vzhukh, Voila, Krable-Bums; or -1."""
    if view.stack_count == 1 and view.hand[KRABLE] > 0:
        return encode_move(JOKER, KRABLE, 1)
    return joker(view, VZHUKH, VOILA, KRABLE)
