"""Paired differences, one per deal: the mean, its interval and the p-value of no difference.

Shared by the reports (simcards.report.pairs: strategies against each other; simcards.report.sweep:
rule sweeps) and by ``simcards tune`` (a candidate against the best so far), so it stands below both.
"""
from __future__ import annotations

import numpy as np

from simcards.statistics.intervals import CONFIDENCE, share_interval, share_pvalue

#: A difference of two win shares lies in [-1, 1]: the range of its boundary-safe interval.
SHARE_DIFFERENCE = (-1.0, 1.0)


def paired_difference(d: np.ndarray, bounds: tuple[float, float] | None = None,
                      confidence: float = CONFIDENCE) -> tuple[float, float, float, float]:
    """Mean of paired differences (one per deal), its interval and the two-sided p-value of 0.

    ``bounds``: the differences are of shares (win rates: (-1, 1)): the boundary-safe interval
    of simcards.stats.share_interval on that range and the test it inverts (share_pvalue), so
    they agree. Else (lengths) the t interval and t-test (statsmodels' DescrStatsW's numbers).
    Where every difference is the same number c there is no spread to test: p is the exact sign
    test's (scipy's binomtest of the signs: five equal non-zero differences give 0.0625, none
    gives 1), the interval the exact one of that many deals on the bounded range (a point for
    lengths)."""
    mean, low, high, p = paired_differences([d], bounds, confidence)
    return float(mean[0]), float(low[0]), float(high[0]), float(p[0])


def paired_differences(ds, bounds: tuple[float, float] | None = None, confidence: float = CONFIDENCE
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``paired_difference`` of many series at once: (means, lows, highs, p-values) arrays."""
    ds = [np.asarray(d, float) for d in ds]
    n = np.array([len(d) for d in ds], float)
    mean = np.array([d.mean() if len(d) else np.nan for d in ds])
    sd = np.array([d.std(ddof=1) if len(d) > 1 else 0.0 for d in ds])
    constant = np.array([len(d) > 0 and float(np.ptp(d)) == 0.0 for d in ds])
    with np.errstate(divide="ignore", invalid="ignore"):
        se = np.where(n > 1, sd / np.sqrt(n), 0.0)
    if bounds is not None:
        low, high = share_interval(mean, se, n, confidence, *bounds)
        p = share_pvalue(mean, se, n, 0.0, "two-sided", *bounds)
    else:
        from scipy.special import stdtr, stdtrit
        df = np.maximum(n - 1, 1)
        half = stdtrit(df, 0.5 + confidence / 2) * se
        low, high = mean - half, mean + half
        with np.errstate(divide="ignore", invalid="ignore"):
            p = 2 * stdtr(df, -np.abs(mean) / se)
        p = np.where((n > 1) & (se > 0), p, np.nan)
    if constant.any():
        from scipy.stats import binomtest
        for i in np.flatnonzero(constant):
            p[i] = 1.0 if mean[i] == 0 else float(binomtest(int(n[i]), int(n[i]), 0.5).pvalue)
    return mean, np.asarray(low, float), np.asarray(high, float), np.asarray(p, float)
