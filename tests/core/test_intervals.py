"""Calibration of the boundary-safe share interval (simcards.stats.share_interval, through
mean_interval) where the truth is known: near the bounds, and under a 1/m bound.

A strong player against random ones can win every deal of a skill index: a t interval of the
deal means then has no spread and collapses to [1, 1], and short of that it under-covers next
to the bound (0.84 at p = 0.995 with 300 deals x 2 seat orders). ``share=True`` draws Wilson's
interval on the Korn-Graubard effective count, exact where it must be. Replicates of deals whose
true win rate is known check the coverage, and the bare t interval, on the same replicates, is
seen to fail (so the check can fail)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from simcards.stats import mean_interval, share_interval

REPLICATES = 4000
DEALS = 300
SEATINGS = 4          # a deal's score: the strong seat's mean over its 4 seat positions


def _per_deal(wins: np.ndarray) -> pd.Series:
    """Replicates x deals x seatings outcomes as deal means indexed (replicate, game)."""
    r, d, _ = wins.shape
    return pd.Series(wins.mean(axis=2).ravel(), index=pd.MultiIndex.from_product(
        [range(r), range(d)], names=["replicate", "game"]))


def _coverage(p: float, share: bool, seed: int = 7, deals: int = DEALS, seatings: int = SEATINGS,
              replicates: int = REPLICATES) -> float:
    rng = np.random.default_rng(seed)
    iv = mean_interval(_per_deal(rng.random((replicates, deals, seatings)) < p), ["replicate"], share=share)
    return float(((iv["ci_low"] <= p) & (p <= iv["ci_high"])).mean())


@pytest.mark.parametrize("p", [0.998, 0.002])
def test_a_share_at_its_bound_keeps_its_coverage(p):
    # at p = 0.998, 300 deals of 4 seatings all win with chance 0.998**1200 = 9%: the bare t
    # interval is then the point 1 and misses; the exact interval [0.988, 1] covers
    assert _coverage(p, share=True) >= 0.95
    assert _coverage(p, share=False) < 0.93


@pytest.mark.parametrize("p,deals,seatings", [(0.99, 300, 2), (0.997, 300, 2), (0.99, 50, 2),
                                              (0.997, 100, 6), (0.01, 300, 2)])
def test_a_share_near_its_bound_keeps_its_coverage(p, deals, seatings):
    """The skill index's case, 300 deals x 2 seat orders, at p = 0.99 and 0.997, and fewer deals:
    coverage at least 93% where the t interval of the deal means falls below it."""
    covered = _coverage(p, share=True, seed=11, deals=deals, seatings=seatings, replicates=3000)
    assert 0.93 <= covered <= 0.999, covered
    if (p, deals) == (0.997, 300):
        assert _coverage(p, share=False, seed=11, deals=deals, seatings=seatings, replicates=3000) < 0.90


@pytest.mark.parametrize("players,held", [(3, 2), (4, 3), (5, 4), (5, 2)])
def test_a_strategy_in_m_seats_keeps_its_coverage_under_its_1_over_m_bound(players, held):
    """A strategy holding m of n seats of every game wins at most 1/m of a game: against one
    strong seat that nearly always wins, its share sits next to 0; against a weak one next to
    1/m. The interval stays inside [0, 1/m] and covers the truth."""
    rng = np.random.default_rng(players * 10 + held)
    for strong_wins in (0.995, 0.004):
        # per deal and seat order: the strong seat wins w.p. strong_wins, else one of the others
        # at random; the strategy holds `held` of the n - 1 other seats
        strong = rng.random((2000, 60, players)) < strong_wins
        mine = rng.random((2000, 60, players)) < held / (players - 1)
        score = np.where(strong, 0.0, mine / held)       # its seats' mean share in that game
        truth = (1 - strong_wins) / (players - 1)
        iv = mean_interval(_per_deal(score), ["replicate"], share=True, upper=1.0 / held)
        assert (iv["ci_high"] <= 1.0 / held + 1e-12).all() and (iv["ci_low"] >= 0).all()
        covered = float(((iv["ci_low"] <= truth) & (truth <= iv["ci_high"])).mean())
        assert 0.93 <= covered <= 0.999, (strong_wins, covered)     # exact next to a bound: may be wider


def test_a_share_away_from_its_bounds_is_about_the_t_interval():
    assert 0.93 <= _coverage(0.3, share=True) <= 0.97
    rng = np.random.default_rng(3)
    per_deal = pd.Series(rng.random(500), index=pd.Index(range(500), name="game"))
    share, t = mean_interval(per_deal, share=True).iloc[0], mean_interval(per_deal).iloc[0]
    assert share["ci_high"] - share["ci_low"] == pytest.approx(t["ci_high"] - t["ci_low"], rel=0.02)


def test_every_deal_won_gives_the_exact_binomial_interval():
    ones = pd.Series(np.ones(DEALS), index=pd.Index(range(DEALS), name="game"))
    row = mean_interval(ones, share=True).iloc[0]
    assert row["ci_high"] == 1.0
    # Clopper-Pearson with n successes in n trials: the lower end is (alpha / 2) ** (1 / n)
    assert row["ci_low"] == pytest.approx(0.025 ** (1 / DEALS))
    zeros = mean_interval(ones * 0, share=True).iloc[0]
    assert (zeros["ci_low"], zeros["ci_high"]) == (0.0, pytest.approx(1 - 0.025 ** (1 / DEALS)))


def test_one_deal_or_deals_all_alike_never_give_a_point():
    """One deal, or every deal the same share inside (0, 1): no spread is measured, and the
    interval is the exact one of that many deals (Clopper-Pearson's beta quantiles, fractional)."""
    from scipy.stats import beta
    for mean, deals in ((0.5, 1), (1 / 6, 2), (0.25, 40)):
        low, high = share_interval(mean, 0.0, deals)
        k = mean * deals
        want = (beta.ppf(0.025, k, deals - k + 1), beta.ppf(0.975, k + 1, deals - k))
        assert (float(low), float(high)) == pytest.approx(want, abs=1e-9)
        assert float(high) - float(low) > 0.05
    # a strategy in 5 seats scoring 1/6 of 1/5 in every deal: inside [0, 1/5], never a point
    low, high = share_interval(1 / 6, 0.0, 2, upper=0.2)
    assert 0 < float(low) < 1 / 6 < float(high) <= 0.2
