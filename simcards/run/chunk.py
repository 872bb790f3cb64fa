"""One chunk of a run, wherever it is played (a thread here, a Dask worker elsewhere), and the
shapes of what a backend is handed: the tasks, and where their results and records go."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from simcards.compiled.config import RECORDS_SLICE
from simcards.run.play import run_range
from simcards.run.spec import RunSpec
from simcards.run.totals import totals_from_records


def play_chunk(run: RunSpec, index: int, first: int, count: int,
               put: Callable[[int, np.ndarray, np.ndarray], None] | None = None,
               stop: np.ndarray | None = None):
    """One chunk, wherever it runs (a thread here, a Dask worker elsewhere):
    kernel records, or running totals for a summary-only run.

    With ``put`` (a thread of this process), the records go to ``put(first, seat_out,
    game_out)`` a slice of ``RECORDS_SLICE`` games at a time, while they are still in the
    core's cache, and None is returned. ``stop``: the run's stop flag (simcards.batch.run_range)."""
    _fault_injection(index)
    batch = run.batch()
    if put is not None:
        for lo in range(first, first + count, RECORDS_SLICE):
            put(lo, *run_range(batch, lo, min(RECORDS_SLICE, first + count - lo), stop))
        return None
    seat_out, game_out = run_range(batch, first, count, stop)
    if run.summary_only:
        return totals_from_records(batch.spec, batch.strategies, seat_out, game_out)
    return seat_out, game_out


def _fault_injection(index: int) -> None:
    """Tests kill a worker on its first try of one chunk: SIMCARDS_CRASH_ONCE=<folder>:<chunk>.
    Every try is logged in the folder, so a test can count them."""
    spec = os.environ.get("SIMCARDS_CRASH_ONCE")
    if not spec:
        return
    folder, _, chunk = spec.rpartition(":")
    if int(chunk) != index:
        return
    log = Path(folder) / f"tries-{index}.log"
    first_try = not log.exists()
    with open(log, "a") as fh:
        fh.write(f"{os.getpid()}\n")
    if first_try:
        os._exit(1)


#: A unit of work: (run, chunk index, first game index, games).
Task = tuple[RunSpec, int, int, int]


#: ``finish(position, result)``: what becomes of a chunk's result where it was played (on the
#: worker thread of a ThreadBackend; on this process's main thread for a Dask cluster).
Finish = Callable[[int, Any], Any]


#: ``put(position, first, seat_out, game_out)``: the kernel records of a task's games first..,
#: where they were played (a slice at a time on a ThreadBackend's thread; a whole chunk on
#: this process's main thread for a Dask cluster); ``finish`` then gets None for the task.
Put = Callable[[int, int, np.ndarray, np.ndarray], None]


def _kernels(tasks: Sequence[Task]) -> None:
    """Compile or load every run's kernel once, before any thread or worker starts."""
    for run in dict.fromkeys(t[0] for t in tasks):
        run.batch().kernel()
