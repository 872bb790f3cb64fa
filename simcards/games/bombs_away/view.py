"""What a Bombs Away strategy sees, and where it lives in the engine's state array.

A strategy receives ``View(s, seat)``: the engine's state array and its own seat.
It must read it only through the accessors below, which expose every public fact
(docs/rules/bombs-away.md, "What a strategy sees"): its own hand and starting hand;
the pile in order (each card and what it counts as); every player's points and hand
size, who is out, in which order and at which turn; the rule settings; the direction,
the turn and duel counters; a rank named by an 8; the duel under way; the last answer
every seat gave to each kind of question; and the question being asked with its
allowed answers. The reference engine builds views with every hidden field (other
hands, the stock's order, the engine's phase) left at zero, so a strategy that
peeks elsewhere fails the twin test.

Every question is answered with one int ``m`` for which ``allowed(view, m)``:
a card kind (questions ``play``, ``extra``, ``answer``), a rank kind 7..12
(``name``: 9, 10, J, Q, K, A) or a seat (``target``). The engine keeps the allowed
answers as one bit mask (bit m set: m is allowed), written once per question.
"""
from __future__ import annotations

from collections import namedtuple

from numba import njit

from simcards.compiled.config import NJIT_OPTIONS
from simcards.compiled.engine import memory_accessors, memory_block, nth_bit_small
from simcards.games.bombs_away.rules import (DECK, MAX_PLAYERS, N_DECISIONS, N_KINDS, P, SEAT_DEAL_OPTIONS,
                                             SEAT_HAND_OPTIONS, SEAT_POINTS_OPTIONS)
from simcards.compiled.layout import Layout

K = N_KINDS
#: Seats are 0..MAX_PLAYERS - 1 and kinds 0..K - 1: read as ``seat & SEAT_BITS`` and
#: ``kind & KIND_BITS`` where they are known to be one (no value changes), they tell numba that
#: an index s[X + seat * K + kind] is not negative, and it leaves out the wrap-around code (a
#: compare and a select per access; about a tenth of the engine's instructions, issue 13).
SEAT_BITS = 7
KIND_BITS = 15
DECISION_BITS = 7           # (and a decision's number, 0..N_DECISIONS - 1)
for _bits, _top in ((SEAT_BITS, MAX_PLAYERS - 1), (KIND_BITS, K - 1), (DECISION_BITS, N_DECISIONS - 1)):
    assert _top <= _bits and _bits & (_bits + 1) == 0
ROOM = DECK + 1          # the stock, the pile: the deck and one spare place (the tens rule
                         # shifts the stock up by one before it takes its top card)

LAYOUT = Layout("bombs-away")
# ---- rule settings (new_state writes them; start_game keeps them): the players, then the
# parameter row's entries, each named after its entry (rules.PARAM_ROW); S_CHOSEN is 1 for
# duel_victim=chosen
S_N = LAYOUT.scalar("N")
(S_HAND_SIZE, S_TENS, S_CHOSEN, S_TURN_CAP, S_START_POINTS, S_DECK) = LAYOUT.params(
    P, "hand_size", "tens_rule", "duel_victim", "turn_cap", "points", "deck")
# seat compensation: the points seat p >= 1 starts with beyond START_POINTS (option
# points_seat<p>) in A_SEAT_POINTS + p - 1, 0 for a seat not at the table; the first player,
# seat 0, has none
A_SEAT_POINTS = LAYOUT.param_block("SEAT_POINTS", P, SEAT_POINTS_OPTIONS)
# and the cards seat p >= 1 holds in a full hand beyond HAND_SIZE (option hand_seat<p>)
A_SEAT_HAND = LAYOUT.param_block("SEAT_HAND", P, SEAT_HAND_OPTIONS)
# and the cards seat p >= 1 was dealt beyond its full hand at the start (option deal_seat<p>)
A_SEAT_DEAL = LAYOUT.param_block("SEAT_DEAL", P, SEAT_DEAL_OPTIONS)
# ---- the game, as the table sees it
(S_DIRECTION, S_CUR, S_MUST, S_TURNS, S_DUELS, S_POINTS_LOST, S_OVER, S_UNFINISHED, S_OUTS,
 S_ALIVE_N, S_STOCK_N, S_PILE_N, S_SKIP) = LAYOUT.scalars(
    "DIRECTION", "CUR", "MUST", "TURNS", "DUELS", "POINTS_LOST", "OVER", "UNFINISHED", "OUTS",
    "ALIVE_N", "STOCK_N", "PILE_N", "SKIP")
# ---- the pending question. Its allowed answers (a bit mask and their count) come from the
# decider's hand, but only the decider gets a view while the question is pending.
(S_KIND, S_DECIDER, S_ASKING, S_N_LEGAL, S_LEGAL) = LAYOUT.scalars(
    "KIND", "DECIDER", "ASKING", "N_LEGAL", "LEGAL")
# ---- the duel under way
(S_DUEL_FROM, S_DUEL_CARD, S_ANSWERER, S_VICTIM, S_DAMAGE) = LAYOUT.scalars(
    "DUEL_FROM", "DUEL_CARD", "ANSWERER", "VICTIM", "DAMAGE")
# ---- the engine's state machine (fast.py's phases; the reference engine has none)
S_PHASE = LAYOUT.scalar("PHASE", visibility="hidden")
# ---- the stock's bottom cards in a known order (a hand or a 10 put under it); the cards above
# them lie in no order: each is chosen at random when it is taken (simcards.engine.take_top), which
# deals what a shuffle would
S_STOCK_FIXED = LAYOUT.scalar("STOCK_FIXED", visibility="hidden")
# ---- per seat, public
A_POINTS = LAYOUT.block("POINTS", MAX_PLAYERS)         # points[p] (0 or less: out)
A_OUT = LAYOUT.block("OUT", MAX_PLAYERS)               # 0 for the first player out, ...; -1 while in
A_OUT_TURN = LAYOUT.block("OUT_TURN", MAX_PLAYERS)     # the turn p went out in; 0 while in
A_HAND_N = LAYOUT.block("HAND_N", MAX_PLAYERS)         # cards in hand[p]
A_ANSWERS = LAYOUT.block("ANSWERS", MAX_PLAYERS, N_DECISIONS)  # p's last answer to each kind of
                                                       # question (-1: none yet, or a pass)
# ---- the pile, public: bottom first; places from PILE_N up are 0
A_PILE = LAYOUT.block("PILE", ROOM)                    # the card's kind
A_EFF = LAYOUT.block("EFF", ROOM)                      # what it counts as (a joker its name, a 6 a copy)
A_PILE_COUNTS = LAYOUT.block("PILE_COUNTS", K)         # pile cards of each kind
# ---- per seat, private
A_DEALT = LAYOUT.block("DEALT", MAX_PLAYERS, 1, visibility="seat")  # bit mask of the starting hand's kinds
A_HANDS = LAYOUT.block("HANDS", MAX_PLAYERS, K, visibility="seat")  # s[A_HANDS + p * K + kind]
MEMORY = memory_block(LAYOUT, MAX_PLAYERS)
# ---- hidden, the fast engine's own: the kinds each hand holds (bit k: kind k; kept up to date
# with HANDS, so that the legal cards are one read), and scratch space (write_result's ranking
# keys); start_game resets neither SCRATCH nor STOCK, so they stay the last two
A_HELD = LAYOUT.block("HELD", MAX_PLAYERS, 1, visibility="hidden")
# the kinds of q's cards some seat may count in KNOWN (bit k), so that a card taken at random
# from q looks only at those kinds (fast._forget; kept by fast.py: set on every count's +1,
# cleared with q's counts)
A_KNOWN_KINDS = LAYOUT.block("KNOWN_KINDS", MAX_PLAYERS, 1, visibility="hidden")
# ---- what the table and each seat saw of the hands (issue 14: the inferences of redeal.py)
# ---- per seat, public: what the table saw p's hand lack (rule 13). When p's first card under an
# 8's name was neither the rank named nor the joker, p held neither: VOID[p] is that kinds' bit
# mask (with the mask of an earlier such turn when p has gained no card since), FREE[p] the cards p
# has gained since (drawn, taken, swapped by the tens rule). p then holds at most FREE[p] cards of
# the VOID[p] kinds. Both 0 when nothing is known; cleared by a 4 and when p goes out.
A_VOID = LAYOUT.block("VOID", MAX_PLAYERS)
A_FREE = LAYOUT.block("FREE", MAX_PLAYERS)
# ---- per seat, private
# what seat o knows seat q holds at least, from the cards o itself moved by a 5 or a 9 (rules 10,
# 14): s[A_KNOWN + o * KNOWN_ROW + q * K + kind]. +1 when o gave q a card (o's 9) or q took one
# from o (q's 5 or 9); every card of a kind that leaves q's hand (played, answered, taken, a 10
# swapped by the tens rule) takes one off every seat's count of it; a card taken at random from q
# by a third seat takes one off every count of q's the other seats keep; a 4 and going out clear q.
KNOWN_ROW = MAX_PLAYERS * K
A_KNOWN = LAYOUT.block("KNOWN", MAX_PLAYERS, KNOWN_ROW, visibility="seat")
A_SCRATCH = LAYOUT.block("SCRATCH", MAX_PLAYERS, 1, visibility="hidden")
#: redeal.py's scratch (the unseen cards of each kind, the pool a deal takes them from, the order
#: the hands are dealt in), zero outside a redeal: a search redeals thousands of times a
#: decision, and three arrays allocated a deal took about 4% of its time
REDEAL_SIZE = 2 * K + MAX_PLAYERS
A_REDEAL = LAYOUT.block("REDEAL", REDEAL_SIZE, visibility="hidden")
# ---- hidden: the stock, bottom first (its top card is at STOCK_N - 1)
A_STOCK = LAYOUT.tail("STOCK")
STATE_SIZE = A_STOCK + ROOM
#: (state offset, row slot) of every rule setting above: new_state copies them from the row
PARAM_COPIES = LAYOUT.param_copies()

memory, remember = memory_accessors(MEMORY)

View = namedtuple("View", ["s", "seat"])


# ------------------------------------------------------------------ the question
@njit(inline="always", **NJIT_OPTIONS)
def decision(view):
    """The question: 0 play, 1 extra (after an ace), 2 name, 3 target, 4 answer (a duel)."""
    return view.s[S_KIND]


@njit(inline="always", **NJIT_OPTIONS)
def card(view):
    """The card that asks: -1 for a turn's first card, ACE for the card after an ace, EIGHT or
    JOKER for a name, FIVE, NINE or the duel card for a target, the duel card for an answer."""
    return view.s[S_ASKING]


@njit(inline="always", **NJIT_OPTIONS)
def legal_mask(view):
    """The allowed answers as a bit mask: bit m set when ``m`` is allowed."""
    return view.s[S_LEGAL]


@njit(inline="always", **NJIT_OPTIONS)
def is_legal_move(view, m):
    """``m`` is an allowed answer (a card kind, a rank kind or a seat, by question)."""
    return ((view.s[S_LEGAL] >> m) & 1) != 0


@njit(inline="always", **NJIT_OPTIONS)
def n_legal(view):
    """How many answers are allowed (always two or more: a single one is never asked)."""
    return view.s[S_N_LEGAL]


@njit(inline="always", **NJIT_OPTIONS)
def legal_move(view, i):
    """The i-th allowed answer, ascending (0 <= i < n_legal(view))."""
    return nth_bit_small(view.s[S_LEGAL], i)


# the rule file's words for the same
allowed = is_legal_move
n_allowed = n_legal


# ------------------------------------------------------------------ own cards
@njit(inline="always", **NJIT_OPTIONS)
def held(view, kind):
    """How many cards of ``kind`` the player holds."""
    return view.s[A_HANDS + view.seat * K + kind]


@njit(inline="always", **NJIT_OPTIONS)
def dealt(view):
    """Bit mask of the kinds in the player's starting hand (after the tens rule)."""
    return view.s[A_DEALT + view.seat]


# ------------------------------------------------------------------ the table
@njit(inline="always", **NJIT_OPTIONS)
def must(view):
    """The rank an 8 named for this turn's first card, or -1."""
    return view.s[S_MUST]


@njit(inline="always", **NJIT_OPTIONS)
def pile_size(view):
    return view.s[S_PILE_N]


@njit(inline="always", **NJIT_OPTIONS)
def pile_card(view, i):
    """The kind of the i-th card of the pile, from the bottom (0 <= i < pile_size(view))."""
    return view.s[A_PILE + i]


@njit(inline="always", **NJIT_OPTIONS)
def pile_counts_as(view, i):
    """What the i-th card of the pile counts as (a joker its name, a 6 what it copied)."""
    return view.s[A_EFF + i]


@njit(inline="always", **NJIT_OPTIONS)
def top(view):
    """What the pile's top card counts as (a joker its name, a 6 what it copied); -1: empty."""
    n = view.s[S_PILE_N]
    return view.s[A_EFF + n - 1] if n > 0 else -1


@njit(inline="always", **NJIT_OPTIONS)
def on_pile(view, kind):
    """Cards of ``kind`` on the pile (since it was last shuffled into the stock)."""
    return view.s[A_PILE_COUNTS + kind]


@njit(inline="always", **NJIT_OPTIONS)
def stock_size(view):
    return view.s[S_STOCK_N]


@njit(inline="always", **NJIT_OPTIONS)
def points(view, p):
    """Points of seat p (0 or less: out of the game)."""
    return view.s[A_POINTS + p]


@njit(inline="always", **NJIT_OPTIONS)
def hand_size(view, p):
    return view.s[A_HAND_N + p]


@njit(inline="always", **NJIT_OPTIONS)
def out_order(view, p):
    """0 if seat p was the first player out, 1 the second...; -1 while p is in."""
    return view.s[A_OUT + p]


@njit(inline="always", **NJIT_OPTIONS)
def out_turn(view, p):
    """The turn in which seat p went out; 0 while p is in."""
    return view.s[A_OUT_TURN + p]


@njit(inline="always", **NJIT_OPTIONS)
def n_out(view):
    """How many players are out."""
    return view.s[S_OUTS]


@njit(inline="always", **NJIT_OPTIONS)
def n_alive(view):
    """How many players are still in."""
    return view.s[S_ALIVE_N]


@njit(inline="always", **NJIT_OPTIONS)
def last_answer(view, p, kind):
    """What seat p answered the last time it was asked question ``kind`` (a card, a rank or a
    seat; also when that answer was the only one possible); -1 if never, or for a pass."""
    return view.s[A_ANSWERS + p * N_DECISIONS + kind]


@njit(inline="always", **NJIT_OPTIONS)
def void_mask(view, p):
    """Kinds seat p was seen to hold none of (an 8's name it did not follow), as a bit mask; p
    holds at most ``void_free(view, p)`` cards of these kinds (what it gained since). 0: none."""
    return view.s[A_VOID + p]


@njit(inline="always", **NJIT_OPTIONS)
def void_free(view, p):
    """Cards seat p gained since ``void_mask(view, p)`` was set."""
    return view.s[A_FREE + p]


@njit(inline="always", **NJIT_OPTIONS)
def known(view, q, kind):
    """Cards of ``kind`` the player knows seat q holds: cards it gave q or q took from it by a 5
    or a 9, less those q may have lost since."""
    return view.s[A_KNOWN + view.seat * KNOWN_ROW + q * K + kind]


@njit(inline="always", **NJIT_OPTIONS)
def direction(view):
    """+1 clockwise (increasing seats), -1 after an odd number of 3s."""
    return view.s[S_DIRECTION]


@njit(inline="always", **NJIT_OPTIONS)
def n_players(view):
    return view.s[S_N]


@njit(inline="always", **NJIT_OPTIONS)
def current(view):
    """The seat whose turn it is (the deciding seat, except for a duel answer)."""
    return view.s[S_CUR]


@njit(inline="always", **NJIT_OPTIONS)
def turns(view):
    """Turns begun so far, this one included."""
    return view.s[S_TURNS]


@njit(inline="always", **NJIT_OPTIONS)
def duels(view):
    """Duels started so far, a duel under way included."""
    return view.s[S_DUELS]


@njit(inline="always", **NJIT_OPTIONS)
def points_lost(view):
    """Points lost by all players so far."""
    return view.s[S_POINTS_LOST]


# ------------------------------------------------------------------ the duel
@njit(inline="always", **NJIT_OPTIONS)
def duel_from(view):
    """During a duel, the seat that started it; else -1."""
    return view.s[S_DUEL_FROM]


@njit(inline="always", **NJIT_OPTIONS)
def duel_card(view):
    """During a duel, the rank the duel card counts as (10, J, Q or K); else -1."""
    return view.s[S_DUEL_CARD]


@njit(inline="always", **NJIT_OPTIONS)
def answerer(view):
    """During a duel, the seat that answers it; else -1."""
    return view.s[S_ANSWERER]


@njit(inline="always", **NJIT_OPTIONS)
def victim(view):
    """During a duel, the seat that will lose the points (-1 when the starter chooses)."""
    return view.s[S_VICTIM]


@njit(inline="always", **NJIT_OPTIONS)
def damage(view):
    """When the duel's starter chooses the victim: the points at stake; else 0."""
    return view.s[S_DAMAGE]


# ------------------------------------------------------------------ rule settings
@njit(inline="always", **NJIT_OPTIONS)
def full_hand(view):
    """Cards in the first player's full hand (rule option hand_size); seat p's full hand is
    ``full_hand(view) + extra_cards(view, p)``."""
    return view.s[S_HAND_SIZE]


@njit(inline="always", **NJIT_OPTIONS)
def extra_cards(view, p):
    """Seat compensation: the cards seat p holds in a full hand beyond ``full_hand`` (option
    hand_seat<p>; negative: fewer); 0 for seat 0."""
    return view.s[A_SEAT_HAND + p - 1] if p > 0 else 0


@njit(inline="always", **NJIT_OPTIONS)
def extra_dealt(view, p):
    """Seat compensation: the cards seat p was dealt at the start beyond its full hand (option
    deal_seat<p>; negative: fewer); 0 for seat 0."""
    return view.s[A_SEAT_DEAL + p - 1] if p > 0 else 0


@njit(inline="always", **NJIT_OPTIONS)
def start_points(view):
    """Points the first player (seat 0) started with (rule option points); seat p started
    with ``start_points(view) + extra_points(view, p)``."""
    return view.s[S_START_POINTS]


@njit(inline="always", **NJIT_OPTIONS)
def extra_points(view, p):
    """Seat compensation: the points seat p started with beyond ``start_points`` (option
    points_seat<p>; negative: fewer); 0 for seat 0."""
    return view.s[A_SEAT_POINTS + p - 1] if p > 0 else 0


@njit(inline="always", **NJIT_OPTIONS)
def tens_rule(view):
    """1 when the tens rule is played (rule option tens_rule)."""
    return view.s[S_TENS]


@njit(inline="always", **NJIT_OPTIONS)
def chosen_victim(view):
    """1 when a duel's starter chooses who loses the points (duel_victim=chosen)."""
    return view.s[S_CHOSEN]


@njit(inline="always", **NJIT_OPTIONS)
def turn_cap(view):
    """Turns after which a game stops unfinished (rule option turn_cap)."""
    return view.s[S_TURN_CAP]


@njit(inline="always", **NJIT_OPTIONS)
def deck_size(view):
    """Cards in the deck (53)."""
    return view.s[S_DECK]
