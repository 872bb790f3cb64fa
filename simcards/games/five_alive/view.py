"""What a Five Alive strategy sees, and where it lives in the engine's state array.

A strategy receives ``View(s, seat, legal)``: the engine's state array, its own
seat and the bit mask of the kinds it may play now (also in ``s[LEGAL + seat]``;
carried in the view so that the compiled turn keeps it in a register instead of
reading back what the engine has just stored). It reads it only through the accessors below, which expose everything a
player may know by the rules (docs/rules/five-alive.md, "What a strategy
sees"): its own hand and the cards it was dealt first, the legal cards, the
total and direction, every player's lives and hand size, who is out and since
which turn, the pile in order since the last reshuffle, the stock size, the
dealer, the round/turn/bust counters and every rule setting (deck counts
and the seats' extra starting lives included). The reference engine builds
views with every hidden field zeroed (the stock, the other hands), so a
strategy that peeks elsewhere fails the twin test.

The layout below is the fast engine's state; ``LAYOUT`` marks what each seat
may read.
"""
from __future__ import annotations

from collections import namedtuple

from numba import njit

from simcards.compiled.config import NJIT_OPTIONS
from simcards.compiled.engine import bit_count, memory_accessors, memory_block, nth_bit
from simcards.games.five_alive.rules import (COUNT_OPTIONS, MAX_DECK, MAX_PLAYERS, N_KINDS, P,
                                             SEAT_LIVES_OPTIONS)
from simcards.compiled.layout import Layout

# ---- layout of the state array s
LAYOUT = Layout("five-alive")
# the table's facts, then the rule settings (named after, and copied from, the parameter row's
# entries: rules.PARAM_ROW)
(N, CUR, TOTAL, DIR, DEALER, TURNS, ROUNDS, BUSTS, STOCK_N, PILE_N, ALIVE_N, OVER,
 UNFINISHED) = LAYOUT.scalars("N", "CUR", "TOTAL", "DIR", "DEALER", "TURNS", "ROUNDS", "BUSTS",
                              "STOCK_N", "PILE_N", "ALIVE_N", "OVER", "UNFINISHED")
DECK, LIVES0, HAND_SIZE, BLITZ, TURN_CAP = LAYOUT.params(P, "deck", "lives", "hand_size", "blitz",
                                                         "turn_cap")
# seat compensation: the lives seat p >= 1 starts with beyond LIVES0 (option lives_seat<p>) in
# SEAT_LIVES + p - 1, 0 for a seat not at the table; the first player, seat 0, has none
SEAT_LIVES = LAYOUT.param_block("SEAT_LIVES", P, SEAT_LIVES_OPTIONS)
LIVES = LAYOUT.block("LIVES", MAX_PLAYERS)            # lives[p] (0: out)
OUT_AT = LAYOUT.block("OUT_AT", MAX_PLAYERS)          # turn a seat went out, -1 while in
HAND_N = LAYOUT.block("HAND_N", MAX_PLAYERS)          # cards in hand[p]
# kinds seat p is known, from what the table saw, not to hold: the kinds it could have
# played when it busted (rule 5), a 0 when it could not answer a Killer (rule 6); cleared
# when it takes in a card (a draw, a deal, a redeal) and when it goes out
LACKS = LAYOUT.block("LACKS", MAX_PLAYERS)
COUNTS = LAYOUT.param_block("COUNTS", P, COUNT_OPTIONS)  # cards of each kind in the deck
PILE_COUNTS = LAYOUT.block("PILE_COUNTS", N_KINDS)    # cards of each kind on the pile
# a seat's own: bit masks of the kinds it holds, of the kinds it may play now (set by
# advance for the seat to move), of the kinds of its first hand; its hand as counts per kind
HELD = LAYOUT.block("HELD", MAX_PLAYERS, 1, visibility="seat")
LEGAL = LAYOUT.block("LEGAL", MAX_PLAYERS, 1, visibility="seat")
DEALT = LAYOUT.block("DEALT", MAX_PLAYERS, 1, visibility="seat")
HANDS = LAYOUT.block("HANDS", MAX_PLAYERS, N_KINDS, visibility="seat")  # s[HANDS + p * N_KINDS + kind]
RANK_KEYS = LAYOUT.block("RANK_KEYS", MAX_PLAYERS, visibility="hidden")  # write_result's scratch
# the next seat still in the game after each seat, counter-clockwise then clockwise
# (kept by the fast engine when a seat goes out: a turn reads it instead of searching)
NEXT_SEAT = LAYOUT.block("NEXT_SEAT", 2, MAX_PLAYERS, visibility="hidden")
# the pile since the last reshuffle, bottom card first (pile[0:PILE_N], zeros after)
PILE = LAYOUT.block("PILE", MAX_DECK)
MEMORY = memory_block(LAYOUT, MAX_PLAYERS)
# three runs of DECK cards: the stock (stock[0:STOCK_N], top last), scratch for a redeal,
# the deck sorted by kind (set once, copied at every deal)
STOCK = LAYOUT.tail("STOCK", visibility="hidden")
#: (state offset, row slot) of every rule setting above: new_state copies them from the row
PARAM_COPIES = LAYOUT.param_copies()

memory, remember = memory_accessors(MEMORY)


@njit(**NJIT_OPTIONS)
def state_size(deck):
    """Length of the state array for a deck of ``deck`` cards (both engines)."""
    return STOCK + 3 * deck


#: ``legal`` repeats ``s[LEGAL + seat]``: the engine has the mask in a register when it
#: builds the view, and a strategy that reads it from there skips a load that waits on the
#: engine's store of it (store-to-load forwarding on every turn's critical path).
View = namedtuple("View", ["s", "seat", "legal"])


# ---- my hand
@njit(inline="always", **NJIT_OPTIONS)
def held(view, kind):
    """How many cards of ``kind`` the player holds."""
    return view.s[HANDS + view.seat * N_KINDS + kind]


@njit(inline="always", **NJIT_OPTIONS)
def held_mask(view):
    """Bit mask of the kinds the player holds (bit k: at least one card of kind k)."""
    return view.s[HELD + view.seat]


@njit(inline="always", **NJIT_OPTIONS)
def dealt_mask(view):
    """Bit mask of the kinds of the player's first hand of the game."""
    return view.s[DEALT + view.seat]


# ---- legal moves (the engine lists them once; rule 4)
@njit(inline="always", **NJIT_OPTIONS)
def legal_mask(view):
    """Bit mask of the kinds the player may play now."""
    return view.legal


@njit(inline="always", **NJIT_OPTIONS)
def is_legal_move(view, kind):
    """The player holds ``kind`` and may play it now."""
    return (view.legal >> kind) & 1 != 0


@njit(inline="always", **NJIT_OPTIONS)
def n_legal(view):
    """How many distinct kinds the player may play now."""
    return bit_count(view.legal)


@njit(inline="always", **NJIT_OPTIONS)
def legal_move(view, i):
    """The i-th legal kind (0-based), kinds ascending; -1 past the last."""
    m = view.legal
    if i >= bit_count(m):
        return -1
    return nth_bit(m, i)


# ---- the table
@njit(inline="always", **NJIT_OPTIONS)
def total(view):
    return view.s[TOTAL]


@njit(inline="always", **NJIT_OPTIONS)
def direction(view):
    """+1 clockwise (increasing seats), -1 counter-clockwise."""
    return view.s[DIR]


@njit(inline="always", **NJIT_OPTIONS)
def n_players(view):
    return view.s[N]


@njit(inline="always", **NJIT_OPTIONS)
def players_in(view):
    """Seats still in the game."""
    return view.s[ALIVE_N]


@njit(inline="always", **NJIT_OPTIONS)
def lives(view, p):
    """Lives of seat p (0: out of the game)."""
    return view.s[LIVES + p]


@njit(inline="always", **NJIT_OPTIONS)
def out_at(view, p):
    """The turn at which seat p went out, -1 while it is in the game."""
    return view.s[OUT_AT + p]


@njit(inline="always", **NJIT_OPTIONS)
def hand_size(view, p):
    """Cards in seat p's hand."""
    return view.s[HAND_N + p]


@njit(inline="always", **NJIT_OPTIONS)
def known_lacking(view, p):
    """Bit mask of the kinds seat p is known not to hold, from what the table saw: the kinds
    it could have played when it busted, a 0 when it could not answer a Killer; since then
    it has only given up cards (a draw, a deal or a redeal clears it)."""
    return view.s[LACKS + p]


@njit(inline="always", **NJIT_OPTIONS)
def dealer(view):
    return view.s[DEALER]


@njit(inline="always", **NJIT_OPTIONS)
def rounds(view):
    """Rounds dealt so far, the current one included."""
    return view.s[ROUNDS]


@njit(inline="always", **NJIT_OPTIONS)
def turns(view):
    """Turns played so far (busts included)."""
    return view.s[TURNS]


@njit(inline="always", **NJIT_OPTIONS)
def busts(view):
    """Busts so far in this game, every seat together."""
    return view.s[BUSTS]


@njit(inline="always", **NJIT_OPTIONS)
def stock_size(view):
    return view.s[STOCK_N]


@njit(inline="always", **NJIT_OPTIONS)
def pile_size(view):
    """Cards on the pile since the last reshuffle (of the pile, or a new round)."""
    return view.s[PILE_N]


@njit(inline="always", **NJIT_OPTIONS)
def pile_card(view, i):
    """The i-th card on the pile, 0 the bottom, ``pile_size(view) - 1`` the top."""
    return view.s[PILE + i]


@njit(inline="always", **NJIT_OPTIONS)
def on_pile(view, kind):
    """Cards of ``kind`` on the pile (since the last reshuffle of the pile into the stock)."""
    return view.s[PILE_COUNTS + kind]


# ---- rule settings
@njit(inline="always", **NJIT_OPTIONS)
def deck_count(view, kind):
    """Cards of ``kind`` in the whole deck (the edition and count_* options)."""
    return view.s[COUNTS + kind]


@njit(inline="always", **NJIT_OPTIONS)
def deck_size(view):
    return view.s[DECK]


@njit(inline="always", **NJIT_OPTIONS)
def starting_lives(view):
    """The lives option: what the first player (seat 0) starts with."""
    return view.s[LIVES0]


@njit(inline="always", **NJIT_OPTIONS)
def extra_lives(view, p):
    """Seat compensation: the lives seat p starts with beyond ``starting_lives`` (option
    lives_seat<p>; negative: fewer); 0 for seat 0."""
    return view.s[SEAT_LIVES + p - 1] if p > 0 else 0


@njit(inline="always", **NJIT_OPTIONS)
def cards_dealt(view):
    """Cards dealt to each player every round (the hand_size option)."""
    return view.s[HAND_SIZE]


@njit(inline="always", **NJIT_OPTIONS)
def blitz(view):
    """1 in blitz games (the game ends when the first player is out)."""
    return view.s[BLITZ]


@njit(inline="always", **NJIT_OPTIONS)
def turn_cap(view):
    return view.s[TURN_CAP]

