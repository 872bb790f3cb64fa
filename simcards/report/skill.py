"""How much a game rewards skill, per player count: the skill index of a balance report.

- **The strongest player against random mirrors.** One seat plays the experiment's strongest
  strategy (``skill`` in the experiment: ``"auto"`` takes ``search`` where the game has one,
  else the strongest mirror strategy), every other seat ``random``; every deal is played with
  the strong seat in each position (simcards.designs), so its win rate is net of seat, with a
  t interval over deal means (the deal is the unit, as everywhere; an exact binomial one
  where it won every deal, simcards.stats.mean_interval).
- **The share of outcome variance explained by the players**: over every seat of those games,
  the between-strategy sum of squares of the win share over its total sum of squares (the R²
  of the outcome on who plays the seat). 0: the deal decides everything; 1: who plays decides
  everything. A point estimate: it describes these line-ups, not a population.
- **Seat edges from random to skilled mirrors**: the first seat's edge under each mirror
  strategy of the balance verdict, side by side.
"""
from __future__ import annotations

from typing import Callable, Sequence

import numpy as np
import pandas as pd

from simcards.designs import rotated_lineups
from simcards.report.experiment import Experiment

RANDOM = "random"
SEARCH = "search"
#: Deals of the skill games when the strong player searches (a ``budget`` parameter): it
#: costs milliseconds a decision, so its interval is wider than the heuristics'.
SEARCH_DEALS = 300


def skill_strategy(exp: Experiment) -> str | None:
    """The strong player of the skill index, or None when the experiment has none."""
    if exp.skill is False:
        return None
    if exp.skill not in (None, "auto"):
        return str(exp.skill)
    from simcards.strategy_registry import strategies_for
    known = {n for n, i in strategies_for(exp.spec).items() if not i.problem}
    if RANDOM not in known or not exp.mirror:
        return None
    if SEARCH in known:
        return SEARCH
    strong = [m for m in exp.mirror if m != RANDOM]
    return strong[0] if strong else None


def lineup(strong: str, players: int) -> tuple[str, ...]:
    return (strong,) + (RANDOM,) * (players - 1)


def skill_deals(exp: Experiment, strong: str) -> int:
    """The experiment's games per line-up, at most SEARCH_DEALS for a searching player."""
    from simcards.params import split
    from simcards.strategy_registry import strategies_for
    info = strategies_for(exp.spec).get(split(strong)[0])
    searches = info is not None and any(p.name == "budget" for p in info.params)
    return min(exp.games, SEARCH_DEALS) if searches else exp.games


def play_skill(exp: Experiment, threads: int | None = None, backend=None,
               progress: Callable[[int], None] | None = None) -> pd.DataFrame | None:
    """The skill games of every main player count: ``skill_deals`` deals, each with the strong
    seat in every position, on the experiment's seed (the same deals as its main cells)."""
    from simcards.rotation import execute_rotated
    from simcards.runner import RunSpec, ThreadBackend
    strong = skill_strategy(exp)
    if strong is None:
        return None
    backend = backend or ThreadBackend(threads)
    kernel = tuple(sorted(set(exp.strategies) | {strong, RANDOM}))
    frames = []
    deals = skill_deals(exp, strong)
    for n in exp.players:
        names = lineup(strong, n)
        seatings = len(rotated_lineups(names))

        def spec_for(seating: Sequence[str], deals: int):
            return RunSpec.create(exp.spec.name, seating, deals, exp.seed, exp.resolved_rules,
                                  kernel_strategies=kernel, threads=threads)

        frame = execute_rotated(spec_for, names, deals * seatings, backend=backend, progress=progress)
        frames.append(pd.DataFrame({
            "players": np.int8(n), "order": frame["order"].to_numpy(), "game": frame["game"].to_numpy(),
            "seat": frame["seat"].to_numpy(), "strong": (frame["strategy"] == strong).to_numpy(),
            "win_share": frame["win_share"].to_numpy()}))
    return pd.concat(frames, ignore_index=True)


def planned_games(exp: Experiment) -> int:
    strong = skill_strategy(exp)
    if strong is None:
        return 0
    return sum(skill_deals(exp, strong) * len(rotated_lineups(lineup(strong, n))) for n in exp.players)


def variance_share(win_share: np.ndarray, strong: np.ndarray) -> float:
    """Between-group over total sum of squares of the win share (groups: strong seat or not)."""
    y = np.asarray(win_share, float)
    total = float(((y - y.mean()) ** 2).sum())
    if total == 0:
        return float("nan")
    between = sum(g.size * (g.mean() - y.mean()) ** 2 for g in (y[strong], y[~strong]) if g.size)
    return float(between / total)


def skill_table(games: pd.DataFrame | None, exp: Experiment, verdicts: list) -> pd.DataFrame | None:
    """One row per player count: the strong player's win rate against random mirrors with its
    interval, the fair share, the variance share, and the first seat's edge under each mirror."""
    from simcards.stats import mean_interval
    if games is None or games.empty:
        return None
    strong = skill_strategy(exp)
    rows = []
    for n, part in games.groupby("players", sort=True):
        mine = part[part["strong"]]
        per_deal = mine.groupby("game")["win_share"].mean()
        iv = mean_interval(per_deal, share=True).iloc[0]
        row = {"players": int(n), "strongest": strong, "deals": int(iv["deals"]),
               "win_rate": float(iv["mean"]), "ci_low": float(iv["ci_low"]),
               "ci_high": float(iv["ci_high"]), "fair_share": 1.0 / n,
               "variance_share": variance_share(part["win_share"].to_numpy(), part["strong"].to_numpy())}
        for v in verdicts:
            if v.players == n:
                row[f"first_edge {v.basis}"] = float(v.first_edge)
        rows.append(row)
    return pd.DataFrame(rows)


def skill_sentence(table: pd.DataFrame) -> str:
    """A headline: how far above a fair share the strong player wins, and how much the deal decides."""
    lo = table.loc[table["win_rate"].idxmin()]
    hi = table.loc[table["win_rate"].idxmax()]
    share = table["variance_share"]
    return (f"Skill: `{lo['strongest']}` against random players wins {100 * lo['win_rate']:.1f}% to "
            f"{100 * hi['win_rate']:.1f}% of games (fair shares {100 * table['fair_share'].min():.1f}% to "
            f"{100 * table['fair_share'].max():.1f}%); who plays a seat explains "
            f"{100 * share.min():.0f}% to {100 * share.max():.0f}% of the variance of its outcome, "
            "the deal and the seat the rest.")
