"""Bombs Away determinization: a complete engine state consistent with what one seat knows.

A search player cannot play on from its view: the other hands and the stock are hidden (zero in
the reference engine's views). ``redeal(s, seat, w, rng)`` writes into ``w`` a full state that
``seat`` cannot tell from the real one: every field it may read is copied, every other field is
filled from fields it may read only (the layout's visibilities, view.py):

- the unseen cards are the deck (``KIND_COUNTS``) less its own hand less the pile
  (``PILE_COUNTS``): the pile keeps its counts through rule 5's refill and a 7's five cards, so
  the unseen set follows every reshuffle; they go to the other hands, each exactly its public
  ``HAND_N`` cards, and the rest, ``STOCK_N`` of them, is the stock in a random order;
- derived engine fields are rebuilt as the engine keeps them: every hand's kind mask (``HELD``),
  the kinds counted in ``KNOWN`` per hand (``KNOWN_KINDS``, from the seat's own row: the other
  rows are zero here) and the engine's phase from the public question (``KIND``, ``ASKING``,
  the duel under way);
- what no public fact determines and the engine never reads before writing it is zero: other
  seats' starting hands (``DEALT``: a result column only), memory and ``KNOWN`` rows, and the
  shuffle scratch.

Inferences (each is checked against the true state on real games, tests/bombs_away/test_redeal.py):

1. **Cards the seat moved itself (rules 10, 14).** A card the seat gave away by its own 9, or that
   an opponent took from it by a 5 or a 9, is in that opponent's hand until it may have left it:
   ``KNOWN`` (the seat's own row, view.py) keeps those counts, one less for every card of the kind
   the holder plays, answers or loses, one less of every kind when a third seat takes a card from
   it at random, cleared by the holder's 4 or going out. The redeal puts those cards in that
   hand first.
2. **An 8's name not followed (rule 13).** A next player whose first card was neither the rank
   named nor the joker held neither; ``VOID``/``FREE`` (public) say that the seat holds at most
   ``FREE`` cards of those kinds (the cards it has gained since). The redeal deals such a hand
   only that many cards of those kinds.

The constrained hands are dealt first, each from the top of the shuffled unseen cards, passing
over a card it may not hold; a deal that runs short (a tiny stock late in a game) is drawn again,
up to ``RETRIES`` times, then dealt without inference 2 (never seen in the tests' positions).
What is not inferred: the order of the stock's bottom (a player out puts its hand there kinds
ascending, the tens rule its extra 10s), and anything from a strategy's habits.

Because nothing hidden is read, the result is the same from the engine's live state and from the
reference engine's view of it: a search built on it passes the twin test.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simcards.compiled.config import NJIT_OPTIONS
from simcards.compiled.link_only import linked
from simcards.compiled.engine import MEMORY_SLOTS, copy_into
from simcards.games.bombs_away.fast import (
    PH_ANSWER, PH_EXTRA, PH_NAME_ANSWER, PH_NAME_EIGHT, PH_NAME_JOKER, PH_PLAY, PH_TARGET_FIVE,
    PH_TARGET_NINE, PH_TARGET_VICTIM, PH_TURN)
from simcards.games.bombs_away.rules import (
    ANSWER, EIGHT, EXTRA, FIVE, JOKER, KIND_COUNTS, MAX_PLAYERS, NAME, NINE, PLAY, TARGET)
from simcards.games.bombs_away.view import (
    A_DEALT, A_FREE, A_HAND_N, A_HANDS, A_HELD, A_KNOWN, A_KNOWN_KINDS, A_PILE_COUNTS, A_REDEAL, A_SCRATCH,
    A_STOCK, A_VOID, K, KNOWN_ROW, MEMORY, REDEAL_SIZE, ROOM, S_ASKING, S_DUEL_FROM, S_KIND, S_N, S_PHASE,
    S_STOCK_FIXED, S_STOCK_N)
from simcards.compiled.rng import rand_below

_COUNTS = np.array(KIND_COUNTS, np.int64)
#: deals drawn again when a constrained hand runs short, before inference 2 is dropped
RETRIES = 20


@njit(**NJIT_OPTIONS)
def unseen_counts(s, seat, out):
    """Cards of each kind ``seat`` cannot see (other hands and the stock) into ``out`` (length
    ``K``); returns how many. Public facts and its own hand only."""
    m = 0
    for k in range(K):
        c = _COUNTS[k] - s[A_HANDS + seat * K + k] - s[A_PILE_COUNTS + k]
        out[k] = c
        m += c
    return m


@njit(**NJIT_OPTIONS)
def phase_of(s):
    """The engine's phase at a pending question, from public fields only."""
    kind = s[S_KIND]
    card = s[S_ASKING]
    if kind == PLAY:
        return PH_PLAY
    if kind == EXTRA:
        return PH_EXTRA
    if kind == NAME:
        if card == EIGHT:
            return PH_NAME_EIGHT
        return PH_NAME_ANSWER if s[S_DUEL_FROM] >= 0 else PH_NAME_JOKER
    if kind == TARGET:
        if card == FIVE:
            return PH_TARGET_FIVE
        if card == NINE:
            return PH_TARGET_NINE
        return PH_TARGET_VICTIM
    if kind == ANSWER:
        return PH_ANSWER
    return PH_TURN


@njit(**NJIT_OPTIONS)
def _put(w, q, k):
    """A card of kind k into q's hand (counts, size, kind mask)."""
    w[A_HANDS + q * K + k] += 1
    w[A_HAND_N + q] += 1
    w[A_HELD + q] |= np.int64(1) << k


@njit(**NJIT_OPTIONS)
def _deal(s, seat, w, rng, order, n_order, unseen, pool, use_void):
    """One try: known cards first, then each seat of ``order`` from the top of the shuffled
    rest, passing over cards inference 2 forbids (``pool``: scratch of ``len(unseen)``).
    Returns False if a hand ran short."""
    n = s[S_N]
    for q in range(n):
        if q != seat:
            w[A_HANDS + q * K:A_HANDS + (q + 1) * K] = 0
            w[A_HAND_N + q] = 0
            w[A_HELD + q] = 0
    for k in range(K):
        pool[k] = unseen[k]
    for q in range(n):              # inference 1: what the seat knows each hand holds
        if q == seat:
            continue
        base = A_KNOWN + seat * KNOWN_ROW + q * K
        for k in range(K):
            c = min(s[base + k], pool[k], s[A_HAND_N + q] - w[A_HAND_N + q])
            for _ in range(c):
                _put(w, q, k)
            pool[k] -= c
    m = 0
    for k in range(K):              # the rest, kinds ascending, then shuffled
        for _ in range(pool[k]):
            w[A_STOCK + m] = k
            m += 1
    for i in range(m - 1, 0, -1):
        j = rand_below(rng, i + 1)
        t = w[A_STOCK + i]
        w[A_STOCK + i] = w[A_STOCK + j]
        w[A_STOCK + j] = t
    for t in range(n_order):
        q = order[t]
        void = s[A_VOID + q] if use_void else 0
        room = s[A_FREE + q]        # inference 2: at most FREE cards of the VOID kinds
        for k in range(K):
            if (void >> k) & 1:
                room -= w[A_HANDS + q * K + k]
        need = s[A_HAND_N + q] - w[A_HAND_N + q]
        j = m - 1
        while need > 0:
            if j < 0:
                return False
            k = w[A_STOCK + j]
            ok = ((void >> k) & 1) == 0
            if not ok and room > 0:
                room -= 1
                ok = True
            if ok:
                w[A_STOCK + j] = w[A_STOCK + m - 1]
                m -= 1
                _put(w, q, k)
                need -= 1
            j -= 1
    return True


@linked(**NJIT_OPTIONS, _nrt=False)    # kernels link it; Python calls a twin (simcards.link_only)
def redeal(s, seat, w, rng):
    """Fill ``w`` (``len(s)`` int64s) with a state consistent with what ``seat`` knows of ``s``.

    Parameters
    ----------
    s : int64 array
        The engine's state at a pending question, or the reference engine's view of it
        (hidden fields zero): only what ``seat`` may read is used.
    seat : int
        The seat whose knowledge the deal must agree with.
    w : int64 array
        Output, the same length as ``s``; may not be ``s`` itself.
    rng : uint64[1]
        Generator state (simcards.rng) for the deal of the unseen cards.

    Returns
    -------
    int
        How many cards were unseen (other hands and stock together).
    """
    copy_into(w, s)
    n = s[S_N]
    for q in range(MAX_PLAYERS):    # forget every other seat's private rows
        if q != seat:
            w[A_DEALT + q] = 0
            w[MEMORY + q * MEMORY_SLOTS:MEMORY + (q + 1) * MEMORY_SLOTS] = 0
            w[A_KNOWN + q * KNOWN_ROW:A_KNOWN + (q + 1) * KNOWN_ROW] = 0
            w[A_HANDS + q * K:A_HANDS + (q + 1) * K] = 0
            w[A_HAND_N + q] = s[A_HAND_N + q]
            w[A_HELD + q] = 0
    held = 0
    for k in range(K):
        held |= np.int64(s[A_HANDS + seat * K + k] > 0) << k
    w[A_HELD + seat] = held
    for q in range(MAX_PLAYERS):    # the kinds some seat counts in KNOWN: here the seat alone
        kinds = 0
        for k in range(K):
            kinds |= np.int64(s[A_KNOWN + seat * KNOWN_ROW + q * K + k] > 0) << k
        w[A_KNOWN_KINDS + q] = kinds
    w[S_PHASE] = phase_of(s)
    w[A_SCRATCH:A_SCRATCH + MAX_PLAYERS] = 0
    w[A_STOCK:A_STOCK + ROOM] = 0
    # in the state's REDEAL scratch (view.py): no array allocated a deal
    unseen = w[A_REDEAL:A_REDEAL + K]
    pool = w[A_REDEAL + K:A_REDEAL + 2 * K]
    order = w[A_REDEAL + 2 * K:A_REDEAL + REDEAL_SIZE]
    total = unseen_counts(s, seat, unseen)
    # the hands inference 2 constrains first, then the others
    c = np.int64(0)                 # typed, and the last try's flag computed: literals would
    for q in range(n):              # compile _deal once per value (simcards.config)
        if q != seat and s[A_VOID + q] != 0:
            order[c] = q
            c += 1
    for q in range(n):
        if q != seat and s[A_VOID + q] == 0:
            order[c] = q
            c += 1
    # up to RETRIES tries that respect inference 2, then one that may not
    for attempt in range(RETRIES + 1):
        if _deal(s, seat, w, rng, order, c, unseen, pool, attempt < RETRIES):
            break
    w[A_REDEAL:A_REDEAL + REDEAL_SIZE] = 0
    # what is left is exactly STOCK_N cards in a real position (the test checks it); the engine
    # never reads the places above it, which are zero here
    m = total
    for q in range(n):
        if q != seat:
            m -= w[A_HAND_N + q]
    w[S_STOCK_N] = max(m, 0)
    # the stock lies in the deal's random order and is taken in it (as if laid out by a shuffle):
    # a search compares its moves on the same redeal, and a stock drawn at random as it is taken
    # would draw other cards after any move that spends the game's numbers differently (a 5 or
    # a 9), weakening that common-sample comparison
    w[S_STOCK_FIXED] = max(m, 0)
    w[A_STOCK + max(m, 0):A_STOCK + ROOM] = 0
    return total
