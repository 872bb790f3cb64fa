"""Standard errors with the deal as the unit, where a mean of deal means does not serve.

Rows of one deal are not independent: a deal's hands repeat in every line-up
and seat order, and its seats share one winner. Card effects are regressions
with cluster-robust standard errors grouped by deal (statsmodels OLS,
``cov_type="cluster"``); Plackett-Luce ratings are refitted (choix) on
bootstrap resamples of whole deals; the balance verdict tests equal seat win
rates on the per-deal seat means (Hotelling's T², statsmodels).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
import statsmodels.api as sm
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.multivariate import test_mvmean
from statsmodels.stats.weightstats import DescrStatsW

from simcards.stats import CONFIDENCE

#: Bootstrap resamples of deals for the rating intervals.
BOOTSTRAP = 40
CARD_CORRECTION = "fdr_bh"        # Benjamini-Hochberg over the cards of a report
PAIR_CORRECTION = "holm"          # Holm over the strategy pairs of a report


def cluster_ols(y: np.ndarray, x: np.ndarray, groups: np.ndarray):
    """OLS of y on x (with its own constant columns) with standard errors clustered by ``groups``."""
    return sm.OLS(y, x).fit(cov_type="cluster", cov_kwds={"groups": groups})


def clustered_mean(y: np.ndarray, groups: np.ndarray) -> tuple[float, float]:
    """Mean of y and its cluster-robust standard error (deal = cluster)."""
    y = np.asarray(y, float)
    if len(y) == 0:
        return float("nan"), float("nan")
    if np.ptp(y) == 0 or len(np.unique(groups)) < 2:
        return float(y.mean()), 0.0
    fit = cluster_ols(y, np.ones((len(y), 1)), groups)
    return float(fit.params[0]), float(fit.bse[0])


def card_effect(y: np.ndarray, dealt: np.ndarray, strata: np.ndarray, groups: np.ndarray
                ) -> tuple[float, float, float]:
    """Win-share difference dealt minus not dealt, within player counts; (effect, se, p).

    OLS of the seat's win share on the dealt indicator and one constant per
    player count (the fair share differs), standard errors clustered by deal."""
    levels = np.unique(strata)
    x = np.column_stack([dealt.astype(float)] + [(strata == s).astype(float) for s in levels])
    if dealt.min() == dealt.max():
        return float("nan"), float("nan"), float("nan")
    fit = cluster_ols(np.asarray(y, float), x, groups)
    return float(fit.params[0]), float(fit.bse[0]), float(fit.pvalues[0])


def correct(p_values, method: str) -> tuple[np.ndarray, np.ndarray]:
    """(adjusted p-values, rejected at 1 - CONFIDENCE) by statsmodels' multipletests; NaN stays NaN."""
    p = np.asarray(p_values, float)
    adjusted = np.full(p.shape, np.nan)
    reject = np.zeros(p.shape, bool)
    ok = ~np.isnan(p)
    if ok.any():
        reject[ok], adjusted[ok], _, _ = multipletests(p[ok], alpha=1 - CONFIDENCE, method=method)
    return adjusted, reject


# ------------------------------------------------------------------ ratings
def bootstrap_rating(n_items: int, deal_events: list[list[tuple[int, list[int]]]], fit,
                     theta: np.ndarray, seed: int, resamples: int = BOOTSTRAP) -> np.ndarray:
    """Standard errors of Plackett-Luce strengths from refits on deals drawn with replacement.

    ``deal_events[d]`` holds every choice event of deal d (all its line-ups and
    seat orders), so a resample keeps each deal's games together; ``fit(events,
    init)`` refits (choix), warm-started from ``theta``. Same seed, same errors."""
    rng = np.random.default_rng(seed)
    draws = np.empty((resamples, n_items))
    for b in range(resamples):
        pick = rng.integers(0, len(deal_events), len(deal_events))
        events = [e for d in pick for e in deal_events[d]]
        est = fit(events, theta)
        draws[b] = est - est.mean()
    return draws.std(axis=0, ddof=1)


# ------------------------------------------------------------------ balance verdict
@dataclass
class Verdict:
    players: int
    basis: str
    deals: int
    p_equal: float            # Hotelling's test of equal seat win rates
    first_edge: float         # seat 0 win rate minus the fair share
    first_low: float
    first_high: float
    max_edge: float           # the seat furthest from fair share (signed)
    verdict: str              # balanced | unbalanced | undetermined
    more_games: int           # about this many more deals to decide (undetermined only)


def seat_test(per_deal: np.ndarray) -> float:
    """p-value of "every seat wins equally often" from per-deal seat win shares (deals x seats).

    Hotelling's T² (statsmodels) on the differences seat p - seat 0, p >= 1:
    one vector per deal, so the deal is the unit and seats of one deal may be
    correlated (they are: one of them wins)."""
    diffs = per_deal[:, 1:] - per_deal[:, :1]
    if diffs.shape[1] == 0 or len(diffs) <= diffs.shape[1] or np.allclose(diffs.var(axis=0), 0):
        return float("nan")
    keep = diffs.var(axis=0) > 0
    if keep.sum() == 1:   # two seats: Hotelling's T² is the square of the paired t
        return float(DescrStatsW(diffs[:, keep][:, 0]).ttest_mean(0.0)[1])
    return float(test_mvmean(diffs[:, keep], np.zeros(int(keep.sum()))).pvalue)


#: An undetermined verdict asks for at most this many times the deals played so far.
MAX_GROWTH = 1000


def decide(edges: pd.DataFrame, tolerance: float) -> tuple[str, int]:
    """Verdict from seat edges (columns edge, low, high, deals) and the tolerance.

    balanced within tolerance: every seat's interval lies inside ±tolerance;
    unbalanced: some seat's interval lies wholly outside it; else undetermined,
    with the deals the widest undecided interval needs (a half-width shrinks as
    1/sqrt(deals)) to end inside or outside."""
    inside = (edges["low"] >= -tolerance) & (edges["high"] <= tolerance)
    outside = (edges["low"] > tolerance) | (edges["high"] < -tolerance)
    if outside.any():
        return "unbalanced", 0
    if inside.all():
        return "balanced within tolerance", 0
    need = 0
    for r in edges[~inside].itertuples():
        half = (r.high - r.low) / 2
        gap = abs(tolerance - abs(r.edge))
        # an edge (almost) on the tolerance needs more deals than any run could play:
        # say so (need stays 0) rather than print an astronomical count
        if half <= 0 or gap <= half / math.sqrt(MAX_GROWTH):
            continue
        need = max(need, math.ceil(r.deals * (half / gap) ** 2) - r.deals)
    return "undetermined", need


def verdict_text(v: Verdict, tolerance: float) -> str:
    if v.verdict == "undetermined":
        return (f"undetermined: about {v.more_games:,} more deals needed" if v.more_games > 0
                else f"undetermined: a seat's edge sits at the tolerance, more than "
                     f"{MAX_GROWTH:,} times the deals played would be needed to decide")
    return f"{v.verdict} (±{100 * tolerance:.1f} points)" if v.verdict.startswith("balanced") else v.verdict
