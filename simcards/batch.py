"""A validated batch of games, and the one place that turns kernel records into a frame.

The layers of a run, each importing only those below it:
``batch`` (validated inputs, one chunk on the calling thread, records to frame: simcards.frame) ->
``runner`` (chunks on threads or a Dask cluster, run folders) ->
``simulate``/CLI/reports/bench/replay on top.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from simcards.errors import IllegalMoveError, SimcardsError, StrategyError
from simcards.frame import FrameBuilder
from simcards.kernels import (ST_GAME, ST_ILLEGAL, ST_KIND, ST_MOVE, ST_SEAT, ST_STRATEGY,
                              STATUS_SIZE, load_kernel)
from simcards.registry import GameSpec, get_game
from simcards.rng import MAX_SEED
from simcards.strategy_registry import StrategyInfo, check_strategies, seat_strategies, strategies_for
from simcards.tables import attach as attach_tables
from simcards.validate import check_folders, strategy_names

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


def run_range(batch: Batch, start: int, count: int, stop: np.ndarray | None = None
              ) -> tuple[np.ndarray, np.ndarray]:
    """Games start..start+count-1 on the calling thread: (seat records, game records).

    ``stop``: the run's stop flag (``new_stop_flag``), set by another thread to stop the
    kernel between games; RunStopped is raised then. A strategy that raises (an exception in
    its compiled code) is named in one line with the game (StrategyError)."""
    n = batch.n_players
    seat_out = np.zeros((count, n, batch.seat_width), np.int64)
    game_out = np.zeros((count, len(batch.spec.game_columns)), np.int64)
    status = np.zeros(STATUS_SIZE, np.int64)
    stop = new_stop_flag() if stop is None else stop
    kernel = batch.kernel(check=False)
    try:
        done = kernel.play_batch(batch.seed, start, count, batch.sids, batch.params,
                                 batch.strategy_params, seat_out, game_out, status, stop)
    except SimcardsError:
        raise
    except Exception as exc:     # raised in compiled code: a strategy's, found with its game
        raise strategy_raised(batch, exc, range(start, start + count), kernel) from None
    if status[ST_ILLEGAL] != 0:
        raise_illegal(batch, status)
    if done < count:
        raise RunStopped(f"the run was stopped before game index {start + done}")
    return seat_out, game_out


def raise_illegal(batch: Batch, status: np.ndarray) -> None:
    """The kernel stopped at an illegal move: name the strategy, its file, the game and the move."""
    g, seat, kind, move, sid = (int(status[i]) for i in (ST_GAME, ST_SEAT, ST_KIND, ST_MOVE, ST_STRATEGY))
    decision = batch.spec.decisions[kind].name if 0 <= kind < len(batch.spec.decisions) else kind
    path = str(batch.infos[sid].path) if 0 <= sid < len(batch.infos) else ""
    raise IllegalMoveError(batch.spec.name, batch.strategies[seat], g, batch.seed, seat,
                           f"{move} ({batch.spec.describe_move(kind, move)})",
                           f"not a legal answer to the {decision!r} decision", path)


def strategy_raised(batch: Batch, exc: BaseException, games: Sequence[int] | None = None,
                    kernel=None) -> SimcardsError:
    """The one line for an exception raised in a kernel (a strategy's ``raise``, an index past
    an array's end: user strategies are compiled with bounds checks, simcards.kernels):
    the first game of ``games`` that raises it, found by playing them again one at a time (a
    chunk's worth of games, on the failure path only), then that game played by the
    plain-Python twin (simcards.replay.play_reference), which raises the same exception with
    the strategy's file and line. Where the twin does not raise it, the line names the game
    and the line-up's strategies."""
    what = f"{type(exc).__name__}: {exc}".rstrip(": ")
    game = None
    if games is not None and kernel is None and len(games) == 1:
        game = games[0]
    elif games is not None and kernel is not None:
        seat_out = np.zeros((1, batch.n_players, batch.seat_width), np.int64)
        game_out = np.zeros((1, len(batch.spec.game_columns)), np.int64)
        for g in games:
            try:
                kernel.play_batch(batch.seed, g, 1, batch.sids, batch.params, batch.strategy_params,
                                  seat_out, game_out, np.zeros(STATUS_SIZE, np.int64), new_stop_flag())
            except Exception:        # noqa: BLE001 (the kernel's exception, whatever its class)
                game = g
                break
    if game is not None:
        from simcards.replay import play_reference
        try:
            play_reference(batch.spec.name, batch.strategies, batch.seed, game, batch.rules, batch=batch)
        except SimcardsError as found:      # the twin names the strategy, its file and line
            if isinstance(found, StrategyError):
                return found
        except Exception:                   # noqa: BLE001 (the twin failed otherwise: say what we know)
            pass
    where = f"game index {game}" if game is not None else "a game"
    return StrategyError(
        f"{where} of {batch.spec.name} (seed {batch.seed}) raised {what} in compiled code; "
        f"its strategies: {describe_strategies(batch.infos)}")


def describe_strategies(infos: Sequence[StrategyInfo]) -> str:
    """The strategies of a kernel, each user's with its file: 'expert, loop (/x/five_alive/loop.py)'."""
    from simcards.strategy_registry import BUILTIN_PACKAGE
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
