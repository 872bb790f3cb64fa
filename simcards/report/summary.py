"""summary.json: one record per estimate of a report, and the comparison of two reports.

A record is ``{kind, players, name, estimate, low, high, n_deals, method}``;
kind is one of strategy, seat, pairwise, card, rating, sweep, verdict, skill. Win
rates and differences are fractions (not points); ratings are log strengths;
sweep effects on lengths are in the length's unit.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd

from simcards.errors import SimcardsError
from simcards.report.experiment import MAIN

FILE = "summary.json"
KEY = ["kind", "players", "name"]


def _rec(kind, players, name, estimate, low, high, n_deals, method, **extra) -> dict:
    def num(v):
        return None if v is None or (isinstance(v, float) and math.isnan(v)) else float(v)
    return {"kind": kind, "players": None if players is None else int(players), "name": str(name),
            "estimate": num(estimate), "low": num(low), "high": num(high),
            "n_deals": None if n_deals is None else int(n_deals), "method": method, **extra}


def records(res, exp) -> list[dict]:
    """Every estimate of an analysed experiment (main part, plus the sweep's effects)."""
    out = []
    for r in res.strategies[res.strategies["part"] == MAIN].itertuples():
        out.append(_rec("strategy", r.players, r.strategy, r.win_rate, r.ci_low, r.ci_high, r.games,
                        "t interval over deal means (net of seat)"))
    for r in res.seats[res.seats["part"] == MAIN].itertuples():
        out.append(_rec("seat", r.players, f"seat {r.seat} ({r.basis})", r.win_rate, r.ci_low, r.ci_high,
                        r.games, "t interval over deal means"))
    for r in res.pairs.itertuples():
        out.append(_rec("pairwise", r.players, f"{r.a} - {r.b}", r.diff_pp / 100, r.ci_low_pp / 100,
                        r.ci_high_pp / 100, r.games, "paired t over deals, Holm", p_adjusted=float(r.p_holm)))
    if res.cards is not None:
        for r in res.cards.itertuples():
            out.append(_rec("card", None, r.card, r.diff_pp / 100, r.ci_low_pp / 100, r.ci_high_pp / 100,
                            r.deals, "OLS clustered by deal, Benjamini-Hochberg", p_adjusted=float(r.p_bh)))
    if res.rating is not None:
        for r in res.rating.table.itertuples():
            out.append(_rec("rating", None, r.strategy, r.strength, r.ci_low, r.ci_high, None,
                            "Plackett-Luce (choix), bootstrap over deals"))
    if res.sweep is not None:
        from simcards.report.sweep import CORRECTION_NAMES, correction
        method = f"paired t over deals vs default, {CORRECTION_NAMES[correction(exp)]}"
        for r in res.sweep.itertuples():
            scale = 100 if r.unit == "points" else 1
            value = r.value if exp.grid_option is None else (r.value, r.value2)
            out.append(_rec("sweep", r.players, f"{exp.sweep_label(value)}: {r.measure}", r.effect / scale,
                            r.ci_low / scale, r.ci_high / scale, r.deals, method))
    if getattr(res, "skill", None) is not None:
        for r in res.skill.itertuples():
            out.append(_rec("skill", r.players, f"{r.strongest} against random", r.win_rate, r.ci_low,
                            r.ci_high, r.deals, "t interval over deal means (net of seat)",
                            variance_share=float(r.variance_share)))
    for v in res.verdicts:
        out.append(_rec("verdict", v.players, v.basis, v.first_edge, v.first_low, v.first_high, v.deals,
                        f"first-player edge; tolerance {exp.tolerance}", verdict=v.verdict,
                        p_equal_seats=None if math.isnan(v.p_equal) else v.p_equal))
    return out


def write(res, exp, out_dir: Path) -> Path:
    from simcards.outputs import write_text
    path = Path(out_dir) / FILE
    write_text(path, json.dumps({"experiment": exp.name, "game": exp.spec.name, "records": records(res, exp)},
                                indent=1) + "\n")
    return path


def load(path: str | Path) -> pd.DataFrame:
    """A report folder's (or a summary.json file's) records as a frame."""
    path = Path(path)
    if path.is_dir():
        path = path / FILE
    if not path.is_file():
        raise SimcardsError(f"no summary {str(path)!r}: expected a report folder holding {FILE} or the file")
    try:
        data = json.loads(path.read_text())
        frame = pd.DataFrame(data["records"])
    except (ValueError, KeyError) as exc:
        raise SimcardsError(f"bad summary {str(path)!r}: {exc}; expected what `simcards report` writes") from None
    frame["players"] = frame["players"].astype("Int64")
    return frame


def compare(a: str | Path, b: str | Path) -> pd.DataFrame:
    """Estimates of B outside A's interval, matched on (kind, players, name), largest moves first."""
    old, new = load(a), load(b)
    both = old.merge(new, on=KEY, suffixes=("_a", "_b"))
    moved = both[(both["estimate_b"] < both["low_a"]) | (both["estimate_b"] > both["high_a"])].copy()
    width = (moved["high_a"] - moved["low_a"]).where(lambda w: w > 0)
    moved["moved_by_widths"] = (moved["estimate_b"] - moved["estimate_a"]).abs() / width
    return moved.sort_values("moved_by_widths", ascending=False, ignore_index=True)[
        KEY + ["estimate_a", "low_a", "high_a", "estimate_b", "low_b", "high_b", "moved_by_widths"]]
