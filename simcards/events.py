"""A tiny publish/subscribe channel for waits the user should see (compiling, loading).

The library emits; the CLI subscribes and shows a status line. Kinds emitted by
simcards.kernels: ``compile-start`` (game, strategies, estimate_s),
``compile-done`` (game, strategies, seconds), ``kernel-cached`` (game, strategies, seconds).
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable, Iterator

_subscribers: list[Callable[..., None]] = []


def emit(kind: str, **fields: Any) -> None:
    for callback in list(_subscribers):
        callback(kind, **fields)


@contextmanager
def subscribe(callback: Callable[..., None]) -> Iterator[None]:
    _subscribers.append(callback)
    try:
        yield
    finally:
        _subscribers.remove(callback)
