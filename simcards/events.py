"""A tiny publish/subscribe channel for waits the user should see.

The library never prints: it announces long waits here, and whoever cares (the
CLI's status line, a test, a notebook) subscribes. With no subscriber an
``emit`` costs one lock and a loop over an empty list.

Kinds emitted today (fields are keyword arguments of ``emit``):

``"compile-start"``   game: str, strategies: tuple[str, ...], estimate_s: float
    numba starts compiling the kernel of a game and strategy set (first use of
    that set, or its sources changed); ``estimate_s`` is a guess of the wait.
``"compile-done"``    game: str, strategies: tuple[str, ...], seconds: float
    that compile finished (always after a ``"compile-start"``).
``"kernel-cached"``   game: str, strategies: tuple[str, ...], seconds: float
    the kernel came from numba's on-disk cache instead; ``seconds`` it took.
``"table-start"``     game: str, strategy: str, table: str, n_players: int
    a strategy's table (e.g. search's value table) is being built by simulation: first
    use of these rules and player count, or its sources changed.
``"table-done"``      game, strategy, table, n_players as above, seconds: float
    that build finished (always after a ``"table-start"``).

The kernel loader (``simcards.kernels.load_kernel``) emits the first three, through
``simcards.kernel_waits.announce_compile``; ``simcards.tables.load_or_build`` the last two.
"""
from __future__ import annotations

import contextlib
import threading
from typing import Any, Callable, Iterator

Callback = Callable[..., None]   # callback(kind, **fields)

KINDS = ("compile-start", "compile-done", "kernel-cached", "table-start", "table-done")

_lock = threading.Lock()
_subscribers: list[Callback] = []


def emit(kind: str, **fields: Any) -> None:
    """Tell every current subscriber ``callback(kind, **fields)``, in subscription order."""
    with _lock:
        callbacks = list(_subscribers)   # a callback may subscribe or leave meanwhile
    for callback in callbacks:
        callback(kind, **fields)


@contextlib.contextmanager
def subscribe(callback: Callback) -> Iterator[Callback]:
    """Receive every event emitted inside the ``with`` block (from any thread)."""
    with _lock:
        _subscribers.append(callback)
    try:
        yield callback
    finally:
        with _lock:
            _subscribers.remove(callback)
