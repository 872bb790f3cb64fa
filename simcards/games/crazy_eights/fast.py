"""Crazy Eights, compiled: the whole game as numba functions over one int64 array.

The generated kernel (simcards.kernels) drives a game with ``start_game``, ``advance``
(forced moves until a strategy must decide), ``view_play`` / ``view_suit``, ``is_legal``,
``apply`` and ``write_result``. Random draws happen in exactly the order of the reference
engine (reference.py), which the tests replay against.

The state is one flat int64 array ``s`` (its layout is in view.py), allocated once per batch
and reset per game. A hand is a bit mask of card ids, so the rule of a legal card (rule 4) is
two ANDs (``_playable``). When ``advance`` stops at a decision it stores the decider's legal
moves as a bit mask in its row of ``LEGAL``; ``is_legal``, ``legal_moves`` and the strategies
read it. A decision with one legal move is not asked: the engine makes it (rule 10).

The stock is never shuffled: nobody sees into it, so each card is chosen at random when it is
taken (simcards.engine.take_top), which deals exactly what a shuffle would, with one random
number per card taken.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simcards.compiled.config import FORCEINLINE_NJIT_OPTIONS, INTERNAL_NJIT_FLAGS, NJIT_OPTIONS
from simcards.compiled.engine import MEMORY_SLOTS, bit_count, copy_params, lowest_bit, take_top
from simcards.games.crazy_eights.rules import (
    DRAW, EIGHT, EIGHTS, MAX_PLAYERS, N_CARDS, N_RANKS, N_SUITS, NAME_SUIT, PASS, PH_DREW, PH_PLAY,
    PH_SUIT, PLAY, RANK_POINTS, _RANK0, _SUIT0)
from simcards.games.crazy_eights.view import (
    BLOCKED, CUR, DEALER, DRAW_ONE, DRAWN, DRAWS, DREW, EIGHTS_PLAYED, HAND_N, HAND_SIZE, HANDS,
    HANDS_DEALT, LACKS, LEGAL, MEMORY, N, OVER, PARAM_COPIES, PASSES, PHASE, PILE, PILE_MASK, PILE_N,
    RESHUFFLE, RESHUFFLES, SCORE, SEAT_BITS, SIZE, SNAPSHOT_HEAD, SNAPSHOT_SEATS, STOCK,
    STOCK_FIXED, STOCK_N, STUCK, SUIT, TARGET, TOP, TURN_CAP, TURNS, UNFINISHED, View)

DONE = -1
#: small helpers: numba copies them into the caller (a call costs more than the helper)
_INLINE = dict(NJIT_OPTIONS, inline="always")
#: The engine's own functions: no wrappers, no reference counting (simcards.config says why).
_INTERNAL = INTERNAL_NJIT_FLAGS
#: ``advance`` and ``apply``, which the kernel and the search's rollouts call: inlined by LLVM,
#: with a Python wrapper (tests call them), and no reference counting.
_ENTRY = {**FORCEINLINE_NJIT_OPTIONS, "_nrt": False}
_ONE = np.int64(1)
_RANK0_ = np.int64(_RANK0)
_SUIT0_ = np.int64(_SUIT0)
_EIGHTS = np.int64(EIGHTS)
_RANK_POINTS = np.array(RANK_POINTS, np.int64)
#: the suit decision's legal moves: every suit
_ALL_SUITS = np.int64((1 << N_SUITS) - 1)
#: a hand's rank key: the score first, then the fewer points held (rules 9, 11)
_KEY_SCALE = 1 << 12


# ---------------------------------------------------------------- small helpers
@njit(**_INLINE)
def _cur(s):
    """The seat to move, its range told to the compiler (no value changes)."""
    return s[CUR] & SEAT_BITS


@njit(**_INLINE)
def _next(s, p):
    """The next seat clockwise (rule 2)."""
    q = p + 1
    return q if q < s[N] else 0


@njit(**_INLINE)
def _pattern(s):
    """Rule 4: the cards that may be played now, as a mask: the eights, the top card's rank,
    the suit to follow."""
    return (_SUIT0_ << (N_RANKS * s[SUIT])) | (_RANK0_ << (s[TOP] % N_RANKS)) | _EIGHTS


@njit(**_INLINE)
def _playable(s, p):
    """The cards of seat p's hand that may be played now."""
    return s[HANDS + p] & _pattern(s)


@njit(**_INLINE)
def _can_draw(s):
    """Rule 6: a card can be drawn, from the stock or (empty_stock=reshuffle) a new stock made
    of the discard pile under its top card."""
    return np.int64((s[STOCK_N] > 0) | ((s[RESHUFFLE] != 0) & (s[PILE_N] > 1)))


@njit(**_INLINE)
def _legal(s, p):
    """Rules 4-7, the only copy in this engine: seat p's legal moves at the phase in the state,
    as a mask (bit m: move m). At a turn's start: the playable cards and DRAW while a card can
    be drawn, PASS when neither; after a draw: the playable cards and PASS (draw=one, or no
    card to play); after an eight: the four suits."""
    ph = s[PHASE]
    if ph == PH_SUIT:
        return _ALL_SUITS
    cards = _playable(s, p)
    none = np.int64(cards == 0)
    if ph == PH_PLAY:
        draw = _can_draw(s)
        return cards | (draw << DRAW) | ((none & (1 - draw)) << PASS)
    return cards | ((s[DRAW_ONE] | none) << PASS)


@njit(**_INLINE)
def _hand_points(mask):
    """Rule 9: the points of the cards in ``mask``."""
    total = 0
    for r in range(N_RANKS):
        total += _RANK_POINTS[r] * bit_count(mask & (_RANK0_ << r))
    return total


# ---------------------------------------------------------------- a new state, a new game
@njit(**NJIT_OPTIONS)
def new_state(n, params):
    """One state for a whole batch; ``start_game`` resets it for every game."""
    s = np.zeros(SIZE, np.int64)
    s[N] = n
    copy_params(s, params, PARAM_COPIES)                # the rule settings
    return s


@njit(**NJIT_OPTIONS, **_INTERNAL)
def start_game(s, rng):
    for q in range(MAX_PLAYERS):
        s[SCORE + q] = 0
        s[EIGHTS_PLAYED + q] = 0
        s[DRAWN + q] = 0
        s[LEGAL + q] = 0
    s[MEMORY:MEMORY + MAX_PLAYERS * MEMORY_SLOTS] = 0
    s[TURNS] = 0
    s[HANDS_DEALT] = 0
    s[DRAWS] = 0
    s[PASSES] = 0
    s[RESHUFFLES] = 0
    s[BLOCKED] = 0
    s[OVER] = 0
    s[UNFINISHED] = 0
    s[DEALER] = s[N] - 1                       # rule 2: seat 0 plays first
    _deal(s, rng)


@njit(**NJIT_OPTIONS, **_INTERNAL)
def _deal(s, rng):
    """Rules 2-3: the 52 cards in id order make the stock (taken at random: a shuffle); one
    card at a time to each player from the dealer's left, HAND_SIZE times round; then the
    starter. An eight turned as starter goes back into the stock at a random place and the
    next card is turned, unless the stock holds only eights."""
    s[HANDS_DEALT] += 1
    for i in range(N_CARDS):
        s[STOCK + i] = i
        s[PILE + i] = 0
    s[STOCK_N] = N_CARDS
    s[STOCK_FIXED] = 0
    s[PILE_N] = 0
    s[PILE_MASK] = 0
    for q in range(MAX_PLAYERS):
        s[HANDS + q] = 0
        s[HAND_N + q] = 0
        s[LACKS + q] = 0
    n = s[N]
    dealer = s[DEALER]
    for _ in range(s[HAND_SIZE]):
        q = dealer
        for _ in range(n):
            q = _next(s, q)
            c = take_top(s, STOCK, STOCK_N, STOCK_FIXED, rng)
            s[HANDS + q] |= _ONE << c
            s[HAND_N + q] += 1
    c = take_top(s, STOCK, STOCK_N, STOCK_FIXED, rng)
    while c % N_RANKS == EIGHT and _stock_has_other_than_eights(s):
        s[STOCK + s[STOCK_N]] = c
        s[STOCK_N] += 1
        c = take_top(s, STOCK, STOCK_N, STOCK_FIXED, rng)
    _push_pile(s, c)
    s[CUR] = _next(s, dealer)
    s[PHASE] = PH_PLAY
    s[STUCK] = 0
    s[DREW] = 0


@njit(**_INLINE)
def _stock_has_other_than_eights(s):
    """During the deal, with an eight turned as starter: the stock holds a card that is not an
    eight (the four eights are the starter, the stock's and those dealt)."""
    held = 0
    for q in range(s[N]):
        held |= s[HANDS + q]
    eights_in_stock = 3 - bit_count(held & _EIGHTS)
    return s[STOCK_N] > eights_in_stock


@njit(**_INLINE)
def _push_pile(s, c):
    s[np.uint64(PILE + s[PILE_N])] = c
    s[PILE_N] += 1
    s[PILE_MASK] |= _ONE << c
    s[TOP] = c
    s[SUIT] = c // N_RANKS


# ---------------------------------------------------------------- the stock
@njit(**NJIT_OPTIONS, **_INTERNAL)
def _reshuffle(s):
    """Rule 6: the discard pile under its top card, in id order, becomes the stock (taken at
    random: a shuffle); the top card stays."""
    top = s[TOP]
    rest = s[PILE_MASK] & ~(_ONE << top)
    m = 0
    while rest != 0:
        s[STOCK + m] = lowest_bit(rest)
        rest &= rest - 1
        m += 1
    for i in range(s[PILE_N]):
        s[PILE + i] = 0
    s[PILE] = top
    s[PILE_N] = 1
    s[PILE_MASK] = _ONE << top
    s[STOCK_N] = m
    s[STOCK_FIXED] = 0
    s[RESHUFFLES] += 1


@njit(**NJIT_OPTIONS, **_INTERNAL)
def _draw_one(s, rng, p):
    """Seat p draws a card (rule 6); returns it, or -1 when none can be drawn."""
    if s[STOCK_N] == 0:
        if s[RESHUFFLE] == 0 or s[PILE_N] <= 1:
            return -1
        _reshuffle(s)
    c = take_top(s, STOCK, STOCK_N, STOCK_FIXED, rng)
    s[HANDS + p] |= _ONE << c
    s[HAND_N + p] += 1
    s[DRAWS] += 1
    s[DRAWN + p] += 1
    s[DREW] += 1
    s[LACKS + p] = 0                 # what it lacked may be the card it drew
    return c


@njit(**NJIT_OPTIONS, **_INTERNAL)
def _draw_turn(s, rng, p):
    """Rule 6: one card (draw=one), or cards until one can be played or none can be drawn."""
    s[STUCK] = 0
    if s[DRAW_ONE] != 0:
        _draw_one(s, rng, p)
    else:
        pattern = _pattern(s)
        while True:
            c = _draw_one(s, rng, p)
            if c < 0 or (pattern >> c) & 1 != 0:
                break
    s[PHASE] = PH_DREW


# ---------------------------------------------------------------- moves
@njit(**NJIT_OPTIONS, **_INTERNAL)
def _play(s, rng, p, c):
    """Rules 4-5: the card goes onto the discard pile; the last card wins the hand (rule 8);
    an eight names a suit next."""
    bit = _ONE << c
    s[HANDS + p] &= ~bit
    left = s[HAND_N + p] - 1
    s[HAND_N + p] = left
    _push_pile(s, c)
    s[TURNS] += 1
    s[STUCK] = 0
    s[DREW] = 0
    eight = c % N_RANKS == EIGHT
    s[EIGHTS_PLAYED + p] += np.int64(eight)
    if left == 0:
        _end_hand(s, rng, p)
        return
    if eight:
        s[PHASE] = PH_SUIT
        return
    s[PHASE] = PH_PLAY
    s[CUR] = _next(s, p)


@njit(**NJIT_OPTIONS, **_INTERNAL)
def _pass(s, rng, p):
    """Rule 7: the turn ends without a card played. A pass without a choice tells the table
    the seat holds none of the cards it could have played; passes in a row by seats that
    could neither play nor draw block the hand once every seat has passed so (rule 8)."""
    s[TURNS] += 1
    s[PASSES] += 1
    if s[DRAW_ONE] == 0 or s[DREW] == 0:
        s[LACKS + p] |= _pattern(s)
    if s[DREW] == 0:
        s[STUCK] += 1
    s[DREW] = 0
    s[PHASE] = PH_PLAY
    if s[STUCK] >= s[N]:
        _end_hand(s, rng, -1)
    else:
        s[CUR] = _next(s, p)


@njit(**_INLINE)
def _move(s, rng, p, move):
    if move < N_CARDS:
        _play(s, rng, p, move)
    elif move == DRAW:
        _draw_turn(s, rng, p)
    else:
        _pass(s, rng, p)


@njit(**NJIT_OPTIONS, **_INTERNAL)
def _end_hand(s, rng, winner):
    """Rule 9: the player out scores the points left in the other hands; in a blocked hand
    each player holding the fewest points scores the others' excess over them. Rule 11: the
    game ends after one hand, or once a score reaches the target; else the deal moves left."""
    n = s[N]
    low = np.int64(1) << 40
    total = 0
    for q in range(n):
        v = _hand_points(s[HANDS + q])
        total += v
        low = min(low, v)
    if winner >= 0:
        s[SCORE + winner] += total
    else:
        s[BLOCKED] += 1
        gain = total - n * low
        for q in range(n):
            if _hand_points(s[HANDS + q]) == low:
                s[SCORE + q] += gain
    s[PHASE] = PH_PLAY
    over = s[TARGET] == 0
    for q in range(n):
        over |= s[SCORE + q] >= s[TARGET]
    if over:
        s[OVER] = 1
        return
    s[DEALER] = _next(s, s[DEALER])
    _deal(s, rng)


# ---------------------------------------------------------------- the protocol of the kernel
@njit(**_ENTRY)
def advance(s, rng):
    """Forced moves until a strategy must decide: PLAY or NAME_SUIT, or DONE when the game is
    over (the turn cap included: unfinished). A decision with one legal move (a forced draw or
    pass, the only card that may be played) is made here (rule 10). Leaves the decider's
    legal moves in its row of LEGAL."""
    while True:
        if s[OVER] != 0:
            return DONE
        ph = s[PHASE]
        if ph != PH_SUIT and s[TURNS] >= s[TURN_CAP]:
            s[OVER] = 1
            s[UNFINISHED] = 1
            return DONE
        p = _cur(s)
        legal = _legal(s, p)
        if legal & (legal - 1) != 0:
            s[LEGAL + p] = legal
            return NAME_SUIT if ph == PH_SUIT else PLAY
        _move(s, rng, p, lowest_bit(legal))


@njit(**_ENTRY)
def apply(s, rng, kind, move):
    """The decider's move: a card, DRAW or PASS; or the suit its eight names (rule 5)."""
    p = _cur(s)
    if kind == NAME_SUIT:
        s[SUIT] = move
        s[PHASE] = PH_PLAY
        s[CUR] = _next(s, p)
    else:
        _move(s, rng, p, move)


@njit(**_INLINE)
def decider(s):
    return _cur(s)


@njit(**_INLINE)
def view_play(s):
    return View(s, _cur(s))


@njit(**_INLINE)
def view_suit(s):
    return View(s, _cur(s))


@njit(**_INLINE)
def is_legal(s, kind, move):
    """``move`` is in the legal moves ``advance`` stored for this decision of kind ``kind``."""
    want = NAME_SUIT if s[PHASE] == PH_SUIT else PLAY
    ok = (kind == want) & (move >= 0) & (move < 64)
    return ok and (s[LEGAL + _cur(s)] >> (move & 63)) & 1 != 0


@njit(**NJIT_OPTIONS)
def legal_moves(s, out):
    """The legal moves of the decision ``advance`` stopped at, ascending, into ``out``;
    returns how many."""
    m = s[LEGAL + _cur(s)]
    k = 0
    while m != 0:
        out[k] = lowest_bit(m)
        m &= m - 1
        k += 1
    return k


# ---------------------------------------------------------------- outcome
@njit(**_INLINE)
def _rank_key(s, p):
    """Rule 11: higher is better: the score, then the fewer points held."""
    return s[SCORE + p] * _KEY_SCALE - _hand_points(s[HANDS + p])


@njit(**NJIT_OPTIONS, **_INTERNAL)
def write_result(s, seat_out, game_out):
    """seat_out[p] = (win, rank, score, cards_left, points_left, eights, drawn); game_out =
    (hands, turns, draws, passes, reshuffles, blocked, unfinished)."""
    n = s[N]
    unfinished = s[UNFINISHED] != 0
    for p in range(n):
        key = _rank_key(s, p)
        better = 0
        for q in range(n):
            better += _rank_key(s, q) > key
        rank = better + 1
        seat_out[p, 0] = 1 if (rank == 1 and not unfinished) else 0
        seat_out[p, 1] = rank
        seat_out[p, 2] = s[SCORE + p]
        seat_out[p, 3] = s[HAND_N + p]
        seat_out[p, 4] = _hand_points(s[HANDS + p])
        seat_out[p, 5] = s[EIGHTS_PLAYED + p]
        seat_out[p, 6] = s[DRAWN + p]
    game_out[0] = s[HANDS_DEALT]
    game_out[1] = s[TURNS]
    game_out[2] = s[DRAWS]
    game_out[3] = s[PASSES]
    game_out[4] = s[RESHUFFLES]
    game_out[5] = s[BLOCKED]
    game_out[6] = s[UNFINISHED]


# ---------------------------------------------------------------- snapshots
@njit(**NJIT_OPTIONS)
def snapshot_size(n, params):
    return len(SNAPSHOT_HEAD) + (len(SNAPSHOT_SEATS) + 1) * n + 2 * N_CARDS


@njit(**NJIT_OPTIONS)
def snapshot(s, out):
    """Everything that defines the state but the strategies' memory, in the layout
    reference.Game.snapshot() uses: the SNAPSHOT_HEAD scalars; the SNAPSHOT_SEATS blocks per
    seat; the hands (masks); stock and discard pile (-1 past their tops)."""
    i = 0
    for f in SNAPSHOT_HEAD:
        out[i] = s[f]
        i += 1
    n = s[N]
    for block in SNAPSHOT_SEATS:
        for p in range(n):
            out[i] = s[block + p]
            i += 1
    for p in range(n):
        out[i] = s[HANDS + p]
        i += 1
    for j in range(N_CARDS):
        out[i + j] = s[STOCK + j] if j < s[STOCK_N] else -1
    i += N_CARDS
    for j in range(N_CARDS):
        out[i + j] = s[PILE + j] if j < s[PILE_N] else -1
