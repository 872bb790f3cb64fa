"""The report's figures: matplotlib (Agg), one function per figure, each writes one PNG.

Every function returns the file name it wrote (relative to the report folder),
or None when the experiment has nothing to show for it. The numbers behind
each figure are printed beside it by render.py.
"""
from __future__ import annotations

import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from simcards.report.analysis import Results, length_columns  # noqa: E402
from simcards.outputs import atomic  # noqa: E402
from simcards.report.experiment import MAIN, Experiment  # noqa: E402

DPI = 90
FAIR = dict(color="0.35", linestyle="--", linewidth=1)


def _grid(n: int, width: float = 4.0, height: float = 3.0, cols: int = 3):
    cols = min(cols, n)
    rows = math.ceil(n / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(width * cols, height * rows), squeeze=False)
    for ax in axes.flat[n:]:
        ax.set_visible(False)
    return fig, list(axes.flat[:n])


def _save(fig, out_dir: Path, name: str) -> str:
    fig.tight_layout()
    with atomic(out_dir / name) as tmp:   # a plot appears under its name only when complete
        fig.savefig(tmp, dpi=DPI)
    plt.close(fig)
    return name


def _errors(df: pd.DataFrame) -> np.ndarray:
    return np.vstack([df["win_rate"] - df["ci_low"], df["ci_high"] - df["win_rate"]]).clip(0)


def strategy_win_rates(res: Results, exp: Experiment, out_dir: Path) -> str | None:
    df = res.strategies[res.strategies["part"] == MAIN]
    if df.empty:
        return None
    counts = sorted(df["players"].unique())
    fig, axes = _grid(len(counts), height=1.3 + 0.4 * df["strategy"].nunique())
    for ax, n in zip(axes, counts):
        d = df[df["players"] == n].sort_values("win_rate")
        y = np.arange(len(d))
        ax.barh(y, d["win_rate"], xerr=_errors(d), color="tab:blue", alpha=0.8, capsize=3)
        ax.axvline(1 / n, **FAIR, label="fair share")
        ax.set_yticks(y, d["strategy"])
        for yi, rate in zip(y, d["win_rate"]):
            ax.text(0.005, yi, f"{rate:.3f}", fontsize=8, va="center", color="white", weight="bold")
        ax.set_title(f"{n} players")
        ax.set_xlabel("win rate (95% interval, deals)")
    axes[0].legend(fontsize=7, loc="lower right")
    return _save(fig, out_dir, "strategy_win_rates.png")


def seat_advantage(res: Results, exp: Experiment, out_dir: Path) -> str | None:
    df = res.seats[res.seats["part"] == MAIN]
    counts = sorted(df["players"].unique())
    bases = list(dict.fromkeys(df["basis"]))
    width = 0.8 / len(bases)
    fig, axes = _grid(len(counts))
    for ax, n in zip(axes, counts):
        for k, basis in enumerate(bases):
            d = df[(df["players"] == n) & (df["basis"] == basis)].sort_values("seat")
            x = d["seat"] - 0.4 + width * (k + 0.5)
            ax.bar(x, d["win_rate"], width, yerr=_errors(d), alpha=0.8, capsize=2, label=basis)
        ax.axhline(1 / n, **FAIR, label=f"fair share 1/{n}")
        ax.set_xticks(range(n))
        ax.set_xlabel("seat (0 plays first)")
        ax.set_ylabel("win rate")
        ax.set_title(f"{n} players")
        ax.legend(fontsize=7)
    return _save(fig, out_dir, "seat_advantage.png")


def seat_edges(res: Results, exp: Experiment, out_dir: Path) -> str | None:
    """Every seat's edge over its fair share against the player count, per basis, with the tolerance band."""
    df = res.seats[res.seats["part"] == MAIN]
    if df.empty or not res.verdicts:
        return None
    bases = list(dict.fromkeys(df["basis"]))
    fig, axes = _grid(len(bases), width=5.0, height=3.4, cols=2)
    for ax, basis in zip(axes, bases):
        d = df[df["basis"] == basis]
        for seat, s in d.groupby("seat"):
            x = s["players"] + 0.06 * (seat - 3)
            edge = 100 * (s["win_rate"] - s["fair_share"])
            err = 100 * _errors(s)
            ax.errorbar(x, edge, yerr=err, fmt="o", capsize=2, markersize=3, label=f"seat {seat}")
        ax.axhspan(-100 * exp.tolerance, 100 * exp.tolerance, color="0.9", zorder=0)
        ax.axhline(0, **FAIR)
        ax.set_xticks(sorted(d["players"].unique()))
        ax.set_xlabel("players")
        ax.set_ylabel("win rate - fair share (points)")
        ax.set_title(f"played by: {basis}", fontsize=9)
        ax.legend(fontsize=6, ncol=2)
    return _save(fig, out_dir, "seat_edges.png")


def pairwise_differences(res: Results, exp: Experiment, out_dir: Path) -> str | None:
    df = res.pairs
    if df.empty:
        return None
    fig, ax = plt.subplots(figsize=(8, 0.6 + 0.32 * len(df)))
    labels = [f"{r.a} - {r.b} ({r.players}p)" for r in df.itertuples()]
    y = np.arange(len(df))[::-1]
    colors = ["tab:red" if s else "0.5" for s in df["significant"]]
    for yi, r, color in zip(y, df.itertuples(), colors):
        ax.errorbar([r.diff_pp], [yi], xerr=[[max(r.diff_pp - r.ci_low_pp, 0)], [max(r.ci_high_pp - r.diff_pp, 0)]],
                    fmt="o", color=color, capsize=3)
        ax.text(r.diff_pp, yi + 0.2, f"{r.diff_pp:+.1f}", fontsize=7, ha="center")
    ax.axvline(0, **FAIR)
    ax.set_yticks(y, labels, fontsize=8)
    ax.set_xlabel("difference in win rate, percentage points (95% interval; red: significant after Holm)")
    return _save(fig, out_dir, "pairwise_differences.png")


def rating(res: Results, exp: Experiment, out_dir: Path) -> str | None:
    if res.rating is None:
        return None
    t = res.rating.table.iloc[::-1]
    fig, ax = plt.subplots(figsize=(7, 0.8 + 0.4 * len(t)))
    y = np.arange(len(t))
    ax.errorbar(t["strength"], y, xerr=np.vstack([t["strength"] - t["ci_low"], t["ci_high"] - t["strength"]]),
                fmt="o", capsize=3)
    for yi, s in zip(y, t["strength"]):
        ax.text(s, yi + 0.2, f"{s:+.2f}", fontsize=7, ha="center")
    ax.set_yticks(y, t["strategy"])
    ax.set_xlabel("Plackett-Luce strength (centred log scale, 95% interval)")
    return _save(fig, out_dir, "rating.png")


def head_to_head(res: Results, exp: Experiment, out_dir: Path) -> str | None:
    share, seen = res.h2h
    if share.empty or len(share) < 2:
        return None
    k = len(share)
    fig, ax = plt.subplots(figsize=(1.6 + 0.9 * k, 1.2 + 0.8 * k))
    im = ax.imshow(share.to_numpy(float), cmap="RdBu", vmin=0, vmax=1)
    for i in range(k):
        for j in range(k):
            v = share.iat[i, j]
            if not np.isnan(v):
                ax.text(j, i, f"{v:.2f}", ha="center", va="center", fontsize=8)
    ax.set_xticks(range(k), share.columns, rotation=45, ha="right")
    ax.set_yticks(range(k), share.index)
    ax.set_xlabel("against")
    ax.set_ylabel("strategy")
    fig.colorbar(im, ax=ax, label="share placed better (ties half)")
    return _save(fig, out_dir, "head_to_head.png")


def length_histograms(res: Results, exp: Experiment, out_dir: Path, column: str) -> str | None:
    g = res.lengths[res.lengths["part"] == MAIN]
    if g.empty or column not in g:
        return None
    counts = sorted(g["players"].unique())
    fig, axes = _grid(len(counts), height=2.6)
    for ax, n in zip(axes, counts):
        values = g.loc[g["players"] == n, column].to_numpy()
        lo, hi = values.min(), values.max()
        bins = np.arange(lo, hi + 2) - 0.5 if hi - lo <= 40 else 40
        ax.hist(values, bins=bins, color="tab:purple", alpha=0.8)
        ax.axvline(values.mean(), color="k", linewidth=1)
        ax.set_title(f"{n} players: mean {values.mean():.1f}, median {np.median(values):.0f}", fontsize=9)
        ax.set_xlabel(column)
        ax.set_ylabel("games")
    return _save(fig, out_dir, f"length_{column}.png")


def card_balance(res: Results, exp: Experiment, out_dir: Path) -> str | None:
    c = res.cards
    if c is None or c.empty:
        return None
    d = c.iloc[::-1]
    fig, ax = plt.subplots(figsize=(8, 0.8 + 0.3 * len(d)))
    y = np.arange(len(d))
    ax.errorbar(d["diff_pp"], y, xerr=np.vstack([d["diff_pp"] - d["ci_low_pp"],
                                                  d["ci_high_pp"] - d["diff_pp"]]).clip(0),
                fmt="o", capsize=3, color="tab:orange")
    ax.axvline(0, **FAIR)
    for yi, v in zip(y, d["diff_pp"]):
        ax.text(v, yi + 0.25, f"{v:+.1f}", fontsize=7, ha="center")
    ax.set_yticks(y, d["card"])
    ax.set_xlabel("win rate dealt it minus not dealt it, percentage points (95% interval)")
    return _save(fig, out_dir, "card_balance.png")


def sweep_effects(res: Results, exp: Experiment, out_dir: Path) -> str | None:
    """Effects against the default, one panel per (group, player count); the default sits at 0."""
    eff = res.sweep
    if eff is None or eff.empty or exp.grid_option is not None:
        return None
    labels = [str(v) for v in exp.sweep_values]
    if str(exp.sweep_default) not in labels:
        labels = [str(exp.sweep_default)] + labels
    pos = {v: i for i, v in enumerate(labels)}
    panels = list(eff.groupby(["group", "players"], sort=False))
    fig, axes = _grid(len(panels), width=4.8, cols=2)
    for ax, ((group, n), d) in zip(axes, panels):
        for i, (measure, m) in enumerate(d.groupby("measure", sort=False)):
            xs = [pos[str(v)] + 0.04 * i for v in m["value"]]
            err = np.vstack([m["effect"] - m["ci_low"], m["ci_high"] - m["effect"]]).clip(0)
            line = ax.errorbar(xs, m["effect"], yerr=err, fmt="-", capsize=2, label=measure)
            color = line[0].get_color()
            for x, e, sig in zip(xs, m["effect"], m["significant"]):
                ax.plot([x], [e], "o", color=color, markerfacecolor=color if sig else "white")
        ax.axhline(0, **FAIR)
        ax.axvline(pos[str(exp.sweep_default)], color="0.8", linewidth=6, zorder=0)
        ax.set_xticks(range(len(labels)), labels)
        ax.set_xlabel(f"{exp.sweep_option} (grey: default)")
        unit = d["unit"].iloc[0]
        ax.set_ylabel(f"effect ({'points' if unit == 'points' else unit})")
        ax.set_title(f"{group}, {n} players", fontsize=9)
        ax.legend(fontsize=6)
    return _save(fig, out_dir, "sweep_effects.png")


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
    fig, axes = _grid(len(panels), width=1.4 + 0.9 * len(cols), height=1.2 + 0.6 * len(rows), cols=3)
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
    }
    for col in length_columns(exp.spec):
        figures[f"length_{col}"] = length_histograms(res, exp, out_dir, col)
    return {k: v for k, v in figures.items() if v is not None}
