"""Win rates with honest intervals, from the tidy frame of simcards.simulate."""
from __future__ import annotations

import numpy as np
import pandas as pd
from statistics import NormalDist

from numba import njit

from simcards.compiled.config import NJIT_OPTIONS

CONFIDENCE = 0.95


def wilson(successes, trials, confidence: float = CONFIDENCE) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval; shares of shared wins count as fractions.

    The formula of statsmodels' ``proportion_confint(method="wilson")``, written out with the
    standard library's normal quantile (``statistics.NormalDist``, Wichura's AS 241, within an
    ulp or two of scipy's ``ndtri``): importing statsmodels.stats.proportion took 0.7-1.7 s and
    scipy.special 0.1 s, serial time in every fixed-seat `simcards run` (issue 13).
    tests/report/test_statistics.py holds it equal to scipy's and statsmodels' Wilson intervals,
    and tests/report/test_calibration.py checks its coverage."""
    k = np.asarray(successes, float)
    n = np.asarray(trials, float)
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    p = k / n
    denom = 1.0 + z * z / n
    center = (p + z * z / (2.0 * n)) / denom
    half = z * np.sqrt(p * (1.0 - p) / n + z * z / (4.0 * n * n)) / denom
    return np.clip(center - half, 0.0, 1.0), np.clip(center + half, 0.0, 1.0)


#: At this many effective successes (or failures) or fewer, the interval's end on that side is
#: also the exact (Clopper-Pearson) one of the effective count, where it is wider: Wilson's
#: interval under-covers next to a bound (Brown, Cai and DasGupta 2001, whose "modified Wilson"
#: takes x* = 3; with an effective count from a measured design effect 3 still left 92% coverage
#: for a strategy in 3 of 4 seats next to its bound, tests/core/test_intervals.py, and 5 none below 93%).
EXACT_COUNT = 5.0


def _scaled(mean, se, deals, lower, upper):
    """(p, v, n, ok): a share on [lower, upper] as a proportion p on [0, 1], its squared
    standard error v on that scale, the deals n, and where the design effect is measured (two
    deals or more, a spread, p inside (0, 1))."""
    mean, se, deals, lower, upper = np.broadcast_arrays(*(np.asarray(x, float) for x in
                                                          (mean, se, deals, lower, upper)))
    width = upper - lower
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.clip((mean - lower) / width, 0.0, 1.0)
        v = (se / width) ** 2
    ok = (deals >= 2) & np.isfinite(v) & (v > 0) & (p > 0) & (p < 1)
    return p, v, deals, ok, lower, width


def _effective_trials(p, v, n, ok, confidence: float | None):
    """Korn and Graubard's effective number of trials: p(1-p) / var(p), the deals over the
    design effect (var(p) against a binomial's), scaled by (z / t_{deals-1})^2 for the degrees
    of freedom of the variance (``confidence`` None: unscaled); the deals themselves where the
    design effect is not measured (one deal, or every deal alike)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        n_eff = np.where(ok, p * (1.0 - p) / np.where(ok, v, 1.0), np.maximum(n, 1.0))
    if confidence is not None:
        from scipy.special import stdtrit
        z = NormalDist().inv_cdf(0.5 + confidence / 2)
        t = stdtrit(np.maximum(n - 1.0, 1.0), 0.5 + confidence / 2)
        n_eff = np.where(ok, n_eff * (z / t) ** 2, n_eff)
    return n_eff


def share_interval(mean, se, deals, confidence: float = CONFIDENCE, lower=0.0, upper=1.0
                   ) -> tuple[np.ndarray, np.ndarray]:
    """A boundary-safe interval for a share measured over deals: every win rate, seat share,
    edge and bounded difference of simcards goes through it.

    ``mean`` is the mean of the deal scores, ``se`` its standard error (the deals' standard
    deviation over sqrt(deals): the deal is the unit), the share lies in [``lower``, ``upper``]
    (a strategy holding m seats of every game wins at most 1/m of a game's share: upper = 1/m;
    a difference of two shares lies in [-1, 1]). On that range as a proportion:

    - Wilson's score interval on the Korn-Graubard effective count (``_effective_trials``):
      the design effect of the deal (a deal played in several seat orders or line-ups is more,
      or less, than one Bernoulli trial) enters as an effective number of trials;
    - where the effective successes or failures are ``EXACT_COUNT`` (5) or fewer, that side's end
      is the exact Clopper-Pearson end where it is wider (Wilson dips below 95% next to a bound);
    - one deal, or deals all alike (no spread to measure: a strong player that won every deal,
      or a strategy whose every deal scored the same), the exact Clopper-Pearson interval of the
      deals as trials: never a point. It holds for shares, not only 0/1 outcomes (a deal scores
      its bound with chance at most its mean: Markov), as tests/core/test_intervals.py checks.

    Clipped to [lower, upper]. Arrays broadcast; NaN where there is no deal."""
    p, v, n, ok, lo0, width = _scaled(mean, se, deals, lower, upper)
    n_eff = _effective_trials(p, v, n, ok, confidence)
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        denom = 1.0 + z * z / n_eff
        center = (p + z * z / (2.0 * n_eff)) / denom
        half = z * np.sqrt(p * (1.0 - p) / n_eff + z * z / (4.0 * n_eff * n_eff)) / denom
    # the exact ends on the effective count itself (unscaled: the t scaling is the normal
    # approximation's), so that share_pvalue's exact tail inverts them to the last digit
    n_eff = _effective_trials(p, v, n, ok, None)
    k = p * n_eff
    low, high = np.array(center - half, float), np.array(center + half, float)
    from scipy.special import betaincinv
    a = (1.0 - confidence) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        # the exact ends, only where they are used (the incomplete beta is the slow part)
        side = ~ok | (k <= EXACT_COUNT)
        kk, nn = k[side], n_eff[side]
        exact = np.where(kk > 0, betaincinv(np.maximum(kk, 1e-300), nn - kk + 1.0, a), 0.0)
        low[side] = np.where(ok[side], np.minimum(low[side], exact), exact)
        side = ~ok | (n_eff - k <= EXACT_COUNT)
        kk, nn = k[side], n_eff[side]
        exact = np.where(kk < nn, betaincinv(kk + 1.0, np.maximum(nn - kk, 1e-300), 1.0 - a), 1.0)
        high[side] = np.where(ok[side], np.maximum(high[side], exact), exact)
    none = ~(n >= 1) | ~np.isfinite(p)
    low = np.where(none, np.nan, np.clip(low, 0.0, 1.0) * width + lo0)
    high = np.where(none, np.nan, np.clip(high, 0.0, 1.0) * width + lo0)
    return low, high


def share_pvalue(mean, se, deals, null, alternative: str = "two-sided", lower=0.0, upper=1.0) -> np.ndarray:
    """p-value of a share against ``null`` (on the share's own scale), the test that
    ``share_interval`` inverts: its 1 - 2a interval lies above ``null`` exactly where the
    "larger" p-value is below a (and likewise below, and two-sided at 1 - a).

    The score statistic (p - p0) / sqrt(p0 (1 - p0) / n_eff) on the effective count, against
    Student's t with deals - 1 degrees of freedom (Korn-Graubard's scaling in the interval);
    the exact binomial tail of the effective count where the interval takes its exact end
    (the larger p-value of the two), and of the deals where the design effect is not
    measured. ``alternative``: "larger" (the share exceeds the null), "smaller", "two-sided".
    A null outside the range is decided by the range (0 or 1)."""
    p, v, n, ok, lo0, width = _scaled(mean, se, deals, lower, upper)
    q = np.broadcast_to((np.asarray(null, float) - lo0) / width, p.shape).copy()
    n_eff = _effective_trials(p, v, n, ok, None)
    k = p * n_eff
    from scipy.special import betainc, stdtr
    qc = np.clip(q, 1e-300, 1 - 1e-16)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (p - qc) / np.sqrt(qc * (1.0 - qc) / n_eff)
        df = np.maximum(n - 1.0, 1.0)
        larger, smaller = np.array(stdtr(df, -t), float), np.array(stdtr(df, t), float)
        # the exact tails, only where the interval takes its exact end
        side = ~ok | (k <= EXACT_COUNT)
        kk, nn, qq = k[side], n_eff[side], qc[side]
        exact = np.where(kk > 0, betainc(np.maximum(kk, 1e-300), nn - kk + 1.0, qq), 1.0)
        larger[side] = np.where(ok[side], np.maximum(larger[side], exact), exact)
        side = ~ok | (n_eff - k <= EXACT_COUNT)
        kk, nn, qq = k[side], n_eff[side], qc[side]
        exact = np.where(kk < nn, betainc(np.maximum(nn - kk, 1e-300), kk + 1.0, 1.0 - qq), 1.0)
        smaller[side] = np.where(ok[side], np.maximum(smaller[side], exact), exact)
    # a null at or beyond the range: the share cannot be on its other side
    larger = np.where(q < 0, 0.0, np.where(q > 1, 1.0, larger))
    smaller = np.where(q > 1, 0.0, np.where(q < 0, 1.0, smaller))
    if alternative == "larger":
        out = larger
    elif alternative == "smaller":
        out = smaller
    elif alternative == "two-sided":
        out = np.minimum(1.0, 2.0 * np.minimum(larger, smaller))
    else:
        raise ValueError(f"bad alternative {alternative!r}: expected larger, smaller or two-sided")
    return np.where(~(n >= 1) | ~np.isfinite(p), np.nan, out)


def _key_codes(frame: pd.DataFrame, keys: list[str]):
    """(codes, sizes, offsets) of ``keys``: each key's values as an integer array (categorical
    codes, or the column itself, not copied) whose values less the offset lie in 0..size-1;
    None where a key is not integer or categorical or has missing values."""
    codes, sizes, lows = [], [], []
    for key in keys:
        col = frame[key]
        if isinstance(col.dtype, pd.CategoricalDtype):
            values = col.array.codes    # the codes themselves: .cat.codes builds a Series of a copy
            if len(values) and values.min() < 0:            # a missing value
                return None
            codes.append(values)
            sizes.append(len(col.cat.categories))
            lows.append(0)
        # a NumPy integer column cannot hold a missing value: asking (hasnans) would cost a
        # boolean copy of the column, 0.1 s of serial time on a rotated 10**7-game frame
        elif pd.api.types.is_integer_dtype(col.dtype) and len(col) and (
                isinstance(col.dtype, np.dtype) or not col.hasnans):
            values = col.to_numpy() if isinstance(col.dtype, np.dtype) else col.to_numpy(np.int64)
            lows.append(int(values.min()))
            codes.append(values)
            sizes.append(int(values.max()) - lows[-1] + 1)
        else:
            return None
    return codes, sizes, lows


def _grid_fits(sizes, rows: int) -> bool:
    """A grid of these key ranges is not much larger than a frame of ``rows`` rows (else
    pandas' groupby is the better tool)."""
    return np.prod(sizes, dtype=np.float64) <= 4 * rows + 1024


def _dense_codes(frame: pd.DataFrame, keys: list[str]):
    """``_key_codes``, or None where the grid of the key ranges does not fit (``_grid_fits``)."""
    dense = _key_codes(frame, keys)
    if dense is None or not _grid_fits(dense[1], len(frame)):
        return None
    return dense


# The passes below are cached on disk: they reach no other project source, so numba's check of
# this file's timestamp is enough to follow an edit (as simcards.frame._narrow).
@njit(**NJIT_OPTIONS, cache=True)
def _fold_key(flat, values, low, size, first):
    """``flat = flat * size + (values - low)`` (``values - low`` when ``first``): a row's index in
    the grid of keys grows by one key, as np.ravel_multi_index lays it out (C order)."""
    for i in range(flat.shape[0]):
        code = np.int64(values[i]) - low
        flat[i] = code if first else flat[i] * size + code


@njit(**NJIT_OPTIONS, inline="always")
def _cell(outer, outer_low, inner, inner_low, inner_size, i):
    """Row i's cell in the grid of two keys: ``(outer - outer_low) * inner_size + inner -
    inner_low``, np.ravel_multi_index's layout (C order)."""
    return (np.int64(outer[i]) - outer_low) * inner_size + (np.int64(inner[i]) - inner_low)


@njit(**NJIT_OPTIONS, cache=True)
def _bin_sums(outer, outer_low, inner, inner_low, inner_size, weights, counts, sums):
    """Rows and sums of ``weights`` per grid cell (``_cell``), added row by row: np.bincount's
    order of addition over np.ravel_multi_index, so its sums to the last bit. Both keys are
    read as they are: no index of every row is written to memory (on a rotated 10**7-game
    frame, the page faults of writing one took about 0.3 s per key)."""
    for i in range(inner.shape[0]):
        cell = _cell(outer, outer_low, inner, inner_low, inner_size, i)
        counts[cell] += 1
        sums[cell] += weights[i]


@njit(**NJIT_OPTIONS, cache=True)
def _bin_counts(outer, outer_low, inner, inner_low, inner_size, counts):
    """``_bin_sums``' rows per cell, without sums."""
    for i in range(inner.shape[0]):
        counts[_cell(outer, outer_low, inner, inner_low, inner_size, i)] += 1


@njit(**NJIT_OPTIONS, cache=True)
def _sorted_runs(outer, inner):
    """Number of runs of equal (outer, inner) pairs, or -1 where the rows are not sorted by
    them: a frame as simcards writes it is sorted by (order, game), so counting its games
    takes one read of the two columns, not a grid."""
    n = inner.shape[0]
    runs = 1 if n else 0
    for i in range(1, n):
        if outer[i] != outer[i - 1]:
            if outer[i] < outer[i - 1]:
                return -1
            runs += 1
        elif inner[i] != inner[i - 1]:
            if inner[i] < inner[i - 1]:
                return -1
            runs += 1
    return runs


@njit(**NJIT_OPTIONS, cache=True)
def _sorted_deal_means(deal, deal_low, group, group_low, weights, scratch_counts, scratch_sums, means,
                       deals):
    """Every (group, deal) mean of a frame's rows sorted by deal, in one read of them, into
    ``means[group - group_low, deal - deal_low]`` (a zeroed grid: a cell without rows stays 0,
    as in ``deal_mean_totals``' grid), and each group's number of deals into ``deals``. Returns
    False, the grid partial, at the first row whose deal is below the one before, or at a deal
    past the grid (which spans the first row's deal to the last's): the caller then takes the
    other route.

    A deal's rows are added in row order, as ``_bin_sums`` adds them, and divided as the grid
    divides them: the same means to the last bit, without the grid of counts and sums (a
    fixed-seat run of 10**7 games wrote 160 MB of them and read them back, issue 13)."""
    n_groups = scratch_counts.shape[0]
    n = deal.shape[0]
    start = 0
    while start < n:
        stop = start
        while stop < n and deal[stop] == deal[start]:
            g = np.int64(group[stop]) - group_low
            scratch_counts[g] += 1
            scratch_sums[g] += weights[stop]
            stop += 1
        if stop < n and deal[stop] < deal[start]:
            return False
        d = np.int64(deal[start]) - deal_low
        if d >= means.shape[1]:                 # above the last row's deal: not sorted
            return False
        for g in range(n_groups):
            if scratch_counts[g] != 0:
                means[g, d] = scratch_sums[g] / scratch_counts[g]
                deals[g] += 1
                scratch_counts[g] = 0
                scratch_sums[g] = 0.0
        start = stop
    return True


def _flat_index(codes: list[np.ndarray], sizes: list[int], lows: list[int]) -> np.ndarray:
    """Each row's cell in the grid of its keys' dense codes (np.ravel_multi_index of the codes
    less their offsets), one compiled pass per key over the columns as they are. Written out
    only where more than two keys are grouped (``_outer_inner``): for the 40 million rows of a
    rotated run of 10**7 games, ravel_multi_index, np.bincount and the int64 copies of the keys
    took 5.3 s of serial time after the games, and an index written for every row 0.3 s a key
    (issue 13)."""
    flat = np.empty(len(codes[0]), np.int64)
    for i, (values, size, low) in enumerate(zip(codes, sizes, lows)):
        _fold_key(flat, values, low, size, i == 0)
    return flat


def _outer_inner(codes: list[np.ndarray], sizes: list[int], lows: list[int]):
    """(outer, outer_low, inner, inner_low, inner_size): the keys as two, the last one (inner)
    and the grid index of the others (outer, which keeps their lexicographic order); a single
    key is its own outer key, with a stride of 0. The compiled passes read these two columns."""
    if len(codes) == 1:
        return codes[0], lows[0], codes[0], lows[0], 0
    if len(codes) == 2:
        return codes[0], lows[0], codes[1], lows[1], sizes[1]
    return _flat_index(codes[:-1], sizes[:-1], lows[:-1]), 0, codes[-1], lows[-1], sizes[-1]


def _dense_sums(frame: pd.DataFrame, value: str, keys: list[str]):
    """(counts, sums, sizes, lows): rows and sums of ``value`` per combination of ``keys``, as
    arrays of shape ``sizes`` over the dense codes (``_dense_codes``); None where those do not
    apply."""
    dense = _dense_codes(frame, keys)
    if dense is None:
        return None
    codes, sizes, lows = dense
    n = int(np.prod(sizes))
    counts = np.zeros(n, np.int64)
    sums = np.zeros(n, np.float64)
    _bin_sums(*_outer_inner(codes, sizes, lows), frame[value].to_numpy(np.float64), counts, sums)
    return counts.reshape(sizes), sums.reshape(sizes), sizes, lows


def _key_values(col: pd.Series, codes: np.ndarray, low: int):
    """The key values of dense ``codes`` of column ``col`` (``_dense_codes``), in its dtype."""
    if isinstance(col.dtype, pd.CategoricalDtype):
        return pd.Categorical.from_codes(codes, dtype=col.dtype)
    return (codes + low).astype(col.dtype)


def distinct_count(frame: pd.DataFrame, keys: list[str]) -> int:
    """Number of distinct combinations of ``keys`` in the frame (pandas' ``groupby(keys).ngroups``)."""
    codes = _key_codes(frame, keys)
    if codes is not None and np.prod(codes[1][:-1], dtype=np.float64) < 2.0 ** 62:
        outer, _, inner, _, _ = _outer_inner(*codes)
        runs = _sorted_runs(outer, inner)
        if runs >= 0:
            return runs
    dense = _dense_codes(frame, keys)
    if dense is None:
        return frame.groupby(keys, observed=True).ngroups
    counts = np.zeros(int(np.prod(dense[1])), np.int64)
    _bin_counts(*_outer_inner(*dense), counts)
    return int(np.count_nonzero(counts))


def deal_means(frame: pd.DataFrame, value: str, by: list[str],
               deal: tuple[str, ...] = ("game",)) -> pd.Series:
    """Mean of column ``value`` per group ``by`` and deal: each deal's rows become one number.

    Indexed by ``by`` and ``deal``, sorted, observed combinations only (as pandas' groupby).
    Small integer and categorical keys go through ``np.bincount`` over dense codes: for the
    4 million rows of a rotated million-game run, pandas' factorizing of the keys was most of
    ``simcards run``'s serial time (1.2 s, against 0.06 s now)."""
    keys = list(by) + list(deal)
    dense = _dense_sums(frame, value, keys)
    if dense is None:
        return frame.groupby(keys, observed=True)[value].mean()
    counts, sums, sizes, lows = dense
    cols = [frame[key] for key in keys]
    counts, sums = counts.ravel(), sums.ravel()
    seen = np.flatnonzero(counts)
    arrays = []
    for col, low, c in zip(cols, lows, np.unravel_index(seen, sizes)):
        arrays.append(_key_values(col, c, low))
    index = pd.MultiIndex.from_arrays(arrays, names=keys) if len(keys) > 1 else \
        pd.Index(arrays[0], name=keys[0])
    return pd.Series(sums[seen] / counts[seen], index=index, name=value)


def deal_mean_totals(frame: pd.DataFrame, value: str, by: str, deal: str = "game") -> pd.DataFrame:
    """Per group ``by``: the sum (``sum``) and the number (``count``) of its deal means of
    ``value``, as ``deal_means(frame, value, [by], (deal,))`` summed per group, in its order.

    A fixed-seat run's summary needs only these totals. Building the per-deal index first
    costs 0.44 s on a million-game frame (pandas' groupby, used before, 1.2-2 s), serial time
    after every `simcards run`; dense keys give a (group, deal) grid of means instead, read
    from the rows in one pass where they are sorted by deal (every frame simcards writes), and
    both routes sum it here, the same way."""
    grid = _sorted_deal_mean_grid(frame, value, by, deal)
    if grid is None:
        dense = _dense_sums(frame, value, [by, deal])
        if dense is None:
            return deal_means(frame, value, [by], (deal,)).groupby(level=by, observed=True).agg(["sum", "count"])
        counts, sums, sizes, lows = dense
        held = counts > 0
        grid = np.divide(sums, counts, out=np.zeros(sizes), where=held), held.sum(axis=1), lows[0]
    means, deals, low = grid
    seen = np.flatnonzero(deals)
    return pd.DataFrame({"sum": means.sum(axis=1)[seen], "count": deals[seen]},
                        index=pd.Index(_key_values(frame[by], seen, low), name=by))


def _sorted_deal_mean_grid(frame: pd.DataFrame, value: str, by: str, deal: str):
    """``deal_mean_totals``' grid of means of a frame sorted by ``deal``, in one read of its
    rows (``_sorted_deal_means``): (means, deals per group, the group codes' offset), the same
    means to the last bit as the grid of counts and sums gives, without that grid. None where
    ``by`` has no dense codes, the deal is not an integer column, the grid does not fit
    (``_grid_fits``) or the rows are not sorted by deal."""
    codes = _key_codes(frame, [by])
    col = frame[deal]
    if codes is None or not len(frame) or not isinstance(col.dtype, np.dtype) or col.dtype.kind not in "iu":
        return None
    (group,), (n_groups,), (group_low,) = codes
    deal_codes = col.to_numpy()
    # sorted, the deals run from the first row's to the last's: the grid's range without a
    # read of the column for its least and greatest values (checked in the pass: unsorted
    # rows return False before a cell outside it is written)
    deal_low = int(deal_codes[0])
    sizes = (n_groups, int(deal_codes[-1]) - deal_low + 1)
    if sizes[1] < 1 or not _grid_fits(sizes, len(frame)):
        return None
    means = np.zeros(sizes)
    deals = np.zeros(n_groups, np.int64)
    if not _sorted_deal_means(deal_codes, deal_low, group, group_low, frame[value].to_numpy(np.float64),
                              np.zeros(n_groups, np.int64), np.zeros(n_groups), means, deals):
        return None
    return means, deals, group_low


def mean_interval(per_deal: pd.Series, by: list[str] | str | None = None,
                  confidence: float = CONFIDENCE, share: bool = False, upper=1.0) -> pd.DataFrame:
    """Mean over deals with its interval, per group (the mean-of-deal-means formula).

    The deal is the unit: one number per deal (``per_deal``, indexed by the
    groups ``by`` and the deal), so whatever repeats within a deal (seat orders,
    line-ups, the seats of one hand) shares its deal's weight, and the standard
    error is the standard deviation of the deal means over the square root of
    the number of deals. This is the cluster-robust standard error of a mean,
    clustered by deal, without the small-sample factor. Columns: deals, mean,
    se, ci_low, ci_high.

    Not a share: the t interval of statsmodels' DescrStatsW.tconfint_mean (lengths, minutes).
    ``share``: the values are shares in [0, ``upper``] (win shares; a strategy holding m seats
    of every game is bounded by 1/m: ``upper`` a number, or a Series indexed like the groups):
    the boundary-safe ``share_interval`` (Wilson on the Korn-Graubard effective count, exact
    where it must be, never a point from one deal or deals all alike).
    """
    groups = per_deal.groupby(level=by, observed=True) if by else per_deal.groupby(lambda _: 0)
    agg = groups.agg(["count", "mean", "std"]).rename(columns={"count": "deals"})
    agg["se"] = agg["std"].fillna(0.0) / np.sqrt(agg["deals"])
    if share:
        bound = upper.reindex(agg.index).to_numpy(float) if isinstance(upper, pd.Series) else upper
        low, high = share_interval(agg["mean"].to_numpy(), agg["se"].to_numpy(), agg["deals"].to_numpy(),
                                   confidence, 0.0, bound)
        agg["ci_low"], agg["ci_high"] = low, high
        return agg.drop(columns=["std"])
    df = np.maximum(agg["deals"].to_numpy() - 1, 1)
    # scipy.special's t quantile, the one scipy.stats calls; imported here, where it is used
    # (0.1 s: serial time a fixed-seat `simcards run`, which never needs it, does not pay)
    from scipy.special import stdtrit
    half = stdtrit(df, 0.5 + confidence / 2) * agg["se"].to_numpy()
    agg["ci_low"] = agg["mean"] - half
    agg["ci_high"] = agg["mean"] + half
    return agg.drop(columns=["std"])


def _rows(scope: str, keys, wins, games, held=None) -> pd.DataFrame:
    """Win rates of fixed-seat games: every game its own deal and one trial, Wilson's interval.
    ``held``: seats each key holds in every game (a strategy in m seats wins at most 1/m of a
    game: the interval is its seats' total share's, over m)."""
    wins = np.asarray(wins, float)
    games = np.asarray(games, float)
    m = np.ones(len(wins)) if held is None else np.asarray(held, float)
    low, high = wilson(wins * m, games)
    return pd.DataFrame({"scope": scope, "name": [str(k) for k in keys], "games": games.astype(np.int64),
                         "wins": wins, "win_rate": wins / games, "ci_low": low / m, "ci_high": high / m})


def summary_rows(strategy_names, strategy_wins, strategy_games, seats, seat_wins, seat_games,
                 n_players: int, held=None, unfinished: float = 0.0) -> pd.DataFrame:
    """The summary table from win sums: shared by frames and by running totals. ``held``: seats
    each strategy holds; ``unfinished``: the share of games the cap stopped (no winner), so the
    fair share is (1 - unfinished) / players."""
    out = pd.concat([_rows("strategy", strategy_names, strategy_wins, strategy_games, held),
                     _rows("seat", seats, seat_wins, seat_games)], ignore_index=True)
    out["fair_share"] = (1.0 - unfinished) / n_players if n_players else np.nan
    return out


def summarize(frame: pd.DataFrame) -> pd.DataFrame:
    """Win rate per strategy and per seat, each with a 95% interval; the unit is the deal.

    A strategy that holds several seats of one game scores the mean of its
    seats' win shares in that game, so at most 1/m for m seats. With fixed seats
    every game is its own deal and its outcome one trial: Wilson intervals. A
    rotated frame (column ``order``, simcards.rotation) plays every deal in every
    seat order; a strategy's or seat's score in a deal is its mean over the orders
    (net of seat for strategies), and the interval is ``share_interval`` over the
    deal means (``mean_interval``). Unfinished games count as games without a winner,
    and the fair share is (1 - their share) / players.
    """
    if "order" in frame:
        return _summarize_rotated(frame)
    per_game = deal_mean_totals(frame, "win_share", "strategy")
    n_players = int(frame["seat"].max()) + 1 if len(frame) else 0
    dense = _dense_sums(frame, "win_share", ["seat"])
    if dense is None:
        seats = frame.groupby("seat")["win_share"].agg(["sum", "count"])
    else:                                   # bincount: a tenth of pandas' groupby on 4M rows
        counts, sums, _, lows = dense
        held = np.flatnonzero(counts)
        seats = pd.DataFrame({"sum": sums[held], "count": counts[held]},
                             index=pd.Index(_key_values(frame["seat"], held, lows[0]), name="seat"))
    games = int(seats["count"].max()) if len(seats) else 0
    held = _seats_held(frame)
    return summary_rows(per_game.index, per_game["sum"], per_game["count"],
                        seats.index, seats["sum"], seats["count"], n_players,
                        held=[held.get(str(s), 1) for s in per_game.index],
                        unfinished=_unfinished_rows(frame) / (games * n_players) if games else 0.0)


def _seats_held(frame: pd.DataFrame) -> dict[str, int]:
    """Seats each strategy holds in every game (its line-up's count: the frame's attrs, else the
    rows of its first game)."""
    names = frame.attrs.get("strategies")
    if names and len(names) == int(frame["seat"].max()) + 1:
        return {str(s): list(names).count(s) for s in set(names)}
    keys = [k for k in ("order", "game") if k in frame]
    first = frame[np.logical_and.reduce([frame[k] == frame[k].iloc[0] for k in keys])]
    return {str(k): int(v) for k, v in first["strategy"].astype(str).value_counts().items()}


def _unfinished_rows(frame: pd.DataFrame) -> int:
    """Rows of unfinished games: every seat row of such a game is marked, so the games are
    these over the players (a count of the column, no copy of it)."""
    return int(np.count_nonzero(frame["unfinished"].to_numpy())) if "unfinished" in frame else 0


def _summarize_rotated(frame: pd.DataFrame) -> pd.DataFrame:
    n_players = int(frame["seat"].max()) + 1
    games = distinct_count(frame, ["order", "game"])
    held = _seats_held(frame)
    unfinished = _unfinished_rows(frame) / (games * n_players) if games else 0.0
    parts = []
    for scope, key in (("strategy", "strategy"), ("seat", "seat")):
        per_deal = deal_means(frame, "win_share", [key])
        upper = 1.0
        if scope == "strategy":
            names = per_deal.index.get_level_values(key).unique()
            upper = pd.Series([1.0 / held.get(str(s), 1) for s in names], index=pd.Index(names, name=key))
        iv = mean_interval(per_deal, key, share=True, upper=upper)
        parts.append(pd.DataFrame({
            "scope": scope, "name": [str(k) for k in iv.index], "games": games,
            "wins": iv["mean"].to_numpy() * games, "win_rate": iv["mean"].to_numpy(),
            "ci_low": iv["ci_low"].to_numpy(), "ci_high": iv["ci_high"].to_numpy(),
            "deals": iv["deals"].to_numpy()}))
    out = pd.concat(parts, ignore_index=True)
    out["fair_share"] = (1.0 - unfinished) / n_players
    return out


def unfinished_games(frame: pd.DataFrame) -> int:
    """Games (every seat order of a deal counted) that reached the game's cap."""
    if "unfinished" not in frame:
        return 0
    keys = ["order", "game"] if "order" in frame else ["game"]
    return int(frame.loc[frame["unfinished"].astype(bool), keys].drop_duplicates().shape[0])
