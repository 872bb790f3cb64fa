"""Thirty-One determinization: a complete engine state consistent with what one seat has seen.

A search player cannot play on from its view: the other hands and the stock are hidden
(zero in the reference engine's views). ``redeal(s, seat, w, rng)`` writes into ``w`` a full
state that agrees with every field ``seat`` may read (the layout's visibilities, view.py) and
with what it has seen the others do. It reads only those fields, so the result is the same
from the engine's live state and from the reference engine's zeroed view (the twin test).

Hard inferences (facts: they hold in every real state, the tests check both):

- **Seen cards are out**: the seat's own hand, the middle and the discard pile
  (``DISCARD_MASK``) are not dealt to anyone.
- **Held cards stay put** (``HELD``): a card seen taken from the middle this round and not put
  back is in that seat's hand; only the rest of the hand is dealt. After "Кручу" all three are.
- **No hand holds a combination** (31, 33, 6-7-8): one dealt is declared before the first
  turn and one made by a swap at once (rules 13-16), either way ending the round; so while a
  round is being played no hand holds one.
- **A rebuilt stock is known** (``STOCK_KNOWN``, a public block kept by both engines): when the
  discard pile became the stock this round, the stock is exactly those pile cards less the
  ones drawn since, and the other hands are the rest of the unseen cards. Under
  ``rebuild=as_it_lies`` even its order is known (the pile's order is public): the stock is
  rebuilt as it lies, ``STOCK_KNOWN_ORDER``; shuffled, its order is drawn anew. Either way it is
  taken in that order (``STOCK_FIXED``), not drawn at random as it is taken as the engine's own
  shuffled stock is: a search compares its moves on the same redeal, and that comparison is
  sharper when every move meets the same stock.

Soft inferences (signals, through an opponent model: every player proposes and accepts a
showdown only with a good enough hand, as every heuristic of strategies/thirty_one does):

- **A standing proposal** (``LAST_MOVE`` is PROPOSE): the seat's hand has not changed since
  it proposed (a hand changes only by its owner's swap or "Кручу", which would be its last
  move), so its value (the score, a 32 as 0) is at least ``propose_min``.
- **An acceptance** of the proposal under way (``VOTES`` is ACCEPT): value at least
  ``accept_min``.

They are met by rejection: a constrained seat's unknown cards are drawn from the unseen pool
up to ``TRIES`` times until its hand meets them (the constrained seats first, in seat order,
then the others, whose only constraint is the hard one). When no draw of ``TRIES`` meets a
soft bound (the seat bluffed, or the bound is nearly impossible with its held cards) the
best-valued draw without a combination is kept, and the call's result counts that seat;
the hard constraints are always met when a hand meeting them exists among the draws.

Derived fields are rebuilt as the engine keeps them: the legal sets of the seat to decide
(``_list_turn``/``_list_vote``, what ``advance`` stored); other seats' memory, first hands
(``DEALT``, a result column only) and stale legal sets are zero.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simcards.compiled.config import NJIT_OPTIONS
from simcards.compiled.link_only import linked
from simcards.compiled.engine import MEMORY_SLOTS, bit_count, copy_into, lowest_bit
from simcards.games.thirty_one.fast import _list_turn, _list_vote, hand_code
from simcards.games.thirty_one.rules import ACCEPT, HAND, MAX_PLAYERS, N_CARDS, PH_VOTE, PROPOSE
from simcards.games.thirty_one.view import (
    AS_IT_LIES, CUR, DEALT, DISCARD_MASK, HANDS, HELD, LAST_MOVE, LEGAL_GIVE, LEGAL_OTHER,
    LEGAL_TAKE, MEMORY, MID, N, OVER, PHASE, REDEAL, STOCK, STOCK_FIXED, STOCK_KNOWN,
    STOCK_KNOWN_ORDER, STOCK_N, VOTER, VOTES)
from simcards.compiled.rng import rand_below, shuffle_range

#: Soft bounds of the opponent model (values, a 32 as 0): a proposer holds at least
#: PROPOSE_MIN, a seat that accepted the proposal under way at least ACCEPT_MIN. The
#: heuristics propose from 23-30 (threshold, suit_chaser at 4 players, greedy 25) and accept
#: from 21-22 (greedy, suit_chaser) or higher.
PROPOSE_MIN = 23
ACCEPT_MIN = 21
#: draws of a constrained seat's unknown cards before the best one is kept
TRIES = 64

_ONE = np.int64(1)


@njit(**NJIT_OPTIONS)
def hand_value(a, b, c):
    """The score of three distinct cards with a 32 counted as 0 (it loses every showdown)."""
    v = hand_code(a, b, c) & 63
    return 0 if v == 32 else v


@njit(**NJIT_OPTIONS)
def is_combination(a, b, c):
    return hand_code(a, b, c) >= 64


@njit(**NJIT_OPTIONS)
def seen_mask(s, seat):
    """Cards ``seat`` knows are not hidden anywhere it cannot see: its hand, the middle, the
    discard pile."""
    m = s[DISCARD_MASK]
    for i in range(HAND):
        m |= _ONE << s[HANDS + HAND * seat + i]
        m |= _ONE << s[MID + i]
    return m


@njit(**NJIT_OPTIONS)
def soft_bound(s, q, propose_min, accept_min):
    """The lowest value seat q's hand is taken to have from its signals (0: none)."""
    b = 0
    if s[LAST_MOVE + q] == PROPOSE:
        b = propose_min
    if s[VOTES + q] == ACCEPT and accept_min > b:
        b = accept_min
    return b


@njit(**NJIT_OPTIONS)
def _fill(w, q, held, pool, lo, hi, bound, rng, tries):
    """Give seat q its held cards and 3 - |held| cards from pool[lo:hi] (moved to the front
    of the range by a partial Fisher-Yates, so the rest stays pool[lo + k:hi]); the draw is
    repeated until the hand holds no combination and has value >= bound, keeping the best
    draw otherwise. Returns (k, met)."""
    k = HAND - bit_count(held)
    n = hi - lo
    best_key = -1
    # the kept draw's k <= 3 cards, in scalars: no array allocated per seat and deal
    best0 = best1 = best2 = np.int64(-1)
    met = False
    for _ in range(tries):
        mask = held
        for i in range(k):
            j = lo + i + rand_below(rng, n - i)
            t = pool[lo + i]
            pool[lo + i] = pool[j]
            pool[j] = t
            mask |= _ONE << pool[lo + i]
        a = lowest_bit(mask)
        r = mask & (mask - 1)
        b = lowest_bit(r)
        c = lowest_bit(r & (r - 1))
        combo = is_combination(a, b, c)
        v = hand_value(a, b, c)
        key = (0 if combo else 64) + (v if v < bound else bound)
        if key > best_key:
            best_key = key
            best0 = pool[lo] if k > 0 else best0
            best1 = pool[lo + 1] if k > 1 else best1
            best2 = pool[lo + 2] if k > 2 else best2
        if not combo and v >= bound:
            met = True
            break
    if not met:
        # put the kept draw at the front of the range (its cards are all still in pool[lo:hi])
        for i in range(k):
            want = best0 if i == 0 else (best1 if i == 1 else best2)
            for j in range(lo + i, hi):
                if pool[j] == want:
                    t = pool[lo + i]
                    pool[lo + i] = pool[j]
                    pool[j] = t
                    break
    mask = held
    for i in range(k):
        mask |= _ONE << pool[lo + i]
    h = HANDS + HAND * q
    w[h] = lowest_bit(mask)
    mask &= mask - 1
    w[h + 1] = lowest_bit(mask)
    mask &= mask - 1
    w[h + 2] = lowest_bit(mask)
    return k, met


@njit(**NJIT_OPTIONS)
def redeal(s, seat, w, rng):
    """Fill ``w`` with a state consistent with ``seat``'s view of ``s``, at the default soft
    bounds (PROPOSE_MIN, ACCEPT_MIN); see ``redeal_with``."""
    return redeal_with(s, seat, w, rng, PROPOSE_MIN, ACCEPT_MIN, TRIES)


@linked(**NJIT_OPTIONS, _nrt=False)    # kernels link it; Python calls a twin (simcards.link_only)
def redeal_with(s, seat, w, rng, propose_min, accept_min, tries):
    """Fill ``w`` (``len(s)`` int64s) with a state consistent with ``seat``'s view of ``s``.

    Parameters
    ----------
    s : int64 array
        The engine's state during a round (a decision), or a view of it with hidden fields
        zero: only what ``seat`` may read is used.
    seat : int
        The seat whose knowledge the deal must agree with.
    w : int64 array
        Output, the same length as ``s``; may not be ``s`` itself.
    rng : uint64[1]
        Generator state (simcards.rng) for every draw.
    propose_min, accept_min : int
        Soft bounds (module docstring); 0 turns a signal off.
    tries : int
        Draws per constrained seat before the best is kept.

    Returns
    -------
    int
        How many seats' soft bounds no draw met (0 when every signal was honoured).
    """
    copy_into(w, s)
    n = s[N]
    # ---- forget every hidden and other-seat field
    for q in range(MAX_PLAYERS):
        if q != seat:
            for i in range(HAND):
                w[HANDS + HAND * q + i] = 0
            w[DEALT + q] = 0
            w[LEGAL_GIVE + q] = 0
            w[LEGAL_TAKE + q] = 0
            w[LEGAL_OTHER + q] = 0
            for i in range(MEMORY_SLOTS):
                w[MEMORY + q * MEMORY_SLOTS + i] = 0
    for i in range(N_CARDS):
        w[STOCK + i] = 0
    # ---- the unseen cards not already placed: not seen, not held by another seat, not in a
    # known stock; ids ascending (a canonical order: the draws alone decide)
    placed = seen_mask(s, seat) | s[STOCK_KNOWN]
    for q in range(n):
        if q != seat:
            placed |= s[HELD + q]
    # the pool is kept in the REDEAL scratch block (zero in every state, zeroed again below):
    # no array allocated per deal
    pool = w[REDEAL:REDEAL + N_CARDS]
    m = np.int64(0)             # typed, as lo: not literals to _fill (simcards.config)
    for c in range(N_CARDS):
        if not (placed >> c) & 1:
            pool[m] = c
            m += 1
    # ---- the other hands: seats with a soft bound first, then the rest
    missed = 0
    lo = np.int64(0)
    for constrained in (True, False):
        for q in range(n):
            if q == seat:
                continue
            bound = soft_bound(s, q, propose_min, accept_min)
            if (bound > 0) != constrained:
                continue
            k, met = _fill(w, q, s[HELD + q], pool, lo, m, bound, rng, tries if constrained else tries)
            lo += k
            if not met and bound > 0:
                missed += 1
    # ---- the stock: the known rebuilt stock, else the cards left over
    sn = s[STOCK_N]
    if s[STOCK_KNOWN] != 0:
        if s[AS_IT_LIES] != 0:
            for i in range(sn):
                w[STOCK + i] = s[STOCK_KNOWN_ORDER + i]
        else:
            km = s[STOCK_KNOWN]
            for i in range(sn):
                w[STOCK + i] = lowest_bit(km)
                km &= km - 1
            shuffle_range(w, STOCK, sn, rng)
    else:
        # what is left is exactly STOCK_N cards in a real position (the test checks it); clip
        # anyway so that a malformed view cannot index outside the stock
        sn = min(sn, m - lo)
        for i in range(sn):
            w[STOCK + i] = pool[lo + i]
        shuffle_range(w, STOCK, sn, rng)
    w[STOCK_FIXED] = sn             # taken in this order (the docstring says why)
    for i in range(N_CARDS):
        w[REDEAL + i] = 0
    # ---- the legal sets advance stored for the seat to decide (its own are copied already)
    if w[OVER] == 0:
        if w[PHASE] == PH_VOTE:
            d = w[VOTER]
            if d != seat:
                _list_vote(w, d)
        else:
            d = w[CUR]
            if d != seat:
                _list_turn(w, d)
    return missed
