"""Uniform among the distinct legal moves (the rule file's exact `random`).

An attack is a (rank, count) pair; a transfer is a count; a beat is a (rank,
count) pair; each joker kind held is one move. One draw below the number of
legal moves picks one from the engine's list, which holds them in the rule
file's order: attacks by (rank, count); defences transfers, beats (rank, then
count), jokers (Voila, Krable-Bums, Vzhukh).
"""
from numba import njit

from simcards.config import FORCEINLINE_NJIT_OPTIONS
from simcards.games.vzhukh.view import legal_move, n_legal
from simcards.rng import rand_below


@njit(**FORCEINLINE_NJIT_OPTIONS)
def attack(view, rng):
    return legal_move(view, rand_below(rng, n_legal(view)))


@njit(**FORCEINLINE_NJIT_OPTIONS)
def defend(view, rng):
    return legal_move(view, rand_below(rng, n_legal(view)))
