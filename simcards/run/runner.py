"""Long runs: chunks of game indices on threads or a Dask cluster, kept in a run
folder so that an interrupted run resumes where it stopped.

A run is fully defined by ``RunSpec``; chunk k always covers the same game
indices and every game's random stream depends only on (seed, game index), so
the result is the same bit for bit whatever the backend, the number of threads
or workers, the order chunks finish in, or how often the run was interrupted.
"""
from __future__ import annotations

import functools
import os
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np
import pandas as pd

from simcards.compiled.config import RECORDS_SLICE, default_threads
from simcards.errors import SimcardsError, TimeLimitError
from simcards.run.batch import (Batch, check_time_limit, describe_strategies, frame_attrs, frame_builder,
                            new_stop_flag)
from simcards.run.play import run_range
from simcards.run.frame import FrameBuilder
from simcards.outputs import holding_locks
from simcards.run.totals import Totals, totals_from_records
from simcards.run.run_folder import MANIFEST, RunFolder, keeping_note, stored_chunk_size  # noqa: F401
from simcards.run.spec import RunSpec  # noqa: F401 (also simcards.runner.RunSpec: its old home)

ProgressFn = Callable[[int], None]


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


#: Seconds the threads of a stopped run (SIGINT, SIGTERM, a time limit) get to reach the end of
#: the game they play, where the kernel reads the run's stop flag; a decision that never returns
#: never reads it, and the run is given up without it (the CLI then leaves: simcards.cli.program).
STOP_GRACE_S = 1.0


class _TimeUp(Exception):
    """The run's time limit passed (ThreadBackend turns it into a TimeLimitError naming the strategies)."""


class ThreadBackend:
    """Chunks on threads of this process (the kernels release the GIL).

    The chunks run on worker threads, never on the main thread, which waits for them where a
    signal reaches it: on SIGINT or SIGTERM (a KeyboardInterrupt there), or when ``time_limit``
    seconds of play have passed, the run's stop flag is set, each kernel returns after the game
    it plays, and the chunks finished before are kept (a run folder's parts included).
    ``time_limit`` counts from the first game, not the compile, over every ``run`` of this
    backend (a rotated run's seat orders together)."""

    def __init__(self, threads: int | None = None, time_limit: float | None = None):
        self.threads = threads or default_threads()
        self.time_limit = check_time_limit(time_limit)
        self._deadline: float | None = None

    def run(self, tasks: Sequence[Task], on_result: Callable[[int, Any], None],
            finish: Finish | None = None, put: Put | None = None) -> None:
        """Play every task; ``on_result(position, result)`` on this thread as each one ends."""
        _kernels(tasks)
        if self.time_limit is not None and self._deadline is None:
            self._deadline = time.monotonic() + self.time_limit
        stop = new_stop_flag()

        def work(i: int):
            result = play_chunk(*tasks[i], put=functools.partial(put, i) if put else None, stop=stop)
            return finish(i, result) if finish else result

        if ((self.threads == 1 or len(tasks) == 1) and self._deadline is None
                and threading.current_thread() is not threading.main_thread()):
            for i in range(len(tasks)):      # no signal reaches this thread: nothing to wait for
                on_result(i, work(i))
            return
        pool = ThreadPoolExecutor(max_workers=min(self.threads, len(tasks)) or 1)
        futures: list[Future] = []

        def submit(i: int) -> Future:
            futures.append(pool.submit(work, i))
            return futures[-1]

        try:
            _windowed(len(tasks), submit, 2 * self.threads, on_result, self._deadline)
        except BaseException as exc:
            # stop the kernels between games and keep what finished; give the threads a moment
            stop[0] = 1
            pool.shutdown(wait=False, cancel_futures=True)
            wait([f for f in futures if not f.done()], timeout=STOP_GRACE_S)
            if isinstance(exc, _TimeUp):
                infos = {i.name: i for run in dict.fromkeys(t[0] for t in tasks) for i in run.batch().infos}
                raise TimeLimitError(
                    f"the run did not finish within its time limit of {self.time_limit:g} s; "
                    f"a strategy may never return: {describe_strategies(list(infos.values()))}") from None
            raise
        pool.shutdown(wait=True)


def _windowed(n_tasks: int, submit: Callable[[int], Future], window: int,
              on_result: Callable[[int, Any], None], deadline: float | None = None) -> None:
    """Keep at most ``window`` tasks in flight, so memory does not grow with the run.

    Tasks are submitted in order; after a failure nothing new is submitted and
    the tasks in flight finish, so every task before the failing one has run
    and the failure raised is that of the lowest task, whatever the timing.
    Past ``deadline`` (``time.monotonic()``), _TimeUp is raised."""
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
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            raise _TimeUp()
        done, _ = wait(list(inflight), timeout=left, return_when=FIRST_COMPLETED)
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
        self._reached = None        # (client, workers) of a scheduler reached before the run

    def reach(self) -> None:
        """Shake hands with a scheduler's address now, within its deadline (``connect_scheduler``),
        so that a wrong address fails before the command writes anything; ``run`` then plays on
        this client (and closes it). Nothing to do for ``local``."""
        if self.address != "local" and self._reached is None:
            _needs_dask()
            self._reached = connect_scheduler(self.address, cluster_timeout())

    def run(self, tasks: Sequence[Task], on_result: Callable[[int, Any], None],
            finish: Finish | None = None, put: Put | None = None) -> None:
        """As ThreadBackend.run; ``put`` and ``finish`` run here, as each chunk's records arrive."""
        _needs_dask()
        from dask.distributed import Client, LocalCluster, as_completed
        cluster = None
        if self.address == "local":
            _kernels(tasks)  # fill the numba cache before workers start loading it
            cluster = LocalCluster(n_workers=self.workers or default_threads(), threads_per_worker=1,
                                   processes=True, dashboard_address=None)
            client = Client(cluster)
            workers = len(client.scheduler_info().get("workers", {}))
        else:
            # the scheduler first: a wrong address fails within the deadline, before any compile
            reached, self._reached = self._reached, None
            client, workers = reached or connect_scheduler(self.address, cluster_timeout())
            try:
                _kernels(tasks)
            except BaseException:
                client.close()
                raise
        try:
            # a bounded number of tasks on the scheduler at once: memory stays flat on both sides
            window = 4 * max(1, workers or (self.workers or 2))
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


#: Seconds the whole handshake with a Dask scheduler may take (TCP connect, Dask's handshake,
#: the scheduler's answer about its workers); $SIMCARDS_CLUSTER_TIMEOUT sets another.
CLUSTER_TIMEOUT = 10.0


def cluster_timeout() -> float:
    """The handshake's deadline: ``CLUSTER_TIMEOUT``, or $SIMCARDS_CLUSTER_TIMEOUT seconds."""
    text = os.environ.get("SIMCARDS_CLUSTER_TIMEOUT", "").strip()
    if not text:
        return CLUSTER_TIMEOUT
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value <= 3600:
        raise SimcardsError(f"bad SIMCARDS_CLUSTER_TIMEOUT {text!r}: expected seconds, a number "
                            "above 0 and at most 3600")
    return value


def connect_scheduler(address: str, timeout: float):
    """A dask.distributed Client of the scheduler at ``address`` and its number of workers, or
    a one-line SimcardsError within ``timeout`` seconds (plus one for the thread to report).

    distributed's own ``timeout`` covers the TCP connect only: its handshake reads without
    one, so a port that accepts and never answers waited forever, and one that answers HTTP
    had its first bytes read as a frame length ("MemoryError: Unable to allocate 3.07 EiB").
    So the whole handshake runs on a daemon thread that is given up at the deadline: first a
    bare comm asks the server who it is (Dask's ``identity``), with no Client to leave behind
    half made; then, to a scheduler, the Client connects (one it makes after the deadline is
    closed there)."""
    import asyncio
    import time
    box: dict = {}
    given_up = threading.Event()
    deadline = time.monotonic() + timeout

    async def identity() -> dict:
        from distributed.comm import connect
        comm = await connect(address, timeout=timeout)      # TCP connect and Dask's handshake
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    def refused() -> bool:
        # a closed port answers at once, but distributed retries a refused connect until its
        # timeout, which then raced the handshake's and read as a port that never answers
        import socket
        from urllib.parse import urlsplit
        parts = urlsplit(address)
        try:
            host, port = parts.hostname, parts.port
        except ValueError:
            return False
        if parts.scheme not in ("tcp", "tls") or not host or not port:
            return False
        try:
            socket.create_connection((host, port), timeout=timeout).close()
        except ConnectionRefusedError as exc:
            box["error"] = (exc, [exc])
            return True
        except OSError:
            pass                              # distributed's connect reports the rest
        return False

    def handshake() -> None:
        if refused():
            return
        try:
            who = asyncio.run(asyncio.wait_for(identity(), timeout))
            kind = who.get("type") if isinstance(who, dict) else None
            if kind != "Scheduler":
                box["other"] = kind if isinstance(kind, str) and kind else None
                return
            from dask.distributed import Client
            client = Client(address, timeout=max(0.5, deadline - time.monotonic()))
            box["workers"] = len(client.scheduler_info().get("workers", {}))
            box["client"] = client
            if given_up.is_set():
                _close_quietly(client)
        except asyncio.TimeoutError:
            pass                              # reported below as never answering
        except BaseException as exc:          # MemoryError included: reported below, not raised here
            box["error"] = (exc, list(_causes(exc)))

    thread = threading.Thread(target=handshake, name="simcards-dask-handshake", daemon=True)
    thread.start()
    thread.join(timeout + 1.0)
    given_up.set()
    if "client" in box:
        return box["client"], box["workers"]
    head = f"cannot reach the Dask scheduler {address!r} within {timeout:g} s: "
    if "other" in box:
        who = f"a Dask {box['other'].lower()} answered there" if box["other"] else "it answered"
        raise SimcardsError(head + f"{who}, not a scheduler: expected the scheduler's address "
                            "(tcp://host:8786)")
    if "error" not in box:
        raise SimcardsError(head + "it accepted the connection but never answered as a Dask "
                            "scheduler (another service on that port, or a scheduler that hangs?)")
    exc, causes = box["error"]
    if isinstance(exc, OSError):
        if any(isinstance(e, ConnectionRefusedError) for e in causes):
            raise SimcardsError(head + "nothing listens there (connection refused)")
        raise SimcardsError(head + (" ".join(str(exc).split()) or type(exc).__name__))
    what = "a frame length too large to be one" if isinstance(exc, MemoryError) else \
        f"{type(exc).__name__}: {' '.join(str(exc).split())[:120]}"
    raise SimcardsError(head + f"it answered, but not in the Dask protocol ({what}): "
                        "an HTTP server or another service?")


def _needs_dask() -> None:
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        raise SimcardsError("--cluster needs dask.distributed: pip install 'simcards[dask]'") from None


def _causes(exc: BaseException):
    seen = 0
    while exc is not None and seen < 10:
        yield exc
        exc, seen = exc.__cause__ or exc.__context__, seen + 1


def _close_quietly(client) -> None:
    try:
        client.close(timeout=2)
    except Exception:       # pragma: no cover - a half-open client on the way out
        pass


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
