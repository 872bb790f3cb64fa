"""Statistics against known values: scipy and statsmodels on fixed inputs, synthetic strengths."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import scipy.stats

from simcards.report.analysis import card_effects, fit_strengths, games_needed, paired_difference, ranking_events
from simcards.report.inference import bootstrap_rating
from simcards.stats import deal_mean_totals, deal_means, distinct_count, wilson


@pytest.mark.parametrize("k,n", [(0, 10), (3, 10), (50, 100), (997, 1000), (1234, 5000)])
def test_wilson_matches_scipy(k, n):
    low, high = wilson([k], [n])
    ci = scipy.stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    assert low[0] == pytest.approx(ci.low, abs=1e-12)
    assert high[0] == pytest.approx(ci.high, abs=1e-12)


def test_wilson_matches_statsmodels_on_shares_and_arrays():
    # shared wins make fractional successes; a summary asks for many intervals in one call
    from statsmodels.stats.proportion import proportion_confint
    k = np.array([0.0, 0.5, 2.25, 333.5, 1e6 / 3, 7.0])
    n = np.array([1.0, 3.0, 10.0, 1000.0, 1e6, 7.0])
    for confidence in (0.95, 0.99):
        low, high = wilson(k, n, confidence)
        want_low, want_high = proportion_confint(k, n, alpha=1 - confidence, method="wilson")
        np.testing.assert_allclose(low, want_low, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(high, want_high, rtol=1e-12, atol=1e-15)


def test_paired_difference_matches_scipy():
    rng = np.random.default_rng(5)
    d = rng.normal(0.03, 0.4, size=400)
    mean, low, high, p = paired_difference(d)
    test = scipy.stats.ttest_1samp(d, 0.0)
    ci = test.confidence_interval(0.95)
    assert mean == pytest.approx(d.mean())
    assert p == pytest.approx(test.pvalue, rel=1e-10)
    assert (low, high) == pytest.approx((ci.low, ci.high), rel=1e-10)


def test_paired_difference_constant_takes_the_sign_test():
    """Five equal non-zero differences: no spread for a t-test (it said p = 0); the exact sign
    test says 2 x 0.5**5 = 0.0625 (scipy's binomtest), whatever their size. As win-rate
    differences (bounded) the interval is never a point."""
    assert paired_difference(np.zeros(5)) == (0.0, 0.0, 0.0, 1.0)
    for c in (1.0, 0.2, -0.05):
        mean, low, high, p = paired_difference(np.full(5, c))
        assert p == pytest.approx(0.0625) and mean == pytest.approx(c)
        assert p == pytest.approx(scipy.stats.binomtest(5, 5).pvalue)
        mean, low, high, p = paired_difference(np.full(5, c), (-1.0, 1.0))
        assert p == pytest.approx(0.0625) and low < c < high or (c == 1.0 and low < c == high)
    assert paired_difference(np.full(12, 0.3))[3] == pytest.approx(2 * 0.5 ** 12)


def test_bounded_paired_difference_is_the_t_test_away_from_the_bounds():
    rng = np.random.default_rng(6)
    d = rng.normal(0.01, 0.3, size=2000).clip(-1, 1)
    mean, low, high, p = paired_difference(d, (-1.0, 1.0))
    _, t_low, t_high, t_p = paired_difference(d)
    assert (low, high) == pytest.approx((t_low, t_high), abs=2e-4)
    assert p == pytest.approx(t_p, rel=0.05)


def test_share_interval_is_wilson_on_the_effective_count():
    """Korn-Graubard: n_eff = p (1 - p) / se**2 x (z / t_{deals-1})**2, then statsmodels' Wilson."""
    from statsmodels.stats.proportion import proportion_confint
    from simcards.stats import share_interval
    mean, se, deals = 0.31, 0.012, 400
    n_eff = mean * (1 - mean) / se ** 2 * (scipy.stats.norm.ppf(0.975) / scipy.stats.t.ppf(0.975, deals - 1)) ** 2
    want = proportion_confint(mean * n_eff, n_eff, method="wilson")
    got = share_interval(mean, se, deals)
    assert (float(got[0]), float(got[1])) == pytest.approx(want, rel=1e-9)
    # on [0, 1/3] (a strategy in 3 seats) it is the interval of the share x 3, over 3
    low, high = share_interval(mean / 3, se / 3, deals, upper=1 / 3)
    assert (float(low), float(high)) == pytest.approx((want[0] / 3, want[1] / 3), rel=1e-9)


@pytest.mark.parametrize("mean,se,deals", [(0.3, 0.01, 1000), (0.05, 0.004, 300), (0.995, 0.003, 300),
                                           (0.62, 0.0, 40), (0.5, 0.0, 1), (0.2, 0.03, 8)])
def test_share_pvalue_is_the_test_the_interval_inverts(mean, se, deals):
    """Each end of the 1 - 2a interval is the null at which the one-sided p-value is a: an
    interval and its test never disagree (the exact side near a bound included)."""
    from simcards.stats import share_interval, share_pvalue
    for a in (0.025, 0.005):
        low, high = share_interval(mean, se, deals, 1 - 2 * a)
        if low > 0:
            assert float(share_pvalue(mean, se, deals, low, "larger")) == pytest.approx(a, rel=1e-6)
        if high < 1:
            assert float(share_pvalue(mean, se, deals, high, "smaller")) == pytest.approx(a, rel=1e-6)


def test_holm_is_statsmodels_holm():
    from statsmodels.stats.multitest import multipletests
    from simcards.report.inference import correct
    rng = np.random.default_rng(2)
    for m in (1, 5, 40):
        p = rng.random(m) ** 3
        adjusted, reject = correct(p, "holm", 0.05)
        want_reject, want_adjusted, _, _ = multipletests(p, alpha=0.05, method="holm")
        np.testing.assert_allclose(adjusted, want_adjusted, rtol=1e-12)
        assert (reject == want_reject).all()


@pytest.mark.parametrize("method", ["holm", "fdr_bh"])
def test_corrected_intervals_agree_with_corrected_p_values(method):
    """At inference.adjusted_confidence's level, a difference's interval excludes 0 exactly where
    the correction rejects it: an interval and 'significant' never contradict each other."""
    from simcards.report.inference import adjusted_confidence, correct
    rng = np.random.default_rng(9 if method == "holm" else 10)
    agree = 0
    for family in range(30):
        effects = rng.choice([0.0, 0.02, 0.05], size=12)
        diffs = [np.clip(rng.normal(e, 0.4, 300), -1, 1) for e in effects]
        p = np.array([paired_difference(d, (-1.0, 1.0))[3] for d in diffs])
        _, reject = correct(p, method)
        level = adjusted_confidence(p, method)
        for d, r in zip(diffs, reject):
            _, low, high, _ = paired_difference(d, (-1.0, 1.0), level)
            assert (not (low <= 0 <= high)) == r
            agree += 1
    assert agree == 360


def test_one_deal_per_row_card_effect_is_the_unequal_variance_difference():
    # one player count, every row its own deal: the clustered OLS difference is the
    # difference of the two means with the (HC1-scaled) Welch variance
    rng = np.random.default_rng(3)
    y = (rng.random(2000) < 0.3).astype(float)
    dealt = rng.random(2000) < 0.25
    table = card_effects(dealt.astype(np.int64), y, np.full(2000, 4), np.arange(2000), ["A"])
    d = y[dealt].mean() - y[~dealt].mean()
    se = np.sqrt(y[dealt].var() / dealt.sum() + y[~dealt].var() / (~dealt).sum()) * np.sqrt(2000 / 1999)
    assert table["diff_pp"].iloc[0] == pytest.approx(100 * d)
    z = scipy.stats.norm.ppf(0.975)
    assert table["ci_high_pp"].iloc[0] - table["diff_pp"].iloc[0] == pytest.approx(100 * z * se, rel=2e-3)


def test_ranking_events_with_ties():
    # seats 0..4 with strategies (items) 0, 1, 1, 2, 0 and places 2, 1, 3, 3, 3
    events = ranking_events(np.array([2, 1, 3, 3, 3]), np.array([0, 1, 1, 2, 0]))
    assert events == [(1, [0, 1, 2, 0]),   # seat 1 first, chosen from all five seats
                      (0, [1, 2, 0])]      # then seat 0; the last three tie: no event
    # a tie for second place: both chosen from the same set (Breslow)
    events = ranking_events(np.array([1, 2, 2, 4]), np.array([0, 1, 2, 3]))
    assert events == [(0, [1, 2, 3]), (1, [2, 3]), (2, [1, 3])]


def _rating(n_items: int, per_game: list, alpha: float, resamples: int = 20):
    """Strengths and their standard errors as a report gets them: choix, then a bootstrap over
    deals (here every game is its own deal)."""
    theta = fit_strengths(n_items, [e for game in per_game for e in game], alpha=alpha)
    se = bootstrap_rating(n_items, per_game, lambda ev, init: fit_strengths(n_items, ev, init, alpha=alpha),
                          theta, seed=4, resamples=resamples)
    return theta, se


def test_plackett_luce_equals_choix_rankings_without_ties():
    import choix
    # Plackett-Luce rankings of 3 of the 4 items, drawn with our own Generator (Gumbel-max: the
    # order of strength + Gumbel noise is a Plackett-Luce ranking), so the sample does not hang on
    # the global legacy stream that choix.generate_rankings uses, which differed between machines.
    rng = np.random.default_rng(3)
    truth = np.array([0.8, 0.3, -0.2, -0.9])
    rankings = []
    for _ in range(2000):
        items = rng.choice(4, size=3, replace=False)
        rankings.append(items[np.argsort(-(truth[items] + rng.gumbel(size=3)))])
    per_game = []
    for ranking in rankings:
        ranks = np.empty(len(ranking), int)
        ranks[np.arange(len(ranking))] = np.arange(1, len(ranking) + 1)
        per_game.append(ranking_events(ranks, np.asarray(ranking)))
    theta, se = _rating(4, per_game, alpha=0.0, resamples=40)
    expected = choix.ilsr_rankings(4, rankings, tol=1e-10)
    assert theta == pytest.approx(expected, abs=1e-5)
    # strengths are identified up to a constant: compare centred values
    assert np.all(np.abs(theta - (truth - truth.mean())) < 4 * se)


def test_plackett_luce_recovers_strengths_with_repeated_strategies():
    """Synthetic 4-seat games where one strategy holds two seats: the fit finds the true strengths."""
    rng = np.random.default_rng(8)
    truth = np.array([1.0, 0.2, -0.4, -0.8])
    truth -= truth.mean()
    weights = np.exp(truth)
    per_game = []
    for g in range(3000):
        items = rng.choice(4, size=3, replace=False)
        seats = np.append(items, items[0])          # items[0] plays two seats
        left = list(range(4))
        ranks = np.zeros(4, int)
        for place in range(1, 5):                  # Plackett-Luce: pick seats best first
            w = weights[seats[left]]
            pick = left[rng.choice(len(left), p=w / w.sum())]
            ranks[pick] = place
            left.remove(pick)
        per_game.append(ranking_events(ranks, seats))
    theta, se = _rating(4, per_game, alpha=0.01, resamples=12)
    assert np.all(np.abs(theta - truth) < 4 * se), (theta, truth, se)
    assert np.all(se < 0.06)
    assert list(np.argsort(-theta)) == [0, 1, 2, 3]


def test_games_needed():
    import pandas as pd
    iv = pd.DataFrame({"what": ["a", "b", "c"], "cells": [(0,), (1,), (0, 1)],
                       "half_width": [0.02, 0.005, float("nan")]})
    need = games_needed(iv, {0: 100, 1: 400}, 0.01)
    assert need == {0: int(np.ceil(100 * 4 * 1.1))}
    assert games_needed(iv, {0: 100, 1: 400}, 0.05) == {}


def test_planned_deals_are_statsmodels_power_at_the_worst_plausible_edge():
    """plan_deals: TTestPower's deals for the gap between the tolerance and the edge at the one-
    sided 80% bound toward it (not the estimate); infinite where the edge sits on the tolerance."""
    from statsmodels.stats.power import TTestPower
    from simcards.report.inference import plan_deals
    se, deals, tol = 0.003, 4000, 0.02
    n, planned, direction = plan_deals(0.005, se, deals, tol, 0.05, 0.001)
    worst = 0.005 + scipy.stats.norm.ppf(0.8) * se
    assert direction == "inside" and planned == pytest.approx(worst)
    want = TTestPower().solve_power(effect_size=(tol - worst) / (se * np.sqrt(deals)), alpha=0.05,
                                    power=0.8, alternative="larger")
    assert abs(n - want) <= 4           # the normal deals: the t test's within a few
    assert n > plan_deals(0.005, 1e-9, deals, tol, 0.05, 0.001)[0]      # more than the estimate's
    n, _, direction = plan_deals(-0.035, se, deals, tol, 0.05, 0.001)
    assert direction == "outside" and n < deals                           # beyond: decided soon
    assert plan_deals(0.02, se, deals, tol, 0.05, 0.001)[0] >= 10 ** 14   # on the tolerance


@pytest.mark.parametrize("keys", [["strategy"], ["seat"], ["strategy", "seat"], ["label"]])
def test_deal_means_equals_pandas_groupby(keys):
    """The bincount path of deal_means gives pandas' groupby mean: same index (values, order,
    dtypes, unobserved categories dropped) and the same numbers; string keys fall back to pandas."""
    rng = np.random.default_rng(11)
    n = 5000
    frame = pd.DataFrame({
        "game": rng.integers(-3, 700, n),                               # negative ids and gaps
        "seat": rng.integers(0, 5, n).astype(np.int8),
        "strategy": pd.Categorical(rng.choice(["b", "a", "c"], n), categories=["c", "b", "a", "unused"]),
        "label": rng.choice(["x", "y"], n),
        "win_share": rng.integers(0, 3, n) / 2,
    })
    got = deal_means(frame, "win_share", keys)
    want = frame.groupby(keys + ["game"], observed=True)["win_share"].mean()
    pd.testing.assert_series_equal(got, want, check_exact=False, rtol=1e-14)
    assert distinct_count(frame, keys + ["game"]) == frame.groupby(keys + ["game"], observed=True).ngroups


@pytest.mark.parametrize("by", ["strategy", "seat", "label"])
def test_deal_mean_totals_equals_pandas_groupby(by):
    """deal_mean_totals (a fixed-seat summary's per-strategy totals) gives pandas' sum and count
    of the deal means per group: a group holding several rows of a deal, one missing from some
    deals, unobserved categories dropped; string keys fall back to pandas."""
    rng = np.random.default_rng(12)
    n = 5000
    frame = pd.DataFrame({
        "game": rng.integers(-3, 700, n),
        "seat": rng.integers(0, 5, n).astype(np.int8),
        "strategy": pd.Categorical(rng.choice(["b", "a", "c"], n, p=[0.6, 0.3, 0.1]),
                                   categories=["c", "b", "a", "unused"]),
        "label": rng.choice(["x", "y"], n),
        "win_share": rng.integers(0, 3, n) / 2,
    })
    got = deal_mean_totals(frame, "win_share", by)
    want = (frame.groupby([by, "game"], observed=True)["win_share"].mean()
            .groupby(level=by, observed=True).agg(["sum", "count"]))
    pd.testing.assert_frame_equal(got, want, check_exact=False, rtol=1e-13)


@pytest.mark.parametrize("by", ["strategy", "seat"])
def test_deal_mean_totals_of_a_frame_sorted_by_deal_read_once(by):
    """A frame sorted by game (as simcards writes it) takes the one-pass route: the grid
    route's means to the last bit (shares of 1/3 and 1/7, which round differently in another
    order of addition; deals missing from the range and groups missing from deals), so the
    same totals, and pandas' sums and counts."""
    from simcards.stats import _dense_sums, _sorted_deal_mean_grid
    rng = np.random.default_rng(14)
    n = 6000
    frame = pd.DataFrame({
        "game": np.sort(rng.integers(5, 900, n)),
        "seat": rng.integers(0, 5, n).astype(np.int8),
        "strategy": pd.Categorical(rng.choice(["b", "a", "c"], n, p=[0.6, 0.3, 0.1]),
                                   categories=["c", "b", "a", "unused"]),
        "win_share": rng.choice([0.0, 1 / 3, 1 / 7, 1.0], n),
    })
    grid = _sorted_deal_mean_grid(frame, "win_share", by, "game")
    assert grid is not None, "a frame sorted by game is read in one pass"
    means, deals, _ = grid
    # the grid of counts and sums, as deal_mean_totals divides it on the other route
    counts, sums, sizes, _ = _dense_sums(frame, "win_share", [by, "game"])
    assert np.array_equal(means, np.divide(sums, counts, out=np.zeros(sizes), where=counts > 0))
    assert np.array_equal(deals, (counts > 0).sum(axis=1))
    want = (frame.groupby([by, "game"], observed=True)["win_share"].mean()
            .groupby(level=by, observed=True).agg(["sum", "count"]))
    got = deal_mean_totals(frame, "win_share", by)
    pd.testing.assert_frame_equal(got, want, check_exact=False, rtol=1e-13)
    shuffled = frame.iloc[rng.permutation(n)]
    assert _sorted_deal_mean_grid(shuffled, "win_share", by, "game") is None, "unsorted: the grid"
    pd.testing.assert_frame_equal(deal_mean_totals(shuffled, "win_share", by), want,
                                  check_exact=False, rtol=1e-13)

    # sorted but for a middle row moved to the end: the grid spans the first row's deal to that
    # row's, and the pass meets the deals above it before any row below the one before it. It
    # must refuse them, not write past the grid (the pure-Python pass would raise IndexError).
    from simcards.stats import _sorted_deal_means
    late = frame.iloc[np.r_[np.arange(n // 2), np.arange(n // 2 + 1, n), n // 2]]
    assert _sorted_deal_mean_grid(late, "win_share", by, "game") is None
    games = late["game"].to_numpy()
    span = int(games[-1] - games[0]) + 1
    codes = late[by].cat.codes.to_numpy() if by == "strategy" else late[by].to_numpy()
    assert not _sorted_deal_means.py_func(
        games, int(games[0]), codes, 0, late["win_share"].to_numpy(), np.zeros(5, np.int64),
        np.zeros(5), np.zeros((5, span)), np.zeros(5, np.int64))


@pytest.mark.parametrize("keys", [["game"], ["strategy", "game"], ["order", "strategy", "game"]])
def test_dense_sums_add_in_bincounts_order_to_the_last_bit(keys):
    """The compiled grid sums (stats._dense_sums) are np.bincount's over np.ravel_multi_index,
    exactly, for one key, two (read as they are) and more (all but the last folded into one):
    summaries stay bit-identical to the ones computed before the compiled passes.
    Shares of 1/3 and 1/7 round differently when added in another order."""
    from simcards.stats import _dense_sums
    rng = np.random.default_rng(13)
    n = 20_000
    frame = pd.DataFrame({
        "order": rng.integers(0, 24, n).astype(np.int8),
        "game": rng.integers(-50, 400, n),
        "strategy": pd.Categorical.from_codes(rng.integers(0, 3, n).astype(np.int8), categories=list("abc")),
        "win_share": rng.choice([0.0, 1 / 3, 1 / 7, 0.5, 1.0], n),
    })
    counts, sums, sizes, lows = _dense_sums(frame, "win_share", keys)
    every = {"order": (24, 0), "strategy": (3, 0), "game": (450, frame["game"].min())}
    assert sizes == [every[k][0] for k in keys] and lows == [every[k][1] for k in keys]
    codes = [frame[k].cat.codes.to_numpy() if k == "strategy" else frame[k].to_numpy() - every[k][1]
             for k in keys]
    flat = np.ravel_multi_index(codes, sizes)
    want = np.bincount(flat, weights=frame["win_share"].to_numpy(), minlength=int(np.prod(sizes)))
    assert np.array_equal(counts.ravel(), np.bincount(flat, minlength=int(np.prod(sizes))))
    assert np.array_equal(sums.ravel(), want)           # exact, not approximately equal
    shuffled = np.bincount(flat[::-1], weights=frame["win_share"].to_numpy()[::-1], minlength=len(want))
    assert not np.array_equal(shuffled, want)           # the order of addition shows in the bits


@pytest.mark.parametrize("keys", [["game"], ["order", "game"], ["order", "strategy", "game"]])
def test_distinct_count_of_sorted_keys_counts_runs_and_notices_any_row_out_of_order(keys):
    """distinct_count reads keys sorted as simcards writes them ((order, game)) in one pass that
    counts runs; a frame out of order anywhere, by any key, falls back to the grid or to pandas."""
    from simcards.stats import _outer_inner, _key_codes, _sorted_runs
    rng = np.random.default_rng(14)
    n = 6_000
    frame = pd.DataFrame({
        "order": rng.integers(0, 4, n).astype(np.int8),
        "strategy": pd.Categorical.from_codes(rng.integers(0, 3, n).astype(np.int8), categories=list("abc")),
        "game": rng.integers(-5, 60, n),
    }).sort_values(keys, kind="stable", ignore_index=True)
    want = frame.groupby(keys, observed=True).ngroups
    outer, _, inner, _, _ = _outer_inner(*_key_codes(frame, keys))
    assert _sorted_runs(outer, inner) == want == distinct_count(frame, keys)
    codes = frame[keys].apply(lambda c: c.cat.codes if c.dtype == "category" else c).to_numpy()
    starts = np.flatnonzero((codes[1:] != codes[:-1]).any(axis=1)) + 1    # a row unlike the one before
    for row in starts[[0, len(starts) // 2, -1]]:        # swapped with it: out of order there
        perm = np.arange(n)
        perm[[row - 1, row]] = row, row - 1
        swapped = frame.iloc[perm].reset_index(drop=True)
        outer, _, inner, _, _ = _outer_inner(*_key_codes(swapped, keys))
        assert _sorted_runs(outer, inner) == -1
        assert distinct_count(swapped, keys) == want
