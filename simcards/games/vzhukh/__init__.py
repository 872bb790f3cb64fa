"""Vzhukh ("Вжух!"): seed 004, rules in docs/rules/vzhukh.md."""
from simcards.games.vzhukh import rules
from simcards.contract.registry import GameSpec, register

SPEC = register(GameSpec.from_rules(
    rules,
    package=__name__,
    title="Vzhukh",
    bench_strategy="low_attack",
    summary="attack the next player with equal number cards; transfer, beat or play a joker, "
            "or take the stack as penalty points; lowest penalty after three rounds wins",
    step_column="actions",
))
