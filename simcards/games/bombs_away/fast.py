"""Bombs Away, compiled: the whole game as numba functions over one int64 array.

A turn can ask several questions (a card, a second card after an ace, a rank to
name, an opponent, a duel answer), so the engine is a small state machine:
``s[S_PHASE]`` says where the game stands. ``step`` answers the pending question
(``apply``) or not (``advance``), then plays every forced step (a turn start, a
question with a single possible answer, the end of a turn) until a question with
two or more answers is pending. The reference engine (reference.py) writes the
same flow as plain Python and stops at exactly the same points; tests replay fast
games through it.

Random draws happen in the reference engine's order: every card taken from the stock
(the deal, a draw, the tens rule) and the random cards taken by a 5 or a 9. The
shuffles of rules 1, 5, 9 and 12 draw nothing: nobody sees into the stock, so a
card is chosen at random from its shuffled part when it is taken
(``simcards.engine.take_top``), which deals the same game as a
shuffle (docs/rules/bombs-away.md, "Engine notes").

Speed: numba reference-counts an array each time it is taken out of a struct
or passed into a function, with an atomic operation; measured on the first,
StructRef version of this engine, those atomics were 60% of the run time. So
the whole state is one int64 array ``s`` (layout below; the kernel passes it
borrowed, so passing it costs nothing). The layout and a strategy's view are in view.py.

The allowed answers of the pending question are one bit mask, ``s[S_LEGAL]``, written
once where the question is asked (``_legal_*``): ``legal_moves``, ``is_legal`` and the
strategies' accessors all read it. The kinds each hand holds are a bit mask too
(``A_HELD``, hidden, kept by ``_take``/``_give``), so the legal cards are one read.

numba guards every ``s[i]`` whose index it cannot prove non-negative with a compare and a
select (negative indices count from the end). So a seat or a kind known to be one is read with
its range told (``q &= SEAT_BITS``, ``k &= KIND_BITS``: no value changes, view.py), and a place in
the pile, the stock or the knowledge rows is indexed unsigned (``s[np.uint64(A_PILE + i)]``):
callgrind counted 848 instructions a turn before, 726 after, and 630 once ``step`` ran a turn's
end on into the next turn's question (issue 13).

How it is compiled (one of three decorators on every function; docs/rules/bombs-away.md,
"Engine notes", has the measurements):

- ``_LEAF``, numba's ``inline="always"``: helpers of a few lines that call nothing
  compiled apart, or have one call site. numba copies their IR into the caller before
  typing; that copy re-runs the callee's front end, deep-copies its IR and lowers it again
  at every call site. Inlining the whole engine this way made the kernel compile for 85 s;
  the card moves, the draw, the tens rule and the duel, each copied at several places,
  added about 3 s to the kernel's 25 (issue 13), so they are ``_HOT``.
- ``_HOT``, ``forceinline``: compiled once, inlined by LLVM into every caller. The
  turn's path (``step`` and what it calls) is inlined into the generated kernel,
  whose loop calls ``step`` at one place (simcards.kernels), so the kernel holds the
  turn once. Each effect has one call site (``_resolve``). Arguments are never literal
  constants (``_NONE``, not ``-1``): numba compiles a function again for every
  literal it is called with.
- ``_CALL``: compiled once and called: the rare paths (the refill, the 4, 5, 7
  and 9, the tens rule, going out) and the contract's entry points, but for the
  one-line views and ``decider``, which are ``_LEAF`` (simcards.config, "Compiled
  functions").

Internal ``_HOT``/``_CALL`` functions (``start_game`` and ``write_result`` too: only the
kernel calls them) are compiled without the Python and C wrappers nobody calls, so they are
only linked into their callers, never emitted alone (simcards.link_only), and without numba's
reference counting (``_nrt=False``):
they receive the borrowed state and never keep, return or allocate an array, and
the kernel spent 7% of its time calling NRT_incref/NRT_decref on the borrowed
arrays' null counters. A callee compiled first from such a function inherits both
settings (numba's flag inheritance), hence the explicit ``forceinline=False``.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simcards.compiled.config import FORCEINLINE_NJIT_OPTIONS, INTERNAL_NJIT_FLAGS, NJIT_OPTIONS
from simcards.compiled.engine import (bit_count, copy_params, hand_to_bottom, lowest_bit, next_living,
                                      rank_from_key, take_top)
from simcards.games.bombs_away.rules import (
    ACE, ANSWER, DUEL_VALUE, EIGHT, EXTRA, FIRST_DUEL, FIRST_NAME, FIVE, FOUR, GC_DUELS,
    GC_POINTS_LOST, GC_TURNS, GC_UNFINISHED, JOKER, KIND_COUNTS, LAST_DUEL, LAST_NAME,
    MAX_PLAYERS, N_DECISIONS, NAME, NINE, P, PLAY, SC_DEALT, SC_POINTS, SEVEN, SEVEN_MIN_PILE,
    SEVEN_TAKES, SIX, TARGET, TEN,
    THREE, TWO, VALUE)
from simcards.games.bombs_away.view import (
    A_ANSWERS, A_DEALT, A_EFF, A_FREE, A_HAND_N, A_HANDS, A_HELD, A_KNOWN, A_KNOWN_KINDS, A_OUT, A_OUT_TURN,
    A_PILE, A_VOID, KNOWN_ROW, PARAM_COPIES,
    A_PILE_COUNTS, A_POINTS, A_SCRATCH, A_SEAT_DEAL, A_SEAT_HAND, A_SEAT_POINTS, A_STOCK, K, S_ALIVE_N, S_ANSWERER,
    S_ASKING, S_CHOSEN,
    S_CUR, S_DAMAGE, S_DECIDER, S_DECK, S_DIRECTION, S_DUEL_CARD, S_DUEL_FROM, S_DUELS,
    S_HAND_SIZE, S_KIND, S_LEGAL, S_MUST, S_N, S_N_LEGAL, S_OUTS, S_OVER, S_PHASE, S_PILE_N,
    S_POINTS_LOST, S_SKIP, S_START_POINTS, S_STOCK_FIXED, S_STOCK_N, S_TENS, S_TURN_CAP, S_TURNS,
    S_UNFINISHED, S_VICTIM, SEAT_BITS, KIND_BITS, DECISION_BITS, STATE_SIZE, View)
from simcards.compiled.rng import rand_below, shuffle_top

DONE = -1
_FIRST_GAME_FIELD = S_DIRECTION   # start_game resets everything from here on (not the rules)...
_FIRST_UNRESET = A_SCRATCH        # ...up to here: the scratch block and the stock, the last two,
                                  # are always written before they are read

# ---- phases: where the game stands (the waiting ones have a question pending)
PH_TURN = 0            # cur's turn starts (turn cap, count, legal first cards)
PH_PLAY = 1            # waiting: cur's first card (or a pass when none is legal)
PH_EXTRA_START = 2     # an ace was played: cur plays one more card
PH_EXTRA = 3           # waiting: that card
PH_NAME_JOKER = 4      # waiting: the rank a played joker is
PH_NAME_EIGHT = 5      # waiting: the rank an 8 names
PH_TARGET_FIVE = 6     # waiting: the opponent a 5 takes from
PH_TARGET_NINE = 7     # waiting: the opponent a 9 swaps with
PH_ANSWER = 8          # waiting: the duel answer
PH_NAME_ANSWER = 9     # waiting: the rank of a joker given as an answer
PH_TARGET_VICTIM = 10  # waiting (duel_victim=chosen): who loses the duel's points
PH_END_TURN = 11       # cur draws back up; the next player is found
PH_OVER = 12

_VALUE = np.array(VALUE, np.int64)
_COUNTS = np.array(KIND_COUNTS, np.int64)
HEAD = 19  # scalars at the start of a snapshot
_NAMES_MASK = sum(1 << k for k in range(FIRST_NAME, LAST_NAME + 1))   # 9..A
_N_NAMES = LAST_NAME - FIRST_NAME + 1
_NOT_SEVEN = ~(1 << SEVEN)
_NOT_SIX = ~(1 << SIX)
_NONE = np.int64(-1)     # "no rank named", "nothing to answer"; typed int64, not a literal -1
_TEN = np.int64(TEN)     # (a literal 10 given to _give would compile _unknow a second time)

# how each function is compiled (the module's docstring says why)
_LEAF = {**NJIT_OPTIONS, "inline": "always"}            # numba copies the IR into the caller
_HOT = FORCEINLINE_NJIT_OPTIONS                         # LLVM inlines the compiled function
_CALL = NJIT_OPTIONS                                    # called
_INTERNAL = INTERNAL_NJIT_FLAGS


@njit(**_LEAF)
def _full(s, p):
    """Cards in seat p's full hand: hand_size, and its seat compensation (hand_seat<p>)."""
    return s[S_HAND_SIZE] + (s[A_SEAT_HAND + p - 1] if p > 0 else 0)


@njit(**_LEAF)
def _dealt(s, p):
    """Cards seat p is dealt: its full hand, and its deal compensation (deal_seat<p>)."""
    return _full(s, p) + (s[A_SEAT_DEAL + p - 1] if p > 0 else 0)


@njit(**_CALL)
def new_state(n, params):
    """One state for a whole batch; ``start_game`` resets it for every game."""
    s = np.zeros(STATE_SIZE, np.int64)
    s[S_N] = n
    copy_params(s, params, PARAM_COPIES)                # the rule settings
    return s


# ------------------------------------------------------------------ seats
@njit(**_LEAF)
def _next(s, n, p, d):
    """The next player still in (points above 0), from p in direction d."""
    return next_living(s, n, A_POINTS, p, d)


# ------------------------------------------------------------------ stock and pile
@njit(**_LEAF)
def _shuffle_stock(s):
    """Rules 1, 5, 9, 12: the stock is shuffled. Nothing is moved: no card of it lies in a
    known place any more, and each is chosen at random when it is taken
    (simcards.engine.take_top)."""
    s[S_STOCK_FIXED] = 0


@njit(**_HOT, **_INTERNAL)
def _top(s, rng):
    """The stock's top card, taken off (the stock is not empty; simcards.engine.take_top).
    Compiled once and inlined by LLVM: copied by numba into every caller, the draw's helpers
    (take_top, draw_to_top, rand_below) added a second to the kernel's compile."""
    return take_top(s, A_STOCK, S_STOCK_N, S_STOCK_FIXED, rng)


@njit(**_CALL, **_INTERNAL)
def _refill(s, rng):
    """Rule 5: the pile under its top card, in pile order, is shuffled into a new stock."""
    m = s[S_PILE_N] - 1
    if m <= 0:
        return
    for i in range(m):
        k = s[A_PILE + i] & KIND_BITS           # (a kind, its range told: no wrap-around code)
        s[A_STOCK + i] = k
        s[A_PILE_COUNTS + k] -= 1
    s[A_PILE] = s[A_PILE + m]
    s[A_EFF] = s[A_EFF + m]
    for i in range(1, m + 1):       # the places above the pile are 0, as in every view
        s[A_PILE + i] = 0
        s[A_EFF + i] = 0
    s[S_PILE_N] = 1
    s[S_STOCK_N] = m
    _shuffle_stock(s)


@njit(**_HOT, **_INTERNAL)
def _take(s, q, k):
    """A card of kind k into q's hand (one more card the table's VOID inference leaves free)."""
    q &= SEAT_BITS              # (ranges told: no wrap-around code, view.SEAT_BITS)
    k &= KIND_BITS
    s[A_HANDS + q * K + k] += 1
    s[A_HAND_N + q] += 1
    s[A_HELD + q] |= np.int64(1) << k
    s[A_FREE + q] += np.int64(s[A_VOID + q] != 0)


@njit(**_HOT, **_INTERNAL)
def _give(s, q, k):
    """A card of kind k out of q's hand."""
    q &= SEAT_BITS
    k &= KIND_BITS
    left = s[A_HANDS + q * K + k] - 1
    s[A_HANDS + q * K + k] = left
    s[A_HAND_N + q] -= 1
    s[A_HELD + q] &= ~(np.int64(left == 0) << k)
    _unknow(s, q, k)


@njit(**_HOT, **_INTERNAL)
def _unknow(s, q, k):
    """A card of kind k left q's hand: every seat's count of q's kind-k cards, one less.

    Every card that leaves a hand, with no test: a kind no seat counts (KNOWN_KINDS) has only 0s,
    which stay 0. Called only for the kinds KNOWN_KINDS marks, the test was the kernel's most
    mispredicted branch (callgrind's branch simulation: 0.28 of 3.60 a turn; 3.03 without it);
    the unconditional rows cost 36 instructions a turn more (591 -> 627), and the kernel over
    arrays it wrote before is still 2-3% faster (two alternated runs of seven pairs, AMD Zen 5)."""
    q &= SEAT_BITS
    k &= KIND_BITS
    i = np.uint64(A_KNOWN + q * K + k)         # (places unsigned: no wrap-around code)
    # A constant count of seats: LLVM unrolls it into scalar code. Over s[S_N] seats it made the
    # loop one AVX-512 gather and scatter of four places a row apart, slower on an Intel Xeon
    # than four loads and stores: 58.5 -> 55.8 ns a turn, 4.6%. The rows of seats from S_N up
    # are 0 (start_game clears them; nobody counts there), so they need no test either.
    for o in range(MAX_PLAYERS):
        s[i] -= np.int64(s[i] > 0)
        i += np.uint64(KNOWN_ROW)


@njit(**_LEAF)
def _know(s, o, q, k):
    """Seat o learns that q holds a card of kind k."""
    o &= SEAT_BITS
    q &= SEAT_BITS
    k &= KIND_BITS
    s[A_KNOWN + o * KNOWN_ROW + q * K + k] += 1
    s[A_KNOWN_KINDS + q] |= np.int64(1) << k


@njit(**_CALL, **_INTERNAL)
def _forget(s, q, keep1, keep2):
    """Rules 10, 14: a card taken at random from q: every seat but ``keep1`` and ``keep2`` (who
    know which card it was) knows one card less of each kind in q's hand. Only the kinds some
    seat counts (KNOWN_KINDS: every other count is 0): the 14-kind scan for every seat was 6% of
    the kernel's time under perf."""
    q &= SEAT_BITS
    kinds_q = s[A_KNOWN_KINDS + q]
    for o in range(s[S_N]):
        if o != keep1 and o != keep2:
            i = A_KNOWN + o * KNOWN_ROW + q * K
            kinds = kinds_q
            while kinds != 0:
                at = np.uint64(i + lowest_bit(kinds))     # (unsigned: no wrap-around code)
                kinds &= kinds - 1
                s[at] -= np.int64(s[at] > 0)


@njit(**_CALL, **_INTERNAL)
def _clear_knowledge(s, q):
    """q's hand is gone (a 4, going out): nothing is known of it any more."""
    q &= SEAT_BITS
    for o in range(s[S_N]):
        i = A_KNOWN + o * KNOWN_ROW + q * K
        for k in range(K):
            s[np.uint64(i + k)] = 0                 # (unsigned: no wrap-around code)
    s[A_KNOWN_KINDS + q] = 0
    s[A_VOID + q] = 0
    s[A_FREE + q] = 0


@njit(**_HOT, **_INTERNAL)
def _draw(s, rng, q):
    """One card from the top of the stock (rule 5 first if it is empty); False if none is left."""
    if s[S_STOCK_N] == 0:
        _refill(s, rng)
        if s[S_STOCK_N] == 0:
            return False
    _take(s, q, _top(s, rng))
    return True


@njit(**_HOT, **_INTERNAL)
def _tens(s, rng, q):
    """Rule 4: each extra 10 goes under the stock and is replaced from the top,
    giving up after as many tries as the stock had cards."""
    q &= SEAT_BITS
    if s[A_HANDS + q * K + TEN] > 1 and s[S_TENS] != 0:
        _swap_tens(s, rng, q)


@njit(**_CALL, **_INTERNAL)
def _swap_tens(s, rng, q):
    """Rule 4's swaps (a hand with two 10s or more: rare, so called, not inlined)."""
    q &= SEAT_BITS
    h = A_HANDS + q * K
    tries = s[S_STOCK_N]
    while s[h + TEN] > 1 and tries > 0:
        _give(s, q, _TEN)
        for i in range(s[S_STOCK_N], 0, -1):          # the 10 goes under the stock,
            s[A_STOCK + i] = s[A_STOCK + i - 1]
        s[A_STOCK] = TEN
        s[S_STOCK_N] += 1
        s[S_STOCK_FIXED] += 1                         # in a known place
        _take(s, q, _top(s, rng))                     # the top card replaces it
        tries -= 1


@njit(**_HOT, **_INTERNAL)
def _draw_up(s, rng, q):
    """Rule 3: draw back up to a full hand; then the tens rule."""
    q &= SEAT_BITS
    for _ in range(_full(s, q) - s[A_HAND_N + q]):
        if not _draw(s, rng, q):
            break
    _tens(s, rng, q)


@njit(**_HOT, **_INTERNAL)
def _random_card(s, rng, q):
    """A card taken at random from q's hand (uniform over cards, kinds ascending), or -1.
    Inlined by LLVM into the 5 and the 9 (its only callers, both called): called, it was 31.7
    instructions a turn; inlined, 13.7 (callgrind: 609.0 -> 591.0 a turn, the same records)."""
    q &= SEAT_BITS
    if s[A_HAND_N + q] == 0:
        return -1
    r = rand_below(rng, s[A_HAND_N + q])
    h = A_HANDS + q * K
    k = 0                           # card r is of the first kind whose cards reach past r:
    seen = 0                        # count the kinds that end at or before it (no branch)
    for j in range(K):
        seen += s[h + j]
        k += np.int64(seen <= r)
    return k


@njit(**_HOT, **_INTERNAL)
def _move_card(s, src, dst, k):
    _give(s, src, k)
    _take(s, dst, k)


# ------------------------------------------------------------------ start
@njit(**_CALL, **_INTERNAL)
def start_game(s, rng):
    """Rule 1: seat n-1 deals one card at a time from seat 0; then the tens rule, seat by seat."""
    n = s[S_N]
    for i in range(_FIRST_GAME_FIELD, _FIRST_UNRESET):
        s[i] = 0
    pos = np.int64(0)           # typed: a literal 0 compiled shuffle_top twice (simcards.config)
    for k in range(K):
        for _ in range(_COUNTS[k]):
            s[A_STOCK + pos] = k
            pos += 1
    s[S_STOCK_N] = pos
    _shuffle_stock(s)
    s[S_PILE_N] = 0
    for p in range(n):
        s[A_POINTS + p] = s[S_START_POINTS]
        if p > 0:
            s[A_POINTS + p] += s[A_SEAT_POINTS + p - 1]     # seat compensation
        s[A_OUT + p] = -1
        for d in range(N_DECISIONS):
            s[A_ANSWERS + p * N_DECISIONS + d] = -1
    # the cards dealt, drawn back to back: the shuffle's first steps in one loop (the same
    # numbers and cards as taking each with _top), then dealt from the top down
    dealt = np.int64(0)
    most = np.int64(0)
    for p in range(n):
        dealt += _dealt(s, p)
        most = max(most, _dealt(s, p))
    shuffle_top(s, A_STOCK, pos, dealt, rng)
    # one card at a time round the table; a seat dealt fewer cards (seat compensation) is passed
    # over once it has them: with equal deals, card i goes to seat i % n as it always did
    i = 0
    for r in range(most):
        for p in range(n):
            if r < _dealt(s, p):
                _take(s, p, s[A_STOCK + pos - 1 - i])
                i += 1
    s[S_STOCK_N] = pos - dealt
    for p in range(n):
        _tens(s, rng, p)
    for p in range(n):
        s[A_DEALT + p] = s[A_HELD + p]
    s[S_DIRECTION] = 1
    s[S_CUR] = 0
    s[S_MUST] = -1
    s[S_TURNS] = 0
    s[S_DUELS] = 0
    s[S_POINTS_LOST] = 0
    s[S_OVER] = 0
    s[S_UNFINISHED] = 0
    s[S_OUTS] = 0
    s[S_ALIVE_N] = n
    s[S_SKIP] = 0
    s[S_PHASE] = PH_TURN
    s[S_KIND] = -1
    s[S_DECIDER] = -1
    s[S_ASKING] = -1
    s[S_N_LEGAL] = 0
    s[S_LEGAL] = 0
    s[S_DUEL_FROM] = -1
    s[S_DUEL_CARD] = -1
    s[S_ANSWERER] = -1
    s[S_VICTIM] = -1
    s[S_DAMAGE] = 0


# ------------------------------------------------------------------ questions
@njit(**_LEAF)
def _ask(s, phase, kind, seat, card):
    """A question is pending; its allowed answers are already in s[S_LEGAL], s[S_N_LEGAL]."""
    s[S_PHASE] = phase
    s[S_KIND] = kind
    s[S_DECIDER] = seat
    s[S_ASKING] = card


@njit(**_LEAF)
def _allow(s, mask):
    s[S_LEGAL] = mask
    s[S_N_LEGAL] = bit_count(mask)


@njit(**_HOT, **_INTERNAL)
def _legal_cards(s, p, must):
    """Rules 3, 12, 13: the kinds p may play (a 7, or a 6 that copies a 7, needs 4 cards on the
    pile); under an 8's name, that rank or the joker if p holds either."""
    mask = s[A_HELD + (p & SEAT_BITS)]
    if must >= 0:
        named = mask & ((np.int64(1) << must) | (np.int64(1) << JOKER))
        if named != 0:
            _allow(s, named)
            return
    n = s[S_PILE_N]
    if n < SEVEN_MIN_PILE:
        mask &= _NOT_SEVEN
        if n > 0 and s[np.uint64(A_EFF + n - 1)] == SEVEN:      # (unsigned: no wrap-around code)
            mask &= _NOT_SIX
    _allow(s, mask)


@njit(**_LEAF)
def _legal_held(s, p):
    """Rule 16: any card in hand answers a duel."""
    _allow(s, s[A_HELD + (p & SEAT_BITS)])


@njit(**_LEAF)
def _legal_names(s, only):
    """Rules 13, 15: a rank 9..A (only ``only`` when an 8's name binds the joker)."""
    if only >= 0:
        s[S_LEGAL] = 1 << only
        s[S_N_LEGAL] = 1
        return
    s[S_LEGAL] = _NAMES_MASK
    s[S_N_LEGAL] = _N_NAMES


@njit(**_HOT, **_INTERNAL)
def _legal_opponents(s, p):
    """Rules 10, 14, 16 (pagat): an opponent still in."""
    mask = 0
    for q in range(s[S_N]):
        mask |= np.int64((q != p) & (s[A_POINTS + q] > 0)) << q
    _allow(s, mask)


@njit(**_CALL, **_INTERNAL)
def _void(s, p, must):
    """Rule 13: p's first card under an 8's name was neither that rank nor the joker, so p
    held neither (an earlier such mask stays when p has gained no card since)."""
    mask = (np.int64(1) << must) | (np.int64(1) << JOKER)
    p &= SEAT_BITS
    if s[A_FREE + p] == 0:
        mask |= s[A_VOID + p]
    s[A_VOID + p] = mask
    s[A_FREE + p] = 0


@njit(**_LEAF)
def _single(s):
    """The only allowed answer (when s[S_N_LEGAL] == 1)."""
    return lowest_bit(s[S_LEGAL])


# ------------------------------------------------------------------ points
@njit(**_CALL, **_INTERNAL)
def _eliminate(s, c):
    """Rule 17: out; the hand goes under the stock, kinds ascending."""
    c &= SEAT_BITS
    s[A_OUT + c] = s[S_OUTS]
    s[A_OUT_TURN + c] = s[S_TURNS]
    s[S_OUTS] += 1
    s[S_ALIVE_N] -= 1
    s[S_STOCK_FIXED] += hand_to_bottom(s, A_STOCK, S_STOCK_N, A_HANDS + c * K, s[A_HAND_N + c], s[A_HELD + c])
    s[A_HAND_N + c] = 0
    s[A_HELD + c] = 0
    _clear_knowledge(s, c)
    if s[S_ALIVE_N] == 1:
        s[S_OVER] = 1


@njit(**_HOT, **_INTERNAL)
def _hit(s, c, damage):
    c &= SEAT_BITS
    s[A_POINTS + c] -= damage
    s[S_POINTS_LOST] += damage
    if s[A_POINTS + c] <= 0:
        _eliminate(s, c)


# ------------------------------------------------------------------ effects
@njit(**_LEAF)
def _onto_pile(s, card):
    """A card (a kind) onto the pile; returns what it counts as there: a 6 counts as the card it
    lies on (rules 11, 16), as a 6 on an empty pile."""
    i = s[S_PILE_N]
    eff = card
    if card == SIX and i > 0:
        eff = s[np.uint64(A_EFF + i - 1)]           # (pile places unsigned: no wrap-around code)
    s[np.uint64(A_PILE + i)] = card
    s[np.uint64(A_EFF + i)] = eff
    s[A_PILE_COUNTS + card] += 1
    s[S_PILE_N] = i + 1
    return eff


@njit(**_HOT, **_INTERNAL)
def _play_card(s, p, card):
    """Rule 3: the card goes onto the pile; a 6 is what it is played on (rule 11)."""
    card &= KIND_BITS
    _give(s, p, card)
    _onto_pile(s, card)


@njit(**_HOT, **_INTERNAL)
def _effect(s, rng, p, eff):
    """Rules 6-16: what the card (as it counts) does."""
    if eff == ACE:
        s[S_PHASE] = PH_EXTRA_START
    elif eff == TWO:
        s[S_SKIP] = 1
        s[S_PHASE] = PH_END_TURN
    elif eff == THREE:
        if s[S_ALIVE_N] > 2:
            s[S_DIRECTION] = -s[S_DIRECTION]
        s[S_PHASE] = PH_END_TURN
    elif eff == FOUR:
        _four(s, rng, p)
        s[S_PHASE] = PH_END_TURN
    elif eff == FIVE:
        _legal_opponents(s, p)
        _ask(s, PH_TARGET_FIVE, TARGET, p, FIVE)
    elif eff == SEVEN:
        _seven(s, rng)
        s[S_PHASE] = PH_END_TURN
    elif eff == EIGHT:
        _legal_names(s, -1)
        _ask(s, PH_NAME_EIGHT, NAME, p, EIGHT)
    elif eff == NINE:
        _legal_opponents(s, p)
        _ask(s, PH_TARGET_NINE, TARGET, p, NINE)
    elif eff >= FIRST_DUEL and eff <= LAST_DUEL:
        _duel(s, p, eff)
    else:  # a 6 with nothing under it
        s[S_PHASE] = PH_END_TURN


@njit(**_HOT, **_INTERNAL)
def _duel(s, p, eff):
    """Rule 16: the next player must answer; C is fixed now unless the starter chooses."""
    n = s[S_N]
    d = s[S_DIRECTION]
    s[S_DUELS] += 1
    b = _next(s, n, p, d)
    s[S_DUEL_FROM] = p
    s[S_DUEL_CARD] = eff
    s[S_ANSWERER] = b
    if s[S_CHOSEN] != 0:
        s[S_VICTIM] = -1
    elif s[S_ALIVE_N] == 2:
        s[S_VICTIM] = b
    else:
        s[S_VICTIM] = _next(s, n, b, d)
    _legal_held(s, b)
    _ask(s, PH_ANSWER, ANSWER, b, eff)


@njit(**_CALL, **_INTERNAL)
def _four(s, rng, p):
    """Rule 9: the hand (kinds ascending) onto the stock, shuffle, draw a full hand."""
    p &= SEAT_BITS
    h = A_HANDS + p * K
    pos = s[S_STOCK_N]
    held = s[A_HELD + p]
    while held != 0:                # the kinds held, ascending
        k = lowest_bit(held)
        held &= held - 1
        for _ in range(s[h + k]):
            s[np.uint64(A_STOCK + pos)] = k         # (unsigned: no wrap-around code)
            pos += 1
        s[h + k] = 0
    s[A_HAND_N + p] = 0
    s[A_HELD + p] = 0
    _clear_knowledge(s, p)
    s[S_STOCK_N] = pos
    _shuffle_stock(s)
    for _ in range(_full(s, p)):
        if not _draw(s, rng, p):
            break
    _tens(s, rng, p)


@njit(**_CALL, **_INTERNAL)
def _seven(s, rng):
    """Rule 12: the pile's top five cards (pile order) onto the stock, shuffle."""
    lo = s[S_PILE_N] - SEVEN_TAKES
    pos = s[S_STOCK_N]
    for i in range(lo, s[S_PILE_N]):
        at = np.uint64(A_PILE + i)              # (places unsigned, the kind's range told:
        k = s[at] & KIND_BITS                   # no wrap-around code)
        s[np.uint64(A_STOCK + pos)] = k
        s[A_PILE_COUNTS + k] -= 1
        s[at] = 0
        s[np.uint64(A_EFF + i)] = 0
        pos += 1
    s[S_PILE_N] = lo
    s[S_STOCK_N] = pos
    _shuffle_stock(s)


@njit(**_CALL, **_INTERNAL)
def _five(s, rng, p, q):
    """Rule 10: p takes a random card from q; q draws one at once."""
    k = _random_card(s, rng, q)
    if k < 0:
        return
    _move_card(s, q, p, k)
    _forget(s, q, p, q)
    _know(s, q, p, k)                               # q knows which card p took
    _tens(s, rng, p)
    _draw(s, rng, q)
    _tens(s, rng, q)


@njit(**_CALL, **_INTERNAL)
def _nine(s, rng, p, q):
    """Rule 14: each takes a random card from the other (q's card is drawn first)."""
    kq = _random_card(s, rng, q)
    kp = _random_card(s, rng, p)
    if kq >= 0:
        _move_card(s, q, p, kq)
    if kp >= 0:
        _move_card(s, p, q, kp)
    if kq >= 0:
        _forget(s, q, p, q)
    if kp >= 0:
        _forget(s, p, p, q)
    if kq >= 0:                                     # each knows the card it lost to the other
        _know(s, q, p, kq)
    if kp >= 0:
        _know(s, p, q, kp)
    _tens(s, rng, p)
    _tens(s, rng, q)


@njit(**_LEAF)
def _answer(s, card):
    """Rule 16: the answer goes onto the pile without its effect (a 6 is the duel card).
    Returns what it is worth, or -1 when it is a joker, whose name is asked now."""
    b = s[S_ANSWERER] & SEAT_BITS     # (a seat: an answer is pending)
    if card < 0:                        # no card at all (never seen): worth 0
        return 0
    card &= KIND_BITS
    _give(s, b, card)
    eff = _onto_pile(s, card)           # (the duel card lies there: a 6 copies it)
    if card == JOKER:
        _legal_names(s, -1)
        _ask(s, PH_NAME_ANSWER, NAME, b, JOKER)
        return -1
    return _VALUE[eff & KIND_BITS]


@njit(**_LEAF)
def _answer_done(s, rng, value):
    _draw_up(s, rng, s[S_ANSWERER])
    damage = DUEL_VALUE - value
    if damage > 0:
        if s[S_CHOSEN] != 0:
            s[S_DAMAGE] = damage
            _legal_opponents(s, s[S_DUEL_FROM])
            _ask(s, PH_TARGET_VICTIM, TARGET, s[S_DUEL_FROM], s[S_DUEL_CARD])
            return
        _hit(s, s[S_VICTIM], damage)
    _duel_end(s)


@njit(**_LEAF)
def _duel_end(s):
    s[S_DUEL_FROM] = -1
    s[S_DUEL_CARD] = -1
    s[S_ANSWERER] = -1
    s[S_VICTIM] = -1
    s[S_DAMAGE] = 0
    s[S_PHASE] = PH_OVER if s[S_OVER] != 0 else PH_END_TURN


@njit(**_LEAF)
def _resolve(s, rng, move):
    """The pending question's answer (``move``; -1 when nothing was possible) and its effect.
    Each effect has one call site here, so that the compiled engine holds one copy of it."""
    # (a question is pending: its decider is a seat and its kind a decision, ranges told)
    s[A_ANSWERS + (s[S_DECIDER] & SEAT_BITS) * N_DECISIONS + (s[S_KIND] & DECISION_BITS)] = move
    ph = s[S_PHASE]
    p = s[S_CUR] & SEAT_BITS
    if ph == PH_PLAY or ph == PH_EXTRA or ph == PH_NAME_JOKER:
        if ph == PH_NAME_JOKER:
            s[np.uint64(A_EFF + s[S_PILE_N] - 1)] = move       # rule 15: the joker is the rank named
        else:
            must = -1
            if ph == PH_PLAY:                       # rule 13 binds the turn's first card only
                must = s[S_MUST]
                s[S_MUST] = -1
                if must >= 0 and move != must and move != JOKER:
                    _void(s, p, must)
            if move < 0:
                s[S_PHASE] = PH_END_TURN            # rule 3: a pass (or nothing after an ace)
                return
            _play_card(s, p, move)
            if move == JOKER:
                _legal_names(s, must)
                _ask(s, PH_NAME_JOKER, NAME, p, JOKER)
                return
        _effect(s, rng, p, s[np.uint64(A_EFF + s[S_PILE_N] - 1)])
    elif ph == PH_NAME_EIGHT:
        s[S_MUST] = move
        s[S_PHASE] = PH_END_TURN
    elif ph == PH_TARGET_FIVE:
        _five(s, rng, p, move)
        s[S_PHASE] = PH_END_TURN
    elif ph == PH_TARGET_NINE:
        _nine(s, rng, p, move)
        s[S_PHASE] = PH_END_TURN
    elif ph == PH_ANSWER or ph == PH_NAME_ANSWER:
        if ph == PH_NAME_ANSWER:
            s[np.uint64(A_EFF + s[S_PILE_N] - 1)] = move       # a joker answer is the rank named
            value = _VALUE[move & KIND_BITS]
        else:
            value = _answer(s, move)
            if value < 0:                           # a joker: its name is asked first
                return
        _answer_done(s, rng, value)
    elif ph == PH_TARGET_VICTIM:
        _hit(s, move, s[S_DAMAGE])
        _duel_end(s)


@njit(**_HOT, **_INTERNAL)
def step(s, rng, kind, move):
    """``apply`` then ``advance`` in one function: answer the pending question with ``move`` if
    ``kind`` >= 0, then play forced steps (a question with one possible answer or none is
    answered here) until a question with two or more answers is pending; returns its kind,
    or DONE. One function with one call of ``_resolve``, and the kernel's loop calls it at one
    place: numba compiles the turn once and the kernel holds it once (docs/rules/bombs-away.md,
    "Engine notes")."""
    while True:
        if kind < 0:                                    # no answer in hand: see where we are
            ph = s[S_PHASE]
            # a turn's end goes straight on to the next turn, and a turn's start to its question,
            # without another round of this loop (which dispatched on the phase once more)
            if ph == PH_END_TURN:                       # rule 3, rule 7
                p = s[S_CUR] & SEAT_BITS
                _draw_up(s, rng, p)
                q = _next(s, s[S_N], p, s[S_DIRECTION])
                if s[S_SKIP] != 0:
                    s[S_SKIP] = 0
                    q = _next(s, s[S_N], q, s[S_DIRECTION])
                s[S_CUR] = q
                s[S_PHASE] = PH_TURN
                ph = PH_TURN
            if ph == PH_TURN:
                if s[S_TURNS] >= s[S_TURN_CAP]:             # rule 18
                    s[S_OVER] = 1
                    s[S_UNFINISHED] = 1
                    s[S_PHASE] = PH_OVER
                    continue
                s[S_TURNS] += 1
                _legal_cards(s, s[S_CUR], s[S_MUST])
                _ask(s, PH_PLAY, PLAY, s[S_CUR], -1)
            elif ph == PH_EXTRA_START:
                _legal_cards(s, s[S_CUR], _NONE)
                _ask(s, PH_EXTRA, EXTRA, s[S_CUR], ACE)
            elif ph == PH_OVER:
                s[S_KIND] = -1
                s[S_DECIDER] = -1
                s[S_ASKING] = -1
                s[S_N_LEGAL] = 0
                s[S_LEGAL] = 0
                return DONE
            c = s[S_N_LEGAL]                            # a question is pending
            if c >= 2:
                return s[S_KIND]
            move = _single(s) if c == 1 else -1         # the engine answers it
        kind = -1
        _resolve(s, rng, move)


@njit(**_LEAF)
def advance(s, rng):
    """Forced steps up to the next question with two or more answers: its kind, or DONE."""
    return step(s, rng, _NONE, _NONE)


@njit(**_LEAF)
def decider(s):
    """The seat the pending question asks (called only while one is pending), its range told."""
    return s[S_DECIDER] & SEAT_BITS


@njit(**_LEAF)
def _view(s):
    return View(s, decider(s))


@njit(**_LEAF)
def view_play(s):
    return _view(s)


@njit(**_LEAF)
def view_extra(s):
    return _view(s)


@njit(**_LEAF)
def view_name(s):
    return _view(s)


@njit(**_LEAF)
def view_target(s):
    return _view(s)


@njit(**_LEAF)
def view_answer(s):
    return _view(s)


@njit(**_CALL)
def legal_moves(s, out):
    """The pending question's allowed answers, ascending, into ``out``; returns their count
    (0 when the game is over). Reads only public fields: works on a reference view too."""
    mask = s[S_LEGAL]
    c = 0
    while mask != 0:
        out[c] = lowest_bit(mask)
        mask &= mask - 1
        c += 1
    return c


@njit(**_CALL)
def is_legal(s, kind, move):
    """``move`` answers the pending question (none is pending once the game is over: KIND -1)."""
    if kind != s[S_KIND] or move < 0 or move >= K:
        return False
    return ((s[S_LEGAL] >> move) & 1) != 0


@njit(**_LEAF)
def apply(s, rng, kind, move):
    """The pending question (``kind``) answered with ``move``, up to the next question."""
    step(s, rng, kind, move)


# ------------------------------------------------------------------ outcome
@njit(**_LEAF)
def _rank_key(s, p):
    """Still in: above everyone out, by points; out: the later, the better."""
    pts = s[A_POINTS + p]
    return (np.int64(1) << 40) + pts if pts > 0 else s[A_OUT + p]


@njit(**_CALL, **_INTERNAL)
def write_result(s, seat_out, game_out):
    """seat_out[p] = (win, rank, *SEAT_COLUMNS); game_out = (*GAME_COLUMNS, unfinished)."""
    n = s[S_N]
    unfinished = s[S_UNFINISHED] != 0
    keys = s[A_SCRATCH:A_SCRATCH + n]           # the hidden scratch block: no allocation per game
    for p in range(n):
        keys[p] = _rank_key(s, p)
    for p in range(n):
        pts = s[A_POINTS + p]
        rank = rank_from_key(keys, n, p)
        seat_out[p, 0] = 1 if (rank == 1 and not unfinished and pts > 0) else 0
        seat_out[p, 1] = rank
        seat_out[p, SC_POINTS] = pts
        seat_out[p, SC_DEALT] = s[A_DEALT + p]
    game_out[GC_TURNS] = s[S_TURNS]
    game_out[GC_DUELS] = s[S_DUELS]
    game_out[GC_POINTS_LOST] = s[S_POINTS_LOST]
    game_out[GC_UNFINISHED] = s[S_UNFINISHED]


@njit(**_CALL)
def snapshot_size(n, params):
    return HEAD + 2 * n + n * K + 3 * params[P.deck]


@njit(**_CALL)
def snapshot(s, out):
    """Everything that defines the state, in the layout reference.Game.snapshot() uses."""
    waiting = s[S_PHASE] != PH_OVER
    mask = s[S_LEGAL] if waiting else 0
    head = (s[S_CUR], s[S_DIRECTION], s[S_MUST], s[S_TURNS], s[S_DUELS], s[S_POINTS_LOST], s[S_OVER],
            s[S_UNFINISHED], s[S_OUTS], s[S_STOCK_N], s[S_PILE_N],
            s[S_KIND] if waiting else -1, s[S_DECIDER] if waiting else -1, mask,
            s[S_ASKING] if waiting else -1, s[S_DUEL_FROM], s[S_VICTIM], s[S_DAMAGE],
            s[S_STOCK_FIXED])
    i = 0
    for x in head:
        out[i] = x
        i += 1
    n = s[S_N]
    for p in range(n):
        out[i] = s[A_POINTS + p]
        out[i + n] = s[A_OUT + p]
        i += 1
    i += n
    for p in range(n):
        for k in range(K):
            out[i] = s[A_HANDS + p * K + k]
            i += 1
    d = s[S_DECK]
    for j in range(d):
        out[i + j] = s[A_STOCK + j] if j < s[S_STOCK_N] else -1
    i += d
    for j in range(d):
        out[i + j] = s[A_PILE + j] if j < s[S_PILE_N] else -1
    i += d
    for j in range(d):
        out[i + j] = s[A_EFF + j] if j < s[S_PILE_N] else -1
