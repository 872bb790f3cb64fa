"""Bombs Away: cards, decisions and rule options (docs/rules/bombs-away.md explains each).

Suits never matter in this game, so a card is its kind: the thirteen ranks in
the seed's order 2, 3, ..., 10, J, Q, K, A (kinds 0..12) and the joker (13).
The ranks that an 8 or the joker may name, 9..A, are the contiguous kinds 7..12;
the duel cards 10, J, Q, K are 8..11.
"""
from __future__ import annotations

from simcards.errors import SimcardsError
from simcards.contract.options import Derived, ParamRow, RuleOption
from simcards.contract.registry import Decision

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

# ---- decisions: a decision's id is its position here (GameSpec.decisions); the last three
# have defaults (defaults.py) that most strategies share
DECISIONS: tuple[Decision, ...] = (
    Decision("play", "play", "the turn's card (kind 0..13: 2..10, J, Q, K, A, joker)"),
    Decision("extra", "extra", "the card played after an ace (kind 0..13)"),
    Decision("name", "name_rank", "the rank an 8 names or a joker is (kind 7..12: 9..A)",
             default=True),
    Decision("target", "target", "the opponent (seat) a 5 takes from, a 9 swaps with, or "
                                 "who loses a duel's points (duel_victim=chosen)", default=True),
    Decision("answer", "answer", "the card that answers a duel (kind 0..13)", default=True),
)
DECISION_NAMES = tuple(d.name for d in DECISIONS)
PLAY, EXTRA, NAME, TARGET, ANSWER = (DECISION_NAMES.index(name) for name in
                                     ("play", "extra", "name", "target", "answer"))
N_DECISIONS = len(DECISIONS)

# ---- result columns: a seat's row is (win, rank, *SEAT_COLUMNS), a game's row is
# (*GAME_COLUMNS, unfinished) (simcards.registry appends the standard "unfinished")
SEAT_COLUMNS = ("points", "dealt_mask")
GAME_COLUMNS = ("turns", "duels", "points_lost")
SC_POINTS, SC_DEALT = (2 + SEAT_COLUMNS.index(c) for c in ("points", "dealt_mask"))
GC_TURNS, GC_DUELS, GC_POINTS_LOST = (GAME_COLUMNS.index(c) for c in ("turns", "duels",
                                                                       "points_lost"))
GC_UNFINISHED = len(GAME_COLUMNS)

# ---- duel victim option
VICTIMS = ("next", "chosen")

# ---- seat compensation (docs/rules/bombs-away.md, "Seat compensation"): points_seat1 ..
# points_seat4, the points seat k (k places after the first player) starts with beyond `points`
SEAT_POINTS_MIN, SEAT_POINTS_MAX = -10, 10
SEAT_POINTS_OPTIONS = tuple(f"points_seat{k}" for k in range(1, MAX_PLAYERS))
MOST_POINTS = 1000               # no seat starts with more (the points option's maximum)
# and hand_seat1 .. hand_seat4: the cards seat k holds in a full hand beyond `hand_size` (dealt,
# drawn back up to, drawn by a 4): a lever that weighs on skilled play more than on random play
SEAT_HAND_MIN, SEAT_HAND_MAX = -2, 2
SEAT_HAND_OPTIONS = tuple(f"hand_seat{k}" for k in range(1, MAX_PLAYERS))
MOST_CARDS = 10                  # no full hand holds more (the hand_size option's maximum)
# and deal_seat1 .. deal_seat4: the cards seat k is dealt beyond its full hand, once, at the start;
# it plays them down (or draws back up) as rule 3 says: a finer lever than a full hand, which
# moves skilled play by a point or two and random play hardly at all
SEAT_DEAL_MIN, SEAT_DEAL_MAX = -2, 2
SEAT_DEAL_OPTIONS = tuple(f"deal_seat{k}" for k in range(1, MAX_PLAYERS))

OPTIONS: tuple[RuleOption, ...] = (
    RuleOption("points", int, 30, "points each player starts with", minimum=1, maximum=MOST_POINTS),
    RuleOption("hand_size", int, 4, "cards in a full hand (dealt, drawn back up to, and drawn by a 4)",
               minimum=1, maximum=MOST_CARDS),
    RuleOption("tens_rule", bool, True, "tens rule (seed): a player holding more than one 10 "
               "swaps each extra 10 for the top card of the stock"),
    RuleOption("duel_victim", str, "next", "who loses a duel's points: next (seed: the player "
               "after the answerer; with 2 players the answerer) or chosen (pagat: the duel's "
               "starter chooses among the opponents)", choices=VICTIMS),
    RuleOption("turn_cap", int, 5_000, "a game still running after this many turns is unfinished",
               minimum=1, maximum=10_000_000),
) + tuple(
    RuleOption(name, int, 0, f"seat compensation: {what.format(k=k)} (negative: fewer); no effect "
               f"with {k} players or fewer", minimum=low, maximum=high, seat=k)
    for names, what, low, high in (
        (SEAT_POINTS_OPTIONS, "points seat {k} ({k} after the first player) starts with beyond `points`",
         SEAT_POINTS_MIN, SEAT_POINTS_MAX),
        (SEAT_HAND_OPTIONS, "cards seat {k} ({k} after the first player) holds in a full hand beyond "
         "`hand_size`", SEAT_HAND_MIN, SEAT_HAND_MAX),
        (SEAT_DEAL_OPTIONS, "cards seat {k} ({k} after the first player) is dealt beyond its full "
         "hand, once, at the start", SEAT_DEAL_MIN, SEAT_DEAL_MAX))
    for k, name in enumerate(names, start=1)
)

#: The int64 row handed to the fast engine: every option in its slot (``P.points``,
#: ``P.duel_victim``: 1 for chosen, ``P.points_seat1 + p - 1``...), then the deck's size.
PARAM_ROW = ParamRow(OPTIONS, Derived("deck", lambda rules, n: DECK, "cards in the deck (rule 1)"))
P = PARAM_ROW.slots


def starting_points(rules: dict, n_players: int) -> list[int]:
    """The points each seat starts with: `points`, plus points_seat<k> for seat k >= 1."""
    return [rules["points"] + (rules[SEAT_POINTS_OPTIONS[p - 1]] if p else 0)
            for p in range(n_players)]


def full_hands(rules: dict, n_players: int) -> list[int]:
    """The cards each seat holds in a full hand: `hand_size`, plus hand_seat<k> for seat k >= 1."""
    return [rules["hand_size"] + (rules[SEAT_HAND_OPTIONS[p - 1]] if p else 0)
            for p in range(n_players)]


def dealt_hands(rules: dict, n_players: int) -> list[int]:
    """The cards each seat is dealt: its full hand, plus deal_seat<k> for seat k >= 1."""
    return [full + (rules[SEAT_DEAL_OPTIONS[p - 1]] if p else 0)
            for p, full in enumerate(full_hands(rules, n_players))]


def check_rules(rules: dict) -> None:
    """Each seat starts with 1..1000 points and a full hand of 1..10 cards, and is dealt at least
    one card; the deal's total is checked by check_table."""
    for name in SEAT_POINTS_OPTIONS:
        if not 1 <= rules["points"] + rules[name] <= MOST_POINTS:
            raise SimcardsError(
                f"points={rules['points']} with {name}={rules[name]} starts a seat with "
                f"{rules['points'] + rules[name]} points: accepted is 1..{MOST_POINTS}")
    for name in SEAT_HAND_OPTIONS:
        if not 1 <= rules["hand_size"] + rules[name] <= MOST_CARDS:
            raise SimcardsError(
                f"hand_size={rules['hand_size']} with {name}={rules[name]} gives a seat a full hand of "
                f"{rules['hand_size'] + rules[name]} cards: accepted is 1..{MOST_CARDS}")
    for k, name in enumerate(SEAT_DEAL_OPTIONS, start=1):
        dealt = rules["hand_size"] + rules[SEAT_HAND_OPTIONS[k - 1]] + rules[name]
        if dealt < 1:
            raise SimcardsError(
                f"hand_size={rules['hand_size']} with {SEAT_HAND_OPTIONS[k - 1]}="
                f"{rules[SEAT_HAND_OPTIONS[k - 1]]} and {name}={rules[name]} deals seat {k} "
                f"{dealt} cards: accepted is at least 1")


def check_table(rules: dict, n_players: int) -> None:
    dealt = sum(dealt_hands(rules, n_players))
    if dealt > DECK - 1:
        raise SimcardsError(
            f"hand_size={rules['hand_size']} for {n_players} players needs "
            f"{dealt} cards but at most {DECK - 1} may be dealt")


def column_bounds(rules: dict, n_players: int) -> dict[str, tuple[int, int]]:
    """Every value each result column can take (GameSpec.column_bounds). Points only fall, by
    a duel's damage (10 less the answer's value: at most 9) from a seat's starting points, so a
    player ends above -DUEL_VALUE;
    a turn is counted only below the cap and starts at most one duel (a duel card ends the
    chain of aces that gives a turn more than one card)."""
    cap = rules["turn_cap"]
    points = max(starting_points(rules, n_players))     # seat compensation may give more
    return {"points": (-DUEL_VALUE, points), "dealt_mask": (0, (1 << N_KINDS) - 1),
            "turns": (0, cap), "duels": (0, cap), "points_lost": (0, n_players * (points + DUEL_VALUE))}


def describe_move(kind: int, move: int) -> str:
    """A strategy's answer in words: a card or a rank for card decisions, a seat for a target."""
    if kind == TARGET:
        return f"seat {move}"
    if kind == NAME:
        return f"name {CARD_NAMES[move]}" if FIRST_NAME <= move <= LAST_NAME else f"rank kind {move}"
    return CARD_NAMES[move] if 0 <= move < N_KINDS else f"card kind {move}"
