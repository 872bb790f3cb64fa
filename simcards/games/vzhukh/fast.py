"""Vzhukh, compiled: the whole game as numba functions over one int64 array.

The generated kernel (simcards.kernels) drives a game with ``start_game``,
``advance`` (forced passes and takes until a strategy must decide; it writes
that decision's legal moves into the decider's row of LEGAL, which
``legal_moves``, ``is_legal`` and the strategies' ``view.legal_move`` read),
``view_attack`` / ``view_defend``, ``apply`` and ``write_result``.
Random draws happen in exactly the order of the reference engine
(reference.py: one shuffle per round), which tests replay against.

Why one flat array: numba reference-counts every array it takes out of a
struct, tuple or StructRef with an atomic operation; measured on this engine
with a StructRef state, those atomics were most of the run time. An array
passed as an argument is borrowed (simcards.borrow) and costs nothing, so the
whole state is one array ``s`` and every field an index into it (view.py).

The stack in play always holds cards of one rank: it is (STACK_KIND, STACK_N).
The discard pile is never reshuffled, so it is kept as counts per kind.

How it is compiled (one of three decorators on every function):

- ``_LEAF``, numba's ``inline="always"``: one-line helpers (numba copies their IR
  into the caller; it re-types the callee at every call site, so only for small ones).
- ``_HOT``, ``forceinline``: compiled once, inlined by LLVM into the kernel: the
  action's path (``advance``, ``_legal``, ``apply``, ``_draw_up``).
- ``_CALL``: compiled once and called: the rare paths (a round's end and deal, a
  pass, a take, a joker) and the contract's entry points.

Internal functions are compiled without the Python and C wrappers nobody calls,
and without numba's reference counting (``_INTERNAL``): they receive the borrowed
state and never keep, return or allocate an array, and the NRT_incref/NRT_decref
calls on the borrowed arrays' null counters were 4% of the run time. A callee
compiled first from such a function inherits those settings (numba's flag
inheritance), which is why NJIT_OPTIONS spells ``forceinline=False`` out.

What else the action's path does for speed (docs/rules/vzhukh.md, "Engine notes", has the
measurements): the legal masks of a defence's ten ranks are computed on SIMD lanes (a loop
bounded by ``s[NUMBERS]``, see view.py; an attack's are not, ``_legal`` says why), rule 5's
fewest beating cards come from a table (``_FEWEST``), the next seat from a table
(``NEXT_SEAT``), indices the compiler cannot see are not negative are typed unsigned (``_at``)
or masked to their range (``_cur``, ``_stack_kind``), a drawn card is counted without a branch
on how many are drawn, and a round starts from a kept sorted deck with a shuffle whose draws
are computed first (``_shuffle_stock``).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simcards.compiled.config import FORCEINLINE_NJIT_OPTIONS, INTERNAL_NJIT_FLAGS, NJIT_OPTIONS
from simcards.compiled.engine import copy_params, kinds_mask, rank_from_key
from simcards.games.vzhukh.rules import (
    ATTACK, ATTACK_DECISION, BEAT, DEFEND_DECISION, JOKER, KRABLE, MAX_HAND, MAX_PLAYERS,
    MAX_STACK_SUM, N_KINDS, N_MOVES, N_NUMBERS, P, ROUNDS, TRANSFER, VOILA, VZHUKH)
from simcards.games.vzhukh.view import (
    ACTIONS, BARRED, BARRED_JOKERS, BARRED_NUMBERS, CAP, COUNTS, CUR, DEALT, DECK, DIR, DISCARD,
    ENDING, HAND_N, HAND_SHIFT, HAND_SIZE, HAND_STRIDE, HANDS, IN_ROW, JOKER_PENALTY, JOKERS_LEFT, LAST_TAKE, LEGAL, LEGAL_SHIFT,
    LEGAL_STRIDE, N, NEXT_SEAT, NUMBERS, OVER, PARAM_COPIES, PASSES, PENALTY, PER_GAME_END, PHASE, RANK_KEYS,
    ROUND, ROUND_PEN, ROUND_STEPS, SEAT_PENALTY, SEAT_ROW, STACK_KIND, STACK_N, STOCK, STOCK_N,
    TAKE_ACTION,
    TAKE_COUNT, TAKE_KIND, TAKES, TAKES_BY, UNFINISHED, View, barred_after, state_size)
from simcards.compiled.rng import shuffle_range_ahead

DONE = -1
SNAPSHOT_HEAD = 15               # scalars at the start of a snapshot (see snapshot)

# how each function is compiled (the module's docstring says why)
_LEAF = {**NJIT_OPTIONS, "inline": "always"}
_HOT = FORCEINLINE_NJIT_OPTIONS
_CALL = NJIT_OPTIONS
_INTERNAL = INTERNAL_NJIT_FLAGS

# words of a LEGAL row (action << 4 | kind): where each action's masks start
_W_ATTACK, _W_TRANSFER, _W_BEAT, _W_JOKER = ATTACK << 4, TRANSFER << 4, BEAT << 4, JOKER << 4
#: Rule 5 as a table: _FEWEST[_FEWEST_ROW * t + k] is the fewest cards of kind k worth more
#: than t points, t // (k + 1) + 1, capped at 31 (a hand never holds that many of a kind: a
#: count mask has no bit from 31 up). One byte read per kind instead of a division (or its
#: multiply-shift, min and add) on the hot path. Kinds 10..15 (jokers, padding) get 31 too: no
#: beat, so that a defence's loop can run over all _BEAT_WORDS words (see there).
_FEWEST_ROW = 16
_FEWEST = np.array([[min(t // (k + 1) + 1, 31) if k < N_NUMBERS else 31 for k in range(_FEWEST_ROW)]
                    for t in range(MAX_STACK_SUM + 1)], np.uint8).ravel()
assert MAX_HAND < 31
#: the beat words a defence writes (s[NUMBERS], view.py): all 16 of the action's, the six above
#: the number kinds always 0 (_FEWEST). 16 is a whole number of SIMD trips for both AVX2 (4 x 4)
#: and the AVX-512 this host compiles for (2 x 8); 10 left a scalar remainder of two trips
#: after the vector ones, with its own set-up (callgrind, x86-64-v3: 336.8 -> 327.4
#: instructions an action; 12, 320.6 there, would leave znver5 a remainder of four)
_BEAT_WORDS = 16
assert _BEAT_WORDS <= _FEWEST_ROW
#: Seats are 0..MAX_PLAYERS - 1 and card kinds 0..N_KINDS - 1, so they fit in these bits (see _cur)
_SEAT_BITS = 7
_KIND_BITS = 15
assert MAX_PLAYERS - 1 <= _SEAT_BITS and N_KINDS - 1 <= _KIND_BITS


@njit(**_LEAF)
def hand(p):
    """Offset of seat p's hand: s[hand(p) + kind] is how many of that kind it holds."""
    return HANDS + (p << HAND_SHIFT)


@njit(**_LEAF)
def legal_row(p):
    """Offset of seat p's legal moves: LEGAL_STRIDE words, a bit mask over move codes."""
    return LEGAL + (p << LEGAL_SHIFT)


@njit(**_LEAF)
def _cur(s):
    """The seat to act. The mask changes no value, but it tells the compiler the seat's
    range: then s[hand(p) + k] & co. need no negative-index wrap-around."""
    return s[CUR] & _SEAT_BITS


@njit(**_LEAF)
def _at(i):
    """An index the caller knows is not negative, typed unsigned: numba then leaves out the
    negative-index wrap-around (a compare and a select per access)."""
    return np.uint64(i)


@njit(**_LEAF)
def _stack_kind(s):
    """The stack's kind while a stack is in play (a defence), non-negative like _cur."""
    return s[STACK_KIND] & _KIND_BITS


@njit(**_LEAF)
def next_player(s, p):
    """The next player in the current direction: a read of the table new_state fills."""
    return s[_at(NEXT_SEAT + SEAT_ROW + SEAT_ROW * s[DIR] + p)]


@njit(**_LEAF)
def sorted_deck_at(s):
    """The whole deck in canonical order (kinds ascending), written once by ``new_state``."""
    return STOCK + s[DECK]


@njit(**_LEAF)
def draws_at(s):
    """Room for a shuffle's draws (simcards.rng.shuffle_range_ahead)."""
    return STOCK + 2 * s[DECK]


@njit(**_CALL)
def new_state(n, params):
    """One state for a whole batch; ``start_game`` resets it for every game."""
    s = np.zeros(state_size(params[P.deck]), np.int64)
    s[N] = n
    copy_params(s, params, PARAM_COPIES)                # the rule settings
    fill_tables(s)
    return s


@njit(**_CALL)
def fill_tables(s):
    """The engine's own tables, from the public N, DECK and COUNTS: NUMBERS (_BEAT_WORDS), the sorted deck
    and the next-seat table (new_state, and a search's re-deal, redeal.py)."""
    n = s[N]
    s[NUMBERS] = _BEAT_WORDS
    pos = sorted_deck_at(s)
    for k in range(N_KINDS):
        for _ in range(s[COUNTS + k]):
            s[pos] = k
            pos += 1
    for p in range(n):                      # rule 2: clockwise is increasing seats
        s[NEXT_SEAT + 2 * SEAT_ROW + p] = p + 1 if p + 1 < n else 0
        s[NEXT_SEAT + p] = p - 1 if p > 0 else n - 1


@njit(**_LEAF)
def _add_penalty(s, p, points):
    s[PENALTY + p] += points
    s[ROUND_PEN + ROUNDS * p + s[ROUND]] += points


@njit(**_CALL)                  # tests call it from Python
def start_game(s, rng):
    n = s[N]
    s[PENALTY:PER_GAME_END] = 0             # penalties, takes, jokers left, dealt, memory
    for p in range(1, n):
        s[PENALTY + p] = s[SEAT_PENALTY + p - 1]       # seat compensation
    s[ROUND] = 0
    s[ACTIONS] = 0
    s[PASSES] = 0
    s[TAKES] = 0
    s[OVER] = 0
    s[UNFINISHED] = 0
    start_round(s, rng)
    for p in range(n):
        s[DEALT + p] = kinds_mask(s, hand(p), N_KINDS)


@njit(**_CALL, **_INTERNAL)
def _shuffle_stock(s, rng):
    """simcards.rng.shuffle_range(s, STOCK, deck, rng), its draws computed ahead into the
    draws run of the state (simcards.rng.shuffle_range_ahead): the same permutation."""
    shuffle_range_ahead(s, STOCK, s[DECK], rng, s[draws_at(s):])


@njit(**_CALL, **_INTERNAL)
def start_round(s, rng):
    """Rule 2: every card in canonical order (kinds ascending), shuffled, dealt one at a time
    from the round's first attacker (seat round mod n) clockwise."""
    d = s[DECK]
    deck = sorted_deck_at(s)
    for i in range(d):
        s[STOCK + i] = s[deck + i]
    n = s[N]
    for i in range(HANDS, HANDS + n * HAND_STRIDE):
        s[_at(i)] = 0
    for k in range(N_KINDS):
        s[DISCARD + k] = 0
    for p in range(n):
        s[BARRED + p] = 0
    s[STACK_KIND] = -1
    s[STACK_N] = 0
    _shuffle_stock(s, rng)
    first = s[ROUND]
    while first >= n:
        first -= n
    # the cards go one at a time round the table from the top of the stock (its end), so seat
    # first + j (mod n) gets every n-th card down from place d - 1 - j: dealt a seat at a time,
    # with unsigned places and no wrap-around of the seat in the loop (the deck holds every
    # hand: rules.check_table checks it). The hands are counts, so the order they are
    # counted in changes nothing. Dealt card by card with the seat wrapped in the loop and
    # signed places, start_round ran 17.2 instructions an action (callgrind), 6.6 so, and 3.1%
    # of perf's samples, 1.3% so.
    size = s[HAND_SIZE]
    p = first
    for j in range(n):
        h = hand(p)
        pos = STOCK + d - 1 - j
        for _ in range(size):
            s[_at(h + s[_at(pos)])] += 1
            pos -= n
        s[HAND_N + p] = size
        p = p + 1 if p + 1 < n else 0
    s[STOCK_N] = d - n * size
    s[DIR] = 1
    s[CUR] = first
    s[PHASE] = ATTACK_DECISION
    s[ROUND_STEPS] = 0
    s[IN_ROW] = 0
    s[ENDING] = 0


@njit(**_CALL, **_INTERNAL)
def _end_round(s, rng):
    """Rule 12: the stack is discarded without penalty; jokers in hand cost joker_penalty each.
    Rule 13: three rounds make the game."""
    if s[STACK_N] > 0:
        s[DISCARD + s[STACK_KIND]] += s[STACK_N]
    s[STACK_KIND] = -1
    s[STACK_N] = 0
    for p in range(s[N]):
        h = hand(p)
        j = s[h + VOILA] + s[h + KRABLE] + s[h + VZHUKH]
        if j > 0:
            s[JOKERS_LEFT + p] += j
            _add_penalty(s, p, j * s[JOKER_PENALTY])
    s[ROUND] += 1
    if s[ROUND] == ROUNDS:
        s[OVER] = 1
    else:
        start_round(s, rng)


@njit(**_HOT, **_INTERNAL)
def _draw_up(s, p):
    """Rules 11-12: count the action; the player who acted draws from the top of the stock back
    up to hand_size; an empty stock after the draw ends the round (at the next forced step)."""
    s[ACTIONS] += 1
    s[ROUND_STEPS] += 1
    top = s[STOCK_N]
    want = min(s[HAND_SIZE] - s[HAND_N + p], top)
    h = hand(p)
    # the first two cards count 0 or 1 each, with no branch on `want`; the rest in a loop that
    # rarely runs (an action of three cards or more). A loop alone mispredicted its exit: how
    # many cards an action plays is the game's data. A card counted 0 is read within the array
    # (the stock, or the scratch just below it) and its kind masked into the hand's row.
    # Both places are read from the top as loaded, not the second after the first's count:
    # then a one-card draw (most of them) added its 0 to the count it had just added 1 to, two
    # read-modify-writes of one place in a row, and the CPU waited for the first's store
    # (perf: 15% of the kernel's samples on those two adds; now the second place is the next
    # card's kind, the same only when the kinds are). The kernel alone, least of 40 runs of
    # 20,000 games, processes alternated with main's: 23.3-24.6 ns an action before (main
    # 24.0-24.7), 21.8-24.7 after (main 24.1-25.4); callgrind +2 instructions.
    c1 = s[_at(STOCK - 1 + top)] & _KIND_BITS
    c2 = s[_at(STOCK - 2 + top)] & _KIND_BITS
    one1 = np.int64(want > 0)
    one2 = np.int64(want > 1)
    s[h + c1] += one1
    s[h + c2] += one2
    top -= one1 + one2
    for _ in range(2, want):
        top -= 1
        s[h + (s[_at(STOCK + top)] & _KIND_BITS)] += 1
    s[HAND_N + p] += want
    s[STOCK_N] = top
    s[BARRED + p] = 0                                     # its hand changed: nothing known
    if top == 0:
        s[ENDING] = 1


@njit(**_CALL, **_INTERNAL)
def _forced(s, rng):
    """One step no strategy decides: the end of a round that is due (rule 12), the cap (rule 14),
    a pass (rule 3) or taking the stack (rule 10)."""
    if s[ENDING] != 0:                                    # rule 12
        _end_round(s, rng)
        return
    if s[ROUND_STEPS] >= s[CAP]:                          # rule 14
        s[OVER] = 1
        s[UNFINISHED] = 1
        return
    p = _cur(s)
    if s[PHASE] == ATTACK_DECISION:
        # rule 3: no number card: pass the attack on (not an action: no draw)
        s[PASSES] += 1
        s[ROUND_STEPS] += 1
        s[IN_ROW] += 1
        s[BARRED + p] = barred_after(s[BARRED + p], BARRED_NUMBERS, MAX_STACK_SUM)
        if s[IN_ROW] >= s[N]:
            _end_round(s, rng)
        else:
            s[CUR] = next_player(s, p)
        return
    # rule 10: take the stack: its sum is the penalty, its cards are discarded; the next attacks
    sk = _stack_kind(s)
    _add_penalty(s, p, (sk + 1) * s[STACK_N])
    s[DISCARD + sk] += s[STACK_N]
    s[TAKES_BY + p] += 1
    take = LAST_TAKE + 3 * p
    s[take + TAKE_KIND] = sk
    s[take + TAKE_COUNT] = s[STACK_N]
    s[take + TAKE_ACTION] = s[ACTIONS] + 1               # the take is the next action
    s[STACK_KIND] = -1
    s[STACK_N] = 0
    s[TAKES] += 1
    s[CUR] = next_player(s, p)
    s[PHASE] = ATTACK_DECISION
    # what the table learns (view.BARRED): no joker, no card of the rank, nothing worth more
    barred = barred_after(s[BARRED + p], BARRED_JOKERS | (1 << sk), (sk + 1) * s[take + TAKE_COUNT])
    held = s[HAND_N + p]
    _draw_up(s, p)
    if s[HAND_N + p] == held:                             # drew nothing: the same hand
        s[BARRED + p] = barred


@njit(**_HOT, **_INTERNAL)
def _legal(s, phase):
    """The legal moves of the seat to act, as the bit mask over move codes in its row of
    LEGAL (view.py); returns 0 when there is none (a forced step follows). The counts of one
    (action, kind) form one word, computed without a branch on the hand (a list of codes
    cost about 40 ns per action in mispredicted loops), and every word of the row is
    written with a constant trip count (no call of memset for a slice)."""
    p = _cur(s)
    h = hand(p)
    row = legal_row(p)
    some = 0
    if phase == ATTACK_DECISION:
        # the words of a defence first, with nothing between them (LLVM merges the stores)
        for k in range(N_NUMBERS):
            s[row + _W_TRANSFER + k] = 0
        for k in range(N_NUMBERS):
            s[row + _W_BEAT + k] = 0
        for j in range(VOILA, N_KINDS):
            s[row + _W_JOKER + j] = 0
        # rule 3: counts 1..held. A constant trip count, so scalar code, unlike the beat's loop
        # below: a player who has just beaten attacks next, and a vector load of the counts the
        # beat and the draw have just stored one by one waits for those stores to reach the
        # cache (no store forwarding into a wider load): 5% of the samples on that load, and
        # 23.2 -> 22.5 ns an action when scalar (low_attack; cheap_beat 24.7 -> 23.7).
        for k in range(N_NUMBERS):
            m = (2 << s[h + k]) - 2
            s[row + _W_ATTACK + k] = m
            some |= m
        return some
    sk = _stack_kind(s)
    for k in range(N_NUMBERS):                            # the other words, as above
        s[row + _W_ATTACK + k] = 0
    for k in range(N_NUMBERS):
        s[row + _W_TRANSFER + k] = 0
    some = (2 << s[h + sk]) - 2                           # rule 4: counts 1..held
    s[row + _W_TRANSFER + sk] = some
    # rule 5: a beat is worth more than the stack: at least _FEWEST[total, k] cards of kind k
    fewest = _FEWEST_ROW * ((sk + 1) * s[STACK_N])
    for k in range(s[NUMBERS]):                           # (N_NUMBERS: SIMD lanes, view.py)
        lo = _FEWEST[_at(fewest + k)]
        b = ((2 << s[h + k]) - 2) >> lo << lo             # counts lo..held
        s[row + _W_BEAT + k] = b
        some |= b
    for j in range(VOILA, N_KINDS):                       # rules 6-8: one per joker kind held
        m = min(s[h + j], 1) << 1
        s[row + _W_JOKER + j] = m
        some |= m
    return some


@njit(**_HOT)
def advance(s, rng):
    """Play forced steps until a strategy must decide; DONE when the game ends."""
    while True:
        if s[OVER] != 0:
            return DONE
        if s[ENDING] == 0 and s[ROUND_STEPS] < s[CAP]:
            # the phase read once: the kernel's branch on the decision it returns is then the
            # same as _legal's (LLVM merges them)
            phase = s[PHASE]
            if _legal(s, phase) != 0:
                return phase
        _forced(s, rng)


@njit(**_LEAF)
def decider(s):
    return _cur(s)


@njit(**_LEAF)
def view_attack(s):
    return View(s, _cur(s))


@njit(**_LEAF)
def view_defend(s):
    return View(s, _cur(s))


@njit(**_CALL)
def legal_moves(s, out):
    """The legal moves of the decision ``advance`` stopped at, into out (ascending codes);
    returns the count."""
    row = legal_row(s[CUR])
    n = 0
    for w in range(LEGAL_STRIDE):
        bits = s[row + w]
        for c in range(32):
            if (bits >> c) & 1:
                out[n] = (w << 5) | c
                n += 1
    return n


@njit(**_LEAF)
def is_legal(s, kind, move):
    if kind != s[PHASE] or move < 0 or move >= N_MOVES:
        return False
    return (s[legal_row(_cur(s)) + (move >> 5)] >> (move & 31)) & 1 != 0


@njit(**_CALL, **_INTERNAL)
def _joker(s, p, card):
    """Rules 6-9: the joker is discarded, then its effect; the stack goes on."""
    s[DISCARD + card] += 1
    sk = _stack_kind(s)
    if card == VOILA:                                     # rule 6: back, direction reversed
        s[DIR] = -s[DIR]
    elif card == KRABLE:                                  # rule 7: k // 2 cards are penalty
        half = s[STACK_N] >> 1
        _add_penalty(s, p, half * (sk + 1))
        s[DISCARD + sk] += half
        s[STACK_N] -= half
    elif s[DISCARD + sk] > 0:                             # rule 8: one more from the discard
        s[DISCARD + sk] -= 1
        s[STACK_N] += 1
    s[CUR] = next_player(s, p)


@njit(**_HOT)
def apply(s, rng, kind, move):
    """The decision's move (legal: the kernel checked it), then the draw (rules 11-12)."""
    p = _cur(s)
    action = move >> 9
    card = (move >> 5) & 15
    count = move & 31
    s[hand(p) + card] -= count
    s[HAND_N + p] -= count
    if action == ATTACK:                                  # rule 3: the stack on the next player
        s[STACK_KIND] = card
        s[STACK_N] = count
        s[IN_ROW] = 0
        s[PHASE] = DEFEND_DECISION
        s[CUR] = next_player(s, p)
    elif action == TRANSFER:                              # rule 4: add cards, pass it on
        s[STACK_N] += count
        s[CUR] = next_player(s, p)
    elif action == BEAT:                                  # rule 5: all discarded, p attacks
        s[DISCARD + card] += count
        s[DISCARD + _stack_kind(s)] += s[STACK_N]
        s[STACK_KIND] = -1
        s[STACK_N] = 0
        s[PHASE] = ATTACK_DECISION
    else:
        _joker(s, p, card)
    _draw_up(s, p)                                        # rules 11-12


#: ``advance`` and ``apply`` compiled again without reference counting, for a search's
#: rollouts (strategies/vzhukh/search.py), which call them on borrowed buffers: there,
#: reference counting around the state took about 6% of a search. The kernel keeps the
#: originals: compiled so, its turn ran 15% slower (LLVM laid the inlined loop out otherwise).
rollout_advance = njit(**_HOT, **_INTERNAL)(advance.py_func)
rollout_apply = njit(**_HOT, **_INTERNAL)(apply.py_func)


@njit(**_CALL, **_INTERNAL)
def write_result(s, seat_out, game_out):
    """seat_out[p] = (win, rank, *SEAT_COLUMNS); game_out = (*GAME_COLUMNS, unfinished)
    (rules.py declares the columns)."""
    n = s[N]
    unfinished = s[UNFINISHED] != 0
    keys = s[RANK_KEYS:RANK_KEYS + MAX_PLAYERS]           # rule 13: fewer points rank higher
    for p in range(n):
        keys[p] = -s[PENALTY + p]
    jokers = 0
    for p in range(n):
        rank = rank_from_key(keys, n, p)
        seat_out[p, 0] = 1 if (rank == 1 and not unfinished) else 0
        seat_out[p, 1] = rank
        seat_out[p, 2] = s[PENALTY + p]
        for r in range(ROUNDS):
            seat_out[p, 3 + r] = s[ROUND_PEN + ROUNDS * p + r]
        seat_out[p, 3 + ROUNDS] = s[TAKES_BY + p]
        seat_out[p, 4 + ROUNDS] = s[JOKERS_LEFT + p]
        seat_out[p, 5 + ROUNDS] = s[DEALT + p]
        jokers += s[JOKERS_LEFT + p]
    game_out[0] = s[ROUND]
    game_out[1] = s[ACTIONS]
    game_out[2] = s[PASSES]
    game_out[3] = s[TAKES]
    game_out[4] = jokers
    game_out[5] = s[UNFINISHED]


@njit(**_CALL)
def snapshot_size(n, params):
    return SNAPSHOT_HEAD + n * (3 + ROUNDS) + n * N_KINDS + N_KINDS + params[P.deck]


@njit(**_CALL)
def snapshot(s, out):
    """Everything that defines the state, in the layout reference.Game.snapshot() uses."""
    head = (s[CUR], s[PHASE], s[DIR], s[STACK_KIND], s[STACK_N], s[ROUND], s[ACTIONS],
            s[PASSES], s[TAKES], s[ROUND_STEPS], s[IN_ROW], s[ENDING], s[OVER],
            s[UNFINISHED], s[STOCK_N])
    i = 0
    for x in head:
        out[i] = x
        i += 1
    n = s[N]
    for p in range(n):
        out[i] = s[PENALTY + p]
        i += 1
    for p in range(n):
        for r in range(ROUNDS):
            out[i] = s[ROUND_PEN + ROUNDS * p + r]
            i += 1
    for p in range(n):
        out[i] = s[TAKES_BY + p]
        i += 1
    for p in range(n):
        out[i] = s[JOKERS_LEFT + p]
        i += 1
    for p in range(n):
        for k in range(N_KINDS):
            out[i] = s[hand(p) + k]
            i += 1
    for k in range(N_KINDS):
        out[i] = s[DISCARD + k]
        i += 1
    for j in range(s[DECK]):
        out[i + j] = s[STOCK + j] if j < s[STOCK_N] else -1
