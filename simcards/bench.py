"""``simcards bench``: measured speed of the fast engine against the reference engine.

Wall-clock figures measure the machine as well as the engine: on a shared or
busy machine compare the CPU-time figures (per core), which the load of other
processes changes much less.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time

from simcards.config import default_threads
from simcards.replay import play_reference
from simcards.runner import run_records
from simcards.batch import prepare

_FRESH = """
import time
t = time.perf_counter()
from simcards.batch import prepare, run_range
b = prepare({game!r}, {strategies!r}, 0)
run_range(b, 0, 1)
print(time.perf_counter() - t)
"""


def fresh_start_seconds(game: str, strategies: list[str]) -> float:
    """Seconds for a new Python process to import simcards, load the cached kernel and play a game."""
    code = _FRESH.format(game=game, strategies=strategies)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(done.stdout.strip().splitlines()[-1])


def _timed(fn):
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def _warm_up(batch, game: str, seed: int, reference_games: int) -> None:
    """One discarded pass over everything measured: a first call compiles or loads code
    (the kernel on each thread count, the strategies' numba helpers the reference engine
    calls), and that time must not land in a measured column."""
    for threads in sorted({1, default_threads()}):
        run_records(batch, 16, threads=threads)
    play_reference(game, batch.strategies, seed, reference_games, batch=batch)  # a game not timed


def bench(game: str, games: int = 200_000, reference_games: int = 200, players: int = 4,
          strategy: str = "", seed: int = 0, strategy_dirs=()) -> dict:
    batch = prepare(game, [strategy] * players, seed, strategy_dirs=strategy_dirs)
    unit = batch.spec.step_column
    col = list(batch.spec.game_columns).index(unit)
    t = time.perf_counter()
    batch.kernel()                      # compiles, or loads from numba's cache
    load_s = time.perf_counter() - t
    _warm_up(batch, game, seed, reference_games)
    rows = []
    for label, threads in (("fast, 1 core", 1), (f"fast, {default_threads()} cores", default_threads())):
        (_, game_out), wall, cpu = _timed(lambda: run_records(batch, games, threads=threads))
        steps = int(game_out[:, col].sum())
        rows.append({"engine": label, "games": games, "seconds": wall, "cpu_seconds": cpu,
                     "steps": steps})
    steps = 0

    def reference():
        nonlocal steps
        for g in range(reference_games):
            ref, _ = play_reference(game, batch.strategies, seed, g, batch=batch)
            steps += ref.result()[1][col]

    _, wall, cpu = _timed(reference)
    rows.append({"engine": "reference (Python)", "games": reference_games, "seconds": wall,
                 "cpu_seconds": cpu, "steps": steps})
    for row in rows:
        row["games_per_s"] = row["games"] / row["seconds"]
        row["ns_per_step"] = row["seconds"] / row["steps"] * 1e9
        # CPU time per step is what one core spends, whatever else the machine runs
        row["cpu_ns_per_step"] = row["cpu_seconds"] / row["steps"] * 1e9
    ref_rate, ref_cpu = rows[-1]["games_per_s"], rows[-1]["cpu_ns_per_step"]
    for row in rows:
        row["speedup"] = row["games_per_s"] / ref_rate
        row["cpu_speedup"] = ref_cpu / row["cpu_ns_per_step"]
    return {"rows": rows, "unit": unit.rstrip("s"), "steps_per_game": rows[0]["steps"] / games,
            "load_s": load_s, "load_average": os.getloadavg()[0],
            "fresh_start_s": fresh_start_seconds(game, list(batch.strategies))}
