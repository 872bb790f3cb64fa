"""Bombs Away: cards, decisions and rule options (docs/rules/bombs-away.md explains each).

Suits never matter in this game, so a card is its kind: the thirteen ranks in
the seed's order 2, 3, ..., 10, J, Q, K, A (kinds 0..12) and the joker (13).
The ranks that an 8 or the joker may name, 9..A, are the contiguous kinds 7..12;
the duel cards 10, J, Q, K are 8..11.
"""
from __future__ import annotations

import numpy as np

from simcards.errors import SimcardsError
from simcards.options import RuleOption

GAME = "bombs-away"
MIN_PLAYERS, MAX_PLAYERS = 2, 5

# ---- card kinds
TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE, JOKER = range(14)
N_KINDS = 14
N_RANKS = 13
CARD_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "Joker")
#: copies of each kind in the deck (rule 1): four of each rank and one joker
KIND_COUNTS = (4,) * N_RANKS + (1,)
DECK = sum(KIND_COUNTS)  # 53
#: duel value of each rank (rule 2); the joker's is the value of the rank it is named
VALUE = (2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 1)
DUEL_VALUE = 10
FIRST_NAME, LAST_NAME = NINE, ACE  # an 8 or the joker names a rank 9..A (rules 13, 15)
FIRST_DUEL, LAST_DUEL = TEN, KING  # the duel cards (rule 16)
SEVEN_MIN_PILE = 4                 # a 7 needs at least 4 cards on the pile (rule 12)
SEVEN_TAKES = 5                    # ... and takes the top 5 (the 7 included)

# ---- decisions (index = GameSpec.decisions order)
PLAY, EXTRA, NAME, TARGET, ANSWER = range(5)
DECISION_NAMES = ("play", "extra", "name", "target", "answer")

# ---- duel victim option
VICTIMS = ("next", "chosen")

# ---- layout of the int64 parameter row handed to the fast engine
P_POINTS, P_HAND, P_TENS, P_CHOSEN_VICTIM, P_TURN_CAP, P_DECK = range(6)
N_PARAMS = 6

OPTIONS: tuple[RuleOption, ...] = (
    RuleOption("points", int, 30, "points each player starts with", minimum=1, maximum=1000),
    RuleOption("hand_size", int, 4, "cards in a full hand (dealt, drawn back up to, and drawn by a 4)",
               minimum=1, maximum=10),
    RuleOption("tens_rule", bool, True, "tens rule (seed): a player holding more than one 10 "
               "swaps each extra 10 for the top card of the stock"),
    RuleOption("duel_victim", str, "next", "who loses a duel's points: next (seed: the player "
               "after the answerer; with 2 players the answerer) or chosen (pagat: the duel's "
               "starter chooses among the opponents)", choices=VICTIMS),
    RuleOption("turn_cap", int, 5_000, "a game still running after this many turns is unfinished",
               minimum=1, maximum=10_000_000),
)


def check_rules(rules: dict) -> None:
    """Every option is checked on its own by RuleOption; nothing couples them but the deal."""


def encode_params(rules: dict, n_players: int) -> np.ndarray:
    if n_players * rules["hand_size"] > DECK - 1:
        raise SimcardsError(
            f"hand_size={rules['hand_size']} for {n_players} players needs "
            f"{n_players * rules['hand_size']} cards but at most {DECK - 1} may be dealt")
    row = np.zeros(N_PARAMS, dtype=np.int64)
    row[P_POINTS] = rules["points"]
    row[P_HAND] = rules["hand_size"]
    row[P_TENS] = int(rules["tens_rule"])
    row[P_CHOSEN_VICTIM] = int(rules["duel_victim"] == "chosen")
    row[P_TURN_CAP] = rules["turn_cap"]
    row[P_DECK] = DECK
    return row


def describe_move(kind: int, move: int) -> str:
    """A strategy's answer in words: a card or a rank for card decisions, a seat for a target."""
    if kind == TARGET:
        return f"seat {move}"
    if kind == NAME:
        return f"name {CARD_NAMES[move]}" if FIRST_NAME <= move <= LAST_NAME else f"rank kind {move}"
    return CARD_NAMES[move] if 0 <= move < N_KINDS else f"card kind {move}"
