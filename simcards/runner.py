"""Long runs: chunks of game indices on threads or a Dask cluster, kept in a run
folder so that an interrupted run resumes where it stopped.

A run is fully defined by ``RunSpec``; chunk k always covers the same game
indices and every game's random stream depends only on (seed, game index), so
the result is the same bit for bit whatever the backend, the number of threads
or workers, the order chunks finish in, or how often the run was interrupted.
"""
from __future__ import annotations

import functools
import json
import os
import threading
from collections import OrderedDict
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np
import pandas as pd

import simcards
from simcards.config import DEFAULT_CHUNK, RECORDS_SLICE, default_threads
from simcards.errors import SimcardsError
from simcards.batch import Batch, frame_attrs, frame_builder, prepare, run_range
from simcards.frame import FrameBuilder, write_parquet
from simcards.totals import Totals, totals_from_records
from simcards.validate import check_optional_counts, check_run_size

ProgressFn = Callable[[int], None]
MANIFEST = "manifest.json"


@dataclass(frozen=True)
class RunSpec:
    """Everything that decides a run's results; stored as the run folder's manifest."""

    game: str
    strategies: tuple[str, ...]
    seed: int
    rules: tuple[tuple[str, Any], ...]      # resolved, sorted
    start: int
    n_games: int
    chunk_size: int
    summary_only: bool
    kernel_strategies: tuple[str, ...] = ()
    strategy_dirs: tuple[str, ...] = ()     # absolute paths, so a worker finds the same files

    @classmethod
    def create(cls, game: str, strategies: Sequence[str], n_games: int, seed: int = 0,
               rules: Mapping[str, Any] | None = None, start: int = 0,
               chunk_size: int | None = None, summary_only: bool = False,
               kernel_strategies: Sequence[str] = (), strategy_dirs: Sequence[str] = (),
               threads: int | None = None) -> "RunSpec":
        """Validate everything before any game is played. ``threads`` only sizes the default
        chunk (results never depend on it)."""
        strategy_dirs = tuple(str(Path(d).expanduser().resolve()) for d in strategy_dirs)
        batch = prepare(game, strategies, seed, rules, kernel_strategies, strategy_dirs)
        if isinstance(n_games, bool) or not isinstance(n_games, (int, np.integer)) or n_games < 1:
            raise SimcardsError(f"bad number of games {n_games!r}: expected a positive integer")
        if chunk_size is not None and (not isinstance(chunk_size, (int, np.integer)) or chunk_size < 1):
            raise SimcardsError(f"bad chunk size {chunk_size!r}: expected a positive integer")
        if not isinstance(start, (int, np.integer)) or start < 0:
            raise SimcardsError(f"bad first game index {start!r}: expected 0 or more")
        check_optional_counts(threads=threads)
        check_run_size(batch.spec, len(batch.strategies), start, n_games, summary_only, batch.rules)
        if chunk_size is None:
            # one chunk per thread for small runs, so that every thread has work
            chunk_size = min(DEFAULT_CHUNK, max(1, -(-int(n_games) // (threads or default_threads()))))
        run = cls(batch.spec.name, batch.strategies, batch.seed, tuple(sorted(batch.rules.items())),
                  int(start), int(n_games), int(chunk_size), bool(summary_only),
                  tuple(sorted(set(kernel_strategies))), strategy_dirs)
        _keep_batch(run, batch)     # the run's own batch: validated once, not again at its first chunk
        return run

    def chunks(self) -> list[tuple[int, int, int]]:
        """(chunk index, first game index, games) for every chunk of the run."""
        return [(i, self.start + lo, min(self.chunk_size, self.n_games - lo))
                for i, lo in enumerate(range(0, self.n_games, self.chunk_size))]

    def batch(self) -> Batch:
        return _batch(self)

    def to_json(self) -> dict:
        d = asdict(self)
        d["strategies"] = list(self.strategies)
        d["rules"] = dict(self.rules)
        d["kernel_strategies"] = list(self.kernel_strategies)
        d["strategy_dirs"] = list(self.strategy_dirs)
        return d

    @classmethod
    def from_json(cls, d: dict) -> "RunSpec":
        return cls(d["game"], tuple(d["strategies"]), d["seed"], tuple(sorted(d["rules"].items())),
                   d["start"], d["n_games"], d["chunk_size"], d["summary_only"],
                   tuple(d.get("kernel_strategies", ())), tuple(d.get("strategy_dirs", ())))


#: The batches of the last runs (a rotated run has up to 24 seat orders), for their chunks: the
#: batch ``RunSpec.create`` validated, or, in another process (a Dask worker), one prepared there.
#: Preparing it a second time took a fifth of a small ``simulate`` call (0.15 of 0.73 ms).
_BATCHES: OrderedDict[RunSpec, Batch] = OrderedDict()
_BATCHES_KEPT = 64
_batches_lock = threading.Lock()


def _keep_batch(run: RunSpec, batch: Batch) -> None:
    with _batches_lock:
        _BATCHES[run] = batch
        _BATCHES.move_to_end(run)
        while len(_BATCHES) > _BATCHES_KEPT:
            _BATCHES.popitem(last=False)


def _batch(run: RunSpec) -> Batch:
    with _batches_lock:
        batch = _BATCHES.get(run)
    if batch is None:
        batch = prepare(run.game, run.strategies, run.seed, dict(run.rules), run.kernel_strategies,
                        run.strategy_dirs)
        _keep_batch(run, batch)
    return batch


def play_chunk(run: RunSpec, index: int, first: int, count: int,
               put: Callable[[int, np.ndarray, np.ndarray], None] | None = None):
    """One chunk, wherever it runs (a thread here, a Dask worker elsewhere):
    kernel records, or running totals for a summary-only run.

    With ``put`` (a thread of this process), the records go to ``put(first, seat_out,
    game_out)`` a slice of ``RECORDS_SLICE`` games at a time, while they are still in the
    core's cache, and None is returned."""
    _fault_injection(index)
    batch = run.batch()
    if put is not None:
        for lo in range(first, first + count, RECORDS_SLICE):
            put(lo, *run_range(batch, lo, min(RECORDS_SLICE, first + count - lo)))
        return None
    seat_out, game_out = run_range(batch, first, count)
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


# ------------------------------------------------------------------ backends
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


class ThreadBackend:
    """Chunks on threads of this process (the kernels release the GIL)."""

    def __init__(self, threads: int | None = None):
        self.threads = threads or default_threads()

    def run(self, tasks: Sequence[Task], on_result: Callable[[int, Any], None],
            finish: Finish | None = None, put: Put | None = None) -> None:
        """Play every task; ``on_result(position, result)`` on this thread as each one ends."""
        _kernels(tasks)

        def work(i: int):
            result = play_chunk(*tasks[i], put=functools.partial(put, i) if put else None)
            return finish(i, result) if finish else result

        if self.threads == 1 or len(tasks) == 1:
            for i in range(len(tasks)):
                on_result(i, work(i))
            return
        with ThreadPoolExecutor(max_workers=self.threads) as pool:
            _windowed(len(tasks), lambda i: pool.submit(work, i), 2 * self.threads, on_result)


def _windowed(n_tasks: int, submit: Callable[[int], Future], window: int,
              on_result: Callable[[int, Any], None]) -> None:
    """Keep at most ``window`` tasks in flight, so memory does not grow with the run.

    Tasks are submitted in order; after a failure nothing new is submitted and
    the tasks in flight finish, so every task before the failing one has run
    and the failure raised is that of the lowest task, whatever the timing."""
    todo = iter(range(n_tasks))
    inflight: dict[Future, int] = {}
    failures: dict[int, BaseException] = {}

    def submit_next() -> None:
        for i in todo:
            inflight[submit(i)] = i
            return

    for _ in range(window):
        submit_next()
    while inflight:
        done, _ = wait(list(inflight), return_when=FIRST_COMPLETED)
        for fut in done:
            i = inflight.pop(fut)
            exc = fut.exception()
            if exc is not None:
                failures[i] = exc
            else:
                on_result(i, fut.result())
            if not failures:
                submit_next()
    if failures:
        raise failures[min(failures)]


class DaskBackend:
    """Chunks as tasks on a dask.distributed cluster: an existing scheduler
    (``tcp://host:8786``) or ``local`` (a LocalCluster on this machine)."""

    def __init__(self, address: str, workers: int | None = None):
        self.address = address
        self.workers = workers

    def run(self, tasks: Sequence[Task], on_result: Callable[[int, Any], None],
            finish: Finish | None = None, put: Put | None = None) -> None:
        """As ThreadBackend.run; ``put`` and ``finish`` run here, as each chunk's records arrive."""
        try:
            from dask.distributed import Client, LocalCluster, as_completed
        except ImportError:
            raise SimcardsError("--cluster needs dask.distributed: pip install 'simcards[dask]'") from None
        _kernels(tasks)  # fill the numba cache before workers start loading it
        cluster = None
        if self.address == "local":
            cluster = LocalCluster(n_workers=self.workers or default_threads(), threads_per_worker=1,
                                   processes=True, dashboard_address=None)
            client = Client(cluster)
        else:
            try:
                client = Client(self.address, timeout="10s")
            except OSError as exc:
                raise SimcardsError(f"cannot reach the Dask scheduler {self.address!r}: {exc}") from None
        try:
            # a bounded number of tasks on the scheduler at once: memory stays flat on both sides
            window = 4 * max(1, len(client.scheduler_info().get("workers", {})) or (self.workers or 2))
            todo = iter(range(len(tasks)))
            futures: dict = {}

            def submit_next():
                for i in todo:
                    run, index, first, count = tasks[i]
                    fut = client.submit(play_chunk, run, index, first, count, pure=False,
                                        key=f"simcards-chunk-{index}-{first}-{count}-{id(run)}")
                    futures[fut] = i
                    return fut
                return None

            queue = as_completed([f for f in (submit_next() for _ in range(window)) if f is not None])
            for fut in queue:
                i = futures.pop(fut)
                result = fut.result()   # a failed chunk raises here
                if put:
                    put(i, tasks[i][2], *result)
                    result = None
                on_result(i, finish(i, result) if finish else result)
                fut.release()
                nxt = submit_next()
                if nxt is not None:
                    queue.add(nxt)
        finally:
            client.close()
            if cluster is not None:
                cluster.close()


def backend_for(cluster: str | None = None, threads: int | None = None, workers: int | None = None):
    """``cluster``: None (threads here), ``local`` or a scheduler address; SIMCARDS_CLUSTER sets a default."""
    cluster = cluster or os.environ.get("SIMCARDS_CLUSTER") or None
    if cluster is None:
        return ThreadBackend(threads)
    if cluster != "local" and "://" not in cluster:
        raise SimcardsError(f"bad cluster {cluster!r}: expected 'local' or a scheduler address such as "
                            "tcp://host:8786")
    return DaskBackend(cluster, workers)


# ------------------------------------------------------------------ run folders
class RunFolder:
    """``manifest.json`` (the RunSpec and the package version) and one part per finished chunk:
    ``parts/chunk-000012.parquet`` (rows) or ``.json`` (totals). A part is written to a
    temporary name and renamed, so a part on disk is always complete."""

    def __init__(self, path: Path, run: RunSpec, resume: bool):
        self.path = Path(path)
        self.run = run
        manifest = self.path / MANIFEST
        if manifest.exists():
            if not resume:
                raise SimcardsError(f"run folder {str(self.path)!r} already holds a run: "
                                    "add --resume to finish it, or choose another folder")
            stored = json.loads(manifest.read_text())["run"]
            mine = run.to_json()
            differ = sorted(k for k in mine if stored.get(k) != mine[k])
            if differ:
                raise SimcardsError(f"cannot resume {str(self.path)!r}: the run differs in "
                                    f"{', '.join(differ)} (stored {', '.join(f'{k}={stored.get(k)!r}' for k in differ)})")
        else:
            (self.path / "parts").mkdir(parents=True, exist_ok=True)
            _write_atomic(manifest, json.dumps({"run": run.to_json(), "version": simcards.__version__,
                                                "chunks": len(run.chunks())}, indent=2))
        (self.path / "parts").mkdir(parents=True, exist_ok=True)

    def part(self, index: int) -> Path:
        return self.path / "parts" / f"chunk-{index:06d}.{'json' if self.run.summary_only else 'parquet'}"

    def done(self) -> set[int]:
        return {i for i, _, _ in self.run.chunks() if self.part(i).exists()}

    def save(self, index: int, result) -> None:
        if self.run.summary_only:
            _write_atomic(self.part(index), json.dumps(result.to_dict()))
        else:
            tmp = self.part(index).with_suffix(".tmp")
            write_parquet(result, tmp)
            os.replace(tmp, self.part(index))

    def load(self, index: int):
        if self.run.summary_only:
            return Totals.from_dict(json.loads(self.part(index).read_text()))
        return pd.read_parquet(self.part(index))


def stored_chunk_size(run_dir: str | Path | None) -> int | None:
    """The chunk size of the run saved in ``run_dir``, if any: a resumed run keeps its chunks
    whatever the threads now (the default chunk size depends on them)."""
    manifest = Path(run_dir) / MANIFEST if run_dir is not None else None
    if manifest is None or not manifest.is_file():
        return None
    try:
        return int(json.loads(manifest.read_text())["run"]["chunk_size"])
    except (ValueError, KeyError, TypeError):
        return None


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


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
    for part in parts:
        run = part.run
        folder = RunFolder(Path(part.run_dir), run, resume) if part.run_dir is not None else None
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
