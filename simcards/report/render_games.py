"""How games run: how long a game is, when players go out, how close games are."""
from __future__ import annotations

import html

from simcards.report.analysis import Results, length_columns
from simcards.report.experiment import MAIN
from simcards.report.page import Section
from simcards.report.render_format import _ci, _f, _minutes
from simcards.report.render_read import _cost_text, _time_rows


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
