"""The balance report: the answer first (the recommended rules, or that none met the targets and
what came closest), the default rules beside them, the trade-off drawn, the method folded away.

Written with the report's page builder (simcards.report.page: sections, phone-readable HTML,
``--single-file``) and its figure rules (simcards.report.plots: dots with intervals, legends
outside the data, nothing clipped, 200 dpi).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from simcards.outputs import write_file, write_text
from simcards.report.inference import BALANCED, UNBALANCED
from simcards.report.page import Section, embed_images, to_html, to_markdown

if TYPE_CHECKING:
    from simcards.balancing.confirm import Confirmed
    from simcards.balancing.result import BalanceResult

TRADEOFF = "tradeoff.png"


def _pp(x: float) -> str:
    return f"{100 * x:+.2f}"


def _values(values: dict) -> str:
    return ", ".join(f"{k} = {v}" for k, v in values.items())


def _changed(c: "Confirmed", default: dict) -> str:
    diff = {k: v for k, v in c.values.items() if default.get(k) != v}
    return _values(diff) if diff else "no change (the default rules)"


def _badge(v: dict, tolerance: float) -> tuple[str, str]:
    if v["verdict"] == BALANCED:
        return "fair", f"fair within ±{100 * tolerance:.1f} points"
    side = "favoured" if v["worst_edge"] > 0 else "disfavoured"
    text = (f"seat {v['worst_seat']} {side} by {100 * abs(v['worst_edge']):.2f} points "
            f"[{_pp(v['worst_low'])}, {_pp(v['worst_high'])}]")
    return ("unfair", text) if v["verdict"] == UNBALANCED else ("undecided", "undecided: " + text)


def _badges(c: "Confirmed", tolerance: float) -> str:
    import html
    out = []
    for v in c.verdicts:
        kind, text = _badge(v, tolerance)
        out.append(f'<span class="badge {kind}">{v["players"]} players, {html.escape(v["mirror"])}: '
                   f"{html.escape(text)}</span>")
    return '<div class="badges">' + "".join(out) + "</div>"


def _time(c: "Confirmed") -> str:
    return "; ".join(f"{n} players: median {m['median']:.1f} min ({m['p10']:.1f}-{m['p90']:.1f})"
                     for n, m in sorted(c.minutes.items()))


def _skill(c: "Confirmed") -> str:
    if not c.skill:
        return "not measured (every mirror is random)"
    return "; ".join(f"{n} players: {s['logodds']:.2f} [{s['logodds_low']:.2f}, {s['logodds_high']:.2f}]"
                     for n, s in sorted(c.skill.items()))


def answer(result: "BalanceResult") -> Section:
    cfg, best, default = result.config, result.closest, result.default
    tol = cfg.exp.tolerance
    s = Section("The answer", "answer")
    mirrors = " and ".join(cfg.mirrors)
    if result.found:
        s.p(f"Recommended: {_changed(best, default.values)}. With it every seat is within ±{100 * tol:.1f} points "
            f"of its fair share at {', '.join(map(str, cfg.exp.players))} players under {mirrors} mirrors, "
            f"confirmed on {best.deals:,} fresh deals (the report's equivalence tests, Holm across seats, "
            f"player counts and mirrors), and the game time and skill targets are met.")
    else:
        s.p(f"Nothing within the ranges searched meets every target. Closest: {_changed(best, default.values)}, "
            f"which misses: {'; '.join(best.misses)}. The ranges: "
            + "; ".join(f"{a.name} {a.describe()}" for a in cfg.axes) + ".")
    name = "Recommended rules" if result.found else "Closest rules"
    if cfg.exp.description:
        s.p(cfg.exp.description)
    s.raw(f"<p><b>{name}</b></p>{_badges(best, tol)}<p><b>Default rules</b></p>{_badges(default, tol)}",
          f"{name}: " + "; ".join(_badge(v, tol)[1] for v in best.verdicts)
          + "\n\nDefault: " + "; ".join(_badge(v, tol)[1] for v in default.verdicts))
    which = "recommended" if result.found else "closest"
    s.items([f"Worst seat: {_pp(best.worst['worst_edge'])} points [{_pp(best.worst['worst_low'])}, "
             f"{_pp(best.worst['worst_high'])}] with the {which} rules (seat {best.worst['worst_seat']}, "
             f"{best.worst['players']} players, {best.worst['mirror']}), against "
             f"{_pp(default.worst['worst_edge'])} [{_pp(default.worst['worst_low'])}, "
             f"{_pp(default.worst['worst_high'])}] with the default rules "
             f"(seat {default.worst['worst_seat']}, {default.worst['players']} players, {default.worst['mirror']}).",
             f"Game time: {_time(best)}; default rules: {_time(default)}.",
             *_fairest(result),
             f"Skill (log-odds gap of {cfg.strong or 'the strongest mirror'} over random players): {_skill(best)}; "
             f"default rules: {_skill(default)}.",
             f"Wall time: {result.seconds['total'] / 60:.1f} minutes ({result.seconds['search'] / 60:.1f} searching "
             f"{len(result.trials)} rule sets, {result.seconds['confirm'] / 60:.1f} confirming"
             + (f", over {result.seconds['processes']} runs of the command" if result.seconds.get("processes", 1) > 1
                else "") + ").",
             f"The {which} rules as an experiment: recommended.toml (`simcards report recommended.toml` regenerates "
             f"their balance report)."])
    s.fig(TRADEOFF if (result.folder and (Path(result.folder) / TRADEOFF).is_file()) else None,
          "Every rule set tried: its worst seat's distance from fair against game time and against skill "
          "(search deals, grey); the confirmed ones with their intervals on fresh deals.")
    return s


def _fairest(result: "BalanceResult") -> list[str]:
    """The fairest confirmed rule set when it is not the one shown (it misses the time or skill
    target): what fairness alone would cost."""
    fairest = min([result.default] + result.candidates, key=lambda c: c.bound)
    if fairest is result.closest or fairest.values == result.closest.values:
        return []
    w = fairest.worst
    return [f"Fairest rule set confirmed, whatever its time and skill: {_changed(fairest, result.default.values)}, "
            f"worst seat {_pp(w['worst_edge'])} points [{_pp(w['worst_low'])}, {_pp(w['worst_high'])}]; it misses: "
            + "; ".join(m for m in fairest.misses) + "."]


def comparison(result: "BalanceResult") -> Section:
    s = Section("Default and confirmed rule sets", "confirmed")
    s.p("Each rule set played again on fresh deals, as `simcards report` plays an experiment: the sequential "
        "verdict, every seat's equivalence test. Edges in points (win share minus fair share).")
    rows = []
    # a candidate that is the default rules is shown once, as the default
    for c in [result.default] + [c for c in result.candidates if c.values != result.default.values]:
        for v in c.verdicts:
            m = c.minutes.get(v["players"], {})
            sk = c.skill.get(v["players"])
            rows.append([c.label, _changed(c, result.default.values), v["players"], v["mirror"], v["verdict"],
                         f"seat {v['worst_seat']}", _pp(v["worst_edge"]),
                         f"{_pp(v['worst_low'])} to {_pp(v['worst_high'])}", f"{v['deals']:,}",
                         f"{m.get('median', float('nan')):.1f}" if m else "n/a",
                         f"{sk['logodds']:.2f}" if sk else "n/a",
                         "yes" if c.meets else "no: " + "; ".join(c.misses)])
    s.table(["rule set", "changes", "players", "mirror", "verdict", "worst seat", "edge", "95% interval",
             "deals", "median minutes", "skill gap", "meets the targets"], rows)
    return s


def trials_section(result: "BalanceResult") -> Section:
    s = Section("The search", "search", collapsed=True)
    live = [t for t in result.trials if not t.measure.pruned]
    invalid = sum(bool(t.measure.invalid) for t in result.trials)
    s.p(f"{len(result.trials)} rule sets tried ({len(result.trials) - len(live) - invalid} stopped early as "
        f"hopeless, {invalid} that the game does not allow skipped), "
        f"each on the same {result.config.games:,} deals of every mirror at every player count. "
        "The ten best by their worst seat's interval:")
    from simcards.balancing.search import ranked
    rows = [[t.number, _values(t.values), _pp(t.measure.worst["edge"]),
             f"{t.measure.worst['players']} players, {t.measure.worst['mirror']}, seat {t.measure.worst['seat']}",
             f"{100 * t.measure.bound:.2f}", f"{100 * t.time_change:+.1f}%", "yes" if t.feasible else "no",
             f"{t.seconds:.1f}"] for t in ranked(result.trials)[:10]]
    s.table(["trial", "rules", "worst edge", "where", "bound (points)", "time change", "meets constraints",
             "seconds"], rows)
    s.p("Every trial: trials.csv; optuna's storage of the study: study.db.")
    return s


def method(result: "BalanceResult") -> Section:
    cfg = result.config
    s = Section("Method", "method", collapsed=True)
    s.items([
        f"Search: optuna's TPE sampler (multivariate, seeded by {cfg.exp.seed} and the trial number) over "
        + "; ".join(f"{a.name} {a.describe()}" for a in cfg.axes)
        + f"; {cfg.trials} trials, the first the experiment's own rules. Two objectives, both minimized: the "
          "bound (the largest end of any seat's 95% edge interval, under any mirror at any player count: the "
          "tolerance an equivalence test would need) and the game time's change against the default rules.",
        "Constraints: " + "; ".join(filter(None, [
            f"mean game time within ±{100 * cfg.time_change:.0f}% of the default rules'" if cfg.time_change else "",
            f"mean game time {cfg.minutes[0]:g}-{cfg.minutes[1]:g} minutes" if cfg.minutes else "",
            f"skill gap of {cfg.strong} over random at least {cfg.skill_floor:g}" if cfg.skill_floor is not None
            else ""])) + " (optuna's constraints: TPE samples near the rule sets that meet them).",
        "Common deals: every trial plays deals 0.. of the same seed, so two rule sets differ by their rules, "
        "not by the luck of the deal; a mirror's seats differ only by position.",
        "Pruning: after a quarter of the deals, a trial whose worst seat is three standard errors beyond the "
        "best bound so far is stopped (optuna's pruners judge one objective only).",
        f"Confirmation on fresh deals (seed {cfg.confirm_seed}): the default rules and the {cfg.confirm} best "
        "candidates, with the report's sequential verdict (power-planned looks, each at alpha / looks; TOST per "
        f"seat at alpha {cfg.exp.alpha:g}; Holm across seats, player counts and mirrors). The best of many "
        "noisy trials is biased toward luck, so only the fresh deals decide.",
        "Skill: the report's skill index, the log-odds gap of the strongest mirror over random players "
        "(0: no better than random).",
        "Game time: each game's turns (and any [seconds] columns) times their seconds, under the first mirror.",
    ])
    return s


def sections(result: "BalanceResult") -> list[Section]:
    return [answer(result), comparison(result), trials_section(result), method(result)]


def summary(result: "BalanceResult") -> dict:
    return {"game": result.config.exp.spec.name, "found": result.found,
            "recommended": None if result.recommended is None else result.recommended.to_dict(),
            "closest": result.closest.to_dict(), "default": result.default.to_dict(),
            "candidates": [c.to_dict() for c in result.candidates],
            "trials": len(result.trials), "pruned": sum(t.measure.pruned for t in result.trials),
            "pareto": sorted(int(n) for n in trials_frame(result).query("pareto")["trial"]),
            "seconds": result.seconds, "config": result.config.to_dict()}


def trials_frame(result: "BalanceResult"):
    """One row per trial; ``pareto``: no other trial is better on both objectives (optuna's
    ``best_trials`` of the study)."""
    import pandas as pd
    from simcards.balancing.search import pareto
    front = {t.number for t in pareto(result.trials)}
    rows = []
    for t in result.trials:
        m = t.measure
        rows.append({"trial": t.number, **t.values, "pruned": m.pruned, "invalid": m.invalid,
                     "bound": m.bound, "worst_edge": m.worst.get("edge"),
                     "worst_players": m.worst.get("players"), "worst_mirror": m.worst.get("mirror"),
                     "worst_seat": m.worst.get("seat"), "time_change": t.time_change, "feasible": t.feasible,
                     "mean_minutes": max((x["mean"] for x in m.minutes.values()), default=None),
                     "skill": m.skill_min, "pareto": t.number in front, "seconds": t.seconds})
    return pd.DataFrame(rows)


def plot(result: "BalanceResult", path: Path) -> None:
    """Worst seat (points) against mean game time and against skill: trials grey, the confirmed
    rule sets with their fresh-deal intervals, the default and the recommendation marked."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from simcards.report.plots import DPI
    df = trials_frame(result)
    live = df[~df["pruned"]]
    has_skill = live["skill"].notna().any()
    fig, axes = plt.subplots(1, 2 if has_skill else 1, figsize=(10 if has_skill else 5.5, 3.8), squeeze=False,
                             layout="constrained", sharex=True)
    axes = list(axes.flat)
    tol = 100 * result.config.exp.tolerance
    panels = [("mean_minutes", "mean game time (minutes)", "minutes")]
    if has_skill:
        panels.append(("skill", "skill: log-odds gap over random", "skill"))
    for ax, (col, label, kind) in zip(axes, panels):
        ax.axvspan(0, tol, color="#dafbe1", zorder=0, label=f"within ±{tol:g} points")
        ax.scatter(100 * live["worst_edge"].abs(), live[col], s=14, color="0.6", label="trials (search deals)",
                   zorder=2)
        for c, colour, marker in [(result.default, "#cf222e", "s")] + [
                (c, "#0969da" if c is result.closest else "#8250df", "o") for c in result.candidates]:
            w = c.worst
            x = 100 * abs(w["worst_edge"])
            lo, hi = sorted([100 * abs(w["worst_low"]), 100 * abs(w["worst_high"])])
            if w["worst_low"] < 0 < w["worst_high"]:
                lo = 0.0
            if kind == "minutes":
                y = max(m["mean"] for m in c.minutes.values())
            else:
                if not c.skill:
                    continue
                y = min(s["logodds"] for s in c.skill.values())
            ax.errorbar([x], [y], xerr=[[x - lo], [hi - x]], fmt=marker, color=colour, ms=7, capsize=3, zorder=3,
                        label=("default rules" if c is result.default else
                               ("recommended" if c is result.recommended else
                                "closest" if c is result.closest else "other confirmed")))
        ax.set_xlabel("worst seat's distance from fair (points)")
        ax.set_ylabel(label)
        ax.set_xlim(left=0)
    handles, labels = [], []
    for ax in axes:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            if lab not in labels:
                handles.append(h)
                labels.append(lab)
    fig.legend(handles, labels, loc="outside lower center", ncol=min(len(labels), 5), fontsize=8, frameon=False)
    fig.savefig(path, format="png", dpi=DPI, bbox_inches="tight", pad_inches=0.05)
    plt.close(fig)


def write_page(result: "BalanceResult", folder: Path, single_file: bool = False) -> None:
    folder = Path(folder)
    write_file(folder / TRADEOFF, lambda tmp: plot(result, tmp))
    write_file(folder / "trials.csv", lambda tmp: trials_frame(result).to_csv(tmp, index=False))
    write_text(folder / "summary.json", json.dumps(summary(result), indent=1, default=str) + "\n")
    title = f"{result.config.exp.title}: balance search"
    secs = sections(result)
    write_text(folder / "report.md", to_markdown(title, secs))
    page = to_html(title, secs, folder)
    write_text(folder / "index.html", embed_images(page, folder) if single_file else page)
