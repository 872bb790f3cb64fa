"""Five Alive ("21" with the Killer card): seeds 000 and 001, rules in docs/rules/five-alive.md."""
from simcards.games.five_alive import rules
from simcards.contract.registry import GameSpec, register

SPEC = register(GameSpec.from_rules(
    rules,
    package=__name__,
    title="Five Alive",
    bench_strategy="high_first",
    c_target=1.5,        # issue 13: simulate at most 1.5x the C's (yardstick.c) CPU time per turn
    summary="keep the running total at 21 or under; lose lives on busts, Killers and when "
            "someone empties their hand; the last player with lives wins",
))
