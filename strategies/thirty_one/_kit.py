"""Helpers shared by Thirty-One strategies. A view is simcards.games.thirty_one.view.View,
read through the accessors of that module (re-exported here as ``V``).

Scores come from the engine's table of the public scorer (rules.score): one load a hand
(``value`` reads its own copy of that table with a 32 counted as 0 already).
Whether "Кручу" is legal comes from the engine's list of legal moves (``V.can_knock``).
"""
import numpy as np
from numba import njit

from simcards.config import FORCEINLINE_NJIT_OPTIONS, NJIT_OPTIONS
from simcards.engine import bit_count, lowest_bit
from simcards.link_only import linked
from simcards.games.thirty_one import view as V
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


def _cards_by_level(level: np.ndarray, p: np.ndarray, q: np.ndarray, card: np.ndarray,
                    levels: int) -> np.ndarray:
    """[level, pair p * N_CARDS + q]: the bit mask of the cards ``card`` of each (level, p, q).

    One ``bincount`` weighted by each card's bit: a pair's cards are distinct bits, so their sum
    is their union, and float64 holds such sums exactly (all below 2**36)."""
    sums = np.bincount((level * N_CARDS + p) * N_CARDS + q, weights=np.ldexp(1.0, card),
                       minlength=levels * N_CARDS ** 2)
    return sums.astype(np.int64).reshape(levels, -1)


def _raisers() -> np.ndarray:
    """For every value v of a hand (0..33) and pair of cards (b, c) (index v * N_CARDS**2 +
    b * N_CARDS + c, either order): the cards x whose hand {x, b, c} is worth more than v, as a
    bit mask."""
    x, b, c = np.indices((N_CARDS,) * 3).reshape(3, -1)
    distinct = (x != b) & (x != c) & (b != c)
    x, b, c = x[distinct], b[distinct], c[distinct]
    value = _VALUES.astype(np.int64)[(x * N_CARDS + b) * N_CARDS + c]
    # each pair's cards x bucketed by the value of {x, b, c}, then summed over the values above v
    # (broadcast over [v, x, b, c] instead, the same table took 28 ms of every Thirty-One
    # process's start)
    by_value = _cards_by_level(value, b, c, x, _MAX_VALUE + 1)
    above = np.zeros_like(by_value)
    above[:-1] = by_value[::-1].cumsum(axis=0)[::-1][1:]
    return above.reshape(-1)


_MAX_VALUE = int(_VALUES.max())               # 33, three aces (a 32 is worth 0)
_RAISERS = _raisers()


# compiled once and inlined by LLVM, not copied by numba into each of suit_chaser's three call
# sites; linked, since a replay's Python turn calls it too (simcards.link_only.Linked)
@linked(**FORCEINLINE_NJIT_OPTIONS, _nrt=False)
def outs(view, a, b, c):
    """How many unseen cards would raise the value of hand (a, b, c) by a single swap."""
    one = np.int64(1)
    # the candidates' own cards are not unseen when they come from our hand or the middle;
    # cleared anyway, so that the count never depends on where a, b and c came from
    free = unseen_mask(view) & ~((one << a) | (one << b) | (one << c))
    # A card x helps when it is worth more in place of a (with b and c), of b or of c: three
    # masks of such cards from the table, one popcount over the unseen. suit_chaser x4 (eleven
    # counts a turn), the same records: 1307 ns a turn with a loop over the deck and a branch
    # per card and comparison, 515 over the unseen cards' bits without a branch, 56 now.
    row = np.uint64(value(a, b, c) * N_CARDS * N_CARDS)
    helps = (_RAISERS[row + np.uint64(b * N_CARDS + c)] | _RAISERS[row + np.uint64(a * N_CARDS + c)]
             | _RAISERS[row + np.uint64(a * N_CARDS + b)])
    return bit_count(free & helps)


#: thresholds of ``share_below`` with a row of their own, 0 up to one above the highest plain
#: showdown value that is not a 32 (30, so 32 rows): any higher threshold counts them all
_THRESHOLDS = int(SCORE_TABLE[(SCORE_TABLE < 64) & (SCORE_TABLE & 63 != 32)].max()) + 2


def _third_cards() -> tuple[np.ndarray, np.ndarray]:
    """For every pair of cards a < b (row a * N_CARDS + b), the third cards c > b as bit masks:
    those that make a hand holding no combination (``_PLAIN``), and, for each threshold v, those
    of them whose hand's showdown value is below v, a 32 counting below all (``_BELOW[v]``;
    a threshold past the last row reads the last, one below 0 row 0)."""
    a, b, c = np.indices((N_CARDS,) * 3).reshape(3, -1)
    codes = SCORE_TABLE.astype(np.int64)
    plain = (a < b) & (b < c) & (codes < 64)
    a, b, c, score = a[plain], b[plain], c[plain], codes[plain] & 63
    # bucketed by level (0 for a 32, else the score + 1): below v is a level up to v
    by_level = _cards_by_level(np.where(score == 32, 0, score + 1), a, b, c, _THRESHOLDS)
    return by_level.sum(axis=0), by_level.cumsum(axis=0)


_PLAIN, _BELOW = _third_cards()


@njit(**INLINE)
def share_below(view, v):
    """Among the three-card hands made of unseen cards and holding no combination (those are
    declared at once), the share whose showdown value is below v (an integer; a 32 counting
    below all)."""
    # Each pair of unseen cards a < b, with the unseen cards above b counted at once against
    # the pair's masks of third cards: two popcounts a pair, where three loops over the deck
    # tested some 2,300 hands one by one (discard_reader x4: 2,740 -> 320 ns a turn, the same
    # records; tests/thirty_one/test_kit.py holds the count to the scorer's).
    row = _BELOW[min(max(np.int64(v), 0), _THRESHOLDS - 1)]
    below = 0
    total = 0
    rest = unseen_mask(view)
    while rest != 0:
        a = lowest_bit(rest)
        rest &= rest - 1
        above = rest                     # the unseen cards above a; then above b
        while above != 0:
            b = lowest_bit(above)
            above &= above - 1
            pair = np.uint64(a * N_CARDS + b)
            total += bit_count(_PLAIN[pair] & above)
            below += bit_count(row[pair] & above)
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
