"""Greedy swaps; proposes at a score that falls with more players and rises when its keys run short; refuses weak showdowns when behind.

With more players a given score is less likely to be the lowest, so the bar to propose drops by
one a player (25 with two, 23 with four); on its last key it waits for two points more. It
accepts a showdown three points below its own bar, two points higher when it has fewer keys
than the leader (a longer round is its chance to catch up).
"""
from numba import njit

from simcards.config import NJIT_OPTIONS

from ._kit import INLINE, PASS, PROPOSE, V, best_exchange, hand_value, keys_behind


@njit(**INLINE)
def bar(view):
    t = 27 - V.n_players(view)
    if V.keys(view, view.seat) <= 1:
        t += 2
    return t


@njit(**NJIT_OPTIONS)
def turn(view, rng):
    now = hand_value(view)
    move, after = best_exchange(view)
    if after > now:
        return move
    return PROPOSE if now >= bar(view) else PASS


@njit(**NJIT_OPTIONS)
def vote(view, rng):
    need = bar(view) - 3
    if keys_behind(view) > 0:
        need += 2
    return 1 if hand_value(view) >= need else 0
