"""Reads the discard pile: proposes and accepts by how many of the hands still possible (from unseen cards) its score beats.

Swaps as greedy does. For a proposal or a vote it counts the three-card hands that can be made of
unseen cards (not in its hand, the middle or the discard pile; combinations left out, as they
would have been declared) and the share s scoring below its own. Taking the others' hands as
such hands improved by a few swaps (scores raised by 3), it estimates the chance of being the
lowest as (1 - s) ** (players - 1); it proposes when that is below 1 / (2 * players) and
accepts when it is below 1 / players.
"""
from numba import njit

from simcards.config import NJIT_OPTIONS, STRATEGY_NJIT_OPTIONS
from simcards.link_only import linked

from ._kit import PASS, PROPOSE, V, best_exchange, hand_value, share_below

IMPROVED_BY = 3


# compiled once and called, not copied into turn and vote by numba: the count of hands
# (share_below) is most of the strategy's code and time (when it was three nested loops over the
# deck, each copy cost about 1.4 s of the kernel's compile), and a call is nothing beside it.
# Linked: kernels link it without a wrapper, and a replay's Python turn and vote call it too
# (simcards.link_only.Linked).
@linked(**NJIT_OPTIONS, _nrt=False)
def risk(view):
    s = share_below(view, hand_value(view) - IMPROVED_BY)
    return (1.0 - s) ** (V.n_players(view) - 1)


@njit(**STRATEGY_NJIT_OPTIONS)
def turn(view, rng):
    now = hand_value(view)
    move, after = best_exchange(view)
    if after > now:
        return move
    return PROPOSE if risk(view) * 2 * V.n_players(view) < 1.0 else PASS


@njit(**STRATEGY_NJIT_OPTIONS)
def vote(view, rng):
    return 1 if risk(view) * V.n_players(view) < 1.0 else 0
