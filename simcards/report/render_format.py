"""How the page writes numbers: estimates, intervals, points, p-values, minutes, units, and the
interval at a corrected level beside a table's own."""
from __future__ import annotations

import math

import pandas as pd


def _f(v, digits: int = 3) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "n/a"
    return f"{v:.{digits}f}"


def _ci(low, high, digits: int = 3) -> str:
    return f"{_f(low, digits)} to {_f(high, digits)}"


def _pp(v) -> str:
    return "n/a" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:+.2f}"


def _p(v) -> str:
    return "n/a" if v is None or math.isnan(v) else ("< 0.0001" if v < 1e-4 else f"{v:.4f}")


def _num(v) -> float:
    try:
        return float(v)
    except (TypeError, ValueError):
        return float("nan")


def _minutes(v: float) -> str:
    return f"{v:.0f}" if v >= 10 else f"{v:.1f}"


def _unit(column: str) -> str:
    """A counted game column's unit, singular: actions -> action, passes -> pass, takes_total -> take."""
    word = column.removesuffix("_total")
    return word[:-2] if word.endswith("sses") else word[:-1] if word.endswith("s") else word


def _adjusted(frame: pd.DataFrame, low: str, high: str, level: str) -> tuple[list[str], list[str]]:
    """(header, cells) of the interval at the corrected level where the statistics give one, else empty."""
    if frame is None or not len(frame) or not {low, high, level} <= set(frame.columns):
        return [], []
    lv = float(frame[level].iloc[0])
    return ([f"interval at the corrected level ({100 * lv:.2f}%)"],
            [f"{_pp(a)} to {_pp(b)}" for a, b in zip(frame[low], frame[high])])
