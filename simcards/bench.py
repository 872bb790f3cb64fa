"""``simcards bench``: measured speed of the fast engine against the reference engine."""
from __future__ import annotations

import subprocess
import sys
import time

from simcards.config import default_threads
from simcards.replay import play_reference
from simcards.runner import run_records
from simcards.simulate import prepare

_FRESH = """
import time, numpy as np
t = time.perf_counter()
from simcards.simulate import prepare, run_range
b = prepare({game!r}, {strategies!r}, 0)
run_range(b, 0, 1)
print(time.perf_counter() - t)
"""


def fresh_start_seconds(game: str, strategies: list[str]) -> float:
    """Seconds for a new Python process to import simcards, load the cached kernel and play a game."""
    code = _FRESH.format(game=game, strategies=strategies)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(done.stdout.strip().splitlines()[-1])


def bench(game: str, games: int = 200_000, reference_games: int = 200, players: int = 4,
          strategy: str = "", seed: int = 0) -> dict:
    batch = prepare(game, [strategy] * players, seed)
    unit = batch.spec.extra.get("step_column", "turns")
    col = list(batch.spec.game_columns).index(unit)
    t = time.perf_counter()
    batch.kernel()
    run_records(batch, 16, threads=1)  # the first call compiles or loads from cache
    load_s = time.perf_counter() - t
    rows = []
    for label, threads in (("fast, 1 core", 1), (f"fast, {default_threads()} cores", default_threads())):
        t = time.perf_counter()
        _, game_out = run_records(batch, games, threads=threads)
        dt = time.perf_counter() - t
        steps = int(game_out[:, col].sum())
        rows.append({"engine": label, "games": games, "seconds": dt, "games_per_s": games / dt,
                     "ns_per_step": dt / steps * 1e9, "steps": steps})
    t = time.perf_counter()
    steps = 0
    for g in range(reference_games):
        ref, _ = play_reference(game, batch.strategies, seed, g, batch=batch)
        steps += ref.result()[1][col]
    dt = time.perf_counter() - t
    rows.append({"engine": "reference (Python)", "games": reference_games, "seconds": dt,
                 "games_per_s": reference_games / dt, "ns_per_step": dt / steps * 1e9, "steps": steps})
    ref_rate = rows[-1]["games_per_s"]
    for row in rows:
        row["speedup"] = row["games_per_s"] / ref_rate
    return {"rows": rows, "unit": unit.rstrip("s"),
            "steps_per_game": rows[0]["steps"] / games, "load_s": load_s,
            "fresh_start_s": fresh_start_seconds(game, list(batch.strategies))}
