"""Run many games on the fast engine and return a tidy pandas frame."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from simcards.errors import IllegalMoveError, SimcardsError
from simcards.kernels import load_kernel
from simcards.registry import GameSpec, get_game
from simcards.rng import MAX_SEED
from simcards.strategy_registry import check_strategies
from simcards.validate import check_optional_counts, strategy_names

ProgressFn = Callable[[int], None]


@dataclass
class Batch:
    """A validated run: everything the kernel needs, nothing parsed later."""

    spec: GameSpec
    strategies: tuple[str, ...]       # one per seat
    rules: dict[str, Any]             # every option resolved
    params: np.ndarray
    names: tuple[str, ...]            # distinct strategies, the kernel's strategy ids
    sids: np.ndarray                  # strategy id per seat
    seed: int

    @property
    def n_players(self) -> int:
        return len(self.strategies)

    def kernel(self):
        return load_kernel(self.spec, self.names)


def prepare(game: str, strategies: Sequence[str], seed: int = 0,
            rules: Mapping[str, Any] | None = None,
            kernel_strategies: Sequence[str] | None = None) -> Batch:
    """Validate a run's inputs; every bad value raises a one-line SimcardsError.

    ``kernel_strategies`` compiles one kernel for a wider set of strategies, so
    that many line-ups drawn from it share one compile (tournaments, tests)."""
    spec = get_game(game)
    strategies = strategy_names(strategies)
    spec.check_players(len(strategies))
    check_strategies(spec, list(strategies))
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= MAX_SEED:
        raise SimcardsError(f"bad seed {seed!r}: expected an integer 0..{MAX_SEED}")
    resolved = spec.resolve_rules(rules)
    params = spec.encode_params(resolved, len(strategies))
    names = tuple(sorted(set(strategies) | set(kernel_strategies or ())))
    check_strategies(spec, list(names))
    sids = np.array([names.index(s) for s in strategies], dtype=np.int64)
    return Batch(spec, strategies, resolved, params, names, sids, int(seed))


def run_range(batch: Batch, start: int, count: int) -> tuple[np.ndarray, np.ndarray]:
    """Games start..start+count-1 on the calling thread: (seat records, game records)."""
    n = batch.n_players
    seat_out = np.zeros((count, n, 2 + len(batch.spec.seat_columns)), np.int64)
    game_out = np.zeros((count, len(batch.spec.game_columns)), np.int64)
    status = np.zeros(8, np.int64)
    batch.kernel().play_batch(batch.seed, start, count, batch.sids, batch.params,
                              seat_out, game_out, status)
    if status[0] != 0:
        _raise_illegal(batch, status)
    return seat_out, game_out


def _raise_illegal(batch: Batch, status: np.ndarray) -> None:
    _, g, seat, kind, move, sid = (int(x) for x in status[:6])
    describe = batch.spec.extra.get("describe_move")
    shown = describe(kind, move) if describe else str(move)
    raise IllegalMoveError(batch.spec.name, batch.names[sid], g, batch.seed, seat,
                           f"{move} ({shown})")


def to_frame(batch: Batch, seat_out: np.ndarray, game_out: np.ndarray, start: int = 0) -> pd.DataFrame:
    """One row per (game, seat): the tidy frame every report reads."""
    count, n, _ = seat_out.shape
    wins = seat_out[:, :, 0]
    winners = wins.sum(axis=1, keepdims=True)
    share = np.divide(wins, winners, out=np.zeros(wins.shape, np.float64), where=winners > 0)
    cols: dict[str, Any] = {
        "game": np.repeat(np.arange(start, start + count, dtype=np.int64), n),
        "seat": np.tile(np.arange(n, dtype=np.int16), count),
        "strategy": pd.Categorical.from_codes(np.tile(batch.sids, count),
                                              categories=list(batch.names)),
        "win_share": share.reshape(-1),
        "rank": seat_out[:, :, 1].reshape(-1).astype(np.int16),
    }
    for j, name in enumerate(batch.spec.seat_columns):
        cols[name] = seat_out[:, :, 2 + j].reshape(-1)
    for j, name in enumerate(batch.spec.game_columns):
        cols[name] = np.repeat(game_out[:, j], n)
    frame = pd.DataFrame(cols)
    if "unfinished" in frame:
        frame["unfinished"] = frame["unfinished"].astype(bool)
    frame.attrs.update(game=batch.spec.name, strategies=list(batch.strategies),
                       rules=dict(batch.rules), seed=batch.seed, n_players=n)
    return frame


def simulate(game: str, strategies: Sequence[str], n_games: int, seed: int = 0,
             rules: Mapping[str, Any] | None = None, *, start: int = 0,
             threads: int | None = None, chunk_size: int | None = None,
             progress: ProgressFn | None = None) -> pd.DataFrame:
    """Play ``n_games`` games (indices start..start+n_games-1) and return one row per (game, seat).

    ``strategies`` names one strategy per seat (its length is the player count);
    ``rules`` maps rule options to values (``simcards rules GAME`` lists them).
    The same seed gives the same frame, bit for bit, for any threads or chunk size.
    """
    from simcards.runner import run_records  # runner builds on this module
    batch = prepare(game, strategies, seed, rules)
    check_optional_counts(threads=threads, chunk_size=chunk_size)
    seat_out, game_out = run_records(batch, n_games, start, threads, chunk_size, progress)
    return to_frame(batch, seat_out, game_out, start)
