"""Standard errors and tests with the deal as the unit, where a mean of deal means does not serve.

Rows of one deal are not independent: a deal's hands repeat in every line-up
and seat order, and its seats share one winner. Card effects are regressions
with cluster-robust standard errors grouped by deal (statsmodels OLS,
``cov_type="cluster"``); Plackett-Luce ratings are refitted (choix) on
bootstrap resamples of whole deals.

The balance verdict (``evaluate``) reads every seat of a cell from the moments of one vector
per deal (``Moments``: the deals, the sum and the sum of outer products of the vector of every
seat's win share and the finished share, under every basis of the cell), so that deals played
only for the verdict (simcards.report.sequential) need no frame. From those moments, per seat:

- the edge: win share minus the fair share net of unfinished games ((1 - unfinished) / n), its
  standard error from the deal's own edge (share - finished / n);
- balanced: an equivalence test (TOST) of every seat's edge within ±tolerance, each one-sided
  test at alpha (the intersection-union test: the row is balanced when every seat is, no
  correction needed within the row); that is the 1 - 2 alpha interval inside ±tolerance;
- unbalanced: a seat's edge beyond the tolerance, the two-sided test of |edge| <= tolerance,
  Holm-corrected over every seat of every player count and mirror of the report (one family);
- undecided otherwise, with the deals a power calculation plans (``plan_deals``) and the reason;
- the strategies disagree: a paired test (Hotelling's T² on the same deals) that two mirrors'
  seat edges differ, Holm over the report's pairs of mirrors.

Every test is the one the boundary-safe interval (simcards.stats.share_interval) inverts
(simcards.stats.share_pvalue), so an interval and its test never disagree; a corrected family's
intervals are drawn at ``adjusted_confidence``, the level at which an interval excludes the null
exactly where the correction rejects.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
import statsmodels.api as sm
from statsmodels.stats.multitest import multipletests

from simcards.statistics.intervals import CONFIDENCE, share_interval, share_pvalue

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


def holm(p: np.ndarray, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """(rejected, adjusted p-values) of Holm's step-down method: statsmodels' multipletests'
    numbers (tests/report/test_statistics.py holds them equal) without the gc.collect() it runs
    on every Holm call (0.3 s a call with a report's frames in memory)."""
    p = np.asarray(p, float)
    m = len(p)
    order = np.argsort(p, kind="mergesort")
    stepped = np.maximum.accumulate(p[order] * np.arange(m, 0, -1))
    adjusted = np.empty(m)
    adjusted[order] = np.minimum(stepped, 1.0)
    return adjusted <= alpha, adjusted


def correct(p_values, method: str, alpha: float = 1 - CONFIDENCE) -> tuple[np.ndarray, np.ndarray]:
    """(adjusted p-values, rejected at ``alpha``) by statsmodels' multipletests (Holm: ``holm``,
    the same numbers); NaN stays NaN."""
    p = np.asarray(p_values, float)
    adjusted = np.full(p.shape, np.nan)
    reject = np.zeros(p.shape, bool)
    ok = ~np.isnan(p)
    if ok.any():
        if method == "holm":
            reject[ok], adjusted[ok] = holm(p[ok], alpha)
        else:
            reject[ok], adjusted[ok], _, _ = multipletests(p[ok], alpha=alpha, method=method)
    return adjusted, reject


def adjusted_confidence(p_values, method: str, alpha: float = 1 - CONFIDENCE) -> float:
    """The confidence level of a corrected family's intervals: at it, an interval (dual to its
    two-sided test) excludes the null exactly where ``method`` rejects.

    Holm rejecting R of m: 1 - alpha / (m - R) (every rejected p is at most alpha / (m - R + 1),
    every other above alpha / (m - R)); 1 - alpha when all are rejected. Benjamini-Hochberg
    rejecting R: 1 - R alpha / m, the false-coverage-rate interval of Benjamini and Yekutieli
    (2005); 1 - alpha / m (Bonferroni) when none is."""
    p = np.asarray(p_values, float)
    p = p[~np.isnan(p)]
    m = len(p)
    if m == 0:
        return 1 - alpha
    rejected = int(correct(p, method, alpha)[1].sum())
    if method == "holm":
        return 1 - (alpha / (m - rejected) if rejected < m else alpha)
    if method == "fdr_bh":
        return 1 - (rejected * alpha / m if rejected else alpha / m)
    raise ValueError(f"no adjusted interval for {method!r}")


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


# ------------------------------------------------------------------ moments of deal vectors
@dataclass
class Moments:
    """Sums over deals of one vector per deal: the deals, the sum and the sum of outer products.
    Enough for the mean and covariance of the vector, so of every linear contrast of it (a seat's
    edge, the difference of two mirrors' edges); deals played apart add up (``+``)."""

    n: int
    total: np.ndarray        # (k,)
    cross: np.ndarray        # (k, k)

    @classmethod
    def of(cls, vectors: np.ndarray) -> "Moments":
        v = np.asarray(vectors, np.float64)
        return cls(int(v.shape[0]), v.sum(axis=0), v.T @ v)

    def __add__(self, other: "Moments | None") -> "Moments":
        if other is None or other.n == 0:
            return self
        if self.n == 0:
            return other
        return Moments(self.n + other.n, self.total + other.total, self.cross + other.cross)

    @property
    def mean(self) -> np.ndarray:
        return self.total / max(self.n, 1)

    def cov(self) -> np.ndarray:
        """Covariance of the deal vectors (ddof 1); zeros with fewer than two deals."""
        cached = getattr(self, "_cov", None)
        if cached is not None:
            return cached
        self._cov = self._covariance()
        return self._cov

    def _covariance(self) -> np.ndarray:
        if self.n < 2:
            return np.zeros_like(self.cross)
        mu = self.mean
        c = (self.cross - self.n * np.outer(mu, mu)) / (self.n - 1)
        c = (c + c.T) / 2
        d = np.clip(np.diag(c), 0.0, None)        # rounding below zero: no spread
        np.fill_diagonal(c, d)
        return c

    def contrast(self, c: np.ndarray) -> tuple[float, float]:
        """(mean, standard error of the mean over deals) of the contrast c . vector."""
        c = np.asarray(c, float)
        var = float(c @ self.cov() @ c) if self.n >= 2 else 0.0
        return float(c @ self.mean), math.sqrt(max(var, 0.0) / max(self.n, 1))

    def to_dict(self) -> dict:
        return {"n": self.n, "total": self.total.tolist(), "cross": self.cross.tolist()}


@dataclass(frozen=True)
class Layout:
    """Where a cell's deal vector keeps what: for every basis (a mirror strategy, or all line-ups)
    its n seats' win shares, then its finished share (mean over its line-ups of 1 - unfinished)."""

    players: int
    bases: tuple[str, ...]
    lineups: tuple[tuple[int, ...], ...]      # per basis: the cell's line-up indices it reads

    @property
    def width(self) -> int:
        return len(self.bases) * (self.players + 1)

    def seat(self, b: int, s: int) -> int:
        return b * (self.players + 1) + s

    def finished(self, b: int) -> int:
        return b * (self.players + 1) + self.players

    def edge(self, b: int, s: int) -> np.ndarray:
        """Contrast of seat s's edge under basis b: its share less the finished share over n."""
        c = np.zeros(self.width)
        c[self.seat(b, s)] = 1.0
        c[self.finished(b)] -= 1.0 / self.players
        return c


def hotelling(m: Moments, contrasts: np.ndarray) -> float:
    """p-value of "every contrast's mean is 0" from the moments: Hotelling's T² on the deal
    vectors' contrasts (one vector per deal, so the deal is the unit), contrasts without spread
    left out; the paired t-test's square for one. NaN when too few deals or none varies."""
    c = np.atleast_2d(np.asarray(contrasts, float))
    mean = c @ m.mean
    cov = c @ m.cov() @ c.T
    keep = np.diag(cov) > 1e-15
    if not keep.any():
        return float("nan") if np.allclose(mean, 0) else 0.0
    mean, cov = mean[keep], cov[np.ix_(keep, keep)]
    # the rank of the contrasts with a spread (the seats of a deal sum to its finished share)
    vals, vecs = np.linalg.eigh(cov)
    big = vals > vals.max() * 1e-10
    k = int(big.sum())
    if m.n <= k:
        return float("nan")
    proj = vecs[:, big].T @ mean
    t2 = m.n * float(np.sum(proj ** 2 / vals[big]))
    from scipy.stats import f as f_dist
    stat = (m.n - k) / (k * (m.n - 1)) * t2
    return float(f_dist.sf(stat, k, m.n - k))


# ------------------------------------------------------------------ balance verdict
#: The verdict's default level, and the power its planned deals aim at.
ALPHA = 1 - CONFIDENCE
POWER = 0.8
#: Deals no run could play: what the power calculation asks for an edge on the tolerance.
NEVER = 10 ** 15
#: Decided labels. "balanced within tolerance" and "unbalanced" are decisions; "undecided" not.
BALANCED, UNBALANCED, UNDECIDED = "balanced within tolerance", "unbalanced", "undecided"


@dataclass
class Verdict:
    players: int
    basis: str
    deals: int
    p_equal: float            # Hotelling's test of equal seat win rates (on the same deals)
    first_edge: float         # seat 0 win rate minus the fair share
    first_low: float
    first_high: float
    max_edge: float           # the seat furthest from fair share (signed)
    verdict: str              # balanced within tolerance | unbalanced | undecided
    more_games: int           # deals the power calculation plans beyond these (undecided only)
    # the seat that decides the verdict, with its edge and intervals (fractions, not points)
    worst_seat: int = 0
    worst_edge: float = float("nan")
    worst_low: float = float("nan")          # its 95% interval (marginal)
    worst_high: float = float("nan")
    decision_low: float = float("nan")       # its interval at the level the verdict was decided
    decision_high: float = float("nan")
    decision_level: float = float("nan")     # that level: 1 - 2 alpha (TOST) or Holm's (unbalanced)
    decided_by: str = ""                     # tost | holm | "" (undecided)
    p_tost: float = float("nan")             # the row's equivalence p-value (max over seats)
    p_unbalanced: float = float("nan")       # the smallest Holm-adjusted "beyond tolerance" p
    alpha: float = ALPHA                     # the level of every test of this look
    tolerance: float = 0.02
    fair_share: float = float("nan")         # (1 - unfinished) / players
    unfinished: float = 0.0                  # share of games the cap stopped
    reason: str = ""                         # why undecided, in words
    cell: int = -1
    planned_deals: int = 0                   # deals the power calculation asks for in all
    capped: str = ""                         # games | minutes | looks | "" : what stopped the sampling


def plan_deals(edge: float, se: float, deals: int, tolerance: float, alpha_inside: float,
               alpha_outside: float, power: float = POWER) -> tuple[int, float, str]:
    """(deals in all, the edge planned for, direction) for a seat's verdict to be decided with
    probability ``power``: a one-sample power calculation (statsmodels.stats.power: the normal
    deals, the t test's where they are few) with the
    deal's standard deviation (se x sqrt(deals)) at the worst plausible edge, not the estimate:
    the end of the one-sided ``power`` bound of |edge| toward the tolerance. Inside it, the
    equivalence test at ``alpha_inside`` needs the gap tolerance - edge; beyond it, the
    unbalanced test at ``alpha_outside`` the gap edge - tolerance. Where that bound crosses the
    tolerance (the edge is within noise of it) the estimate's own gap is all there is.
    Infinite where the gap is zero."""
    from scipy.stats import norm
    from statsmodels.stats.power import TTestPower, normal_sample_size_one_tail
    sd = se * math.sqrt(max(deals, 1))
    size = abs(edge)
    zp = float(norm.ppf(power))
    inside, outside = size + zp * se, size - zp * se
    if inside < tolerance:
        plan, gap, alpha, direction = inside, tolerance - inside, alpha_inside, "inside"
    elif outside > tolerance:
        plan, gap, alpha, direction = outside, outside - tolerance, alpha_outside, "outside"
    else:
        direction = "inside" if size < tolerance else "outside"
        plan, gap = size, abs(tolerance - size)
        alpha = alpha_inside if direction == "inside" else alpha_outside
    if sd <= 0:
        return deals, math.copysign(plan, edge), direction
    if gap <= 0:
        return NEVER, math.copysign(plan, edge), direction
    # statsmodels' one-sample normal deals (closed form); below a few hundred deals the t test's
    # (TTestPower's solver, which does not converge where a deal or two would do)
    n = float(normal_sample_size_one_tail(gap, power, alpha, std_null=sd))
    if 2 < n < 500:
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t_n = float(np.atleast_1d(TTestPower().solve_power(effect_size=gap / sd, alpha=alpha, power=power,
                                                               alternative="larger"))[0])
        n = t_n if math.isfinite(t_n) else n
    n = min(n, NEVER) if math.isfinite(n) else NEVER
    return max(2, int(math.ceil(n))), math.copysign(plan, edge), direction


def _pp(x: float) -> str:
    return f"{100 * x:+.2f}"


def seat_decisions(rate, se, deals, fair, tolerance: float, alpha: float) -> dict[str, np.ndarray]:
    """The verdict's tests of every seat, vectorised: arrays whose last axis is one family (every
    seat of a report), any leading axes independent families (replicates, in the calibration).

    ``rate`` the seats' win rates, ``se`` the standard errors of their edges (the deal's own
    edge, share - finished / n), ``deals``, ``fair`` the fair shares. Returns p_tost (the larger
    of the two one-sided tests of edge > -tolerance and edge < +tolerance), inside (p_tost <
    alpha: equivalent), p_unbalanced (two-sided, |edge| beyond the tolerance), p_holm (Holm over
    the family), outside (p_holm <= alpha) and level (the Holm-consistent confidence level of the
    family, ``adjusted_confidence``; one per family)."""
    rate, se, deals, fair = np.broadcast_arrays(*(np.asarray(x, float) for x in (rate, se, deals, fair)))
    p_lo = share_pvalue(rate, se, deals, fair - tolerance, "larger")
    p_hi = share_pvalue(rate, se, deals, fair + tolerance, "smaller")
    p_tost = np.maximum(p_lo, p_hi)
    up = share_pvalue(rate, se, deals, fair + tolerance, "larger")
    down = share_pvalue(rate, se, deals, fair - tolerance, "smaller")
    p_unb = np.minimum(1.0, 2 * np.minimum(up, down))
    # Holm along the last axis (statsmodels' numbers, as ``holm``); a NaN counts as 1
    p = np.where(np.isnan(p_unb), 1.0, p_unb)
    m = p.shape[-1]
    order = np.argsort(p, axis=-1, kind="mergesort")
    stepped = np.maximum.accumulate(np.take_along_axis(p, order, -1) * np.arange(m, 0, -1), axis=-1)
    p_holm = np.empty_like(p)
    np.put_along_axis(p_holm, order, np.minimum(stepped, 1.0), -1)
    outside = p_holm <= alpha
    rejected = outside.sum(axis=-1)
    level = 1 - np.where(rejected < m, alpha / np.maximum(m - rejected, 1), alpha)
    return {"p_tost": p_tost, "inside": p_tost < alpha, "p_unbalanced": p_unb,
            "p_holm": np.where(np.isnan(p_unb), np.nan, p_holm), "outside": outside, "level": level}


def row_verdicts(inside: np.ndarray, outside: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Each row's label from its seats' decisions (last axis: seats; ``rows`` the row of every
    seat): unbalanced where any seat is outside, balanced where every one is inside, else undecided."""
    labels = np.unique(rows)
    out = np.empty(inside.shape[:-1] + (len(labels),), dtype=object)
    for j, r in enumerate(labels):
        mine = rows == r
        out[..., j] = np.where(outside[..., mine].any(axis=-1), UNBALANCED,
                               np.where(inside[..., mine].all(axis=-1), BALANCED, UNDECIDED))
    return out


def evaluate(seats: pd.DataFrame, moments: dict[int, "Moments"], layouts: dict[int, Layout],
             tolerance: float, alpha: float = ALPHA, power: float = POWER,
             capped: dict[int, str] | None = None, growth: dict[int, int] | None = None
             ) -> tuple[list[Verdict], pd.DataFrame]:
    """Every verdict row of the main cells' seats (``seats``: one row per cell, basis and seat,
    as simcards.report.seats.seat_table gives, from these moments), at level ``alpha``.

    Returns the verdicts and ``seats`` with the tests added (``seat_decisions``): p_tost (the
    seat's equivalence p-value), tost_low/high (its 1 - 2 alpha interval of the edge),
    p_unbalanced (two-sided, |edge| beyond the tolerance) and p_unbalanced_holm (Holm over every
    seat of the table), holm_level and holm_low/high (the edge's interval at Holm's level), state
    (inside | outside | open) and planned_deals. ``capped``: per cell, what stopped the deals
    (games, minutes, looks) for the reasons; ``growth`` the deals a cell may still grow by."""
    capped = capped or {}
    t = seats.reset_index(drop=True).copy()
    fair = t["fair_share"].to_numpy(float)
    args = (t["win_rate"].to_numpy(float), t["edge_se"].to_numpy(float), t["games"].to_numpy(float))
    found = seat_decisions(*args, fair, tolerance, alpha)
    level = float(found["level"])
    t["p_tost"], t["p_unbalanced"], t["p_unbalanced_holm"] = found["p_tost"], found["p_unbalanced"], found["p_holm"]
    t["holm_level"] = level
    for name, conf in (("tost", 1 - 2 * alpha), ("holm", level)):
        low, high = share_interval(*args, conf)
        t[f"{name}_low"], t[f"{name}_high"] = low - fair, high - fair
    state = np.where(found["outside"], "outside", np.where(found["inside"], "inside", "open"))
    t["state"] = state
    n_family = max(int(np.isfinite(found["p_unbalanced"]).sum()), 1)
    edge, edge_se, games = t["edge"].to_numpy(float), t["edge_se"].to_numpy(float), t["games"].to_numpy()
    planned = games.astype(np.int64).copy()
    for i in np.flatnonzero(state == "open"):
        planned[i] = plan_deals(edge[i], edge_se[i], int(games[i]), tolerance, alpha, alpha / (2 * n_family),
                                power)[0]
    t["planned_deals"] = planned
    col = {c: t[c].to_numpy() for c in ("cell", "basis", "seat", "players", "edge_low", "edge_high", "tost_low",
                                       "tost_high", "holm_low", "holm_high", "p_tost", "p_unbalanced_holm",
                                       "fair_share", "unfinished")}
    verdicts = []
    keys = list(zip(col["cell"], col["basis"]))
    for key in dict.fromkeys(keys):
        idx = np.array([i for i, k in enumerate(keys) if k == key])
        idx = idx[np.argsort(col["seat"][idx])]
        cell, basis = int(key[0]), key[1]
        layout = layouts[cell]
        b = layout.bases.index(basis)
        contrasts = np.array([layout.edge(b, s) - layout.edge(b, 0) for s in range(1, layout.players)])
        p_equal = hotelling(moments[cell], contrasts) if len(contrasts) else float("nan")
        rows = state[idx]
        if (rows == "outside").any():
            verdict, by = UNBALANCED, "holm"
            pick = idx[rows == "outside"]
            worst = pick[np.argmax(np.abs(edge[pick]))]
        elif (rows == "inside").all():
            verdict, by = BALANCED, "tost"
            worst = idx[np.argmax(col["p_tost"][idx])]
        else:
            verdict, by = UNDECIDED, ""
            pick = idx[rows == "open"]
            worst = pick[np.argmax(planned[pick])]
        first, biggest = idx[0], idx[np.argmax(np.abs(edge[idx]))]
        deals = int(games[first])
        need = int(planned[idx].max()) if verdict == UNDECIDED else deals
        v = Verdict(
            players=int(col["players"][first]), basis=str(basis), deals=deals, p_equal=p_equal,
            first_edge=float(edge[first]), first_low=float(col["edge_low"][first]),
            first_high=float(col["edge_high"][first]), max_edge=float(edge[biggest]), verdict=verdict,
            more_games=max(0, need - deals) if verdict == UNDECIDED else 0,
            worst_seat=int(col["seat"][worst]), worst_edge=float(edge[worst]),
            worst_low=float(col["edge_low"][worst]), worst_high=float(col["edge_high"][worst]),
            decision_low=float(col["holm_low" if by == "holm" else "tost_low"][worst]),
            decision_high=float(col["holm_high" if by == "holm" else "tost_high"][worst]),
            decision_level=float(level if by == "holm" else 1 - 2 * alpha), decided_by=by,
            p_tost=float(np.max(col["p_tost"][idx])), p_unbalanced=float(np.nanmin(col["p_unbalanced_holm"][idx])),
            alpha=alpha, tolerance=tolerance, fair_share=float(col["fair_share"][first]),
            unfinished=float(col["unfinished"][first]), cell=cell, planned_deals=need,
            capped=capped.get(cell, "") if verdict == UNDECIDED else "")
        if verdict == UNDECIDED:
            v.reason = undecided_reason(v, growth.get(cell) if growth else None)
        verdicts.append(v)
    return verdicts, t


def undecided_reason(v: Verdict, room: int | None = None) -> str:
    """Why a row is undecided, in words: the seat, how near its edge is to the tolerance, the
    deals played, what stopped the sampling and what the power calculation asks for."""
    gap = abs(v.tolerance - abs(v.worst_edge))
    near = (f"seat {v.worst_seat}'s edge {_pp(v.worst_edge)} points "
            f"[{_pp(v.worst_low)}, {_pp(v.worst_high)}] is within {100 * gap:.2f} points of the "
            f"±{100 * v.tolerance:.1f}-point tolerance after {v.deals:,} deals")
    more = v.more_games
    ask = ("no number of deals would decide it (its edge is on the tolerance)" if more >= NEVER // 10 else
           f"about {more:,} more deals would decide it with {100 * POWER:.0f}% power")
    stop = {"games": "cap reached (max_games)", "minutes": "time cap reached (max_minutes)",
            "looks": "the last planned look was taken (looks)"}.get(v.capped, "")
    return f"{stop + ': ' if stop else ''}{near}; {ask}"


def verdict_text(v: Verdict, tolerance: float) -> str:
    """The verdict in a few words: decided, with the seat that decides it, or why not."""
    if v.verdict == UNDECIDED:
        return f"undecided: {v.reason}" if v.reason else "undecided"
    if v.verdict == UNBALANCED:
        side = "favoured" if v.worst_edge > 0 else "disfavoured"
        return (f"unbalanced: seat {v.worst_seat} {side} by {100 * abs(v.worst_edge):.2f} points "
                f"[{_pp(v.worst_low)}, {_pp(v.worst_high)}]")
    return f"balanced within ±{100 * tolerance:.1f} points"


# ------------------------------------------------------------------ do the strategies disagree?
def disagreements(moments: dict[int, Moments], layouts: dict[int, Layout], players: dict[int, int],
                  alpha: float = ALPHA) -> pd.DataFrame:
    """Per main cell and pair of mirror strategies: do their seat edges differ, on the same
    deals? Hotelling's T² on the per-deal differences of the seats' edges (all seats but the
    last: a deal's edges sum to zero), Holm over every pair of the report. The seat whose edge
    differs most, with its paired difference and interval (a difference of shares in [-1, 1]),
    and that interval at Holm's level."""
    recs = []
    for cell, layout in layouts.items():
        m = moments.get(cell)
        if m is None or m.n == 0:
            continue
        names = [b for b in layout.bases]
        for i, j in itertools.combinations(range(len(names)), 2):
            n = layout.players
            diffs = np.array([layout.edge(i, s) - layout.edge(j, s) for s in range(n)])
            p = hotelling(m, diffs[:-1]) if n > 1 else float("nan")
            stats = [m.contrast(c) for c in diffs]
            seat = int(np.argmax([abs(d) for d, _ in stats]))
            d, se = stats[seat]
            low, high = share_interval(d, se, m.n, CONFIDENCE, -1.0, 1.0)
            recs.append({"cell": cell, "players": players[cell], "a": names[i], "b": names[j], "deals": m.n,
                         "p_value": p, "seat": seat, "diff": d, "se": se, "ci_low": float(low),
                         "ci_high": float(high)})
    cols = ["cell", "players", "a", "b", "deals", "p_value", "seat", "diff", "se", "ci_low", "ci_high",
            "p_holm", "disagree", "holm_level", "holm_low", "holm_high"]
    out = pd.DataFrame(recs, columns=cols[:11])
    out["p_holm"], out["disagree"] = correct(out["p_value"], "holm", alpha)
    level = adjusted_confidence(out["p_value"], "holm", alpha)
    out["holm_level"] = level
    if len(out):
        low, high = share_interval(out["diff"], out["se"], out["deals"], level, -1.0, 1.0)
        out["holm_low"], out["holm_high"] = low, high
    else:
        out["holm_low"] = out["holm_high"] = []
    return out[cols]
