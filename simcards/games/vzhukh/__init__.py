"""Vzhukh ("Вжух!"): seed 004, rules in docs/rules/vzhukh.md."""
from simcards.games.vzhukh import rules
from simcards.registry import Decision, GameSpec, register

SPEC = register(GameSpec(
    name=rules.GAME,
    title="Vzhukh",
    package=__name__,
    min_players=rules.MIN_PLAYERS,
    max_players=rules.MAX_PLAYERS,
    options=rules.OPTIONS,
    decisions=(
        Decision("attack", "attack", "what to attack with: encode_move(ATTACK, kind 0..9, count)"),
        Decision("defend", "defend", "how to defend: encode_move(TRANSFER, stack kind, count), "
                 "encode_move(BEAT, kind 0..9, count) or encode_move(JOKER, kind 10..12, 1)"),
    ),
    seat_columns=("penalty", "penalty_round1", "penalty_round2", "penalty_round3", "takes",
                  "jokers_left", "dealt_mask"),
    game_columns=("rounds", "actions", "passes", "takes_total", "jokers_left_total"),
    encode_params=rules.encode_params,
    bench_strategy="low_attack",
    summary="attack the next player with equal number cards; transfer, beat or play a joker, "
            "or take the stack as penalty points; lowest penalty after three rounds wins",
    check_rules=rules.check_rules,
    describe_move=rules.describe_move,
    card_names=rules.CARD_NAMES,
    step_column="actions",
))
