"""Helpers shared by Thirty-One strategies. A view is simcards.games.thirty_one.view.View,
read through the accessors of that module (re-exported here as ``V``).

Scores come from the engine's table of the public scorer (rules.score): one load a hand.
Whether "Кручу" is legal comes from the engine's list of legal moves (``V.can_knock``).
"""
from numba import njit

from simcards.config import NJIT_OPTIONS
from simcards.games.thirty_one import view as V
from simcards.games.thirty_one.fast import hand_code
from simcards.games.thirty_one.rules import KNOCK, N_CARDS, PASS, PROPOSE

#: numba inlines these small helpers into the strategies (a call costs more than the helper)
INLINE = dict(NJIT_OPTIONS, inline="always")

__all__ = ["INLINE", "KNOCK", "PASS", "PROPOSE", "V", "value", "hand_value", "knock_allowed",
           "best_exchange", "unseen", "share_below", "keys_behind", "outs"]


@njit(**INLINE)
def value(a, b, c):
    """The score of three cards with a 32 counted as 0 (it loses every showdown: rule 5)."""
    s = hand_code(a, b, c) & 63
    return 0 if s == 32 else s


@njit(**INLINE)
def hand_value(view):
    a, b, c = V.hand(view)
    return value(a, b, c)


@njit(**INLINE)
def knock_allowed(view):
    return V.can_knock(view)


@njit(**INLINE)
def _better(v, move, best, best_move):
    if v > best:
        return v, move
    return best, best_move


@njit(**INLINE)
def best_exchange(view):
    """(move, value after it) of the best swap or "Кручу" by value; ties go to the lowest card
    given, then the lowest card taken, and a swap goes before "Кручу" (the rule file's greedy).
    The nine swaps are written out: hand and middle are sorted, so this order is id order."""
    a, b, c = V.hand(view)
    x, y, z = V.middle(view)
    best, move = -1, -1
    best, move = _better(value(b, c, x), a * 64 + x, best, move)
    best, move = _better(value(b, c, y), a * 64 + y, best, move)
    best, move = _better(value(b, c, z), a * 64 + z, best, move)
    best, move = _better(value(a, c, x), b * 64 + x, best, move)
    best, move = _better(value(a, c, y), b * 64 + y, best, move)
    best, move = _better(value(a, c, z), b * 64 + z, best, move)
    best, move = _better(value(a, b, x), c * 64 + x, best, move)
    best, move = _better(value(a, b, y), c * 64 + y, best, move)
    best, move = _better(value(a, b, z), c * 64 + z, best, move)
    if V.can_knock(view):
        best, move = _better(value(x, y, z), KNOCK, best, move)
    return move, best


@njit(**INLINE)
def unseen(view, c):
    """Card c is neither in our hand, nor in the middle, nor in the discard pile."""
    h = V.hand(view)
    m = V.middle(view)
    if (V.discard_mask(view) >> c) & 1:
        return False
    if c == h[0] or c == h[1] or c == h[2] or c == m[0] or c == m[1] or c == m[2]:
        return False
    return True


@njit(**INLINE)
def outs(view, a, b, c):
    """How many unseen cards would raise the value of hand (a, b, c) by a single swap."""
    v0 = value(a, b, c)
    count = 0
    for x in range(N_CARDS):
        if x == a or x == b or x == c or not unseen(view, x):
            continue
        if value(x, b, c) > v0 or value(a, x, c) > v0 or value(a, b, x) > v0:
            count += 1
    return count


@njit(**INLINE)
def share_below(view, v):
    """Among the three-card hands made of unseen cards and holding no combination (those are
    declared at once), the share whose showdown value is below v (a 32 counting below all)."""
    below = 0
    total = 0
    for a in range(N_CARDS):
        if not unseen(view, a):
            continue
        for b in range(a + 1, N_CARDS):
            if not unseen(view, b):
                continue
            for c in range(b + 1, N_CARDS):
                if not unseen(view, c):
                    continue
                code = hand_code(a, b, c)
                if code >= 64:
                    continue
                total += 1
                s = code & 63
                if s == 32 or s < v:
                    below += 1
    if total == 0:
        return 1.0
    return below / total


@njit(**INLINE)
def keys_behind(view):
    """How many keys we have fewer than the best other player (0 when we lead or tie)."""
    mine = V.keys(view, view.seat)
    top = 0
    for q in range(V.n_players(view)):
        if q != view.seat and V.keys(view, q) > top:
            top = V.keys(view, q)
    return top - mine if top > mine else 0
