"""What decides a run's results, and nothing else: ``RunSpec``, stored as a run folder's manifest.

Apart from ``runner`` (which plays it) since the run folder reads and writes it too, and the
runner writes run folders: both import it from here.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from simcards.compiled.config import DEFAULT_CHUNK, default_threads
from simcards.contract.validate import check_count, check_flag, check_folders, check_names, check_optional_counts
from simcards.errors import SimcardsError
from simcards.run.batch import Batch, prepare
from simcards.run.memory import check_run_size


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
        # a str where a list belongs is refused, never split into letters (simcards.validate)
        strategy_dirs = tuple(str(Path(d).expanduser().resolve()) for d in check_folders(strategy_dirs))
        batch = prepare(game, strategies, seed, rules, check_names(kernel_strategies, "kernel_strategies"),
                        strategy_dirs)
        if isinstance(n_games, bool) or not isinstance(n_games, (int, np.integer)) or n_games < 1:
            raise SimcardsError(f"bad number of games {n_games!r}: expected a positive integer")
        check_optional_counts(chunk_size=chunk_size, threads=threads)
        check_count(start, "first game index", minimum=0)
        check_flag(summary_only, "summary_only")
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
