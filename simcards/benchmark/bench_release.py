"""The yardstick of ``simcards bench``: the previous release's figures, by the processor they were timed on.

CPU nanoseconds per step (turn or action) on one core, for the games' bench line-ups (every
seat the same strategy, 4 players, seed 0, 200,000 games), measured on the code of the previous
release, one fresh process per try alternated with this code. The release's speed relative to
this code's differs from one processor to the next (Thirty-One's simulate, medians of the tries:
2.9x slower than this code on a Zen 5 EPYC, 1.7x on an Intel Xeon, where their kernels stay
about 1.5x apart on both: the release's int64 frame pays each machine's cost of touching fresh
memory seven times over), so the tries are kept by processor, and ``simcards bench`` compares
with the tries timed on its own processor where there are any, and says so where there are
none. To add a processor: ``python experiments/release_tries.py ../release`` on it (a ``git
worktree add`` of the release's commit), and its output under the name it prints.
"""
from __future__ import annotations

from dataclasses import dataclass

RELEASE = "0.1.0 (commit 963dcb8)"
#: Where each processor's tries were timed, for bench's line. A processor is named as numba
#: compiles for it (``processor()``); the first machine's name was not recorded, so its key
#: matches no processor and its tries count only where no processor has any.
PROCESSORS: dict[str, str] = {
    "znver5": "a Zen 5 AMD EPYC (2026-12-03)",
    "rocketlake": "an Intel Xeon at 2.6 GHz (2026-12-03)",
    "epyc-avx2": "an earlier AMD EPYC with AVX2, its name not recorded (2026-12-02)",
}

#: processor -> (game, strategy, players) -> {row of simcards.bench: CPU ns per step of each try}:
#: the release's ``simcards.simulate(game, [strategy] * 4, 200_000, seed=0, threads=1)`` (frame
#: included) and ``run_records`` of the same games (the kernel's int64 records, no frame: what the
#: release's own bench timed as "fast, 1 core", and what issue 13's figures of 58, 173 and 53 ns
#: were), each after a warm-up, in one fresh process per try, alternated with this code
#: (``simcards.bench_against.side_by_side``, load below 1.1). The release's simulate swings with a
#: machine's cost of touching fresh memory, which its int64 frame (seven times this code's) pays
#: many times over: Thirty-One's read 85.6-101.4 ns on the AVX2 EPYC and 52.9-79.0 on the Xeon.
#: The same tries of this code (simulate, then kernel; EPYC and Xeon): 14.6-15.4 and 16.3-16.5,
#: 32.5-33.4 and 31.4-37.5, 60.7-62.6 and 59.4-59.9, 22.2-24.4 and 24.1-24.8; 14.0-16.5 and
#: 16.0-16.2, 29.7-30.9 and 29.4-39.1, 59.6-63.1 and 58.8-60.4, 22.0-23.2 and 24.0-25.6; on the
#: Zen 5 EPYC (five tries, 2026-12-03, ``experiments/release_tries.py``): simulate 16.4-17.1,
#: 32.0-35.3, 57.1-65.2, 22.7-24.1; kernel 16.1-17.7, 29.7-34.4, 57.7-65.6, 23.4-25.9.
TRIES: dict[str, dict[tuple[str, str, int], dict[str, tuple[float, ...]]]] = {
    "znver5": {
        ("five-alive", "high_first", 4): {
            "simulate, 1 core": (52.0, 48.1, 48.9, 48.4, 48.5),
            "kernel only, 1 core": (45.4, 42.3, 41.8, 42.0, 41.9)},
        ("thirty-one", "greedy", 4): {
            "simulate, 1 core": (91.9, 101.5, 92.0, 95.3, 90.4),
            "kernel only, 1 core": (48.2, 47.9, 50.3, 48.5, 51.0)},
        ("bombs-away", "random", 4): {
            "simulate, 1 core": (161.6, 153.7, 173.4, 152.0, 152.5),
            "kernel only, 1 core": (151.9, 143.8, 142.5, 160.8, 140.9)},
        ("vzhukh", "low_attack", 4): {
            "simulate, 1 core": (63.5, 62.1, 57.9, 61.0, 66.0),
            "kernel only, 1 core": (54.2, 50.0, 53.7, 50.4, 62.7)},
    },
    "rocketlake": {
        ("five-alive", "high_first", 4): {
            "simulate, 1 core": (45.0, 44.8, 44.9, 48.1, 46.5, 46.9, 47.0),
            "kernel only, 1 core": (43.6, 43.4, 43.5, 43.6, 43.6, 43.6, 43.6)},
        ("thirty-one", "greedy", 4): {
            "simulate, 1 core": (79.0, 58.0, 54.2, 78.1, 55.1, 56.3, 52.9),
            "kernel only, 1 core": (45.4, 45.2, 45.0, 45.1, 44.9, 44.9, 45.6)},
        ("bombs-away", "random", 4): {
            "simulate, 1 core": (137.5, 139.4, 139.3, 139.3, 138.6, 139.6, 140.0),
            "kernel only, 1 core": (130.2, 130.5, 130.3, 130.8, 130.4, 130.8, 130.8)},
        ("vzhukh", "low_attack", 4): {
            "simulate, 1 core": (60.0, 65.6, 64.3, 62.5, 64.1, 61.8, 63.1),
            "kernel only, 1 core": (54.3, 54.2, 54.2, 54.3, 54.2, 54.2, 54.2)},
    },
    "epyc-avx2": {
        ("five-alive", "high_first", 4): {
            "simulate, 1 core": (48.3, 40.5, 41.5),
            "kernel only, 1 core": (41.6, 38.7, 40.0)},
        ("thirty-one", "greedy", 4): {
            "simulate, 1 core": (87.3, 101.4, 85.6),
            "kernel only, 1 core": (45.6, 54.6, 46.3)},
        ("bombs-away", "random", 4): {
            "simulate, 1 core": (130.8, 133.4, 140.2),
            "kernel only, 1 core": (127.3, 133.6, 133.9)},
        ("vzhukh", "low_attack", 4): {
            "simulate, 1 core": (56.4, 55.0, 58.6),
            "kernel only, 1 core": (46.6, 46.0, 48.9)},
    },
}


@dataclass(frozen=True)
class Previous:
    """The release's tries that a bench on this processor compares with."""

    tries: dict[str, tuple[float, ...]]
    """CPU ns per step of each try, by bench row."""
    processors: tuple[str, ...]
    """The processors they were timed on (keys of ``PROCESSORS``)."""
    here: bool
    """True when they were all timed on this machine's processor; False when it has none and
    these are every processor's tries pooled: the ratio then compares machines as well as code."""


def processor() -> str:
    """The processor numba compiles for here: ``NUMBA_CPU_NAME`` if set, else LLVM's name for the
    host (``"rocketlake"``, ``"znver5"``); the machine code, and so the speed, follows it."""
    import llvmlite.binding as llvm
    import numba
    return numba.config.CPU_NAME or llvm.get_host_cpu_name()


def previous(game: str, strategy: str, players: int, here: str | None = None) -> Previous | None:
    """The previous release's tries for this line-up, or None if it was not measured.

    Those timed on ``here`` (default: ``processor()``) if any, else every processor's pooled.
    ``simcards bench`` compares with their median and shows their range."""
    here = processor() if here is None else here
    line_up = (game, strategy, players)
    by_processor = {name: tries[line_up] for name, tries in TRIES.items() if line_up in tries}
    if not by_processor:
        return None
    if here in by_processor:
        return Previous(dict(by_processor[here]), (here,), True)
    pooled: dict[str, tuple[float, ...]] = {}
    for tries in by_processor.values():
        for row, values in tries.items():
            pooled[row] = pooled.get(row, ()) + tuple(values)
    return Previous(pooled, tuple(by_processor), False)
