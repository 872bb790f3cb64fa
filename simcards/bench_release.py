"""The yardstick of ``simcards bench``: the previous release's figures on the project's machine.

CPU nanoseconds per step (turn or action) on one core, for the games' bench line-ups (every
seat the same strategy, 4 players, seed 0, 200,000 games), measured with this ``simcards bench``
on the code of the previous release. A new release measures the old code again on the same
machine and replaces these figures, so that the comparison is always code against code, never
machine against machine.
"""
from __future__ import annotations

RELEASE = "0.1.0 (commit 963dcb8)"
MACHINE = "the project's 2-core x86_64 machine (Python 3.11, numba 0.6x)"

#: (game, strategy, players) -> {row of simcards.bench: CPU ns per step}: the release's
#: ``simcards.simulate(game, [strategy] * 4, 200_000, seed=0, threads=1)``, frame included, timed
#: on 2026-12-01 one process at a time on the otherwise quiet machine (load about 1), alternated
#: with this code, best of two (the other tries: 91.6, 130.9, 313.0, 115.2). Only this row: the
#: figures saved before (2026-11-30, every row, a load of 3.6-6.5) read 1.4-1.6x below the
#: release's simulate timed now, a gap I could not reproduce or explain, so they are not mixed in.
FIGURES: dict[tuple[str, str, int], dict[str, float]] = {
    ("five-alive", "high_first", 4): {"simulate, 1 core": 90.3},
    ("thirty-one", "greedy", 4): {"simulate, 1 core": 119.9},
    ("bombs-away", "random", 4): {"simulate, 1 core": 257.7},
    ("vzhukh", "low_attack", 4): {"simulate, 1 core": 100.6},
}


def previous(game: str, strategy: str, players: int) -> dict[str, float] | None:
    """The previous release's CPU ns per step by bench row, or None if it was not measured."""
    return FIGURES.get((game, strategy, players))
