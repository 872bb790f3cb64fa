"""How much faster ``simcards run`` is on all cores than on one, and what stops it at 2x.

Issue 13 asks for ``simcards run`` on 2 threads at least 1.9x the speed of 1 thread. This times
the command as a user runs it, a fresh process each time (wall seconds, the two thread counts
alternated so that the machine's drift falls on both), and splits the answer in two:

- the *fixed part*: a run of 1,000 games, which is almost nothing but starting Python, importing
  pandas and numba, parsing the command, loading the cached kernel and printing the table;
- the *games*: ``simulate`` of the same run inside one process (the kernel and the frame rows, each
  chunk written on the thread that played it), one thread against all, alternated too.

With P the one-thread run less its fixed part f, no thread count can make the command faster than
(P + f) / (P / T + f): the column "at most". Solved for f, 1.9x on T threads asks for a fixed part of
at most P (1 - 1.9 / T) / 0.9, P / 18 on two threads: the column "1.9x needs". Under it is a floor no
command of a numba engine goes below, whatever simcards does: starting Python and importing numpy
and numba, timed here in fresh processes too (the fastest of the fixed-part runs' count). Usage::

    python experiments/thread_scaling.py                       # every game, 10^6 games, 3 rounds
    python experiments/thread_scaling.py five-alive --games 10000000 --rounds 2

Each game plays its default line-up (``simcards run GAME`` without ``--strategies``), fixed seats.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

#: Runs ``simulate`` of one line-up alternately on 1 and T threads after a warm-up, in a process
#: of its own (a game's frames are freed with it); prints the seconds of each as JSON.
_IN_PROCESS = """
import json, sys, time
import simcards
game, games, threads, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
lineup = [simcards.get_game(game).bench_strategy] * 4
simcards.simulate(game, lineup, 2_000, threads=1)     # the kernel loaded, the memory touched
seconds = {1: [], threads: []}
for _ in range(rounds):
    for t in (1, threads):
        started = time.perf_counter()
        frame = simcards.simulate(game, lineup, games, threads=t)
        seconds[t].append(time.perf_counter() - started)
        del frame
print(json.dumps({str(t): s for t, s in seconds.items()}))
"""


def fresh_seconds(argv: list[str]) -> float:
    """Wall seconds of ARGV run in a fresh process, its output discarded."""
    started = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def wall(args: list[str]) -> float:
    """Wall seconds of ``simcards ARGS`` in a fresh process (the console script's entry)."""
    return fresh_seconds([sys.executable, "-m", "simcards", *args])


def floor(runs: int) -> float:
    """Wall seconds of the fastest of RUNS fresh ``python -c "import numpy, numba"``."""
    return min(fresh_seconds([sys.executable, "-c", "import numpy, numba"]) for _ in range(runs))


def fixed_allowed(games_one: float, threads: int, target: float = 1.9) -> float:
    """The largest fixed part f for which (P + f) / (P / T + f) reaches TARGET, P = GAMES_ONE."""
    return max(0.0, games_one * (1 - target / threads) / (target - 1))


def measure(game: str, games: int, threads: int, rounds: int, fixed_runs: int) -> dict:
    run = ["run", game, "--games", str(games)]
    wall(["run", game, "--games", "1000"])          # the kernel compiled or loaded once first
    fixed = statistics.median(wall(["run", game, "--games", "1000", "--threads", "1"])
                              for _ in range(fixed_runs))
    one, many = [], []
    for _ in range(rounds):
        one.append(wall(run + ["--threads", "1"]))
        many.append(wall(run + ["--threads", str(threads)]))
    out = subprocess.run([sys.executable, "-c", _IN_PROCESS, game, str(games), str(threads), str(rounds)],
                         check=True, capture_output=True, text=True).stdout
    inside = {int(t): s for t, s in json.loads(out.splitlines()[-1]).items()}
    games_one = statistics.median(one) - fixed
    return dict(game=game, one=one, many=many, fixed=fixed,
                ratio=statistics.median(a / b for a, b in zip(one, many)),
                inside=statistics.median(a / b for a, b in zip(inside[1], inside[threads])),
                bound=(games_one + fixed) / (games_one / threads + fixed),
                needs=fixed_allowed(games_one, threads))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games_", nargs="*", metavar="GAME", help="games (default: every game)")
    ap.add_argument("--games", type=int, default=1_000_000, help="games per run")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 2, help="the many-thread count")
    ap.add_argument("--rounds", type=int, default=3, help="alternated pairs per game")
    ap.add_argument("--fixed-runs", type=int, default=3, help="1,000-game runs timed for the fixed part")
    args = ap.parse_args()
    import simcards
    from rich.console import Console
    from rich.table import Table

    table = Table("game", "1 thread (s)", f"{args.threads} threads (s)", "command", "games alone",
                  "fixed part (s)", "at most", "1.9x needs (s)",
                  title=f"simcards run, {args.games:,} games: {args.threads} threads against 1 "
                        f"(medians of {args.rounds} alternated pairs)",
                  caption=f"Python, numpy and numba alone: {floor(args.fixed_runs):.2f} s "
                          "(fastest fresh process)")
    for game in args.games_ or simcards.list_games():
        r = measure(game, args.games, args.threads, args.rounds, args.fixed_runs)
        table.add_row(game, f"{min(r['one']):.2f}-{max(r['one']):.2f}",
                      f"{min(r['many']):.2f}-{max(r['many']):.2f}", f"{r['ratio']:.2f}x",
                      f"{r['inside']:.2f}x", f"{r['fixed']:.2f}", f"{r['bound']:.2f}x",
                      f"{r['needs']:.2f}")
    Console(width=120).print(table)


if __name__ == "__main__":
    main()
