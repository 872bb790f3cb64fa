"""The kernel's compile (or cache load) at a known moment, announced on ``simcards.events``.

numba compiles a generated kernel lazily, at its first call, wherever that is
(a thread of a run, the first line-up of a report, the reference column of a
bench). ``announce_compile`` makes that first call right after the import, with
no games, and announces it: ``compile-start``/``compile-done`` when numba has
no cached machine code for the module, ``kernel-cached`` when it loads it.

A kernel has two entry points, each compiled at its first use: ``play_batch`` (runs) and
``record_game`` (replays). A replay compiles only the second: a cold ``simcards replay``
waited for both before (Five Alive: 16 s more).
"""
from __future__ import annotations

import contextlib
import json
import os
import tempfile
import time
from pathlib import Path
from types import ModuleType

import numpy as np

from simcards.events import emit

DEFAULT_ESTIMATE_S = 15.0            # a first compile measured 10-18 s on the project's machine
_TIMES = "compile-seconds.json"     # last measured compile per game, for the next estimate


#: A kernel's entry points (simcards.kernels), each compiled at its first use.
ENTRIES = ("play_batch", "record_game")


def is_cached(folder: Path, modname: str, entry: str = "play_batch") -> bool:
    """numba keeps an index file per cached function in ``__pycache__`` beside the module
    (or below NUMBA_CACHE_DIR): a guess that can only mislabel the message, never the result."""
    from numba.core.config import CACHE_DIR
    places = [folder / "__pycache__"]
    if CACHE_DIR:
        places.append(Path(CACHE_DIR) / str(folder.resolve()).lstrip("/"))
    return any(any(p.glob(f"{modname}.{entry}-*.nbi")) for p in places)


def _compiled(module: ModuleType, entry: str) -> bool:
    """Whether numba compiled the entry point rather than load it: its cache missed."""
    stats = getattr(getattr(module, entry, None), "stats", None)
    return bool(stats is not None and sum(stats.cache_misses.values()))


def _timed(game: str, entry: str) -> str:
    """The key of an entry point's last compile time (a run's and a replay's differ)."""
    return game if entry == "play_batch" else f"{game} {entry}"


def estimate_seconds(folder: Path, game: str) -> float:
    try:
        return float(json.loads((folder / _TIMES).read_text())[game])
    except (OSError, ValueError, KeyError, TypeError):
        return DEFAULT_ESTIMATE_S


def _remember(folder: Path, game: str, seconds: float) -> None:
    """Keep the compile's time for the next estimate, write-then-rename; only an estimate: a
    kernel folder that cannot be written (read-only, full; simcards.cache_folder.usable_kernel_dir)
    keeps none, and stops nothing."""
    try:
        times = json.loads((folder / _TIMES).read_text())
    except (OSError, ValueError):
        times = {}
    if not isinstance(times, dict):
        times = {}
    times[game] = round(seconds, 1)
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{_TIMES}.", suffix=".tmp")
        with os.fdopen(fd, "w") as fh:
            fh.write(json.dumps(times, indent=1))
        os.replace(tmp, folder / _TIMES)
    except OSError:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def _play_no_games(spec, module: ModuleType, entry: str) -> None:
    """Call the entry point with the argument types of every real call, for no game: it
    compiles (or loads) that loop and plays nothing (``record_game`` of game -1 returns at once)."""
    n = spec.min_players
    params = spec.encode_params(spec.resolve_rules({}), n)
    sparams = np.zeros((n, 1), np.float64)
    sparams.setflags(write=False)                   # as every Batch's (simcards.batch)
    sids, status = np.zeros(n, np.int64), np.zeros(8, np.int64)
    width = 2 + len(spec.seat_columns)
    if entry == "play_batch":
        module.play_batch(0, 0, 0, sids, params, sparams, np.zeros((0, n, width), np.int64),
                          np.zeros((0, len(spec.game_columns)), np.int64), status, np.zeros(1, np.int64))
    else:
        empty = np.zeros((0, 0), np.int64)
        module.record_game(0, -1, sids, params, sparams, np.zeros((0, 3), np.int64), empty, empty,
                           np.zeros((n, width), np.int64), np.zeros(len(spec.game_columns), np.int64),
                           status)


def announce_compile(spec, names: tuple[str, ...], module: ModuleType, folder: Path,
                     modname: str, entry: str = "play_batch") -> None:
    """Compile or load the kernel's entry point (``ENTRIES``) now, telling subscribers how
    long it takes."""
    cached = is_cached(folder, modname, entry)
    fields = {"game": spec.name, "strategies": tuple(names)}
    if not cached:
        emit("compile-start", estimate_s=estimate_seconds(folder, _timed(spec.name, entry)), **fields)
    started = time.perf_counter()
    try:
        _play_no_games(spec, module, entry)
    finally:
        seconds = time.perf_counter() - started
        if cached and _compiled(module, entry):
            # the cache held it damaged (simcards.cached_load): removed, and compiled after all
            cached = False
            emit("compile-start", estimate_s=estimate_seconds(folder, _timed(spec.name, entry)), **fields)
        if cached:
            emit("kernel-cached", seconds=seconds, **fields)
        else:
            emit("compile-done", seconds=seconds, **fields)
    if not cached:
        _remember(folder, _timed(spec.name, entry), seconds)
