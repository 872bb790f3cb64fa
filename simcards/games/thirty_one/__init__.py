"""Thirty-One with keys: seed 002, rules in docs/rules/thirty-one.md."""
from simcards.games.thirty_one import rules
from simcards.registry import GameSpec, register

SPEC = register(GameSpec(
    name=rules.GAME,
    title="Thirty-One with keys",
    package=__name__,
    min_players=rules.MIN_PLAYERS,
    max_players=rules.MAX_PLAYERS,
    options=rules.OPTIONS,
    decisions=rules.DECISIONS,
    seat_columns=rules.SEAT_COLUMNS,
    game_columns=rules.GAME_COLUMNS,
    encode_params=rules.encode_params,
    bench_strategy="greedy",
    summary="swap with the three open middle cards toward 31 in one suit (the ace of clubs is "
            "wild); the lowest hand loses a key; the first player out of keys ends the game",
    check_rules=rules.check_rules,
    describe_move=rules.describe_move,
    card_names=rules.CARD_NAMES,
    column_bounds=rules.column_bounds,
    step_column="turns",
))
