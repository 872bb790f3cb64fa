"""Thirty-One with keys: cards, the hand scorer and the rule options (docs/rules/thirty-one.md).

A card is an id 0..35: ``suit * 9 + rank`` with suits clubs 0, diamonds 1,
hearts 2, spades 3 and ranks 6, 7, 8, 9, 10, J, Q, K, A as 0..8 (rule file,
"greedy"). The ace of clubs is card 8.

``score(a, b, c)`` is the one public hand scorer. Both engines use it: the
reference engine calls it directly; the fast engine reads ``SCORE_TABLE``, which
holds its answer for every ordered triple of distinct cards.
"""
from __future__ import annotations

from itertools import combinations, permutations

import numpy as np

from simcards.errors import SimcardsError
from simcards.contract.options import Derived, ParamRow, RuleOption
from simcards.contract.registry import Decision

GAME = "thirty-one"
MIN_PLAYERS, MAX_PLAYERS = 2, 4

# ---- cards
N_CARDS = 36
N_SUITS, N_RANKS = 4, 9
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(9)
ACE_OF_CLUBS = CLUBS * N_RANKS + ACE
HAND = 3                                   # cards in a hand and in the middle
SUIT_NAMES = ("♣", "♦", "♥", "♠")
RANK_NAMES = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")
RANK_POINTS = (6, 7, 8, 9, 10, 10, 10, 10, 11)       # rule 1
CARD_NAMES = tuple(RANK_NAMES[c % N_RANKS] + SUIT_NAMES[c // N_RANKS] for c in range(N_CARDS))


def suit(card: int) -> int:
    return card // N_RANKS


def rank(card: int) -> int:
    return card % N_RANKS


def points(card: int) -> int:
    return RANK_POINTS[rank(card)]


# ---- combinations (a larger code is a better combination: rule 13)
NONE, C31, C678, C33 = range(4)
COMBO_NAMES = ("none", "31", "6-7-8", "33")
LOWEST = 32                                 # rule 5: a 32 is the lowest hand at a showdown

# ---- moves: a swap is give * 64 + take (card ids); then pass, "Кручу", propose; votes 0/1
SWAP_BASE = 64
PASS = N_CARDS * SWAP_BASE                  # 2304
KNOCK = PASS + 1                            # "Кручу"
PROPOSE = PASS + 2                          # "Выкладываем?"
REFUSE, ACCEPT = 0, 1

# ---- the decisions (a decision's id is its position) and the result columns, declared once
DECISIONS = (
    Decision("turn", "turn", "a swap (give * 64 + take, card ids), pass (2304), "
                             "Кручу (2305) or propose a showdown (2306)"),
    Decision("vote", "vote", "answer a showdown proposal: 1 accept, 0 refuse"),
)
TURN, VOTE = range(len(DECISIONS))
#: Phases of a round (the state's public PHASE field, the same in both engines): a turn, a vote
#: on a proposal, or dealt with the dealt combinations not yet checked (rule 13).
PH_TURN, PH_VOTE, PH_DEAL = 0, 1, 2
#: Per seat after (win, rank); per game ("unfinished" is appended by GameSpec).
SEAT_COLUMNS = ("keys", "dealt_mask", "declared", "proposals")
GAME_COLUMNS = ("rounds", "turns", "ends_31", "ends_33", "ends_678", "ends_proposal",
                "ends_cap", "refreshes", "rebuilds")


def swap_move(give: int, take: int) -> int:
    return give * SWAP_BASE + take


def one_suit(cards) -> bool:
    """Rules 8-9: all cards of one suit, the ace of clubs counting as any suit."""
    suits = {suit(c) for c in cards if c != ACE_OF_CLUBS}
    return len(suits) <= 1


def score(a: int, b: int, c: int) -> tuple[int, int]:
    """The score of three distinct cards and the combination they make (rules 2-4).

    Three aces score 33. Otherwise the score is the largest sum of points of the
    cards of one suit, the ace of clubs joining whichever suit gives most. The
    6, 7 and 8 of one suit are "6-7-8" (the ace of clubs never stands in for
    them); a score of 31 is "31".
    """
    cards = (a, b, c)
    if len({a, b, c}) != 3 or not all(0 <= x < N_CARDS for x in cards):
        raise ValueError(f"a hand is three distinct cards 0..35, not {cards}")
    if all(rank(x) == ACE for x in cards):
        return 33, C33
    if len({suit(x) for x in cards}) == 1 and sorted(rank(x) for x in cards) == [SIX, SEVEN, EIGHT]:
        return sum(points(x) for x in cards), C678
    best = max(sum(points(x) for x in cards if suit(x) == s or x == ACE_OF_CLUBS)
               for s in range(N_SUITS))
    return best, (C31 if best == 31 else NONE)


def showdown_value(points_: int) -> int:
    """Rules 5, 14, 17: order of hands for "lowest"; a 32 is below everything."""
    return -1 if points_ == LOWEST else points_


def _score_table() -> np.ndarray:
    """score + 64 * combination for every ordered triple: index (a * 36 + b) * 36 + c."""
    hands = list(combinations(range(N_CARDS), 3))
    codes = np.array([s + 64 * combo for s, combo in (score(*hand) for hand in hands)], np.uint8)
    cards = np.array(hands)
    table = np.zeros(N_CARDS ** 3, np.uint8)
    for order in permutations(range(3)):                 # every order of each hand's cards
        a, b, c = cards[:, order].T
        table[(a * N_CARDS + b) * N_CARDS + c] = codes
    return table


#: Read by the fast engine and strategies (``fast.hand_code``); 0 marks a triple with a repeated card.
SCORE_TABLE = _score_table()


def score_distribution() -> dict[int, int]:
    """How many of the 7,140 three-card hands have each score (the scorer's own count)."""
    out: dict[int, int] = {}
    for hand in combinations(range(N_CARDS), 3):
        s, _ = score(*hand)
        out[s] = out.get(s, 0) + 1
    return dict(sorted(out.items()))


# ---- seat compensation (docs/rules/thirty-one.md, "Seat compensation"): keys_seat1 ..
# keys_seat3, the keys seat k (k places after the first player) starts with beyond `keys`
SEAT_KEYS_MIN, SEAT_KEYS_MAX = -2, 2
SEAT_KEYS_OPTIONS = tuple(f"keys_seat{k}" for k in range(1, MAX_PLAYERS))

# ---- rule options and the int64 parameter row handed to the fast engine
REBUILDS = ("shuffled", "as_it_lies")

OPTIONS: tuple[RuleOption, ...] = (
    RuleOption("keys", int, 3, "keys each player starts with (rule 6)", minimum=1, maximum=50),
    RuleOption("key_cards", int, 18, "key cards in the box; the bank holds those not dealt (rule 6)",
               minimum=2, maximum=1000),
    RuleOption("rebuild", str, "shuffled", "how the discard pile becomes the stock (rule 10): "
               "shuffled, or as_it_lies (the seed's literal text)", choices=REBUILDS),
    RuleOption("turn_cap", int, 120, "a round still going after this many turns ends in a "
               "showdown (rule 12)", minimum=1, maximum=1_000_000),
    RuleOption("round_cap", int, 500, "a game still running after this many rounds is "
               "unfinished (rule 19)", minimum=1, maximum=1_000_000),
) + tuple(
    RuleOption(name, int, 0, f"seat compensation: keys seat {k} ({k} after the first player) "
               f"starts with beyond `keys`, from the box (negative: fewer, left in the bank); "
               f"no effect with {k} players or fewer", minimum=SEAT_KEYS_MIN, maximum=SEAT_KEYS_MAX,
               seat=k)
    for k, name in enumerate(SEAT_KEYS_OPTIONS, start=1)
)


def starting_keys(rules: dict, n_players: int) -> list[int]:
    """The keys each seat starts with: `keys`, plus keys_seat<k> for seat k >= 1 (rule 6)."""
    return [rules["keys"] + (rules[SEAT_KEYS_OPTIONS[p - 1]] if p else 0) for p in range(n_players)]


def starting_bank(rules: dict, n_players: int) -> int:
    """Rule 6: the bank holds the key cards not dealt."""
    return rules["key_cards"] - sum(starting_keys(rules, n_players))


def check_rules(rules: dict) -> None:
    for name in SEAT_KEYS_OPTIONS:
        if rules["keys"] + rules[name] < 1:
            raise SimcardsError(f"keys={rules['keys']} with {name}={rules[name]} starts a seat "
                                f"with no keys: accepted is keys + {name} >= 1")
    if starting_bank(rules, 2) < 0:
        raise SimcardsError(f"key_cards={rules['key_cards']} cannot give 2 players their "
                            f"{sum(starting_keys(rules, 2))} keys (keys={rules['keys']}, "
                            f"keys_seat1={rules['keys_seat1']}): accepted is key_cards >= "
                            f"{sum(starting_keys(rules, 2))}")


#: The int64 row handed to the fast engine: every option in its slot (``P.keys``, ``P.rebuild``:
#: 1 for as_it_lies, ``P.keys_seat1 + p - 1``...), then the bank's starting keys.
PARAM_ROW = ParamRow(OPTIONS, Derived("starting_bank", starting_bank,
                                      "key cards left in the bank after the deal (rule 6)"))
P = PARAM_ROW.slots


def check_table(rules: dict, n_players: int) -> None:
    if starting_bank(rules, n_players) < 0:
        dealt = sum(starting_keys(rules, n_players))
        raise SimcardsError(
            f"key_cards={rules['key_cards']} cannot give {n_players} players their {dealt} keys "
            f"(keys={rules['keys']} each, with the keys_seat* options): accepted is "
            f"key_cards >= {dealt}")


def column_bounds(rules: dict, n_players: int) -> dict[str, tuple[int, int]]:
    """Every value each result column can take (GameSpec.column_bounds). A player loses at
    most one key a round and the game ends at 0; keys come from the box. A round has at most
    turn_cap turns and ends with at most one declaration; a proposal and a quiet circle (a
    refresh) take turns; a rebuild comes with a draw, and a turn renews the middle (three
    draws) at most once (the bound allows twice that)."""
    rounds = rules["round_cap"]
    turns = rounds * rules["turn_cap"]
    per_round = (0, rounds)
    return {"keys": (0, rules["key_cards"]), "dealt_mask": (0, (1 << N_CARDS) - 1),
            "declared": per_round, "proposals": (0, turns), "rounds": per_round, "turns": (0, turns),
            "ends_31": per_round, "ends_33": per_round, "ends_678": per_round,
            "ends_proposal": per_round, "ends_cap": per_round, "refreshes": (0, turns),
            "rebuilds": (0, 6 * turns)}


def describe_move(kind: int, move: int) -> str:
    """A move in words (kind TURN or VOTE, a vote on a proposal)."""
    if kind == VOTE:
        return {ACCEPT: "accept", REFUSE: "refuse"}.get(move, f"vote {move}")
    if move == PASS:
        return "pass (Не меняю)"
    if move == KNOCK:
        return "swap all three (Кручу)"
    if move == PROPOSE:
        return "propose a showdown (Выкладываем?)"
    give, take = divmod(move, SWAP_BASE)
    if 0 <= move < PASS and take < N_CARDS:
        return f"give {CARD_NAMES[give]}, take {CARD_NAMES[take]}"
    return f"move code {move}"
