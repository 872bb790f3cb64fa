"""Strategies against each other: every pair's paired difference over deals, Holm-corrected, with
the interval at the corrected level, and what dealing every line-up the same games (common
random numbers) saved."""
from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from simcards.report import inference
from simcards.report.experiment import MAIN, Experiment
from simcards.report.tidy import lineup_offsets, mirror_lineups
from simcards.statistics.paired import SHARE_DIFFERENCE, paired_differences


def _lineup_matrices(frame: pd.DataFrame, exp: Experiment, cells: list[int]):
    """(cell, matrix) of the given cells: per deal (rows) the mean win share of each
    (line-up, strategy) (columns), mirror line-ups left out; one grouping of the frame."""
    mirrors = mirror_lineups(exp, lineup_offsets(exp))
    rows = frame[frame["cell"].isin(cells) & ~frame["lineup"].isin(mirrors)]
    x = rows.groupby(["cell", "game", "lineup", "strategy"], observed=True)["win_share"].mean()
    for cell, part in x.groupby(level="cell", sort=True):
        yield int(cell), part.droplevel("cell").unstack(["lineup", "strategy"])


def adjusted_intervals(out: pd.DataFrame, p: str, diffs: dict, method: str = inference.PAIR_CORRECTION,
                       prefix: str = "holm") -> pd.DataFrame:
    """The rows' intervals at the level of their corrected family (inference.adjusted_confidence),
    as paired_difference draws them: ``{prefix}_level``, ``{prefix}_low``, ``{prefix}_high``.
    ``diffs`` maps a row's index to (its per-deal differences, their bounds or None, scale)."""
    level = inference.adjusted_confidence(out[p], method)
    out[f"{prefix}_level"] = level
    lows, highs = np.full(len(out), np.nan), np.full(len(out), np.nan)
    position = {i: k for k, i in enumerate(out.index)}
    groups: dict = {}
    for i in out.index:
        d, bounds, scale = diffs[i]
        groups.setdefault((bounds, scale), []).append(i)
    for (bounds, scale), rows in groups.items():
        _, low, high, _ = paired_differences([diffs[i][0] for i in rows], bounds, level)
        at = [position[i] for i in rows]
        lows[at], highs[at] = scale * low, scale * high
    out[f"{prefix}_low"], out[f"{prefix}_high"] = lows, highs
    return out


def pairwise(frame: pd.DataFrame, exp: Experiment) -> pd.DataFrame:
    """Every pair of strategies in every main cell: paired difference over deals.

    d(g) = score_A(g) - score_B(g); the test of simcards.stats.share_pvalue on d (a
    difference of shares, in [-1, 1]; the sign test where d is constant) gives the
    p-value, corrected over all pairs of the report by Holm's method; the effect is
    the mean of d in percentage points with its 95% interval (share_interval), and
    holm_low/holm_high its interval at Holm's level (holm_level), which excludes 0
    exactly where the corrected test rejects.

    Common random numbers: var_crn is the variance of d(g) as played (all
    line-ups on the same deals); var_independent is what it would be if every
    line-up had been dealt its own games (the sum of each line-up's own
    variance), so crn_saving = 1 - var_crn / var_independent.
    """
    players = {c.id: c.players for c in exp.cells}
    records = []
    diffs: dict[int, np.ndarray] = {}
    for cell, x in _lineup_matrices(frame, exp, [c.id for c in exp.cells if c.part == MAIN]):
        if x.empty:
            continue
        columns = list(x.columns)
        values = x.to_numpy(float)
        position = {c: i for i, c in enumerate(columns)}
        names = sorted({s for _, s in columns})
        by_strategy = {s: [c for c in columns if c[1] == s] for s in names}
        for a, b in itertools.combinations(names, 2):
            ca, cb = by_strategy[a], by_strategy[b]
            xa = values[:, [position[c] for c in ca]]
            xb = values[:, [position[c] for c in cb]]
            d = xa.mean(axis=1) - xb.mean(axis=1)
            var_crn = float(np.var(d, ddof=1)) if len(d) > 1 else float("nan")
            var_ind = 0.0
            for lineup in sorted({l for l, _ in ca + cb}):
                part = np.zeros(len(d))
                if (lineup, a) in position:
                    part += values[:, position[(lineup, a)]] / len(ca)
                if (lineup, b) in position:
                    part -= values[:, position[(lineup, b)]] / len(cb)
                var_ind += float(np.var(part, ddof=1)) if len(d) > 1 else float("nan")
            saving = 1 - var_crn / var_ind if var_ind > 0 else float("nan")
            diffs[len(records)] = (d, SHARE_DIFFERENCE, 100.0)
            records.append({"cell": cell, "players": players[cell], "a": a, "b": b,
                            "games": len(d), "var_crn": var_crn, "var_independent": var_ind,
                            "crn_saving": saving})
    out = pd.DataFrame(records, columns=["cell", "players", "a", "b", "games", "var_crn", "var_independent",
                                         "crn_saving"])
    mean, low, high, p_value = paired_differences([diffs[i][0] for i in range(len(out))], SHARE_DIFFERENCE)
    out.insert(5, "diff_pp", 100 * mean)
    out.insert(6, "ci_low_pp", 100 * low)
    out.insert(7, "ci_high_pp", 100 * high)
    out.insert(8, "p_value", p_value)
    out["p_holm"], out["significant"] = inference.correct(out["p_value"], inference.PAIR_CORRECTION)
    return adjusted_intervals(out, "p_value", diffs)


def crn_summary(pairs: pd.DataFrame) -> dict:
    """Variance of all pairwise differences as played against with independent deals."""
    ok = pairs.dropna(subset=["var_crn", "var_independent"])
    ok = ok[ok["var_independent"] > 0]
    if ok.empty:
        return {"pairs": 0}
    crn, ind = float(ok["var_crn"].sum()), float(ok["var_independent"].sum())
    saving = 1 - crn / ind
    return {"pairs": int(len(ok)), "var_crn": crn, "var_independent": ind, "saving": saving,
            "games_factor": ind / crn if crn > 0 else float("inf"),
            "median_saving": float(ok["crn_saving"].median())}
