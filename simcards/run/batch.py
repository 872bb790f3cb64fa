"""A validated batch of games, and the one place that turns kernel records into a frame.

The layers of a run, each importing only those below it:
``batch`` (validated inputs, records to frame: simcards.run.frame) -> ``replay`` (the twin
engine, which also names a strategy that raised) -> ``play`` (one chunk on the calling thread) ->
``runner`` (chunks on threads or a Dask cluster, run folders) ->
``simulate``/CLI/reports/bench on top.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from simcards.errors import IllegalMoveError, SimcardsError
from simcards.run.frame import FrameBuilder
from simcards.codegen.kernels import ST_GAME, ST_KIND, ST_MOVE, ST_SEAT, ST_STRATEGY, load_kernel
from simcards.contract.registry import GameSpec, get_game
from simcards.compiled.rng import MAX_SEED
from simcards.contract.strategy_registry import StrategyInfo, check_strategies, seat_strategies, strategies_for
from simcards.codegen.tables import attach as attach_tables
from simcards.contract.validate import check_folders, strategy_names

ProgressFn = Callable[[int], None]


@dataclass
class Batch:
    """A validated run: everything the kernel needs, nothing parsed later."""

    spec: GameSpec
    strategies: tuple[str, ...]       # one per seat, canonical (name:key=value..., simcards.params)
    rules: dict[str, Any]             # every option resolved
    params: np.ndarray                # the rules, as the engine's parameter row
    names: tuple[str, ...]            # distinct strategies, kernel_strategies included (the frame's categories)
    sids: np.ndarray                  # per seat, its strategy file's position in ``infos``
    seed: int
    infos: tuple[StrategyInfo, ...]   # the kernel's strategy files, imported and checked
    strategy_params: np.ndarray       # per seat, its strategy's run-time parameter values (and table)
    strategy_dirs: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # Read-only, as numba types an array constant: a search's rollouts pass a strategy its
        # parameters as a module constant, and one writable row from the kernel would compile
        # that strategy a second time (simcards.config, "Literal arguments"). A copy, so that
        # the caller's array stays as it was.
        self.strategy_params = np.array(self.strategy_params, np.float64)
        self.strategy_params.setflags(write=False)

    @property
    def n_players(self) -> int:
        return len(self.strategies)

    @property
    def seat_width(self) -> int:
        """Columns of a seat record: win, rank, then the game's seat columns."""
        return 2 + len(self.spec.seat_columns)

    def kernel(self, check: bool = True, entry: str = "play_batch"):
        """The compiled entry module, its ``entry`` point (``play_batch`` for runs, ``record_game``
        for replays) compiled or loaded from cache before it is returned.
        ``check``: make sure no source changed since this process imported it (once per run)."""
        return load_kernel(self.spec, self.infos, check, entry)


def prepare(game: str, strategies: Sequence[str], seed: int = 0,
            rules: Mapping[str, Any] | None = None,
            kernel_strategies: Sequence[str] | None = None,
            strategy_dirs: Sequence[str] = ()) -> Batch:
    """Validate a run's inputs; every bad value raises a one-line SimcardsError.

    A seat's strategy is a name, or a name with run-time parameters
    (``search:budget=800``, simcards.params); the batch keeps the canonical form.
    ``kernel_strategies`` compiles one kernel for a wider set of strategies, so
    that many line-ups drawn from it share one compile (tournaments, tests);
    parameter values never change the kernel."""
    spec = get_game(game)
    strategies = strategy_names(strategies)
    spec.check_players(len(strategies))
    strategy_dirs = check_folders(strategy_dirs)      # a str is refused, never split into letters
    known = strategies_for(spec, strategy_dirs)      # listed once for the three checks below
    strategies, files, strategy_params = seat_strategies(spec, strategies, strategy_dirs, known)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= MAX_SEED:
        raise SimcardsError(f"bad seed {seed!r}: expected an integer 0..{MAX_SEED}")
    resolved = spec.resolve_rules(rules)
    params = spec.encode_params(resolved, len(strategies))
    extra = seat_strategies(spec, kernel_strategies, strategy_dirs, known)[1] if kernel_strategies else ()
    kernel_files = tuple(sorted(set(files) | set(extra)))
    infos = check_strategies(spec, kernel_files, strategy_dirs, known)
    sids = np.array([kernel_files.index(f) for f in files], dtype=np.int64)
    # a strategy that asks for a table built by simulation gets it after its values (simcards.tables)
    strategy_params = attach_tables(spec, infos, files, params, strategy_params)
    names = tuple(sorted(set(strategies) | set(kernel_strategies or ())))
    return Batch(spec, strategies, resolved, params, names, sids, int(seed),
                 tuple(infos[n] for n in kernel_files), strategy_params, strategy_dirs)


class RunStopped(SimcardsError):
    """A chunk stopped between two games because its run's stop flag was set (SIGINT, SIGTERM,
    a time limit: simcards.runner); its records are incomplete and are not kept."""


def check_time_limit(seconds, name: str = "time limit") -> float | None:
    """A time limit in seconds: None (no limit) or a positive, finite number; else one line."""
    if seconds is None:
        return None
    import math
    if (isinstance(seconds, bool) or not isinstance(seconds, (int, float, np.integer, np.floating))
            or not math.isfinite(seconds) or seconds <= 0):
        raise SimcardsError(f"bad {name} {seconds!r}: expected a positive number of seconds")
    return float(seconds)


def new_stop_flag() -> np.ndarray:
    """A run's stop flag: the kernel reads ``flag[0]`` between games and returns early once
    another thread sets it."""
    return np.zeros(1, np.int64)


def raise_illegal(batch: Batch, status: np.ndarray) -> None:
    """The kernel stopped at an illegal move: name the strategy, its file, the game and the move."""
    g, seat, kind, move, sid = (int(status[i]) for i in (ST_GAME, ST_SEAT, ST_KIND, ST_MOVE, ST_STRATEGY))
    decision = batch.spec.decisions[kind].name if 0 <= kind < len(batch.spec.decisions) else kind
    path = str(batch.infos[sid].path) if 0 <= sid < len(batch.infos) else ""
    raise IllegalMoveError(batch.spec.name, batch.strategies[seat], g, batch.seed, seat,
                           f"{move} ({batch.spec.describe_move(kind, move)})",
                           f"not a legal answer to the {decision!r} decision", path)


def describe_strategies(infos: Sequence[StrategyInfo]) -> str:
    """The strategies of a kernel, each user's with its file: 'expert, loop (/x/five_alive/loop.py)'."""
    from simcards.contract.strategy_registry import BUILTIN_PACKAGE
    return ", ".join(info.name if info.module.startswith(BUILTIN_PACKAGE + ".") else f"{info.name} ({info.path})"
                     for info in infos)


def frame_attrs(batch: Batch) -> dict[str, Any]:
    """What a frame says about its run (``frame.attrs``)."""
    return dict(game=batch.spec.name, strategies=list(batch.strategies), rules=dict(batch.rules),
                seed=batch.seed, n_players=batch.n_players)


def frame_builder(batch: Batch, n_games: int) -> FrameBuilder:
    """Empty columns for ``n_games`` games of this batch (simcards.frame)."""
    return FrameBuilder(batch.spec, batch.rules, batch.n_players, batch.names, n_games)


def to_frame(batch: Batch, seat_out: np.ndarray, game_out: np.ndarray, start: int = 0) -> pd.DataFrame:
    """One row per (game, seat): the tidy frame every report reads (simcards.frame)."""
    builder = frame_builder(batch, seat_out.shape[0])
    builder.put(0, seat_out, game_out, start, builder.codes(batch.strategies))
    return builder.frame(frame_attrs(batch))
