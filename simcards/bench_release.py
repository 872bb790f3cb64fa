"""The yardstick of ``simcards bench``: the previous release's figures on the project's machine.

CPU nanoseconds per step (turn or action) on one core, for the games' bench line-ups (every
seat the same strategy, 4 players, seed 0, 200,000 games), measured with this ``simcards bench``
on the code of the previous release. A new release measures the old code again on the same
machine and replaces these figures, so that the comparison is always code against code, never
machine against machine.
"""
from __future__ import annotations

RELEASE = "0.1.0 (commit 963dcb8)"
MACHINE = "the project's 2-core x86_64 machine of 2026-12-02 (Python 3.11, numba 0.6x)"

#: (game, strategy, players) -> {row of simcards.bench: CPU ns per step}: the release's
#: ``simcards.simulate(game, [strategy] * 4, 200_000, seed=0, threads=1)`` (frame included) and
#: ``run_records`` of the same games (the kernel's int64 records, no frame: what the release's
#: own bench timed as "fast, 1 core", and what issue 13's figures of 58, 173 and 53 ns were),
#: each after a warm-up, in one fresh process per try, three tries alternated with this code on
#: 2026-12-02 (load below 1); the medians. This code, the same way: simulate 14.6-15.4,
#: 32.5-33.4, 60.7-62.6, 22.2-24.4; kernel 14.0-16.5, 29.7-30.9, 59.6-63.1, 22.0-23.2.
#: Tries: Five Alive 48.3, 40.5, 41.5 and 41.6, 38.7, 40.0; Thirty-One 87.3, 101.4, 85.6 and
#: 45.6, 54.6, 46.3; Bombs Away 130.8, 133.4, 140.2 and 127.3, 133.6, 133.9; Vzhukh 56.4, 55.0,
#: 58.6 and 46.6, 46.0, 48.9. The machine: the release compiles Bombs Away's ``random`` x4 in
#: 73.0 CPU s here (issue 13's machine: 85 s; the one of 2026-12-01, whose figures these replace,
#: 189.4 s): on another machine, time both checkouts side by side (``simcards bench --against``).
FIGURES: dict[tuple[str, str, int], dict[str, float]] = {
    ("five-alive", "high_first", 4): {"simulate, 1 core": 41.5, "kernel only, 1 core": 40.0},
    ("thirty-one", "greedy", 4): {"simulate, 1 core": 87.3, "kernel only, 1 core": 46.3},
    ("bombs-away", "random", 4): {"simulate, 1 core": 133.4, "kernel only, 1 core": 133.6},
    ("vzhukh", "low_attack", 4): {"simulate, 1 core": 56.4, "kernel only, 1 core": 46.6},
}


def previous(game: str, strategy: str, players: int) -> dict[str, float] | None:
    """The previous release's CPU ns per step by bench row, or None if it was not measured."""
    return FIGURES.get((game, strategy, players))
