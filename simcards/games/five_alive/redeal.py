"""Five Alive determinization: a complete engine state consistent with what one seat sees.

A search player cannot play on from its view: the other hands and the stock are hidden
(zero in the reference engine's views). ``redeal(s, seat, w, rng)`` writes into ``w`` a
full state that ``seat`` cannot tell from the real one: every field it may read is copied,
every other field is filled from public facts only (the layout's visibilities, view.py):

- the unseen cards are the deck (``COUNTS``) less its own hand less the pile
  (``PILE_COUNTS``); they are shuffled and dealt, each other seat getting exactly its
  ``HAND_N`` cards, and the rest, ``STOCK_N`` of them, is the stock;
- derived scratch is rebuilt the way the engine builds it: the next-seat table with
  fast.py's ``_link_seats``, the sorted deck from ``COUNTS`` with ``_sort_deck``, the held
  masks through fast.py's ``_give``, the legal mask of the seat to move with fast.py's
  ``_legal_mask`` (what ``advance`` would have stored);
- what no public fact determines and the engine never reads before writing it is zero:
  other seats' memory, first-hand masks (``DEALT``: only a result column) and stale legal
  masks, the rank keys and the redeal scratch.

Because nothing hidden is read, the result is the same from the engine's live state and
from the reference engine's view of it (hidden fields zero): a search strategy built on
it passes the twin test (tests/contract/test_twin.py).

Inference from the opponents' play: the public ``LACKS`` block keeps, per seat, the kinds the
table saw it could not hold (the kinds playable at the total when it busted, a 0 when it
could not answer a Killer; cleared when it takes in a card). Each such seat is dealt first,
each card the first one from the top of the shuffled unseen cards that it may hold (in a
uniform shuffle, a uniform draw among them); the cards left are shuffled again for the other
seats and the stock. When several seats are constrained at once this is close to, not
exactly, uniform over the consistent deals; should the constrained seats ever not find
enough cards they may hold (never seen in the tests' positions), they take what is left.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simcards.compiled.config import NJIT_OPTIONS
from simcards.compiled.link_only import linked
from simcards.compiled.engine import MEMORY_SLOTS, copy_into
from simcards.games.five_alive.fast import (
    _give, _legal_mask, _link_seats, _shuffle, _sort_deck, hand)
from simcards.games.five_alive.rules import MAX_PLAYERS, N_KINDS
from simcards.games.five_alive.view import (
    COUNTS, CUR, DEALT, DECK, HAND_N, HELD, LACKS, LEGAL, LIVES, MEMORY, N, NEXT_SEAT, OVER, PILE_COUNTS,
    RANK_KEYS, STOCK, STOCK_N)


@njit(**NJIT_OPTIONS)
def unseen_counts(s, seat, out):
    """Cards of each kind ``seat`` cannot see (other hands and the stock) into ``out``
    (length ``N_KINDS``); returns how many. Public facts and its own hand only."""
    m = 0
    me = hand(seat)
    for k in range(N_KINDS):
        c = s[COUNTS + k] - s[me + k] - s[PILE_COUNTS + k]
        out[k] = c
        m += c
    return m


@linked(**NJIT_OPTIONS)     # kernels link it; Python calls a twin (simcards.link_only)
def redeal(s, seat, w, rng):
    """Fill ``w`` (``len(s)`` int64s) with a state consistent with ``seat``'s view of ``s``.

    Parameters
    ----------
    s : int64 array
        The engine's state, or a view of it in which hidden fields are zero: only what
        ``seat`` may read is used.
    seat : int
        The seat whose knowledge the deal must agree with.
    w : int64 array
        Output, the same length as ``s``; may not be ``s`` itself.
    rng : uint64[1]
        Generator state (simcards.rng) for the shuffle of the unseen cards.

    Returns
    -------
    int
        How many cards were unseen (other hands and stock together).
    """
    copy_into(w, s)
    n = s[N]
    d = s[DECK]
    # ---- forget every hidden and other-seat field
    for q in range(MAX_PLAYERS):
        if q != seat:
            w[hand(q):hand(q) + N_KINDS] = 0
            w[HELD + q] = 0
            w[LEGAL + q] = 0
            w[DEALT + q] = 0
            w[MEMORY + q * MEMORY_SLOTS:MEMORY + (q + 1) * MEMORY_SLOTS] = 0
    w[RANK_KEYS:RANK_KEYS + MAX_PLAYERS] = 0
    w[NEXT_SEAT:NEXT_SEAT + 2 * MAX_PLAYERS] = 0
    w[STOCK:STOCK + 3 * d] = 0
    # ---- derived scratch, as the engine keeps it
    _sort_deck(w)                           # the deck in canonical order, as new_state
    _link_seats(w)
    # ---- the unseen cards, kinds ascending (a canonical order: the shuffle alone decides)
    unseen = np.empty(N_KINDS, np.int64)
    unseen_counts(s, seat, unseen)
    m = np.int64(0)                         # typed, not a literal (simcards.config)
    for k in range(N_KINDS):
        for _ in range(unseen[k]):
            w[STOCK + m] = k
            m += 1
    _shuffle(w, STOCK, m, rng)
    # ---- deal the seats known to lack some kinds first, then every other seat its public
    # hand size from the top; the rest stays the stock
    top = _deal_constrained(s, seat, w, m, rng)
    for q in range(n):
        if q == seat or s[LACKS + q] != 0:
            continue
        c = s[HAND_N + q]
        w[HAND_N + q] = 0
        for _ in range(c):
            top -= 1
            _give(w, q, w[STOCK + top])
    # what is left is exactly STOCK_N cards when s is a real position (the test checks it);
    # clip anyway so that a malformed view cannot index outside the stock run
    w[STOCK_N] = max(top, 0)
    w[STOCK + top:STOCK + m] = 0
    # ---- the legal mask advance stored for the seat to move (its own is copied already)
    cur = w[CUR]
    if cur != seat and w[OVER] == 0 and w[LIVES + cur] > 0:
        w[LEGAL + cur] = _legal_mask(w, cur)
    return m


@njit(**NJIT_OPTIONS)
def _deal_constrained(s, seat, w, m, rng):
    """Give every other seat with a ``LACKS`` mask its hand from the shuffled unseen cards
    ``w[STOCK:STOCK + m]``: scanning from the top, each card it may hold is moved to the top
    and dealt. Returns how many cards are left (at the bottom); they are shuffled again when
    any seat was dealt here, so that the other seats' draw from them stays uniform."""
    top = m
    dealt = False
    for q in range(s[N]):
        lacks = s[LACKS + q]
        if q == seat or lacks == 0:
            continue
        dealt = True
        c = s[HAND_N + q]
        w[HAND_N + q] = 0
        i = top - 1
        while c > 0 and i >= 0:
            k = w[STOCK + i]
            if (lacks >> k) & 1 == 0:
                w[STOCK + i] = w[STOCK + top - 1]
                w[STOCK + top - 1] = k
                top -= 1
                _give(w, q, k)
                c -= 1
            i -= 1
        while c > 0 and top > 0:        # not enough cards it may hold: what is left
            top -= 1
            _give(w, q, w[STOCK + top])
            c -= 1
    if dealt:
        _shuffle(w, STOCK, top, rng)
    return top
