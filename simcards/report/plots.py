"""The report's figures: matplotlib (Agg), one function per figure, each writes one PNG.

Every function returns the file name it wrote (relative to the report folder),
or None when the experiment has nothing to show for it. The numbers behind
each figure are printed beside it by render.py.

The rules every figure keeps: estimates are dots with their 95% intervals (never
bars from zero, which hide a 1-2 point edge); legends sit outside the data;
panels that compare share one y scale; an axis holds one unit; a constant is
said in words, not drawn; the layout is constrained and saved with a tight
bounding box, so no label is clipped; 200 dpi, sharp on a high-resolution screen.
"""
from __future__ import annotations

import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from simcards.report.analysis import ALL_LINEUPS, Results, length_columns  # noqa: E402
from simcards.outputs import atomic  # noqa: E402
from simcards.report.experiment import MAIN, Experiment  # noqa: E402

DPI = 200
FAIR = dict(color="0.35", linestyle="--", linewidth=1)
BAND = dict(color="0.92", zorder=0)
#: Largest width of a figure, inches: the page is 1100 CSS pixels wide at most.
MAX_WIDTH = 11.0


def _grid(n: int, width: float = 4.0, height: float = 3.0, cols: int = 3, sharey: bool = False,
          sharex: bool = False):
    cols = min(cols, n)
    rows = math.ceil(n / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(min(width * cols, MAX_WIDTH), height * rows), squeeze=False,
                             sharey=sharey, sharex=sharex, layout="constrained")
    for ax in axes.flat[n:]:
        ax.set_visible(False)
    return fig, list(axes.flat[:n])


def _save(fig, out_dir: Path, name: str) -> str:
    with atomic(out_dir / name) as tmp:   # a plot appears under its name only when complete
        fig.savefig(tmp, dpi=DPI, bbox_inches="tight", pad_inches=0.05)
    plt.close(fig)
    return name


def _errors(df: pd.DataFrame, value: str = "win_rate", low: str = "ci_low", high: str = "ci_high",
            scale: float = 1.0) -> np.ndarray:
    return scale * np.vstack([df[value] - df[low], df[high] - df[value]]).clip(0)


def _legend_below(fig, handles, labels, ncol: int | None = None) -> None:
    """One legend for the figure, under its panels (outside every axis)."""
    if handles:
        fig.legend(handles, labels, loc="outside lower center", ncol=ncol or min(len(labels), 6), fontsize=8,
                   frameon=False)


def strategy_win_rates(res: Results, exp: Experiment, out_dir: Path) -> str | None:
    df = res.strategies[res.strategies["part"] == MAIN]
    if df.empty:
        return None
    counts = sorted(df["players"].unique())
    fig, axes = _grid(len(counts), height=1.1 + 0.35 * df["strategy"].nunique(), sharex=True)
    for ax, n in zip(axes, counts):
        d = df[df["players"] == n].sort_values("win_rate")
        y = np.arange(len(d))
        ax.errorbar(100 * d["win_rate"], y, xerr=_errors(d, scale=100), fmt="o", color="tab:blue", capsize=3)
        ax.axvline(100 * d["fair_share"].iloc[0], **FAIR)
        ax.set_yticks(y, d["strategy"])
        ax.set_ylim(-0.6, len(d) - 0.4)
        for yi, rate in zip(y, d["win_rate"]):
            ax.annotate(f"{100 * rate:.1f}%", (100 * rate, yi), xytext=(0, 5), textcoords="offset points",
                        fontsize=7, ha="center")
        ax.set_title(f"{n} players (dashed: fair share)", fontsize=9)
        ax.set_xlabel("win rate, % (95% interval)")
        ax.tick_params(labelbottom=True)
    return _save(fig, out_dir, "strategy_win_rates.png")


def _seat_edge_frame(res: Results) -> pd.DataFrame:
    df = res.seats[res.seats["part"] == MAIN].copy()
    df["edge"] = 100 * (df["win_rate"] - df["fair_share"])
    df["edge_low"] = 100 * (df["ci_low"] - df["fair_share"])
    df["edge_high"] = 100 * (df["ci_high"] - df["fair_share"])
    return df


def seat_advantage(res: Results, exp: Experiment, out_dir: Path) -> str | None:
    """Every seat's edge over its fair share (points), one panel per player count on one y scale,
    one colour per basis, the tolerance as a band."""
    df = _seat_edge_frame(res)
    if df.empty:
        return None
    counts = sorted(df["players"].unique())
    bases = list(dict.fromkeys(df["basis"]))
    step = 0.5 / max(len(bases), 1)
    fig, axes = _grid(len(counts), width=3.6, height=2.8, cols=3, sharey=True)
    handles = []
    for ax, n in zip(axes, counts):
        ax.axhspan(-100 * exp.tolerance, 100 * exp.tolerance, **BAND)
        ax.axhline(0, **FAIR)
        for k, basis in enumerate(bases):
            d = df[(df["players"] == n) & (df["basis"] == basis)].sort_values("seat")
            x = d["seat"] + step * (k - (len(bases) - 1) / 2)
            h = ax.errorbar(x, d["edge"], yerr=_errors(d, "edge", "edge_low", "edge_high"), fmt="o", capsize=2,
                            markersize=4, color=f"C{k}",
                            label=f"played by {basis}" if basis != ALL_LINEUPS else basis)
            if ax is axes[0]:
                handles.append(h)
        ax.set_xticks(range(n))
        ax.set_xlim(-0.6, n - 0.4)
        ax.set_xlabel("seat (0 plays first)")
        ax.set_title(f"{n} players", fontsize=9)
    for ax in axes[::3]:
        ax.set_ylabel("edge over fair share (points)")
    _legend_below(fig, handles, [h.get_label() for h in handles])
    return _save(fig, out_dir, "seat_advantage.png")


def seat_edges(res: Results, exp: Experiment, out_dir: Path) -> str | None:
    """Every seat's edge over its fair share against the player count, one panel per basis on one
    y scale, with the tolerance band; the seats' legend below the panels."""
    df = _seat_edge_frame(res)
    if df.empty or not res.verdicts:
        return None
    bases = list(dict.fromkeys(df["basis"]))
    fig, axes = _grid(len(bases), width=5.0, height=3.2, cols=2, sharey=True)
    seats = sorted(df["seat"].unique())
    handles = {}
    for ax, basis in zip(axes, bases):
        d = df[df["basis"] == basis]
        ax.axhspan(-100 * exp.tolerance, 100 * exp.tolerance, **BAND)
        ax.axhline(0, **FAIR)
        for seat, s in d.groupby("seat"):
            x = s["players"] + 0.07 * (seat - (len(seats) - 1) / 2)
            handles[seat] = ax.errorbar(x, s["edge"], yerr=_errors(s, "edge", "edge_low", "edge_high"), fmt="o",
                                        capsize=2, markersize=3.5, color=f"C{seat}", label=f"seat {seat}")
        ax.set_xticks(sorted(d["players"].unique()))
        ax.set_xlabel("players")
        ax.set_title(f"every seat played by {basis}" if basis != ALL_LINEUPS else "all line-ups of the tournament",
                     fontsize=9)
    axes[0].set_ylabel("edge over fair share (points)")
    _legend_below(fig, [handles[s] for s in sorted(handles)], [f"seat {s}" for s in sorted(handles)], ncol=7)
    return _save(fig, out_dir, "seat_edges.png")


def pairwise_differences(res: Results, exp: Experiment, out_dir: Path) -> str | None:
    """Every pair's difference: one panel per player count with the pairs down one shared axis, or
    where there are few rows, one panel with a row per pair and player count."""
    df = res.pairs
    if df.empty:
        return None
    counts = sorted(df["players"].unique())
    few = len(df) <= 16
    label = (lambda r: f"{r.a} − {r.b}, {r.players} players") if few else (lambda r: f"{r.a} − {r.b}")
    names = list(dict.fromkeys(label(r) for r in df.itertuples()))
    row = {p: i for i, p in enumerate(reversed(names))}
    panels = [df] if few else [df[df["players"] == n] for n in counts]
    fig, axes = plt.subplots(1, len(panels), figsize=(min(3.2 + 2.6 * len(panels), MAX_WIDTH) if not few else 6.5,
                                                      1.0 + 0.28 * len(names)),
                             sharey=True, sharex=True, squeeze=False, layout="constrained")
    axes = list(axes.flat)
    for ax, d in zip(axes, panels):
        for r in d.itertuples():
            color = "tab:red" if r.significant else "0.5"
            ax.errorbar([r.diff_pp], [row[label(r)]],
                        xerr=[[max(r.diff_pp - r.ci_low_pp, 0)], [max(r.ci_high_pp - r.diff_pp, 0)]],
                        fmt="o", color=color, capsize=2, markersize=4)
        ax.axvline(0, **FAIR)
        if not few:
            ax.set_title(f"{d['players'].iloc[0]} players", fontsize=9)
        ax.set_xlabel("A − B, points")
        ax.tick_params(labelbottom=True)
    axes[0].set_yticks(list(row.values()), list(row.keys()), fontsize=8)
    axes[0].set_ylim(-0.7, len(names) - 0.3)
    fig.suptitle("Difference in win rate (95% intervals); red: a real difference\nafter correcting "
                 "for the many pairs", fontsize=9)
    return _save(fig, out_dir, "pairwise_differences.png")


def rating(res: Results, exp: Experiment, out_dir: Path) -> str | None:
    if res.rating is None:
        return None
    t = res.rating.table.iloc[::-1]
    fig, ax = plt.subplots(figsize=(6.5, 0.8 + 0.35 * len(t)), layout="constrained")
    y = np.arange(len(t))
    ax.errorbar(t["strength"], y, xerr=np.vstack([t["strength"] - t["ci_low"], t["ci_high"] - t["strength"]]),
                fmt="o", capsize=3)
    for yi, s in zip(y, t["strength"]):
        ax.annotate(f"{s:+.2f}", (s, yi), xytext=(0, 5), textcoords="offset points", fontsize=7, ha="center")
    ax.set_yticks(y, t["strategy"])
    ax.set_ylim(-0.6, len(t) - 0.4)
    ax.set_xlabel("strength (log scale, 0 = average; 95% interval)")
    return _save(fig, out_dir, "rating.png")


def head_to_head(res: Results, exp: Experiment, out_dir: Path) -> str | None:
    share, seen = res.h2h
    if share.empty or len(share) < 2:
        return None
    k = len(share)
    fig, ax = plt.subplots(figsize=(2.4 + 0.9 * k, 1.4 + 0.8 * k), layout="constrained")
    im = ax.imshow(share.to_numpy(float), cmap="RdBu", vmin=0, vmax=1)
    for i in range(k):
        for j in range(k):
            v = share.iat[i, j]
            if not np.isnan(v):
                ax.text(j, i, f"{v:.2f}", ha="center", va="center", fontsize=8,
                        color="white" if abs(v - 0.5) > 0.3 else "black")
    ax.set_xticks(range(k), share.columns, rotation=45, ha="right")
    ax.set_yticks(range(k), share.index)
    ax.set_xlabel("against")
    ax.set_ylabel("strategy")
    fig.colorbar(im, ax=ax, label="share placed better\n(ties count half)", shrink=0.9)
    return _save(fig, out_dir, "head_to_head.png")


def constant_lengths(res: Results, column: str) -> dict[int, float]:
    """{players: value} where every game of the main rules lasts the same ``column``; empty when any
    player count varies (a game at its maximum, mean = max, has every game at the maximum)."""
    t = res.length_table
    t = t[(t["part"] == MAIN) & (t["column"] == column)]
    if t.empty or not np.allclose(t["mean"], t["max"]):
        return {}
    return {int(r.players): float(r.max) for r in t.itertuples()}


def length_histograms(res: Results, exp: Experiment, out_dir: Path, column: str) -> str | None:
    """Histograms of a length column per player count, one x scale; None for a constant column
    (the page says the constant instead)."""
    g = res.lengths[res.lengths["part"] == MAIN]
    if g.empty or column not in g or constant_lengths(res, column):
        return None
    counts = sorted(g["players"].unique())
    fig, axes = _grid(len(counts), height=2.3, sharex=True)
    lo, hi = g[column].min(), g[column].max()
    bins = np.arange(lo, hi + 2) - 0.5 if hi - lo <= 40 else np.linspace(lo, hi, 41)
    for ax, n in zip(axes, counts):
        values = g.loc[g["players"] == n, column].to_numpy()
        ax.hist(values, bins=bins, color="tab:purple", alpha=0.8)
        ax.axvline(np.median(values), color="k", linewidth=1)
        ax.set_title(f"{n} players: median {np.median(values):.0f}", fontsize=9)
        ax.set_xlabel(column)
        ax.set_ylabel("games")
    return _save(fig, out_dir, f"length_{column}.png")


def game_time(res: Results, exp: Experiment, out_dir: Path) -> str | None:
    """Minutes a game takes per player count: median dot, 10-90% of games as a bar."""
    d = getattr(res.designer, "minutes", None)
    if d is None or d.empty:
        return None
    fig, ax = plt.subplots(figsize=(5.5, 0.9 + 0.35 * len(d)), layout="constrained")
    y = np.arange(len(d))[::-1]
    ax.hlines(y, d["p10"], d["p90"], color="tab:green", linewidth=5, alpha=0.45)
    ax.plot(d["median"], y, "o", color="tab:green")
    for yi, r in zip(y, d.itertuples()):
        ax.annotate(f"{r.median:.0f} min", (r.median, yi), xytext=(0, 6), textcoords="offset points",
                    fontsize=7, ha="center")
    ax.set_yticks(y, [f"{p} players" for p in d["players"]])
    ax.set_ylim(-0.6, len(d) - 0.4)
    ax.set_xlim(left=0)
    ax.set_xlabel("minutes a game takes (dot: median; bar: 10% to 90% of games)")
    return _save(fig, out_dir, "game_time.png")


def card_balance(res: Results, exp: Experiment, out_dir: Path) -> str | None:
    c = res.cards
    if c is None or c.empty:
        return None
    d = c.iloc[::-1]
    fig, ax = plt.subplots(figsize=(6.5, 0.8 + 0.24 * len(d)), layout="constrained")
    y = np.arange(len(d))
    colors = np.where(d["significant"], "tab:orange", "0.55")
    for yi, r, color in zip(y, d.itertuples(), colors):
        ax.errorbar([r.diff_pp], [yi], xerr=[[max(r.diff_pp - r.ci_low_pp, 0)], [max(r.ci_high_pp - r.diff_pp, 0)]],
                    fmt="o", capsize=2, markersize=4, color=color)
    ax.axvline(0, **FAIR)
    ax.set_yticks(y, d["card"])
    ax.set_ylim(-0.6, len(d) - 0.4)
    ax.set_xlabel("win rate dealt it − not dealt it, points\n(95% interval; orange: a real effect)")
    return _save(fig, out_dir, "card_balance.png")


def _panels(eff: pd.DataFrame) -> list[tuple[tuple, pd.DataFrame]]:
    """Sweep panels: one per (group, player count, unit, seat basis), so an axis holds one unit and a
    panel one basis's seats; a measure that never moves (every effect and interval 0: a constant
    such as Vzhukh's 3 rounds) is left out: the page says so in words."""
    eff = eff.assign(_basis=eff["measure"].str.extract(r"\((.+)\)$", expand=False).fillna(""))
    eff.loc[eff["group"] != "seat win rate", "_basis"] = ""
    eff = eff[~eff["measure"].isin(constant_sweep_measures(eff))]
    return list(eff.groupby(["group", "players", "unit", "_basis"], sort=False))


def constant_sweep_measures(eff: pd.DataFrame | None) -> list[str]:
    """Sweep measures whose every effect and interval is 0 (not drawn)."""
    if eff is None or eff.empty:
        return []
    top = eff.groupby("measure", sort=False)[["effect", "ci_low", "ci_high"]].agg(lambda c: c.abs().max())
    return list(top.index[top.max(axis=1) == 0])


def sweep_effects(res: Results, exp: Experiment, out_dir: Path) -> str | None:
    """Effects against the default, one panel per (group, player count, unit, basis); panels of one
    group and unit share their y scale; every line passes through 0 at the default (the baseline
    itself); filled dots: significant after correction; legends under each panel."""
    eff = res.sweep
    if eff is None or eff.empty or exp.grid_option is not None:
        return None
    labels = [str(v) for v in exp.sweep_values]
    if str(exp.sweep_default) not in labels:
        labels = sorted([str(exp.sweep_default)] + labels, key=_number_first)
    pos = {v: i for i, v in enumerate(labels)}
    base = pos[str(exp.sweep_default)]
    panels = _panels(eff)
    if not panels:
        return None
    limits = {}
    for (group, _, unit, _), d in panels:
        lo, hi = limits.get((group, unit), (0.0, 0.0))
        limits[(group, unit)] = (min(lo, d["ci_low"].min()), max(hi, d["ci_high"].max()))
    n_measures = max(d["measure"].nunique() for _, d in panels)
    fig, axes = _grid(len(panels), width=4.6, height=2.9 + 0.16 * math.ceil(n_measures / 3), cols=2)
    for ax, ((group, n, unit, basis), d) in zip(axes, panels):
        measures = list(dict.fromkeys(d["measure"]))
        for i, measure in enumerate(measures):
            m = d[d["measure"] == measure]
            shift = 0.05 * (i - (len(measures) - 1) / 2)
            xs = [pos[str(v)] + shift for v in m["value"]]
            err = np.vstack([m["effect"] - m["ci_low"], m["ci_high"] - m["effect"]]).clip(0)
            color = f"C{i}"
            order = np.argsort(xs + [base + shift])
            ax.plot(np.array(xs + [base + shift])[order], np.array(list(m["effect"]) + [0.0])[order], "-",
                    color=color, linewidth=1)
            ax.errorbar(xs, m["effect"], yerr=err, fmt="none", capsize=2, color=color, linewidth=1)
            for x, e, sig in zip(xs, m["effect"], m["significant"]):
                ax.plot([x], [e], "o", color=color, markerfacecolor=color if sig else "white", markersize=4)
            ax.plot([], [], "o-", color=color, markersize=4, linewidth=1,
                    label=measure.replace(f" ({basis})", "") if basis else measure)
        ax.axhline(0, **FAIR)
        ax.axvline(base, color="0.85", linewidth=6, zorder=0)
        ax.set_xticks(range(len(labels)), labels)
        ax.set_xlabel(f"{exp.sweep_option} (grey: default)")
        lo, hi = limits[(group, unit)]
        pad = 0.08 * (hi - lo or 1.0)
        ax.set_ylim(lo - pad, hi + pad)
        ax.set_ylabel(f"effect ({unit})")
        ax.set_title(f"{group}, {n} players" + (f", every seat {basis}" if basis else ""), fontsize=9)
        ax.legend(fontsize=6.5, ncol=3, loc="upper center", bbox_to_anchor=(0.5, -0.25), frameon=False)
    return _save(fig, out_dir, "sweep_effects.png")


def _number_first(text: str):
    try:
        return (0, float(text), "")
    except ValueError:
        return (1, 0.0, text)


#: Most panels of the grid heatmap (the table beside it has every effect).
GRID_PANELS = 12


def _grid_measures(eff: pd.DataFrame) -> list[tuple[int, str]]:
    """(players, measure) panels of the grid heatmap: first-seat win rate under each basis, every
    strategy's win rate, every mean length; at most GRID_PANELS."""
    first = eff["measure"].str.startswith("seat 0 ")
    picked = pd.concat([eff[(eff["group"] == "seat win rate") & first], eff[eff["group"] == "strategy win rate"],
                        eff[eff["group"] == "game length"]])
    return list(dict.fromkeys(zip(picked["players"], picked["measure"])))[:GRID_PANELS]


def sweep_grid(res: Results, exp: Experiment, out_dir: Path) -> str | None:
    """A two-option sweep as heatmaps of the effect against the defaults, one panel per (players,
    measure): colour and number the effect, outline and * where significant after BH."""
    eff = res.sweep
    if eff is None or eff.empty or exp.grid_option is None:
        return None
    rows = [str(v) for v in exp.sweep_values]
    cols = [str(v) for v in exp.grid_values]
    panels = _grid_measures(eff)
    fig, axes = _grid(len(panels), width=1.6 + 0.9 * len(cols), height=1.3 + 0.6 * len(rows), cols=3)
    for ax, (n, measure) in zip(axes, panels):
        d = eff[(eff["players"] == n) & (eff["measure"] == measure)]
        m = np.full((len(rows), len(cols)), np.nan)
        sig = np.zeros(m.shape, bool)
        for r in d.itertuples():
            i, j = rows.index(str(r.value)), cols.index(str(r.value2))
            m[i, j], sig[i, j] = r.effect, r.significant
        top = np.nanmax(np.abs(m)) if np.isfinite(m).any() else 1.0
        image = ax.imshow(m, cmap="RdBu_r", vmin=-(top or 1.0), vmax=top or 1.0, aspect="auto")
        for i in range(len(rows)):
            for j in range(len(cols)):
                if (rows[i], cols[j]) == (str(exp.sweep_default), str(exp.grid_default)):
                    ax.text(j, i, "default", ha="center", va="center", fontsize=7, color="0.3")
                elif np.isfinite(m[i, j]):
                    ax.text(j, i, f"{m[i, j]:+.1f}" + ("*" if sig[i, j] else ""), ha="center", va="center",
                            fontsize=8, weight="bold" if sig[i, j] else "normal",
                            color="white" if abs(m[i, j]) > 0.6 * top else "black")
                    if sig[i, j]:
                        ax.add_patch(plt.Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, linewidth=2,
                                                   edgecolor="black"))
        ax.set_xticks(range(len(cols)), cols)
        ax.set_yticks(range(len(rows)), rows)
        ax.set_xlabel(exp.grid_option)
        ax.set_ylabel(exp.sweep_option)
        unit = d["unit"].iloc[0] if len(d) else "points"
        ax.set_title(f"{measure}, {n} players\n(effect, {unit})", fontsize=8)
        fig.colorbar(image, ax=ax, shrink=0.8)
    return _save(fig, out_dir, "sweep_grid.png")


def draw_all(res: Results, exp: Experiment, out_dir: Path) -> dict[str, str]:
    """Every figure the experiment has data for: {figure key: file name}."""
    figures = {
        "strategy_win_rates": strategy_win_rates(res, exp, out_dir),
        "seat_advantage": seat_advantage(res, exp, out_dir),
        "pairwise_differences": pairwise_differences(res, exp, out_dir),
        "rating": rating(res, exp, out_dir),
        "head_to_head": head_to_head(res, exp, out_dir),
        "card_balance": card_balance(res, exp, out_dir),
        "seat_edges": seat_edges(res, exp, out_dir),
        "sweep_effects": sweep_effects(res, exp, out_dir),
        "sweep_grid": sweep_grid(res, exp, out_dir),
        "game_time": game_time(res, exp, out_dir),
    }
    for col in length_columns(exp.spec):
        figures[f"length_{col}"] = length_histograms(res, exp, out_dir, col)
    return {k: v for k, v in figures.items() if v is not None}
