"""What a Bombs Away strategy sees, and where it lives in the engine's state array.

A strategy receives ``View(s, seat)``: the engine's state array and its own seat.
It must read it only through the accessors below, which expose exactly the rule
file's "What a strategy sees": its own hand; the pile; every player's points and
hand size; the direction; a rank named by an 8; and the question being asked.
The reference engine builds views with every hidden field (other hands, the
stock's order) left at zero, so a strategy that peeks elsewhere fails the twin test.

Every question is answered with one int ``m`` for which ``allowed(view, m)``:
a card kind (questions ``play``, ``extra``, ``answer``), a rank kind 7..12
(``name``: 9, 10, J, Q, K, A) or a seat (``target``).
"""
from __future__ import annotations

from collections import namedtuple

from numba import njit

from simcards.config import NJIT_OPTIONS
from simcards.games.bombs_away.rules import MAX_PLAYERS, N_KINDS

# ---- layout of the state array s: scalars first (S_*), then blocks at fixed offsets (A_*)
(S_N, S_HAND_SIZE, S_TENS, S_CHOSEN, S_TURN_CAP, S_START_POINTS, S_DECK,   # rule parameters
 S_DIRECTION, S_CUR, S_MUST, S_TURNS, S_DUELS, S_POINTS_LOST, S_OVER, S_UNFINISHED, S_OUTS,
 S_ALIVE_N, S_STOCK_N, S_PILE_N, S_SKIP,                                   # the game
 S_PHASE, S_KIND, S_DECIDER, S_ASKING, S_N_LEGAL, S_DUEL_FROM, S_DUEL_CARD, S_ANSWERER,
 S_VICTIM, S_DAMAGE) = range(30)                                           # question, duel
N_SCALARS = 32
K = N_KINDS
ROOM = 54                             # the deck (53) and one spare place
A_POINTS = N_SCALARS                  # points[p] (seats padded to MAX_PLAYERS)
A_OUT = A_POINTS + MAX_PLAYERS        # out_order[p]: 0 for the first player out, -1 while in
A_HAND_N = A_OUT + MAX_PLAYERS        # cards in hand[p]
A_DEALT = A_HAND_N + MAX_PLAYERS      # bit mask of kinds in the first hand
A_HANDS = A_DEALT + MAX_PLAYERS       # hands: s[A_HANDS + p * K + kind]
A_STOCK = A_HANDS + MAX_PLAYERS * K   # stock[0:stock_n], bottom first
A_PILE = A_STOCK + ROOM               # pile kinds[0:pile_n], bottom first
A_EFF = A_PILE + ROOM                 # what each pile card counts as
A_PILE_COUNTS = A_EFF + ROOM          # pile cards of each kind
A_LEGAL = A_PILE_COUNTS + K           # 1 for each allowed answer of the pending question
A_SIZE = A_LEGAL + K

View = namedtuple("View", ["s", "seat"])


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
def allowed(view, m):
    """``m`` is an allowed answer (a card kind, a rank kind or a seat, by question)."""
    return view.s[A_LEGAL + m] != 0


@njit(inline="always", **NJIT_OPTIONS)
def n_allowed(view):
    """How many answers are allowed (always two or more: a single one is never asked)."""
    return view.s[S_N_LEGAL]


@njit(inline="always", **NJIT_OPTIONS)
def held(view, kind):
    """How many cards of ``kind`` the player holds."""
    return view.s[A_HANDS + view.seat * K + kind]


@njit(inline="always", **NJIT_OPTIONS)
def must(view):
    """The rank an 8 named for this turn's first card, or -1."""
    return view.s[S_MUST]


@njit(inline="always", **NJIT_OPTIONS)
def pile_size(view):
    return view.s[S_PILE_N]


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
def points(view, p):
    """Points of seat p (0 or less: out of the game)."""
    return view.s[A_POINTS + p]


@njit(inline="always", **NJIT_OPTIONS)
def hand_size(view, p):
    return view.s[A_HAND_N + p]


@njit(inline="always", **NJIT_OPTIONS)
def direction(view):
    """+1 clockwise (increasing seats), -1 after an odd number of 3s."""
    return view.s[S_DIRECTION]


@njit(inline="always", **NJIT_OPTIONS)
def stock_size(view):
    return view.s[S_STOCK_N]


@njit(inline="always", **NJIT_OPTIONS)
def n_players(view):
    return view.s[S_N]


@njit(inline="always", **NJIT_OPTIONS)
def current(view):
    """The seat whose turn it is (the deciding seat, except for a duel answer)."""
    return view.s[S_CUR]


@njit(inline="always", **NJIT_OPTIONS)
def duel_from(view):
    """During a duel, the seat that started it; else -1."""
    return view.s[S_DUEL_FROM]


@njit(inline="always", **NJIT_OPTIONS)
def victim(view):
    """During a duel, the seat that will lose the points (-1 when the starter chooses)."""
    return view.s[S_VICTIM]


@njit(inline="always", **NJIT_OPTIONS)
def damage(view):
    """When the duel's starter chooses the victim: the points at stake; else 0."""
    return view.s[S_DAMAGE]
