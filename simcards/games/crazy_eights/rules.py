"""Crazy Eights: cards, moves, result columns and rule options (docs/rules/crazy-eights.md).

A card is an id 0..51: ``suit * 13 + rank`` with suits clubs 0, diamonds 1, hearts 2,
spades 3 and ranks A, 2, ..., 10, J, Q, K as 0..12 (the eights are rank 7). A hand is a bit
mask of card ids, so "the cards of a suit" and "the cards of a rank" are masks too
(``suit_mask``, ``rank_mask``) and the rule of a legal card is two ANDs.

Moves: the ``play`` decision answers a card id, ``DRAW`` (52) or ``PASS`` (53); the
``suit`` decision (after an eight) answers a suit 0..3.
"""
from __future__ import annotations

import numpy as np

from simcards.errors import SimcardsError
from simcards.contract.options import ParamRow, RuleOption
from simcards.contract.registry import Decision

GAME = "crazy-eights"
MIN_PLAYERS, MAX_PLAYERS = 2, 7

# ---- cards
N_CARDS, N_SUITS, N_RANKS = 52, 4, 13
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
ACE, EIGHT, KING = 0, 7, 12
SUIT_NAMES = ("♣", "♦", "♥", "♠")
SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
CARD_NAMES = tuple(RANK_NAMES[c % N_RANKS] + SUIT_NAMES[c // N_RANKS] for c in range(N_CARDS))
#: rule 9: an eight 50, a court card 10, an ace 1, any other its pip value
RANK_POINTS = (1, 2, 3, 4, 5, 6, 7, 50, 9, 10, 10, 10, 10)
#: the most points one hand can hold (every card of the deck): a score column's bound
DECK_POINTS = N_SUITS * sum(RANK_POINTS)
#: every card of the deck, one bit each
FULL_DECK = (1 << N_CARDS) - 1
#: the cards of rank 0 (aces) in every suit; ``rank_mask(r)`` is this shifted by r
_RANK0 = sum(1 << (s * N_RANKS) for s in range(N_SUITS))
EIGHTS = _RANK0 << EIGHT
_SUIT0 = (1 << N_RANKS) - 1


def suit(card: int) -> int:
    return card // N_RANKS


def rank(card: int) -> int:
    return card % N_RANKS


def suit_mask(s: int) -> int:
    """Every card of suit s, as a mask."""
    return _SUIT0 << (N_RANKS * s)


def rank_mask(r: int) -> int:
    """Every card of rank r, as a mask."""
    return _RANK0 << r


def points(card: int) -> int:
    return RANK_POINTS[rank(card)]


def playable(card: int, top: int, active_suit: int) -> bool:
    """Rule 4, the words of it: an eight, or a card of the top card's rank or of the suit to
    follow (the top card's, or the suit its eight named)."""
    return rank(card) == EIGHT or rank(card) == rank(top) or suit(card) == active_suit


#: card points by id, for the fast engine and the strategies
CARD_POINTS = np.array([points(c) for c in range(N_CARDS)], np.int64)

# ---- moves
DRAW, PASS = N_CARDS, N_CARDS + 1

# ---- decisions (a decision's id is its position) and result columns, declared once
DECISIONS = (
    Decision("play", "play", "a card id 0..51 (suit * 13 + rank, rank 0 the ace) to play, "
                             "52 to draw, 53 to pass"),
    Decision("suit", "name_suit", "the suit a played eight names: 0 clubs, 1 diamonds, "
                                  "2 hearts, 3 spades", default=True),
)
PLAY, NAME_SUIT = range(len(DECISIONS))
#: Phases of a turn (the state's public PHASE field, the same in both engines): a turn's start;
#: after the player drew (rule 6); after an eight, the suit to name (rule 5).
PH_PLAY, PH_DREW, PH_SUIT = range(3)
#: Per seat after (win, rank); per game ("unfinished" is appended by GameSpec).
SEAT_COLUMNS = ("score", "cards_left", "points_left", "eights", "drawn")
GAME_COLUMNS = ("hands", "turns", "draws", "passes", "reshuffles", "blocked")

# ---- rule options, and the int64 parameter row handed to the fast engine
DRAW_RULES = ("until_playable", "one")
EMPTY_STOCK_RULES = ("reshuffle", "pass")


def dealt(rules: dict, n_players: int) -> int:
    """Cards dealt to each player (rule 2): the option, or by the player count."""
    return rules["hand_size"] or (7 if n_players == 2 else 5)


OPTIONS: tuple[RuleOption, ...] = (
    RuleOption("draw", str, "until_playable", "a player who cannot or will not play draws until "
               "a card can be played (until_playable), or draws one card and may then pass (one)",
               choices=DRAW_RULES),
    # the row holds the cards dealt at this table (never 0)
    RuleOption("hand_size", int, 0, "cards dealt to each player; 0: 7 for two players, 5 for more",
               minimum=0, maximum=25, encode=dealt),
    # the row holds 1 for reshuffle (the engine's RESHUFFLE flag), 0 for pass
    RuleOption("empty_stock", str, "reshuffle", "when the stock is empty, the discard pile but its "
               "top card is shuffled into a new stock (reshuffle), or no more cards are drawn (pass)",
               choices=EMPTY_STOCK_RULES, encode=lambda rules, n: int(rules["empty_stock"] == "reshuffle")),
    RuleOption("target", int, 0, "0: one hand, the first player out wins; else hands are played "
               "until a score reaches this many points", minimum=0, maximum=100_000),
    RuleOption("turn_cap", int, 10_000, "a game still running after this many turns is unfinished",
               minimum=1, maximum=10_000_000),
)


#: The int64 row handed to the fast engine: every option in its slot (``P.draw``: 1 for one,
#: ``P.hand_size``: the cards dealt, ``P.empty_stock``: 1 for reshuffle, ...).
PARAM_ROW = ParamRow(OPTIONS)
P = PARAM_ROW.slots


def check_rules(rules: dict) -> None:
    """No check needs the rules alone: the hand size is checked against the players in
    ``check_table``."""


def check_table(rules: dict, n_players: int) -> None:
    hand = dealt(rules, n_players)
    if n_players * hand + 1 > N_CARDS:
        raise SimcardsError(f"hand_size={hand} for {n_players} players needs "
                            f"{n_players * hand} cards and a starter, but the deck has {N_CARDS}")


def column_bounds(rules: dict, n_players: int) -> dict[str, tuple[int, int]]:
    """Every value each result column can take (GameSpec.column_bounds). A turn is counted only
    below the cap, and a player draws at most the whole deck in one turn; a hand has at least
    one turn. A score grows only at the end of a hand, by at most the points of the deck, and
    the game ends once one reaches the target."""
    cap = rules["turn_cap"]
    per_turn = (0, cap)
    drawn = (0, N_CARDS * cap)
    return {"score": (0, max(rules["target"] - 1, 0) + DECK_POINTS), "cards_left": (0, N_CARDS),
            "points_left": (0, DECK_POINTS), "eights": per_turn, "drawn": drawn,
            "hands": (0, cap + 1), "turns": per_turn, "draws": drawn, "passes": per_turn,
            "reshuffles": drawn, "blocked": (0, cap + 1)}


def describe_move(kind: int, move: int) -> str:
    """A move in words."""
    if kind == NAME_SUIT:
        return f"name {SUIT_WORDS[move]}" if 0 <= move < N_SUITS else f"suit {move}"
    if move == DRAW:
        return "draw"
    if move == PASS:
        return "pass"
    return f"play {CARD_NAMES[move]}" if 0 <= move < N_CARDS else f"move {move}"
