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

#: (game, strategy, players) -> {row of simcards.bench: CPU ns per step}. Measured on 2026-11-30
#: with other work on the machine (load average 3.6-6.5 on 2 cores): CPU time, not wall time.
FIGURES: dict[tuple[str, str, int], dict[str, float]] = {
    ("five-alive", "high_first", 4): {"simulate, 1 core": 57.1, "simulate, 2 cores": 52.2, "kernel only, 1 core": 51.2},
    ("thirty-one", "greedy", 4): {"simulate, 1 core": 110.1, "simulate, 2 cores": 93.1, "kernel only, 1 core": 67.8},
    ("bombs-away", "random", 4): {"simulate, 1 core": 190.2, "simulate, 2 cores": 181.9, "kernel only, 1 core": 181.8},
    ("vzhukh", "low_attack", 4): {"simulate, 1 core": 74.2, "simulate, 2 cores": 72.8, "kernel only, 1 core": 63.6},
}


def previous(game: str, strategy: str, players: int) -> dict[str, float] | None:
    """The previous release's CPU ns per step by bench row, or None if it was not measured."""
    return FIGURES.get((game, strategy, players))
