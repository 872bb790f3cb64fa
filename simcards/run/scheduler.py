"""Reaching a Dask scheduler: the whole handshake within a deadline, and a one-line error naming
what answered instead (nothing, another Dask server, an HTTP server...)."""
from __future__ import annotations

import os
import threading

from simcards.errors import SimcardsError


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

    def handshake() -> None:
        refused = _refused(address, timeout)
        if refused is not None:
            box["error"] = (refused, [refused])
            return
        try:
            who = asyncio.run(asyncio.wait_for(_identity(address, timeout), timeout))
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
    raise _unreached(address, timeout, box)


async def _identity(address: str, timeout: float) -> dict:
    """What the server at ``address`` says it is (Dask's ``identity``), on a bare comm."""
    from distributed.comm import connect
    comm = await connect(address, timeout=timeout)      # TCP connect and Dask's handshake
    try:
        await comm.write({"op": "identity", "reply": True})
        return await comm.read()
    finally:
        comm.abort()


def _refused(address: str, timeout: float) -> ConnectionRefusedError | None:
    """The refusal of a TCP or TLS address whose port is closed, else None."""
    # a closed port answers at once, but distributed retries a refused connect until its
    # timeout, which then raced the handshake's and read as a port that never answers
    import socket
    from urllib.parse import urlsplit
    parts = urlsplit(address)
    try:
        host, port = parts.hostname, parts.port
    except ValueError:
        return None
    if parts.scheme not in ("tcp", "tls") or not host or not port:
        return None
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except ConnectionRefusedError as exc:
        return exc
    except OSError:
        pass                              # distributed's connect reports the rest
    return None


def _unreached(address: str, timeout: float, box: dict) -> SimcardsError:
    """The one-line error of a handshake that found no scheduler, from what it left in ``box``:
    another kind of Dask server (``other``), an error and its causes (``error``), or nothing."""
    head = f"cannot reach the Dask scheduler {address!r} within {timeout:g} s: "
    if "other" in box:
        who = f"a Dask {box['other'].lower()} answered there" if box["other"] else "it answered"
        return SimcardsError(head + f"{who}, not a scheduler: expected the scheduler's address "
                             "(tcp://host:8786)")
    if "error" not in box:
        return SimcardsError(head + "it accepted the connection but never answered as a Dask "
                             "scheduler (another service on that port, or a scheduler that hangs?)")
    exc, causes = box["error"]
    if isinstance(exc, OSError):
        if any(isinstance(e, ConnectionRefusedError) for e in causes):
            return SimcardsError(head + "nothing listens there (connection refused)")
        return SimcardsError(head + (" ".join(str(exc).split()) or type(exc).__name__))
    what = "a frame length too large to be one" if isinstance(exc, MemoryError) else \
        f"{type(exc).__name__}: {' '.join(str(exc).split())[:120]}"
    return SimcardsError(head + f"it answered, but not in the Dask protocol ({what}): "
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
