"""Five Alive ("21" with the Killer card): seeds 000 and 001, rules in docs/rules/five-alive.md."""
from simcards.games.five_alive import rules
from simcards.registry import GameSpec, register

SPEC = register(GameSpec(
    name=rules.GAME,
    title="Five Alive",
    package=__name__,
    min_players=rules.MIN_PLAYERS,
    max_players=rules.MAX_PLAYERS,
    options=rules.OPTIONS,
    decisions=rules.DECISIONS,
    seat_columns=rules.SEAT_COLUMNS,
    game_columns=rules.GAME_COLUMNS,
    encode_params=rules.encode_params,
    bench_strategy="high_first",
    summary="keep the running total at 21 or under; lose lives on busts, Killers and when "
            "someone empties their hand; the last player with lives wins",
    check_rules=rules.check_rules,
    describe_move=rules.describe_move,
    card_names=rules.CARD_NAMES,
    column_bounds=rules.column_bounds,
    step_column="turns",
))
