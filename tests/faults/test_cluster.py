"""``--cluster`` (and $SIMCARDS_CLUSTER) pointed at something that is not a Dask scheduler
(issue 49): a port where nothing listens, one that accepts and never answers, one that
answers HTTP. Each ends within its deadline in one line, exit code 2, instead of hanging until
killed or failing with "MemoryError: Unable to allocate 3.07 EiB".

The listeners are real sockets on 127.0.0.1, served by threads of this process."""
from __future__ import annotations

import contextlib
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Iterator

import pytest

from simcards.errors import SimcardsError
from simcards.runner import CLUSTER_TIMEOUT, DaskBackend, RunSpec, ThreadBackend, backend_for, \
    connect_scheduler, execute

DEADLINE = 1.0          # seconds: the handshake's deadline in the in-process cases
CAUGHT = "cannot reach the Dask scheduler 'tcp://127.0.0.1:{port}' within {deadline} s: "


@contextlib.contextmanager
def nothing_listens() -> Iterator[int]:
    """A port that was bound a moment ago and is closed: connections are refused."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    yield port


@contextlib.contextmanager
def silent() -> Iterator[int]:
    """A port that accepts every connection, then never sends a byte."""
    server = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []

    def serve() -> None:
        with contextlib.suppress(OSError):
            while True:
                held.append(server.accept()[0])

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield server.getsockname()[1]
    finally:
        server.close()
        for conn in held:
            conn.close()


class _Page(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"<html>a dashboard</html>")

    def log_message(self, *args) -> None:     # not on the test's stderr
        pass


@contextlib.contextmanager
def http_server() -> Iterator[int]:
    """http.server: answers what it reads as a request (Dask's handshake bytes: a 400 page)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


@contextlib.contextmanager
def eager_http() -> Iterator[int]:
    """A server that sends an HTTP response as soon as a client connects (as some dashboards
    and proxies do): Dask read its first 8 bytes, "HTTP/1.1", as a frame length."""
    server = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        with contextlib.suppress(OSError):
            while True:
                conn = server.accept()[0]
                with conn:
                    conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Type: text/html\r\n"
                                 b"Content-Length: 15\r\n\r\n<html>no</html>")
                    time.sleep(0.5)

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield server.getsockname()[1]
    finally:
        server.close()


LISTENERS = {
    "nothing listens": (nothing_listens, "nothing listens there (connection refused)"),
    "accepts, never answers": (silent, "it accepted the connection but never answered as a Dask scheduler"),
    "http.server": (http_server, "never answered as a Dask scheduler"),
    "answers HTTP at once": (eager_http, "it answered, but not in the Dask protocol (a frame length too "
                                         "large to be one): an HTTP server or another service?"),
}


@pytest.mark.parametrize("listener, reason", LISTENERS.values(), ids=LISTENERS.keys())
def test_the_handshake_ends_within_its_deadline(listener, reason):
    import distributed  # noqa: F401  (its import is not the handshake's time)
    with listener() as port:
        began = time.monotonic()
        with pytest.raises(SimcardsError) as info:
            connect_scheduler(f"tcp://127.0.0.1:{port}", DEADLINE)
        took = time.monotonic() - began
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(CAUGHT.format(port=port, deadline=f"{DEADLINE:g}")), message
    assert reason in message, message
    assert took < DEADLINE + 3, f"{took:.1f} s"


def test_a_bad_cluster_deadline_is_refused_before_the_run(monkeypatch):
    monkeypatch.setenv("SIMCARDS_CLUSTER_TIMEOUT", "soon")
    with pytest.raises(SimcardsError, match="bad SIMCARDS_CLUSTER_TIMEOUT 'soon': expected seconds"):
        backend_for("tcp://127.0.0.1:8786")
    monkeypatch.setenv("SIMCARDS_CLUSTER_TIMEOUT", "0")
    with pytest.raises(SimcardsError, match="above 0 and at most 3600"):
        backend_for("tcp://127.0.0.1:8786")
    monkeypatch.setenv("SIMCARDS_CLUSTER_TIMEOUT", "2.5")
    assert isinstance(backend_for("tcp://127.0.0.1:8786"), DaskBackend)
    monkeypatch.delenv("SIMCARDS_CLUSTER_TIMEOUT")
    monkeypatch.setenv("SIMCARDS_CLUSTER", "nowhere")
    with pytest.raises(SimcardsError, match="bad SIMCARDS_CLUSTER 'nowhere': expected 'local' or"):
        backend_for(None)


@pytest.mark.slow
def test_a_real_scheduler_still_runs_the_games_and_a_worker_is_not_one():
    """The handshake's checks pass a real scheduler (its games equal the threads'), and name a
    Dask worker's address given for the scheduler's."""
    from dask.distributed import LocalCluster
    run = RunSpec.create("five-alive", ["high_first", "random"], 400, seed=3, chunk_size=100)
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        reached = DaskBackend(cluster.scheduler_address)
        reached.reach()                     # as `simcards run` does, before it writes anything
        frame = execute(run, reached)
        assert execute(run, DaskBackend(cluster.scheduler_address)).equals(frame)
        worker = next(iter(cluster.scheduler_info["workers"]))
        with pytest.raises(SimcardsError, match="a Dask worker answered there, not a scheduler"):
            connect_scheduler(worker, 5)
    assert frame.equals(execute(run, ThreadBackend(1)))


# ------------------------------------------------------------------ the command
@pytest.mark.slow
@pytest.mark.parametrize("listener, reason", LISTENERS.values(), ids=LISTENERS.keys())
@pytest.mark.parametrize("how", ["--cluster", "SIMCARDS_CLUSTER"])
def test_simcards_run_on_a_port_that_is_no_scheduler(faults, tmp_path, listener, reason, how):
    with listener() as port:
        address = f"tcp://127.0.0.1:{port}"
        env = faults.env(SIMCARDS_CLUSTER_TIMEOUT="2")
        args = ["run", "five-alive", "--games", "10", "--run-dir", "run", "--out", "rows.parquet"]
        if how == "--cluster":
            args += ["--cluster", address]
        else:
            env["SIMCARDS_CLUSTER"] = address
        began = time.monotonic()
        done = faults.simcards(*args, env=env, cwd=tmp_path, timeout=120)
        took = time.monotonic() - began
    faults.one_line(done, CAUGHT.format(port=port, deadline="2"), reason)
    assert done.stdout == ""
    assert not (tmp_path / "run").exists() and not (tmp_path / "rows.parquet").exists()  # reached first
    assert took < 60, f"{took:.0f} s"       # the process's start included: numba, pandas, dask


@pytest.mark.slow
def test_the_default_deadline_is_ten_seconds(faults, tmp_path):
    assert CLUSTER_TIMEOUT == 10
    with silent() as port:
        began = time.monotonic()
        done = faults.simcards("run", "five-alive", "--games", "10", "--cluster", f"tcp://127.0.0.1:{port}",
                               cwd=tmp_path, timeout=120)
        took = time.monotonic() - began
    faults.one_line(done, CAUGHT.format(port=port, deadline="10"), "never answered")
    assert 10 <= took < 70, f"{took:.0f} s"
