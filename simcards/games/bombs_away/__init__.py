"""Bombs Away (Aviad Shani): seed 003, rules in docs/rules/bombs-away.md."""
from simcards.games.bombs_away import rules
from simcards.registry import GameSpec, register

SPEC = register(GameSpec(
    name=rules.GAME,
    title="Bombs Away",
    package=__name__,
    min_players=rules.MIN_PLAYERS,
    max_players=rules.MAX_PLAYERS,
    options=rules.OPTIONS,
    decisions=rules.DECISIONS,
    seat_columns=rules.SEAT_COLUMNS,
    game_columns=rules.GAME_COLUMNS,
    encode_params=rules.encode_params,
    bench_strategy="random",
    summary="every card has an effect; 10s and faces start duels that cost points; "
            "the last player with points wins",
    check_rules=rules.check_rules,
    describe_move=rules.describe_move,
    card_names=rules.CARD_NAMES,
    column_bounds=rules.column_bounds,
    step_column="turns",
))
