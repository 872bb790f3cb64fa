"""summary.json: one record per estimate of a report, and the comparison of two reports.

A record is ``{kind, players, name, estimate, low, high, se, n_deals, method}`` plus what decided
it (p-values, the corrected ones and the interval at the corrected level, the verdict and its
seat); kind is one of strategy, seat, pairwise, card, rating, sweep, verdict, disagreement,
skill, skill_ceiling (the information ceiling: search against its open-hand oracle; its relative skill and the
shares skill, hidden information and luck, also beside the skill record as ``ceiling_*``), length (name
"minutes": the game time at the table), closeness, leader, elimination. Win rates and differences are fractions (not points); ratings are log
strengths; the skill index is a log-odds gap over random; lengths and sweep effects on lengths
are in the length's unit; closeness in the game's score. Every interval is 95% unless its record
says otherwise (``adjusted_level``: the level at which an interval agrees with the corrected
p-value beside it, simcards.report.inference.adjusted_confidence).

``compare(A, B)`` tests every estimate both reports hold for a difference: paired on the same
deals where both reports' seeds match and their results.parquet hold the estimate's deals (the
estimate recomputed per deal from both, simcards.report.analysis.paired_difference), else a
two-sample z-test of the two estimates with their standard errors; p-values are corrected by
Benjamini-Hochberg within each kind of estimate (false discoveries at most 5% per kind).
"""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd

from simcards.errors import SimcardsError
from simcards.report.experiment import MAIN

FILE = "summary.json"
KEY = ["kind", "players", "name"]
#: The false discovery rate of ``compare``, per kind of estimate.
COMPARE_FDR = 0.05
SHARE_METHOD = "share interval over deal means (Wilson on the Korn-Graubard effective deals)"


def _num(v):
    if v is None:
        return None
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    return f if math.isfinite(f) else None


def _rec(kind, players, name, estimate, low, high, n_deals, method, se=None, **extra) -> dict:
    out = {"kind": kind, "players": None if players is None else int(players), "name": str(name),
           "estimate": _num(estimate), "low": _num(low), "high": _num(high), "se": _num(se),
           "n_deals": None if n_deals is None else int(n_deals), "method": method}
    for k, v in extra.items():
        if isinstance(v, (bool, np.bool_)):
            out[k] = bool(v)
        elif isinstance(v, (int, np.integer)) and not isinstance(v, bool):
            out[k] = int(v)
        elif isinstance(v, (float, np.floating)):
            out[k] = _num(v)
        else:
            out[k] = v
    return out


def records(res, exp) -> list[dict]:
    """Every estimate of an analysed experiment (main part, plus the sweep's effects)."""
    return [record for kind in _KINDS for record in kind(res, exp)]


def _strategies(res, exp) -> list[dict]:
    return [_rec("strategy", r.players, r.strategy, r.win_rate, r.ci_low, r.ci_high, r.games,
                 SHARE_METHOD + ", net of seat; at most 1/m for m seats", r.se, fair_share=r.fair_share)
            for r in res.strategies[res.strategies["part"] == MAIN].itertuples()]


def _seats(res, exp) -> list[dict]:
    out = []
    tests = res.seat_tests if getattr(res, "seat_tests", None) is not None else None
    seats = res.seats[res.seats["part"] == MAIN]
    if tests is not None and len(tests):
        seats = seats.merge(tests[["cell", "basis", "seat", "p_tost", "p_unbalanced", "p_unbalanced_holm",
                                   "holm_level", "holm_low", "holm_high", "tost_low", "tost_high", "state"]],
                            on=["cell", "basis", "seat"], how="left")
    for r in seats.to_dict("records"):
        extra = {k: r[k] for k in ("p_tost", "p_unbalanced", "p_unbalanced_holm", "state") if k in r}
        if "holm_level" in r:
            extra.update(adjusted_level=r["holm_level"], adjusted_low=r["holm_low"], adjusted_high=r["holm_high"],
                         tost_low=r["tost_low"], tost_high=r["tost_high"])
        out.append(_rec("seat", r["players"], f"seat {r['seat']} ({r['basis']})", r["win_rate"], r["ci_low"],
                        r["ci_high"], r["games"], SHARE_METHOD, r["se"], fair_share=r["fair_share"],
                        unfinished=r["unfinished"], edge=r["edge"], edge_low=r["edge_low"],
                        edge_high=r["edge_high"], edge_se=r["edge_se"], **extra))
    return out


def _pairs(res, exp) -> list[dict]:
    return [_rec("pairwise", r.players, f"{r.a} - {r.b}", r.diff_pp / 100, r.ci_low_pp / 100,
                 r.ci_high_pp / 100, r.games, "paired over deals (share interval of a difference, the "
                 "test it inverts; sign test where constant), Holm", None, p_value=r.p_value,
                 p_adjusted=r.p_holm, significant=r.significant, adjusted_level=r.holm_level,
                 adjusted_low=r.holm_low / 100, adjusted_high=r.holm_high / 100)
            for r in res.pairs.itertuples()]


def _cards(res, exp) -> list[dict]:
    if res.cards is None or not len(res.cards):
        return []
    return [_rec("card", None, r.card, r.diff_pp / 100, r.ci_low_pp / 100, r.ci_high_pp / 100,
                 r.deals, "OLS clustered by deal, Benjamini-Hochberg", r.se_pp / 100,
                 p_value=r.p_value, p_adjusted=r.p_bh, significant=r.significant,
                 adjusted_level=r.bh_level, adjusted_low=r.bh_low_pp / 100,
                 adjusted_high=r.bh_high_pp / 100)
            for r in res.cards.itertuples()]


def _ratings(res, exp) -> list[dict]:
    if res.rating is None:
        return []
    return [_rec("rating", None, r.strategy, r.strength, r.ci_low, r.ci_high, None,
                 "Plackett-Luce (choix), bootstrap over deals", r.se)
            for r in res.rating.table.itertuples()]


def _sweep(res, exp) -> list[dict]:
    if res.sweep is None:
        return []
    from simcards.report.sweep import CORRECTION_NAMES, correction
    method = f"paired over deals vs default, {CORRECTION_NAMES[correction(exp)]}"
    out = []
    for r in res.sweep.itertuples():
        scale = 100 if r.unit == "points" else 1
        value = r.value if exp.grid_option is None else (r.value, r.value2)
        out.append(_rec("sweep", r.players, f"{exp.sweep_label(value)}: {r.measure}", r.effect / scale,
                        r.ci_low / scale, r.ci_high / scale, r.deals, method, None, unit=r.unit,
                        p_value=r.p_value, p_adjusted=r.p_adjusted, significant=r.significant,
                        adjusted_level=r.adj_level, adjusted_low=r.adj_low / scale,
                        adjusted_high=r.adj_high / scale))
    return out


def _skill(res, exp) -> list[dict]:
    if getattr(res, "skill", None) is None:
        return []
    ceiling = {}
    if getattr(res, "oracle", None) is not None:
        ceiling = {int(r["players"]): r for r in res.oracle.to_dict("records")}
    out = []
    for r in res.skill.to_dict("records"):
        # the information ceiling of the same player count, beside the index (the full record
        # is kind "skill_ceiling" below)
        c = ceiling.get(int(r["players"]), {})
        beside = {f"ceiling_{k}": c[k] for k in (
            "relative_skill", "relative_skill_low", "relative_skill_high", "skill_share", "skill_share_low",
            "skill_share_high", "information_share", "information_share_low", "information_share_high",
            "luck_share", "luck_share_low", "luck_share_high") if k in c}
        out.append(_rec("skill", r["players"], f"{r['strongest']} against random", r["logodds"],
                        r["logodds_low"], r["logodds_high"], r["deals"],
                        "log-odds gap over random, log(p (n - 1) / (1 - p)), from the win rate's share "
                        "interval over deal means (net of seat)", None, win_rate=r["win_rate"],
                        win_low=r["ci_low"], win_high=r["ci_high"], win_se=r["se"],
                        fair_share=r["fair_share"], elo=r["elo"], elo_low=r["elo_low"], elo_high=r["elo_high"],
                        **beside))
    return out


def _ceiling(res, exp) -> list[dict]:
    if getattr(res, "oracle", None) is None:
        return []
    # the information ceiling: the relative skill as the estimate, every part with its interval
    return [_rec("skill_ceiling", r["players"], f"{r['search']} against {r['oracle']}",
                 r["relative_skill"], r["relative_skill_low"], r["relative_skill_high"], r["deals"],
                 "relative skill (Dreef, Borm and van der Genugten) on the log-odds scale: "
                 "theta(search) / theta(oracle); shares of the oracle's headroom over a fair share; "
                 "intervals: paired percentile bootstrap over deals (win rates: share intervals)", None,
                 **{k: r[k] for k in (
                     "fair_share", "search_win_rate", "search_low", "search_high", "oracle_win_rate",
                     "oracle_low", "oracle_high", "learning", "learning_low", "learning_high",
                     "information", "information_low", "information_high", "skill_share",
                     "skill_share_low", "skill_share_high", "information_share",
                     "information_share_low", "information_share_high", "luck_share",
                     "luck_share_low", "luck_share_high")})
            for r in res.oracle.to_dict("records")]


def _verdicts(res, exp) -> list[dict]:
    return [_rec("verdict", v.players, v.basis, v.worst_edge, v.worst_low, v.worst_high, v.deals,
                 f"the deciding seat's edge, 95%; TOST within ±{exp.tolerance} at alpha {v.alpha:g} "
                 "a seat, unbalanced by Holm over every seat of the report", None,
                 verdict=v.verdict, seat=v.worst_seat, decided_by=v.decided_by,
                 decision_low=v.decision_low, decision_high=v.decision_high,
                 decision_level=v.decision_level, p_tost=v.p_tost, p_unbalanced=v.p_unbalanced,
                 alpha=v.alpha, tolerance=v.tolerance, fair_share=v.fair_share, unfinished=v.unfinished,
                 reason=v.reason, planned_deals=v.planned_deals, more_deals=v.more_games,
                 capped=v.capped, first_edge=v.first_edge, first_low=v.first_low,
                 first_high=v.first_high,
                 p_equal_seats=None if math.isnan(v.p_equal) else v.p_equal)
            for v in res.verdicts]


def _disagreements(res, exp) -> list[dict]:
    dis = getattr(res, "disagreements", None)
    if dis is None:
        return []
    return [_rec("disagreement", r.players, f"{r.a} vs {r.b}", r.diff, r.ci_low, r.ci_high, r.deals,
                 "paired on the same deals: Hotelling's T² of the seats' edge differences, Holm; "
                 "the estimate is the seat whose edge differs most", r.se, seat=r.seat,
                 p_value=r.p_value, p_adjusted=r.p_holm, disagree=r.disagree,
                 adjusted_level=r.holm_level, adjusted_low=r.holm_low, adjusted_high=r.holm_high)
            for r in dis.itertuples()]


def _lengths(res, exp) -> list[dict]:
    lengths = res.length_table
    if lengths is None or not len(lengths):
        return []
    return [_rec("length", r["players"], f"mean {r['column']}", r["mean"], r["ci_low"], r["ci_high"],
                 r.get("deals", r["games"]), "t interval over deal means", r.get("se"),
                 p10=r["p10"], median=r["median"], p90=r["p90"], unfinished=r["unfinished"])
            for r in lengths[lengths["part"] == MAIN].to_dict("records")]


def _closeness(res, exp) -> list[dict]:
    close = getattr(getattr(res, "designer", None), "closeness", None)
    if close is None or not len(close) or not {"players", "mean", "ci_low", "ci_high"} <= set(close.columns):
        return []
    return [_rec("closeness", r["players"], f"winner's margin ({r.get('score', 'score')})", r["mean"],
                 r["ci_low"], r["ci_high"], r.get("deals"), "t interval over deal means", r.get("se"),
                 **{k: r[k] for k in ("p10", "median", "p90", "relative") if k in r})
            for r in close.to_dict("records")]


def _minutes(res, exp) -> list[dict]:
    # the designer's game time (simcards.report.designer)
    designer = getattr(res, "designer", None)
    minutes = getattr(designer, "minutes", None)
    if minutes is None or not len(minutes) or "median" not in minutes:
        return []
    costs = {k: float(v) for k, v in (getattr(designer, "costs", None) or {}).items()}
    return [_rec("length", r["players"], "minutes", r["mean"], r["ci_low"], r["ci_high"], r.get("deals"),
                 "t interval over deal means; a game's minutes: its costed columns x seconds / 60",
                 r.get("se"), p10=r["p10"], median=r["median"], p90=r["p90"], seconds=costs)
            for r in minutes.to_dict("records")]


def _eliminations(res, exp) -> list[dict]:
    outs = getattr(res, "elimination", None)
    if outs is None or not len(outs):
        return []
    return [_rec("elimination", r["players"], f"{_place(r['place'])} player out (turn)",
                 r["median"], r["median_low"], r["median_high"], r["deals"],
                 "median turn over replayed games (the game is the unit), its 95% order-statistic "
                 "interval; p10 and p90: the spread over games", None, p10=r["p10"], p90=r["p90"],
                 games=r["games"], lineup=r["lineup"], game_median_turns=r["game_median"])
            for r in outs.to_dict("records")]


def _leaders(res, exp) -> list[dict]:
    # the designer's early leader (simcards.report.designer)
    leader = getattr(getattr(res, "designer", None), "leader", None)
    if leader is None or not len(leader) or "baseline" not in leader:
        return []
    return [_rec("leader", r["players"], f"leader after {r['after']} wins", r["mean"], r["ci_low"],
                 r["ci_high"], r.get("deals"), "t interval over deal means (sole leaders)", r.get("se"),
                 baseline=r["baseline"])
            for r in leader.to_dict("records")]


#: The records of every kind, in summary.json's order: ``kind(res, exp)`` gives a kind's.
_KINDS = (_strategies, _seats, _pairs, _cards, _ratings, _sweep, _skill, _ceiling, _verdicts, _disagreements,
          _lengths, _closeness, _minutes, _eliminations, _leaders)


def _place(k: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(int(k), f"{int(k)}th")


def write(res, exp, out_dir: Path) -> Path:
    from simcards.outputs import write_text
    path = Path(out_dir) / FILE
    write_text(path, json.dumps({"experiment": exp.name, "game": exp.spec.name, "seed": exp.seed,
                                 "records": records(res, exp)}, indent=1) + "\n")
    return path


def load(path: str | Path) -> pd.DataFrame:
    """A report folder's (or a summary.json file's) records as a frame."""
    path = Path(path)
    if path.is_dir():
        path = path / FILE
    if not path.is_file():
        raise SimcardsError(f"no summary {str(path)!r}: expected a report folder holding {FILE} or the file")
    try:
        data = json.loads(path.read_text())
        frame = pd.DataFrame(data["records"])
    except (ValueError, KeyError) as exc:
        raise SimcardsError(f"bad summary {str(path)!r}: {exc}; expected what `simcards report` writes") from None
    frame["players"] = frame["players"].astype("Int64")
    for col in ("se", "low", "high", "estimate"):
        if col not in frame:
            frame[col] = np.nan
        frame[col] = pd.to_numeric(frame[col], errors="coerce")
    return frame


# ------------------------------------------------------------------ compare two reports
#: Kinds compared per deal where both reports hold the deals, and the range of their per-deal values
#: (win shares; a difference of two; lengths unbounded).
PAIRED_BOUNDS = {"strategy": (-1.0, 1.0), "seat": (-1.0, 1.0), "pairwise": (-2.0, 2.0), "length": None}
COLUMNS = KEY + ["estimate_a", "low_a", "high_a", "estimate_b", "low_b", "high_b", "difference", "diff_low",
                 "diff_high", "test", "p_value", "q_value", "flagged"]


def _se(frame: pd.DataFrame, side: str) -> np.ndarray:
    """Standard errors of one side's estimates: the record's, else its interval's half-width / 1.96."""
    se = frame[f"se_{side}"].to_numpy(float)
    width = (frame[f"high_{side}"] - frame[f"low_{side}"]).to_numpy(float) / (2 * 1.959964)
    return np.where(np.isfinite(se) & (se > 0), se, width)


def compare_records(old: pd.DataFrame, new: pd.DataFrame, paired: dict | None = None,
                    fdr: float = COMPARE_FDR) -> pd.DataFrame:
    """Every estimate both record frames hold, tested for a difference B - A.

    ``paired``: per (kind, players, name), the per-deal differences B - A on the same deals
    (``paired_series``): a paired test (analysis.paired_difference: the share test for win
    rates, t for lengths). Else a two-sample z-test of the estimates with their standard
    errors (valid when the deals are independent, conservative when they are the same).
    Verdict records are not tested (their seats are, as seat records). p-values are corrected by
    Benjamini-Hochberg within each kind (``q_value``); ``flagged`` where q < ``fdr``."""
    from scipy.stats import norm

    from simcards.report.analysis import paired_difference
    from simcards.report.inference import correct
    both = old.merge(new, on=KEY, suffixes=("_a", "_b"))
    both = both[both["kind"] != "verdict"].reset_index(drop=True)
    diff = (both["estimate_b"] - both["estimate_a"]).to_numpy(float).copy()
    se = np.sqrt(_se(both, "a") ** 2 + _se(both, "b") ** 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.abs(diff) / se
        p = np.where(se > 0, 2 * norm.sf(z), np.where(diff == 0, 1.0, 0.0))
    low, high = diff - 1.959964 * se, diff + 1.959964 * se
    test = np.array(["two-sample"] * len(both), dtype=object)
    for i, r in enumerate(both[KEY].itertuples(index=False)):
        d = (paired or {}).get((r.kind, None if pd.isna(r.players) else int(r.players), r.name))
        if d is None or len(d) == 0:
            continue
        mean, lo, hi, pv = paired_difference(np.asarray(d, float), PAIRED_BOUNDS.get(r.kind))
        diff[i], low[i], high[i], p[i], test[i] = mean, lo, hi, pv, "paired"
    p = np.where(np.isfinite(diff), p, np.nan)
    both["difference"], both["diff_low"], both["diff_high"] = diff, low, high
    both["test"], both["p_value"] = test, p
    both["q_value"], both["flagged"] = np.nan, False
    for _, idx in both.groupby("kind").groups.items():
        q, flag = correct(both.loc[idx, "p_value"], "fdr_bh", fdr)
        both.loc[idx, "q_value"], both.loc[idx, "flagged"] = q, flag
    both["flagged"] = both["flagged"].astype(bool)
    order = both.assign(_z=np.abs(diff) / np.where(se > 0, se, np.inf)).sort_values(
        ["flagged", "q_value", "_z"], ascending=[False, True, False])
    return order.reset_index(drop=True)[COLUMNS]


def _config(folder: Path) -> dict | None:
    path = folder / "config.json"
    try:
        return json.loads(path.read_text()) if path.is_file() else None
    except ValueError:
        return None


def per_deal(folder: Path, lengths: tuple[str, ...] = ()) -> dict | None:
    """Per-deal values of a report's strategy, seat, pairwise and length records, from its
    results.parquet and config.json: {(kind, players, name): Series indexed by deal} (``lengths``:
    the length columns to read); None where the folder does not hold both."""
    config = _config(folder)
    parquet = folder / "results.parquet"
    if config is None or not parquet.is_file():
        return None
    frame = pd.read_parquet(parquet)
    cells = {c["id"]: c for c in config["experiment"]["cells"] if c["part"] == MAIN}
    lineups = {l["lineup"]: l for l in config["lineups"] if l["cell"] in cells}
    frame = frame[frame["cell"].isin(list(cells))]
    out: dict = {}
    mirror = {k for k, l in lineups.items() if l.get("mirror")}
    # strategies: mean over a line-up's seats, then over the line-ups holding it (mirrors left out)
    rows = frame[~frame["lineup"].isin(mirror)]
    if len(rows):
        per = (rows.groupby(["cell", "lineup", "game", "strategy"], observed=True)["win_share"].mean()
               .groupby(level=["cell", "game", "strategy"], observed=True).mean())
        scores = {}
        for (cell, strategy), s in per.groupby(level=["cell", "strategy"], observed=True):
            series = s.droplevel(["cell", "strategy"])
            scores[(cell, str(strategy))] = series
            out[("strategy", cells[cell]["players"], str(strategy))] = series
        for (cell, a), sa in scores.items():
            for (cell_b, b), sb in scores.items():
                if cell_b == cell and a < b:
                    joined = pd.concat([sa, sb], axis=1, join="inner")
                    out[("pairwise", cells[cell]["players"], f"{a} - {b}")] = joined.iloc[:, 0] - joined.iloc[:, 1]
    # seats: each mirror line-up its own basis, else all line-ups
    for cell, c in cells.items():
        mine = [k for k, l in lineups.items() if l["cell"] == cell]
        mirrors = [k for k in mine if k in mirror]
        bases = [(lineups[k]["seats"][0], [k]) for k in mirrors] or [("all line-ups", mine)]
        for basis, ids in bases:
            part = frame[frame["lineup"].isin(ids)]
            per = part.groupby(["seat", "game"])["win_share"].mean()
            for seat, s in per.groupby(level="seat"):
                out[("seat", c["players"], f"seat {seat} ({basis})")] = s.droplevel("seat")
        first = frame[(frame["cell"] == cell) & (frame["seat"] == 0)]
        for col in lengths:
            if col in first:
                out[("length", c["players"], f"mean {col}")] = first.groupby("game")[col].mean().astype(float)
    return out


def paired_series(a: Path, b: Path, new: pd.DataFrame | None = None) -> dict:
    """Per (kind, players, name): the per-deal differences B - A on the deals both reports hold,
    where their seeds match (the same game indices are then the same deals) and both hold every
    deal of the record (a sequential verdict's extra deals are not in results.parquet)."""
    ca, cb = _config(Path(a)), _config(Path(b))
    if not ca or not cb or ca["experiment"].get("seed") != cb["experiment"].get("seed") or \
            ca["experiment"].get("game") != cb["experiment"].get("game"):
        return {}
    lengths = ()
    if new is not None:
        names = new.loc[new["kind"] == "length", "name"].astype(str)
        lengths = tuple(sorted({n[len("mean "):] for n in names if n.startswith("mean ")}))
    da, db = per_deal(Path(a), lengths), per_deal(Path(b), lengths)
    if not da or not db:
        return {}
    deals = {}
    if new is not None:
        deals = {(r.kind, None if pd.isna(r.players) else int(r.players), r.name): r.n_deals
                 for r in new.itertuples()}
    out = {}
    for key, sa in da.items():
        sb = db.get(key)
        if sb is None:
            continue
        joined = pd.concat([sa, sb], axis=1, join="inner").dropna()
        if len(joined) < 2 or (deals.get(key) is not None and not pd.isna(deals[key])
                               and len(joined) < int(deals[key])):
            continue
        out[key] = (joined.iloc[:, 1] - joined.iloc[:, 0]).to_numpy(float)
    return out


def compare(a: str | Path, b: str | Path) -> pd.DataFrame:
    """Every estimate of two reports matched on (kind, players, name), tested for a difference
    (``compare_records``): paired on the same deals where the seeds match and both folders hold
    results.parquet, else two-sample; flagged where BH's q < 5% within its kind."""
    old, new = load(a), load(b)
    a, b = Path(a), Path(b)
    folder_a = a if a.is_dir() else a.parent
    folder_b = b if b.is_dir() else b.parent
    return compare_records(old, new, paired_series(folder_a, folder_b, new))


def verdict_changes(a: str | Path, b: str | Path) -> pd.DataFrame:
    """Verdict rows whose label differs between the two reports."""
    old, new = load(a), load(b)
    if "verdict" not in old or "verdict" not in new:
        return pd.DataFrame(columns=KEY + ["verdict_a", "verdict_b"])
    both = old[old["kind"] == "verdict"].merge(new[new["kind"] == "verdict"], on=KEY, suffixes=("_a", "_b"))
    return both[both["verdict_a"] != both["verdict_b"]][KEY + ["verdict_a", "verdict_b"]].reset_index(drop=True)
