"""Every statistic of a report, from the tidy frame of all games of an experiment.

The frame has one row per (cell, line-up, game, seat) (the frame of simcards.simulate
plus the columns ``cell``, ``lineup``, ``players``, ``part``). The line-ups of a
cell are played on the same game indices with the same seed, so game index g
is the same deal in every line-up of a cell (common random numbers).

The deal is the unit of every standard error: a strategy's score in deal g is
the mean win share of its seats, averaged over the cell's line-ups (seat orders)
that hold it; a seat's score the mean over the line-ups of the basis. Deals are
independent, line-ups on one deal are not. Intervals are 95%
(simcards.stats.CONFIDENCE). Every win rate, share, edge and difference of win
shares has the boundary-safe interval of simcards.stats.share_interval (Wilson on
the Korn-Graubard effective count of deals; a strategy in m seats bounded by 1/m)
and the test it inverts (share_pvalue); mean lengths t intervals; card effects
OLS with standard errors clustered by deal (simcards.report.inference); ratings a
bootstrap over deals. Multiplicity: Holm over the strategy pairs, the sweep
effects and the verdict's seats, Benjamini-Hochberg over the card effects; beside
every corrected p-value the interval at the level that agrees with it
(inference.adjusted_confidence). Fair shares are net of unfinished games.

Seats are read from the moments of one vector per deal (inference.Moments), so the
deals a sequential verdict adds (simcards.report.sequential) enter the seat table
and the verdict without a frame; ``extra`` holds them per cell.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy.stats import norm
from statsmodels.stats.weightstats import DescrStatsW

from simcards.report import inference
from simcards.report.experiment import MAIN, Cell, Experiment
from simcards.statistics.intervals import CONFIDENCE, mean_interval, share_interval
from simcards.statistics.paired import SHARE_DIFFERENCE, paired_difference, paired_differences  # noqa: F401 (tune's too)

Z = float(norm.ppf(0.5 + CONFIDENCE / 2))
#: The Plackett-Luce fit runs in Python over every game; above this many games it
#: uses the lowest game indices of every cell (the report says how many).
RATING_MAX_GAMES = 5_000
RATING_ALPHA = 0.01  # choix regularisation: keeps a strategy that never wins finite


# ------------------------------------------------------------------ helpers
def cell_frame(exp: Experiment) -> pd.DataFrame:
    return pd.DataFrame([{"cell": c.id, "part": c.part, "players": c.players,
                          "sweep_value": "" if c.sweep_value is None else str(c.sweep_value),
                          "lineups": len(c.lineups),
                          "mirror_lineups": sum(c.mirror)} for c in exp.cells])


def mirror_lineups(exp: Experiment, offsets: dict[int, int]) -> set[int]:
    """Global ids of the line-ups where every seat plays the same strategy."""
    return {offsets[c.id] + i for c in exp.cells for i, m in enumerate(c.mirror) if m}


def lineup_offsets(exp: Experiment) -> dict[int, int]:
    """First global line-up id of every cell (line-up ids run through the cells in order)."""
    out, k = {}, 0
    for c in exp.cells:
        out[c.id] = k
        k += len(c.lineups)
    return out


def length_columns(spec) -> list[str]:
    """Game-length columns: ``rounds`` (if the game has it) and the step column."""
    step = spec.step_column
    cols = [c for c in ("rounds",) if c in spec.game_columns and c != step]
    if step in spec.game_columns:
        cols.append(step)
    return cols


def _interval_rows(per_deal: pd.Series, by: list[str], upper=1.0) -> pd.DataFrame:
    """Win rates from per-deal scores: deals (as ``games``), wins, win_rate, interval, se."""
    iv = mean_interval(per_deal, by, share=True, upper=upper).reset_index()
    return iv.assign(games=iv["deals"], wins=iv["mean"] * iv["deals"], win_rate=iv["mean"])


def _cell_info(df: pd.DataFrame, exp: Experiment) -> pd.DataFrame:
    info = cell_frame(exp)[["cell", "part", "players", "sweep_value"]]
    return df.merge(info, on="cell", how="left")


# ------------------------------------------------------------------ win rates
def strategy_scores(frame: pd.DataFrame, exp: Experiment) -> pd.DataFrame:
    """Score of every strategy in every deal of every cell (mirror line-ups left out).

    Columns cell, game, strategy, score (mean win share over its seats and line-ups)."""
    mirrors = mirror_lineups(exp, lineup_offsets(exp))
    rows = frame[~frame["lineup"].isin(mirrors)]
    if rows.empty:
        return pd.DataFrame(columns=["cell", "game", "strategy", "score"])
    per_lineup = rows.groupby(["cell", "lineup", "game", "strategy"], observed=True)["win_share"].mean()
    out = per_lineup.groupby(level=["cell", "game", "strategy"], observed=True).mean()
    out = out.rename("score").reset_index()
    out["strategy"] = out["strategy"].astype(str)
    return out


def strategy_rates(frame: pd.DataFrame, exp: Experiment) -> pd.DataFrame:
    """Win rate per strategy per cell with a 95% t interval over deal means (unit: the deal)."""
    scores = strategy_scores(frame, exp)
    cols = ["cell", "part", "players", "sweep_value", "strategy", "games", "wins", "win_rate",
            "ci_low", "ci_high", "se", "fair_share"]
    if scores.empty:
        return pd.DataFrame(columns=cols)
    bounds = strategy_bounds(exp)
    index = pd.MultiIndex.from_tuples(list(bounds), names=["cell", "strategy"])
    upper = pd.Series(list(bounds.values()), index=index, dtype=float)
    agg = _interval_rows(scores.set_index(["cell", "strategy", "game"])["score"], ["cell", "strategy"], upper)
    agg = _cell_info(agg, exp)
    finished = 1.0 - unfinished_rates(frame, exp, mirrors=False)
    agg["fair_share"] = agg["cell"].map(finished).fillna(1.0) / agg["players"]
    return agg[cols].sort_values(["cell", "win_rate"], ascending=[True, False], ignore_index=True)


def strategy_bounds(exp: Experiment) -> dict[tuple[int, str], float]:
    """The most a strategy's deal score can be, per (cell, strategy): the mean over the cell's
    line-ups holding it (mirrors left out) of 1/m, m the seats it holds there (one winner a game)."""
    out: dict[tuple[int, str], list[float]] = {}
    for cell in exp.cells:
        for lineup, mirror in zip(cell.lineups, cell.mirror):
            if mirror:
                continue
            for name in set(lineup):
                out.setdefault((cell.id, str(name)), []).append(1.0 / lineup.count(name))
    return {k: float(np.mean(v)) for k, v in out.items()}


def unfinished_rates(frame: pd.DataFrame, exp: Experiment, mirrors: bool | None = None) -> pd.Series:
    """Share of games the cap stopped, per cell (``mirrors``: only mirror line-ups, only the
    others, or None for all)."""
    if "unfinished" not in frame:
        return pd.Series(0.0, index=pd.Index([c.id for c in exp.cells], name="cell"))
    rows = frame[frame["seat"] == 0]
    if mirrors is not None:
        held = rows["lineup"].isin(mirror_lineups(exp, lineup_offsets(exp)))
        rows = rows[held if mirrors else ~held]
    return rows.groupby("cell")["unfinished"].mean().astype(float)


ALL_LINEUPS = "all line-ups"


def seat_bases(frame: pd.DataFrame, exp: Experiment, cell: Cell) -> list[tuple[str, pd.DataFrame]]:
    """(basis, rows) the seats of a cell are read from: each mirror strategy on its own
    (every seat plays it, so seats differ only by seat), else all line-ups."""
    rows = frame[frame["cell"] == cell.id]
    offset = lineup_offsets(exp)[cell.id]
    out = [(cell.lineups[i][0], rows[rows["lineup"] == offset + i])
           for i, m in enumerate(cell.mirror) if m]
    return out or [(ALL_LINEUPS, rows)]


def layouts(exp: Experiment) -> dict[int, inference.Layout]:
    """Every cell's deal vector (inference.Layout): its bases as ``seat_bases`` reads them, each
    mirror strategy on its own, else all line-ups."""
    out = {}
    for cell in exp.cells:
        bases = [(cell.lineups[i][0], (i,)) for i, m in enumerate(cell.mirror) if m]
        if not bases:
            bases = [(ALL_LINEUPS, tuple(range(len(cell.lineups))))]
        out[cell.id] = inference.Layout(cell.players, tuple(b for b, _ in bases), tuple(l for _, l in bases))
    return out


def cell_moments(frame: pd.DataFrame, exp: Experiment, cells: list[int] | None = None
                 ) -> dict[int, inference.Moments]:
    """The moments of every cell's deal vectors (``layouts``) from the frame: per deal, every
    basis's seat win shares (mean over its line-ups) and finished share. One grouping of the frame."""
    lay = layouts(exp)
    offsets = lineup_offsets(exp)
    key_of = np.full(sum(len(c.lineups) for c in exp.cells), -1)
    keys: list[tuple[int, int]] = []                  # (cell, basis index)
    for cell in exp.cells:
        if cells is not None and cell.id not in cells:
            continue
        for b, lineups_b in enumerate(lay[cell.id].lineups):
            for i in lineups_b:
                key_of[offsets[cell.id] + i] = len(keys)
            keys.append((cell.id, b))
    key = key_of[frame["lineup"].to_numpy()]
    held = key >= 0
    unfinished = frame["unfinished"].to_numpy(bool) if "unfinished" in frame else np.zeros(len(frame), bool)
    rows = pd.DataFrame({"key": key[held], "seat": frame["seat"].to_numpy()[held],
                         "game": frame["game"].to_numpy()[held],
                         "win_share": frame["win_share"].to_numpy(float)[held],
                         "finished": (~unfinished[held]).astype(float)})
    shares = rows.groupby(["key", "game", "seat"], sort=True)["win_share"].mean().unstack("seat")
    finished = rows[rows["seat"] == 0].groupby(["key", "game"], sort=True)["finished"].mean()
    # (key, game) rows in the same order in both: split the arrays at each key's first row
    values = shares.to_numpy(float)
    done = finished.reindex(shares.index).to_numpy(float)
    key_rows = shares.index.get_level_values("key").to_numpy()
    bounds = np.flatnonzero(np.diff(key_rows)) + 1
    blocks: dict[int, list[np.ndarray]] = {}
    for start, stop in zip(np.r_[0, bounds], np.r_[bounds, len(key_rows)]):
        if stop <= start:
            continue
        cell, b = keys[int(key_rows[start])]
        n = lay[cell].players
        blocks.setdefault(cell, []).append(np.column_stack([values[start:stop, :n], done[start:stop]]))
    out: dict[int, inference.Moments] = {}
    for cell, parts in blocks.items():
        if len(parts) == len(lay[cell].bases) and len({len(p) for p in parts}) == 1:
            out[cell] = inference.Moments.of(np.hstack(parts))
    return out


def seat_table(moments: dict[int, inference.Moments], exp: Experiment) -> pd.DataFrame:
    """Win rate and edge per seat, cell and basis from the cells' moments (unit: the deal).

    Columns: games (the deals), wins, win_rate with its 95% interval (simcards.stats.
    share_interval) and se, fair_share ((1 - unfinished) / players), unfinished (the share of
    games the cap stopped), edge (win rate - fair share) with edge_se (from the deal's own
    edge, share - finished share / players) and edge_low/edge_high (the share's interval with
    the edge's design effect, less the fair share)."""
    lay = layouts(exp)
    info = {c.id: c for c in exp.cells}
    recs = []
    for cell_id, m in moments.items():
        layout, cell = lay[cell_id], info[cell_id]
        for b, basis in enumerate(layout.bases):
            fin = float(m.mean[layout.finished(b)])
            for s in range(layout.players):
                c = np.zeros(layout.width)
                c[layout.seat(b, s)] = 1.0
                rate, se = m.contrast(c)
                edge, edge_se = m.contrast(layout.edge(b, s))
                recs.append({"cell": cell_id, "part": cell.part, "players": cell.players,
                             "sweep_value": "" if cell.sweep_value is None else str(cell.sweep_value),
                             "seat": s, "basis": basis, "games": m.n, "wins": rate * m.n, "win_rate": rate,
                             "se": se, "fair_share": fin / layout.players, "unfinished": 1.0 - fin,
                             "edge": edge, "edge_se": edge_se})
    cols = ["cell", "part", "players", "sweep_value", "seat", "basis", "games", "wins", "win_rate",
            "ci_low", "ci_high", "se", "fair_share", "unfinished", "edge", "edge_se", "edge_low", "edge_high"]
    out = pd.DataFrame(recs)
    if out.empty:
        return pd.DataFrame(columns=cols)
    args = (out["win_rate"].to_numpy(), out["se"].to_numpy(), out["games"].to_numpy())
    out["ci_low"], out["ci_high"] = share_interval(*args)
    low, high = share_interval(out["win_rate"].to_numpy(), out["edge_se"].to_numpy(), out["games"].to_numpy())
    out["edge_low"], out["edge_high"] = low - out["fair_share"], high - out["fair_share"]
    out["_b"] = [lay[c].bases.index(b) for c, b in zip(out["cell"], out["basis"])]
    return out.sort_values(["cell", "_b", "seat"], ignore_index=True)[cols]


def seat_rates(frame: pd.DataFrame, exp: Experiment,
               extra: dict[int, inference.Moments] | None = None) -> pd.DataFrame:
    """Win rate and edge per seat per cell and basis, 95% intervals over deals (unit: the deal).

    Seat advantage is read from each of the cell's mirror line-ups (every seat
    the same strategy: the basis is that strategy) where it has some, else from
    all its line-ups (basis "all line-ups", balanced by the seat-order design).
    ``extra``: moments of deals beyond the frame's (a sequential verdict's), per cell."""
    moments = cell_moments(frame, exp)
    for cell, m in (extra or {}).items():
        moments[cell] = moments[cell] + m if cell in moments else m
    return seat_table(moments, exp)


# ------------------------------------------------------------------ pairwise comparisons
def _lineup_matrices(frame: pd.DataFrame, exp: Experiment, cells: list[int]):
    """(cell, matrix) of the given cells: per deal (rows) the mean win share of each
    (line-up, strategy) (columns), mirror line-ups left out; one grouping of the frame."""
    mirrors = mirror_lineups(exp, lineup_offsets(exp))
    rows = frame[frame["cell"].isin(cells) & ~frame["lineup"].isin(mirrors)]
    x = rows.groupby(["cell", "game", "lineup", "strategy"], observed=True)["win_share"].mean()
    for cell, part in x.groupby(level="cell", sort=True):
        yield int(cell), part.droplevel("cell").unstack(["lineup", "strategy"])


def adjusted_intervals(out: pd.DataFrame, p: str, diffs: dict, method: str = inference.PAIR_CORRECTION,
                       prefix: str = "holm") -> pd.DataFrame:
    """The rows' intervals at the level of their corrected family (inference.adjusted_confidence),
    as paired_difference draws them: ``{prefix}_level``, ``{prefix}_low``, ``{prefix}_high``.
    ``diffs`` maps a row's index to (its per-deal differences, their bounds or None, scale)."""
    level = inference.adjusted_confidence(out[p], method)
    out[f"{prefix}_level"] = level
    lows, highs = np.full(len(out), np.nan), np.full(len(out), np.nan)
    position = {i: k for k, i in enumerate(out.index)}
    groups: dict = {}
    for i in out.index:
        d, bounds, scale = diffs[i]
        groups.setdefault((bounds, scale), []).append(i)
    for (bounds, scale), rows in groups.items():
        _, low, high, _ = paired_differences([diffs[i][0] for i in rows], bounds, level)
        at = [position[i] for i in rows]
        lows[at], highs[at] = scale * low, scale * high
    out[f"{prefix}_low"], out[f"{prefix}_high"] = lows, highs
    return out


def pairwise(frame: pd.DataFrame, exp: Experiment) -> pd.DataFrame:
    """Every pair of strategies in every main cell: paired difference over deals.

    d(g) = score_A(g) - score_B(g); the test of simcards.stats.share_pvalue on d (a
    difference of shares, in [-1, 1]; the sign test where d is constant) gives the
    p-value, corrected over all pairs of the report by Holm's method; the effect is
    the mean of d in percentage points with its 95% interval (share_interval), and
    holm_low/holm_high its interval at Holm's level (holm_level), which excludes 0
    exactly where the corrected test rejects.

    Common random numbers: var_crn is the variance of d(g) as played (all
    line-ups on the same deals); var_independent is what it would be if every
    line-up had been dealt its own games (the sum of each line-up's own
    variance), so crn_saving = 1 - var_crn / var_independent.
    """
    players = {c.id: c.players for c in exp.cells}
    records = []
    diffs: dict[int, np.ndarray] = {}
    for cell, x in _lineup_matrices(frame, exp, [c.id for c in exp.cells if c.part == MAIN]):
        if x.empty:
            continue
        columns = list(x.columns)
        values = x.to_numpy(float)
        position = {c: i for i, c in enumerate(columns)}
        names = sorted({s for _, s in columns})
        by_strategy = {s: [c for c in columns if c[1] == s] for s in names}
        for a, b in itertools.combinations(names, 2):
            ca, cb = by_strategy[a], by_strategy[b]
            xa = values[:, [position[c] for c in ca]]
            xb = values[:, [position[c] for c in cb]]
            d = xa.mean(axis=1) - xb.mean(axis=1)
            var_crn = float(np.var(d, ddof=1)) if len(d) > 1 else float("nan")
            var_ind = 0.0
            for lineup in sorted({l for l, _ in ca + cb}):
                part = np.zeros(len(d))
                if (lineup, a) in position:
                    part += values[:, position[(lineup, a)]] / len(ca)
                if (lineup, b) in position:
                    part -= values[:, position[(lineup, b)]] / len(cb)
                var_ind += float(np.var(part, ddof=1)) if len(d) > 1 else float("nan")
            saving = 1 - var_crn / var_ind if var_ind > 0 else float("nan")
            diffs[len(records)] = (d, SHARE_DIFFERENCE, 100.0)
            records.append({"cell": cell, "players": players[cell], "a": a, "b": b,
                            "games": len(d), "var_crn": var_crn, "var_independent": var_ind,
                            "crn_saving": saving})
    out = pd.DataFrame(records, columns=["cell", "players", "a", "b", "games", "var_crn", "var_independent",
                                         "crn_saving"])
    mean, low, high, p_value = paired_differences([diffs[i][0] for i in range(len(out))], SHARE_DIFFERENCE)
    out.insert(5, "diff_pp", 100 * mean)
    out.insert(6, "ci_low_pp", 100 * low)
    out.insert(7, "ci_high_pp", 100 * high)
    out.insert(8, "p_value", p_value)
    out["p_holm"], out["significant"] = inference.correct(out["p_value"], inference.PAIR_CORRECTION)
    return adjusted_intervals(out, "p_value", diffs)


def crn_summary(pairs: pd.DataFrame) -> dict:
    """Variance of all pairwise differences as played against with independent deals."""
    ok = pairs.dropna(subset=["var_crn", "var_independent"])
    ok = ok[ok["var_independent"] > 0]
    if ok.empty:
        return {"pairs": 0}
    crn, ind = float(ok["var_crn"].sum()), float(ok["var_independent"].sum())
    saving = 1 - crn / ind
    return {"pairs": int(len(ok)), "var_crn": crn, "var_independent": ind, "saving": saving,
            "games_factor": ind / crn if crn > 0 else float("inf"),
            "median_saving": float(ok["crn_saving"].median())}


# ------------------------------------------------------------------ rating (Plackett-Luce)
def ranking_events(ranks: np.ndarray, items: np.ndarray) -> list[tuple[int, list[int]]]:
    """Top-1 choice events of one game for a Plackett-Luce fit.

    ``ranks[p]`` is seat p's place (1 = best, equal = tied), ``items[p]`` its
    strategy's item id. Places are taken best first: each seat of the best
    remaining place is chosen from all seats still in play (ties share the
    choice set, Breslow's method); a last group of tied seats gives no event.
    The same strategy in several seats is the same item several times, which is
    the Plackett-Luce likelihood with multiplicities.
    """
    order = np.argsort(ranks, kind="stable")
    remaining = list(order)
    events = []
    for place in np.unique(ranks):
        group = [p for p in remaining if ranks[p] == place]
        if len(group) == len(remaining):
            break
        for p in group:
            events.append((int(items[p]), [int(items[q]) for q in remaining if q != p]))
        remaining = [p for p in remaining if ranks[p] != place]
    return events


def fit_strengths(n_items: int, events: list[tuple[int, list[int]]], init=None,
                  alpha: float = RATING_ALPHA) -> np.ndarray:
    """Centred Plackett-Luce log-strengths by choix (I-LSR), optionally warm-started."""
    import choix
    theta = choix.ilsr_top1(n_items, events, alpha=alpha, initial_params=init, max_iter=1000, tol=1e-8)
    return theta - theta.mean()


def _games_for_rating(frame: pd.DataFrame, limit: int) -> pd.DataFrame:
    """All games, or the lowest game indices of every cell so that at most ``limit`` games are used."""
    keys = frame[["cell", "lineup", "game"]].drop_duplicates()
    if len(keys) <= limit:
        return frame
    counts = keys.groupby("game").size().sort_index().cumsum()
    last = counts.index[counts.to_numpy() <= limit]
    top = int(last.max()) if len(last) else int(counts.index.min())
    return frame[frame["game"] <= top]


@dataclass
class Rating:
    table: pd.DataFrame
    games_used: int = 0
    games_total: int = 0
    unfinished_left_out: int = 0
    events: int = 0
    notes: list[str] = field(default_factory=list)


def rating(frame: pd.DataFrame, exp: Experiment, limit: int = RATING_MAX_GAMES) -> Rating | None:
    """Plackett-Luce rating of every strategy from the main cells' multiplayer results."""
    mirrors = mirror_lineups(exp, lineup_offsets(exp))
    main = [c.id for c in exp.cells if c.part == MAIN]
    rows = frame[frame["cell"].isin(main) & ~frame["lineup"].isin(mirrors)]
    if rows.empty or rows["strategy"].astype(str).nunique() < 2:
        return None
    unfinished = 0
    if "unfinished" in rows:
        unfinished = int(rows.loc[rows["unfinished"].astype(bool), ["cell", "lineup", "game"]]
                         .drop_duplicates().shape[0])
        rows = rows[~rows["unfinished"].astype(bool)]
    total = int(rows[["cell", "lineup", "game"]].drop_duplicates().shape[0])
    used = _games_for_rating(rows, limit).sort_values(["cell", "lineup", "game", "seat"])
    names = sorted(used["strategy"].astype(str).unique())
    index = {s: i for i, s in enumerate(names)}
    items = used["strategy"].astype(str).map(index).to_numpy()
    ranks = used["rank"].to_numpy()
    sizes = used.groupby(["cell", "lineup", "game"], sort=False).size().to_numpy()
    per_game, start = [], 0
    for size in sizes:
        per_game.append(ranking_events(ranks[start:start + size], items[start:start + size]))
        start += size
    events = [e for game_events in per_game for e in game_events]
    theta = fit_strengths(len(names), events)
    # the deal is the unit: a bootstrap over game indices (each index's games in every
    # line-up and at every player count stay together, since they share a deck order)
    deal_ids = used.drop_duplicates(["cell", "lineup", "game"])["game"].to_numpy()
    by_deal: dict[int, list] = {}
    for deal, game_events in zip(deal_ids, per_game):
        by_deal.setdefault(int(deal), []).extend(game_events)
    se = inference.bootstrap_rating(len(names), list(by_deal.values()),
                                    lambda ev, init: fit_strengths(len(names), ev, init), theta, exp.seed)
    wins = np.bincount([w for w, _ in events], minlength=len(names))
    table = pd.DataFrame({"strategy": names, "strength": theta, "se": se,
                          "ci_low": theta - Z * se, "ci_high": theta + Z * se,
                          "first_choices": wins})
    table = table.sort_values("strength", ascending=False, ignore_index=True)
    table.insert(0, "rank", np.arange(1, len(table) + 1))
    # P(beats the next strategy down in a two-seat game) = logistic of the difference
    nxt = table["strength"].shift(-1)
    table["p_beats_next"] = 1 / (1 + np.exp(-(table["strength"] - nxt)))
    return Rating(table, games_used=int(len(sizes)), games_total=total,
                  unfinished_left_out=unfinished, events=len(events))


def head_to_head(frame: pd.DataFrame, exp: Experiment) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Share of seat-against-seat comparisons in one game that A placed better than B (ties half).

    Main cells, mirror line-ups and unfinished games left out. Returns (share, comparisons)."""
    mirrors = mirror_lineups(exp, lineup_offsets(exp))
    main = [c.id for c in exp.cells if c.part == MAIN]
    rows = frame[frame["cell"].isin(main) & ~frame["lineup"].isin(mirrors)]
    if "unfinished" in rows:
        rows = rows[~rows["unfinished"].astype(bool)]
    names = sorted(rows["strategy"].astype(str).unique())
    k = len(names)
    won = np.zeros((k, k))
    seen = np.zeros((k, k))
    index = {s: i for i, s in enumerate(names)}
    for _, lineup_rows in rows.groupby("lineup"):
        ranks = lineup_rows.pivot(index="game", columns="seat", values="rank").to_numpy()
        seat_strategy = (lineup_rows.drop_duplicates("seat").sort_values("seat")["strategy"]
                         .astype(str).map(index).to_numpy())
        for i, j in itertools.permutations(range(ranks.shape[1]), 2):
            a, b = seat_strategy[i], seat_strategy[j]
            if a == b:
                continue
            won[a, b] += float(np.sum(ranks[:, i] < ranks[:, j]) + 0.5 * np.sum(ranks[:, i] == ranks[:, j]))
            seen[a, b] += ranks.shape[0]
    share = np.divide(won, seen, out=np.full((k, k), np.nan), where=seen > 0)
    return (pd.DataFrame(share, index=names, columns=names),
            pd.DataFrame(seen.astype(np.int64), index=names, columns=names))


# ------------------------------------------------------------------ game length
def game_lengths(frame: pd.DataFrame, exp: Experiment) -> pd.DataFrame:
    """One row per (cell, line-up, game) with the length columns."""
    cols = length_columns(exp.spec)
    extra = ["unfinished"] if "unfinished" in frame else []
    games = frame[frame["seat"] == 0][["cell", "lineup", "game"] + cols + extra]
    return _cell_info(games.reset_index(drop=True), exp)


def length_summary(lengths: pd.DataFrame, exp: Experiment) -> pd.DataFrame:
    """Per cell and length column: mean with 95% interval (unit: the deal), quantiles, unfinished."""
    records = []
    for cell in exp.cells:
        g = lengths[lengths["cell"] == cell.id]
        for col in length_columns(exp.spec):
            per_deal = g.groupby("game")[col].mean().to_numpy(float)
            if len(per_deal) > 1 and per_deal.std() > 0:
                low, high = DescrStatsW(per_deal).tconfint_mean(alpha=1 - CONFIDENCE)
            else:
                low = high = float(per_deal.mean())
            se = float(per_deal.std(ddof=1) / math.sqrt(len(per_deal))) if len(per_deal) > 1 else 0.0
            values = g[col].to_numpy(float)
            records.append({"cell": cell.id, "column": col, "games": len(values), "deals": len(per_deal), "se": se,
                            "mean": float(values.mean()), "ci_low": float(low), "ci_high": float(high),
                            "p10": float(np.percentile(values, 10)), "median": float(np.median(values)),
                            "p90": float(np.percentile(values, 90)), "max": float(values.max()),
                            "unfinished": int(g["unfinished"].sum()) if "unfinished" in g else 0})
    return _cell_info(pd.DataFrame(records), exp)


# ------------------------------------------------------------------ card balance
def card_balance(frame: pd.DataFrame, exp: Experiment) -> pd.DataFrame | None:
    """For every card kind: win rate of seats dealt it against seats not dealt it.

    Rows: main cells, the mirror line-ups where the experiment has some (the
    seat's strategy then does not differ between the groups), else all. The
    effect is the coefficient of "dealt" in an OLS of the seat's win share on it
    and one constant per player count (the fair share differs), with standard
    errors clustered by deal (game index: a deal's hands repeat in every
    line-up, and its seats share one winner); the rates dealt and not dealt are
    clustered means. p-values are corrected over the cards by Benjamini-Hochberg.
    """
    names = exp.spec.card_names
    if "dealt_mask" not in exp.spec.seat_columns or not names:
        return None
    offsets = lineup_offsets(exp)
    mirrors = mirror_lineups(exp, offsets)
    main = [c.id for c in exp.cells if c.part == MAIN]
    rows = frame[frame["cell"].isin(main)]
    basis = "all line-ups"
    if rows["lineup"].isin(mirrors).any():
        rows = rows[rows["lineup"].isin(mirrors)]
        basis = "mirror line-ups"
    return card_effects(rows["dealt_mask"].to_numpy(np.int64), rows["win_share"].to_numpy(float),
                        rows["players"].to_numpy(), rows["game"].to_numpy(), names, basis)


def card_effects(masks: np.ndarray, share: np.ndarray, players: np.ndarray, deals: np.ndarray,
                 names, basis: str = "") -> pd.DataFrame:
    """The card table from seat rows: dealt masks, win shares, player counts, deal ids."""
    records = []
    for kind, card in enumerate(names):
        dealt = ((masks >> kind) & 1).astype(bool)
        if dealt.all() or not dealt.any():
            continue  # never or always dealt: nothing to compare
        diff, se, p = inference.card_effect(share, dealt, players, deals)
        r1, s1 = inference.clustered_mean(share[dealt], deals[dealt])
        r0, s0 = inference.clustered_mean(share[~dealt], deals[~dealt])
        n1, n0 = len(np.unique(deals[dealt])), len(np.unique(deals[~dealt]))
        (d_low, d_high), (n_low, n_high) = share_interval(r1, s1, n1), share_interval(r0, s0, n0)
        records.append({"kind": kind, "card": card, "dealt_seats": int(dealt.sum()),
                        "not_dealt_seats": int((~dealt).sum()), "rate_dealt": r1,
                        "dealt_low": float(d_low), "dealt_high": float(d_high), "rate_not": r0,
                        "not_low": float(n_low), "not_high": float(n_high), "diff_pp": 100 * diff,
                        "se_pp": 100 * se, "ci_low_pp": 100 * (diff - Z * se),
                        "ci_high_pp": 100 * (diff + Z * se), "p_value": p, "deals": int(len(np.unique(deals)))})
    out = pd.DataFrame(records)
    if out.empty:
        return out
    out["p_bh"], out["significant"] = inference.correct(out["p_value"], inference.CARD_CORRECTION)
    # beside BH's p-values, the false-coverage-rate intervals (Benjamini-Yekutieli): at this
    # level an interval excludes 0 exactly where BH rejects
    level = inference.adjusted_confidence(out["p_value"], inference.CARD_CORRECTION)
    z = float(norm.ppf(0.5 + level / 2))
    out["bh_level"] = level
    out["bh_low_pp"] = out["diff_pp"] - z * out["se_pp"]
    out["bh_high_pp"] = out["diff_pp"] + z * out["se_pp"]
    out["basis"] = basis
    return out.sort_values("diff_pp", ascending=False, ignore_index=True)


# ------------------------------------------------------------------ balance verdict
@dataclass
class Sampling:
    """How the verdict's deals were sampled (simcards.report.sequential): the level of every
    test (alpha over the planned looks: Bonferroni over looks), the looks taken and planned,
    and per cell what stopped it."""

    alpha: float = inference.ALPHA          # the experiment's level
    looks: int = 1                          # looks planned (each tests at alpha / looks)
    looks_taken: int = 1
    power: float = inference.POWER
    capped: dict = field(default_factory=dict)     # cell -> games | minutes | looks
    room: dict = field(default_factory=dict)       # cell -> deals it could still have grown by
    history: list = field(default_factory=list)    # one record per look

    @property
    def alpha_look(self) -> float:
        return self.alpha / max(self.looks, 1)


def verdicts(frame: pd.DataFrame, exp: Experiment, seats: pd.DataFrame,
             extra: dict[int, inference.Moments] | None = None, sampling: Sampling | None = None
             ) -> tuple[list[inference.Verdict], pd.DataFrame]:
    """Per main player count and seat basis: the verdict (inference.evaluate) at the sampling's
    level, every seat of every main cell one family for Holm; and the seats' tests."""
    sampling = sampling or Sampling(alpha=exp.alpha, looks=1, power=exp.power)
    main = [c.id for c in exp.cells if c.part == MAIN]
    moments = cell_moments(frame, exp, main)
    for cell, m in (extra or {}).items():
        if cell in moments:
            moments[cell] = moments[cell] + m
    rows = seats[seats["cell"].isin(main)]
    if rows.empty:
        return [], rows
    return inference.evaluate(rows, moments, layouts(exp), exp.tolerance, sampling.alpha_look, sampling.power,
                              sampling.capped, sampling.room)


def strategy_disagreements(frame: pd.DataFrame, exp: Experiment,
                           extra: dict[int, inference.Moments] | None = None,
                           sampling: Sampling | None = None) -> pd.DataFrame:
    """Do two mirror strategies' seat edges differ at a player count (inference.disagreements)."""
    sampling = sampling or Sampling(alpha=exp.alpha, looks=1, power=exp.power)
    main = [c.id for c in exp.cells if c.part == MAIN]
    moments = cell_moments(frame, exp, main)
    for cell, m in (extra or {}).items():
        if cell in moments:
            moments[cell] = moments[cell] + m
    lay = {c: l for c, l in layouts(exp).items() if c in main and len(l.bases) > 1}
    return inference.disagreements(moments, lay, {c.id: c.players for c in exp.cells}, sampling.alpha_look)


# ------------------------------------------------------------------ everything, and precision
@dataclass
class Results:
    strategies: pd.DataFrame
    seats: pd.DataFrame
    pairs: pd.DataFrame
    crn: dict
    rating: Rating | None
    h2h: tuple[pd.DataFrame, pd.DataFrame]
    lengths: pd.DataFrame
    length_table: pd.DataFrame
    cards: pd.DataFrame | None
    sweep: pd.DataFrame | None           # paired effects against the default (simcards.report.sweep)
    intervals: pd.DataFrame
    verdicts: list = field(default_factory=list)
    designer: object = None
    skill: pd.DataFrame | None = None    # the skill index (simcards.report.skill), set by the report
    oracle: pd.DataFrame | None = None   # the information ceiling (simcards.report.skill.oracle_table)
    elimination: pd.DataFrame | None = None  # when seats go out (simcards.report.elimination)
    seat_tests: pd.DataFrame | None = None     # main seats with the verdict's tests (inference.evaluate)
    disagreements: pd.DataFrame | None = None  # mirror strategies whose seat edges differ (paired)
    sampling: Sampling | None = None            # how the verdict's deals were sampled


def intervals(exp: Experiment, strategies: pd.DataFrame, seats: pd.DataFrame, pairs: pd.DataFrame,
              cards: pd.DataFrame | None) -> pd.DataFrame:
    """Every interval on the probability scale, with its half-width and the cells it rests on.

    These are the intervals ``--precision`` drives below the target: win rates
    per strategy and per seat, pairwise differences, card-balance rates and
    differences. Ratings (log strengths) and lengths (turns) are not probabilities."""
    recs = []
    for df, what in ((strategies, "strategy win rate"), (seats, "seat win rate")):
        for row in df.itertuples():
            name = row.strategy if what.startswith("strategy") else f"seat {row.seat}"
            recs.append({"what": f"{what}: {name}", "cells": (row.cell,),
                         "half_width": max(row.win_rate - row.ci_low, row.ci_high - row.win_rate)})
    for row in pairs.itertuples():
        recs.append({"what": f"difference {row.a} - {row.b}", "cells": (row.cell,),
                     "half_width": (row.ci_high_pp - row.ci_low_pp) / 200})
    if cards is not None:
        main = tuple(c.id for c in exp.cells if c.part == MAIN)
        for row in cards.itertuples():
            recs.append({"what": f"card {row.card}: difference", "cells": main,
                         "half_width": (row.ci_high_pp - row.ci_low_pp) / 200})
            recs.append({"what": f"card {row.card}: dealt", "cells": main,
                         "half_width": max(row.rate_dealt - row.dealt_low, row.dealt_high - row.rate_dealt)})
            recs.append({"what": f"card {row.card}: not dealt", "cells": main,
                         "half_width": max(row.rate_not - row.not_low, row.not_high - row.rate_not)})
    return pd.DataFrame(recs, columns=["what", "cells", "half_width"])


def games_needed(iv: pd.DataFrame, games: dict[int, int], target: float) -> dict[int, int]:
    """Games per line-up each cell should reach for every interval to be at most ``target``.

    A half-width shrinks like 1/sqrt(games): an interval of half-width h on n
    games needs about n * (h / target)^2; 10% more covers the noise of the
    estimate. Cells whose intervals are all within the target need nothing."""
    need: dict[int, int] = {}
    for row in iv.itertuples():
        if not (row.half_width > target):  # NaN counts as met: nothing to estimate
            continue
        for cell in row.cells:
            n = games[cell]
            want = math.ceil(n * (row.half_width / target) ** 2 * 1.1)
            need[cell] = max(need.get(cell, 0), want)
    return need
