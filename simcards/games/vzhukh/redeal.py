"""Vzhukh determinization: a complete engine state consistent with what one seat knows.

A search player cannot play on from its view: the other hands and the stock are hidden
(zero in the reference engine's views). ``redeal(s, seat, w, rng)`` writes into ``w`` a
full state that ``seat`` cannot tell from the real one: every field it may read is copied,
every other field is filled from public facts only (the layout's visibilities, view.py).

The unseen cards are the deck (``COUNTS``) less the seat's own hand, the discard pile
(``DISCARD``) and the stack in play (``STACK_KIND`` x ``STACK_N``). They are shuffled and
dealt, each other seat getting exactly its ``HAND_N`` cards, and the rest, ``STOCK_N`` of
them, is the stock (in the shuffled order: the draws to come).

Inferences (what the table has seen, beyond the counts):

- **A take** (rule 10): a defender takes the stack only when it can do nothing else, so it
  holds no joker, no card of the stack's rank (no transfer) and no rank whose cards add up
  to more than the stack (no beat): at most ``sum // (k + 1)`` cards of each number kind k.
- **A pass** (rule 3): an attacker passes only when it holds no number card: jokers only.
- Both hold **until the seat acts again**: cards leave a hand only by its own actions, and
  join it only by the draws after them (a taken stack goes to the discard pile). A take
  after which the taker drew cards (a hand short of ``hand_size``) tells nothing about the
  new cards, so it is not kept. Two such events with no action between them combine.
  The engines keep this in the public block ``BARRED`` (view.py), set by both engines on a
  take and a pass, cleared by the seat's every action and at every deal; the tests check
  that every redealt hand respects it and that every true hand does too (its soundness).
- **Jokers** (and every card) known from public events: the jokers played are on the
  discard pile (``DISCARD``), so they are not dealt again; jokers left at the end of a
  round belong to a deal that is gone. A pass says the hand is all jokers (above).

Inferences not made: the choices of the other seats (a seat that transferred may or may
not have been able to beat): they depend on its strategy, not on the rules. A taker that
has since acted still holds the cards it did not play, some of them from the hand it could
not beat with; that partial knowledge is dropped (its word is cleared).

How a constrained hand is dealt: the unseen cards are shuffled; the seats that passed
(jokers only) and then those that took, in seat order, each take the first cards of the
shuffled pile that they may hold, the other seats and the stock the rest, in order. For
one constrained seat this is uniform over the deals consistent with its exclusions (the
first h cards it may hold of a random order are a uniform h-subset), and close to it with
a bound per kind or several constrained seats. Should a constrained seat not find its
cards (two takers competing for the same low cards), the deal is drawn again, up to
``TRIES`` times; the last try fills it regardless (the tests count how often: never, on
their positions).

Derived fields are rebuilt the way the engine builds them: the next-seat table, NUMBERS
and the sorted deck with fast.py's ``fill_tables``, the legal row of the seat to act when
it is not ``seat`` with fast.py's ``_legal`` (what ``advance`` stored). What no public
fact determines and the engine never reads before writing is zero: other seats' memory,
first-hand masks (``DEALT``: a result column only) and legal rows, the rank keys and a
shuffle's draws.

Because nothing hidden is read, the result is the same from the engine's live state and
from the reference engine's view (hidden fields zero): a search strategy built on it
passes the twin test (tests/contract/test_twin.py).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simcards.compiled.config import NJIT_OPTIONS
from simcards.compiled.link_only import linked
from simcards.compiled.engine import MEMORY_SLOTS, copy_into
from simcards.games.vzhukh.fast import _legal, fill_tables, hand, legal_row
from simcards.games.vzhukh.rules import MAX_HAND, MAX_PLAYERS, N_KINDS, N_NUMBERS
from simcards.games.vzhukh.view import (
    BARRED, BARRED_KINDS, BARRED_NUMBERS, BARRED_SHIFT, CUR, DEALT, DECK, DISCARD, ENDING,
    HAND_N, HAND_STRIDE, LEGAL_STRIDE, MEMORY, N, OVER, PHASE, RANK_KEYS, REDEAL, REDEAL_SIZE,
    STACK_KIND, STACK_N, STOCK, STOCK_N, COUNTS)
from simcards.compiled.rng import shuffle_range

#: deals drawn before a constrained seat is filled regardless of what it is known not to hold
TRIES = 16
_ANY = MAX_HAND + 1              # a cap no hand reaches


@njit(**NJIT_OPTIONS)
def unseen_counts(s, seat, out):
    """Cards of each kind ``seat`` cannot see (other hands and the stock) into ``out``
    (length ``N_KINDS``); returns how many. Public facts and its own hand only."""
    m = 0
    me = hand(seat)
    sk = s[STACK_KIND]
    for k in range(N_KINDS):
        c = s[COUNTS + k] - s[me + k] - s[DISCARD + k]
        if k == sk:
            c -= s[STACK_N]
        out[k] = c
        m += c
    return m


@njit(**NJIT_OPTIONS)
def barred_caps(word, caps):
    """The most cards of each kind a seat may hold, from its BARRED word (view.py), into
    ``caps`` (length ``N_KINDS``); returns 0 when nothing is known (every cap open), 2 when
    the seat holds jokers only (a pass), 1 otherwise."""
    if word == 0:
        for k in range(N_KINDS):
            caps[k] = _ANY
        return 0
    kinds = word & BARRED_KINDS
    bound = word >> BARRED_SHIFT
    for k in range(N_KINDS):
        if (kinds >> k) & 1:
            caps[k] = 0
        elif k < N_NUMBERS:
            caps[k] = min(bound // (k + 1), _ANY)
        else:
            caps[k] = _ANY
    return 2 if kinds & BARRED_NUMBERS == BARRED_NUMBERS else 1


@njit(**NJIT_OPTIONS)
def respects(s, q, word):
    """True when seat q's hand in state ``s`` holds nothing its BARRED ``word`` excludes."""
    caps = np.empty(N_KINDS, np.int64)
    barred_caps(word, caps)
    for k in range(N_KINDS):
        if s[hand(q) + k] > caps[k]:
            return False
    return True


@njit(**NJIT_OPTIONS)
def _deal(s, seat, w, rng, m, order, n_order, caps, strict):
    """One try: shuffle the m unseen cards (kinds ascending at w[STOCK:]), deal the seats of
    ``order`` first (each the first cards it may hold), then the others from the top. False
    when a constrained seat could not be filled (only when ``strict``)."""
    n = s[N]
    for q in range(n):
        if q != seat:
            for k in range(N_KINDS):
                w[hand(q) + k] = 0
    # the unseen cards in a canonical order (kinds ascending): the shuffle alone decides
    unseen = caps[N_KINDS:2 * N_KINDS]
    unseen_counts(s, seat, unseen)
    i = 0
    for k in range(N_KINDS):
        for _ in range(unseen[k]):
            w[STOCK + i] = k
            i += 1
    shuffle_range(w, STOCK, m, rng)
    avail = m
    ok = True
    for o in range(n_order):
        q = order[o]
        barred_caps(s[BARRED + q], caps)
        need = s[HAND_N + q]
        h = hand(q)
        kept = 0
        for i in range(avail):                # the first cards it may hold, from the top
            c = w[STOCK + avail - 1 - i]
            if need > 0 and (w[h + c] < caps[c] or not strict):
                w[h + c] += 1
                need -= 1
            else:
                w[STOCK + avail - 1 - kept] = c
                kept += 1
        # the kept cards now fill the run's top, in their order; close the gap below them
        gap = avail - kept
        for i in range(kept):
            w[STOCK + i] = w[STOCK + gap + i]
        avail = kept
        if need > 0:
            ok = False
    top = avail
    for q in range(n):                        # the unconstrained seats, from the top
        if q == seat or s[BARRED + q] != 0:
            continue
        for _ in range(s[HAND_N + q]):
            top -= 1
            w[hand(q) + w[STOCK + top]] += 1
    # what is left is exactly STOCK_N cards when s is a real position (the test checks it);
    # clip anyway so that a malformed view cannot index outside the stock run
    w[STOCK_N] = max(top, 0)
    for i in range(max(top, 0), m):
        w[STOCK + i] = 0
    return ok


@linked(**NJIT_OPTIONS, _nrt=False)    # kernels link it; Python calls a twin (simcards.link_only)
def redeal(s, seat, w, rng):
    """Fill ``w`` (``len(s)`` int64s) with a state consistent with what ``seat`` knows of ``s``.

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
        The tries it took (1 .. TRIES); TRIES + 1 when the last deal had to fill a
        constrained seat regardless of what it is known not to hold.
    """
    copy_into(w, s)
    n = s[N]
    d = s[DECK]
    # ---- forget every hidden and other-seat field
    for q in range(MAX_PLAYERS):
        if q != seat:
            for k in range(HAND_STRIDE):
                w[hand(q) + k] = 0
            for j in range(LEGAL_STRIDE):
                w[legal_row(q) + j] = 0
            w[DEALT + q] = 0
            for j in range(MEMORY_SLOTS):
                w[MEMORY + q * MEMORY_SLOTS + j] = 0
    for q in range(MAX_PLAYERS):
        w[RANK_KEYS + q] = 0
    for i in range(STOCK, STOCK + 3 * d):
        w[i] = 0
    # ---- derived tables, as new_state builds them
    fill_tables(w)
    # ---- the constrained seats: jokers only first, then the takers
    # in the state's REDEAL scratch (view.py): no array allocated a deal
    order = w[REDEAL:REDEAL + MAX_PLAYERS]
    caps = w[REDEAL + MAX_PLAYERS:REDEAL + REDEAL_SIZE]
    n_order = np.int64(0)           # typed, not a literal to _deal (simcards.config)
    for pick in (2, 1):
        for q in range(n):
            if q != seat and s[HAND_N + q] > 0 and barred_caps(s[BARRED + q], caps) == pick:
                order[n_order] = q
                n_order += 1
    m = unseen_counts(s, seat, caps[N_KINDS:])
    tries = 1
    while not _deal(s, seat, w, rng, m, order, n_order, caps, tries <= TRIES):
        tries += 1
    for i in range(REDEAL, REDEAL + REDEAL_SIZE):
        w[i] = 0
    # ---- the legal row advance stored for the seat to act (its own is copied already)
    cur = w[CUR]
    if cur != seat and w[OVER] == 0 and w[ENDING] == 0:
        _legal(w, w[PHASE])
    return tries
