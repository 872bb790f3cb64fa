"""report.md and index.html from the same sections: text, tables of numbers, figures.

The page is one HTML file with its style inline; the figures are the PNG files
in the same folder (``<img src="NAME.png">``), so the folder opens as is in a
browser and every number of a figure is printed in the table beside it.
"""
from __future__ import annotations

import html
import math
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from simcards.outputs import write_text
from simcards.report.analysis import Results, length_columns
from simcards.report.experiment import MAIN, SWEEP


@dataclass
class Section:
    title: str
    blocks: list = field(default_factory=list)   # ("p", text) | ("table", headers, rows) | ("fig", file, caption)

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


# ------------------------------------------------------------------ sections
def _overview(run, res: Results, config: dict) -> Section:
    exp = run.exp
    s = Section("Experiment")
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
        rows.append([cell.part, "" if cell.part == MAIN else f"{exp.sweep_option}={cell.sweep_value}",
                     cell.players, len(cell.lineups), sum(cell.mirror), f"{run.games[cell.id]:,}",
                     f"{run.games[cell.id] * len(cell.lineups):,}"])
    s.table(["part", "rule", "players", "line-ups", "of which mirror", "games per line-up", "games"], rows)
    total = config["total_games"]
    text = (f"{total:,} games in all, played in {config['timings_s']['play']:.1f} s without compiling "
            f"(compiling or loading the kernel took {config['timings_s'].get('compile', 0.0):.1f} s more; "
            f"analysis {config['timings_s']['analysis']:.1f} s, plots {config['timings_s']['plots']:.1f} s), "
            f"simcards {config['simcards_version']}.")
    if run.precision is not None:
        worst = res.intervals["half_width"].max() if len(res.intervals) else float("nan")
        if run.precision_met:
            text += (f" Target precision {run.precision}: batches were added until every interval on the "
                     f"probability scale had half-width at most {run.precision} (largest now {worst:.4f}); "
                     f"that took {total:,} games ({max(b['round'] for b in run.batches)} rounds of batches; "
                     "config.json lists every batch).")
        else:
            text += (f" Target precision {run.precision} NOT reached: the cap of {exp.max_games:,} games per "
                     f"line-up stopped it; the widest interval has half-width {worst:.4f}.")
    if "unfinished" in run.frame:
        unfinished = int(run.frame.loc[run.frame["unfinished"].astype(bool), ["lineup", "game"]]
                         .drop_duplicates().shape[0])
        text += f" {unfinished:,} games reached the game's cap and count as games without a winner."
    s.p(text)
    s.p("Line-ups: 'mirror' line-ups seat the same strategy everywhere (they measure seats and cards); "
        "a pool is played as a tournament balanced over seats; every line-up of a row plays the same "
        "game indices with the same seed, so they are dealt the same games (common random numbers).")
    return s


def _headlines(run, res: Results) -> Section:
    s = Section("Headlines")
    lines = []
    if res.rating is not None:
        top = res.rating.table.iloc[0]
        lines.append(f"Strongest strategy: {top['strategy']} (Plackett-Luce strength {top['strength']:+.2f}, "
                     f"95% interval {_ci(top['ci_low'], top['ci_high'], 2)}).")
    if len(res.pairs):
        sig = res.pairs[res.pairs["significant"]]
        lines.append(f"{len(sig)} of {len(res.pairs)} strategy pairs differ significantly after Holm's "
                     "correction.")
    seats = res.seats[res.seats["part"] == MAIN].copy()
    if len(seats):
        seats["edge"] = seats["win_rate"] - seats["fair_share"]
        row = seats.loc[seats["edge"].abs().idxmax()]
        outside = seats[(seats["ci_low"] > seats["fair_share"]) | (seats["ci_high"] < seats["fair_share"])]
        lines.append(f"Largest seat effect measured: seat {row['seat']} at {row['players']} players wins "
                     f"{row['win_rate']:.3f} against a fair share of {row['fair_share']:.3f} "
                     f"({100 * row['edge']:+.1f} points; interval {_ci(row['ci_low'], row['ci_high'])}). "
                     f"{len(outside)} of {len(seats)} seat win rates have an interval that excludes the "
                     "fair share.")
    if res.cards is not None and len(res.cards):
        c = res.cards.loc[res.cards["diff_pp"].abs().idxmax()]
        clear = res.cards[(res.cards["ci_low_pp"] > 0) | (res.cards["ci_high_pp"] < 0)]
        lines.append(f"Card with the largest measured effect: {c['card']} ({c['diff_pp']:+.1f} points for a "
                     f"seat dealt it, interval {c['ci_low_pp']:+.1f} to {c['ci_high_pp']:+.1f}). Cards whose "
                     f"interval excludes 0: {', '.join(clear['card']) or 'none'}.")
    if res.crn.get("pairs"):
        lines.append(_crn_sentence(res.crn))
    for line in lines:
        s.p(line)
    return s


def _strategies(res: Results, figs: dict) -> Section | None:
    df = res.strategies[res.strategies["part"] == MAIN]
    if df.empty:
        return None
    s = Section("Win rate per strategy")
    s.fig(figs.get("strategy_win_rates"), "Win rate per strategy with 95% Wilson intervals; dashed: fair share.")
    s.p("A strategy's score in a game is the mean win share of its seats; the unit is the deal "
        "(game index), averaged over the line-ups that hold the strategy; mirror line-ups are left out.")
    s.table(["players", "strategy", "deals", "win rate", "95% interval", "fair share"],
            [[r.players, r.strategy, f"{r.games:,}", _f(r.win_rate), _ci(r.ci_low, r.ci_high), _f(r.fair_share)]
             for r in df.itertuples()])
    return s


def _comparison(res: Results, figs: dict) -> Section | None:
    if res.pairs.empty and res.rating is None:
        return None
    s = Section("Strategy comparison")
    if len(res.pairs):
        s.fig(figs.get("pairwise_differences"), "Difference in win rate of every pair, percentage points.")
        s.p("Every pair at every player count: paired t-test over deals of the difference in score "
            "(statsmodels), p-values corrected for all these comparisons at once by Holm's method; "
            "effect = difference in win rate in percentage points with its 95% interval.")
        s.table(["players", "A", "B", "deals", "A - B (points)", "95% interval", "p", "p (Holm)",
                 "significant", "CRN variance saved"],
                [[r.players, r.a, r.b, f"{r.games:,}", _pp(r.diff_pp), f"{_pp(r.ci_low_pp)} to {_pp(r.ci_high_pp)}",
                  _p(r.p_value), _p(r.p_holm), "yes" if r.significant else "no",
                  "n/a" if math.isnan(r.crn_saving) else f"{100 * r.crn_saving:.0f}%"]
                 for r in res.pairs.itertuples()])
    if res.rating is not None:
        rt = res.rating
        s.fig(figs.get("rating"), "Plackett-Luce strengths with 95% intervals.")
        s.p(f"Rating: a Plackett-Luce model fitted by choix (I-LSR) to the finishing order of "
            f"{rt.games_used:,} of {rt.games_total:,} finished games ({rt.events:,} choices; "
            + ("the lowest game indices of every line-up, to bound the fit's time; " if rt.games_used < rt.games_total else "")
            + f"{rt.unfinished_left_out:,} unfinished games left out). Tied places share the choice set "
            "(Breslow). Strength is a centred log weight: a strategy ahead by d beats the other "
            "head to head with probability 1/(1+e^-d). Intervals from the Fisher information.")
        s.table(["rank", "strategy", "strength", "95% interval", "first places chosen", "P(beats next)"],
                [[r.rank, r.strategy, f"{r.strength:+.3f}", _ci(r.ci_low, r.ci_high), f"{r.first_choices:,}",
                  _f(r.p_beats_next)] for r in rt.table.itertuples()])
    share, seen = res.h2h
    if not share.empty and len(share) > 1:
        s.fig(figs.get("head_to_head"), "Head-to-head: share of games a strategy placed better than another.")
        s.p("Head to head: for every pair of seats in one game held by different strategies, the share "
            "in which the row strategy finished better than the column strategy (ties count half); in "
            "brackets the number of such comparisons.")
        s.table(["strategy"] + list(share.columns),
                [[a] + [("" if math.isnan(share.at[a, b]) else f"{share.at[a, b]:.3f} ({seen.at[a, b]:,})")
                        for b in share.columns] for a in share.index])
    return s


def _crn(res: Results) -> Section:
    s = Section("Common random numbers")
    c = res.crn
    if not c.get("pairs"):
        s.p("No two line-ups are compared in this experiment, so common random numbers save nothing here "
            "(every line-up of a cell is still dealt the same games).")
        return s
    s.p(f"All line-ups of a cell are dealt the same games. Over the {c['pairs']} strategy comparisons, the "
        f"variance of the per-deal difference is {c['var_crn']:.5f} as played, against {c['var_independent']:.5f} "
        f"if every line-up had been dealt its own games (the sum of each line-up's own variance; median "
        f"saving per pair {100 * c['median_saving']:.1f}%, per pair in the comparison table). "
        + _crn_sentence(c))
    if c["saving"] < 0:
        s.p("A negative saving is a finding, not an error: when some deals reward skill and others luck, "
            "the stronger strategy wins the skill deals in all its line-ups at once, so its tournament "
            "score varies more from deal to deal than it would on separate deals. The tests and intervals "
            "use the variance as played, so they stay valid either way.")
    return s


def _crn_sentence(c: dict) -> str:
    if c["saving"] >= 0:
        return (f"Common random numbers saved {100 * c['saving']:.1f}% of the variance of the strategy "
                f"differences: the precision of {c['games_factor']:.2f} times as many games dealt independently.")
    return (f"Common random numbers saved no variance here: the differences vary {-100 * c['saving']:.1f}% more "
            f"than with independent deals (the precision of {c['games_factor']:.2f} times as many games "
            "dealt independently).")


def _seats(res: Results, figs: dict) -> Section:
    df = res.seats[res.seats["part"] == MAIN]
    s = Section("Seat advantage")
    s.fig(figs.get("seat_advantage"), "Win rate by seat with 95% Wilson intervals; dashed: fair share.")
    basis = ", ".join(sorted(df["basis"].unique()))
    s.p(f"Win rate by seat (seat 0 plays first), from {basis}; the unit is the deal.")
    rows = []
    for r in df.itertuples():
        rows.append([r.players, r.seat, f"{r.games:,}", _f(r.win_rate), _ci(r.ci_low, r.ci_high), _f(r.fair_share),
                     _pp(100 * (r.win_rate - r.fair_share))])
    s.table(["players", "seat", "deals", "win rate", "95% interval", "fair share", "edge (points)"], rows)
    return s


def _lengths(res: Results, exp, figs: dict) -> Section:
    s = Section("Game length")
    for col in length_columns(exp.spec):
        s.fig(figs.get(f"length_{col}"), f"Distribution of {col} per game, per player count; line: mean.")
    t = res.length_table[res.length_table["part"] == MAIN]
    s.table(["players", "measure", "games", "mean", "95% interval", "10%", "median", "90%", "max", "unfinished"],
            [[r.players, r.column, f"{r.games:,}", _f(r.mean, 2), _ci(r.ci_low, r.ci_high, 2), _f(r.p10, 0),
              _f(r.median, 0), _f(r.p90, 0), _f(r.max, 0), r.unfinished] for r in t.itertuples()])
    return s


def _cards(res: Results, figs: dict) -> Section | None:
    c = res.cards
    if c is None:
        return None
    s = Section("Balance of cards")
    s.fig(figs.get("card_balance"), "Win rate dealt the card minus not dealt it, percentage points.")
    s.p(f"For each card kind, the win rate of seats dealt at least one in their first hand against "
        f"seats dealt none ({c['basis'].iloc[0] if len(c) else ''}, main rules). Rates are pooled over "
        "player counts with Wilson intervals; the difference is stratified by player count "
        "(Mantel-Haenszel weights) with a normal 95% interval. Card kinds that are never or always "
        "dealt are left out.")
    s.table(["card", "seats dealt", "win rate dealt", "95% interval", "seats not dealt", "win rate not",
             "95% interval", "difference (points)", "95% interval"],
            [[r.card, f"{r.dealt_seats:,}", _f(r.rate_dealt), _ci(r.dealt_low, r.dealt_high),
              f"{r.not_dealt_seats:,}", _f(r.rate_not), _ci(r.not_low, r.not_high), _pp(r.diff_pp),
              f"{_pp(r.ci_low_pp)} to {_pp(r.ci_high_pp)}"] for r in c.itertuples()])
    return s


def _sweep(res: Results, exp, figs: dict) -> Section | None:
    if res.sweep is None:
        return None
    s = Section(f"Rule sweep: {exp.sweep_option}")
    s.p(f"The rule option {exp.sweep_option} takes the values {', '.join(map(str, exp.sweep_values))}; "
        "everything else as in the main rules. Every value is played on the same seed and game indices.")
    s.fig(figs.get("sweep_seats"), "Seat win rates against the option's value (95% intervals).")
    s.fig(figs.get("sweep_strategies"), "Strategy win rates against the option's value (95% intervals).")
    s.fig(figs.get("sweep_length"), "Mean game length against the option's value (95% intervals).")
    cols = length_columns(exp.spec)
    rows = []
    for r in res.sweep.to_dict("records"):
        rows.append([r["value"], r["players"], _f(r["seat_spread_pp"], 2), _pp(r["seat0_edge_pp"]),
                     _f(r["strategy_spread_pp"], 2)]
                    + [f"{_f(r.get(f'mean_{c}'), 2)} ({_ci(r.get(f'{c}_low'), r.get(f'{c}_high'), 2)})" for c in cols]
                    + [r.get("unfinished", 0)])
    s.table([exp.sweep_option, "players", "seat spread (max - min, points)", "seat 0 edge (points)",
             "strategy spread (points)"] + [f"mean {c} (95% interval)" for c in cols] + ["unfinished"], rows)
    seats = res.seats[res.seats["part"] == SWEEP]
    s.table([exp.sweep_option, "players", "seat", "win rate", "95% interval"],
            [[r.sweep_value, r.players, r.seat, _f(r.win_rate), _ci(r.ci_low, r.ci_high)] for r in seats.itertuples()])
    strat = res.strategies[res.strategies["part"] == SWEEP]
    if len(strat):
        s.table([exp.sweep_option, "players", "strategy", "win rate", "95% interval"],
                [[r.sweep_value, r.players, r.strategy, _f(r.win_rate), _ci(r.ci_low, r.ci_high)]
                 for r in strat.itertuples()])
    return s


def _reproduce(config: dict) -> Section:
    s = Section("Reproduce")
    s.p(f"Command: {config['regenerate']} (the same command gives the same games for any number of "
        "threads). Files: results.parquet (one row per game and seat: cell, players, lineup, game, seat, "
        "strategy, win_share, rank and the game's result columns), config.json (the experiment as "
        "resolved: every rule option, line-ups, seed, game ranges, batches, versions, timings).")
    return s


def sections(run, res: Results, figs: dict, config: dict) -> list[Section]:
    exp = run.exp
    out = [_overview(run, res, config), _headlines(run, res), _strategies(res, figs), _comparison(res, figs),
           _crn(res), _seats(res, figs), _lengths(res, exp, figs), _cards(res, figs), _sweep(res, exp, figs),
           _reproduce(config)]
    return [s for s in out if s is not None]


# ------------------------------------------------------------------ writers
def to_markdown(title: str, secs: list[Section]) -> str:
    lines = [f"# {title}", ""]
    for sec in secs:
        lines += [f"## {sec.title}", ""]
        for block in sec.blocks:
            if block[0] == "p":
                lines += [block[1], ""]
            elif block[0] == "fig":
                lines += [f"![{block[2]}]({block[1]})", "", f"*{block[2]}*", ""]
            else:
                _, headers, rows = block
                lines.append("| " + " | ".join(map(str, headers)) + " |")
                lines.append("|" + "|".join("---" for _ in headers) + "|")
                for row in rows:
                    lines.append("| " + " | ".join(str(v).replace("|", "/") for v in row) + " |")
                lines.append("")
    return "\n".join(lines)


_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 1100px; margin: 2em auto; padding: 0 1em; color: #222; }
h1 { border-bottom: 2px solid #444; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: right; }
th { background: #f0f0f0; } td:first-child, th:first-child { text-align: left; }
figure { margin: 1em 0; } figure img { max-width: 100%; } figcaption { font-style: italic; font-size: 0.9em; }
nav a { margin-right: 1em; }
"""


def to_html(title: str, secs: list[Section]) -> str:
    esc = html.escape
    out = ["<!DOCTYPE html>", "<html lang=\"en\"><head><meta charset=\"utf-8\">",
           f"<title>{esc(title)}</title><style>{_STYLE}</style></head><body>", f"<h1>{esc(title)}</h1>",
           "<nav>" + "".join(f'<a href="#s{i}">{esc(s.title)}</a>' for i, s in enumerate(secs)) + "</nav>"]
    for i, sec in enumerate(secs):
        out.append(f'<h2 id="s{i}">{esc(sec.title)}</h2>')
        for block in sec.blocks:
            if block[0] == "p":
                out.append(f"<p>{esc(block[1])}</p>")
            elif block[0] == "fig":
                out.append(f'<figure><img src="{esc(block[1])}" alt="{esc(block[2])}">'
                           f"<figcaption>{esc(block[2])}</figcaption></figure>")
            else:
                _, headers, rows = block
                out.append("<table><thead><tr>" + "".join(f"<th>{esc(str(h))}</th>" for h in headers)
                           + "</tr></thead><tbody>")
                for row in rows:
                    out.append("<tr>" + "".join(f"<td>{esc(str(v))}</td>" for v in row) + "</tr>")
                out.append("</tbody></table>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def write(run, res: Results, figs: dict, config: dict, out_dir: Path) -> None:
    secs = sections(run, res, figs, config)
    title = run.exp.title
    write_text(out_dir / "report.md", to_markdown(title, secs))
    write_text(out_dir / "index.html", to_html(title, secs))


__all__ = ["Section", "sections", "to_markdown", "to_html", "write", "pd"]
