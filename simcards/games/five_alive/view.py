"""What a Five Alive strategy sees, and where it lives in the engine's state array.

A strategy receives ``View(s, seat)``: the engine's state array and its own
seat. It must read it only through the accessors below, which expose exactly
the rule file's "What a strategy sees": its own hand, the total, the direction,
every player's lives and hand size, the pile (counts per kind), the stock size.
The reference engine builds views with every hidden field zeroed, so a
strategy that peeks elsewhere fails the twin test.
"""
from __future__ import annotations

from collections import namedtuple

from numba import njit

from simcards.config import NJIT_OPTIONS
from simcards.games.five_alive.rules import N_KINDS

# ---- layout of the state array s (scalars first, then per-seat and per-kind blocks)
(N, TOTAL, DIR, CUR, DEALER, TURNS, ROUNDS, BUSTS, STOCK_N, PILE_N, ALIVE_N, OVER, UNFINISHED,
 DECK, LIVES0, HAND_SIZE, BLITZ, TURN_CAP) = range(18)
LIVES = 24          # lives[p]            (7 seats at most)
OUT_AT = 32         # turn a seat went out, -1 while in
HAND_N = 40         # cards in hand[p]
DEALT = 48          # bit mask of kinds in the first hand dealt
PILE_COUNTS = 56    # cards of each kind on the pile
COUNTS = 80         # cards of each kind in the deck
HANDS = 104         # hands: s[HANDS + p * N_KINDS + kind]
STOCK = 240         # stock[0:stock_n] (top last), then pile[0:deck], then scratch[0:deck]

View = namedtuple("View", ["s", "seat"])


@njit(inline="always", **NJIT_OPTIONS)
def held(view, kind):
    """How many cards of ``kind`` the player holds."""
    return view.s[HANDS + view.seat * N_KINDS + kind]


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
def lives(view, p):
    """Lives of seat p (0: out of the game)."""
    return view.s[LIVES + p]


@njit(inline="always", **NJIT_OPTIONS)
def hand_size(view, p):
    return view.s[HAND_N + p]


@njit(inline="always", **NJIT_OPTIONS)
def on_pile(view, kind):
    """Cards of ``kind`` on the pile (since the last reshuffle of the pile into the stock)."""
    return view.s[PILE_COUNTS + kind]


@njit(inline="always", **NJIT_OPTIONS)
def stock_size(view):
    return view.s[STOCK_N]
