"""Calibration of simcards.stats.mean_interval where the truth is known, at the bounds of a share.

A strong player against random ones can win every deal of a skill index: the t interval of the
deal means then has no spread and collapses to [1, 1], which excludes every true rate below 1.
``share=True`` falls back to the exact binomial interval there. Replicates of deals whose true
win rate is known check both: the fallback keeps the coverage at 95% or above, and the bare t
interval, on the same replicates, is seen to fail (so the check can fail)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from simcards.stats import mean_interval

REPLICATES = 4000
DEALS = 300
SEATINGS = 4          # a deal's score: the strong seat's mean over its 4 seat positions


def _coverage(p: float, share: bool, seed: int = 7) -> float:
    rng = np.random.default_rng(seed)
    wins = rng.random((REPLICATES, DEALS, SEATINGS)) < p
    per_deal = pd.Series(wins.mean(axis=2).ravel(), index=pd.MultiIndex.from_product(
        [range(REPLICATES), range(DEALS)], names=["replicate", "game"]))
    iv = mean_interval(per_deal, ["replicate"], share=share)
    return float(((iv["ci_low"] <= p) & (p <= iv["ci_high"])).mean())


@pytest.mark.parametrize("p", [0.998, 0.002])
def test_a_share_at_its_bound_keeps_its_coverage(p):
    # at p = 0.998, 300 deals of 4 seatings all win with chance 0.998**1200 = 9%: the bare t
    # interval is then the point 1 and misses; the exact interval [0.988, 1] covers
    assert _coverage(p, share=True) >= 0.95
    assert _coverage(p, share=False) < 0.93


def test_a_share_away_from_its_bounds_keeps_the_t_interval():
    assert 0.93 <= _coverage(0.3, share=True) <= 0.97
    rng = np.random.default_rng(3)
    per_deal = pd.Series(rng.random(50), index=pd.Index(range(50), name="game"))
    pd.testing.assert_frame_equal(mean_interval(per_deal, share=True), mean_interval(per_deal))


def test_every_deal_won_gives_the_exact_binomial_interval():
    ones = pd.Series(np.ones(DEALS), index=pd.Index(range(DEALS), name="game"))
    row = mean_interval(ones, share=True).iloc[0]
    assert row["ci_high"] == 1.0
    # Clopper-Pearson with n successes in n trials: the lower end is (alpha / 2) ** (1 / n)
    assert row["ci_low"] == pytest.approx(0.025 ** (1 / DEALS))
    zeros = mean_interval(ones * 0, share=True).iloc[0]
    assert (zeros["ci_low"], zeros["ci_high"]) == (0.0, pytest.approx(1 - 0.025 ** (1 / DEALS)))
