"""Crazy Eights (public domain): rules in docs/rules/crazy-eights.md."""
from simcards.games.crazy_eights import rules
from simcards.contract.registry import GameSpec, register

SPEC = register(GameSpec.from_rules(
    rules,
    package=__name__,
    title="Crazy Eights",
    bench_strategy="eights_last",
    summary="match the top card's rank or suit, or play an eight and name a suit; draw when "
            "you cannot; the first player out of cards wins (or scores, in a points game)",
))
