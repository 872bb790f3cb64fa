"""Vzhukh ("Вжух!"): cards, moves and rule options (docs/rules/vzhukh.md explains each).

Card kinds are small integers shared by both engines and every strategy:
0..9 are the number cards 1..10 (a number card's value is its kind + 1),
10, 11, 12 are the jokers Voila, Krable-Bums and Vzhukh.

A move is one int64 for both decisions: ``(action << 9) | (kind << 5) | count``
with action ATTACK, TRANSFER, BEAT or JOKER (``encode_move`` / ``move_*``).
"""
from __future__ import annotations

from numba import njit

from simcards.compiled.config import FORCEINLINE_NJIT_OPTIONS, NJIT_OPTIONS
from simcards.errors import SimcardsError
from simcards.contract.options import Derived, ParamRow, RuleOption, check_deal
from simcards.contract.registry import Decision

GAME = "vzhukh"
MIN_PLAYERS, MAX_PLAYERS = 2, 6
ROUNDS = 3                     # rule 2: a game is three rounds

# ---- card kinds
N_NUMBERS = 10                 # kinds 0..9: the number cards 1..10
VOILA, KRABLE, VZHUKH = 10, 11, 12
N_KINDS = 13
CARD_NAMES = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Voila", "Krable-Bums", "Vzhukh")
#: option suffix per kind: count_1 .. count_10, count_voila, count_krable_bums, count_vzhukh
CARD_KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "voila", "krable_bums", "vzhukh")
DEFAULT_COUNTS = (8,) * N_NUMBERS + (4, 4, 4)   # rule 1: 92 cards
COUNT_OPTIONS = tuple(f"count_{key}" for key in CARD_KEYS)

# ---- moves
ATTACK, TRANSFER, BEAT, JOKER = 0, 1, 2, 3
ACTION_NAMES = ("attack", "transfer", "beat", "joker")
MAX_COUNT = 31                 # a count fits in 5 bits
N_MOVES = 4 << 9               # every move code is below this: 4 actions x 16 kinds x 32 counts
MAX_HAND = 20                  # the largest hand_size option
MAX_OF_KIND = 60               # the largest count_* option
#: the largest stack sum: a stack holds cards of one rank only
MAX_STACK_SUM = N_NUMBERS * MAX_OF_KIND

# ---- decisions (a decision's id is its position) and result columns, declared once
DECISIONS = (
    Decision("attack", "attack", "what to attack with: encode_move(ATTACK, kind 0..9, count)",
             default=True),
    Decision("defend", "defend", "how to defend: encode_move(TRANSFER, stack kind, count), "
             "encode_move(BEAT, kind 0..9, count) or encode_move(JOKER, kind 10..12, 1)"),
)
ATTACK_DECISION, DEFEND_DECISION = 0, 1
assert [d.name for d in DECISIONS] == ["attack", "defend"]
#: per seat, after (win, rank)
SEAT_COLUMNS = ("penalty", "penalty_round1", "penalty_round2", "penalty_round3", "takes",
                "jokers_left", "dealt_mask")
#: per game; GameSpec appends "unfinished"
GAME_COLUMNS = ("rounds", "actions", "passes", "takes_total", "jokers_left_total")
assert SEAT_COLUMNS[1:1 + ROUNDS] == tuple(f"penalty_round{r + 1}" for r in range(ROUNDS))

# ---- seat compensation (docs/rules/vzhukh.md, "Seat compensation"): penalty_seat1 ..
# penalty_seat5, the penalty points seat k (k places after the first player) starts the game
# with (negative: below zero, a head start)
SEAT_PENALTY_MIN, SEAT_PENALTY_MAX = -30, 30
SEAT_PENALTY_OPTIONS = tuple(f"penalty_seat{k}" for k in range(1, MAX_PLAYERS))


@njit(**FORCEINLINE_NJIT_OPTIONS)
def value(kind):
    """Points of a number card kind (1..10)."""
    return kind + 1


# inlined by numba, not LLVM: strategies call it with literal actions and kinds, and numba compiles
# a called function once per literal argument (simcards.config, "Literal arguments")
@njit(inline="always", **NJIT_OPTIONS)
def encode_move(action, kind, count):
    return (action << 9) | (kind << 5) | count


@njit(**FORCEINLINE_NJIT_OPTIONS)
def move_action(move):
    return move >> 9


@njit(**FORCEINLINE_NJIT_OPTIONS)
def move_kind(move):
    return (move >> 5) & 15


@njit(**FORCEINLINE_NJIT_OPTIONS)
def move_count(move):
    return move & 31


OPTIONS: tuple[RuleOption, ...] = (
    RuleOption("hand_size", int, 5, "cards dealt to each player, and what a player draws back up to "
               "after every action", minimum=1, maximum=MAX_HAND),
    RuleOption("joker_penalty", int, 60, "penalty points for each joker left in a hand when a round ends",
               minimum=0, maximum=10_000),
    RuleOption("action_cap", int, 10_000, "a round still running after this many actions (passes "
               "counted) stops the game, recorded as unfinished", minimum=1, maximum=10_000_000),
) + tuple(
    RuleOption(name, int, DEFAULT_COUNTS[kind], f"number of {CARD_NAMES[kind]!r} cards",
               minimum=0, maximum=MAX_OF_KIND)
    for kind, name in enumerate(COUNT_OPTIONS)
) + tuple(
    RuleOption(name, int, 0, f"seat compensation: penalty points seat {k} ({k} after the first "
               f"player) starts the game with (negative: a head start below 0); no effect with "
               f"{k} players or fewer", minimum=SEAT_PENALTY_MIN, maximum=SEAT_PENALTY_MAX, seat=k)
    for k, name in enumerate(SEAT_PENALTY_OPTIONS, start=1)
)


def starting_penalty(rules: dict, n_players: int) -> list[int]:
    """The penalty points each seat starts the game with: 0 for seat 0, penalty_seat<k> for
    seat k >= 1."""
    return [rules[SEAT_PENALTY_OPTIONS[p - 1]] if p else 0 for p in range(n_players)]


def deck_counts(rules: dict) -> tuple[int, ...]:
    return tuple(rules[name] for name in COUNT_OPTIONS)


#: The int64 row handed to the fast engine: every option in its slot (``P.hand_size``,
#: ``P.count_1 + kind``, ``P.penalty_seat1 + p - 1``...), then the deck's size.
PARAM_ROW = ParamRow(OPTIONS, Derived("deck", lambda rules, n: sum(deck_counts(rules)),
                                      "cards in the deck: the sum of the count_* options"))
P = PARAM_ROW.slots


def check_rules(rules: dict) -> None:
    if sum(deck_counts(rules)[:N_NUMBERS]) == 0:
        raise SimcardsError("vzhukh needs number cards to attack with: every option "
                            "count_1 .. count_10 is 0")


def check_table(rules: dict, n_players: int) -> None:
    check_deal(n_players, rules["hand_size"], sum(deck_counts(rules)))


def column_bounds(rules: dict, n_players: int) -> dict[str, tuple[int, int]]:
    """Every value each result column can take (GameSpec.column_bounds). In a round a card
    scores as penalty once (taken stacks and Krable-Bums halves go to the discard pile, and
    the stock is not refilled) except the card each Vzhukh joker brings back from the pile;
    jokers still held score joker_penalty each; a game's penalty starts from the seat's
    compensation (penalty_seat*). A round has at most action_cap steps (actions and passes),
    and a take follows an attack, which uses a card."""
    counts = deck_counts(rules)
    jokers = sum(counts[N_NUMBERS:])
    card_points = sum((k + 1) * counts[k] for k in range(N_NUMBERS)) + N_NUMBERS * counts[VZHUKH]
    per_round = (0, card_points + jokers * rules["joker_penalty"])
    steps = (0, ROUNDS * rules["action_cap"])
    takes = (0, ROUNDS * (sum(counts) + counts[VZHUKH]))
    start = starting_penalty(rules, n_players)
    return {"penalty": (min(start), max(start) + ROUNDS * per_round[1]),
            "penalty_round1": per_round,
            "penalty_round2": per_round, "penalty_round3": per_round, "takes": takes,
            "jokers_left": (0, ROUNDS * jokers), "dealt_mask": (0, (1 << N_KINDS) - 1),
            "rounds": (0, ROUNDS), "actions": steps, "passes": steps, "takes_total": takes,
            "jokers_left_total": (0, ROUNDS * jokers)}


def cards_text(kind: int, count: int) -> str:
    if 0 <= kind < N_KINDS:
        return f"{count} x {CARD_NAMES[kind]}"
    return f"{count} x kind {kind}"


def describe_move(decision: int, move: int) -> str:
    """A move in words, for error messages and logs (decision 0 attack, 1 defend)."""
    if move < 0:
        return f"no move ({move})"
    action, kind, count = move >> 9, (move >> 5) & 15, move & 31
    if action == ATTACK:
        return f"attack with {cards_text(kind, count)}"
    if action == TRANSFER:
        return f"transfer with {cards_text(kind, count)}"
    if action == BEAT:
        return f"beat with {cards_text(kind, count)}"
    if action == JOKER:
        return f"play {CARD_NAMES[kind] if 0 <= kind < N_KINDS else f'kind {kind}'}"
    return f"unknown action {action}"
