"""What a Vzhukh strategy sees, and where it lives in the engine's state array.

A strategy receives ``View(s, seat)``: the engine's state array and its own
seat. It must read it only through the accessors below, which expose exactly
the rule file's "What a strategy sees": its own hand, the stack, the discard
pile (counts per kind), every player's hand size and penalty so far, the stock
size, the direction. The reference engine builds views with every hidden field
zeroed, so a strategy that peeks elsewhere fails the twin test.
"""
from __future__ import annotations

from collections import namedtuple

from numba import njit

from simcards.config import NJIT_OPTIONS

# ---- layout of the state array s (scalars first, then per-kind and per-seat blocks)
(N, CUR, PHASE, DIR, STACK_KIND, STACK_N, ROUND, ACTIONS, PASSES, TAKES, ROUND_STEPS, IN_ROW,
 ENDING, OVER, UNFINISHED, STOCK_N, HAND_SIZE, CAP, JOKER_PENALTY, DECK) = range(20)
COUNTS = 24         # cards of each kind in the deck (13 kinds)
DISCARD = 40        # cards of each kind on the discard pile
HAND_N = 56         # cards in hand[p]            (6 seats at most)
PENALTY = 64        # penalty points of seat p so far
ROUND_PEN = 72      # penalty of seat p in round r: s[ROUND_PEN + 3 * p + r]
TAKES_BY = 96       # stacks taken by seat p
JOKERS_LEFT = 104   # jokers left in seat p's hand at the ends of rounds
DEALT = 112         # bit mask of the kinds in seat p's first hand
HANDS = 128         # hands: s[HANDS + 16 * p + kind]
STOCK = 224         # stock[0:stock_n], top card last

View = namedtuple("View", ["s", "seat"])


@njit(inline="always", **NJIT_OPTIONS)
def held(view, kind):
    """How many cards of ``kind`` the player holds."""
    return view.s[HANDS + (view.seat << 4) + kind]


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
    return view.s[HAND_N + p]


@njit(inline="always", **NJIT_OPTIONS)
def penalty(view, p):
    """Penalty points of seat p so far in the game."""
    return view.s[PENALTY + p]


@njit(inline="always", **NJIT_OPTIONS)
def stock_size(view):
    return view.s[STOCK_N]


@njit(inline="always", **NJIT_OPTIONS)
def direction(view):
    """+1 clockwise (increasing seats), -1 counter-clockwise."""
    return view.s[DIR]


@njit(inline="always", **NJIT_OPTIONS)
def round_index(view):
    """The round in play: 0, 1 or 2."""
    return view.s[ROUND]


@njit(inline="always", **NJIT_OPTIONS)
def n_players(view):
    return view.s[N]
