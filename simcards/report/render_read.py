"""The results as the page reads them: a verdict's kind and its deciding seat, the skill rows,
the information ceiling's rows and the minutes a game takes.

The verdict records and the skill table grow fields as the statistics do (issue 50: the worst
seat with its interval, an equivalence test, a power-based count of deals, a log-odds skill
gap). Everything here reads them where they exist and falls back on what every version has.
"""
from __future__ import annotations

import math

import pandas as pd

from simcards.report.analysis import Results
from simcards.report.experiment import MAIN
from simcards.report.render_format import _num, _unit


def _kind(v) -> str:
    """fair | unfair | undecided, from the verdict's words."""
    text = str(getattr(v, "verdict", "")).lower()
    if text.startswith("unbalanced") or text.startswith("unfair"):
        return "unfair"
    if text.startswith("balanced") or text.startswith("fair") or text.startswith("equivalent"):
        return "fair"
    return "undecided"


def _worst(v, res: Results, tolerance: float) -> tuple[int | None, float, float, float]:
    """(seat, edge, low, high) of the seat that decides a verdict, as fractions: the verdict's own
    where it names one, else the seat furthest from its fair share (for an unfair verdict, among
    the seats whose interval lies wholly outside the tolerance)."""
    seat = getattr(v, "worst_seat", None)
    if seat is not None:
        edge = _num(getattr(v, "worst_edge", getattr(v, "max_edge", float("nan"))))
        return (int(seat), edge, _num(getattr(v, "worst_low", float("nan"))),
                _num(getattr(v, "worst_high", float("nan"))))
    s = res.seats
    s = s[(s["part"] == MAIN) & (s["players"] == v.players) & (s["basis"] == v.basis)]
    if s.empty:
        return None, _num(getattr(v, "max_edge", float("nan"))), float("nan"), float("nan")
    edge = s["win_rate"] - s["fair_share"]
    low, high = s["ci_low"] - s["fair_share"], s["ci_high"] - s["fair_share"]
    outside = (low > tolerance) | (high < -tolerance)
    pick = edge[outside] if _kind(v) == "unfair" and outside.any() else edge
    i = pick.abs().idxmax()
    return int(s.at[i, "seat"]), float(edge[i]), float(low[i]), float(high[i])


def _reason(v, tolerance: float) -> str:
    for name in ("reason", "why", "undecided_reason"):
        text = getattr(v, name, None)
        if text:
            return str(text)
    from simcards.report.inference import verdict_text
    text = verdict_text(v, tolerance)
    return text.split(":", 1)[1].strip() if ":" in text else text


def _seat_name(seat: int | None) -> str:
    return "a seat" if seat is None else (f"seat {seat} (plays first)" if seat == 0 else f"seat {seat}")


def _logit(p: float) -> float:
    if not 0 < p < 1:
        return float("inf") if p >= 1 else float("-inf")
    return math.log(p / (1 - p))


def skill_rows(res: Results) -> list[dict]:
    """Per player count: the strong player, its win rate with interval, the fair share and its
    log-odds edge over a fair share (the statistics' own where the table has one)."""
    t = res.skill
    if t is None or t.empty:
        return []
    rows = []
    for _, r in t.iterrows():
        row = {"players": int(r["players"]), "strongest": str(r["strongest"]), "win_rate": _num(r["win_rate"]),
               "low": _num(r["ci_low"]), "high": _num(r["ci_high"]), "fair": _num(r["fair_share"]),
               "deals": int(r["deals"])}
        for est, lo, hi in (("logodds", "logodds_low", "logodds_high"),
                            ("log_odds_gap", "log_odds_low", "log_odds_high"), ("log_odds", "log_odds_low",
                            "log_odds_high"), ("gap", "gap_low", "gap_high"), ("elo", "elo_low", "elo_high")):
            if est in r and lo in r and hi in r:
                row.update(gap=_num(r[est]), gap_low=_num(r[lo]), gap_high=_num(r[hi]), given=est)
                break
        else:
            base = _logit(row["fair"])
            row.update(gap=_logit(row["win_rate"]) - base, gap_low=_logit(row["low"]) - base,
                       gap_high=_logit(row["high"]) - base, given="")
        rows.append(row)
    return rows


def _gap_text(row: dict) -> str:
    if row.get("given") == "elo":
        return f"{row['gap']:+.0f} Elo [{row['gap_low']:+.0f}, {row['gap_high']:+.0f}]"
    if math.isinf(row["gap"]):
        return f"at least {row['gap_low']:+.1f} (won every deal)"
    high = "no upper end" if math.isinf(row["gap_high"]) else f"{row['gap_high']:+.1f}"
    odds = math.exp(row["gap"])
    return (f"{row['gap']:+.1f} [{row['gap_low']:+.1f}, {high}] "
            + (f"(odds ×{odds:.1f} a fair share's)" if odds < 100 else f"(odds ×{odds:.0f})"))


def _time_rows(res: Results) -> pd.DataFrame:
    d = getattr(res.designer, "minutes", None)
    return d if isinstance(d, pd.DataFrame) and "median" in d else pd.DataFrame()


def _cost_text(exp, res: Results) -> str:
    costs = getattr(res.designer, "costs", None) or {exp.spec.step_column: exp.seconds_per_turn}
    return " + ".join(f"{s:g} s per {_unit(c)}" for c, s in costs.items())


def ceiling_rows(res: Results) -> list[dict]:
    t = getattr(res, "oracle", None)
    return [] if t is None or t.empty else t.to_dict("records")


def _share_text(r: dict, key: str) -> str:
    lo, hi = r[f"{key}_low"], r[f"{key}_high"]
    band = f" [{100 * lo:.0f}, {100 * hi:.0f}]" if lo == lo and hi == hi else ""
    return f"{100 * r[key]:.0f}%{band}"
