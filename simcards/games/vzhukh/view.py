"""What a Vzhukh strategy sees, and where it lives in the engine's state array.

A strategy receives ``View(s, seat)``: the engine's state array and its own
seat. It reads it only through the accessors below. They expose every fact the
table knows (docs/rules/vzhukh.md, "What a strategy sees"): the stack, the
discard pile (counts per kind), every seat's hand size, penalty (in total and
per round), stacks taken (how many, and the last one: what the seat could not
beat), what a take or a pass showed a seat does not hold (BARRED), jokers left
at the ends of rounds, the stock size, the direction, the round, action and
pass counters, the rule settings (deck, hand size, joker
penalty, action cap) — and the seat's own hand, first hand, legal moves and
memory. The reference engine builds views with every other field zeroed, so a
strategy that peeks at another hand or the stock fails the twin test.

The layout (``LAYOUT``) is built with simcards.layout: every offset below is
handed out by the builder, sizes come from the rules.
"""
from __future__ import annotations

from collections import namedtuple

from numba import njit

from simcards.compiled.config import NJIT_OPTIONS
from simcards.compiled.engine import bit_count, memory_accessors, memory_block, nth_bit
from simcards.games.vzhukh.rules import (COUNT_OPTIONS, MAX_COUNT, MAX_PLAYERS, MAX_STACK_SUM, N_KINDS,
                                         N_MOVES, N_NUMBERS, P, ROUNDS, SEAT_PENALTY_OPTIONS)
from simcards.compiled.layout import Layout

#: a hand's row is N_KINDS counts padded to a power of two, so that hand(p) is a shift
HAND_SHIFT = 4
HAND_STRIDE = 1 << HAND_SHIFT
assert HAND_STRIDE >= N_KINDS
#: the legal moves are a bit mask over the move codes (rules.encode_move): move m is legal
#: when bit m & 31 (its count) of word m >> 5 (its action and kind) is set. A seat's row is
#: LEGAL_STRIDE such words; ascending codes are the canonical order of the moves.
LEGAL_STRIDE = N_MOVES >> 5
LEGAL_SHIFT = LEGAL_STRIDE.bit_length() - 1
assert LEGAL_STRIDE == 1 << LEGAL_SHIFT and MAX_COUNT < 32

LAYOUT = Layout("vzhukh")
# ---- the table: who acts, the stack, counters (public)
(N, CUR, PHASE, DIR, STACK_KIND, STACK_N, ROUND, ACTIONS, PASSES, TAKES, ROUND_STEPS, IN_ROW,
 ENDING, OVER, UNFINISHED, STOCK_N) = LAYOUT.scalars(
    "N", "CUR", "PHASE", "DIR", "STACK_KIND", "STACK_N", "ROUND", "ACTIONS", "PASSES", "TAKES",
    "ROUND_STEPS", "IN_ROW", "ENDING", "OVER", "UNFINISHED", "STOCK_N")
# ---- rule settings (public; named after, and copied from, the parameter row's entries:
# rules.PARAM_ROW)
HAND_SIZE, CAP, JOKER_PENALTY, DECK = LAYOUT.params(P, "hand_size", "action_cap", "joker_penalty",
                                                    "deck")
COUNTS = LAYOUT.param_block("COUNTS", P, COUNT_OPTIONS)  # cards of each kind in the deck
# seat compensation: the penalty seat p >= 1 starts the game with (option penalty_seat<p>) in
# SEAT_PENALTY + p - 1, 0 for a seat not at the table; the first player, seat 0, starts at 0
SEAT_PENALTY = LAYOUT.param_block("SEAT_PENALTY", P, SEAT_PENALTY_OPTIONS)
# ---- what the table has seen (public)
DISCARD = LAYOUT.block("DISCARD", N_KINDS)            # cards of each kind on the discard pile
HAND_N = LAYOUT.block("HAND_N", MAX_PLAYERS)          # cards in seat p's hand
# per game, zeroed by start_game: from PENALTY up to PER_GAME_END
PENALTY = LAYOUT.block("PENALTY", MAX_PLAYERS)        # penalty points of seat p so far
ROUND_PEN = LAYOUT.block("ROUND_PEN", MAX_PLAYERS, ROUNDS)   # s[ROUND_PEN + ROUNDS * p + r]
TAKES_BY = LAYOUT.block("TAKES_BY", MAX_PLAYERS)      # stacks taken by seat p
JOKERS_LEFT = LAYOUT.block("JOKERS_LEFT", MAX_PLAYERS)  # jokers left in p's hand at rounds' ends
#: the last stack seat p took (rule 10): kind, count, and the action counter right after the
#: take; count 0 while p has taken none this game. The taker could not beat it: no joker, no
#: card of its rank, no rank worth more, in the hand it still holds (it draws nothing).
LAST_TAKE = LAYOUT.block("LAST_TAKE", MAX_PLAYERS, 3)
TAKE_KIND, TAKE_COUNT, TAKE_ACTION = 0, 1, 2           # columns of a LAST_TAKE row
#: what the table knows seat p does not hold, from what it was seen unable to do since its
#: last action (its hand has not changed since: cards leave and join a hand only by its own
#: actions and their draws). Bits 0..12: kinds p holds none of; bits BARRED_SHIFT up: a
#: bound B, every number kind k not barred held at most B // (k + 1) times. 0: nothing known.
#: Set by a take (rule 10: no joker, no card of the stack's rank, no rank worth more than the
#: stack, B = its sum) that drew no card, and by a pass (rule 3: no number card); two such
#: events without an action between them combine (kinds or'ed, the lower bound); cleared by
#: p's every action and at every deal.
BARRED = LAYOUT.block("BARRED", MAX_PLAYERS)
BARRED_SHIFT = 16
BARRED_KINDS = (1 << N_KINDS) - 1
BARRED_NUMBERS = (1 << N_NUMBERS) - 1                 # a pass: no number card
BARRED_JOKERS = BARRED_KINDS ^ BARRED_NUMBERS          # a take: no joker (and more)


@njit(inline="always", **NJIT_OPTIONS)
def barred_after(old, kinds, bound):
    """The BARRED word of a seat that has just been seen unable to hold ``kinds`` and any
    number kind k more than ``bound // (k + 1)`` times, when its word was ``old``."""
    if old == 0:
        return kinds | (bound << BARRED_SHIFT)
    return (old & BARRED_KINDS) | kinds | (min(old >> BARRED_SHIFT, bound) << BARRED_SHIFT)
# ---- one seat's own (seat-private rows)
DEALT = LAYOUT.block("DEALT", MAX_PLAYERS, 1, visibility="seat")  # kinds in p's first hand
MEMORY = memory_block(LAYOUT, MAX_PLAYERS)
PER_GAME_END = LAYOUT.size
HANDS = LAYOUT.block("HANDS", MAX_PLAYERS, HAND_STRIDE, visibility="seat")  # s[HANDS + 16p + kind]
#: the legal moves of p's current (or last) decision, written by fast.advance: the bit mask
#: over move codes (see LEGAL_STRIDE)
LEGAL = LAYOUT.block("LEGAL", MAX_PLAYERS, LEGAL_STRIDE, visibility="seat")
# ---- the fast engine's own (hidden: zero in the reference engine's views)
#: the seat after p is s[NEXT_SEAT + SEAT_ROW * (direction + 1) + p]: one row per direction
#: (-1 and +1; the middle row is unused), set once by new_state, so that finding the next
#: player is one read, with no branch on the wrap-around
SEAT_ROW = 8
assert SEAT_ROW >= MAX_PLAYERS
NEXT_SEAT = LAYOUT.block("NEXT_SEAT", 3, SEAT_ROW, visibility="hidden")
RANK_KEYS = LAYOUT.block("RANK_KEYS", MAX_PLAYERS, visibility="hidden")  # write_result's scratch
#: fast._BEAT_WORDS (16: the number kinds and the words above them, which stay 0), set by
#: new_state: fast._legal's loop over a defence's beats is bounded by s[NUMBERS], not by the
#: constant, so that LLVM runs it on SIMD lanes (it vectorizes a loop whose trip count it does
#: not know, and unrolls one of a constant count into scalar code: with 10 words, 5% of an action)
NUMBERS = LAYOUT.scalar("NUMBERS", visibility="hidden")
#: redeal.py's scratch (the constrained seats' order, then each kind's cap and unseen count),
#: zero outside a redeal: a search redeals thousands of times a decision, and two arrays
#: allocated a deal took about 6% of its time
REDEAL_SIZE = MAX_PLAYERS + 2 * N_KINDS
REDEAL = LAYOUT.block("REDEAL", REDEAL_SIZE, visibility="hidden")
# ---- three runs of DECK cards (hidden): the stock (top card last), the deck in canonical
# order (kinds ascending, set once by new_state and copied at every deal), a shuffle's draws
STOCK = LAYOUT.tail("STOCK")
#: (state offset, row slot) of every rule setting above: new_state copies them from the row
PARAM_COPIES = LAYOUT.param_copies()


@njit(**NJIT_OPTIONS)
def state_size(deck):
    """Length of the state array for a deck of ``deck`` cards (both engines)."""
    return STOCK + 3 * deck

memory, remember = memory_accessors(MEMORY)

View = namedtuple("View", ["s", "seat"])


# ------------------------------------------------------------------ own hand and moves
@njit(inline="always", **NJIT_OPTIONS)
def held(view, kind):
    """How many cards of ``kind`` the player holds."""
    return view.s[HANDS + (view.seat << HAND_SHIFT) + kind]


@njit(inline="always", **NJIT_OPTIONS)
def dealt_mask(view):
    """Bit k set when kind k was in this seat's first hand of the game."""
    return view.s[DEALT + view.seat]


@njit(**NJIT_OPTIONS)
def n_legal(view):
    """How many legal moves this decision has (at least 1)."""
    row = LEGAL + (view.seat << LEGAL_SHIFT)
    n = 0
    for w in range(LEGAL_STRIDE):                 # a popcount per word (on SIMD lanes)
        n += bit_count(view.s[row + w])
    return n


@njit(inline="always", **NJIT_OPTIONS)
def legal_counts(view, action, kind):
    """The legal counts of (action, kind) as a bit mask: bit c set when
    ``encode_move(action, kind, c)`` is legal; 0 when none is."""
    return view.s[LEGAL + (view.seat << LEGAL_SHIFT) + (action << 4) + kind]


@njit(inline="always", **NJIT_OPTIONS)
def is_legal_move(view, move):
    if move < 0 or move >= N_MOVES:
        return False
    return (view.s[LEGAL + (view.seat << LEGAL_SHIFT) + (move >> 5)] >> (move & 31)) & 1 != 0


@njit(**NJIT_OPTIONS)
def legal_move(view, i):
    """Legal move i, 0 <= i < n_legal(view), in the canonical order (ascending codes):
    attacks by (rank, count); defences: transfers by count, beats by (rank, count), jokers
    by kind. -1 when i is out of range."""
    if i < 0:
        return -1
    row = LEGAL + (view.seat << LEGAL_SHIFT)
    for w in range(LEGAL_STRIDE):                 # whole words skipped by their popcount
        bits = view.s[row + w]
        c = bit_count(bits)
        if i < c:
            return (w << 5) | nth_bit(bits, i)
        i -= c
    return -1


# ------------------------------------------------------------------ the stack and the table
@njit(inline="always", **NJIT_OPTIONS)
def stack_kind(view):
    """The kind (rank) of the cards in the stack; -1 when attacking (no stack)."""
    return view.s[STACK_KIND]


@njit(inline="always", **NJIT_OPTIONS)
def stack_count(view):
    return view.s[STACK_N]


@njit(inline="always", **NJIT_OPTIONS)
def stack_sum(view):
    """The points of the stack: to beat it, play more."""
    return (view.s[STACK_KIND] + 1) * view.s[STACK_N]


@njit(inline="always", **NJIT_OPTIONS)
def on_discard(view, kind):
    """Cards of ``kind`` on the discard pile."""
    return view.s[DISCARD + kind]


@njit(inline="always", **NJIT_OPTIONS)
def hand_size(view, p):
    """Cards in seat p's hand now."""
    return view.s[HAND_N + p]


@njit(inline="always", **NJIT_OPTIONS)
def stock_size(view):
    return view.s[STOCK_N]


@njit(inline="always", **NJIT_OPTIONS)
def direction(view):
    """+1 clockwise (increasing seats), -1 counter-clockwise."""
    return view.s[DIR]


@njit(inline="always", **NJIT_OPTIONS)
def n_players(view):
    return view.s[N]


@njit(inline="always", **NJIT_OPTIONS)
def defending(view):
    """True for a defence (a stack faces this seat), False for an attack."""
    return view.s[PHASE] != 0


# ------------------------------------------------------------------ scores and what each seat did
@njit(inline="always", **NJIT_OPTIONS)
def penalty(view, p):
    """Penalty points of seat p so far in the game (its starting penalty included)."""
    return view.s[PENALTY + p]


@njit(inline="always", **NJIT_OPTIONS)
def starting_penalty(view, p):
    """Seat compensation: the penalty points seat p started the game with (option
    penalty_seat<p>; negative: a head start); 0 for seat 0."""
    return view.s[SEAT_PENALTY + p - 1] if p > 0 else 0


@njit(inline="always", **NJIT_OPTIONS)
def round_penalty(view, p, r):
    """Penalty points of seat p in round r (0, 1, 2)."""
    return view.s[ROUND_PEN + ROUNDS * p + r]


@njit(inline="always", **NJIT_OPTIONS)
def takes(view, p):
    """Stacks seat p has taken this game."""
    return view.s[TAKES_BY + p]


@njit(inline="always", **NJIT_OPTIONS)
def last_take_kind(view, p):
    """The kind of the last stack seat p took, if it took one (see last_take_count)."""
    return view.s[LAST_TAKE + 3 * p + TAKE_KIND]


@njit(inline="always", **NJIT_OPTIONS)
def last_take_count(view, p):
    """The cards in the last stack seat p took; 0 when it has taken none this game."""
    return view.s[LAST_TAKE + 3 * p + TAKE_COUNT]


@njit(inline="always", **NJIT_OPTIONS)
def last_take_action(view, p):
    """The game's action counter (``actions``) right after seat p's last take."""
    return view.s[LAST_TAKE + 3 * p + TAKE_ACTION]


@njit(inline="always", **NJIT_OPTIONS)
def barred_kinds(view, p):
    """Kinds seat p is known to hold none of (bit k), from a take or a pass since its last
    action (see BARRED); 0 when nothing is known."""
    return view.s[BARRED + p] & BARRED_KINDS


@njit(inline="always", **NJIT_OPTIONS)
def beat_bound(view, p):
    """When barred_kinds(view, p) is not 0: seat p holds at most beat_bound // (k + 1) cards
    of each number kind k it is not barred from (it could not beat a stack of that sum)."""
    return view.s[BARRED + p] >> BARRED_SHIFT


@njit(inline="always", **NJIT_OPTIONS)
def jokers_left(view, p):
    """Jokers seat p held when the finished rounds ended (each cost joker_penalty)."""
    return view.s[JOKERS_LEFT + p]


# ------------------------------------------------------------------ counters
@njit(inline="always", **NJIT_OPTIONS)
def round_index(view):
    """The round in play: 0, 1 or 2."""
    return view.s[ROUND]


@njit(inline="always", **NJIT_OPTIONS)
def actions(view):
    """Actions so far this game (passes not counted)."""
    return view.s[ACTIONS]


@njit(inline="always", **NJIT_OPTIONS)
def passes(view):
    """Passed attacks so far this game (rule 3)."""
    return view.s[PASSES]


@njit(inline="always", **NJIT_OPTIONS)
def takes_total(view):
    """Stacks taken so far this game, by every seat."""
    return view.s[TAKES]


@njit(inline="always", **NJIT_OPTIONS)
def round_steps(view):
    """Actions and passes so far in the round in play (what action_cap counts)."""
    return view.s[ROUND_STEPS]


@njit(inline="always", **NJIT_OPTIONS)
def passes_in_row(view):
    """Attacks passed in a row just before this one (n in a row end the round)."""
    return view.s[IN_ROW]


# ------------------------------------------------------------------ rule settings
@njit(inline="always", **NJIT_OPTIONS)
def deck_count(view, kind):
    """Cards of ``kind`` in the deck (the count_* options)."""
    return view.s[COUNTS + kind]


@njit(inline="always", **NJIT_OPTIONS)
def deck_size(view):
    return view.s[DECK]


@njit(inline="always", **NJIT_OPTIONS)
def hand_limit(view):
    """The hand_size option: cards dealt, and what a player draws back up to."""
    return view.s[HAND_SIZE]


@njit(inline="always", **NJIT_OPTIONS)
def joker_cost(view):
    """The joker_penalty option: points per joker in hand when a round ends."""
    return view.s[JOKER_PENALTY]


@njit(inline="always", **NJIT_OPTIONS)
def action_cap(view):
    return view.s[CAP]
