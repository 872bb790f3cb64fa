"""Thirty-One with keys: seed 002, rules in docs/rules/thirty-one.md."""
from simcards.games.thirty_one import rules
from simcards.contract.registry import GameSpec, register

SPEC = register(GameSpec.from_rules(
    rules,
    package=__name__,
    title="Thirty-One with keys",
    bench_strategy="greedy",
    summary="swap with the three open middle cards toward 31 in one suit (the ace of clubs is "
            "wild); the lowest hand loses a key; the first player out of keys ends the game",
))
