"""Uniform among the distinct legal moves (the rule file's exact `random`).

An attack is a (rank, count) pair; a transfer is a count; a beat is a (rank,
count) pair; each joker kind held is one move. Defences are counted in the
order transfers, beats (rank, then count), jokers (Voila, Krable-Bums, Vzhukh).
"""
from numba import njit

from simcards.config import NJIT_OPTIONS
from simcards.games.vzhukh.rules import (ATTACK, BEAT, JOKER, N_KINDS, N_NUMBERS, TRANSFER, VOILA,
                                         encode_move)
from simcards.games.vzhukh.view import held, stack_kind, stack_sum
from simcards.rng import rand_below


@njit(**NJIT_OPTIONS)
def attack(view, rng):
    legal = 0
    for k in range(N_NUMBERS):
        legal += held(view, k)
    r = rand_below(rng, legal)
    for k in range(N_NUMBERS):
        if r < held(view, k):
            return encode_move(ATTACK, k, r + 1)
        r -= held(view, k)
    return -1


@njit(inline="always", **NJIT_OPTIONS)
def _fewest(k, s, h):
    """The fewest cards of rank k worth more than s points (h + 1 when h cards are too few)."""
    c = 1
    while c <= h and (k + 1) * c <= s:
        c += 1
    return c


@njit(**NJIT_OPTIONS)
def defend(view, rng):
    s = stack_sum(view)
    sk = stack_kind(view)
    legal = held(view, sk)                               # transfers: one per count
    for k in range(N_NUMBERS):                           # beats: counts from the fewest up
        legal += held(view, k) - _fewest(k, s, held(view, k)) + 1
    for j in range(VOILA, N_KINDS):                      # one per joker kind held
        if held(view, j) > 0:
            legal += 1
    r = rand_below(rng, legal)
    if r < held(view, sk):
        return encode_move(TRANSFER, sk, r + 1)
    r -= held(view, sk)
    for k in range(N_NUMBERS):
        lo = _fewest(k, s, held(view, k))
        b = held(view, k) - lo + 1
        if r < b:
            return encode_move(BEAT, k, lo + r)
        r -= b
    for j in range(VOILA, N_KINDS):
        if held(view, j) > 0:
            if r == 0:
                return encode_move(JOKER, j, 1)
            r -= 1
    return -1
