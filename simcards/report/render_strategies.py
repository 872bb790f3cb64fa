"""Which strategy wins? Win rates, every pair compared, strengths, head to head, and what the
common random numbers saved."""
from __future__ import annotations

import math

from simcards.report.analysis import Results
from simcards.report.experiment import MAIN
from simcards.report.page import Section
from simcards.report.render_format import _adjusted, _ci, _f, _p, _pp


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
