"""Uniform among the distinct legal moves; accepts a proposal with probability 1/2 (the rule file's exact `random`).

The moves in code order: the nine swaps (card given ascending, then card taken ascending), pass,
"Кручу" when the hand is of one suit, propose; one draw of rand_below(count) picks one.
A vote draws rand_below(2) and accepts on 1.
"""
from numba import njit

from simcards.config import STRATEGY_NJIT_OPTIONS
from simcards.rng import rand_below
from ._kit import V


@njit(**STRATEGY_NJIT_OPTIONS)
def turn(view, rng):
    # the engine's list is in code order (view.legal_move)
    return V.legal_move(view, rand_below(rng, V.n_legal(view)))


@njit(**STRATEGY_NJIT_OPTIONS)
def vote(view, rng):
    return 1 if rand_below(rng, 2) == 1 else 0
