"""What a Crazy Eights strategy sees, and where it lives in the engine's state array.

A strategy receives ``View(s, seat)``: the engine's state array and its own seat. It reads
it only through the accessors below, which expose what a player may know by the rules
(docs/rules/crazy-eights.md, "What a strategy sees"): its own hand and its legal moves; the
top card and the suit to follow; every player's hand size, score, eights played, cards drawn
and the cards the table knows it lacks; the discard pile in order; the stock's size; the
counters and the rule settings. Never another hand or the stock. The reference engine builds
views with every hidden field zero, so a strategy that peeks elsewhere fails the twin test.

Cards are ids ``suit * 13 + rank`` (rules.py); a set of cards is a bit mask of ids.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from simcards.compiled.config import NJIT_OPTIONS
from simcards.compiled.engine import bit_count, memory_accessors, memory_block, nth_bit
from simcards.games.crazy_eights.rules import (DRAW, EIGHT, MAX_PLAYERS, N_CARDS, N_RANKS, PASS,
                                               PH_SUIT, P)
from simcards.compiled.layout import Layout

#: Seats are 0..MAX_PLAYERS - 1: read as ``seat & SEAT_BITS`` (no value changes), they tell numba
#: that an index s[X + seat] is not negative, and it leaves out the wrap-around code.
SEAT_BITS = 7
assert MAX_PLAYERS - 1 <= SEAT_BITS and SEAT_BITS & (SEAT_BITS + 1) == 0

# ---- layout of the state array s
LAYOUT = Layout("crazy-eights")
N = LAYOUT.scalar("N")                                    # players
#: the table's facts; the snapshot opens with SNAPSHOT_HEAD (below)
(PHASE, CUR, DEALER, TOP, SUIT, STOCK_N, PILE_N, PILE_MASK, TURNS, HANDS_DEALT, DRAWS, PASSES,
 RESHUFFLES, BLOCKED, STUCK, DREW, OVER, UNFINISHED) = LAYOUT.scalars(
    "PHASE", "CUR", "DEALER", "TOP", "SUIT", "STOCK_N", "PILE_N", "PILE_MASK", "TURNS",
    "HANDS_DEALT", "DRAWS", "PASSES", "RESHUFFLES", "BLOCKED", "STUCK", "DREW", "OVER",
    "UNFINISHED")
# the rule settings (named after, and copied from, the parameter row's entries: rules.PARAM_ROW):
# the cards dealt; 1 for draw=one; 1 for empty_stock=reshuffle; the target; the turn cap
HAND_SIZE, DRAW_ONE, RESHUFFLE, TARGET, TURN_CAP = LAYOUT.params(
    P, "hand_size", "draw", "empty_stock", "target", "turn_cap")
# per seat, what the table sees
HAND_N = LAYOUT.block("HAND_N", MAX_PLAYERS)              # cards in hand
SCORE = LAYOUT.block("SCORE", MAX_PLAYERS)                # points won so far (rule 9)
EIGHTS_PLAYED = LAYOUT.block("EIGHTS_PLAYED", MAX_PLAYERS)  # eights played this game
DRAWN = LAYOUT.block("DRAWN", MAX_PLAYERS)                # cards drawn this game
# the cards seat p is known not to hold: every card it could have played when it passed
# without a choice (rule 7); cleared when it draws, and by a new deal
LACKS = LAYOUT.block("LACKS", MAX_PLAYERS)
# per seat, only that seat's row: its hand (a mask of card ids), and the legal moves of its
# decision (bit m: move m; a card, DRAW, PASS, or in the suit decision the suits 0..3)
HANDS = LAYOUT.block("HANDS", MAX_PLAYERS, 1, visibility="seat")
LEGAL = LAYOUT.block("LEGAL", MAX_PLAYERS, 1, visibility="seat")
MEMORY = memory_block(LAYOUT, MAX_PLAYERS)
# the discard pile in order (bottom first; zeros past PILE_N): every card on it was seen
PILE = LAYOUT.block("PILE", N_CARDS)
# the stock (stock[0:STOCK_N], top last). Its cards lie in no order: each is chosen at random
# when it is taken (simcards.engine.take_top), which deals what a shuffle would; its bottom
# STOCK_FIXED cards lie in a known order (a search's re-deal lays the whole stock out)
STOCK = LAYOUT.block("STOCK", N_CARDS, visibility="hidden")
STOCK_FIXED = LAYOUT.scalar("STOCK_FIXED", visibility="hidden")
SIZE = LAYOUT.size
#: (state offset, row slot) of every rule setting above: new_state copies them from the row
PARAM_COPIES = LAYOUT.param_copies()

SNAPSHOT_HEAD = (PHASE, CUR, DEALER, TOP, SUIT, STOCK_N, PILE_N, TURNS, HANDS_DEALT, DRAWS,
                 PASSES, RESHUFFLES, BLOCKED, STUCK, DREW, OVER, UNFINISHED, STOCK_FIXED)
SNAPSHOT_SEATS = (HAND_N, SCORE, EIGHTS_PLAYED, DRAWN, LACKS)

#: What a deciding seat receives, for both decisions.
View = namedtuple("View", ["s", "seat"])

memory, remember = memory_accessors(MEMORY)

_INLINE = dict(NJIT_OPTIONS, inline="always")


@njit(**_INLINE)
def _seat(view):
    return view.seat & SEAT_BITS


# ---------------------------------------------------------------- own cards and moves
@njit(**_INLINE)
def hand(view):
    """Our hand, as a bit mask of card ids."""
    return view.s[HANDS + _seat(view)]


@njit(**_INLINE)
def holds(view, card):
    """We hold ``card``."""
    return (hand(view) >> card) & 1 != 0


@njit(**_INLINE)
def legal_mask(view):
    """The legal moves as a bit mask: bit m for move m (a card id, DRAW, PASS; in the suit
    decision the suits 0..3)."""
    return view.s[LEGAL + _seat(view)]


@njit(**_INLINE)
def n_legal(view):
    return bit_count(legal_mask(view))


@njit(**_INLINE)
def legal_move(view, i):
    """Legal move i (0 <= i < n_legal), in code order: cards by id, then DRAW, then PASS."""
    return nth_bit(legal_mask(view), i)


@njit(**_INLINE)
def is_legal_move(view, move):
    return ((move >= 0) & (move < 64)) and (legal_mask(view) >> (move & 63)) & 1 != 0


@njit(**_INLINE)
def playable_cards(view):
    """The cards we may play now, as a mask (the legal moves less DRAW and PASS)."""
    return legal_mask(view) & ((np.int64(1) << N_CARDS) - 1)


@njit(**_INLINE)
def can_draw(view):
    """Drawing is one of our legal moves."""
    return (legal_mask(view) >> DRAW) & 1 != 0


@njit(**_INLINE)
def can_pass(view):
    """Passing is one of our legal moves."""
    return (legal_mask(view) >> PASS) & 1 != 0


@njit(**_INLINE)
def naming_suit(view):
    """This decision is the suit to name after our eight (else it is a play)."""
    return view.s[PHASE] == PH_SUIT


@njit(**_INLINE)
def drew_this_turn(view):
    """Cards the player to move has drawn this turn (then it may not draw again)."""
    return view.s[DREW]


# ---------------------------------------------------------------- the table
@njit(**_INLINE)
def n_players(view):
    return view.s[N]


@njit(**_INLINE)
def top_card(view):
    """The discard pile's top card."""
    return view.s[TOP]


@njit(**_INLINE)
def suit_to_follow(view):
    """The suit a card must match: the top card's, or the one its eight named."""
    return view.s[SUIT]


@njit(**_INLINE)
def named_suit(view):
    """The suit the top eight named, -1 when the top card is no eight."""
    return view.s[SUIT] if view.s[TOP] % N_RANKS == EIGHT else -1


@njit(**_INLINE)
def hand_size(view, p):
    """Cards in seat p's hand."""
    return view.s[HAND_N + p]


@njit(**_INLINE)
def score(view, p):
    """Points seat p has won so far (rule 9)."""
    return view.s[SCORE + p]


@njit(**_INLINE)
def eights_played(view, p):
    """Eights seat p has played this game."""
    return view.s[EIGHTS_PLAYED + p]


@njit(**_INLINE)
def drawn(view, p):
    """Cards seat p has drawn this game."""
    return view.s[DRAWN + p]


@njit(**_INLINE)
def known_lacking(view, p):
    """The cards seat p is known not to hold, as a mask: all it could have played when it
    last passed without a choice (rule 7), until it draws again."""
    return view.s[LACKS + p]


@njit(**_INLINE)
def current(view):
    """The seat to move."""
    return view.s[CUR]


@njit(**_INLINE)
def dealer(view):
    return view.s[DEALER]


@njit(**_INLINE)
def stock_size(view):
    return view.s[STOCK_N]


@njit(**_INLINE)
def pile_size(view):
    return view.s[PILE_N]


@njit(**_INLINE)
def pile_card(view, i):
    """Card i of the discard pile, 0 the bottom, pile_size - 1 the top."""
    return view.s[PILE + i]


@njit(**_INLINE)
def pile_mask(view):
    """The cards in the discard pile, as a mask."""
    return view.s[PILE_MASK]


@njit(**_INLINE)
def turns(view):
    """Turns played this game (a turn ends with a card played or a pass)."""
    return view.s[TURNS]


@njit(**_INLINE)
def hands_dealt(view):
    """Hands dealt this game, this one included."""
    return view.s[HANDS_DEALT]


@njit(**_INLINE)
def draws(view):
    """Cards drawn this game, every seat together."""
    return view.s[DRAWS]


@njit(**_INLINE)
def passes(view):
    return view.s[PASSES]


@njit(**_INLINE)
def reshuffles(view):
    """Stocks made from the discard pile this game."""
    return view.s[RESHUFFLES]


@njit(**_INLINE)
def blocked_hands(view):
    """Hands of this game that ended blocked (rule 8)."""
    return view.s[BLOCKED]


@njit(**_INLINE)
def stuck(view):
    """Passes in a row by players who could neither play nor draw (rule 8)."""
    return view.s[STUCK]


# ---------------------------------------------------------------- rule settings
@njit(**_INLINE)
def cards_dealt(view):
    """Cards dealt to each player (the hand_size option, resolved for the player count)."""
    return view.s[HAND_SIZE]


@njit(**_INLINE)
def draw_one(view):
    """1 under draw=one, 0 under draw=until_playable."""
    return view.s[DRAW_ONE]


@njit(**_INLINE)
def reshuffle(view):
    """1 under empty_stock=reshuffle, 0 under empty_stock=pass."""
    return view.s[RESHUFFLE]


@njit(**_INLINE)
def target(view):
    """Points that end a points game; 0 for a single hand."""
    return view.s[TARGET]


@njit(**_INLINE)
def turn_cap(view):
    return view.s[TURN_CAP]
