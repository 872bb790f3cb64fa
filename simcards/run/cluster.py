"""The chunks of a run as tasks on a dask.distributed cluster: a scheduler's address, or a
LocalCluster on this machine."""
from __future__ import annotations

from typing import Any, Callable, Sequence

from simcards.compiled.config import default_threads
from simcards.run.chunk import Finish, Put, Task, _kernels, play_chunk
from simcards.run.scheduler import _needs_dask, cluster_timeout, connect_scheduler


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
