"""What a designer asks beside balance: how close games are, whether the early leader
wins, when players go out, how long a game takes in minutes.

Everything is read from the frame the engines already write (no engine change):
the final score columns, per-round penalties where a game records them, ranks
(the order players went out) and the length columns.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from simcards.report.experiment import MAIN, Experiment
from simcards.stats import mean_interval

#: A game's own score column and whether more is better (lives, points, keys, penalty points).
SCORES = {"lives": 1, "points": 1, "keys": 1, "penalty": -1}
#: Per-round score columns (cumulated) that show who led part-way through.
ROUND_PREFIX = "penalty_round"


@dataclass
class Designer:
    closeness: pd.DataFrame            # players, score, deals, mean margin and interval, share by 1
    leader: pd.DataFrame               # players, after, deals, rate the leader wins and interval
    minutes: pd.DataFrame              # players, column, mean minutes and interval
    notes: list[str] = field(default_factory=list)


def score_column(spec) -> tuple[str, int] | None:
    for col in spec.seat_columns:
        if col in SCORES:
            return col, SCORES[col]
    return None


def _games(frame: pd.DataFrame, exp: Experiment) -> pd.DataFrame:
    main = [c.id for c in exp.cells if c.part == MAIN]
    rows = frame[frame["cell"].isin(main)]
    if "unfinished" in rows:
        rows = rows[~rows["unfinished"].astype(bool)]
    return rows


def _per_game_interval(values: pd.DataFrame, value: str) -> pd.DataFrame:
    """Mean of a per-game value per player count, the deal (cell, game) as the unit."""
    per_deal = values.groupby(["players", "game"])[value].mean()
    return mean_interval(per_deal, ["players"]).reset_index()


def closeness(frame: pd.DataFrame, exp: Experiment) -> pd.DataFrame:
    """Winner's margin over the best other seat in the game's own score (finished games, one winner)."""
    found = score_column(exp.spec)
    if found is None:
        return pd.DataFrame()
    col, sign = found
    rows = _games(frame, exp)
    keys = ["cell", "lineup", "game"]
    score = sign * rows[col].to_numpy(float)
    winner = rows["win_share"].to_numpy() == 1.0
    rows = rows.assign(_score=score, _win=winner)
    best_win = rows[rows["_win"]].groupby(keys)["_score"].max()
    best_other = rows[~rows["_win"]].groupby(keys)["_score"].max()
    margin = pd.concat([best_win, best_other], axis=1, join="inner").dropna()
    margin = (margin.iloc[:, 0] - margin.iloc[:, 1]).rename("margin").reset_index()
    margin = margin.merge(rows[keys + ["players"]].drop_duplicates(keys), on=keys)
    margin["by_one"] = (margin["margin"] <= 1).astype(float)
    out = _per_game_interval(margin, "margin")
    out["share_by_one"] = margin.groupby("players")["by_one"].mean().to_numpy()
    out["score"] = col
    return out


def leader_wins(frame: pd.DataFrame, exp: Experiment) -> pd.DataFrame:
    """How often the sole leader after round r (per-round scores, cumulated) wins the game."""
    rounds = sorted(c for c in exp.spec.seat_columns if c.startswith(ROUND_PREFIX))
    found = score_column(exp.spec)
    if len(rounds) < 2 or found is None:
        return pd.DataFrame()
    sign = found[1]
    rows = _games(frame, exp)
    keys = ["cell", "lineup", "game"]
    parts = []
    total = np.zeros(len(rows))
    for r, col in enumerate(rounds[:-1], start=1):
        total = total + sign * rows[col].to_numpy(float)
        d = rows[keys + ["players", "win_share"]].assign(_s=total)
        top = d.groupby(keys)["_s"].transform("max")
        leaders = d[d["_s"] == top]
        sole = leaders[leaders.groupby(keys)["_s"].transform("size") == 1]   # ties lead nobody
        sole = sole.assign(leader_won=(sole["win_share"] == 1.0).astype(float))
        iv = _per_game_interval(sole, "leader_won")
        iv["after"] = f"round {r} of {len(rounds)}"
        parts.append(iv)
    return pd.concat(parts, ignore_index=True)


def minutes(length_table: pd.DataFrame, exp: Experiment) -> pd.DataFrame:
    """Mean game length in minutes: the step column (turns, or actions) x seconds per turn / 60."""
    step = exp.spec.step_column
    t = length_table[(length_table["part"] == MAIN) & (length_table["column"] == step)]
    f = exp.seconds_per_turn / 60
    return pd.DataFrame({"players": t["players"], "column": step, "mean": t["mean"] * f,
                         "ci_low": t["ci_low"] * f, "ci_high": t["ci_high"] * f})


def designer_metrics(frame: pd.DataFrame, exp: Experiment, length_table: pd.DataFrame) -> Designer:
    notes = []
    found = score_column(exp.spec)
    if found is None:
        notes.append("The game records no score column: closeness is not measured.")
    if not any(c.startswith(ROUND_PREFIX) for c in exp.spec.seat_columns):
        notes.append("The engine records only final scores, so the leader part-way through a game is not "
                     "known: how often the half-time leader wins is not measured for this game.")
    notes.append("Elimination: the frame records each seat's finishing rank, not the turn it went out, "
                 "so elimination timing is not measured.")
    return Designer(closeness(frame, exp), leader_wins(frame, exp), minutes(length_table, exp), notes)
