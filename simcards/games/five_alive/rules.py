"""Five Alive: cards, editions and rule options (docs/rules/five-alive.md explains each).

Card kinds are small integers shared by both engines and every strategy:
0..7 are the number cards (their kind is their value), 8.. are action cards.
"""
from __future__ import annotations

from simcards.errors import SimcardsError
from simcards.contract.options import Derived, ParamRow, RuleOption, check_deal
from simcards.contract.registry import Decision

GAME = "five-alive"
MIN_PLAYERS, MAX_PLAYERS = 2, 7  # the state layout (view.py) has room for 7 seats

# ---- card kinds
DRAW1, DRAW2, PASS, SKIP, REVERSE, SET21, SET10, SET0, REDEAL, KILLER, LIFE = range(8, 19)
N_KINDS = 19
N_NUMBERS = 8
LIMIT = 21
#: Number cards are kinds 0..N_NUMBERS-1; every other kind is an action card.
NUMBERS_MASK = (1 << N_NUMBERS) - 1
ACTIONS_MASK = ((1 << N_KINDS) - 1) & ~NUMBERS_MASK
MAX_COUNT = 60                   # most cards of one kind a deck may have (count_* options)
MAX_DECK = N_KINDS * MAX_COUNT   # the longest a pile can grow
CARD_NAMES = ("0", "1", "2", "3", "4", "5", "6", "7", "Draw 1", "Draw 2", "Pass", "Skip",
              "Reverse", "=21", "=10", "=0", "Redeal", "Killer", "Life")
#: option suffix per kind: count_0 .. count_7, count_draw1, ...
CARD_KEYS = ("0", "1", "2", "3", "4", "5", "6", "7", "draw1", "draw2", "pass", "skip",
             "reverse", "set21", "set10", "set0", "redeal", "killer", "life")
COUNT_OPTIONS = tuple(f"count_{key}" for key in CARD_KEYS)

#: Card counts per edition (rule file, "Cards"): both decks have 77 cards.
EDITION_COUNTS = {
    "standard": (8, 8, 8, 8, 8, 4, 2, 1, 2, 2, 4, 6, 4, 5, 2, 3, 1, 1, 0),
    "russian": (8, 8, 8, 8, 8, 4, 2, 1, 2, 2, 7, 9, 7, 0, 0, 0, 0, 1, 2),
}
EDITIONS = tuple(EDITION_COUNTS)

# ---- decisions and result columns, declared once (GameSpec, both engines)
#: A decision's id is its position here.
DECISIONS = (Decision("play", "decide", "which card to play (kind id 0..18)"),)
PLAY = 0
assert DECISIONS[PLAY].name == "play"
#: Per-seat result columns after (win, rank); per-game columns ("unfinished" follows them).
SEAT_COLUMNS = ("lives", "dealt_mask")
GAME_COLUMNS = ("rounds", "turns", "busts")

# ---- seat compensation (docs/rules/five-alive.md, "Seat compensation"): lives_seat1 ..
# lives_seat6, the lives seat k (k places after the first player) starts with beyond `lives`
SEAT_LIVES_MIN, SEAT_LIVES_MAX = -3, 3
SEAT_LIVES_OPTIONS = tuple(f"lives_seat{k}" for k in range(1, MAX_PLAYERS))
MOST_LIVES = 99                  # no seat starts with more (the search's lives model keys by 100)


def _count_default(kind: int):
    def default(resolved: dict) -> int:
        return EDITION_COUNTS[resolved["edition"]][kind]
    return default


OPTIONS: tuple[RuleOption, ...] = (
    RuleOption("edition", str, "standard", "deck and cards: standard (seed 001, Italian) or "
               "russian (seed 000, with the Life card)", choices=EDITIONS),
    RuleOption("lives", int, 5, "lives each player starts with", minimum=1, maximum=99),
    RuleOption("hand_size", int, 10, "cards dealt to each player every round", minimum=1, maximum=40),
    RuleOption("blitz", bool, False, "blitz: the game ends when the first player reaches 0 lives"),
    RuleOption("turn_cap", int, 10_000, "a game still running after this many turns is unfinished",
               minimum=1, maximum=10_000_000),
) + tuple(
    RuleOption(name, int, _count_default(kind), f"number of {CARD_NAMES[kind]!r} cards",
               minimum=0, maximum=MAX_COUNT,
               default_text=" / ".join(f"{EDITION_COUNTS[e][kind]} ({e})" for e in EDITIONS))
    for kind, name in enumerate(COUNT_OPTIONS)
) + tuple(
    RuleOption(name, int, 0, f"seat compensation: lives seat {k} ({k} after the first player) "
               f"starts with beyond `lives` (negative: fewer); no effect with {k} players or fewer",
               minimum=SEAT_LIVES_MIN, maximum=SEAT_LIVES_MAX, seat=k)
    for k, name in enumerate(SEAT_LIVES_OPTIONS, start=1)
)


def deck_counts(rules: dict) -> tuple[int, ...]:
    return tuple(rules[name] for name in COUNT_OPTIONS)


#: The int64 row handed to the fast engine: every option in its slot (``P.lives``,
#: ``P.count_0 + kind``, ``P.lives_seat1 + p - 1``...), then the deck's size.
PARAM_ROW = ParamRow(OPTIONS, Derived("deck", lambda rules, n: sum(deck_counts(rules)),
                                      "cards in the deck: the sum of the count_* options"))
P = PARAM_ROW.slots


def starting_lives(rules: dict, n_players: int) -> list[int]:
    """The lives each seat starts with: `lives`, plus lives_seat<k> for seat k >= 1."""
    return [rules["lives"] + (rules[SEAT_LIVES_OPTIONS[p - 1]] if p else 0)
            for p in range(n_players)]


def check_rules(rules: dict) -> None:
    if sum(deck_counts(rules)) == 0:
        raise SimcardsError("five-alive needs at least one card: every count_* option is 0")
    for name in SEAT_LIVES_OPTIONS:
        if not 1 <= rules["lives"] + rules[name] <= MOST_LIVES:
            raise SimcardsError(
                f"lives={rules['lives']} with {name}={rules[name]} starts a seat with "
                f"{rules['lives'] + rules[name]} lives: accepted is 1..{MOST_LIVES}")


def check_table(rules: dict, n_players: int) -> None:
    check_deal(n_players, rules["hand_size"], sum(deck_counts(rules)))


def column_bounds(rules: dict, n_players: int) -> dict[str, tuple[int, int]]:
    """Every value each result column can take (GameSpec.column_bounds): lives only fall from
    a seat's starting lives (a Life card costs the others a life), a turn is counted only below
    the cap, a round starts after a turn (the first one aside), and a bust is a turn."""
    cap = rules["turn_cap"]
    return {"lives": (0, max(starting_lives(rules, n_players))),
            "dealt_mask": (0, (1 << N_KINDS) - 1),
            "rounds": (0, cap + 1), "turns": (0, cap), "busts": (0, cap)}


def describe_move(kind: int, move: int) -> str:
    return CARD_NAMES[move] if 0 <= move < N_KINDS else f"card kind {move}"
