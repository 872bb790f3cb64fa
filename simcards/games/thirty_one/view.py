"""What a Thirty-One strategy sees, and where it lives in the engine's state array.

A strategy receives ``View(s, seat)``: the engine's state array and its own
seat. It reads it only through the accessors below, which expose what a seat
may know by the rules (docs/rules/thirty-one.md, "What a strategy sees"): its
own three cards, its first hand of the game and its legal moves; and what the
whole table sees: the middle, everyone's keys and the bank, the discard pile in
order, the stock's size (and, after a rebuild this round, its cards: they were
the pile's), the proposal under way and the answers so far, what each seat did
this round (the cards it took from the middle and still holds, the cards it put
into it, its last move), proposals, refusals and declared combinations per seat,
the dealer, the round and turn counters, the quiet-turn count, how past rounds
ended, and the rule settings. Never another hand or the
stock. The reference engine builds views with every hidden field zero, so a
strategy that peeks elsewhere fails the twin test.

Cards are ids ``suit * 9 + rank`` (rules.py). Hands and the middle are sorted
by id. Seats beyond the number of players hold 0 keys, -1 votes and -1 moves.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from simcards.compiled.config import NJIT_OPTIONS
from simcards.compiled.engine import bit_count, memory_accessors, memory_block, nth_bit
from simcards.games.thirty_one.rules import (ACCEPT, HAND, KNOCK, MAX_PLAYERS, N_CARDS, PASS,
                                             PH_VOTE, REFUSE, SEAT_KEYS_OPTIONS, SWAP_BASE, P)
from simcards.compiled.layout import Layout

#: A swap is give * SWAP_BASE + take: give = move >> SWAP_BITS, take = move & (SWAP_BASE - 1).
SWAP_BITS = 6
assert SWAP_BASE == 1 << SWAP_BITS

#: Seats are 0..MAX_PLAYERS - 1: read as ``seat & SEAT_BITS`` (no value changes), they tell numba
#: that an index s[X + seat] is not negative, and it leaves out the wrap-around code.
SEAT_BITS = 3
assert MAX_PLAYERS - 1 <= SEAT_BITS and SEAT_BITS & (SEAT_BITS + 1) == 0

# ---- layout of the state array s
LAYOUT = Layout("thirty-one")
N = LAYOUT.scalar("N")                                    # players
#: The scalars that open every snapshot, in this order (SNAPSHOT_HEAD).
(PHASE, CUR, DEALER, ROUND_TURNS, TURNS, ROUNDS, QUIET, PROPOSER, VOTER, OVER, UNFINISHED, BANK,
 STOCK_N, DISCARD_N, E31, E33, E678, EPROP, ECAP, REFRESHES, REBUILDS) = LAYOUT.scalars(
    "PHASE", "CUR", "DEALER", "ROUND_TURNS", "TURNS", "ROUNDS", "QUIET", "PROPOSER", "VOTER",
    "OVER", "UNFINISHED", "BANK", "STOCK_N", "DISCARD_N", "E31", "E33", "E678", "EPROP", "ECAP",
    "REFRESHES", "REBUILDS")
MID = LAYOUT.block("MID", HAND)                           # the middle, ascending
DISCARD_MASK = LAYOUT.scalar("DISCARD_MASK")              # bit c: card c is in the discard pile
# rule options (named after, and copied from, the parameter row's entries: rules.PARAM_ROW);
# AS_IT_LIES is 1 for rebuild=as_it_lies
TURN_CAP, ROUND_CAP, AS_IT_LIES, KEYS0, BANK0 = LAYOUT.params(
    P, "turn_cap", "round_cap", "rebuild", "keys", "starting_bank")
# seat compensation: the keys seat p >= 1 starts with beyond KEYS0 (option keys_seat<p>) in
# SEAT_KEYS + p - 1, 0 for a seat not at the table; the first player, seat 0, has none
SEAT_KEYS = LAYOUT.param_block("SEAT_KEYS", P, SEAT_KEYS_OPTIONS)
# per seat, what the table sees
KEYS = LAYOUT.block("KEYS", MAX_PLAYERS)
VOTES = LAYOUT.block("VOTES", MAX_PLAYERS)                # -1 not asked yet, 0 refused, 1 accepted
DECLARED = LAYOUT.block("DECLARED", MAX_PLAYERS)          # combinations declared this game
PROPOSALS = LAYOUT.block("PROPOSALS", MAX_PLAYERS)        # proposals made this game
REFUSALS = LAYOUT.block("REFUSALS", MAX_PLAYERS)          # proposals refused this game
HELD = LAYOUT.block("HELD", MAX_PLAYERS)                  # cards seen taken from the middle this round, still held
GIVEN = LAYOUT.block("GIVEN", MAX_PLAYERS)                # cards put into the middle this round
LAST_MOVE = LAYOUT.block("LAST_MOVE", MAX_PLAYERS)        # the seat's last turn move this round, -1 none
# per seat, only that seat's row
DEALT = LAYOUT.block("DEALT", MAX_PLAYERS, 1, visibility="seat")          # first hand of the game
HANDS = LAYOUT.block("HANDS", MAX_PLAYERS, HAND, visibility="seat")       # ascending
# the legal moves of the seat's decision, as sets: every card of LEGAL_GIVE for every card of
# LEGAL_TAKE (bit c: card c), and bit i of LEGAL_OTHER for the move special_base + i (a turn:
# PASS + 0, KNOCK = PASS + 1, PROPOSE = PASS + 2; a vote: REFUSE = 0, ACCEPT = 1)
LEGAL_GIVE = LAYOUT.block("LEGAL_GIVE", MAX_PLAYERS, 1, visibility="seat")
LEGAL_TAKE = LAYOUT.block("LEGAL_TAKE", MAX_PLAYERS, 1, visibility="seat")
LEGAL_OTHER = LAYOUT.block("LEGAL_OTHER", MAX_PLAYERS, 1, visibility="seat")
MEMORY = memory_block(LAYOUT, MAX_PLAYERS)
# the discard pile in order (bottom first; zeros past DISCARD_N): every card was seen face up
DISCARD = LAYOUT.block("DISCARD", N_CARDS)
# a stock rebuilt this round (rule 10) is made of the pile's cards, which everyone saw:
# bit c of STOCK_KNOWN set while card c is in a stock rebuilt this round (0 when none was, or
# it is drawn out); under rebuild=as_it_lies STOCK_KNOWN_ORDER is the pile as it was turned
# over (bottom first, zeros past it; all zero otherwise): the stock is its first STOCK_N cards
STOCK_KNOWN = LAYOUT.scalar("STOCK_KNOWN")
STOCK_KNOWN_ORDER = LAYOUT.block("STOCK_KNOWN_ORDER", N_CARDS)
STOCK = LAYOUT.block("STOCK", N_CARDS, visibility="hidden")               # stock[0:stock_n], top last
# the stock's bottom cards in a known order (a pile turned over as it lies); the cards above them
# lie in no order: each is chosen at random when it is taken (simcards.engine.take_top), which
# deals what a shuffle would
STOCK_FIXED = LAYOUT.scalar("STOCK_FIXED", visibility="hidden")
#: redeal.py's scratch (the pool of unseen cards), zero outside a redeal: a search redeals
#: thousands of times a decision, and an array allocated a deal cost it time
REDEAL = LAYOUT.block("REDEAL", N_CARDS, visibility="hidden")
SNAPSHOT_HEAD = (PHASE, CUR, DEALER, ROUND_TURNS, TURNS, ROUNDS, QUIET, PROPOSER, VOTER, OVER,
                 UNFINISHED, BANK, STOCK_N, DISCARD_N, E31, E33, E678, EPROP, ECAP, REFRESHES,
                 REBUILDS, STOCK_FIXED)
SIZE = LAYOUT.size
#: (state offset, row slot) of every rule setting above: new_state copies them from the row
PARAM_COPIES = LAYOUT.param_copies()

#: What a deciding seat receives, for both decisions.
View = namedtuple("View", ["s", "seat"])

memory, remember = memory_accessors(MEMORY)

_INLINE = dict(NJIT_OPTIONS, inline="always")


# ---------------------------------------------------------------- own cards and moves
@njit(**_INLINE)
def _seat(view):
    return view.seat & SEAT_BITS


@njit(**_INLINE)
def hand(view):
    """Our three cards, ascending."""
    h = HANDS + _seat(view) * HAND
    return view.s[h], view.s[h + 1], view.s[h + 2]


@njit(**_INLINE)
def dealt_mask(view):
    """Bit c set when card c was in our first hand of the game."""
    return view.s[DEALT + view.seat]


@njit(**_INLINE)
def other_base(s):
    """The move that bit 0 of LEGAL_OTHER stands for: REFUSE in a vote, PASS in a turn."""
    return REFUSE if s[PHASE] == PH_VOTE else PASS


@njit(**_INLINE)
def in_legal_set(s, p, move):
    """``move`` is one of the legal moves stored for seat p's decision (is_legal_move: membership
    in the stored sets, no rule re-derived)."""
    return in_sets(s[LEGAL_GIVE + p], s[LEGAL_TAKE + p], s[LEGAL_OTHER + p], other_base(s), move)


@njit(**_INLINE)
def in_sets(give, take, other, base, move):
    """``move`` is in the legal sets ``give``, ``take`` (every card of the first for every card of
    the second) and ``other`` (bit 0 standing for the move ``base``): the one membership test,
    here and in fast.is_legal_turn, which passes the sets it carries."""
    # Without a branch (a strategy's moves come in no order a branch predictor could learn):
    # both tests are computed, their shift counts masked below 64; the range tests decide.
    # The two tests are 0/1 integers or'ed, tested once: an `or` of two booleans feeding the
    # kernel's `if` was compiled into two branches, the first mispredicted on a fifth of the
    # decisions (callgrind's branch simulation).
    return ((in_other(other, move, base) | in_swap(give, take, move)) & 1) != 0


@njit(**_INLINE)
def in_other(other, move, base):
    """Bit 0: ``move`` is in the set ``other``, whose bit 0 stands for the move ``base``."""
    d = move - base
    return np.int64((d >= 0) & (d < 64)) & (other >> (d & 63))


@njit(**_INLINE)
def in_swap(give, take, move):
    """Bit 0: ``move`` is a swap of a card of ``give`` for one of ``take``."""
    g = (move >> SWAP_BITS) & 63
    t = move & (SWAP_BASE - 1)
    return np.int64((move >= 0) & (move < PASS)) & (give >> g) & (take >> t)


@njit(**_INLINE)
def n_legal(view):
    """How many legal moves this decision has (a turn: 11, or 12 when "Кручу" is legal; a vote: 2)."""
    p = view.seat
    return (bit_count(view.s[LEGAL_GIVE + p]) * bit_count(view.s[LEGAL_TAKE + p])
            + bit_count(view.s[LEGAL_OTHER + p]))


@njit(**_INLINE)
def legal_move(view, i):
    """Legal move i (0 <= i < n_legal), in code order. A turn: the nine swaps (card given
    ascending, then card taken ascending), PASS, KNOCK when legal, PROPOSE. A vote: REFUSE, ACCEPT."""
    s, p = view.s, view.seat
    takes = s[LEGAL_TAKE + p]
    per_give = bit_count(takes)
    swaps = bit_count(s[LEGAL_GIVE + p]) * per_give
    if i < swaps:
        g = i // per_give
        return nth_bit(s[LEGAL_GIVE + p], g) * SWAP_BASE + nth_bit(takes, i - g * per_give)
    return other_base(s) + nth_bit(s[LEGAL_OTHER + p], i - swaps)


@njit(**_INLINE)
def is_legal_move(view, move):
    return in_legal_set(view.s, view.seat, move)


@njit(**_INLINE)
def can_knock(view):
    """"Кручу" is legal now (in a turn: our hand is of one suit, the ace of clubs counting as any).
    The same answer as ``is_legal_move(view, KNOCK)``, in two loads and no branch."""
    bit = (view.s[LEGAL_OTHER + _seat(view)] >> (KNOCK - PASS)) & 1
    return (bit != 0) & (view.s[PHASE] != PH_VOTE)


# ---------------------------------------------------------------- the table
@njit(**_INLINE)
def n_players(view):
    return view.s[N]


@njit(**_INLINE)
def middle(view):
    """The three open middle cards, ascending."""
    return view.s[MID], view.s[MID + 1], view.s[MID + 2]


@njit(**_INLINE)
def keys(view, p):
    """Keys of seat p (0 for a seat beyond the players)."""
    return view.s[KEYS + p]


@njit(**_INLINE)
def bank(view):
    """Keys left in the bank."""
    return view.s[BANK]


@njit(**_INLINE)
def stock_size(view):
    return view.s[STOCK_N]


@njit(**_INLINE)
def discard_size(view):
    return view.s[DISCARD_N]


@njit(**_INLINE)
def discard_mask(view):
    """Bit c set when card c lies in the discard pile."""
    return view.s[DISCARD_MASK]


@njit(**_INLINE)
def discard_card(view, i):
    """Card i of the discard pile, 0 the bottom, discard_size - 1 the top (the last laid down).
    With rebuild=as_it_lies the pile turned over becomes the stock: its top is the stock's top."""
    return view.s[DISCARD + i]


@njit(**_INLINE)
def stock_known(view):
    """Bit c set when card c is known to be in the stock: it was rebuilt from the discard
    pile this round (rule 10) and c has not been drawn since; 0 when no rebuild this round."""
    return view.s[STOCK_KNOWN]


@njit(**_INLINE)
def stock_known_card(view, i):
    """Under rebuild=as_it_lies, card i of the pile as it was turned over into the stock this
    round (0 the bottom): the stock is cards 0..stock_size - 1 of it, its top last."""
    return view.s[STOCK_KNOWN_ORDER + i]


@njit(**_INLINE)
def proposer(view):
    """The seat whose proposal is being answered, -1 when none is."""
    return view.s[PROPOSER]


@njit(**_INLINE)
def vote_of(view, p):
    """Seat p's answer to the proposal under way: -1 not asked yet, REFUSE (0), ACCEPT (1)."""
    return view.s[VOTES + p]


@njit(**_INLINE)
def held_known(view, p):
    """Bit mask of the cards seat p took from the middle this round (by a swap or "Кручу")
    and has not put back: cards the table knows p holds."""
    return view.s[HELD + p]


@njit(**_INLINE)
def given(view, p):
    """Bit mask of the cards seat p put into the middle this round (by a swap or "Кручу")."""
    return view.s[GIVEN + p]


@njit(**_INLINE)
def last_move(view, p):
    """Seat p's last turn move this round (a swap, PASS, KNOCK or PROPOSE), -1 before its first."""
    return view.s[LAST_MOVE + p]


@njit(**_INLINE)
def proposals(view, p):
    """Showdowns seat p has proposed this game."""
    return view.s[PROPOSALS + p]


@njit(**_INLINE)
def refusals(view, p):
    """Proposals seat p has refused this game."""
    return view.s[REFUSALS + p]


@njit(**_INLINE)
def declared(view, p):
    """Combinations seat p has declared this game."""
    return view.s[DECLARED + p]


@njit(**_INLINE)
def dealer(view):
    return view.s[DEALER]


@njit(**_INLINE)
def current(view):
    """The seat whose turn it is (during a vote: the proposer)."""
    return view.s[CUR]


@njit(**_INLINE)
def round_number(view):
    """Rounds dealt this game, this one included (1 in the first round)."""
    return view.s[ROUNDS]


@njit(**_INLINE)
def round_turns(view):
    """Turns played in this round (the turn cap counts them)."""
    return view.s[ROUND_TURNS]


@njit(**_INLINE)
def turns(view):
    """Turns played this game."""
    return view.s[TURNS]


@njit(**_INLINE)
def quiet(view):
    """Turns in a row with no card changing hands (a full circle refreshes the middle, rule 9a)."""
    return view.s[QUIET]


@njit(**_INLINE)
def rounds_ended(view, how):
    """How many rounds of this game ended how: 0 by a 31, 1 by 33, 2 by 6-7-8, 3 by an
    accepted proposal, 4 at the turn cap."""
    return view.s[(E31, E33, E678, EPROP, ECAP)[how]]


@njit(**_INLINE)
def refreshes(view):
    """Middles refreshed after a full quiet circle this game."""
    return view.s[REFRESHES]


@njit(**_INLINE)
def rebuilds(view):
    """Stocks rebuilt from the discard pile this game."""
    return view.s[REBUILDS]


# ---------------------------------------------------------------- rule settings
@njit(**_INLINE)
def turn_cap(view):
    return view.s[TURN_CAP]


@njit(**_INLINE)
def round_cap(view):
    return view.s[ROUND_CAP]


@njit(**_INLINE)
def as_it_lies(view):
    """1 when an empty stock is rebuilt from the discard pile as it lies, 0 when shuffled."""
    return view.s[AS_IT_LIES]


@njit(**_INLINE)
def starting_keys(view):
    """The keys option: what the first player (seat 0) starts with."""
    return view.s[KEYS0]


@njit(**_INLINE)
def extra_keys(view, p):
    """Seat compensation: the keys seat p starts with beyond ``starting_keys`` (option
    keys_seat<p>; negative: fewer); 0 for seat 0."""
    return view.s[SEAT_KEYS + p - 1] if p > 0 else 0


@njit(**_INLINE)
def starting_bank(view):
    return view.s[BANK0]


__all__ = ["View", "LAYOUT", "MEMORY", "memory", "remember", "ACCEPT", "REFUSE", "other_base",
           "in_legal_set",
           "hand", "dealt_mask", "n_legal", "legal_move", "is_legal_move", "can_knock",
           "n_players", "middle", "keys", "bank", "stock_size", "discard_size", "discard_mask",
           "discard_card", "stock_known", "stock_known_card", "proposer", "vote_of", "held_known", "given", "last_move",
           "proposals", "refusals", "declared", "dealer", "current", "round_number",
           "round_turns", "turns", "quiet", "rounds_ended", "refreshes", "rebuilds", "turn_cap",
           "round_cap", "as_it_lies", "starting_keys", "extra_keys", "starting_bank"]
