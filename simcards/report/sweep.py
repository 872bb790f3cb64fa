"""Rule sweeps as paired effects: each value against the default, on the same deals.

Every cell of an experiment plays game indices 0.. with the same seed, so deal
g of a sweep cell and deal g of its baseline (the main cell at that player
count, or a baseline cell with the default where the main part lacks the count)
start from the same random stream. The effect of a value is the mean over
common deals of (score under the value - score under the default), with its
paired interval (win rates: the boundary-safe interval of a difference of shares and
the test it inverts, simcards.report.analysis.paired_difference; lengths: t); p-values
are corrected over the whole sweep by Holm, and ``adj_low``/``adj_high`` are the
effects' intervals at the level that agrees with the correction (``adj_level``).

A grid (two options swept together) compares every pair of values with the
pair of defaults in the same way; its many cells are screened rather than
tested one hypothesis at a time, so its p-values are corrected by
Benjamini-Hochberg (false discovery rate 5%). Columns ``value`` and ``value2``
hold the two options' values of a grid cell (``value2`` is None in a
one-option sweep).
"""
from __future__ import annotations

import pandas as pd

from simcards.report import inference
from simcards.report.experiment import MAIN, SWEEP, Cell, Experiment

COLUMNS = ["cell", "value", "value2", "players", "group", "measure", "unit", "deals", "effect", "ci_low", "ci_high",
           "p_value"]


CORRECTION_NAMES = {"holm": "Holm", "fdr_bh": "Benjamini-Hochberg"}


def correction(exp: Experiment) -> str:
    """statsmodels' name of the sweep's multiplicity correction: Holm, or BH for a grid."""
    return inference.PAIR_CORRECTION if exp.grid_option is None else inference.CARD_CORRECTION


def baseline_cell(exp: Experiment, cell: Cell) -> Cell | None:
    """The cell a sweep cell is compared with: same player count, the option(s) at the default."""
    for c in exp.cells:
        if c.players == cell.players and c.id != cell.id and (
                c.part == MAIN or (c.part == SWEEP and c.sweep_value == exp.sweep_base)):
            return c
    return None


def _per_deal_measures(frame: pd.DataFrame, exp: Experiment, cell: Cell, lengths: list[str]) -> dict:
    """{(group, measure, unit): per-deal series} of one cell."""
    from simcards.report.analysis import seat_bases, strategy_scores
    out = {}
    for basis, rows in seat_bases(frame, exp, cell):
        per = rows.groupby(["seat", "game"])["win_share"].mean()
        for seat, series in per.groupby(level="seat"):
            out[("seat win rate", f"seat {seat} ({basis})", "points")] = series.droplevel("seat")
    scores = strategy_scores(frame[frame["cell"] == cell.id], exp)
    for name, s in scores.groupby("strategy"):
        out[("strategy win rate", name, "points")] = s.set_index("game")["score"]
    rows = frame[(frame["cell"] == cell.id) & (frame["seat"] == 0)]
    for col in lengths:
        out[("game length", f"mean {col}", col)] = rows.groupby("game")[col].mean()
    return out


def sweep_effects(frame: pd.DataFrame, exp: Experiment) -> pd.DataFrame | None:
    """One row per sweep value (grid: pair of values), player count and measure: the paired effect
    against the default, with p-values adjusted over the sweep (``correction``) in ``p_adjusted``."""
    if exp.sweep_option is None:
        return None
    from simcards.report.analysis import SHARE_DIFFERENCE, adjusted_intervals, length_columns, paired_difference
    lengths = length_columns(exp.spec)
    records = []
    diffs = {}
    for cell in exp.cells:
        base = baseline_cell(exp, cell) if cell.part == SWEEP else None
        if base is None or cell.sweep_value == exp.sweep_base:
            continue
        mine = _per_deal_measures(frame, exp, cell, lengths)
        theirs = _per_deal_measures(frame, exp, base, lengths)
        for key, series in mine.items():
            if key not in theirs:
                continue
            joined = pd.concat([series, theirs[key]], axis=1, join="inner").dropna()
            d = (joined.iloc[:, 0] - joined.iloc[:, 1]).to_numpy(float)
            if len(d) == 0:
                continue
            bounds = SHARE_DIFFERENCE if key[2] == "points" else None
            mean, low, high, p = paired_difference(d, bounds)
            scale = 100.0 if key[2] == "points" else 1.0
            diffs[len(records)] = (d, bounds, scale)
            value, value2 = cell.sweep_value if exp.grid_option is not None else (cell.sweep_value, None)
            records.append({"cell": cell.id, "value": value, "value2": value2, "players": cell.players,
                            "group": key[0], "measure": key[1], "unit": key[2], "deals": len(d),
                            "effect": scale * mean, "ci_low": scale * low, "ci_high": scale * high,
                            "p_value": p})
    out = pd.DataFrame(records, columns=COLUMNS)
    out["p_adjusted"], out["significant"] = inference.correct(out["p_value"], correction(exp))
    # beside the adjusted p-values, every effect's interval at the level that agrees with them
    return adjusted_intervals(out, "p_value", diffs, correction(exp), "adj")
