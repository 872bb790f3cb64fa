"""Crazy Eights determinization: a complete engine state consistent with what one seat sees.

A search player cannot play on from its view: the other hands and the stock are hidden (zero
in the reference engine's views). ``redeal(s, seat, w, rng)`` writes into ``w`` a full state
that ``seat`` cannot tell from the real one: every field it may read is copied, every other
field is filled from public facts only (the layout's visibilities, view.py):

- the unseen cards are the deck less its own hand less the discard pile (``PILE_MASK``); they
  are shuffled and dealt, each other seat getting exactly its ``HAND_N`` cards, and the rest,
  ``STOCK_N`` of them, is the stock, laid out in order (``STOCK_FIXED`` = all of it): a search
  compares its moves on the same re-deal, and that comparison is sharper when every move meets
  the same stock;
- a seat the table knows lacks some cards (``LACKS``: it passed without a choice, and has not
  drawn since) is dealt first, the one that may hold the fewest unseen cards first, each card
  the first one from the top of the shuffled unseen cards that it may hold (in a uniform
  shuffle, a uniform draw among them); should an earlier seat have taken the cards a later
  one needs, these seats are dealt again from a new shuffle (``TRIES`` times at most). The
  cards left are shuffled again for the other seats and the stock. With several such seats
  this is close to, not exactly, uniform over the consistent deals;
- derived fields are rebuilt the way the engine builds them: the legal moves of the seat to
  move with fast.py's ``_legal`` (what ``advance`` would have stored); other seats' memory and
  stale legal rows are zero.

Because nothing hidden is read, the result is the same from the engine's live state and from
the reference engine's view of it (hidden fields zero): a search built on it passes the twin
test (tests/contract/test_twin.py).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simcards.compiled.config import NJIT_OPTIONS
from simcards.compiled.engine import MEMORY_SLOTS, bit_count, copy_into, lowest_bit
from simcards.games.crazy_eights.fast import _legal
from simcards.games.crazy_eights.rules import FULL_DECK, MAX_PLAYERS, N_CARDS
from simcards.games.crazy_eights.view import (CUR, HAND_N, HANDS, LACKS, LEGAL, MEMORY, N, OVER,
                                              PILE_MASK, STOCK, STOCK_FIXED, STOCK_N)
from simcards.compiled.link_only import linked
from simcards.compiled.rng import shuffle_range

_ONE = np.int64(1)
_FULL = np.int64(FULL_DECK)
#: deals of the constrained seats before the last one is kept (``_deal_constrained``)
TRIES = 32


@njit(**NJIT_OPTIONS)
def unseen_mask(s, seat):
    """The cards ``seat`` cannot see (other hands and the stock), as a mask: public facts and
    its own hand only."""
    return _FULL & ~s[HANDS + seat] & ~s[PILE_MASK]


@linked(**NJIT_OPTIONS)     # kernels link it; Python calls a twin (simcards.link_only)
def redeal(s, seat, w, rng):
    """Fill ``w`` (``len(s)`` int64s) with a state consistent with ``seat``'s view of ``s``.

    Parameters
    ----------
    s : int64 array
        The engine's state at a decision, or a view of it in which hidden fields are zero:
        only what ``seat`` may read is used.
    seat : int
        The seat whose knowledge the deal must agree with.
    w : int64 array
        Output, the same length as ``s``; may not be ``s`` itself.
    rng : uint64[1]
        Generator state (simcards.rng) for the shuffles of the unseen cards.

    Returns
    -------
    int
        How many cards were unseen (other hands and stock together).
    """
    copy_into(w, s)
    n = s[N]
    # ---- forget every hidden and other-seat field
    for q in range(MAX_PLAYERS):
        if q != seat:
            w[HANDS + q] = 0
            w[LEGAL + q] = 0
            w[MEMORY + q * MEMORY_SLOTS:MEMORY + (q + 1) * MEMORY_SLOTS] = 0
    for i in range(N_CARDS):
        w[STOCK + i] = 0
    # ---- the unseen cards, ids ascending (a canonical order: the shuffle alone decides)
    unseen = unseen_mask(s, seat)
    m = np.int64(0)                         # typed, not a literal (simcards.config)
    while unseen != 0:
        w[STOCK + m] = lowest_bit(unseen)
        unseen &= unseen - 1
        m += 1
    shuffle_range(w, STOCK, m, rng)
    # ---- the seats known to lack some cards first, then every other seat its public hand
    # size from the top; the rest stays the stock
    top = _deal_constrained(s, seat, w, m, rng)
    for q in range(n):
        if q == seat or s[LACKS + q] != 0:
            continue
        for _ in range(s[HAND_N + q]):
            top -= 1
            w[HANDS + q] |= _ONE << w[STOCK + top]
    # what is left is exactly STOCK_N cards when s is a real position (the test checks it);
    # clip anyway so that a malformed view cannot index outside the stock
    top = max(top, 0)
    for i in range(top, N_CARDS):
        w[STOCK + i] = 0
    w[STOCK_N] = top
    w[STOCK_FIXED] = top                    # taken in this order (the docstring says why)
    # ---- the legal moves advance stored for the seat to move (its own are copied already)
    cur = w[CUR]
    if cur != seat and w[OVER] == 0:
        w[LEGAL + cur] = _legal(w, cur)
    return m


@njit(**NJIT_OPTIONS)
def _deal_constrained(s, seat, w, m, rng):
    """Give every other seat with a ``LACKS`` mask its hand from the shuffled unseen cards
    ``w[STOCK:STOCK + m]``, the seat that may hold the fewest of them first: scanning from the
    top, each card it may hold is moved to the top and dealt. Should a seat not find enough
    (an earlier seat took the cards it needed), the whole deal of these seats is tried again on
    the unseen cards shuffled anew, up to ``TRIES`` times, the last try keeping what is left.
    Returns how many cards are left (at the bottom); they are shuffled again when any seat was
    dealt here, so that the other seats' draw from them stays uniform."""
    unseen = unseen_mask(s, seat)
    n = s[N]
    top = m
    dealt = False
    for attempt in range(TRIES):
        top = m
        short = False
        done = 0                            # bit q: seat q dealt in this try
        while True:
            # the constrained seat not dealt yet that may hold the fewest unseen cards
            q = -1
            fewest = N_CARDS + 1
            for r in range(n):
                lacks = s[LACKS + r]
                if r == seat or lacks == 0 or (done >> r) & 1:
                    continue
                allowed = bit_count(unseen & ~lacks)
                if allowed < fewest:
                    q, fewest = r, allowed
            if q < 0:
                break
            done |= _ONE << q
            dealt = True
            lacks = s[LACKS + q]
            w[HANDS + q] = 0
            c = s[HAND_N + q]
            i = top - 1
            while c > 0 and i >= 0:
                k = w[STOCK + i]
                if (lacks >> k) & 1 == 0:
                    w[STOCK + i] = w[STOCK + top - 1]
                    w[STOCK + top - 1] = k
                    top -= 1
                    w[HANDS + q] |= _ONE << k
                    c -= 1
                i -= 1
            while c > 0 and top > 0:        # not enough cards it may hold: what is left
                top -= 1
                w[HANDS + q] |= _ONE << w[STOCK + top]
                c -= 1
                short = True
        if not short or attempt == TRIES - 1:
            break
        shuffle_range(w, STOCK, m, rng)     # every unseen card is still in w[STOCK:STOCK + m]
    if dealt:
        shuffle_range(w, STOCK, top, rng)
    return top
