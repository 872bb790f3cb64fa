"""Win rates per strategy: a strategy's score in a deal (the mean win share of its seats over the
line-ups that hold it, mirrors left out), with the boundary-safe interval over deals and the
fair share net of unfinished games."""
from __future__ import annotations

import numpy as np
import pandas as pd

from simcards.report.experiment import Experiment
from simcards.report.tidy import _cell_info, lineup_offsets, mirror_lineups
from simcards.statistics.intervals import mean_interval


def _interval_rows(per_deal: pd.Series, by: list[str], upper=1.0) -> pd.DataFrame:
    """Win rates from per-deal scores: deals (as ``games``), wins, win_rate, interval, se."""
    iv = mean_interval(per_deal, by, share=True, upper=upper).reset_index()
    return iv.assign(games=iv["deals"], wins=iv["mean"] * iv["deals"], win_rate=iv["mean"])


def strategy_scores(frame: pd.DataFrame, exp: Experiment) -> pd.DataFrame:
    """Score of every strategy in every deal of every cell (mirror line-ups left out).

    Columns cell, game, strategy, score (mean win share over its seats and line-ups)."""
    mirrors = mirror_lineups(exp, lineup_offsets(exp))
    rows = frame[~frame["lineup"].isin(mirrors)]
    if rows.empty:
        return pd.DataFrame(columns=["cell", "game", "strategy", "score"])
    per_lineup = rows.groupby(["cell", "lineup", "game", "strategy"], observed=True)["win_share"].mean()
    out = per_lineup.groupby(level=["cell", "game", "strategy"], observed=True).mean()
    out = out.rename("score").reset_index()
    out["strategy"] = out["strategy"].astype(str)
    return out


def strategy_rates(frame: pd.DataFrame, exp: Experiment) -> pd.DataFrame:
    """Win rate per strategy per cell with a 95% t interval over deal means (unit: the deal)."""
    scores = strategy_scores(frame, exp)
    cols = ["cell", "part", "players", "sweep_value", "strategy", "games", "wins", "win_rate",
            "ci_low", "ci_high", "se", "fair_share"]
    if scores.empty:
        return pd.DataFrame(columns=cols)
    bounds = strategy_bounds(exp)
    index = pd.MultiIndex.from_tuples(list(bounds), names=["cell", "strategy"])
    upper = pd.Series(list(bounds.values()), index=index, dtype=float)
    agg = _interval_rows(scores.set_index(["cell", "strategy", "game"])["score"], ["cell", "strategy"], upper)
    agg = _cell_info(agg, exp)
    finished = 1.0 - unfinished_rates(frame, exp, mirrors=False)
    agg["fair_share"] = agg["cell"].map(finished).fillna(1.0) / agg["players"]
    return agg[cols].sort_values(["cell", "win_rate"], ascending=[True, False], ignore_index=True)


def strategy_bounds(exp: Experiment) -> dict[tuple[int, str], float]:
    """The most a strategy's deal score can be, per (cell, strategy): the mean over the cell's
    line-ups holding it (mirrors left out) of 1/m, m the seats it holds there (one winner a game)."""
    out: dict[tuple[int, str], list[float]] = {}
    for cell in exp.cells:
        for lineup, mirror in zip(cell.lineups, cell.mirror):
            if mirror:
                continue
            for name in set(lineup):
                out.setdefault((cell.id, str(name)), []).append(1.0 / lineup.count(name))
    return {k: float(np.mean(v)) for k, v in out.items()}


def unfinished_rates(frame: pd.DataFrame, exp: Experiment, mirrors: bool | None = None) -> pd.Series:
    """Share of games the cap stopped, per cell (``mirrors``: only mirror line-ups, only the
    others, or None for all)."""
    if "unfinished" not in frame:
        return pd.Series(0.0, index=pd.Index([c.id for c in exp.cells], name="cell"))
    rows = frame[frame["seat"] == 0]
    if mirrors is not None:
        held = rows["lineup"].isin(mirror_lineups(exp, lineup_offsets(exp)))
        rows = rows[held if mirrors else ~held]
    return rows.groupby("cell")["unfinished"].mean().astype(float)
