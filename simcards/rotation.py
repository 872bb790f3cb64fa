"""Rotated runs: every deal played in every seat order of a balanced design.

A game's deal stream depends only on (seed, game index), so playing the same
game indices under each seating of ``simcards.designs.rotated_lineups`` deals
every seating the same games. The frame gains a column ``order`` (the seating's
index in the design); ``game`` still names the deal, so a deal's rows are all
rows with that game index. ``simcards.summarize`` then reports each strategy
net of seat and neighbour, with intervals from the variation between deals.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from simcards.designs import rotated_lineups
from simcards.errors import SimcardsError

ORDER = "order"


def should_rotate(rotate: bool | None, strategies: Sequence[str], summary_only: bool = False) -> bool:
    """Whether a run rotates: by default exactly when the line-up mixes strategies.

    ``--summary-only`` keeps no per-deal rows, which the rotated intervals need:
    asking for both is an error; by default such a run keeps fixed seats."""
    mixed = len(set(strategies)) > 1
    if rotate is None:
        return mixed and not summary_only
    if rotate and summary_only:
        raise SimcardsError("--rotate needs every deal's rows, which --summary-only does not keep: "
                            "use --no-rotate with --summary-only")
    return bool(rotate) and mixed


def deals_for(n_games: int, seatings: int) -> int:
    """Deals so that deals x seatings covers ``n_games`` games (rounded up to whole deals)."""
    return max(1, -(-int(n_games) // seatings))


def tag(frame: pd.DataFrame, order: int) -> pd.DataFrame:
    frame.insert(0, ORDER, np.int16(order))
    return frame


def combine(parts: list[pd.DataFrame], strategies: Sequence[str], seatings: list[tuple[str, ...]],
            deals: int) -> pd.DataFrame:
    """One frame of every seating's rows; strategies as one categorical over all seatings."""
    names = sorted(set(strategies))
    frame = pd.concat(parts, ignore_index=True)
    frame["strategy"] = pd.Categorical(frame["strategy"].astype(str), categories=names)
    attrs = dict(parts[0].attrs)
    attrs.update(strategies=list(strategies), rotated=True, seatings=[list(s) for s in seatings],
                 deals=int(deals))
    frame.attrs.update(attrs)
    return frame


def simulate_rotated(game: str, strategies: Sequence[str], n_games: int, seed: int = 0,
                     rules: Mapping[str, Any] | None = None, **kwargs) -> pd.DataFrame:
    """``simulate(..., rotate=True)``: about ``n_games`` games, as whole deals times seatings.

    Deals 0..D-1 (D = ceil(n_games / seatings)) are each played in every seating
    of the design; keyword arguments go to ``simulate`` (start, threads, ...)."""
    from simcards.simulate import simulate
    if isinstance(strategies, str):
        strategies = [s.strip() for s in strategies.split(",")]
    seatings = rotated_lineups(strategies)
    deals = deals_for(n_games, len(seatings))
    parts = [tag(simulate(game, list(s), deals, seed, rules, **kwargs), k)
             for k, s in enumerate(seatings)]
    return combine(parts, strategies, seatings, deals)


def execute_rotated(run_spec_for: Callable[[Sequence[str], int], Any], strategies: Sequence[str],
                    n_games: int, execute: Callable, run_dir: Path | None = None,
                    **kwargs) -> pd.DataFrame:
    """The CLI's rotated run: one run per seating (each in ``run_dir/order-K`` when given, so
    it resumes seating by seating); ``run_spec_for(seating, deals)`` builds each RunSpec."""
    seatings = rotated_lineups(strategies)
    deals = deals_for(n_games, len(seatings))
    parts = []
    for k, seating in enumerate(seatings):
        folder = None if run_dir is None else Path(run_dir) / f"order-{k:02d}"
        parts.append(tag(execute(run_spec_for(seating, deals), run_dir=folder, **kwargs), k))
    return combine(parts, strategies, seatings, deals)


def describe(frame: pd.DataFrame) -> str:
    """The run's games as the table title says them."""
    if frame.attrs.get("rotated"):
        k, d = len(frame.attrs["seatings"]), frame.attrs["deals"]
        return f"{k * d:,} games ({d:,} deals x {k} seat orders, rotated: strategies net of seat)"
    return f"{frame['game'].nunique():,} games, fixed seats"
