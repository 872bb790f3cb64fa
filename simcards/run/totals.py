"""Running totals: what a summary needs, in memory that does not grow with the games.

``--summary-only`` keeps, per seat, integer sums of win shares (in units of
1/420, exact for any number of winners up to 7) and sums and sums of squares
of every outcome column, instead of one row per game and seat. The summary
computed from the totals is the one ``simcards.summarize`` gives on the frame.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd


#: every k-way shared win is a whole number of these units (lcm of 1..7)
SHARE_UNITS = 420


def outcome_columns(spec) -> list[str]:
    """Per-seat numbers worth a mean and a spread (bit masks are not)."""
    return ["rank"] + [c for c in spec.seat_columns if not c.endswith("_mask")] + list(spec.game_columns)


@dataclass
class Totals:
    game: str
    strategies: tuple[str, ...]                    # one per seat
    columns: list[str]
    games: int = 0
    win_units: np.ndarray = field(default=None)    # per seat, int64
    win_units_sq: np.ndarray = field(default=None)  # per seat, sum of squared units
    sums: np.ndarray = field(default=None)          # per seat x column, float64
    squares: np.ndarray = field(default=None)
    unfinished: int = 0

    def __post_init__(self) -> None:
        n, c = len(self.strategies), len(self.columns)
        if self.win_units is None:
            self.win_units = np.zeros(n, np.int64)
            self.win_units_sq = np.zeros(n, np.int64)
            self.sums = np.zeros((n, c), np.float64)
            self.squares = np.zeros((n, c), np.float64)

    def add(self, other: "Totals") -> "Totals":
        self.games += other.games
        self.win_units += other.win_units
        self.win_units_sq += other.win_units_sq
        self.sums += other.sums
        self.squares += other.squares
        self.unfinished += other.unfinished
        return self

    def to_dict(self) -> dict:
        return {"game": self.game, "strategies": list(self.strategies), "columns": self.columns,
                "games": self.games, "win_units": self.win_units.tolist(),
                "win_units_sq": self.win_units_sq.tolist(), "sums": self.sums.tolist(),
                "squares": self.squares.tolist(), "unfinished": self.unfinished}

    @classmethod
    def from_dict(cls, d: dict) -> "Totals":
        return cls(d["game"], tuple(d["strategies"]), list(d["columns"]), d["games"],
                   np.array(d["win_units"], np.int64), np.array(d["win_units_sq"], np.int64),
                   np.array(d["sums"], np.float64), np.array(d["squares"], np.float64), d["unfinished"])

    def summary(self) -> pd.DataFrame:
        """Win rate per strategy and per seat with 95% Wilson intervals (as simcards.summarize; a
        strategy in m seats bounded by 1/m, the fair share net of unfinished games)."""
        seats = self.win_units / SHARE_UNITS
        names = sorted(set(self.strategies))
        per_strategy = [sum(seats[p] for p, s in enumerate(self.strategies) if s == name)
                        / self.strategies.count(name) for name in names]
        n = len(self.strategies)
        from simcards.statistics.intervals import summary_rows   # scipy/statsmodels load in ~1 s: only when asked
        return summary_rows(names, per_strategy, [self.games] * len(names),
                            range(n), seats, [self.games] * n, n,
                            held=[self.strategies.count(name) for name in names],
                            unfinished=self.unfinished / self.games if self.games else 0.0)

    def means(self) -> pd.DataFrame:
        """Mean and standard deviation of each outcome column per seat."""
        mean = self.sums / self.games
        var = np.maximum(self.squares / self.games - mean ** 2, 0.0) * self.games / max(self.games - 1, 1)
        rows = []
        for p, name in enumerate(self.strategies):
            for j, col in enumerate(self.columns):
                rows.append({"seat": p, "strategy": name, "column": col, "mean": mean[p, j],
                             "std": float(np.sqrt(var[p, j]))})
        return pd.DataFrame(rows)


def totals_from_records(spec, strategies: tuple[str, ...], seat_out: np.ndarray,
                        game_out: np.ndarray) -> Totals:
    """Totals of a chunk of kernel records (no frame is built; one column at a time,
    so a chunk's working memory stays a small multiple of its records)."""
    columns = outcome_columns(spec)
    n = seat_out.shape[1]
    wins = seat_out[:, :, 0]
    winners = np.maximum(wins.sum(axis=1, keepdims=True), 1)
    units = wins * SHARE_UNITS // winners           # exact: winners divides 420
    sums = np.zeros((n, len(columns)), np.float64)
    squares = np.zeros((n, len(columns)), np.float64)
    for j, col in enumerate(columns):
        if col == "rank":
            v = seat_out[:, :, 1]
        elif col in spec.seat_columns:
            v = seat_out[:, :, 2 + spec.seat_columns.index(col)]
        else:
            v = game_out[:, spec.game_columns.index(col)][:, None]   # the same for every seat
        v = v.astype(np.float64)
        sums[:, j] = np.broadcast_to(v.sum(axis=0), n)
        squares[:, j] = np.broadcast_to((v * v).sum(axis=0), n)
    unfinished = int(game_out[:, spec.game_columns.index("unfinished")].sum()) \
        if "unfinished" in spec.game_columns else 0
    return Totals(spec.name, tuple(strategies), columns, int(seat_out.shape[0]), units.sum(axis=0),
                  (units * units).sum(axis=0), sums, squares, unfinished)


def totals_from_frame(spec, frame: pd.DataFrame) -> Totals:
    """The same totals from a full frame: what summary-only runs are checked against."""
    n = int(frame["seat"].max()) + 1
    games = frame["game"].nunique()
    f = frame.sort_values(["game", "seat"])
    strategies = tuple(f["strategy"].iloc[:n].astype(str))
    units = np.rint(f["win_share"].to_numpy().reshape(games, n) * SHARE_UNITS).astype(np.int64)
    columns = outcome_columns(spec)
    v = np.stack([f[c].to_numpy().astype(np.float64).reshape(games, n) for c in columns], axis=2)
    unfinished = int(f.groupby("game")["unfinished"].first().sum()) if "unfinished" in f else 0
    return Totals(spec.name, strategies, columns, games, units.sum(axis=0), (units ** 2).sum(axis=0),
                  v.sum(axis=0), (v ** 2).sum(axis=0), unfinished)
