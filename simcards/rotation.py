"""Rotated runs: every deal played in every seat order of a balanced design.

A game's deal stream depends only on (seed, game index), so playing the same
game indices under each seating of ``simcards.designs.rotated_lineups`` deals
every seating the same games. The frame gains a column ``order`` (the seating's
index in the design, int8); ``game`` still names the deal, so a deal's rows are all
rows with that game index. ``simcards.summarize`` then reports each strategy
net of seat and neighbour, with intervals from the variation between deals.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import pandas as pd

from simcards.batch import frame_attrs
from simcards.designs import rotated_lineups
from simcards.errors import SimcardsError
from simcards.frame import FrameBuilder
from simcards.runner import Rows, RunSpec, ThreadBackend, play_rows


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


def simulate_rotated(game: str, strategies: Sequence[str], n_games: int, seed: int = 0,
                     rules: Mapping[str, Any] | None = None, *, start: int = 0,
                     threads: int | None = None, chunk_size: int | None = None,
                     progress: Callable[[int], None] | None = None,
                     strategy_dirs: Sequence[str] = (),
                     kernel_strategies: Sequence[str] = ()) -> pd.DataFrame:
    """``simulate(..., rotate=True)``: about ``n_games`` games, as whole deals times seatings.

    Deals start..start+D-1 (D = ceil(n_games / seatings)) are each played in every seating
    of the design."""
    if isinstance(strategies, str):
        strategies = [s.strip() for s in strategies.split(",")]

    def run_spec_for(seating: Sequence[str], deals: int):
        return RunSpec.create(game, seating, deals, seed, rules, start, chunk_size,
                              kernel_strategies=kernel_strategies, strategy_dirs=strategy_dirs,
                              threads=threads)

    return execute_rotated(run_spec_for, strategies, n_games, backend=ThreadBackend(threads),
                           progress=progress)


def execute_rotated(run_spec_for: Callable[[Sequence[str], int], Any], strategies: Sequence[str],
                    n_games: int, run_dir: Path | None = None, backend=None, resume: bool = False,
                    progress: Callable[[int], None] | None = None) -> pd.DataFrame:
    """A rotated run: one run per seating (each in ``run_dir/order-K`` when given, so it resumes
    seating by seating), all their chunks on one backend, every row written once into one
    frame; ``run_spec_for(seating, deals)`` builds each RunSpec.

    The frame gains the column ``order`` (int8, first) and holds strategies as one
    categorical over the line-up's distinct names, sorted."""
    seatings = rotated_lineups(strategies)
    deals = deals_for(n_games, len(seatings))
    runs = [run_spec_for(seating, deals) for seating in seatings]
    batch = runs[0].batch()
    # canonical names (simcards.params): 'expert:margin=0' is 'expert' when 0 is the default
    builder = FrameBuilder(batch.spec, batch.rules, batch.n_players, sorted(set(batch.strategies)),
                           deals * len(seatings), order=True)
    parts = [Rows(run, None if run_dir is None else Path(run_dir) / f"order-{k:02d}", k * deals, k)
             for k, run in enumerate(runs)]
    play_rows(builder, parts, backend, resume, progress)
    attrs = frame_attrs(batch)
    attrs.update(strategies=list(batch.strategies), rotated=True,
                 seatings=[list(run.batch().strategies) for run in runs],
                 deals=int(deals))
    return builder.frame(attrs)


def describe(frame: pd.DataFrame) -> str:
    """The run's games as the table title says them."""
    if frame.attrs.get("rotated"):
        k, d = len(frame.attrs["seatings"]), frame.attrs["deals"]
        return f"{k * d:,} games ({d:,} deals x {k} seat orders, rotated: strategies net of seat)"
    # a run's frame is sorted by game: one read of the column (Series.nunique hashes every
    # row, 0.7 s of serial time after a 10**7-game run)
    from simcards.stats import distinct_count
    return f"{distinct_count(frame, ['game']):,} games, fixed seats"
