"""``simcards bench --against DIR``: the same run timed on this code and on another checkout, in turns.

The saved figures of the previous release (simcards.bench_release) were timed on another day,
and this machine's speed drifts by 10-20% from hour to hour: a ratio against them carries that
drift. Timed side by side, one process at a time and alternated (this code, the other, this
code...), both versions meet the same hours, so the ratio of their medians measures the code.
``DIR`` is any checkout of simcards, such as ``git worktree add ../release v0.1.0``.

Each timing is a fresh process (``sys.executable``) that plays a warm-up, then times
``simulate(game, strategies, games, seed, threads=1)`` (kernel and frame, one core) in CPU
seconds, and counts the steps (turns or actions) of its own frame: a version that draws its
cards differently plays other games of the same seed, with other step counts, so each version
is divided by its own. It times ``simulate`` once more on the same games, its frame now written
into memory the process has touched before (the release's int64 frame, seven times this code's,
paid this machine's first touch of fresh memory many times over: Thirty-One's first simulate
read 95-110 ns a turn in an hour when its second read 56-60). It then times the kernel alone on
the same games (``run_records``: the kernel's int64 records, no frame; what the release's own
bench timed), to tell the engine's speed from the frame's; and once more into arrays written before, chunk by chunk: the engine
alone, without the first touch of fresh memory, whose cost on this project's machines swings from
hour to hour (a perf profile of ``run_records`` found a quarter of its time in the kernel's
``clear_page_erms`` some hours).
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Callable, Sequence

from simcards.errors import SimcardsError

#: The measurement, run by either version's Python (only ``simcards.simulate``, the frame's
#: ``game`` and step columns, ``batch.prepare`` and ``runner.run_records`` are assumed, as every
#: release has them). Imported by their old names (simcards.batch, not simcards.run.batch): a
#: release from before the packages by layer has those alone, and this version keeps them.
_MEASURE = """
import json, sys, time
import simcards
from simcards.batch import prepare
from simcards.runner import run_records
a = json.loads(sys.argv[1])
# the warm-ups play no more games than are timed: a search line-up takes a tenth of a second a game
warm = min(2000, a["games"])
simcards.simulate(a["game"], a["strategies"], warm, a["seed"], threads=1)     # compile or load, warm up
cpu = time.process_time()
frame = simcards.simulate(a["game"], a["strategies"], a["games"], a["seed"], threads=1)
cpu = time.process_time() - cpu
steps = int(frame.groupby("game")[a["column"]].first().sum())
# the same games again, into memory this process has touched before: a process's first touch of
# fresh memory costs this project's machine more in some hours than in others, and costs a version
# with a larger frame more
del frame
again_cpu = time.process_time()
frame = simcards.simulate(a["game"], a["strategies"], a["games"], a["seed"], threads=1)
again_cpu = time.process_time() - again_cpu
again_steps = int(frame.groupby("game")[a["column"]].first().sum())
del frame
batch = prepare(a["game"], a["strategies"], a["seed"])
run_records(batch, warm, threads=1)                                             # warm up
kernel_cpu = time.process_time()
_, game_out = run_records(batch, a["games"], threads=1)
kernel_cpu = time.process_time() - kernel_cpu
col = list(batch.spec.game_columns).index(a["column"])
kernel_steps = int(game_out[:, col].sum())
# the kernel again on the same games, chunk by chunk into the same arrays, touched before:
# no fresh memory (its first touch costs this machine more some hours than others)
import inspect
import numpy as np
from simcards.kernels import STATUS_SIZE
kernel = batch.kernel(check=False)
size = min(a["games"], 10_000)
seat_out = np.ones((size, batch.n_players, batch.seat_width), np.int64)
game_out = np.ones((size, len(batch.spec.game_columns)), np.int64)
status = np.zeros(STATUS_SIZE, np.int64)
named = inspect.signature(kernel.play_batch.py_func).parameters
extra = (batch.strategy_params,) if "sparams" in named else ()                  # (the release has none)
stop = (np.zeros(1, np.int64),) if "stop" in named else ()                      # (nor a stop flag)
def play(first, count):
    kernel.play_batch(batch.seed, first, count, batch.sids, batch.params, *extra, seat_out[:count],
                      game_out[:count], status, *stop)
play(0, size)                                                                   # warm up
warm_cpu = 0.0
warm_steps = 0
for first in range(0, a["games"], size):
    count = min(size, a["games"] - first)
    t = time.process_time()
    play(first, count)
    warm_cpu += time.process_time() - t
    warm_steps += int(game_out[:count, col].sum())
print(json.dumps({"simcards": simcards.__file__, "cpu_seconds": cpu, "steps": steps,
                  "again_cpu_seconds": again_cpu, "again_steps": again_steps,
                  "kernel_cpu_seconds": kernel_cpu, "kernel_steps": kernel_steps,
                  "warm_cpu_seconds": warm_cpu, "warm_steps": warm_steps}))
"""
#: The measures, by key prefix: simulate; simulate again into warm memory; the kernel alone
#: (``run_records``); the kernel into warm memory.
MEASURES = ("", "again_", "kernel_", "warm_")
THIS = "this code"
#: Timings of each version by default.
ROUNDS = 3


def checkout(folder: Path) -> Path:
    """``folder`` if it holds a simcards checkout (``simcards/`` and ``strategies/``), else a
    SimcardsError naming it."""
    folder = Path(folder).expanduser().resolve()
    for part in ("simcards/__init__.py", "strategies/__init__.py"):
        if not (folder / part).is_file():
            raise SimcardsError(f"--against {str(folder)!r} is not a simcards checkout (no {part}): "
                                "give the root of one, such as a `git worktree add` of a release")
    return folder


def _environment(folder: Path | None, shim: Path) -> dict[str, str]:
    """The environment of a timing process: unchanged for this code; for a checkout, its
    ``simcards`` first on the path and its ``strategies`` folder as ``simcards_strategies``
    (how pyproject.toml installs it), through a link in ``shim``."""
    env = dict(os.environ)
    if folder is not None:
        link = shim / "simcards_strategies"
        if not link.exists():
            link.symlink_to(folder / "strategies", target_is_directory=True)
        env["PYTHONPATH"] = os.pathsep.join([str(folder), str(shim)] +
                                            ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    return env


def time_once(folder: Path | None, shim: Path, game: str, strategies: Sequence[str], games: int,
              seed: int, column: str) -> dict:
    """One timing process of this code (``folder`` None) or of the checkout ``folder``. It runs
    in ``shim``'s empty sibling folder, so that neither the shim nor a folder the command was
    started from comes first on its path."""
    arg = json.dumps({"game": game, "strategies": list(strategies), "games": games, "seed": seed,
                      "column": column})
    done = subprocess.run([sys.executable, "-c", _MEASURE, arg], capture_output=True, text=True,
                          env=_environment(folder, shim), cwd=shim.parent / "cwd")
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        who = THIS if folder is None else str(folder)
        raise SimcardsError(f"timing {who} failed: {last}")
    out = json.loads(done.stdout.strip().splitlines()[-1])
    for prefix in MEASURES:
        out[f"{prefix}cpu_ns_per_step"] = out[f"{prefix}cpu_seconds"] / out[f"{prefix}steps"] * 1e9
    return out


def side_by_side(game: str, strategies: Sequence[str], games: int, seed: int, column: str,
                 against: Path, rounds: int = ROUNDS,
                 progress: Callable[[int, int], None] | None = None) -> dict:
    """Time this code and the checkout ``against`` in turns, ``rounds`` times each.

    Returns
    -------
    dict
        ``rounds``: one dict per round with both timings (``this``, ``other``: CPU seconds,
        steps, CPU ns per step, the same of the kernel alone prefixed ``kernel_``, and the
        ``simcards`` file each imported, to show which code ran); ``this_median``,
        ``other_median``: the medians of CPU ns per step; ``ratio``: the other's median over
        this one's (above 1: this code is faster); ``kernel_this_median``,
        ``kernel_other_median`` and ``kernel_ratio``: the same of the kernel alone; ``again_...``:
        of simulate timed a second time, into memory touched before; ``warm_...``:
        of the kernel alone writing over arrays it wrote before (the engine without the cost of
        fresh memory).
    """
    if rounds < 1:
        raise SimcardsError(f"--rounds {rounds}: give 1 or more")
    folder = checkout(against)
    out = []
    with tempfile.TemporaryDirectory(prefix="simcards-against-") as tmp:
        shim = Path(tmp) / "path"
        shim.mkdir()
        (Path(tmp) / "cwd").mkdir()
        for r in range(rounds):
            this = time_once(None, shim, game, strategies, games, seed, column)
            other = time_once(folder, shim, game, strategies, games, seed, column)
            out.append({"this": this, "other": other})
            if progress:
                progress(r + 1, rounds)
    result = {"rounds": out, "against": str(folder), "load_average": os.getloadavg()[0]}
    for prefix in MEASURES:
        this_median = statistics.median(r["this"][f"{prefix}cpu_ns_per_step"] for r in out)
        other_median = statistics.median(r["other"][f"{prefix}cpu_ns_per_step"] for r in out)
        result.update({f"{prefix}this_median": this_median, f"{prefix}other_median": other_median,
                       f"{prefix}ratio": other_median / this_median})
    return result
