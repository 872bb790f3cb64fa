"""How long games are: one row per game with its length columns, and per cell and column the
mean with its interval over deals, the quantiles and the games the cap stopped."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
from statsmodels.stats.weightstats import DescrStatsW

from simcards.report.experiment import Experiment
from simcards.report.tidy import _cell_info, length_columns
from simcards.statistics.intervals import CONFIDENCE


def game_lengths(frame: pd.DataFrame, exp: Experiment) -> pd.DataFrame:
    """One row per (cell, line-up, game) with the length columns."""
    cols = length_columns(exp.spec)
    extra = ["unfinished"] if "unfinished" in frame else []
    games = frame[frame["seat"] == 0][["cell", "lineup", "game"] + cols + extra]
    return _cell_info(games.reset_index(drop=True), exp)


def length_summary(lengths: pd.DataFrame, exp: Experiment) -> pd.DataFrame:
    """Per cell and length column: mean with 95% interval (unit: the deal), quantiles, unfinished."""
    records = []
    for cell in exp.cells:
        g = lengths[lengths["cell"] == cell.id]
        for col in length_columns(exp.spec):
            per_deal = g.groupby("game")[col].mean().to_numpy(float)
            if len(per_deal) > 1 and per_deal.std() > 0:
                low, high = DescrStatsW(per_deal).tconfint_mean(alpha=1 - CONFIDENCE)
            else:
                low = high = float(per_deal.mean())
            se = float(per_deal.std(ddof=1) / math.sqrt(len(per_deal))) if len(per_deal) > 1 else 0.0
            values = g[col].to_numpy(float)
            records.append({"cell": cell.id, "column": col, "games": len(values), "deals": len(per_deal), "se": se,
                            "mean": float(values.mean()), "ci_low": float(low), "ci_high": float(high),
                            "p10": float(np.percentile(values, 10)), "median": float(np.median(values)),
                            "p90": float(np.percentile(values, 90)), "max": float(values.max()),
                            "unfinished": int(g["unfinished"].sum()) if "unfinished" in g else 0})
    return _cell_info(pd.DataFrame(records), exp)
