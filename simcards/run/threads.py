"""The chunks of a run on threads of this process (the kernels release the GIL), stopped between
games by a signal or a time limit."""
from __future__ import annotations

import functools
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import Any, Callable, Sequence

from simcards.compiled.config import default_threads
from simcards.errors import TimeLimitError
from simcards.run.batch import check_time_limit, describe_strategies, new_stop_flag
from simcards.run.chunk import Finish, Put, Task, _kernels, play_chunk


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
