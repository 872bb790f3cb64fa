"""The yardstick of ``simcards bench``: the previous release's figures on the project's machine.

CPU nanoseconds per step (turn or action) on one core, for the games' bench line-ups (every
seat the same strategy, 4 players, seed 0, 200,000 games), measured with this ``simcards bench``
on the code of the previous release. A new release measures the old code again on the same
machine and replaces these figures, so that the comparison is always code against code, never
machine against machine.
"""
from __future__ import annotations

RELEASE = "0.1.0 (commit 963dcb8)"
MACHINE = "the project's 2-core x86_64 machine of 2026-12-02/03 (Python 3.11, numba 0.6x)"

#: (game, strategy, players) -> {row of simcards.bench: CPU ns per step of each try}: the
#: release's ``simcards.simulate(game, [strategy] * 4, 200_000, seed=0, threads=1)`` (frame
#: included) and ``run_records`` of the same games (the kernel's int64 records, no frame: what the
#: release's own bench timed as "fast, 1 core", and what issue 13's figures of 58, 173 and 53 ns
#: were), each after a warm-up, in one fresh process per try, alternated with this code
#: (``simcards.bench_against.side_by_side``, load below 1.1): three tries on 2026-12-02, then
#: seven on 2026-12-03. The release's simulate swings with this machine's cost of touching fresh
#: memory, which its int64 frame (seven times this code's) pays many times over: Thirty-One's
#: read 85.6-101.4 ns on the first day and 52.9-79.0 on the second, so one day's median is not
#: the release's speed. The same tries of this code: simulate 14.6-15.4 and 16.3-16.5, 32.5-33.4
#: and 31.4-37.5, 60.7-62.6 and 59.4-59.9, 22.2-24.4 and 24.1-24.8; kernel 14.0-16.5 and
#: 16.0-16.2, 29.7-30.9 and 29.4-39.1, 59.6-63.1 and 58.8-60.4, 22.0-23.2 and 24.0-25.6. The
#: release compiles Bombs Away's ``random`` x4 in 73.0 CPU s here (issue 13's machine: 85 s):
#: on another machine, time both checkouts side by side (``simcards bench --against``).
TRIES: dict[tuple[str, str, int], dict[str, tuple[float, ...]]] = {
    ("five-alive", "high_first", 4): {
        "simulate, 1 core": (48.3, 40.5, 41.5, 45.0, 44.8, 44.9, 48.1, 46.5, 46.9, 47.0),
        "kernel only, 1 core": (41.6, 38.7, 40.0, 43.6, 43.4, 43.5, 43.6, 43.6, 43.6, 43.6)},
    ("thirty-one", "greedy", 4): {
        "simulate, 1 core": (87.3, 101.4, 85.6, 79.0, 58.0, 54.2, 78.1, 55.1, 56.3, 52.9),
        "kernel only, 1 core": (45.6, 54.6, 46.3, 45.4, 45.2, 45.0, 45.1, 44.9, 44.9, 45.6)},
    ("bombs-away", "random", 4): {
        "simulate, 1 core": (130.8, 133.4, 140.2, 137.5, 139.4, 139.3, 139.3, 138.6, 139.6, 140.0),
        "kernel only, 1 core": (127.3, 133.6, 133.9, 130.2, 130.5, 130.3, 130.8, 130.4, 130.8, 130.8)},
    ("vzhukh", "low_attack", 4): {
        "simulate, 1 core": (56.4, 55.0, 58.6, 60.0, 65.6, 64.3, 62.5, 64.1, 61.8, 63.1),
        "kernel only, 1 core": (46.6, 46.0, 48.9, 54.3, 54.2, 54.2, 54.3, 54.2, 54.2, 54.2)},
}


def previous(game: str, strategy: str, players: int) -> dict[str, tuple[float, ...]] | None:
    """The previous release's tries by bench row (CPU ns per step), or None if it was not measured.
    ``simcards bench`` compares with their median and shows their range."""
    return TRIES.get((game, strategy, players))
