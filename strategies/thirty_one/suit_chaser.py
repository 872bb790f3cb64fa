"""Chases one suit: between moves that score alike it keeps the cards whose suit still has the most unseen cards that would help.

Each candidate (the nine swaps, "Кручу", standing pat) is ranked by its score first and then by
its outs: the unseen cards (not in hand, not in the middle, not in the discard pile) that a
later single swap could use to raise the score. Standing pat wins ties, so it only moves for a
better score or more outs. It proposes at 26 less one a player beyond two and accepts at 22.
"""
import numpy as np
from numba import njit

from simcards.config import INLINED_STRATEGY_NJIT_OPTIONS
from simcards.params import slot

from ._kit import KNOCK, PASS, PROPOSE, V, hand_value, knock_allowed, outs, value

#: Run-time parameters (simcards.params), literal so that listing needs no import.
PARAMS = {
    "propose_at": (28, 10, 34, "propose a showdown at this score less one a player"),
    "accept_at": (22, 0, 34, "accept a showdown from this score"),
}
_PROPOSE_AT = slot(PARAMS, "propose_at")
_ACCEPT_AT = slot(PARAMS, "accept_at")


@njit(**INLINED_STRATEGY_NJIT_OPTIONS)
def turn(view, rng, params):
    h = V.hand(view)
    m = V.middle(view)
    now = hand_value(view)
    best = now * 64 + outs(view, h[0], h[1], h[2])
    move = -1
    for i in range(3):
        if i == 0:
            x, y = h[1], h[2]
        elif i == 1:
            x, y = h[0], h[2]
        else:
            x, y = h[0], h[1]
        for t in range(3):
            key = value(x, y, m[t]) * 64 + outs(view, x, y, m[t])
            if key > best:
                best = key
                move = h[i] * 64 + m[t]
    if knock_allowed(view):
        key = value(m[0], m[1], m[2]) * 64 + outs(view, m[0], m[1], m[2])
        if key > best:
            best = key
            move = KNOCK
    if move >= 0:
        return move
    return PROPOSE if now >= np.int64(params[_PROPOSE_AT]) - V.n_players(view) else PASS


@njit(**INLINED_STRATEGY_NJIT_OPTIONS)
def vote(view, rng, params):
    return 1 if hand_value(view) >= np.int64(params[_ACCEPT_AT]) else 0
