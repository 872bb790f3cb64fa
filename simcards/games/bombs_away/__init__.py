"""Bombs Away (Aviad Shani): seed 003, rules in docs/rules/bombs-away.md."""
from simcards.games.bombs_away import rules
from simcards.contract.registry import GameSpec, register

SPEC = register(GameSpec.from_rules(
    rules,
    package=__name__,
    title="Bombs Away",
    bench_strategy="random",
    summary="every card has an effect; 10s and faces start duels that cost points; "
            "the last player with points wins",
))
