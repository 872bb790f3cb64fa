"""The frame every report reads, one row per (game, seat), and how kernel records become it.

A frame's columns are allocated once, for every row of the run, in the narrowest type that
holds their values; each chunk's int64 kernel records are checked and written into their
rows by the thread that played the chunk (a slice of games at a time, while they are in the
core's cache: ``chunk.play_chunk``), and the finished columns are wrapped into a DataFrame
without a copy. So a frame costs one copy of its rows, and building it runs in parallel
with the kernels.

| column | type |
|---|---|
| ``order`` (rotated runs only) | int8: the seat order's index in the design (at most 24) |
| ``game`` | int64: game indices reach 2**63 - 1, and frames of any game range concatenate as they are |
| ``seat``, ``rank`` | int8 |
| ``strategy`` | categorical over the run's strategy names (int8 codes) |
| ``win_share`` | float64: 1/k for each of k winners, exactly as the statistics have always read it |
| the game's seat and game columns | the narrowest of int8, int16, int32, int64 that holds the least and greatest value the game declares for these rules (``GameSpec.column_bounds``) |
| ``unfinished`` | bool |

A frame's types depend on the game, its rules and the player count alone: never on the
values played, the chunks or the threads. A value outside its declared bounds is a bug of
the game's declaration and raises ContractError, never a silently wrapped number.

Game-level columns (``game_columns``) stay ordinary columns, repeated on each seat row: the
frame keeps one flat table that pandas code reads as it always did, and in their narrow types
they cost a few bytes per row (10**6 four-player games of Five Alive: about 120 MB).
"""
from __future__ import annotations

import functools
import threading
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np
import pandas as pd
from numba import njit, uint64

from simcards.compiled.config import NJIT_OPTIONS
from simcards.errors import ContractError
from simcards.contract.registry import FRAME_COLUMNS, UNFINISHED, GameSpec

ORDER = "order"
_INTS = (np.int8, np.int16, np.int32, np.int64)


def narrowest_int(lo: int, hi: int) -> np.dtype:
    """The narrowest signed integer type that holds every value in lo..hi."""
    for t in _INTS:
        info = np.iinfo(t)
        if info.min <= lo and hi <= info.max:
            return np.dtype(t)
    raise ContractError(f"bounds {lo}..{hi} do not fit in 64 bits")


def code_dtype(n_categories: int) -> np.dtype:
    """The type pandas gives the codes of a categorical with this many categories."""
    for t in _INTS:
        if n_categories < np.iinfo(t).max:
            return np.dtype(t)
    raise ValueError(n_categories)  # pragma: no cover - more categories than int64


# Cached on disk: they reach no other project source, so numba's check of this file's
# timestamp is enough to follow an edit (simcards.config).
_BLOCK = 256   # games a pass narrows at a time: their records stay in L1 for every column


@njit(**NJIT_OPTIONS, cache=True)
def _narrow(records, picks, block, first, n, lo, hi):
    """``block[k, first + g * n + p] = records[g, p, picks[k]]`` (``records[g, 0, picks[k]]`` for
    game records, shape (count, 1, width)) for the n seats of the records' games and the
    columns k of one type (``block``: their rows, one column each), cast to that type; True
    when some value lies outside lo[k]..hi[k]. The block comes whole, so that one machine code
    serves every chunk and every count of columns of a type.

    One pass over the int64 records for every column of a type, a block of games at a time, so
    that a block's records are read from memory once: a pass per column read the whole
    interleaved record block each time (Thirty-One, 4 players: 76 of the frame's 125 ns per
    game). Indices are unsigned, which spares numba's negative-index test on every access, and
    the bounds are one unsigned comparison, ``v - lo <= hi - lo`` (unsigned, so that it wraps),
    folded into a running maximum: with both, a column costs 1.6 ns per game instead of 4."""
    count = records.shape[0]
    wide = records.shape[1] > 1
    un, base = uint64(n), uint64(first)
    worst = np.zeros(block.shape[0], np.uint64)
    for start in range(0, count, _BLOCK):
        stop = min(start + _BLOCK, count)
        for k in range(uint64(block.shape[0])):
            c, low, w = uint64(picks[k]), uint64(lo[k]), worst[k]
            for g in range(uint64(start), uint64(stop)):
                row = base + g * un
                if wide:
                    for p in range(un):
                        v = records[g, p, c]
                        w = max(w, uint64(v) - low)     # wraps below lo: unsigned arithmetic
                        block[k, row + p] = v
                else:
                    v = records[g, uint64(0), c]
                    w = max(w, uint64(v) - low)
                    for p in range(un):
                        block[k, row + p] = v
            worst[k] = w
    for k in range(block.shape[0]):
        if worst[k] > uint64(hi[k]) - uint64(lo[k]):
            return True
    return False


@njit(**NJIT_OPTIONS, cache=True)
def _win_shares(seat_out, out):
    """``out[g, p]``: 1/k for each of the game's k winners (``seat_out[g, p, 0]`` is 1), else 0.
    numpy's masked divide took a quarter of the frame's time."""
    count, n = out.shape
    for g in range(count):
        winners = 0
        for p in range(n):
            winners += seat_out[g, p, 0]
        for p in range(n):
            out[g, p] = seat_out[g, p, 0] / winners if winners > 0 else 0.0


@functools.lru_cache(maxsize=64)
def _categories(names: tuple[str, ...]) -> pd.CategoricalDtype:
    return pd.CategoricalDtype(list(names))


def _layout_cached(compute):
    """``compute(spec, rules, ...)`` remembered by its arguments (the rules as sorted items): a
    one-game ``simulate`` asked for its frame's layout three times, 10-20% of the call's fixed
    cost. Rules holding an unhashable value are computed each time; callers get their own dict."""
    cached = functools.lru_cache(maxsize=256)(
        lambda spec, items, *rest, **options: compute(spec, dict(items), *rest, **options))

    @functools.wraps(compute)
    def layout(spec: GameSpec, rules: Mapping, *rest, **options):
        try:
            return dict(cached(spec, tuple(sorted(rules.items())), *rest, **options))
        except TypeError:
            return compute(spec, rules, *rest, **options)
    return layout


@_layout_cached
def column_bounds(spec: GameSpec, rules: Mapping, n_players: int) -> dict[str, tuple[int, int]]:
    """Least and greatest value of every integer column of the game's frame under these rules."""
    declared = spec.column_bounds(dict(rules), n_players) if spec.column_bounds else {}
    bounds = {"rank": (1, n_players), UNFINISHED: (0, 1)}
    for name in spec.seat_columns + spec.game_columns:
        if name not in bounds:
            lo, hi = declared.get(name, (np.iinfo(np.int64).min, np.iinfo(np.int64).max))
            bounds[name] = (int(lo), int(hi))
    return bounds


@_layout_cached
def frame_dtypes(spec: GameSpec, rules: Mapping, n_players: int, n_categories: int,
                 order: bool = False) -> dict[str, np.dtype]:
    """The frame's columns in order with their types (``strategy``: its codes' type)."""
    bounds = column_bounds(spec, rules, n_players)
    dtypes = {ORDER: np.dtype(np.int8)} if order else {}
    dtypes.update(game=np.dtype(np.int64), seat=np.dtype(np.int8), strategy=code_dtype(n_categories),
                  win_share=np.dtype(np.float64), rank=np.dtype(np.int8))
    for name in spec.seat_columns + spec.game_columns:
        dtypes[name] = np.dtype(bool) if name == UNFINISHED else narrowest_int(*bounds[name])
    assert tuple(dtypes)[int(order):int(order) + len(FRAME_COLUMNS)] == FRAME_COLUMNS
    return dtypes


def row_bytes(spec: GameSpec, rules: Mapping, n_players: int) -> int:
    """Bytes one row of the game's frame takes."""
    return sum(d.itemsize for d in frame_dtypes(spec, rules, n_players, 1).values())


#: Parquet's encoding for columns that count up by whole games: the game index, the same on a
#: game's seat rows and one more on the next game's. Stored as deltas it costs almost nothing;
#: under Parquet's default dictionary a million games' indices took 9 of a file's 31 MB.
_DELTA_COLUMNS = ("game",)


def write_parquet(frame: pd.DataFrame, path: str | Path) -> None:
    """Write a frame (or any table with a ``game`` column) to Parquet, as every command stores one.

    zstd rather than pandas' default snappy, and the game index as deltas (``_DELTA_COLUMNS``);
    the other columns keep Parquet's dictionary, which stores a game-level column as runs of
    one code. 10**6 four-player games: Five Alive 25.9 -> 15.1 MB, Thirty-One 30.9 -> 17.9 MB,
    in the same writing time; ``pd.read_parquet`` gives the same frame back."""
    delta = [c for c in _DELTA_COLUMNS if c in frame.columns]
    frame.to_parquet(path, index=False, compression="zstd",
                     use_dictionary=[c for c in frame.columns if c not in delta],
                     column_encoding={c: "DELTA_BINARY_PACKED" for c in delta})


class FrameBuilder:
    """The columns of a frame of ``n_games`` games, filled chunk by chunk, from any thread.

    Rows are addressed by game: the rows of the game at position g (0-based in the frame)
    are g * n_players .. (g + 1) * n_players - 1, seats in order. Several runs may fill one
    builder (the seat orders of a rotated run), each its own rows, each with the codes of
    its seats' strategies among ``categories`` and, with ``order``, its seat order's index."""

    def __init__(self, spec: GameSpec, rules: Mapping, n_players: int, categories: Sequence[str],
                 n_games: int, order: bool = False):
        self.spec = spec
        self.n_players = n_players
        self.n_games = int(n_games)
        self.categories = list(categories)
        self.bounds = column_bounds(spec, rules, n_players)
        self.dtypes = frame_dtypes(spec, rules, n_players, len(self.categories), order)
        rows = self.n_games * n_players
        # The kernel record columns, by type: each group's columns are the rows of one block,
        # which one compiled pass fills (``_narrow``; one machine code per type, whatever the
        # number of columns); the other columns are arrays of their own.
        blocks: dict[str, np.ndarray] = {}
        self._seat_groups = self._groups({"rank": 1, **{name: 2 + j for j, name in enumerate(spec.seat_columns)}},
                                         rows, blocks)
        self._game_groups = self._groups({name: j for j, name in enumerate(spec.game_columns)}, rows, blocks)
        self.columns = {name: blocks[name] if name in blocks else np.empty(rows, dtype)
                        for name, dtype in self.dtypes.items()}
        self._filled = 0
        self._lock = threading.Lock()

    def codes(self, strategies: Sequence[str]) -> np.ndarray:
        """The category codes of a line-up (one strategy per seat)."""
        missing = [s for s in strategies if s not in self.categories]
        if missing:
            raise ValueError(f"strategies {missing} are not among the frame's {self.categories}")
        return np.array([self.categories.index(s) for s in strategies], self.dtypes["strategy"])

    def _grid(self, name: str, game: int, count: int) -> np.ndarray:
        """The rows of games game..game+count-1 of one column, as (count, seats) (a view)."""
        n = self.n_players
        return self.columns[name][game * n:(game + count) * n].reshape(count, n)

    def _check(self, name: str, values: np.ndarray) -> None:
        lo, hi = self.bounds[name]
        if values.size and (values.min() < lo or values.max() > hi):
            bad = values.min() if values.min() < lo else values.max()
            raise ContractError(
                f"{self.spec.name}: column {name!r} holds {int(bad)}, outside {lo}..{hi}, the bounds "
                f"its column_bounds declares for these rules and {self.n_players} players: widen them")

    def _put(self, name: str, game: int, count: int, values: np.ndarray) -> None:
        """Checked values, (count, seats) or (count, 1) for a game column, into their rows."""
        if name in self.bounds:
            self._check(name, values)
        self._grid(name, game, count)[...] = values

    def _groups(self, picks: Mapping[str, int], rows: int, columns: dict[str, np.ndarray]) -> list[tuple]:
        """(names, their block of ``rows`` rows each, their places in a record, least and greatest
        values) for each column type among ``picks``; each column, a row of its block, into
        ``columns``."""
        groups = []
        for dtype in dict.fromkeys(self.dtypes[name] for name in picks):
            names = tuple(name for name in picks if self.dtypes[name] == dtype)
            block = np.empty((len(names), rows), dtype)
            columns.update(zip(names, block))
            if dtype == bool:       # 0 or 1 (its bounds): written as int8, a machine code fewer
                block = block.view(np.int8)
            bounds = np.array([self.bounds[name] for name in names], np.int64).reshape(-1, 2)
            groups.append((names, block, np.array([picks[name] for name in names], np.int64),
                           bounds[:, 0].copy(), bounds[:, 1].copy()))
        return groups

    def _put_records(self, groups: list, records: np.ndarray, game: int, count: int) -> None:
        """Kernel records, (count, seats, width) or (count, 1, width) for game records, checked
        and narrowed into their columns' rows, one compiled pass per column type (``_narrow``)."""
        for names, block, picks, lo, hi in groups:
            if _narrow(records, picks, block, game * self.n_players, self.n_players, lo, hi):
                for name, c in zip(names, picks):
                    self._check(name, records[:, :, c])      # raises, naming the value

    def _done(self, count: int) -> None:
        with self._lock:
            self._filled += count

    def put(self, game: int, seat_out: np.ndarray, game_out: np.ndarray, first: int,
            codes: np.ndarray, order: int | None = None) -> None:
        """One chunk of kernel records (games first..first+count-1 of a run) into the rows of
        the frame's games game..game+count-1."""
        count, n, _ = seat_out.shape
        grid = lambda name: self._grid(name, game, count)  # noqa: E731
        grid("game")[...] = np.arange(first, first + count, dtype=np.int64)[:, None]
        grid("seat")[...] = np.arange(n, dtype=np.int8)
        grid("strategy")[...] = codes
        if order is not None:
            grid(ORDER)[...] = order
        _win_shares(seat_out, grid("win_share"))
        self._put_records(self._seat_groups, seat_out, game, count)
        self._put_records(self._game_groups, game_out[:, None, :], game, count)
        self._done(count)

    def put_frame(self, game: int, part: pd.DataFrame, order: int | None = None) -> None:
        """The rows of a chunk frame (a run folder's part, from any version of simcards) into
        the rows of the frame's games game..; strategies are matched by name."""
        n = self.n_players
        count = len(part) // n
        for name in self.dtypes:
            if name == ORDER:
                if order is not None:
                    self._grid(ORDER, game, count)[...] = order
                continue
            if name == "strategy":
                codes = pd.Categorical(part["strategy"].astype(str), categories=self.categories).codes
                if (codes < 0).any():
                    raise ValueError(f"a part holds strategies outside {self.categories}")
                values = codes
            else:
                values = part[name].to_numpy()
            self._put(name, game, count, values.reshape(count, n))
        self._done(count)

    def rows(self, game: int, count: int) -> pd.DataFrame:
        """The rows of games game..game+count-1 as a frame of their own (a run folder's part:
        no ``order``), once they are filled."""
        n = self.n_players
        cols = {name: self.columns[name][game * n:(game + count) * n]
                for name in self.dtypes if name != ORDER}
        return self._wrap(cols)

    def _wrap(self, cols: dict) -> pd.DataFrame:
        cols["strategy"] = pd.Categorical.from_codes(cols["strategy"], dtype=_categories(tuple(self.categories)),
                                                     validate=False)
        return pd.DataFrame(cols, copy=False)

    def frame(self, attrs: Mapping) -> pd.DataFrame:
        """The finished frame, around the builder's arrays (no copy)."""
        if self._filled != self.n_games:
            raise RuntimeError(f"the frame holds {self._filled:,} of its {self.n_games:,} games")
        frame = self._wrap(dict(self.columns))
        frame.attrs.update(attrs)
        return frame
