"""Vzhukh ("Вжух!"): seed 004, rules in docs/rules/vzhukh.md."""
from simcards.games.vzhukh import rules
from simcards.registry import GameSpec, register

SPEC = register(GameSpec(
    name=rules.GAME,
    title="Vzhukh",
    package=__name__,
    min_players=rules.MIN_PLAYERS,
    max_players=rules.MAX_PLAYERS,
    options=rules.OPTIONS,
    decisions=rules.DECISIONS,
    seat_columns=rules.SEAT_COLUMNS,
    game_columns=rules.GAME_COLUMNS,
    encode_params=rules.encode_params,
    bench_strategy="low_attack",
    summary="attack the next player with equal number cards; transfer, beat or play a joker, "
            "or take the stack as penalty points; lowest penalty after three rounds wins",
    check_rules=rules.check_rules,
    describe_move=rules.describe_move,
    card_names=rules.CARD_NAMES,
    column_bounds=rules.column_bounds,
    step_column="actions",
))
