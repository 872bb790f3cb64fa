"""Long runs: chunks of game indices on threads or a Dask cluster, kept in a run
folder so that an interrupted run resumes where it stopped.

A run is fully defined by ``RunSpec``; chunk k always covers the same game
indices and every game's random stream depends only on (seed, game index), so
the result is the same bit for bit whatever the backend, the number of threads
or workers, the order chunks finish in, or how often the run was interrupted.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

import numpy as np
import pandas as pd

from simcards.errors import SimcardsError
from simcards.outputs import holding_locks
from simcards.run.batch import Batch, frame_attrs, frame_builder
# a chunk and the two backends, each in a module of its own; their names are reachable from here
from simcards.run.chunk import Finish, Put, Task, _fault_injection, _kernels, play_chunk  # noqa: F401
from simcards.run.cluster import DaskBackend
from simcards.run.frame import FrameBuilder
from simcards.run.run_folder import MANIFEST, RunFolder, keeping_note, stored_chunk_size  # noqa: F401
from simcards.run.scheduler import (CLUSTER_TIMEOUT, _causes, _close_quietly, _needs_dask,  # noqa: F401
                                    cluster_timeout, connect_scheduler)
from simcards.run.spec import RunSpec  # noqa: F401 (also simcards.runner.RunSpec: its old home)
from simcards.run.threads import STOP_GRACE_S, ThreadBackend, _TimeUp, _windowed  # noqa: F401
from simcards.run.totals import Totals

ProgressFn = Callable[[int], None]


def backend_for(cluster: str | None = None, threads: int | None = None, workers: int | None = None):
    """``cluster``: None (threads here), ``local`` or a scheduler address; SIMCARDS_CLUSTER sets a default."""
    where = "cluster"
    if not cluster and os.environ.get("SIMCARDS_CLUSTER", "").strip():
        cluster, where = os.environ["SIMCARDS_CLUSTER"].strip(), "SIMCARDS_CLUSTER"
    if not cluster:
        return ThreadBackend(threads)
    if cluster != "local" and "://" not in cluster:
        raise SimcardsError(f"bad {where} {cluster!r}: expected 'local' or a scheduler address such as "
                            "tcp://host:8786")
    cluster_timeout()       # a bad $SIMCARDS_CLUSTER_TIMEOUT is found before the run, not at its end
    return DaskBackend(cluster, workers)


# ------------------------------------------------------------------ the run
@dataclass
class Rows:
    """A run whose games fill the rows of games ``game``.. of a FrameBuilder: its chunks are
    saved in ``run_dir`` when given (with ``order``: the seat order of a rotated run)."""

    run: RunSpec
    run_dir: str | Path | None = None
    game: int = 0
    order: int | None = None


def execute(run: RunSpec, backend=None, run_dir: str | Path | None = None, resume: bool = False,
            progress: ProgressFn | None = None) -> pd.DataFrame | Totals:
    """Play a run and return its frame (or its Totals when summary-only).

    With ``run_dir``, every finished chunk is saved there first; with ``resume``
    only the chunks missing from the folder are played."""
    backend = backend or ThreadBackend()
    with holding_locks():      # the run folder's lock, from its first read to its last part
        if run.summary_only:
            return _totals(run, backend, run_dir, resume, progress)
        batch = run.batch()
        builder = frame_builder(batch, run.n_games)
        play_rows(builder, [Rows(run, run_dir)], backend, resume, progress)
    return builder.frame(frame_attrs(batch))


def play_rows(builder: FrameBuilder, parts: Sequence[Rows], backend=None, resume: bool = False,
              progress: ProgressFn | None = None) -> None:
    """Play every run of ``parts`` into the builder's rows, all chunks on one backend.

    Each chunk's records become frame rows on the thread that played it, a slice at a time
    (and, with a run folder, its part is written there too), so the end of a run only wraps
    the columns."""
    backend = backend or ThreadBackend()
    tasks: list[Task] = []
    plans: list[tuple[Rows, RunFolder | None, np.ndarray]] = []   # per task
    folders: list[RunFolder] = []
    for part in parts:
        run = part.run
        folder = RunFolder(Path(part.run_dir), run, resume) if part.run_dir is not None else None
        folders += [folder] if folder else []
        done = folder.done() if folder else set()
        codes = builder.codes(run.batch().strategies)
        for index, first, count in run.chunks():
            if index in done:    # a chunk saved by an earlier try: its rows from the part
                builder.put_frame(part.game + first - run.start, folder.load(index), part.order)
            else:
                tasks.append((run, index, first, count))
                plans.append((part, folder, codes))
        if progress and done:
            progress(sum(c for i, _, c in run.chunks() if i in done))

    def put(i: int, first: int, seat_out: np.ndarray, game_out: np.ndarray) -> None:
        part, _, codes = plans[i]
        builder.put(part.game + first - part.run.start, seat_out, game_out, first, codes, part.order)

    def finish(i: int, _) -> None:
        (part, folder, _), (_, index, first, count) = plans[i], tasks[i]
        if folder:
            folder.save(index, builder.rows(part.game + first - part.run.start, count))

    def on_result(i: int, _) -> None:
        if progress:
            progress(tasks[i][3])

    if tasks:
        with keeping_note(folders):    # interrupted or a full disk: what is saved, how to finish
            backend.run(tasks, on_result, finish, put)


def _totals(run: RunSpec, backend, run_dir: str | Path | None, resume: bool,
            progress: ProgressFn | None) -> Totals:
    """A summary-only run: every chunk's totals, summed as they come (and saved in ``run_dir``)."""
    chunks = run.chunks()
    folder = RunFolder(Path(run_dir), run, resume) if run_dir is not None else None
    done = folder.done() if folder else set()
    if progress and done:
        progress(sum(c for i, _, c in chunks if i in done))
    total: Totals | None = None
    seen: set[int] = set()
    todo = [(run, *c) for c in chunks if c[0] not in done]

    def add(index: int, totals: Totals) -> None:
        # totals are summed as they come; a chunk is never counted twice
        nonlocal total
        if index not in seen:
            seen.add(index)
            total = totals if total is None else total.add(totals)

    def on_result(i: int, totals: Totals) -> None:
        _, index, _, count = todo[i]
        if folder:
            folder.save(index, totals)
        add(index, totals)
        if progress:
            progress(count)

    if todo:
        with keeping_note([folder] if folder else []):
            backend.run(todo, on_result)
    for index in sorted(done):
        add(index, folder.load(index))
    return total


def _records(run: RunSpec, backend, progress: ProgressFn | None = None
             ) -> tuple[np.ndarray, np.ndarray]:
    """All games of a run as kernel records, in memory."""
    batch = run.batch()
    seat_out = np.zeros((run.n_games, batch.n_players, batch.seat_width), np.int64)
    game_out = np.zeros((run.n_games, len(batch.spec.game_columns)), np.int64)
    tasks = [(run, *c) for c in run.chunks()]

    def on_result(i: int, result) -> None:
        _, _, first, count = tasks[i]
        lo = first - run.start
        seat_out[lo:lo + count], game_out[lo:lo + count] = result
        if progress:
            progress(count)

    backend.run(tasks, on_result)
    return seat_out, game_out


def run_records(batch: Batch, n_games: int, start: int = 0, threads: int | None = None,
                chunk_size: int | None = None, progress: ProgressFn | None = None
                ) -> tuple[np.ndarray, np.ndarray]:
    """All games of a batch as kernel records, in memory, on this machine's threads."""
    run = RunSpec.create(batch.spec.name, batch.strategies, n_games, batch.seed, batch.rules, start,
                         chunk_size, kernel_strategies=batch.names, strategy_dirs=batch.strategy_dirs,
                         threads=threads)
    return _records(run, ThreadBackend(threads), progress)
