"""Greedy swaps; proposes at a score that falls with more players and rises when its keys run short; refuses weak showdowns when behind.

With more players a given score is less likely to be the lowest, so the bar to propose drops by
one a player (25 with two, 23 with four); on its last key it waits for two points more. It
accepts a showdown three points below its own bar, two points higher when it has fewer keys
than the leader (a longer round is its chance to catch up).
"""
import numpy as np
from numba import njit

from simcards.config import INLINED_STRATEGY_NJIT_OPTIONS
from simcards.params import slot

from ._kit import INLINE, PASS, PROPOSE, V, best_exchange, hand_value, keys_behind

#: Run-time parameters (simcards.params), literal so that listing needs no import.
PARAMS = {
    "bar": (27, 10, 34, "propose at this score less one a player"),
    "last_key": (2, 0, 9, "points added to the bar on the last key"),
    "accept_gap": (3, 0, 15, "accept a showdown this many points below the bar"),
    "behind": (2, 0, 9, "points added to the acceptance when fewer keys than the leader"),
}
_BAR = slot(PARAMS, "bar")
_LAST_KEY = slot(PARAMS, "last_key")
_ACCEPT_GAP = slot(PARAMS, "accept_gap")
_BEHIND = slot(PARAMS, "behind")


@njit(**INLINE)
def bar(view, params):
    t = np.int64(params[_BAR]) - V.n_players(view)
    if V.keys(view, view.seat) <= 1:
        t += np.int64(params[_LAST_KEY])
    return t


@njit(**INLINED_STRATEGY_NJIT_OPTIONS)
def turn(view, rng, params):
    now = hand_value(view)
    move, after = best_exchange(view)
    if after > now:
        return move
    return PROPOSE if now >= bar(view, params) else PASS


@njit(**INLINED_STRATEGY_NJIT_OPTIONS)
def vote(view, rng, params):
    need = bar(view, params) - np.int64(params[_ACCEPT_GAP])
    if keys_behind(view) > 0:
        need += np.int64(params[_BEHIND])
    return 1 if hand_value(view) >= need else 0
