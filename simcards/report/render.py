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
from simcards.report.experiment import MAIN


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
        rows.append([cell.part, "" if cell.part == MAIN else exp.sweep_label(cell.sweep_value),
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


def _verdict(run, res: Results, figs: dict) -> Section | None:
    from simcards.report.inference import verdict_text
    if not res.verdicts:
        return None
    exp = run.exp
    s = Section("Balance verdict")
    s.p(f"Tolerance: a seat may win up to ±{100 * exp.tolerance:.1f} points off its fair share (the "
        "experiment's `tolerance`). Balanced within tolerance: every seat's 95% interval lies inside it; "
        "unbalanced: some seat's interval lies wholly outside it; otherwise undetermined, with about how "
        "many more deals would decide. The equal-seats test is Hotelling's T² on the per-deal seat win "
        "shares (the deal is the unit). Seat edges are measured with every seat playing the strategy "
        "named in 'played by'" + (f" ({exp.mirror_note})" if exp.mirror_note else "") + ".")
    s.fig(figs.get("seat_edges"), "Seat edge (win rate minus fair share) against the player count, "
          "95% intervals; band: the tolerance.")
    s.table(["players", "played by", "deals", "p (all seats equal)", "first-player edge (points)",
             "95% interval", "largest seat edge (points)", "verdict"],
            [[v.players, v.basis, f"{v.deals:,}", _p(v.p_equal), _pp(100 * v.first_edge),
              f"{_pp(100 * v.first_low)} to {_pp(100 * v.first_high)}", _pp(100 * v.max_edge),
              verdict_text(v, exp.tolerance)] for v in res.verdicts])
    by_count: dict[int, set] = {}
    for v in res.verdicts:
        by_count.setdefault(v.players, set()).add(v.verdict)
    split = [n for n, kinds in by_count.items() if len(kinds) > 1]
    if split:
        s.p("The strategies disagree at " + ", ".join(f"{n} players" for n in split) + ": the seat advantage "
            "depends on how well the game is played, so a verdict from one level of skill does not carry over.")
    elif len({v.basis for v in res.verdicts}) > 1:
        s.p("The verdicts agree under every strategy played.")
    return s


def _skill(run, res: Results) -> Section | None:
    table = res.skill
    if table is None or table.empty:
        return None
    strong = table["strongest"].iloc[0]
    edges = [c for c in table.columns if c.startswith("first_edge ")]
    s = Section("Skill index")
    s.p(f"How much the game rewards skill: one seat plays `{strong}`, every other seat `random`, each "
        "deal with the strong seat in every position (net of seat); its win rate has a 95% t interval "
        "over deals. 'Players explain' is the share of the variance of a seat's outcome (win share) "
        "explained by who plays it, the rest being the deal and the seat (R² of the outcome on the "
        "player; a description of these line-ups, no interval). The first-seat edges are the "
        "balance verdict's, under each mirror: how the seat advantage changes with the level of play.")
    s.table(["players", "strongest", "deals", "its win rate", "95% interval", "fair share",
             "edge over fair (points)", "players explain"]
            + [f"first-seat edge, {c[len('first_edge '):]} mirrors (points)" for c in edges],
            [[int(r["players"]), r["strongest"], f"{int(r['deals']):,}", _f(r["win_rate"]),
              _ci(r["ci_low"], r["ci_high"]), _f(r["fair_share"]),
              _pp(100 * (r["win_rate"] - r["fair_share"])), f"{100 * r['variance_share']:.1f}%"]
             + [_pp(100 * r[c]) if c in r and r[c] == r[c] else "" for c in edges]
             for _, r in table.iterrows()])
    return s


def _headlines(run, res: Results) -> Section:
    s = Section("Headlines")
    lines = []
    if res.skill is not None and not res.skill.empty:
        from simcards.report.skill import skill_sentence
        lines.append(skill_sentence(res.skill))
    if res.rating is not None:
        top = res.rating.table.iloc[0]
        lines.append(f"Strongest strategy: {top['strategy']} (Plackett-Luce strength {top['strength']:+.2f}, "
                     f"95% interval {_ci(top['ci_low'], top['ci_high'], 2)}).")
    if len(res.pairs):
        sig = res.pairs[res.pairs["significant"]]
        lines.append(f"{len(sig)} of {len(res.pairs)} strategy pairs differ significantly after Holm's "
                     "correction (paired on deals).")
    seats = res.seats[res.seats["part"] == MAIN].copy()
    if len(seats):
        seats["edge"] = seats["win_rate"] - seats["fair_share"]
        row = seats.loc[seats["edge"].abs().idxmax()]
        outside = seats[(seats["ci_low"] > seats["fair_share"]) | (seats["ci_high"] < seats["fair_share"])]
        lines.append(f"Largest seat effect measured: seat {row['seat']} at {row['players']} players "
                     f"({row['basis']}) wins "
                     f"{row['win_rate']:.3f} against a fair share of {row['fair_share']:.3f} "
                     f"({100 * row['edge']:+.1f} points; interval {_ci(row['ci_low'], row['ci_high'])}). "
                     f"{len(outside)} of {len(seats)} seat win rates have an interval that excludes the "
                     "fair share.")
    if res.cards is not None and len(res.cards):
        c = res.cards.loc[res.cards["diff_pp"].abs().idxmax()]
        clear = res.cards[res.cards["significant"]]
        lines.append(f"Card with the largest measured effect: {c['card']} ({c['diff_pp']:+.1f} points for a "
                     f"seat dealt it, interval {c['ci_low_pp']:+.1f} to {c['ci_high_pp']:+.1f}). Cards with an "
                     f"effect after Benjamini-Hochberg's correction over {len(res.cards)} cards: "
                     f"{', '.join(clear['card']) or 'none'}.")
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
    s.fig(figs.get("strategy_win_rates"), "Win rate per strategy with 95% intervals; dashed: fair share.")
    s.p("A strategy's score in a deal is the mean win share of its seats, averaged over the line-ups "
        "(every seat order of the design) that hold it, so it is net of seat; mirror line-ups are left out. "
        "The deal (game index) is the unit: intervals are t intervals over the deal scores.")
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
            "head to head with probability 1/(1+e^-d). Intervals: normal, with standard errors from "
            "refits (choix) on bootstrap resamples of whole deals.")
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
    s.fig(figs.get("seat_advantage"), "Win rate by seat with 95% intervals; dashed: fair share.")
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
    return s


def _lengths(res: Results, exp, figs: dict) -> Section:
    s = Section("Game length")
    for col in length_columns(exp.spec):
        s.fig(figs.get(f"length_{col}"), f"Distribution of {col} per game, per player count; line: mean.")
    t = res.length_table[res.length_table["part"] == MAIN]
    s.table(["players", "measure", "games", "mean", "95% interval", "10%", "median", "90%", "max", "unfinished"],
            [[r.players, r.column, f"{r.games:,}", _f(r.mean, 2), _ci(r.ci_low, r.ci_high, 2), _f(r.p10, 0),
              _f(r.median, 0), _f(r.p90, 0), _f(r.max, 0), r.unfinished] for r in t.itertuples()])
    d = res.designer
    if d is not None:
        s.p(f"In minutes, at {exp.seconds_per_turn:g} s per {d.minutes['column'].iloc[0] if len(d.minutes) else 'turn'} "
            "(the experiment's `seconds_per_turn`):")
        s.table(["players", "mean minutes", "95% interval"],
                [[r.players, _f(r.mean, 1), _ci(r.ci_low, r.ci_high, 1)] for r in d.minutes.itertuples()])
    return s


def _designer(res: Results) -> Section | None:
    d = res.designer
    if d is None:
        return None
    s = Section("How games play out")
    if len(d.closeness):
        s.p(f"Closeness: the winner's margin over the best other player in {d.closeness['score'].iloc[0]} at the "
            "end (finished games with one winner, main rules, all line-ups); the deal is the unit.")
        s.table(["players", "deals", "mean margin", "95% interval", "share won by 1 or less"],
                [[r.players, f"{r.deals:,}", _f(r.mean, 2), _ci(r.ci_low, r.ci_high, 2), _f(r.share_by_one)]
                 for r in d.closeness.itertuples()])
    if len(d.leader):
        s.p("The early leader: how often the sole leader after a round (cumulated round scores) wins the game.")
        s.table(["players", "leader after", "deals", "leader wins", "95% interval"],
                [[r.players, r.after, f"{r.deals:,}", _f(r.mean), _ci(r.ci_low, r.ci_high)]
                 for r in d.leader.itertuples()])
    for note in d.notes:
        s.p(note)
    return s


def _cards(res: Results, figs: dict) -> Section | None:
    c = res.cards
    if c is None:
        return None
    s = Section("Balance of cards")
    s.fig(figs.get("card_balance"), "Win rate dealt the card minus not dealt it, percentage points.")
    s.p(f"For each card kind, the win rate of seats dealt at least one in their first hand against "
        f"seats dealt none ({c['basis'].iloc[0] if len(c) else ''}, main rules). The difference is the "
        "coefficient of an OLS of the seat's win share on 'dealt' with one constant per player count; "
        "every standard error is clustered by deal (a deal's hands repeat in every line-up and its seats "
        "share one winner). p-values are corrected over all the cards at once by Benjamini-Hochberg "
        "(false discovery rate 5%). Card kinds that are never or always dealt are left out.")
    s.table(["card", "seats dealt", "win rate dealt", "95% interval", "seats not dealt", "win rate not",
             "95% interval", "difference (points)", "95% interval", "p (BH)", "significant"],
            [[r.card, f"{r.dealt_seats:,}", _f(r.rate_dealt), _ci(r.dealt_low, r.dealt_high),
              f"{r.not_dealt_seats:,}", _f(r.rate_not), _ci(r.not_low, r.not_high), _pp(r.diff_pp),
              f"{_pp(r.ci_low_pp)} to {_pp(r.ci_high_pp)}", _p(r.p_bh), "yes" if r.significant else "no"]
             for r in c.itertuples()])
    return s


def _sweep(res: Results, exp, figs: dict) -> Section | None:
    if res.sweep is None:
        return None
    if exp.grid_option is not None:
        return _grid(res, exp, figs)
    s = Section(f"Rule sweep: {exp.sweep_option}")
    s.p(f"The rule option {exp.sweep_option} takes the values {', '.join(map(str, exp.sweep_values))}; "
        f"everything else as in the main rules. Each value is compared with the default "
        f"({exp.sweep_option}={exp.sweep_default}, the main cell, not played again) on the same deals: the "
        "effect is the mean per-deal difference with its paired 95% t interval; p-values corrected over "
        "the whole sweep by Holm's method. Win rates in points, lengths in their own unit.")
    s.fig(figs.get("sweep_effects"), "Effect of each value against the default (95% intervals); filled: "
          "significant after Holm.")
    s.table([exp.sweep_option, "players", "measure", "deals", "effect", "95% interval", "p (Holm)", "significant"],
            [[r.value, r.players, r.measure, f"{r.deals:,}", _pp(r.effect), f"{_pp(r.ci_low)} to {_pp(r.ci_high)}",
              _p(r.p_adjusted), "yes" if r.significant else "no"] for r in res.sweep.itertuples()])
    return s


def _grid(res: Results, exp, figs: dict) -> Section:
    a, b = exp.sweep_option, exp.grid_option
    s = Section(f"Rule grid: {a} × {b}")
    s.p(f"Two rule options swept together: {a} takes the values {', '.join(map(str, exp.sweep_values))} and "
        f"{b} the values {', '.join(map(str, exp.grid_values))}, every pair of them; everything else as in the "
        f"main rules. Each pair is compared with the defaults ({a}={exp.sweep_default}, {b}={exp.grid_default}: "
        "the main cell, not played again) on the same deals: the effect is the mean per-deal difference with "
        "its paired 95% t interval. The grid's many cells are screened together, so p-values are corrected "
        "by Benjamini-Hochberg (false discovery rate 5%) over the whole grid. Win rates in points, lengths in "
        "their own unit.")
    s.fig(figs.get("sweep_grid"), f"Effect of each pair of values against the defaults, {a} down and {b} "
          "across; outlined with *: significant after Benjamini-Hochberg; 'default': the baseline itself.")
    s.table([a, b, "players", "measure", "deals", "effect", "95% interval", "p (BH)", "significant"],
            [[r.value, r.value2, r.players, r.measure, f"{r.deals:,}", _pp(r.effect),
              f"{_pp(r.ci_low)} to {_pp(r.ci_high)}", _p(r.p_adjusted), "yes" if r.significant else "no"]
             for r in res.sweep.itertuples()])
    return s


def _reproduce(config: dict) -> Section:
    s = Section("Reproduce")
    s.p(f"Command: {config['regenerate']} (the same command gives the same games for any number of "
        "threads). Files: results.parquet (one row per game and seat: cell, players, lineup, game, seat, "
        "strategy, win_share, rank and the game's result columns), config.json (the experiment as "
        "resolved: every rule option, line-ups, seed, game ranges, batches, versions, timings), summary.json "
        "(one record per estimate, for `simcards report --compare A B`).")
    return s


def sections(run, res: Results, figs: dict, config: dict) -> list[Section]:
    exp = run.exp
    out = [_verdict(run, res, figs), _skill(run, res), _overview(run, res, config), _headlines(run, res),
           _strategies(res, figs),
           _comparison(res, figs), _crn(res), _seats(res, figs), _lengths(res, exp, figs), _designer(res),
           _cards(res, figs), _sweep(res, exp, figs), _reproduce(config)]
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
