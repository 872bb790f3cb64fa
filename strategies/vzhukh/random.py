"""Uniform among the distinct legal moves (the rule file's exact `random`).

An attack is a (rank, count) pair; a transfer is a count; a beat is a (rank,
count) pair; each joker kind held is one move. Defences are counted in the
order transfers, beats (rank, then count), jokers (Voila, Krable-Bums, Vzhukh).
"""
from numba import njit

from simcards.config import NJIT_OPTIONS
from simcards.games.vzhukh.rules import (ATTACK, BEAT, JOKER, N_KINDS, N_NUMBERS, TRANSFER, VOILA,
                                         encode_move)
from simcards.rng import rand_below
from strategies.vzhukh._kit import stack_sum


@njit(**NJIT_OPTIONS)
def attack(view, rng):
    legal = 0
    for k in range(N_NUMBERS):
        legal += view.hand[k]
    r = rand_below(rng, legal)
    for k in range(N_NUMBERS):
        if r < view.hand[k]:
            return encode_move(ATTACK, k, r + 1)
        r -= view.hand[k]
    return -1


@njit(**NJIT_OPTIONS)
def _beats(view, k, s):
    """How many counts of rank k beat a stack worth s: counts c with (k+1)*c > s."""
    lo = s // (k + 1) + 1
    h = view.hand[k]
    return h - lo + 1 if h >= lo else 0


@njit(**NJIT_OPTIONS)
def defend(view, rng):
    s = stack_sum(view)
    sk = view.stack_kind
    legal = view.hand[sk]
    for k in range(N_NUMBERS):
        legal += _beats(view, k, s)
    for j in range(VOILA, N_KINDS):
        if view.hand[j] > 0:
            legal += 1
    r = rand_below(rng, legal)
    if r < view.hand[sk]:
        return encode_move(TRANSFER, sk, r + 1)
    r -= view.hand[sk]
    for k in range(N_NUMBERS):
        b = _beats(view, k, s)
        if r < b:
            return encode_move(BEAT, k, s // (k + 1) + 1 + r)
        r -= b
    for j in range(VOILA, N_KINDS):
        if view.hand[j] > 0:
            if r == 0:
                return encode_move(JOKER, j, 1)
            r -= 1
    return -1
