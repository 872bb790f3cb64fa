"""Helpers shared by Thirty-One strategies. A view is simcards.games.thirty_one.view.View,
read through the accessors of that module (re-exported here as ``V``).

Scores come from the engine's table of the public scorer (rules.score): one load a hand
(``value`` reads its own copy of that table with a 32 counted as 0 already).
Whether "Кручу" is legal comes from the engine's list of legal moves (``V.can_knock``).
"""
import numpy as np
from numba import njit

from simcards.config import FORCEINLINE_NJIT_OPTIONS, NJIT_OPTIONS
from simcards.engine import lowest_bit
from simcards.link_only import linked
from simcards.games.thirty_one import view as V
from simcards.games.thirty_one.fast import hand_code
from simcards.games.thirty_one.rules import KNOCK, N_CARDS, PASS, PROPOSE, SCORE_TABLE

#: numba inlines these small helpers into the strategies (a call costs more than the helper)
INLINE = dict(NJIT_OPTIONS, inline="always")

__all__ = ["INLINE", "KNOCK", "PASS", "PROPOSE", "V", "value", "hand_value", "knock_allowed",
           "best_exchange", "unseen", "unseen_mask", "share_below", "keys_behind", "outs"]


#: ``value`` of every ordered triple: the score in SCORE_TABLE (index (a * 36 + b) * 36 + c),
#: a 32 as 0. Greedy weighs ten hands a turn: one load each, nothing to mask or compare.
_VALUES = np.where(SCORE_TABLE & 63 == 32, 0, SCORE_TABLE & 63).astype(np.uint8)


@njit(**INLINE)
def value(a, b, c):
    """The score of three cards with a 32 counted as 0 (it loses every showdown: rule 5)."""
    # an unsigned index: numba adds no negative-index wrap-around to the load
    return np.int64(_VALUES[np.uint64((a * N_CARDS + b) * N_CARDS + c)])


@njit(**INLINE)
def hand_value(view):
    a, b, c = V.hand(view)
    return value(a, b, c)


@njit(**INLINE)
def knock_allowed(view):
    return V.can_knock(view)


@njit(**INLINE)
def _rank(v, move):
    """A candidate move and the value v after it as one number, larger is better: the value
    first, then the lower move code."""
    return v * 4096 + (4095 - move)


@njit(**INLINE)
def best_exchange(view):
    """(move, value after it) of the best swap or "Кручу" by value; ties go to the lowest card
    given, then the lowest card taken, and a swap goes before "Кручу" (the rule file's greedy).
    The nine swaps are written out: hand and middle are sorted, so this order is id order."""
    a, b, c = V.hand(view)
    x, y, z = V.middle(view)
    # Ties go by move code: swaps in the order above have increasing codes, and KNOCK is above
    # every swap. So each candidate is one number (_rank) and the best is their maximum, taken
    # as a tree: no chain of compares each waiting for the last, no branch.
    ga, gb, gc = a * 64, b * 64, c * 64          # the move code of giving a, b, c
    r0 = max(_rank(value(b, c, x), ga + x), _rank(value(b, c, y), ga + y))
    r1 = max(_rank(value(b, c, z), ga + z), _rank(value(a, c, x), gb + x))
    r2 = max(_rank(value(a, c, y), gb + y), _rank(value(a, c, z), gb + z))
    r3 = max(_rank(value(a, b, x), gc + x), _rank(value(a, b, y), gc + y))
    # "Кручу" is weighed whether it is legal or not and dropped by arithmetic, not a branch: it
    # is legal on about a third of the turns in no order a predictor learns (callgrind's
    # branch simulation: 0.39 mispredicted branches a turn, the kernel's most)
    allowed = np.int64(V.can_knock(view))
    knock = (_rank(value(x, y, z), KNOCK) + 1) * allowed - 1     # -1 when not allowed
    r4 = max(_rank(value(a, b, z), gc + z), knock)
    best = max(max(max(r0, r1), max(r2, r3)), r4)
    return 4095 - (best & 4095), best >> 12


@njit(**INLINE)
def unseen_mask(view):
    """The unseen cards as a bit mask (bit c: card c): neither in our hand, nor in the middle,
    nor in the discard pile. Loops over the deck test a bit of it: the six compares of a card
    against hand and middle, copied into ``share_below``'s triple loop, made the compile of
    discard_reader's ``risk`` take about 4 s (1.4 s with the mask)."""
    a, b, c = V.hand(view)
    x, y, z = V.middle(view)
    one = np.int64(1)
    seen = (V.discard_mask(view) | (one << a) | (one << b) | (one << c)
            | (one << x) | (one << y) | (one << z))
    return ((one << N_CARDS) - 1) & ~seen


@njit(**INLINE)
def unseen(view, c):
    """Card c is neither in our hand, nor in the middle, nor in the discard pile."""
    return (unseen_mask(view) >> c) & 1 != 0


# compiled once and inlined by LLVM, not copied by numba into each of suit_chaser's three call
# sites (a loop over the deck: about 0.3 s of compile a copy); linked, since a replay's Python
# turn calls it too (simcards.link_only.Linked)
@linked(**FORCEINLINE_NJIT_OPTIONS, _nrt=False)
def outs(view, a, b, c):
    """How many unseen cards would raise the value of hand (a, b, c) by a single swap."""
    v0 = value(a, b, c)
    count = 0
    one = np.int64(1)
    # the candidates' own cards are not unseen when they come from our hand or the middle;
    # cleared anyway, so that the count never depends on where a, b and c came from
    free = unseen_mask(view) & ~((one << a) | (one << b) | (one << c))
    # over the unseen cards' bits, and the three comparisons or-ed without branching: whether
    # a card helps is data no predictor learns. suit_chaser x4 (eleven counts a turn): 1307 ns
    # a turn with the loop over the deck and a branch per card and comparison, 515 now; the
    # same records. (discard_reader's share_below measured slower either way: 2.7 -> 3.0-3.4 us)
    while free != 0:
        x = lowest_bit(free)
        free &= free - 1
        count += np.int64((value(x, b, c) > v0) | (value(a, x, c) > v0) | (value(a, b, x) > v0))
    return count


@njit(**INLINE)
def share_below(view, v):
    """Among the three-card hands made of unseen cards and holding no combination (those are
    declared at once), the share whose showdown value is below v (a 32 counting below all)."""
    below = 0
    total = 0
    free = unseen_mask(view)
    for a in range(N_CARDS):
        if not (free >> a) & 1:
            continue
        for b in range(a + 1, N_CARDS):
            if not (free >> b) & 1:
                continue
            for c in range(b + 1, N_CARDS):
                if not (free >> c) & 1:
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
