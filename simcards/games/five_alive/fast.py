"""Five Alive, compiled: the whole game as numba functions over one int64 array.

The generated kernel (simcards.kernels) drives a game with ``start_game``,
``advance`` (forced play until a strategy must decide), ``view_play``,
``is_legal``, ``apply`` and ``write_result``. Random draws happen in exactly the
order of the reference engine (reference.py), which tests replay against.

Why one flat array: numba reference-counts every array it takes out of a
struct, tuple or StructRef, with an atomic operation each time; measured on
this engine, those atomics were 80% of the run time. An array passed as an
argument is borrowed and costs nothing, so the whole state is one array ``s``
and every field an index into it (the layout in view.py). The strategy's view
is the same array with accessor functions (view.py) for what a player may see.

Legal moves: the rule (rule 4) lives in ``_legal_mask`` alone. ``advance``
stores the mask of the seat to move in ``LEGAL``; ``is_legal``, ``legal_moves``
and the strategies (view.legal_mask & co.) read it. Each seat's ``HELD`` mask
(kinds with a positive count) is kept beside its counts, so the rule is two ANDs.

Speed (docs/architecture.md, "The hot path"): ``advance`` and ``apply`` are inlined into
the kernel by LLVM and keep to what a turn needs; every long or rare effect is a function
of its own. The next seat in each direction is kept in a table (``NEXT_SEAT``). Shuffles
draw each number as they swap (simcards.rng.shuffle_range): drawn ahead into scratch on SIMD
lanes (``shuffle_range_ahead``) they took 2-7% more of a turn on this project's Intel Xeon
(docs/performance.md); the same numbers and cards either way, in the reference engine's order.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simcards.compiled.config import FORCEINLINE_NJIT_OPTIONS, INTERNAL_NJIT_FLAGS, NJIT_OPTIONS
from simcards.compiled.engine import (MEMORY_SLOTS, copy_params, hand_to_bottom, lowest_bit, next_living,
                                      rank_from_key)
from simcards.games.five_alive.rules import (
    ACTIONS_MASK, DRAW1, DRAW2, GAME_COLUMNS, KILLER, LIFE, LIMIT, MAX_COUNT, MAX_PLAYERS, N_KINDS, N_NUMBERS,
    NUMBERS_MASK, P, PASS, PLAY, REDEAL, REVERSE, SEAT_COLUMNS, SET0, SET10, SET21, SKIP)
from simcards.games.five_alive.view import (
    ALIVE_N, BLITZ, BUSTS, COUNTS, CUR, DEALER, DEALT, DECK, DIR, HAND_N, HAND_SIZE, HANDS, HELD,
    LACKS, LEGAL, LIVES, LIVES0, MEMORY, N, NEXT_SEAT, OUT_AT, OVER, PARAM_COPIES, PILE, PILE_COUNTS, PILE_N,
    RANK_KEYS, ROUNDS, SEAT_LIVES, STOCK, STOCK_N, TOTAL, TURN_CAP, TURNS, UNFINISHED, View,
    state_size)
from simcards.compiled.rng import shuffle_range

DONE = -1
#: The engine's own functions: no wrappers, no reference counting (simcards.config says why).
#: A callee compiled first from such a function inherits these flags (numba's flag
#: inheritance): NJIT_OPTIONS spells out ``forceinline``.
_INTERNAL = INTERNAL_NJIT_FLAGS
#: ``advance``, ``apply`` and their ``_turn`` forms, which the kernel and the search's rollouts
#: call: inlined by LLVM, with a Python wrapper (tests call them), and no reference counting.
#: With it, every rollout turn called NRT_incref/NRT_decref on the rollout state around the
#: rollout strategy's move; without, a search seat with three expert took 0.97 s of CPU for 30
#: games instead of 1.19 (perf: 15% of the samples in NRT before, 11% after, from the
#: functions that allocate), and the kernels run as before (the same games).
_ENTRY = {**FORCEINLINE_NJIT_OPTIONS, "_nrt": False}
#: The deal's direction, typed: a literal 1 compiled ``_deal`` twice (simcards.config,
#: "Literal arguments").
_CLOCKWISE = np.int64(1)
# result columns (simcards.registry: seat rows start with win, rank)
C_LIVES = 2 + SEAT_COLUMNS.index("lives")
C_DEALT = 2 + SEAT_COLUMNS.index("dealt_mask")
G_ROUNDS = GAME_COLUMNS.index("rounds")
G_TURNS = GAME_COLUMNS.index("turns")
G_BUSTS = GAME_COLUMNS.index("busts")
G_UNFINISHED = len(GAME_COLUMNS)   # the standard last column


@njit(inline="always", **NJIT_OPTIONS)
def hand(p):
    """Offset of seat p's hand: s[hand(p) + kind] is how many of that kind it holds."""
    return HANDS + p * N_KINDS


@njit(inline="always", **NJIT_OPTIONS)
def scratch_at(s):
    return STOCK + s[DECK]


@njit(inline="always", **NJIT_OPTIONS)
def sorted_deck_at(s):
    """The whole deck in canonical order (kinds ascending), written once by ``new_state``."""
    return STOCK + 2 * s[DECK]


@njit(inline="always", **NJIT_OPTIONS)
def _shuffle(s, at, n, rng):
    """Shuffle s[at:at + n] (simcards.rng: Fisher-Yates from the last position down)."""
    # typed: callers pass the literal STOCK, and numba compiles a function once per literal
    # argument (simcards.config, "Literal arguments")
    shuffle_range(s, np.int64(at), np.int64(n), rng)


#: Seats are 0..MAX_PLAYERS - 1, so their bits fit in SEAT_BITS.
SEAT_BITS = 7
assert MAX_PLAYERS - 1 <= SEAT_BITS and SEAT_BITS & (SEAT_BITS + 1) == 0


@njit(inline="always", **NJIT_OPTIONS)
def _cur(s):
    """The seat to move. The mask changes no value, but it tells the compiler the seat's
    range: then s[HELD + p] & co. need no negative-index wrap-around (measured: 2 ns a turn)."""
    return s[CUR] & SEAT_BITS


@njit(inline="always", **NJIT_OPTIONS)
def _next(s, p, d):
    """The next seat still in the game after p in direction d (+1 clockwise, -1 counter-).
    Indexed unsigned: a seat read back from the state has no known sign, and the
    wrap-around test for a negative index would cost every turn."""
    return s[np.uint64(NEXT_SEAT + (d > 0) * MAX_PLAYERS + p)]


@njit(**NJIT_OPTIONS, **_INTERNAL)
def _link_seats(s):
    """Fill NEXT_SEAT from the lives (a game's start; a search's re-dealt world); a seat going
    out updates it with ``_unlink_seat``."""
    n = s[N]
    if s[ALIVE_N] == 0:
        return
    for p in range(n):
        s[NEXT_SEAT + p] = next_living(s, n, LIVES, p, -1)
        s[NEXT_SEAT + MAX_PLAYERS + p] = next_living(s, n, LIVES, p, 1)


@njit(**NJIT_OPTIONS, **_INTERNAL)
def _unlink_seat(s, p):
    """Seat p has just gone out: each seat whose next seat (in either direction) was p gets
    p's next instead, seats already out included (a dealer who went out still passes the deal
    on). The table ``_link_seats`` would fill from the lives, in 2n compares instead of 2n
    searches."""
    n = s[N]
    for row in range(NEXT_SEAT, NEXT_SEAT + 2 * MAX_PLAYERS, MAX_PLAYERS):
        after = s[row + p]
        for q in range(n):
            if s[row + q] == p:
                s[row + q] = after


@njit(**NJIT_OPTIONS)
def new_state(n, params):
    """One state for a whole batch; ``start_game`` resets it for every game."""
    s = np.zeros(state_size(params[P.deck]), np.int64)
    s[N] = n
    copy_params(s, params, PARAM_COPIES)                # the rule settings
    _sort_deck(s)
    return s


@njit(**NJIT_OPTIONS)
def most_lives(n, params):
    """The most lives a seat of ``n`` starts with under the rule row ``params`` (seat
    compensation can give a later seat more than the lives option)."""
    top = params[P.lives]
    for p in range(1, n):
        top = max(top, params[P.lives] + params[P.lives_seat1 + p - 1])
    return top


@njit(**NJIT_OPTIONS, **_INTERNAL)
def _sort_deck(s):
    """The deck in canonical order, kinds ascending, from COUNTS: what every deal copies
    (new_state, and a search's re-deal rebuilding hidden fields)."""
    pos = sorted_deck_at(s)
    for k in range(N_KINDS):
        for _ in range(s[COUNTS + k]):
            s[pos] = k
            pos += 1


# ------------------------------------------------------------------ cards in and out of hands
@njit(inline="always", **NJIT_OPTIONS)
def _give(s, p, card):
    s[hand(p) + card] += 1
    s[HAND_N + p] += 1
    s[HELD + p] |= np.int64(1) << card


@njit(inline="always", **NJIT_OPTIONS)
def _take(s, p, card):
    """Seat p gives up a card; returns the cards it has left. The new counts are kept in
    registers and stored, not read back: a read back after the other stores waits on the
    store (LLVM cannot tell the indices apart)."""
    h = hand(p) + card
    left_of_kind = s[h] - 1
    s[h] = left_of_kind
    left = s[HAND_N + p] - 1
    s[HAND_N + p] = left
    s[HELD + p] &= ~(np.int64(left_of_kind == 0) << card)   # the last of its kind: no branch
    return left


@njit(inline="always", **NJIT_OPTIONS)
def _push_pile(s, card):
    s[np.uint64(PILE + s[PILE_N])] = card       # unsigned: no wrap-around test (every turn)
    s[PILE_N] += 1
    s[PILE_COUNTS + card] += 1


@njit(**NJIT_OPTIONS, **_INTERNAL)
def start_game(s, rng):
    n = s[N]
    s[LIVES] = s[LIVES0]
    for p in range(1, n):
        s[LIVES + p] = s[LIVES0] + s[SEAT_LIVES + p - 1]     # seat compensation
    for p in range(n):
        s[OUT_AT + p] = -1
    s[ALIVE_N] = n
    s[TURNS] = 0
    s[ROUNDS] = 0
    s[BUSTS] = 0
    s[OVER] = 0
    s[UNFINISHED] = 0
    s[DEALER] = n - 1
    s[MEMORY:MEMORY + MAX_PLAYERS * MEMORY_SLOTS] = 0
    _link_seats(s)
    start_round(s, rng)
    for p in range(n):
        s[DEALT + p] = s[HELD + p]


@njit(**NJIT_OPTIONS, **_INTERNAL)
def start_round(s, rng):
    """Rules 2-3: the whole deck in canonical order (kinds ascending), shuffled, dealt one
    card at a time from the dealer's left."""
    d = s[DECK]
    deck = sorted_deck_at(s)
    for i in range(d):
        s[STOCK + i] = s[deck + i]
    s[HANDS:HANDS + MAX_PLAYERS * N_KINDS] = 0
    s[HAND_N:HAND_N + MAX_PLAYERS] = 0
    s[HELD:HELD + MAX_PLAYERS] = 0
    s[LACKS:LACKS + MAX_PLAYERS] = 0
    s[PILE_COUNTS:PILE_COUNTS + N_KINDS] = 0
    s[PILE:PILE + s[PILE_N]] = 0
    s[PILE_N] = 0
    _shuffle(s, STOCK, d, rng)
    dealer = s[DEALER]
    alive = s[ALIVE_N]
    _deal(s, STOCK + d - 1, alive * s[HAND_SIZE], dealer, _CLOCKWISE)
    s[STOCK_N] = d - alive * s[HAND_SIZE]
    s[TOTAL] = 0
    s[DIR] = 1
    s[CUR] = _next(s, dealer, 1)
    s[ROUNDS] += 1


@njit(**NJIT_OPTIONS, **_INTERNAL)
def _deal(s, top, m, p, d):
    """Deal the m cards s[top], s[top - 1], ... one at a time round the players still in,
    from the one after p in direction d, into empty hands: the j-th player in that order
    gets the cards j, j + alive, j + 2 * alive, ... counted from the top."""
    alive = s[ALIVE_N]
    q = p
    for j in range(alive):
        q = _next(s, q, d)
        h = np.uint64(hand(q))
        held = 0
        c = 0
        # positions counted down by `alive` from top - j while above top - m: no division for
        # the trip count, and unsigned indices (never negative) need no wrap-around test
        i = top - j
        while i > top - m:
            card = s[np.uint64(i)]
            s[h + np.uint64(card)] += 1
            held |= np.int64(1) << card
            c += 1
            i -= alive
        s[HAND_N + q] = c
        s[HELD + q] = held


@njit(**NJIT_OPTIONS, **_INTERNAL)
def _refill_stock(s, rng):
    """Rule 8: the pile's top card stays, the rest is shuffled into a new stock."""
    m = s[PILE_N] - 1
    if m <= 0:
        return
    for i in range(m):
        s[STOCK + i] = s[PILE + i]
    top = s[PILE + m]
    s[PILE + 1:PILE + m + 1] = 0
    s[PILE] = top
    s[PILE_N] = 1
    s[PILE_COUNTS:PILE_COUNTS + N_KINDS] = 0
    s[PILE_COUNTS + top] = 1
    s[STOCK_N] = m
    _shuffle(s, STOCK, m, rng)


@njit(**FORCEINLINE_NJIT_OPTIONS, **_INTERNAL)
def _draw(s, rng, q):
    if s[STOCK_N] == 0:
        _refill_stock(s, rng)
        if s[STOCK_N] == 0:
            return
    s[STOCK_N] -= 1
    _give(s, q, s[STOCK + s[STOCK_N]])
    s[LACKS + q] = 0              # what it lacked may be the card it drew


@njit(**NJIT_OPTIONS, **_INTERNAL)
def _eliminate(s, p):
    """Rule 10: out at once; the hand goes to the bottom of the stock, kinds ascending."""
    s[OUT_AT + p] = s[TURNS]
    s[ALIVE_N] -= 1
    _unlink_seat(s, p)
    hand_to_bottom(s, STOCK, STOCK_N, hand(p), s[HAND_N + p], s[HELD + p])
    s[HAND_N + p] = 0
    s[HELD + p] = 0
    s[LACKS + p] = 0


@njit(**NJIT_OPTIONS, **_INTERNAL)
def _lose_life(s, p):
    s[LIVES + p] -= 1
    if s[LIVES + p] == 0:
        _eliminate(s, p)


@njit(inline="always", **NJIT_OPTIONS)
def _game_over(s):
    """Rule 10 (one player left) and rule 11 (blitz: anyone at 0 lives)."""
    if s[ALIVE_N] == 1 or (s[BLITZ] != 0 and s[ALIVE_N] < s[N]):
        s[OVER] = 1
        return True
    return False


@njit(**NJIT_OPTIONS, **_INTERNAL)
def _next_round(s, rng):
    s[DEALER] = _next(s, s[DEALER], 1)
    start_round(s, rng)


@njit(**NJIT_OPTIONS, **_INTERNAL)
def _others_lose_life(s, p, d):
    q = _next(s, p, d)
    while q != p:
        _lose_life(s, q)
        q = _next(s, q, d)


@njit(**NJIT_OPTIONS, **_INTERNAL)
def _round_won(s, rng, p):
    """Rule 9: the last card's effect is not resolved; every other survivor loses a life."""
    _others_lose_life(s, p, s[DIR])
    if not _game_over(s):
        _next_round(s, rng)


@njit(**NJIT_OPTIONS, **_INTERNAL)
def _round_emptied(s, rng, p):
    """Rule 9a: someone ran out of cards without playing; holders of cards lose a life."""
    d = s[DIR]
    q = p
    for _ in range(s[ALIVE_N]):
        q = _next(s, q, d)
        if s[HAND_N + q] > 0:
            _lose_life(s, q)
    if not _game_over(s):
        _next_round(s, rng)


# ------------------------------------------------------------------ legal moves
@njit(inline="always", **NJIT_OPTIONS)
def _playable_kinds(s):
    """Rule 4, the only copy in this engine: the kinds that may be played at the total:
    every action card; a number card that keeps the total at LIMIT or under (no branch:
    the total never exceeds LIMIT)."""
    # the numbers that fit are 0 .. LIMIT - total: all but the top ones of 0 .. N_NUMBERS - 1
    too_high = max(s[TOTAL] + N_NUMBERS - 1 - LIMIT, 0)
    return ACTIONS_MASK | (NUMBERS_MASK >> too_high)


@njit(inline="always", **NJIT_OPTIONS)
def _legal_mask(s, p):
    """The kinds seat p holds and may play now."""
    return s[HELD + p] & _playable_kinds(s)


@njit(inline="always", **NJIT_OPTIONS)
def is_legal(s, kind, card):
    return is_legal_turn(s, _turn(s), kind, card)


@njit(inline="always", **NJIT_OPTIONS)
def is_legal_turn(s, turn, kind, card):
    if kind != PLAY or card < 0 or card >= N_KINDS:
        return False
    return (turn[1] >> card) & 1 != 0


@njit(**NJIT_OPTIONS)
def legal_moves(s, out):
    """The legal card kinds of the seat to move (as stored by ``advance``), ascending."""
    m = s[LEGAL + s[CUR]]
    c = 0
    for k in range(N_KINDS):
        if (m >> k) & 1:
            out[c] = k
            c += 1
    return c


@njit(**NJIT_OPTIONS, **_INTERNAL)
def _bust(s, p):
    """Rule 5: no legal card: lose a life, keep the hand, total back to 0. The table now
    knows the seat holds none of the kinds playable at that total."""
    s[LACKS + p] |= _playable_kinds(s)
    s[TURNS] += 1
    s[BUSTS] += 1
    s[TOTAL] = 0
    _lose_life(s, p)
    if not _game_over(s):
        s[CUR] = _next(s, p, s[DIR])


@njit(**_ENTRY)
def advance_turn(s, rng):
    """Play forced turns (busts) until a strategy must choose a card: (PLAY, turn), where the
    turn is (seat to move, its legal mask); (DONE, (0, 0)) when the game ends. Leaves the
    legal moves of the seat to move in LEGAL too.

    The kernel hands the turn on to ``view_play_turn``, ``is_legal_turn`` and ``apply_turn``
    (simcards.kernels): the seat and the mask stay in registers, where reading them back
    from the state array waited on the stores just made (store-to-load forwarding on each
    turn's critical path; numba's pass order does not remove those loads)."""
    while True:
        if s[OVER] != 0:
            return DONE, (0, 0)
        if s[TURNS] >= s[TURN_CAP]:
            s[OVER] = 1
            s[UNFINISHED] = 1
            return DONE, (0, 0)
        p = _cur(s)
        m = _legal_mask(s, p)
        s[LEGAL + p] = m
        if m != 0:
            return PLAY, (p, m)
        _bust(s, p)


@njit(**_ENTRY)
def advance(s, rng):
    """Play forced turns (busts) until a strategy must choose a card; DONE when the game ends.
    Leaves the legal moves of the seat to move in LEGAL."""
    return advance_turn(s, rng)[0]


@njit(inline="always", **NJIT_OPTIONS)
def _turn(s):
    """The turn as ``advance_turn`` returns it, read back from the state."""
    p = _cur(s)
    return p, s[LEGAL + p]


@njit(inline="always", **NJIT_OPTIONS)
def decider(s):
    return _cur(s)


@njit(inline="always", **NJIT_OPTIONS)
def decider_turn(s, turn):
    return turn[0]


@njit(inline="always", **NJIT_OPTIONS)
def view_play(s):
    return view_play_turn(s, _turn(s))


@njit(inline="always", **NJIT_OPTIONS)
def view_play_turn(s, turn):
    return View(s, turn[0], turn[1])


# ------------------------------------------------------------------ a move
@njit(**_ENTRY)
def apply(s, rng, kind, card):
    apply_turn(s, rng, _turn(s), kind, card)


@njit(**_ENTRY)
def apply_turn(s, rng, turn, kind, card):
    """Rule 3a: the card leaves the hand for the pile; the player's last card wins the round
    (rule 9), any other has its effect (rule 6)."""
    p = turn[0]
    left = _take(s, p, card)
    _push_pile(s, card)
    s[TURNS] += 1
    if left == 0:
        _round_won(s, rng, p)
        return
    d = s[DIR]
    after = p                     # the player after this seat plays next
    if card < N_NUMBERS:
        s[TOTAL] += card
    elif card == PASS:
        pass
    elif card == SKIP:
        after = _next(s, p, d)
    elif card == REVERSE:
        if s[ALIVE_N] > 2:        # with two players it is a Pass
            d = -d
            s[DIR] = d
    elif card == SET21:
        s[TOTAL] = 21
    elif card == SET10:
        s[TOTAL] = 10
    elif card == SET0:
        s[TOTAL] = 0
    elif card == DRAW1 or card == DRAW2:
        _others_draw(s, rng, p, d, 1 if card == DRAW1 else 2)
    elif card == KILLER:
        if not _killer(s, rng, p, d):
            return
    elif card == LIFE:
        _others_lose_life(s, p, d)
        if _game_over(s):
            return
    elif card == REDEAL:
        if not _redeal_card(s, rng, p, d):
            return
    s[CUR] = _next(s, after, d)


@njit(**NJIT_OPTIONS, **_INTERNAL)
def _others_draw(s, rng, p, d, k):
    """Draw 1 / Draw 2: every other survivor in turn order draws k cards (rule 8 if the
    stock runs out)."""
    q = _next(s, p, d)
    while q != p:
        for _ in range(k):
            _draw(s, rng, q)
        q = _next(s, q, d)


@njit(**NJIT_OPTIONS, **_INTERNAL)
def _killer(s, rng, p, d):
    """Killer: each other survivor in turn order discards a 0 or loses a life; total 0.
    False when that ended the game or the round (a hand emptied, rule 9a)."""
    s[TOTAL] = 0
    emptied = False
    q = _next(s, p, d)
    while q != p:
        if s[hand(q)] > 0:
            left = _take(s, q, 0)
            _push_pile(s, 0)
            if left == 0:
                emptied = True
        else:
            s[LACKS + q] |= 1             # the table now knows it holds no 0
            _lose_life(s, q)
        q = _next(s, q, d)
    if _game_over(s):
        return False
    if emptied:
        _round_emptied(s, rng, p)
        return False
    return True


@njit(**NJIT_OPTIONS, **_INTERNAL)
def _redeal_card(s, rng, p, d):
    """Redeal: total 0, every hand gathered and dealt again. False when a survivor got no
    card (rule 9a: the round ends)."""
    s[TOTAL] = 0
    _redeal(s, rng, p, d)
    for q in range(s[N]):
        if s[LIVES + q] > 0 and s[HAND_N + q] == 0:
            _round_emptied(s, rng, p)
            return False
    return True


@njit(**NJIT_OPTIONS, **_INTERNAL)
def _redeal(s, rng, p, d):
    """Gather all hands (kinds ascending), shuffle, deal from the top starting after p.
    Cards of a kind are alike, so each kind's count is summed over the seats first (no
    branch per seat) and written once."""
    pos = np.uint64(scratch_at(s))
    m = 0
    kinds = 0
    for q in range(s[N]):
        kinds |= s[HELD + q]
    while kinds != 0:
        k = lowest_bit(kinds)
        kinds &= kinds - 1
        c = 0
        for q in range(s[N]):
            c += s[hand(q) + k]
            s[hand(q) + k] = 0
        for _ in range(c):
            s[pos] = k
            pos += np.uint64(1)
        m += c
    scratch = scratch_at(s)
    s[HAND_N:HAND_N + MAX_PLAYERS] = 0
    s[HELD:HELD + MAX_PLAYERS] = 0
    s[LACKS:LACKS + MAX_PLAYERS] = 0
    _shuffle(s, scratch, m, rng)
    _deal(s, scratch + m - 1, m, p, d)


# ------------------------------------------------------------------ outcome
@njit(**NJIT_OPTIONS, **_INTERNAL)
def write_result(s, seat_out, game_out):
    """seat_out[p] = (win, rank, lives, dealt_mask); game_out = (rounds, turns, busts, unfinished)."""
    n = s[N]
    unfinished = s[UNFINISHED] != 0
    for p in range(n):
        s[RANK_KEYS + p] = _rank_key(s, p)
    keys = s[RANK_KEYS:RANK_KEYS + n]
    for p in range(n):
        rank = rank_from_key(keys, n, p)
        seat_out[p, 0] = 1 if (rank == 1 and not unfinished) else 0
        seat_out[p, 1] = rank
        seat_out[p, C_LIVES] = s[LIVES + p]
        seat_out[p, C_DEALT] = s[DEALT + p]
    game_out[G_ROUNDS] = s[ROUNDS]
    game_out[G_TURNS] = s[TURNS]
    game_out[G_BUSTS] = s[BUSTS]
    game_out[G_UNFINISHED] = s[UNFINISHED]


@njit(**NJIT_OPTIONS, **_INTERNAL)
def _rank_key(s, p):
    """Higher is better: lives when unfinished; blitz: lives, then low number cards;
    else the survivor, then the later a player went out."""
    if s[UNFINISHED] != 0:
        return s[LIVES + p]
    if s[BLITZ] != 0:
        points = 0
        for k in range(N_NUMBERS):
            points += k * s[hand(p) + k]
        return s[LIVES + p] * (1 << 24) - points
    return (1 << 40) if s[LIVES + p] > 0 else s[OUT_AT + p]


# ------------------------------------------------------------------ snapshots
@njit(**NJIT_OPTIONS)
def snapshot_size(n, params):
    return 11 + n + n * N_KINDS + 2 * params[P.deck]


@njit(**NJIT_OPTIONS)
def snapshot(s, out):
    """Everything that defines the state, in the layout reference.Game.snapshot() uses."""
    head = (s[CUR], s[DIR], s[TOTAL], s[DEALER], s[TURNS], s[ROUNDS], s[BUSTS], s[OVER],
            s[UNFINISHED], s[STOCK_N], s[PILE_N])
    i = 0
    for x in head:
        out[i] = x
        i += 1
    n = s[N]
    for p in range(n):
        out[i] = s[LIVES + p]
        i += 1
    for p in range(n):
        for k in range(N_KINDS):
            out[i] = s[hand(p) + k]
            i += 1
    d = s[DECK]
    for j in range(d):
        out[i + j] = s[STOCK + j] if j < s[STOCK_N] else -1
    i += d
    for j in range(d):
        out[i + j] = s[PILE + j] if j < s[PILE_N] else -1
