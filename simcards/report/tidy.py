"""The tidy frame of an experiment as every statistic reads it: its cells, their line-ups (a
global id per line-up, the mirrors among them), the columns that measure a game's length, and
the normal quantile of the report's 95% intervals (simcards.report.analysis says how the
statistics use them)."""
from __future__ import annotations

import pandas as pd
from scipy.stats import norm

from simcards.report.experiment import Experiment
from simcards.statistics.intervals import CONFIDENCE


Z = float(norm.ppf(0.5 + CONFIDENCE / 2))


def cell_frame(exp: Experiment) -> pd.DataFrame:
    return pd.DataFrame([{"cell": c.id, "part": c.part, "players": c.players,
                          "sweep_value": "" if c.sweep_value is None else str(c.sweep_value),
                          "lineups": len(c.lineups),
                          "mirror_lineups": sum(c.mirror)} for c in exp.cells])


def mirror_lineups(exp: Experiment, offsets: dict[int, int]) -> set[int]:
    """Global ids of the line-ups where every seat plays the same strategy."""
    return {offsets[c.id] + i for c in exp.cells for i, m in enumerate(c.mirror) if m}


def lineup_offsets(exp: Experiment) -> dict[int, int]:
    """First global line-up id of every cell (line-up ids run through the cells in order)."""
    out, k = {}, 0
    for c in exp.cells:
        out[c.id] = k
        k += len(c.lineups)
    return out


def length_columns(spec) -> list[str]:
    """Game-length columns: ``rounds`` (if the game has it) and the step column."""
    step = spec.step_column
    cols = [c for c in ("rounds",) if c in spec.game_columns and c != step]
    if step in spec.game_columns:
        cols.append(step)
    return cols


def _cell_info(df: pd.DataFrame, exp: Experiment) -> pd.DataFrame:
    info = cell_frame(exp)[["cell", "part", "players", "sweep_value"]]
    return df.merge(info, on="cell", how="left")
