"""report.md and index.html from the same sections: text, tables of numbers, figures.

The page opens with the answer (``answer``): a badge per player count and level of
play saying whether every seat is fair, how long a game takes, how much skill
matters, and the three or four findings that matter most, in sentences. Each
section after it shows its figure and a short table; its method and long tables
sit in a collapsed block (``<details>``), as do the experiment, the methods and a
glossary, so the first screen is the answer, not method.

The page is one HTML file with its style inline; the figures are the PNG files in
the same folder (``<img src="NAME.png">``), or with ``single_file`` embedded in the
page as data URIs, so one file can be e-mailed. It reads on a phone: a viewport
setting, tables in horizontally scrolling boxes, images at most the page's width.
Every number of a figure is printed in a table beside it.
"""
from __future__ import annotations

import base64
import html
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from simcards.outputs import write_text
from simcards.report.analysis import Results, length_columns
from simcards.report.experiment import MAIN


@dataclass
class Section:
    title: str
    key: str = ""                       # the anchor: #fairness, #game-length, ...
    blocks: list = field(default_factory=list)
    collapsed: bool = False             # the whole section in a closed <details>

    def p(self, text: str) -> "Section":
        self.blocks.append(("p", text))
        return self

    def table(self, headers: list[str], rows: list[list]) -> "Section":
        self.blocks.append(("table", headers, rows))
        return self

    def fig(self, file: str | None, caption: str) -> "Section":
        if file:
            self.blocks.append(("fig", file, caption))
        return self

    def items(self, texts: list[str]) -> "Section":
        if texts:
            self.blocks.append(("list", list(texts)))
        return self

    def raw(self, markup: str, markdown: str) -> "Section":
        """HTML for the page and its plain-text twin for report.md."""
        self.blocks.append(("html", markup, markdown))
        return self

    def more(self, title: str) -> "Section":
        """A collapsed block of this section (method, long tables): fill the returned section."""
        inner = Section(title)
        self.blocks.append(("details", title, inner.blocks))
        return inner


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


# ------------------------------------------------------------------ reading the results
# The verdict records and the skill table grow fields as the statistics do (issue 50: the worst
# seat with its interval, an equivalence test, a power-based count of deals, a log-odds skill
# gap). Everything here reads them where they exist and falls back on what every version has.
def _kind(v) -> str:
    """fair | unfair | undecided, from the verdict's words."""
    text = str(getattr(v, "verdict", "")).lower()
    if text.startswith("unbalanced") or text.startswith("unfair"):
        return "unfair"
    if text.startswith("balanced") or text.startswith("fair") or text.startswith("equivalent"):
        return "fair"
    return "undecided"


def _worst(v, res: Results, tolerance: float) -> tuple[int | None, float, float, float]:
    """(seat, edge, low, high) of the seat that decides a verdict, as fractions: the verdict's own
    where it names one, else the seat furthest from its fair share (for an unfair verdict, among
    the seats whose interval lies wholly outside the tolerance)."""
    seat = getattr(v, "worst_seat", None)
    if seat is not None:
        edge = _num(getattr(v, "worst_edge", getattr(v, "max_edge", float("nan"))))
        return (int(seat), edge, _num(getattr(v, "worst_low", float("nan"))),
                _num(getattr(v, "worst_high", float("nan"))))
    s = res.seats
    s = s[(s["part"] == MAIN) & (s["players"] == v.players) & (s["basis"] == v.basis)]
    if s.empty:
        return None, _num(getattr(v, "max_edge", float("nan"))), float("nan"), float("nan")
    edge = s["win_rate"] - s["fair_share"]
    low, high = s["ci_low"] - s["fair_share"], s["ci_high"] - s["fair_share"]
    outside = (low > tolerance) | (high < -tolerance)
    pick = edge[outside] if _kind(v) == "unfair" and outside.any() else edge
    i = pick.abs().idxmax()
    return int(s.at[i, "seat"]), float(edge[i]), float(low[i]), float(high[i])


def _reason(v, tolerance: float) -> str:
    for name in ("reason", "why", "undecided_reason"):
        text = getattr(v, name, None)
        if text:
            return str(text)
    from simcards.report.inference import verdict_text
    text = verdict_text(v, tolerance)
    return text.split(":", 1)[1].strip() if ":" in text else text


def _seat_name(seat: int | None) -> str:
    return "a seat" if seat is None else (f"seat {seat} (plays first)" if seat == 0 else f"seat {seat}")


def _badge(v, res: Results, tolerance: float) -> tuple[str, str]:
    """(kind, words) of one verdict's badge."""
    kind = _kind(v)
    if kind == "fair":
        return kind, f"fair within ±{100 * tolerance:.0f} points"
    if kind == "unfair":
        seat, edge, low, high = _worst(v, res, tolerance)
        word = "favoured" if edge > 0 else "held back"
        lo, hi = sorted((abs(100 * low), abs(100 * high)))
        interval = f" [{lo:.1f}, {hi:.1f}]" if not math.isnan(lo) else ""
        return kind, f"{_seat_name(seat)} {word} by {abs(100 * edge):.1f} points{interval}"
    seat, edge, low, high = _worst(v, res, tolerance)
    more = int(getattr(v, "more_games", 0) or 0)
    capped = getattr(v, "capped", "")
    if seat is None or math.isnan(low):
        return kind, f"undecided: {_reason(v, tolerance)}"
    tol = 100 * tolerance
    beyond = low > tolerance or high < -tolerance
    why = ("cap reached" if capped else
           "no number of deals would decide it" if more >= 10 ** 14 else
           f"about {more:,} more deals needed" if more > 0 else "more deals needed")
    return kind, (f"undecided: {_seat_name(seat)} {100 * edge:+.1f} points [{100 * low:+.1f}, {100 * high:+.1f}]"
                  + (f", beyond ±{tol:.0f} but not once corrected for the many seats tested" if beyond else "")
                  + f"; {why}")


def _logit(p: float) -> float:
    if not 0 < p < 1:
        return float("inf") if p >= 1 else float("-inf")
    return math.log(p / (1 - p))


def skill_rows(res: Results) -> list[dict]:
    """Per player count: the strong player, its win rate with interval, the fair share and its
    log-odds edge over a fair share (the statistics' own where the table has one)."""
    t = res.skill
    if t is None or t.empty:
        return []
    rows = []
    for _, r in t.iterrows():
        row = {"players": int(r["players"]), "strongest": str(r["strongest"]), "win_rate": _num(r["win_rate"]),
               "low": _num(r["ci_low"]), "high": _num(r["ci_high"]), "fair": _num(r["fair_share"]),
               "deals": int(r["deals"])}
        for est, lo, hi in (("logodds", "logodds_low", "logodds_high"),
                            ("log_odds_gap", "log_odds_low", "log_odds_high"), ("log_odds", "log_odds_low",
                            "log_odds_high"), ("gap", "gap_low", "gap_high"), ("elo", "elo_low", "elo_high")):
            if est in r and lo in r and hi in r:
                row.update(gap=_num(r[est]), gap_low=_num(r[lo]), gap_high=_num(r[hi]), given=est)
                break
        else:
            base = _logit(row["fair"])
            row.update(gap=_logit(row["win_rate"]) - base, gap_low=_logit(row["low"]) - base,
                       gap_high=_logit(row["high"]) - base, given="")
        rows.append(row)
    return rows


def _gap_text(row: dict) -> str:
    if row.get("given") == "elo":
        return f"{row['gap']:+.0f} Elo [{row['gap_low']:+.0f}, {row['gap_high']:+.0f}]"
    if math.isinf(row["gap"]):
        return f"at least {row['gap_low']:+.1f} (won every deal)"
    high = "no upper end" if math.isinf(row["gap_high"]) else f"{row['gap_high']:+.1f}"
    odds = math.exp(row["gap"])
    return (f"{row['gap']:+.1f} [{row['gap_low']:+.1f}, {high}] "
            + (f"(odds ×{odds:.1f} a fair share's)" if odds < 100 else f"(odds ×{odds:.0f})"))


def _time_rows(res: Results) -> pd.DataFrame:
    d = getattr(res.designer, "minutes", None)
    return d if isinstance(d, pd.DataFrame) and "median" in d else pd.DataFrame()


def _cost_text(exp, res: Results) -> str:
    costs = getattr(res.designer, "costs", None) or {exp.spec.step_column: exp.seconds_per_turn}
    return " + ".join(f"{s:g} s per {_unit(c)}" for c, s in costs.items())


def _unit(column: str) -> str:
    """A counted game column's unit, singular: actions -> action, passes -> pass, takes_total -> take."""
    word = column.removesuffix("_total")
    return word[:-2] if word.endswith("sses") else word[:-1] if word.endswith("s") else word


# ------------------------------------------------------------------ the answer
def _findings(run, res: Results) -> list[str]:
    """The findings that matter most, in sentences: fairness, skill, time, strategies, then the
    early leader, cards and the rule sweep where there is room; at most four."""
    exp = run.exp
    out = []
    tol = 100 * exp.tolerance
    vs = res.verdicts or []
    if vs:
        kinds = [_kind(v) for v in vs]
        unfair = [v for v, k in zip(vs, kinds) if k == "unfair"]
        undecided = kinds.count("undecided")
        if unfair:
            worst = max(unfair, key=lambda v: abs(_worst(v, res, exp.tolerance)[1]))
            seat, edge, low, high = _worst(worst, res, exp.tolerance)
            text = (f"Not every seat is fair: {len(unfair)} of {len(vs)} line-ups tested have a seat outside the "
                    f"±{tol:.0f}-point tolerance. The largest: at {worst.players} players, with every seat "
                    f"played by {worst.basis}, {_seat_name(seat)} wins {100 * edge:+.1f} points off its fair share "
                    f"[{100 * low:+.1f}, {100 * high:+.1f}].")
        elif undecided == 0:
            text = (f"Every seat is fair within ±{tol:.0f} points at every player count and level of play "
                    "tested.")
        elif undecided == len(vs):
            deals = min(v.deals for v in vs)
            text = (f"Not decided yet: no seat is found unfair, but no line-up is shown fair either; after "
                    f"{deals:,} deals or more, every one still has a seat whose interval reaches past the "
                    f"±{tol:.0f}-point tolerance.")
            undecided = 0
        else:
            text = (f"No seat is found unfair; {len(vs) - undecided} of {len(vs)} line-ups are fair within "
                    f"±{tol:.0f} points.")
        if undecided:
            text += (f" {undecided} of {len(vs)} are still undecided: more deals are needed to tell a "
                     f"{tol:.0f}-point edge apart.")
        out.append(text)
    skill = skill_rows(res)
    if skill:
        lo = min(skill, key=lambda r: r["gap"])
        hi = max(skill, key=lambda r: r["gap"])
        name = skill[0]["strongest"]
        if hi["gap_low"] > 0:
            text = (f"Skill matters: {name} against random players wins {100 * lo['win_rate']:.0f}% of games at "
                    f"{lo['players']} players (fair share {100 * lo['fair']:.0f}%)"
                    + (f" up to {100 * hi['win_rate']:.0f}% at {hi['players']} (fair share {100 * hi['fair']:.0f}%)."
                       if hi is not lo else "."))
        elif hi["gap_high"] < 0:
            text = (f"{name}, the skill index's player, does worse than random players: it wins "
                    f"{100 * hi['win_rate']:.0f}% at {hi['players']} players, where a fair share is "
                    f"{100 * hi['fair']:.0f}%.")
        else:
            text = (f"Skill hardly shows: {name} against random players wins {100 * hi['win_rate']:.0f}% at "
                    f"{hi['players']} players, where a fair share is {100 * hi['fair']:.0f}%.")
        ceiling = ceiling_rows(res)
        if ceiling:
            def span(key: str) -> str:
                vals = [100 * r[key] for r in ceiling]
                a, b = min(vals), max(vals)
                return f"{a:.0f}%" if round(a) == round(b) else f"{a:.0f}% to {b:.0f}%"
            text += (f" Of what a search that sees every hand wins above a fair share, skill is {span('skill_share')}, "
                     f"hidden information {span('information_share')} and luck {span('luck_share')} across player "
                     "counts (intervals under 'Does skill matter?').")
        out.append(text)
    t = _time_rows(res)
    if len(t):
        short, long = t.loc[t["median"].idxmin()], t.loc[t["median"].idxmax()]
        if len(t) == 1:
            text = (f"A game takes about {_minutes(short['median'])} minutes (10–90% of games: "
                    f"{_minutes(short['p10'])}–{_minutes(short['p90'])}) at {int(short['players'])} players.")
        else:
            text = (f"A game takes a median {_minutes(short['median'])} minutes at {int(short['players'])} players "
                    f"to {_minutes(long['median'])} at {int(long['players'])} (10–90% of games at "
                    f"{int(long['players'])}: {_minutes(long['p10'])}–{_minutes(long['p90'])}), at "
                    f"{_cost_text(exp, res)}.")
        out.append(text)
    out += [s for s in (_strategy_finding(res), _leader_finding(res), _card_finding(res), _sweep_finding(res, exp))
            if s]
    return out[:4]


def _strategy_finding(res: Results) -> str | None:
    if res.rating is not None and len(res.rating.table) > 2:
        t = res.rating.table
        top, nxt = t.iloc[0], t.iloc[1]
        return (f"Strongest strategy: {top['strategy']}; it beats the next best, {nxt['strategy']}, in "
                f"{100 * top['p_beats_next']:.0f}% of two-player meetings.")
    if len(res.pairs):
        p = res.pairs
        for (a, b), g in p.groupby(["a", "b"], sort=False):
            if g["significant"].all() and ((g["diff_pp"] > 0).all() or (g["diff_pp"] < 0).all()):
                win, lose = (a, b) if g["diff_pp"].iloc[0] > 0 else (b, a)
                lo, hi = g["diff_pp"].abs().min(), g["diff_pp"].abs().max()
                span = f"{lo:.0f} to {hi:.0f} points" if len(g) > 1 else f"{lo:.0f} points"
                where = "at every player count" if len(g) > 1 else f"at {g['players'].iloc[0]} players"
                return f"Of the strategies compared, {win} wins more than {lose} by {span} {where}."
    return None


def _leader_finding(res: Results) -> str | None:
    d = getattr(res.designer, "leader", None)
    if d is None or d.empty or "baseline" not in d:
        return None
    last = d[d["after"] == d["after"].iloc[-1]]
    r = last.loc[(last["mean"] - last["baseline"]).idxmax()]
    return (f"The early leader usually holds on: the leader after {r['after']} wins {100 * r['mean']:.0f}% of "
            f"{int(r['players'])}-player games, where a seat picked at random wins {100 * r['baseline']:.0f}%.")


def _card_finding(res: Results) -> str | None:
    c = res.cards
    if c is None or c.empty or not c["significant"].any():
        return None
    r = c.loc[c["diff_pp"].abs().idxmax()]
    return (f"Card with the largest effect: a seat dealt {r['card']} wins {r['diff_pp']:+.1f} points "
            f"[{r['ci_low_pp']:+.1f}, {r['ci_high_pp']:+.1f}] against one not dealt it.")


def _sweep_finding(res: Results, exp) -> str | None:
    s = res.sweep
    if s is None or s.empty or not s["significant"].any():
        return None
    r = s[s["significant"]].assign(_a=lambda d: d["effect"].abs()).sort_values("_a").iloc[-1]
    value = r["value"] if exp.grid_option is None else (r["value"], r["value2"])
    unit = "points" if r["unit"] == "points" else r["unit"]
    return (f"Of the rule changes, {exp.sweep_label(value)} moves {r['measure']} most: {r['effect']:+.1f} {unit} "
            f"at {int(r['players'])} players.")


_COLOURS = {"fair": "✓", "unfair": "✗", "undecided": "?"}


def _answer(run, res: Results, config: dict) -> Section:
    exp = run.exp
    esc = html.escape
    s = Section("The answer", "answer")
    counts = ", ".join(map(str, exp.players))
    verdict = (config.get("sequential") or {}).get("verdict_games") or 0
    extra = [f"{verdict:,} more for the seat verdicts"] if verdict else []
    extra += [f"{config['skill_games']:,} for the skill gauge"] if config.get("skill_games") else []
    s.p(f"{exp.spec.title} at {counts} players: {config['total_games']:,} games simulated"
        + (", " + " and ".join(extra) if extra else "") + ".")
    findings = _findings(run, res)
    parts, md = [], []
    if findings:
        parts.append('<ul class="findings">' + "".join(f"<li>{esc(f)}</li>" for f in findings) + "</ul>")
        md += [f"- {f}" for f in findings] + [""]
    vs = res.verdicts or []
    if vs:
        rows, md_rows = [], []
        for n in sorted({v.players for v in vs}):
            badges, md_badges = [], []
            for v in (v for v in vs if v.players == n):
                kind, words = _badge(v, res, exp.tolerance)
                badges.append(f'<span class="badge {kind}"><b>{_COLOURS[kind]} {esc(v.basis)}:</b> '
                              f'{esc(words)}</span>')
                md_badges.append(f"{v.basis}: {words}")
            rows.append(f'<span class="n">{n} players</span><span class="badges">{"".join(badges)}</span>')
            md_rows.append(f"- **{n} players**: " + "; ".join(md_badges))
        parts.append('<div class="card"><h3>Fair to every seat?</h3>'
                     f'<p class="note">A badge per player count and level of play (every seat played by the '
                     f'strategy named, or all the line-ups of a tournament); a seat is fair within '
                     f'±{100 * exp.tolerance:.0f} points of its fair share. '
                     '<a href="#fairness">Details</a></p><div class="grid">' + "".join(rows) + "</div></div>")
        md += ["**Fair to every seat?** (tolerance ±%.0f points; every seat played by the strategy named)" %
               (100 * exp.tolerance), ""] + md_rows + [""]
    cards = []
    t = _time_rows(res)
    if len(t):
        rows = "".join(f"<tr><td>{int(r.players)} players</td><td class=\"big\">{_minutes(r.median)} min</td>"
                       f"<td>{_minutes(r.p10)}–{_minutes(r.p90)}</td></tr>" for r in t.itertuples())
        cards.append('<div class="card"><h3>How long is a game?</h3>'
                     f'<p class="note">Minutes at {esc(_cost_text(exp, res))}. <a href="#game-length">Details</a>'
                     '</p><table class="plain"><thead><tr><th></th><th>median</th><th>10–90% of games</th></tr>'
                     f"</thead><tbody>{rows}</tbody></table></div>")
        md += [f"**How long is a game?** (median minutes, 10–90% of games; at {_cost_text(exp, res)})", ""]
        md += [f"- {int(r.players)} players: {_minutes(r.median)} min ({_minutes(r.p10)}–{_minutes(r.p90)})"
               for r in t.itertuples()] + [""]
    skill = skill_rows(res)
    if skill:
        finite = [abs(r["gap"]) for r in skill if not math.isinf(r["gap"])] + \
                 [abs(r["gap_low"]) for r in skill if not math.isinf(r["gap_low"])]
        top = max(3.0, math.ceil(max(finite, default=3.0)))
        gauges = []
        for r in skill:
            value = r["gap_low"] if math.isinf(r["gap"]) else r["gap"]
            width = max(0.0, min(1.0, abs(value) / top)) * 50
            side = f"left:50%;width:{width:.0f}%" if value >= 0 else f"left:{50 - width:.0f}%;width:{width:.0f}%"
            gauges.append(f'<span class="n">{r["players"]} players</span><span>'
                          f'<span class="gauge" role="img" aria-label="log-odds edge {value:+.1f}, scale '
                          f'-{top:g} to +{top:g}"><span class="{"up" if value >= 0 else "down"}" '
                          f'style="{side}"></span></span> '
                          f'<span class="note">wins {100 * r["win_rate"]:.0f}% (fair {100 * r["fair"]:.0f}%); '
                          f'edge {esc(_gap_text(r))}</span></span>')
        cards.append('<div class="card"><h3>Does skill matter?</h3>'
                     f'<p class="note">{esc(skill[0]["strongest"])} against random players. The bar: its edge in '
                     f'log-odds over a fair share; the middle is luck only, right wins more, left less (ends at '
                     f'±{top:g}). <a href="#skill">Details</a></p><div class="grid">' + "".join(gauges)
                     + "</div>" + _ceiling_card(res) + "</div>")
        md += [f"**Does skill matter?** ({skill[0]['strongest']} against random players; edge in log-odds over a "
               "fair share, 0 = luck only)", ""]
        md += [f"- {r['players']} players: wins {100 * r['win_rate']:.0f}% (fair {100 * r['fair']:.0f}%), edge "
               f"{_gap_text(r)}" for r in skill] + [""]
        md += [f"Skill | hidden information | luck (search against its open-hand oracle): {r['players']} players: "
               f"skill {_share_text(r, 'skill_share')}, hidden information {_share_text(r, 'information_share')}, "
               f"luck {_share_text(r, 'luck_share')}" for r in ceiling_rows(res)] + ([""] if ceiling_rows(res) else [])
    if cards:
        parts.append('<div class="cards">' + "".join(cards) + "</div>")
    markup = "".join(parts)
    s.raw(markup, "\n".join(md))
    return s


# ------------------------------------------------------------------ sections
def _overview(run, res: Results, config: dict) -> Section:
    exp = run.exp
    s = Section("The experiment", "experiment", collapsed=True)
    if exp.description:
        s.p(exp.description)
    changed = {k: v for k, v in exp.resolved_rules.items() if k in exp.rules}
    s.p(f"Game: {exp.spec.title} ({exp.spec.name}). Seed {exp.seed}. Player counts: "
        f"{', '.join(map(str, exp.players))}. Strategies: {', '.join(exp.strategies)}. "
        f"Rule options set by the experiment: "
        f"{', '.join(f'{k}={v}' for k, v in changed.items()) or 'none (every option at its default)'}; "
        "every option's resolved value is in config.json.")
    rows = []
    for cell in exp.cells:
        rows.append([cell.part, "" if cell.part == MAIN else exp.sweep_label(cell.sweep_value),
                     cell.players, len(cell.lineups), sum(cell.mirror), f"{run.games[cell.id]:,}",
                     f"{run.games[cell.id] * len(cell.lineups):,}"])
    s.table(["part", "rule", "players", "line-ups", "of which mirror", "games per line-up", "games"], rows)
    total = config["total_games"]
    timings = config["timings_s"]
    parts = [f"{k} {v:.1f} s" for k, v in timings.items() if k not in ("play", "compile", "analysis", "plots")]
    text = (f"{total:,} games in all. Time: games {timings['play']:.1f} s without compiling"
            + (f" ({', '.join(parts)})" if parts else "")
            + f", compiling or loading the kernels {timings.get('compile', 0.0):.1f} s, the report "
            f"{timings['analysis'] + timings['plots']:.1f} s (analysis {timings['analysis']:.1f} s, plots "
            f"{timings['plots']:.1f} s); simcards {config['simcards_version']}.")
    if run.precision is not None:
        worst = res.intervals["half_width"].max() if len(res.intervals) else float("nan")
        if run.precision_met:
            text += (f" Target precision {run.precision}: batches were added until every interval on the "
                     f"probability scale had half-width at most {run.precision} (largest now {worst:.4f}); "
                     f"that took {total:,} games ({max(b['round'] for b in run.batches)} rounds of batches; "
                     "config.json lists every batch).")
        else:
            cap = (f"the cap of {exp.max_minutes:g} minutes of play (max_minutes)"
                   if getattr(run, "precision_stop", "max_games") == "max_minutes"
                   else f"the cap of {exp.max_games:,} games per line-up")
            text += (f" Target precision {run.precision} NOT reached: {cap} stopped it; the widest interval has "
                     f"half-width {worst:.4f}.")
    if "unfinished" in run.frame:
        unfinished = int(run.frame.loc[run.frame["unfinished"].astype(bool), ["lineup", "game"]]
                         .drop_duplicates().shape[0])
        text += f" {unfinished:,} games reached the game's cap and count as games without a winner."
    s.p(text)
    s.p("Line-ups: 'mirror' line-ups seat the same strategy everywhere (they measure seats and cards); "
        "a pool is played as a tournament balanced over seats; every line-up of a row plays the same "
        "game indices with the same seed, so they are dealt the same games.")
    return s


def _verdict(run, res: Results, figs: dict) -> Section | None:
    from simcards.report.inference import verdict_text
    if not res.verdicts:
        return None
    exp = run.exp
    s = Section("Is it fair to every seat?", "fairness")
    from simcards.report.analysis import ALL_LINEUPS
    mirrors = [v.basis for v in res.verdicts if v.basis != ALL_LINEUPS]
    s.p(f"A seat is fair when its win rate is within ±{100 * exp.tolerance:.1f} points of its fair share (the "
        "experiment's `tolerance`). "
        + ("Each mirror line-up seats one strategy everywhere, so its seats differ only by their place at the "
           "table" + (f" ({exp.mirror_note})" if exp.mirror_note else "") + ". " if mirrors else "")
        + ("'All line-ups': the tournament's line-ups together, every strategy in every seat equally often."
           if len(mirrors) < len(res.verdicts) else ""))
    s.fig(figs.get("seat_edges"), "Every seat's edge over its fair share against the player count, 95% "
          "intervals; grey band: the tolerance.")
    rows = []
    for v in res.verdicts:
        seat, edge, low, high = _worst(v, res, exp.tolerance)
        kind = _kind(v)
        note = _reason(v, exp.tolerance) if kind == "undecided" else ""
        rows.append([v.players, v.basis, f"{v.deals:,}", kind, "" if seat is None else seat, _pp(100 * edge),
                     f"{_pp(100 * low)} to {_pp(100 * high)}", note])
    headers = ["players", "played by", "deals", "verdict", "deciding seat", "its edge (points)",
               "95% interval", "why undecided"]
    if not any(r[-1] for r in rows):
        headers, rows = headers[:-1], [r[:-1] for r in rows]
    s.table(headers, rows)
    dis = getattr(res, "disagreements", None)
    by_count: dict[int, set] = {}
    for v in res.verdicts:
        by_count.setdefault(v.players, set()).add(_kind(v))
    split = [n for n, kinds in by_count.items() if {"fair", "unfair"} <= kinds]
    if isinstance(dis, pd.DataFrame) and "disagree" in dis:
        differ = dis[dis["disagree"].astype(bool)]
        if len(differ):
            s.p("The levels of play differ, tested on the same deals: "
                + "; ".join(f"at {r.players} players, seat {r.seat}'s edge under {r.a} less under {r.b} is "
                            f"{100 * r.diff:+.1f} points [{100 * r.ci_low:+.1f}, {100 * r.ci_high:+.1f}]"
                            for r in differ.itertuples())
                + ". The seat advantage depends on how well the game is played.")
        if len(dis) and differ.empty:
            s.p("The levels of play agree: no seat's edge differs between them on the same deals.")
    elif split:
        s.p("The levels of play disagree at " + ", ".join(f"{n} players" for n in split) + ": one finds a seat "
            "unfair, another finds every seat fair, so the seat advantage depends on how well the game is played.")
    more = s.more("How the verdict is decided, and every seat")
    more.p("Fair within tolerance: every seat's 95% interval lies inside the tolerance; unfair: some seat's "
           "interval lies wholly outside it; otherwise undecided, with the reason. The p-value tests that every "
           "seat wins equally often (Hotelling's T² on the per-deal seat win shares, the deal as the unit). "
           "The first player's edge is listed beside the deciding seat's.")
    more.table(["players", "played by", "deals", "p (all seats equal)", "first-player edge (points)",
                "95% interval", "largest seat edge (points)", "verdict"],
               [[v.players, v.basis, f"{v.deals:,}", _p(v.p_equal), _pp(100 * v.first_edge),
                 f"{_pp(100 * v.first_low)} to {_pp(100 * v.first_high)}", _pp(100 * v.max_edge),
                 verdict_text(v, exp.tolerance)] for v in res.verdicts])
    _seat_table(res, figs, more)
    return s


def _seat_table(res: Results, figs: dict, s: Section) -> None:
    df = res.seats[res.seats["part"] == MAIN]
    s.fig(figs.get("seat_advantage"), "Every seat's edge over its fair share per player count, 95% intervals, "
          "one colour per strategy played in every seat; grey band: the tolerance.")
    s.p("Win rate by seat (seat 0 plays first), side by side for every strategy that played all seats "
        "('all line-ups': the tournament's seat-balanced line-ups); t intervals over deals.")
    bases = list(dict.fromkeys(df["basis"]))
    rows = []
    for (n, seat), g in df.groupby(["players", "seat"], sort=True):
        cells = []
        for b in bases:
            r = g[g["basis"] == b]
            cells += ([f"{_f(r['win_rate'].iloc[0])} ({_ci(r['ci_low'].iloc[0], r['ci_high'].iloc[0])})",
                       _pp(100 * (r["win_rate"].iloc[0] - r["fair_share"].iloc[0]))] if len(r) else ["", ""])
        rows.append([n, seat, f"{g['games'].iloc[0]:,}", _f(g["fair_share"].iloc[0])] + cells)
    s.table(["players", "seat", "deals", "fair share"]
            + [h for b in bases for h in (f"win rate, {b} (95% interval)", f"edge, {b} (points)")], rows)


def _seats(res: Results, figs: dict) -> Section | None:
    """Seat win rates where there is no verdict (a tournament without mirrors)."""
    if res.verdicts:
        return None
    s = Section("Seats", "seats")
    _seat_table(res, figs, s)
    return s


def _split_bar(r: dict) -> str:
    """One horizontal bar, skill | hidden information | luck, as shares of the oracle's headroom
    over a fair share (negative shares, from noise or a search worse than random, drawn as 0)."""
    parts = [("skill", r["skill_share"], "#2da44e"), ("hidden information", r["information_share"], "#8250df"),
             ("luck", r["luck_share"], "#bbb")]
    widths = [max(0.0, v) if v == v else 0.0 for _, v, _ in parts]
    total = sum(widths) or 1.0
    spans = "".join(f'<span title="{name} {100 * v:.0f}%" style="display:inline-block;height:100%;'
                    f'width:{100 * w / total:.1f}%;background:{colour}"></span>'
                    for (name, v, colour), w in zip(parts, widths))
    label = ", ".join(f"{name} {100 * v:.0f}%" for name, v, _ in parts)
    return (f'<span class="split" role="img" aria-label="{html.escape(label)}">{spans}</span>')


def _share_text(r: dict, key: str) -> str:
    lo, hi = r[f"{key}_low"], r[f"{key}_high"]
    band = f" [{100 * lo:.0f}, {100 * hi:.0f}]" if lo == lo and hi == hi else ""
    return f"{100 * r[key]:.0f}%{band}"


def _rs_text(r: dict) -> str:
    if r["relative_skill"] != r["relative_skill"]:
        return ("not defined (the oracle won every deal: its log-odds edge has no upper end)"
                if r["oracle_win_rate"] >= 1 else "not defined (the oracle is no better than random)")
    lo, hi = r["relative_skill_low"], r["relative_skill_high"]
    return f"{r['relative_skill']:.2f}" + (f" [{lo:.2f}, {hi:.2f}]" if lo == lo and hi == hi else "")


def _ceiling_card(res: Results) -> str:
    """The answer card's bars: skill | hidden information | luck per player count."""
    rows = ceiling_rows(res)
    if not rows:
        return ""
    bars = "".join(f'<span class="n">{r["players"]} players</span><span>{_split_bar(r)} <span class="note">'
                   f'skill {_share_text(r, "skill_share")}, hidden information '
                   f'{_share_text(r, "information_share")}, luck {_share_text(r, "luck_share")}</span></span>'
                   for r in rows)
    return ('<p class="note">How much is skill, hidden information and luck: a search against random players, '
            'and the same search seeing every hand (the oracle); the bar splits what the oracle wins above a fair '
            'share, 95% intervals in brackets (<span style="color:#2da44e">■</span> skill, '
            '<span style="color:#8250df">■</span> hidden information, <span style="color:#999">■</span> luck). '
            f'<a href="#skill">Details</a></p><div class="grid">{bars}</div>')


def ceiling_rows(res: Results) -> list[dict]:
    t = getattr(res, "oracle", None)
    return [] if t is None or t.empty else t.to_dict("records")


def _ceiling(res: Results, s: Section) -> None:
    """The information ceiling beside the skill index (simcards.report.skill.oracle_table)."""
    rows = ceiling_rows(res)
    if not rows:
        return
    r0 = rows[0]
    s.p(f"Skill, hidden information and luck: {r0['search']} (a search at a small budget) and the same search "
        f"with every hand and the stock open ({r0['oracle']}, the oracle) each play one seat against random "
        "players on the same deals. Of what the oracle could win above a fair share, the bar shows the part the "
        "searching player already wins (skill), the part only seeing the hidden cards adds (hidden information) "
        "and the part not even the oracle wins (luck, which here also holds what so small a search misses); "
        "brackets are 95% bootstrap intervals over deals. The relative skill (Dreef, Borm and van der Genugten) "
        "is the searching player's log-odds edge over the oracle's: 1 when seeing the cards adds nothing, 0 when "
        "only seeing them helps.")
    worse = [r for r in rows if r["information_share_high"] == r["information_share_high"]
             and r["information_share_high"] < 0]
    if worse:
        s.p("At " + ", ".join(str(r["players"]) for r in worse) + " players the oracle won less than the same "
            "search without the open hands (the hidden-information share's interval is below 0). The oracle is an "
            "approximate ceiling: its rollouts play the other seats by a heuristic, not as random players play, "
            "and the true cards make it trust that model more. Read the hidden-information share as what this "
            "search can use of the open hands, not as what a perfect player could.")
    markup = ['<div class="grid">']
    md = []
    for r in rows:
        markup.append(f'<span class="n">{r["players"]} players</span><span>{_split_bar(r)} '
                      f'<span class="note">skill {_share_text(r, "skill_share")}, hidden information '
                      f'{_share_text(r, "information_share")}, luck {_share_text(r, "luck_share")}; '
                      f'relative skill {html.escape(_rs_text(r))}</span></span>')
        md.append(f"- {r['players']} players: skill {_share_text(r, 'skill_share')}, hidden information "
                  f"{_share_text(r, 'information_share')}, luck {_share_text(r, 'luck_share')}; relative skill "
                  f"{_rs_text(r)}")
    markup.append("</div>")
    s.raw("".join(markup), "\n".join(md) + "\n")
    s.table(["players", "deals", "fair share", "search wins", "oracle wins", "learning (log-odds)",
             "information (log-odds)", "relative skill"],
            [[r["players"], f"{r['deals']:,}", _f(r["fair_share"]),
              f"{_f(r['search_win_rate'])} ({_ci(r['search_low'], r['search_high'])})",
              f"{_f(r['oracle_win_rate'])} ({_ci(r['oracle_low'], r['oracle_high'])})",
              _gap_interval(r, "learning"), _gap_interval(r, "information"), _rs_text(r)] for r in rows])
    few = min(r["deals"] for r in rows)
    if few < 1000:
        s.p(f"These are {few:,} deals a player count (a search costs milliseconds a decision): read the shares "
            "to about the width of their intervals, not to the point. A share below 0 or a relative skill above 1 "
            "inside an interval is noise around 'seeing the cards adds nothing'.")


def _gap_interval(r: dict, key: str) -> str:
    v, lo, hi = r[key], r[f"{key}_low"], r[f"{key}_high"]
    if v != v or math.isinf(v):
        return "n/a" if v != v else ("+inf" if v > 0 else "-inf")
    band = f" [{lo:+.2f}, {hi:+.2f}]" if lo == lo and hi == hi else ""
    return f"{v:+.2f}{band}"


def _skill(run, res: Results) -> Section | None:
    rows = skill_rows(res)
    if not rows:
        return None
    strong = rows[0]["strongest"]
    s = Section("Does skill matter?", "skill")
    s.p(f"One seat plays {strong}, every other seat plays random; every deal is played with the strong seat in "
        "each position, so the seat does not matter. The edge is in log-odds over a fair share: 0 means it wins "
        "no more than its fair share, +1 nearly triples its odds, +2 multiplies them by 7.")
    s.table(["players", "strongest", "deals", "its win rate", "95% interval", "fair share", "edge (log-odds)"],
            [[r["players"], r["strongest"], f"{r['deals']:,}", _f(r["win_rate"]), _ci(r["low"], r["high"]),
              _f(r["fair"]), _gap_text(r)] for r in rows])
    _ceiling(res, s)
    table = res.skill
    edges = [c for c in table.columns if c.startswith("first_edge ")]
    more = s.more("How the skill index is measured")
    more.p("The strong player's win rate has a 95% interval over deals (the deal is the unit). The edge is "
           "log(p (n - 1) / (1 - p)) for a win rate p at n players: the log-odds of winning over those of a "
           "fair share, which under the Luce choice model is the strong player's log strength against a random "
           "player, so the same edge means the same gap in play at any player count; its interval is the win "
           "rate's, mapped. The first-seat edges are the verdict's under each mirror: how the seat advantage "
           "changes with the level of play.")
    from simcards.report import skill as skill_module
    if getattr(res, "oracle", None) is None:
        more.p(skill_module.ORACLE_NOTE)
    if edges:
        more.table(["players", "strongest", "edge over fair (points)"]
                   + [f"first-seat edge, {c[len('first_edge '):]} mirrors (points)" for c in edges],
                   [[int(r["players"]), r["strongest"], _pp(100 * (r["win_rate"] - r["fair_share"]))]
                    + [_pp(100 * r[c]) if c in r and r[c] == r[c] else "" for c in edges]
                    for _, r in table.iterrows()])
    return s


def _strategies(res: Results, figs: dict) -> Section | None:
    df = res.strategies[res.strategies["part"] == MAIN]
    if df.empty and res.pairs.empty and res.rating is None:
        return None
    s = Section("Which strategy wins?", "strategies")
    if len(df):
        s.fig(figs.get("strategy_win_rates"), "Win rate per strategy with 95% intervals; dashed: fair share.")
    if len(res.pairs):
        s.fig(figs.get("pairwise_differences"), "Difference in win rate of every pair, points, 95% intervals.")
    if res.rating is not None:
        s.fig(figs.get("rating"), "Strength of every strategy with 95% intervals: a strategy ahead by d beats "
              "the other head to head with probability 1/(1+e^-d).")
    share, seen = res.h2h
    if not share.empty and len(share) > 1:
        s.fig(figs.get("head_to_head"), "Head to head: share of games a strategy placed better than another.")
    more = s.more("Methods and tables")
    if len(df):
        more.p("A strategy's score in a deal is the mean win share of its seats, averaged over the line-ups "
               "(every seat order of the design) that hold it, so it is net of seat; mirror line-ups are left "
               "out. The deal (game index) is the unit: intervals are t intervals over the deal scores.")
        more.table(["players", "strategy", "deals", "win rate", "95% interval", "fair share"],
                   [[r.players, r.strategy, f"{r.games:,}", _f(r.win_rate), _ci(r.ci_low, r.ci_high),
                     _f(r.fair_share)] for r in df.itertuples()])
    if len(res.pairs):
        head, adj = _adjusted(res.pairs, "holm_low", "holm_high", "holm_level")
        more.p("Every pair at every player count: a paired test over deals of the difference in score, p-values "
               "corrected for all these comparisons at once by Holm's method. The 95% intervals are not "
               "corrected" + ("; the interval at the corrected level, beside them, excludes 0 exactly where the "
                              "corrected test finds a difference" if head else "")
               + ". Effect: difference in win rate in points. 'Variance saved': how much dealing every line-up "
               "the same games (common random numbers) narrowed the interval.")
        more.table(["players", "A", "B", "deals", "A - B (points)", "95% interval"] + head
                   + ["p", "p (Holm)", "significant", "variance saved"],
                   [[r.players, r.a, r.b, f"{r.games:,}", _pp(r.diff_pp), f"{_pp(r.ci_low_pp)} to {_pp(r.ci_high_pp)}"]
                    + adj[i:i + 1]
                    + [_p(r.p_value), _p(r.p_holm), "yes" if r.significant else "no",
                       "n/a" if math.isnan(r.crn_saving) else f"{100 * r.crn_saving:.0f}%"]
                    for i, r in enumerate(res.pairs.itertuples())])
        if res.crn.get("pairs"):
            more.p(_crn_text(res.crn))
    if res.rating is not None:
        rt = res.rating
        more.p(f"Strength: a Plackett-Luce model fitted by choix (I-LSR) to the finishing order of "
               f"{rt.games_used:,} of {rt.games_total:,} finished games ({rt.events:,} choices; "
               + ("the lowest game indices of every line-up, to bound the fit's time; "
                  if rt.games_used < rt.games_total else "")
               + f"{rt.unfinished_left_out:,} unfinished games left out). Tied places share the choice set "
               "(Breslow). Strength is a centred log weight. Intervals: normal, with standard errors from "
               "refits on bootstrap resamples of whole deals.")
        more.table(["rank", "strategy", "strength", "95% interval", "first places chosen", "P(beats next)"],
                   [[r.rank, r.strategy, f"{r.strength:+.3f}", _ci(r.ci_low, r.ci_high), f"{r.first_choices:,}",
                     _f(r.p_beats_next)] for r in rt.table.itertuples()])
    if not share.empty and len(share) > 1:
        more.p("Head to head: for every pair of seats in one game held by different strategies, the share "
               "in which the row strategy finished better than the column strategy (ties count half); in "
               "brackets the number of such comparisons.")
        more.table(["strategy"] + list(share.columns),
                   [[a] + [("" if math.isnan(share.at[a, b]) else f"{share.at[a, b]:.3f} ({seen.at[a, b]:,})")
                           for b in share.columns] for a in share.index])
    return s


def _adjusted(frame: pd.DataFrame, low: str, high: str, level: str) -> tuple[list[str], list[str]]:
    """(header, cells) of the interval at the corrected level where the statistics give one, else empty."""
    if frame is None or not len(frame) or not {low, high, level} <= set(frame.columns):
        return [], []
    lv = float(frame[level].iloc[0])
    return ([f"interval at the corrected level ({100 * lv:.2f}%)"],
            [f"{_pp(a)} to {_pp(b)}" for a, b in zip(frame[low], frame[high])])


def _crn_text(c: dict) -> str:
    text = (f"All line-ups of a cell are dealt the same games (common random numbers). Over the {c['pairs']} "
            f"strategy comparisons, the variance of the per-deal difference is {c['var_crn']:.5f} as played, "
            f"against {c['var_independent']:.5f} if every line-up had been dealt its own games (median saving "
            f"per pair {100 * c['median_saving']:.1f}%). ")
    if c["saving"] >= 0:
        return text + (f"That saved {100 * c['saving']:.1f}% of the variance: the precision of "
                       f"{c['games_factor']:.2f} times as many games dealt independently.")
    return text + (f"The differences vary {-100 * c['saving']:.1f}% more than with independent deals: when some "
                   "deals reward skill and others luck, the stronger strategy wins the skill deals in all its "
                   "line-ups at once. The tests use the variance as played, so they stay valid either way.")


def _lengths(run, res: Results, figs: dict) -> Section:
    exp = run.exp
    s = Section("How long is a game?", "game-length")
    t = _time_rows(res)
    if len(t):
        s.fig(figs.get("game_time"), "Minutes a game takes per player count: dot the median, bar 10% to 90% "
              "of games.")
        s.p(f"Minutes at the table: every game's {_cost_text(exp, res)}, over 60 (the experiment's "
            "`seconds_per_turn` and `[seconds]` table set these costs). Every game of the main rules, every "
            "line-up.")
        s.table(["players", "games", "median minutes", "10%", "90%", "mean", "95% interval of the mean"],
                [[int(r.players), f"{int(r.games):,}", _minutes(r.median), _minutes(r.p10), _minutes(r.p90),
                  _f(r.mean, 1), _ci(r.ci_low, r.ci_high, 1)] for r in t.itertuples()])
    from simcards.report.plots import constant_lengths
    for col in length_columns(exp.spec):
        constant = constant_lengths(res, col)
        if constant:
            values = sorted(set(constant.values()))
            s.p(f"Every game lasts exactly {values[0]:g} {col}" + (" at every player count." if len(values) == 1
                else " (" + ", ".join(f"{v:g} at {n} players" for n, v in constant.items()) + ")."))
    more = s.more(" and ".join(length_columns(exp.spec)).capitalize() + " per game")
    for col in length_columns(exp.spec):
        more.fig(figs.get(f"length_{col}"), f"Distribution of {col} per game, per player count; line: median.")
    lt = res.length_table[res.length_table["part"] == MAIN]
    more.table(["players", "measure", "games", "mean", "95% interval", "10%", "median", "90%", "max", "unfinished"],
               [[r.players, r.column, f"{r.games:,}", _f(r.mean, 2), _ci(r.ci_low, r.ci_high, 2), _f(r.p10, 0),
                 _f(r.median, 0), _f(r.p90, 0), _f(r.max, 0), r.unfinished] for r in lt.itertuples()])
    return s


def _place(k: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(int(k), f"{int(k)}th")


def _elimination(res: Results) -> Section | None:
    """When players go out (simcards.report.elimination): per player count, the turn of the 1st,
    2nd, ... seat out, median and 10-90% of games."""
    t = getattr(res, "elimination", None)
    if t is None or t.empty:
        return None
    s = Section("When do players go out?", "elimination")
    lineups = sorted(set(t["lineup"]))
    s.p(f"The turn at which the first, second, ... player is out, over the first {int(t['deals'].max()):,} deals "
        f"of each player count replayed move by move ({', '.join(lineups)} in every seat; games stopped by the turn "
        "cap left out): the median with its 95% interval, and 10% to 90% of games. The last column is the median "
        "game length in turns, for scale.")
    markup, md = ['<div class="grid">'], []
    for n, part in t.groupby("players", sort=True):
        top = float(part["p90"].max()) or 1.0
        bars = []
        for r in part.itertuples():
            left, width = 100 * r.p10 / top, max(1.0, 100 * (r.p90 - r.p10) / top)
            bars.append(f'<span title="{_place(r.place)} out: median turn {r.median:.0f}, 10-90% {r.p10:.0f}-'
                        f'{r.p90:.0f}" style="position:absolute;left:{left:.1f}%;width:{width:.1f}%;top:'
                        f'{100 * (r.place - 1) / len(part):.0f}%;height:{100 / len(part) - 4:.0f}%;'
                        f'background:#8c959f"></span>')
        text = "; ".join(f"{_place(r.place)} out at turn {r.median:.0f} ({r.p10:.0f}–{r.p90:.0f})"
                         for r in part.itertuples())
        markup.append(f'<span class="n">{int(n)} players</span><span><span class="gauge" role="img" '
                      f'aria-label="{html.escape(text)}" style="background-image:none;height:{0.45 * len(part) + 0.2:.2f}em">{"".join(bars)}</span> '
                      f'<span class="note">{html.escape(text)}</span></span>')
        md.append(f"- {int(n)} players: {text}")
    markup.append("</div>")
    s.raw("".join(markup), "\n".join(md) + "\n")
    s.table(["players", "out", "games", "median turn", "95% interval", "10%", "90%", "median game (turns)"],
            [[r.players, _place(r.place), f"{r.games:,}", f"{r.median:.0f}", _ci(r.median_low, r.median_high, 0),
              f"{r.p10:.0f}", f"{r.p90:.0f}", f"{r.game_median:.0f}"] for r in t.itertuples()])
    return s


def _designer(res: Results) -> Section | None:
    d = res.designer
    if d is None:
        return None
    s = Section("How close are games?", "closeness")
    c = d.closeness
    if len(c):
        score = c["score"].iloc[0]
        low_wins = "higher_wins" in c and not bool(c["higher_wins"].iloc[0])
        s.p(f"The winner's margin over the best other player, in {score} at the end of the game"
            + (" (fewer is better)" if low_wins else "") + ": the median over games with the 10–90% range, "
            "and as a share of the larger of the two scores (finished games with one winner, main rules).")
        s.table(["players", "deals", f"median margin ({score})", "10%", "90%", "mean", "95% interval",
                 "median share of the larger score"],
                [[r.players, f"{r.deals:,}", _f(r.median, 1), _f(r.p10, 1), _f(r.p90, 1), _f(r.mean, 2),
                  _ci(r.ci_low, r.ci_high, 2), "n/a" if r.relative != r.relative else f"{100 * r.relative:.0f}%"]
                 for r in c.itertuples()])
    if len(d.leader):
        s.p("The early leader: how often the sole leader after a round (cumulated round scores) wins the game, "
            "against a seat picked at random in the same games.")
        s.table(["players", "leader after", "deals", "leader wins", "95% interval", "a random seat wins"],
                [[r.players, r.after, f"{r.deals:,}", _f(r.mean), _ci(r.ci_low, r.ci_high),
                  _f(getattr(r, "baseline", float("nan")))] for r in d.leader.itertuples()])
    for note in d.notes:
        s.p(note)
    return s


def _cards(res: Results, figs: dict) -> Section | None:
    c = res.cards
    if c is None:
        return None
    s = Section("Which cards help?", "cards")
    s.fig(figs.get("card_balance"), "Win rate of a seat dealt the card minus one not dealt it, points, 95% "
          "intervals; orange: a real effect after correcting for the many cards.")
    ranks = getattr(res.designer, "ranks", None)
    if ranks is not None and len(ranks):
        s.p("By rank (dealt at least one card of the rank, any suit):")
        s.table(["rank", "difference (points)", "95% interval", "real effect"],
                [[r.card, _pp(r.diff_pp), f"{_pp(r.ci_low_pp)} to {_pp(r.ci_high_pp)}",
                  "yes" if r.significant else "no"] for r in ranks.itertuples()])
    more = s.more("Method and every card")
    more.p(f"For each card kind, the win rate of seats dealt at least one in their first hand against "
           f"seats dealt none ({c['basis'].iloc[0] if len(c) else ''}, main rules). The difference is the "
           "coefficient of an OLS of the seat's win share on 'dealt' with one constant per player count; "
           "every standard error is clustered by deal (a deal's hands repeat in every line-up and its seats "
           "share one winner). p-values are corrected over all the cards at once by Benjamini-Hochberg "
           "(false discovery rate 5%); the 95% intervals are not corrected, so an interval may exclude 0 "
           "where the corrected test finds no effect" + ("; the interval at the corrected level, beside it, "
                                                         "agrees with the test" if "bh_level" in c else "")
           + ". Card kinds that are never or always dealt are left out.")
    head, adj = _adjusted(c, "bh_low_pp", "bh_high_pp", "bh_level")
    more.table(["card", "seats dealt", "win rate dealt", "95% interval", "seats not dealt", "win rate not",
                "95% interval", "difference (points)", "95% interval"] + head + ["p (BH)", "significant"],
               [[r.card, f"{r.dealt_seats:,}", _f(r.rate_dealt), _ci(r.dealt_low, r.dealt_high),
                 f"{r.not_dealt_seats:,}", _f(r.rate_not), _ci(r.not_low, r.not_high), _pp(r.diff_pp),
                 f"{_pp(r.ci_low_pp)} to {_pp(r.ci_high_pp)}"] + adj[i:i + 1]
                + [_p(r.p_bh), "yes" if r.significant else "no"]
                for i, r in enumerate(c.itertuples())])
    return s


def _sweep(res: Results, exp, figs: dict) -> Section | None:
    if res.sweep is None:
        return None
    if exp.grid_option is not None:
        return _grid(res, exp, figs)
    from simcards.report.plots import constant_sweep_measures
    s = Section(f"Changing {exp.sweep_option}", "rule-sweep")
    s.p(f"The rule option {exp.sweep_option} takes the values {', '.join(map(str, exp.sweep_values))}; "
        f"everything else as in the main rules. Each value is compared with the default "
        f"({exp.sweep_option}={exp.sweep_default}) on the same deals. Win rates in points, lengths in their own "
        "unit.")
    s.fig(figs.get("sweep_effects"), "Effect of each value against the default (95% intervals); filled: a real "
          "effect after correcting for the whole sweep.")
    constant = constant_sweep_measures(res.sweep)
    if constant:
        s.p("Not drawn, since no value changes them: " + ", ".join(constant) + ".")
    more = s.more("Method and every effect")
    head, adj = _adjusted(res.sweep, "adj_low", "adj_high", "adj_level")
    more.p("The effect is the mean per-deal difference with its paired 95% interval; p-values corrected over "
           "the whole sweep by Holm's method; the 95% intervals are not corrected"
           + (", the interval at the corrected level is." if head else "."))
    more.table([exp.sweep_option, "players", "measure", "deals", "effect", "95% interval"] + head
               + ["p (Holm)", "significant"],
               [[r.value, r.players, r.measure, f"{r.deals:,}", _pp(r.effect), f"{_pp(r.ci_low)} to {_pp(r.ci_high)}"]
                + adj[i:i + 1] + [_p(r.p_adjusted), "yes" if r.significant else "no"]
                for i, r in enumerate(res.sweep.itertuples())])
    return s


def _grid(res: Results, exp, figs: dict) -> Section:
    a, b = exp.sweep_option, exp.grid_option
    s = Section(f"Changing {a} and {b}", "rule-grid")
    s.p(f"Two rule options swept together: {a} takes the values {', '.join(map(str, exp.sweep_values))} and "
        f"{b} the values {', '.join(map(str, exp.grid_values))}, every pair of them; everything else as in the "
        f"main rules. Each pair is compared with the defaults ({a}={exp.sweep_default}, {b}={exp.grid_default}) "
        "on the same deals. Win rates in points, lengths in their own unit.")
    s.fig(figs.get("sweep_grid"), f"Effect of each pair of values against the defaults, {a} down and {b} "
          "across; outlined with *: a real effect after correcting for the whole grid; 'default': the baseline.")
    more = s.more("Method and every effect")
    more.p("The effect is the mean per-deal difference with its paired 95% t interval. The grid's many cells are "
           "screened together, so p-values are corrected by Benjamini-Hochberg (false discovery rate 5%) over the "
           "whole grid; the intervals are not corrected.")
    head, adj = _adjusted(res.sweep, "adj_low", "adj_high", "adj_level")
    more.table([a, b, "players", "measure", "deals", "effect", "95% interval"] + head + ["p (BH)", "significant"],
               [[r.value, r.value2, r.players, r.measure, f"{r.deals:,}", _pp(r.effect),
                 f"{_pp(r.ci_low)} to {_pp(r.ci_high)}"] + adj[i:i + 1]
                + [_p(r.p_adjusted), "yes" if r.significant else "no"]
                for i, r in enumerate(res.sweep.itertuples())])
    return s


def _methods() -> Section:
    s = Section("Methods", "methods", collapsed=True)
    s.p("The deal is the unit: every line-up of a cell plays the same game indices with the same seed, so "
        "they are dealt the same games (common random numbers), and every standard error treats a deal's games "
        "together. Intervals are 95%: t intervals over deal means for win rates, lengths and paired differences; "
        "card effects from least squares with standard errors clustered by deal; strengths from a bootstrap over "
        "deals. Where many tests are made at once, p-values are corrected: Holm over the strategy pairs and a "
        "sweep, Benjamini-Hochberg over the cards and a grid. Intervals are not corrected: each section says so.")
    return s


GLOSSARY = [
    ("fair share", "the win rate every seat would have if seats did not matter: 1 in n at n players."),
    ("edge, points", "a win rate minus its fair share, in percentage points: +6.4 means 6.4% more of the games."),
    ("tolerance", "how far off its fair share a seat may win and still count as fair."),
    ("fair / unfair / undecided", "every seat's interval inside the tolerance / some seat's wholly outside it / "
                                  "neither yet: more deals are needed."),
    ("seat 0", "the seat that plays first; seat 1 plays second, and so on."),
    ("played by", "a line-up where every seat plays the same strategy (a level of play), so seats differ only "
                  "by their place."),
    ("deal", "one shuffled game start; every line-up plays the same deals, and a deal is the unit of every "
             "interval."),
    ("95% interval [a, b]", "the range that holds the true value in 95 of 100 such experiments."),
    ("real effect / significant", "unlikely to be chance after correcting for the many comparisons on the page."),
    ("log-odds edge", "log of the odds of winning over the odds of a fair share: 0 luck only, +1 odds ×2.7, "
                      "+2 odds ×7.4."),
    ("strength", "a strategy's rating on a log scale: ahead by d, it beats the other in 1/(1+e^-d) of meetings."),
    ("line-up", "the strategies in each seat of a game, in seat order."),
    ("oracle", "the search player with every hand and the stock open: the most a player could win from "
               "seeing the hidden cards, the information ceiling."),
    ("relative skill", "the searching player's log-odds edge over random as a share of the oracle's (Dreef, "
                       "Borm and van der Genugten): 1 when seeing the cards adds nothing."),
]


def _glossary() -> Section:
    s = Section("Glossary", "glossary", collapsed=True)
    s.table(["term", "meaning"], [[t, m] for t, m in GLOSSARY])
    return s


def _reproduce(config: dict) -> Section:
    s = Section("Reproduce", "reproduce", collapsed=True)
    s.p(f"Command: {config['regenerate']} (the same command gives the same games for any number of "
        "threads). Files: results.parquet (one row per game and seat: cell, players, lineup, game, seat, "
        "strategy, win_share, rank and the game's result columns), config.json (the experiment as "
        "resolved: every rule option, line-ups, seed, game ranges, batches, versions, timings), summary.json "
        "(one record per estimate, for `simcards report --compare A B`).")
    return s


def sections(run, res: Results, figs: dict, config: dict) -> list[Section]:
    exp = run.exp
    out = [_answer(run, res, config), _verdict(run, res, figs), _skill(run, res), _lengths(run, res, figs),
           _elimination(res), _designer(res), _strategies(res, figs), _seats(res, figs), _cards(res, figs), _sweep(res, exp, figs),
           _overview(run, res, config), _methods(), _glossary(), _reproduce(config)]
    return [s for s in out if s is not None]


# ------------------------------------------------------------------ writers
def _md_blocks(blocks: list, lines: list[str], depth: int) -> None:
    for block in blocks:
        if block[0] == "p":
            lines += [block[1], ""]
        elif block[0] == "fig":
            lines += [f"![{block[2]}]({block[1]})", "", f"*{block[2]}*", ""]
        elif block[0] == "list":
            lines += [f"- {t}" for t in block[1]] + [""]
        elif block[0] == "html":
            lines += [block[2], ""]
        elif block[0] == "details":
            lines += [f"{'#' * (depth + 1)} {block[1]}", ""]
            _md_blocks(block[2], lines, depth + 1)
        else:
            _, headers, rows = block
            lines.append("| " + " | ".join(map(str, headers)) + " |")
            lines.append("|" + "|".join("---" for _ in headers) + "|")
            for row in rows:
                lines.append("| " + " | ".join(str(v).replace("|", "/") for v in row) + " |")
            lines.append("")


def to_markdown(title: str, secs: list[Section]) -> str:
    lines = [f"# {title}", ""]
    for sec in secs:
        lines += [f"## {sec.title}", ""]
        _md_blocks(sec.blocks, lines, 2)
    return "\n".join(lines)


_STYLE = """
*, *::before, *::after { box-sizing: border-box; }
body { font-family: system-ui, sans-serif; max-width: 1100px; margin: 1.5em auto; padding: 0 1em; color: #222;
       line-height: 1.45; overflow-wrap: anywhere; }
h1 { border-bottom: 2px solid #444; font-size: 1.6em; } h2 { margin-top: 1.6em; border-bottom: 1px solid #ccc; }
h3 { margin: 0.2em 0 0.4em; font-size: 1.05em; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.85em; overflow-wrap: normal; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: right; }
th { background: #f0f0f0; text-align: left; vertical-align: bottom; }
td:first-child, th:first-child, td.t { text-align: left; }
figure { margin: 1em 0; } img { max-width: 100%; height: auto; }
figcaption { font-style: italic; font-size: 0.9em; }
nav { display: flex; flex-wrap: wrap; gap: 0.3em 1em; font-size: 0.9em; margin-bottom: 0.5em; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 320px), 1fr)); gap: 0.8em; }
.card { border: 1px solid #ddd; border-radius: 8px; padding: 0.7em 0.9em; background: #fafafa; min-width: 0; }
.row { display: flex; flex-wrap: wrap; align-items: center; gap: 0.3em 0.6em; margin: 0.35em 0; }
.n { font-weight: 600; }
.big { font-size: 1.3em; font-weight: 600; }
.note { color: #555; font-size: 0.85em; margin: 0.2em 0; }
.badge { border-radius: 6px; padding: 0.15em 0.5em; font-size: 0.85em; border: 1px solid; }
.badge.fair { background: #dafbe1; border-color: #4ac26b; color: #0f5323; }
.badge.unfair { background: #ffebe9; border-color: #ff8182; color: #82071e; }
.badge.undecided { background: #fff8c5; border-color: #d4a72c; color: #633c01; }
.card + .card, .card + .cards, .cards + .card { margin-top: 0.8em; }
.grid { display: grid; grid-template-columns: 6em minmax(0, 1fr); gap: 0.45em 0.6em; align-items: baseline; }
.badges { display: flex; flex-wrap: wrap; gap: 0.3em 0.5em; }
table.plain td, table.plain th { border: 0; border-bottom: 1px solid #e5e5e5; background: none; }
.gauge { position: relative; display: inline-block; width: 10em; height: 0.9em; background: #e5e5e5;
         border-radius: 4px; overflow: hidden; vertical-align: middle;
         background-image: linear-gradient(90deg, transparent calc(50% - 1px), #888 calc(50% - 1px),
                                           #888 calc(50% + 1px), transparent calc(50% + 1px)); }
.gauge span { position: absolute; top: 0; height: 100%; }
.gauge .up { background: #2da44e; } .gauge .down { background: #cf222e; }
.split { display: inline-block; width: 12em; height: 0.9em; background: #e5e5e5; border-radius: 4px;
         overflow: hidden; vertical-align: middle; white-space: nowrap; font-size: 1em; line-height: 0; }
.findings li { margin: 0.3em 0; }
details { margin: 0.8em 0; } summary { cursor: pointer; color: #0550ae; }
details.section > summary { color: #222; } details.section > summary h2 { display: inline; border: 0; }
@media (max-width: 600px) {
  body { padding: 0 0.6em; margin-top: 0.8em; } .card { padding: 0.6em; }
  .grid { grid-template-columns: minmax(0, 1fr); gap: 0.15em; } .grid .n { margin-top: 0.5em; }
}
"""


#: A cell that reads as a number (right-aligned): 1,234, +0.12, 0.3 to 0.5, 12%, n/a, < 0.0001.
_NUMBER = re.compile(r"^(?:[-+<>≥≤ ]*[\d.,]+%?(?: \(.*\))?(?: to [-+]?[\d.,]+)?|n/a|)$")


_IMG_SRC = re.compile(r'(<img\b[^>]*?\bsrc=")([^":]+\.(png|svg))(")')


def embed_images(page: str, folder: Path) -> str:
    """The page with every image it names from ``folder`` embedded as a base64 data URI: one file
    that opens anywhere (e-mail it); the images are read from the folder."""
    def data(m: re.Match) -> str:
        kind = "svg+xml" if m.group(3) == "svg" else "png"
        raw = (Path(folder) / html.unescape(m.group(2))).read_bytes()
        return f"{m.group(1)}data:image/{kind};base64,{base64.b64encode(raw).decode('ascii')}{m.group(4)}"
    return _IMG_SRC.sub(data, page)


def _css_width(folder: Path | None, file: str) -> str:
    """' width="W"': the PNG's width at the figures' dpi shown as 100 CSS pixels an inch (a
    200 dpi figure at half its pixels: sharp on a high-resolution screen, text at its point size)."""
    path = None if folder is None else Path(folder) / file
    if path is None or not path.is_file():
        return ""
    head = path.read_bytes()[:24]
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        return ""
    from simcards.report.plots import DPI
    return f' width="{round(int.from_bytes(head[16:20], "big") * 100 / DPI)}"'


def _html_blocks(blocks: list, out: list[str], folder: Path | None = None) -> None:
    esc = html.escape
    for block in blocks:
        if block[0] == "p":
            out.append(f"<p>{esc(block[1])}</p>")
        elif block[0] == "fig":
            out.append(f'<figure><img src="{esc(block[1])}"{_css_width(folder, block[1])} alt="{esc(block[2])}">'
                       f"<figcaption>{esc(block[2])}</figcaption></figure>")
        elif block[0] == "list":
            out.append("<ul>" + "".join(f"<li>{esc(t)}</li>" for t in block[1]) + "</ul>")
        elif block[0] == "html":
            out.append(block[1])
        elif block[0] == "details":
            out.append(f"<details><summary>{esc(block[1])}</summary>")
            _html_blocks(block[2], out, folder)
            out.append("</details>")
        else:
            _, headers, rows = block
            out.append('<div class="scroll"><table><thead><tr>'
                       + "".join(f"<th>{esc(str(h))}</th>" for h in headers) + "</tr></thead><tbody>")
            for row in rows:
                out.append("<tr>" + "".join(f"<td>{esc(str(v))}</td>" if _NUMBER.match(str(v)) else
                                            f'<td class="t">{esc(str(v))}</td>' for v in row) + "</tr>")
            out.append("</tbody></table></div>")


def to_html(title: str, secs: list[Section], folder: Path | None = None) -> str:
    """The page: its style inline, its images by file name (``embed_images`` makes it one file);
    ``folder``: where the images are, to size them for the screen."""
    esc = html.escape
    out = ["<!DOCTYPE html>", "<html lang=\"en\"><head><meta charset=\"utf-8\">",
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>{esc(title)}</title><style>{_STYLE}</style></head><body>", f"<h1>{esc(title)}</h1>",
           "<nav>" + "".join(f'<a href="#{s.key}">{esc(s.title)}</a>' for s in secs if s.key != "answer")
           + "</nav>"]
    for sec in secs:
        if sec.collapsed:
            out.append(f'<details class="section" id="{sec.key}"><summary><h2>{esc(sec.title)}</h2></summary>')
        else:
            out.append(f'<section id="{sec.key}"><h2>{esc(sec.title)}</h2>')
        _html_blocks(sec.blocks, out, folder)
        out.append("</details>" if sec.collapsed else "</section>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def write(run, res: Results, figs: dict, config: dict, out_dir: Path, single_file: bool = False) -> None:
    """report.md and index.html; with ``single_file`` the page embeds its images (one file to send)."""
    secs = sections(run, res, figs, config)
    title = run.exp.title
    write_text(out_dir / "report.md", to_markdown(title, secs))
    page = to_html(title, secs, Path(out_dir))
    write_text(out_dir / "index.html", embed_images(page, Path(out_dir)) if single_file else page)


__all__ = ["Section", "sections", "to_markdown", "to_html", "embed_images", "write", "pd"]
