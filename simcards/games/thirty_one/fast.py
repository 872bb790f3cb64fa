"""Thirty-One with keys, compiled: the whole game as numba functions over one int64 array.

The generated kernel (simcards.kernels) drives a game with ``start_game``,
``advance`` (forced steps until a strategy must decide), ``view_turn`` /
``view_vote``, ``is_legal``, ``apply`` and ``write_result``; it carries the turn
between them (``advance_turn`` returns the decider and its legal sets, which
``is_legal_turn`` and ``apply_turn`` take as values instead of loading them back). Random draws happen
in exactly the order of the reference engine (reference.py), which the tests
replay against; hands and the middle are kept sorted by card id in both.

The state is one flat int64 array ``s`` (its layout is in view.py), allocated
once per batch and reset per game. When ``advance`` stops at a decision it
stores the decider's legal moves in its rows of ``LEGAL_GIVE``/``LEGAL_TAKE``/
``LEGAL_OTHER`` (three bit masks: the swaps are every card given of the first for
every card taken of the second); ``is_legal``, ``legal_moves`` and the
strategies read those sets. (A list of twelve moves cost 15 ns a turn: 13
stores and a scan; the sets cost three stores and a membership test.)

Hands are scored by one load from ``rules.SCORE_TABLE`` (the public scorer's
answer for every ordered triple), so a strategy weighing nine swaps does nine
loads.

Speed (docs/architecture.md, "The hot path"; measured with callgrind, 4 greedy
players: 740 -> 584 instructions a turn): ``advance`` and ``apply`` are inlined
into the kernel by LLVM, every rare or long step (a deal, a declaration, a
showdown, a renewed middle, "Кручу") is a call; hands and the middle are sorted
from bit masks (``_cards_of``) instead of by compares; seats are read with their
range (``_cur``) and table indices unsigned, so numba adds no wrap-around code;
shuffles then drew their numbers ahead (since dropped: ``_deal`` says why). Then
(issue 13; callgrind, kernel only, 2,000 games: 568 -> about 485 instructions and 2.33 -> 2.04
mispredicted branches a turn in its simple predictor): the greedy strategy is
inlined by LLVM too (strategies/thirty_one/__init__.py), and no branch hangs on
an answer no predictor can learn (whether "Кручу" is legal, a vote, the legality
test). The 36-card shuffle of each deal was a fifth of the instructions (35 draws
and 35 swaps), and 30% of the time under perf once the lazy draw below was in with
its generator state in memory; nobody sees into the stock, so only the cards dealt
are drawn (``_deal``: 12% under perf) and the stock's are chosen when taken
(``simcards.engine.take_top``; docs/rules/thirty-one.md, "Engine notes").
What is left: the branch in ``apply`` on the kind of move just chosen (about 0.6
mispredictions a turn), which is the game's own.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simcards.compiled.config import FORCEINLINE_NJIT_OPTIONS, INTERNAL_NJIT_FLAGS, NJIT_OPTIONS
from simcards.compiled.engine import MEMORY_SLOTS, copy_params, lowest_bit, rank_from_key, take_top
from simcards.games.thirty_one.rules import (
    ACCEPT, ACE_OF_CLUBS, C31, C33, HAND, KNOCK, MAX_PLAYERS, N_CARDS, N_RANKS, PASS, PH_DEAL,
    PH_TURN, PH_VOTE, PROPOSE, REFUSE, SCORE_TABLE, SWAP_BASE, TURN, VOTE)
from simcards.games.thirty_one.view import (
    AS_IT_LIES, BANK, BANK0, CUR, DEALER, DEALT, DECLARED, DISCARD, DISCARD_MASK, DISCARD_N,
    E31, E33, E678, ECAP, EPROP, GIVEN, HANDS, HELD, KEYS, KEYS0, LAST_MOVE, LEGAL_GIVE,
    LEGAL_OTHER, LEGAL_TAKE, MEMORY, MID, N, OVER, PARAM_COPIES, PHASE, PROPOSALS, PROPOSER, QUIET,
    REBUILDS, REFRESHES, REFUSALS, ROUND_CAP, ROUND_TURNS, ROUNDS, SEAT_BITS, SEAT_KEYS, SIZE,
    SNAPSHOT_HEAD, STOCK,
    STOCK_FIXED, STOCK_KNOWN, STOCK_KNOWN_ORDER, STOCK_N, SWAP_BITS, TURN_CAP, TURNS, UNFINISHED,
    VOTER, VOTES, View, in_other, in_sets, other_base)
from simcards.compiled.rng import shuffle_top

DONE = -1
#: Per-seat blocks of the snapshot, in order, after the SNAPSHOT_HEAD scalars.
SNAPSHOT_SEATS = (KEYS, DECLARED, PROPOSALS, VOTES, REFUSALS, HELD, GIVEN, LAST_MOVE)
_GAME_COLUMNS = (ROUNDS, TURNS, E31, E33, E678, EPROP, ECAP, REFRESHES, REBUILDS, UNFINISHED)

_TABLE = SCORE_TABLE
#: The suits a card can stand for, one bit each: its own, or all four for the ace of clubs.
_SUITS = np.array([15 if c == ACE_OF_CLUBS else 1 << (c // N_RANKS) for c in range(N_CARDS)],
                  np.int64)
# How each function is compiled (the way of five_alive/fast.py and bombs_away/fast.py):
#: small helpers: numba copies them into the caller (a call costs more than the helper)
_INLINE = dict(NJIT_OPTIONS, inline="always")
#: ``advance`` and ``apply``, a turn's path, and the helpers copied at several places that
#: call others (``_draw``, three times in ``_renew_middle``; ``_after_exchange``): compiled once,
#: inlined by LLVM into the kernel's loop (no call, no array arguments on the stack; numba's own
#: inlining would re-type and re-lower them at every call site: as copies, ``_draw`` and
#: ``_after_exchange`` cost about 1.5 s of the kernel's 19.5 s compile, issue 13)
_HOT = FORCEINLINE_NJIT_OPTIONS
#: The engine's internal functions take the borrowed state and never keep, return or allocate
#: an array: no Python or C wrapper, no reference counting (numba's NRT calls on the borrowed
#: arrays' null counters cost time on every call). Only ever linked into their callers, they
#: are never emitted alone (simcards.link_only).
_INTERNAL = INTERNAL_NJIT_FLAGS
#: how the cards changed hands, typed, not literal: numba compiles a callee again for every
#: literal argument (simcards.config, "Literal arguments")
_SWAPPED = np.int64(0)
#: the deck's size for the deal's shuffle, typed: a literal would compile simcards.rng.shuffle_top
#: a second time in a search's kernel, beside the redeal's int64 count
_DECK = np.int64(N_CARDS)
_KNOCKED = np.int64(1)


# ---------------------------------------------------------------- cards and hands
@njit(**_INLINE)
def hand_code(a, b, c):
    """score + 64 * combination of three distinct cards (rules.score, precomputed)."""
    # an unsigned index: numba adds no negative-index wrap-around to the load
    return np.int64(_TABLE[np.uint64((a * N_CARDS + b) * N_CARDS + c)])


@njit(**_INLINE)
def hand_score(a, b, c):
    return hand_code(a, b, c) & 63


@njit(**_INLINE)
def is_one_suit(a, b, c):
    """Rules 8-9: three cards of one suit, the ace of clubs counting as any suit (a suit
    all three can stand for; no branch to mispredict)."""
    # unsigned indices: numba adds no negative-index wrap-around to the loads
    return (_SUITS[np.uint64(a)] & _SUITS[np.uint64(b)] & _SUITS[np.uint64(c)]) != 0


@njit(**_INLINE)
def _bits(a, b, c):
    """Three cards as a bit mask (bit c: card c)."""
    one = np.int64(1)
    return (one << a) | (one << b) | (one << c)


@njit(**_INLINE)
def _next(s, p):
    # a compare beats the integer division of `%` on the hot path
    q = p + 1
    if q >= s[N]:
        q = 0
    return q


@njit(**_INLINE)
def _cur(s):
    """The seat whose turn it is, its range told (view.SEAT_BITS)."""
    return s[CUR] & SEAT_BITS


@njit(**_INLINE)
def _voter(s):
    """The seat answering a proposal (in a vote), its range told (view.SEAT_BITS)."""
    return s[VOTER] & SEAT_BITS


@njit(**_INLINE)
def _cards_of(mask):
    """The three cards of a bit mask of three cards, ascending: hands and the middle are sorted
    this way, lowest bit first, without a compare (sorting random cards by compares
    mispredicts about every other branch)."""
    a = lowest_bit(mask)
    mask &= mask - 1
    b = lowest_bit(mask)
    mask &= mask - 1
    return a, b, lowest_bit(mask)


@njit(**_INLINE)
def _hand(s, p):
    """Seat p's cards, ascending."""
    h = HANDS + HAND * p
    return s[h], s[h + 1], s[h + 2]


@njit(**_INLINE)
def _set_hand(s, p, a, b, c):
    """Seat p's cards, given ascending."""
    h = HANDS + HAND * p
    s[h] = a
    s[h + 1] = b
    s[h + 2] = c


@njit(**_INLINE)
def _middle(s):
    return s[MID], s[MID + 1], s[MID + 2]


@njit(**_INLINE)
def _set_middle(s, a, b, c):
    s[MID] = a
    s[MID + 1] = b
    s[MID + 2] = c


@njit(**_INLINE)
def _combo(s, p):
    a, b, c = _hand(s, p)
    return hand_code(a, b, c) >> 6


@njit(**_INLINE)
def _showdown_value(s, p):
    """Seat p's score, a 32 counting below everything (rule 5)."""
    a, b, c = _hand(s, p)
    v = hand_score(a, b, c)
    return -1 if v == 32 else v


# ---------------------------------------------------------------- set-up and the deal
@njit(**NJIT_OPTIONS)
def new_state(n, params):
    """One state for a whole batch; ``start_game`` resets it for every game."""
    s = np.zeros(SIZE, np.int64)
    s[N] = n
    copy_params(s, params, PARAM_COPIES)                # the rule settings
    return s


@njit(**NJIT_OPTIONS, **_INTERNAL)
def start_game(s, rng):
    n = s[N]
    for p in range(MAX_PLAYERS):
        s[KEYS + p] = s[KEYS0] if p < n else 0             # rule 6
        if 0 < p < n:
            s[KEYS + p] += s[SEAT_KEYS + p - 1]            # seat compensation
        s[DECLARED + p] = 0
        s[PROPOSALS + p] = 0
        s[REFUSALS + p] = 0
        s[LEGAL_GIVE + p] = 0
        s[LEGAL_TAKE + p] = 0
        s[LEGAL_OTHER + p] = 0
    for i in range(MAX_PLAYERS * MEMORY_SLOTS):
        s[MEMORY + i] = 0
    s[BANK] = s[BANK0]
    for i in (TURNS, ROUNDS, OVER, UNFINISHED, E31, E33, E678, EPROP, ECAP, REFRESHES, REBUILDS):
        s[i] = 0
    s[DEALER] = n - 1                                      # rule 7
    s[STOCK_KNOWN] = 0                                     # (the last game's rebuilt stock)
    for i in range(N_CARDS):
        s[STOCK_KNOWN_ORDER + i] = 0
    _deal(s, rng)
    for p in range(n):
        a, b, c = _hand(s, p)
        s[DEALT + p] = _bits(a, b, c)


@njit(**NJIT_OPTIONS, **_INTERNAL)
def _deal(s, rng):
    """Rule 7: all 36 cards in id order, shuffled; one card at a time from the dealer's left,
    three times round; then three cards face up in the middle; the rest is the stock.

    Only the cards dealt are shuffled into place: the first 3n + 3 steps of the shuffle
    (simcards.rng.shuffle_top; the same numbers and cards as the whole shuffle's first steps).
    The stock left under them is shuffled as it is taken (simcards.engine.take_top). Drawing
    the numbers ahead on SIMD lanes (``shuffle_top_ahead``) saved 5% of a turn on an AMD EPYC
    and cost 3% on this project's Intel Xeon (docs/performance.md): the same cards either way."""
    for k in range(N_CARDS):
        s[STOCK + k] = k
    n = s[N]
    shuffle_top(s, STOCK, _DECK, 3 * n + 3, rng)
    s[STOCK_FIXED] = 0
    first = _next(s, s[DEALER])
    # the positions dealt from, unsigned (all inside the stock), and the seats read with their
    # range: numba then adds no negative-index wrap-around to these loads and stores
    un = np.uint64(n)
    top = np.uint64(STOCK + N_CARDS - 1)                  # the stock's top card
    for i in range(n):
        # seat `first + i` gets the cards dealt in rounds 0, 1, 2 of the deal
        p = first + i
        if p >= n:
            p -= n
        k = top - np.uint64(i)
        a, b, c = _cards_of(_bits(s[k], s[k - un], s[k - un - un]))
        _set_hand(s, p & SEAT_BITS, a, b, c)
    top -= un + un + un
    a, b, c = _cards_of(_bits(s[top], s[top - np.uint64(1)], s[top - np.uint64(2)]))
    _set_middle(s, a, b, c)
    s[STOCK_N] = np.int64(top) - 2 - STOCK
    _clear_discard(s)
    if s[REBUILDS] != 0:                                   # no stock rebuilt in the new round
        s[STOCK_KNOWN] = 0
        for i in range(N_CARDS):
            s[STOCK_KNOWN_ORDER + i] = 0
    for p in range(MAX_PLAYERS):
        s[VOTES + p] = -1
        s[HELD + p] = 0
        s[GIVEN + p] = 0
        s[LAST_MOVE + p] = -1
    s[ROUND_TURNS] = 0
    s[QUIET] = 0
    s[PROPOSER] = -1
    s[VOTER] = -1
    s[CUR] = first
    s[ROUNDS] += 1
    s[PHASE] = PH_DEAL


# ---------------------------------------------------------------- stock, middle, discard pile
@njit(**_INLINE)
def _clear_discard(s):
    """An empty discard pile: past its top the pile's block holds zeros (it is public)."""
    for i in range(s[DISCARD_N]):
        s[DISCARD + i] = 0
    s[DISCARD_N] = 0
    s[DISCARD_MASK] = 0


@njit(**NJIT_OPTIONS, **_INTERNAL)
def _rebuild(s, rng):
    """Rule 10: the discard pile becomes the stock, shuffled (cards in id order first) or as it lies."""
    m = s[DISCARD_N]
    s[STOCK_KNOWN] = s[DISCARD_MASK]                       # public: the pile's cards
    if s[AS_IT_LIES] != 0:
        for i in range(N_CARDS):
            s[STOCK_KNOWN_ORDER + i] = s[DISCARD + i]       # zeros past the pile
        for i in range(m):
            s[STOCK + i] = s[DISCARD + i]
        s[STOCK_FIXED] = m                                  # every card in a known place
    else:
        pos = STOCK
        mask = s[DISCARD_MASK]
        for k in range(N_CARDS):
            if (mask >> k) & 1:
                s[pos] = k
                pos += 1
        s[STOCK_FIXED] = 0                                  # shuffled as it is taken
    _clear_discard(s)
    s[STOCK_N] = m
    s[REBUILDS] += 1


@njit(**_HOT, **_INTERNAL)
def _draw(s, rng):
    if s[STOCK_N] == 0:
        _rebuild(s, rng)
    return take_top(s, STOCK, STOCK_N, STOCK_FIXED, rng)


@njit(**NJIT_OPTIONS, **_INTERNAL)
def _renew_middle(s, rng):
    """Rules 9, 9a: the middle (ids ascending) goes face down; three stock cards replace it."""
    d = DISCARD + s[DISCARD_N]
    for i in range(3):
        c = s[MID + i]
        s[d + i] = c
        s[DISCARD_MASK] |= 1 << c
    s[DISCARD_N] += 3
    a = _draw(s, rng)
    b = _draw(s, rng)
    c = _draw(s, rng)
    s[STOCK_KNOWN] &= ~_bits(a, b, c)                       # drawn face up: no longer in the stock
    a, b, c = _cards_of(_bits(a, b, c))
    _set_middle(s, a, b, c)


# ---------------------------------------------------------------- keys and the end of a round
@njit(**NJIT_OPTIONS, **_INTERNAL)
def _showdown(s):
    """Rule 17: the lowest score (all tied lowest) loses one key."""
    low = 99
    for p in range(s[N]):
        v = _showdown_value(s, p)
        if v < low:
            low = v
    for p in range(s[N]):
        if _showdown_value(s, p) == low:
            s[KEYS + p] -= 1


@njit(**NJIT_OPTIONS, **_INTERNAL)
def _declare(s, rng, p, combo):
    """Rules 14-16, then the end of the round."""
    n = s[N]
    s[DECLARED + p] += 1
    if combo == C31:
        s[E31] += 1
        low = 99
        for q in range(n):
            if q != p:
                v = _showdown_value(s, q)
                if v < low:
                    low = v
        for q in range(n):
            if q != p and _showdown_value(s, q) == low:
                s[KEYS + q] -= 1
    else:
        gain = 3
        if combo == C33:
            s[E33] += 1
        else:
            s[E678] += 1
            gain = 1
        if gain > s[BANK]:
            gain = s[BANK]
        s[KEYS + p] += gain
        s[BANK] -= gain
        for q in range(n):
            if q != p and _combo(s, q) == 0:
                s[KEYS + q] -= 1
    _end_round(s, rng)


@njit(**NJIT_OPTIONS, **_INTERNAL)
def _end_round(s, rng):
    """Rule 18: over when a player has no keys; rule 19: the round cap; else the next deal."""
    s[PHASE] = PH_TURN
    for p in range(s[N]):
        if s[KEYS + p] <= 0:
            s[OVER] = 1
            return
    if s[ROUNDS] >= s[ROUND_CAP]:
        s[OVER] = 1
        s[UNFINISHED] = 1
        return
    s[DEALER] = _next(s, s[DEALER])
    _deal(s, rng)


@njit(**NJIT_OPTIONS, **_INTERNAL)
def _check_deal(s, rng):
    """Rule 13: dealt combinations, in turn order from the dealer's left; the best wins, then the first."""
    best = np.int64(0)          # typed: numba would compile _declare for literal 0 and -1 too
    who = np.int64(-1)          # (simcards.config, "Literal arguments")
    p = s[DEALER]
    for _ in range(s[N]):
        p = _next(s, p) & SEAT_BITS     # its range told: no wrap-around code on the hand's loads
        c = _combo(s, p)
        if c > best:
            best = c
            who = p
    if who >= 0:
        _declare(s, rng, who, best)
    else:
        s[PHASE] = PH_TURN


# ---------------------------------------------------------------- the protocol of the kernel
@njit(**_INLINE)
def _list(s, p, give, take, other):
    """Seat p's legal sets, stored (the view's legal moves read them) and returned as the turn
    the kernel carries: (seat, LEGAL_GIVE, LEGAL_TAKE, LEGAL_OTHER)."""
    s[LEGAL_GIVE + p] = give
    s[LEGAL_TAKE + p] = take
    s[LEGAL_OTHER + p] = other
    return p, give, take, other


@njit(**_INLINE)
def _list_turn(s, p):
    """Rule 8, the legal moves of a turn, as sets: any card of the hand for any middle card;
    pass and propose; "Кручу" with a one-suit hand."""
    a, b, c = _hand(s, p)
    x, y, z = _middle(s)
    one = np.int64(1)
    knock = np.int64(is_one_suit(a, b, c))
    return _list(s, p, _bits(a, b, c), _bits(x, y, z),
                 (one << (PASS - PASS)) | (knock << (KNOCK - PASS)) | (one << (PROPOSE - PASS)))


@njit(**_INLINE)
def _list_vote(s, p):
    """Rule 11: a proposal is refused (0) or accepted (1)."""
    zero = np.int64(0)
    return _list(s, p, zero, zero, (np.int64(1) << REFUSE) | (np.int64(1) << ACCEPT))


@njit(**NJIT_OPTIONS)
def legal_moves(s, out):
    """The legal moves of the decision ``advance`` stopped at, in code order, into ``out``;
    returns how many."""
    p = decider(s)
    k = 0
    for give in range(N_CARDS):
        if (s[LEGAL_GIVE + p] >> give) & 1:
            for take in range(N_CARDS):
                if (s[LEGAL_TAKE + p] >> take) & 1:
                    out[k] = give * SWAP_BASE + take
                    k += 1
    base = other_base(s)
    for i in range(63):
        if (s[LEGAL_OTHER + p] >> i) & 1:
            out[k] = base + i
            k += 1
    return k


# _cap, _refresh and _accepted are a counter and two calls: copied into their callers by
# numba, where as compiled functions each was a library of its own, optimized and emitted
# again in every caller's (simcards.config, "Compiled functions")
@njit(**_INLINE)
def _cap(s, rng):
    """Rule 12: a round still going after TURN_CAP turns ends in a showdown."""
    s[ECAP] += 1
    _showdown(s)
    _end_round(s, rng)


_NO_TURN = (np.int64(0), np.int64(0), np.int64(0), np.int64(0))


@njit(**_HOT, **_INTERNAL)
def advance_turn(s, rng):
    """Forced steps (dealt combinations, the turn cap) until a strategy must decide: (TURN or
    VOTE, the turn), the turn being (decider, LEGAL_GIVE, LEGAL_TAKE, LEGAL_OTHER) of the
    decision; (DONE, zeros) at the end. Leaves the decider's legal moves in its rows of
    LEGAL_GIVE/LEGAL_TAKE/LEGAL_OTHER too (the view reads them).

    The kernel hands the turn on to ``is_legal_turn`` and ``apply_turn`` (simcards.kernels),
    in registers: read back from the state array after the strategy's turn, the seat and the
    sets were loads that numba's pass order leaves in (the same as Five Alive's)."""
    while True:
        if s[OVER] != 0:
            return DONE, _NO_TURN
        ph = s[PHASE]
        if ph == PH_TURN:
            if s[ROUND_TURNS] < s[TURN_CAP]:
                return TURN, _list_turn(s, _cur(s))
            _cap(s, rng)
        elif ph == PH_VOTE:
            return VOTE, _list_vote(s, _voter(s))
        else:
            _check_deal(s, rng)


@njit(**_INLINE)
def advance(s, rng):
    """``advance_turn``'s decision alone."""
    return advance_turn(s, rng)[0]


@njit(**_INLINE)
def decider(s):
    return _voter(s) if s[PHASE] == PH_VOTE else _cur(s)


@njit(**_INLINE)
def _turn(s):
    """The turn as ``advance_turn`` returns it, read back from the state."""
    p = decider(s)
    return p, s[LEGAL_GIVE + p], s[LEGAL_TAKE + p], s[LEGAL_OTHER + p]


@njit(**_INLINE)
def decider_turn(s, turn):
    return turn[0]


@njit(**_INLINE)
def view_turn(s):
    return View(s, _cur(s))


@njit(**_INLINE)
def view_vote(s):
    return View(s, _voter(s))


@njit(**_INLINE)
def view_turn_turn(s, turn):
    return View(s, turn[0])


@njit(**_INLINE)
def view_vote_turn(s, turn):
    return View(s, turn[0])


@njit(**_INLINE)
def is_legal(s, kind, move):
    return is_legal_turn(s, _turn(s), kind, move)


@njit(**_INLINE)
def is_legal_turn(s, turn, kind, move):
    """``move`` is in the sets ``advance_turn`` stored for this decision and carries in
    ``turn`` (view.in_sets: the one membership test).

    Split on ``kind`` first: the kernel tests each decision where it knows which, so only that
    decision's test is left there (a vote's sets hold no swap: one shift and a mask)."""
    _, give, take, other = turn
    if kind == VOTE:
        return (s[PHASE] == PH_VOTE) & ((in_other(other, move, REFUSE) & 1) != 0)
    return (kind == TURN) & (s[PHASE] != PH_VOTE) & in_sets(give, take, other, PASS, move)


@njit(**_INLINE)
def _refresh(s, rng):
    """Rule 9a: a full circle with no card changing hands refreshes the middle."""
    s[QUIET] = 0
    s[REFRESHES] += 1
    _renew_middle(s, rng)


@njit(**_INLINE)
def _quiet_turn(s, rng):
    s[QUIET] += 1
    if s[QUIET] >= s[N]:
        _refresh(s, rng)


@njit(**_HOT, **_INTERNAL)
def _after_exchange(s, rng, p, hand, mid, knocked):
    """A combination is declared at once (rule 13); else a one-suit middle (always so after
    "Кручу") is renewed and the player goes again (rule 9). ``hand``, ``mid``: the cards now,
    as bit masks."""
    a, b, c = _cards_of(hand)
    combo = hand_code(a, b, c) >> 6
    x, y, z = _cards_of(mid)
    if combo != 0:
        _declare(s, rng, p, combo)
    elif knocked != 0 or is_one_suit(x, y, z):
        _renew_middle(s, rng)
    else:
        s[CUR] = _next(s, p)


@njit(**_INLINE)
def _swap(s, rng, turn, give, take):
    """Rule 8: one card of the hand for one of the middle. The legal sets of this turn are the
    hand's and the middle's cards (``_list_turn``), so the exchange is a bit flip in each, and
    both come out sorted from the masks (``_cards_of``) without a compare."""
    p, hand_mask, mid_mask, _ = turn
    g = np.int64(1) << give
    t = np.int64(1) << take
    hand = hand_mask ^ g ^ t
    mid = mid_mask ^ t ^ g
    a, b, c = _cards_of(hand)
    _set_hand(s, p, a, b, c)
    x, y, z = _cards_of(mid)
    _set_middle(s, x, y, z)
    s[HELD + p] = (s[HELD + p] & ~g) | t
    s[GIVEN + p] |= g
    s[QUIET] = 0
    _after_exchange(s, rng, p, hand, mid, _SWAPPED)


@njit(**NJIT_OPTIONS, **_INTERNAL)
def _knock(s, rng, p):
    """"Кручу": the hand and the middle change places (both stay sorted)."""
    a, b, c = _hand(s, p)
    x, y, z = _middle(s)
    _set_hand(s, p, x, y, z)
    _set_middle(s, a, b, c)
    hand = s[LEGAL_TAKE + p]                               # the middle's cards, now the hand's
    mid = s[LEGAL_GIVE + p]
    s[HELD + p] = hand
    s[GIVEN + p] |= mid
    s[QUIET] = 0
    _after_exchange(s, rng, p, hand, mid, _KNOCKED)


@njit(**_INLINE)
def _propose(s, p):
    """Rule 11: "Выкладываем?": every other player is asked in turn order."""
    s[PROPOSALS + p] += 1
    s[PROPOSER] = p
    s[VOTER] = _next(s, p)
    s[PHASE] = PH_VOTE


@njit(**_INLINE)
def apply(s, rng, kind, move):
    apply_turn(s, rng, _turn(s), kind, move)


@njit(**_HOT, **_INTERNAL)
def apply_turn(s, rng, turn, kind, move):
    if kind == VOTE:
        _vote(s, rng, turn[0], move)
        return
    p = turn[0]
    s[ROUND_TURNS] += 1                                    # rule 12: every action
    s[TURNS] += 1
    s[LAST_MOVE + p] = move
    if move < PASS:                                        # rule 8: swap one card
        _swap(s, rng, turn, move >> SWAP_BITS, move & (SWAP_BASE - 1))
    elif move == PASS:
        s[CUR] = _next(s, p)
        _quiet_turn(s, rng)
    elif move == KNOCK:
        _knock(s, rng, p)
    else:
        _propose(s, p)


@njit(**_INLINE)
def _accepted(s, rng):
    s[EPROP] += 1
    _showdown(s)
    _end_round(s, rng)


@njit(**_INLINE)
def _vote(s, rng, q, move):
    """Rule 11: every other player is asked in turn order; all must accept. ``q``: the voter."""
    s[VOTES + q] = move
    s[REFUSALS + q] += np.int64(move == REFUSE)            # no branch on the answer: unpredictable
    nq = _next(s, q)
    p = s[PROPOSER] & SEAT_BITS
    if nq != p:
        s[VOTER] = nq
        return
    accepted = True
    n = s[N]
    # over every seat, a constant count (unrolled; seats beyond the players hold -1 already)
    for r in range(MAX_PLAYERS):
        if r != p and r < n and s[VOTES + r] != ACCEPT:
            accepted = False
        s[VOTES + r] = -1
    s[PROPOSER] = -1
    s[VOTER] = -1
    s[PHASE] = PH_TURN
    if accepted:
        _accepted(s, rng)
        return
    s[CUR] = _next(s, p)
    _quiet_turn(s, rng)


@njit(**NJIT_OPTIONS, **_INTERNAL)
def write_result(s, seat_out, game_out):
    """seat_out[p] = (win, rank, keys, dealt_mask, declared, proposals); game_out as GAME_COLUMNS
    with "unfinished" last."""
    n = s[N]
    unfinished = s[UNFINISHED] != 0
    keys = s[KEYS:KEYS + MAX_PLAYERS]
    for p in range(n):
        rank = rank_from_key(keys, n, p)
        seat_out[p, 0] = 1 if (rank == 1 and not unfinished) else 0
        seat_out[p, 1] = rank
        seat_out[p, 2] = s[KEYS + p]
        seat_out[p, 3] = s[DEALT + p]
        seat_out[p, 4] = s[DECLARED + p]
        seat_out[p, 5] = s[PROPOSALS + p]
    for j in range(len(_GAME_COLUMNS)):
        game_out[j] = s[_GAME_COLUMNS[j]]


@njit(**NJIT_OPTIONS)
def snapshot_size(n, params):
    return len(SNAPSHOT_HEAD) + len(SNAPSHOT_SEATS) * n + HAND * n + HAND + 2 * N_CARDS


@njit(**NJIT_OPTIONS)
def snapshot(s, out):
    """Everything that defines the state but the strategies' memory, in the layout
    reference.Game.snapshot() uses: the SNAPSHOT_HEAD scalars; the SNAPSHOT_SEATS blocks per
    seat; hands; middle; stock and discard pile (-1 past their tops)."""
    i = 0
    for f in SNAPSHOT_HEAD:
        out[i] = s[f]
        i += 1
    n = s[N]
    for block in SNAPSHOT_SEATS:
        for p in range(n):
            out[i] = s[block + p]
            i += 1
    for j in range(HAND * n):
        out[i + j] = s[HANDS + j]
    i += HAND * n
    for j in range(HAND):
        out[i + j] = s[MID + j]
    i += HAND
    for j in range(N_CARDS):
        out[i + j] = s[STOCK + j] if j < s[STOCK_N] else -1
    i += N_CARDS
    for j in range(N_CARDS):
        out[i + j] = s[DISCARD + j] if j < s[DISCARD_N] else -1
