"""Changing the rules: one rule option swept over values, or two as a grid, against the
defaults on the same deals."""
from __future__ import annotations

from simcards.report.analysis import Results
from simcards.report.page import Section
from simcards.report.render_format import _adjusted, _p, _pp


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
