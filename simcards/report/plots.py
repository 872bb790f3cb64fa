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
from simcards.report.experiment import MAIN, SWEEP, Experiment  # noqa: E402

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
        ax.set_xlabel("win rate (95% interval)")
    axes[0].legend(fontsize=7, loc="lower right")
    return _save(fig, out_dir, "strategy_win_rates.png")


def seat_advantage(res: Results, exp: Experiment, out_dir: Path) -> str | None:
    df = res.seats[res.seats["part"] == MAIN]
    counts = sorted(df["players"].unique())
    fig, axes = _grid(len(counts))
    for ax, n in zip(axes, counts):
        d = df[df["players"] == n].sort_values("seat")
        ax.bar(d["seat"], d["win_rate"], yerr=_errors(d), color="tab:green", alpha=0.8, capsize=3)
        ax.axhline(1 / n, **FAIR, label=f"fair share 1/{n}")
        for seat, rate in zip(d["seat"], d["win_rate"]):
            ax.text(seat, rate / 2, f"{rate:.3f}", ha="center", va="center", fontsize=8, color="white",
                    weight="bold", rotation=90 if n > 4 else 0)
        ax.set_xticks(d["seat"])
        ax.set_xlabel("seat (0 plays first)")
        ax.set_ylabel("win rate")
        ax.set_title(f"{n} players")
        ax.legend(fontsize=7)
    return _save(fig, out_dir, "seat_advantage.png")


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


def _sweep_x(exp: Experiment):
    return list(range(len(exp.sweep_values))), [str(v) for v in exp.sweep_values]


def sweep_seats(res: Results, exp: Experiment, out_dir: Path) -> str | None:
    if res.sweep is None:
        return None
    df = res.seats[res.seats["part"] == SWEEP]
    x, labels = _sweep_x(exp)
    pos = {str(v): i for i, v in enumerate(exp.sweep_values)}
    counts = sorted(df["players"].unique())
    fig, axes = _grid(len(counts), width=4.5)
    for ax, n in zip(axes, counts):
        d = df[df["players"] == n]
        for seat, s in d.groupby("seat"):
            xs = [pos[str(v)] + 0.04 * seat for v in s["sweep_value"]]
            ax.errorbar(xs, s["win_rate"], yerr=_errors(s), marker="o", capsize=2, label=f"seat {seat}")
        ax.axhline(1 / n, **FAIR)
        ax.set_xticks(x, labels)
        ax.set_xlabel(exp.sweep_option)
        ax.set_ylabel("win rate")
        ax.set_title(f"seat win rates, {n} players")
        ax.legend(fontsize=7)
    return _save(fig, out_dir, "sweep_seats.png")


def sweep_strategies(res: Results, exp: Experiment, out_dir: Path) -> str | None:
    if res.sweep is None:
        return None
    df = res.strategies[res.strategies["part"] == SWEEP]
    if df.empty or df["strategy"].nunique() < 2:
        return None
    x, labels = _sweep_x(exp)
    pos = {str(v): i for i, v in enumerate(exp.sweep_values)}
    counts = sorted(df["players"].unique())
    fig, axes = _grid(len(counts), width=4.5)
    for ax, n in zip(axes, counts):
        d = df[df["players"] == n]
        for i, (name, s) in enumerate(d.groupby("strategy")):
            xs = [pos[str(v)] + 0.04 * i for v in s["sweep_value"]]
            ax.errorbar(xs, s["win_rate"], yerr=_errors(s), marker="o", capsize=2, label=name)
        ax.axhline(1 / n, **FAIR)
        ax.set_xticks(x, labels)
        ax.set_xlabel(exp.sweep_option)
        ax.set_ylabel("win rate")
        ax.set_title(f"strategy win rates, {n} players")
        ax.legend(fontsize=7)
    return _save(fig, out_dir, "sweep_strategies.png")


def sweep_length(res: Results, exp: Experiment, out_dir: Path) -> str | None:
    if res.sweep is None:
        return None
    cols = length_columns(exp.spec)
    if not cols:
        return None
    df = res.length_table[res.length_table["part"] == SWEEP]
    x, labels = _sweep_x(exp)
    pos = {str(v): i for i, v in enumerate(exp.sweep_values)}
    fig, axes = _grid(len(cols), width=4.5, cols=len(cols))
    for ax, col in zip(axes, cols):
        d = df[df["column"] == col]
        for n, s in d.groupby("players"):
            xs = [pos[str(v)] for v in s["sweep_value"]]
            err = np.vstack([s["mean"] - s["ci_low"], s["ci_high"] - s["mean"]]).clip(0)
            ax.errorbar(xs, s["mean"], yerr=err, marker="o", capsize=2, label=f"{n} players")
            for xi, m in zip(xs, s["mean"]):
                ax.text(xi, m, f"{m:.1f}", fontsize=7, va="bottom")
        ax.set_xticks(x, labels)
        ax.set_xlabel(exp.sweep_option)
        ax.set_ylabel(f"mean {col} per game")
        ax.legend(fontsize=7)
    return _save(fig, out_dir, "sweep_length.png")


def draw_all(res: Results, exp: Experiment, out_dir: Path) -> dict[str, str]:
    """Every figure the experiment has data for: {figure key: file name}."""
    figures = {
        "strategy_win_rates": strategy_win_rates(res, exp, out_dir),
        "seat_advantage": seat_advantage(res, exp, out_dir),
        "pairwise_differences": pairwise_differences(res, exp, out_dir),
        "rating": rating(res, exp, out_dir),
        "head_to_head": head_to_head(res, exp, out_dir),
        "card_balance": card_balance(res, exp, out_dir),
        "sweep_seats": sweep_seats(res, exp, out_dir),
        "sweep_strategies": sweep_strategies(res, exp, out_dir),
        "sweep_length": sweep_length(res, exp, out_dir),
    }
    for col in length_columns(exp.spec):
        figures[f"length_{col}"] = length_histograms(res, exp, out_dir, col)
    return {k: v for k, v in figures.items() if v is not None}
