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

from simcards.run.batch import frame_attrs
from simcards.run.designs import rotated_lineups
from simcards.run.frame import FrameBuilder
from simcards.outputs import holding_locks
from simcards.run.run_folder import order_folder
from simcards.run.runner import Rows, RunSpec, ThreadBackend, play_rows
from simcards.run.totals import Totals
from simcards.contract.validate import strategy_names


def should_rotate(rotate: bool | None, strategies: Sequence[str], summary_only: bool = False) -> bool:
    """Whether a run rotates: by default exactly when the line-up mixes strategies.

    ``--summary-only`` plays the same design as the same run with rows (``summary_only`` is
    kept for callers, and changes nothing): its totals are kept per seat order
    (``RotatedTotals``), so strategy rows are net of seat there too."""
    mixed = len(set(strategies)) > 1
    if rotate is None:
        return mixed
    return bool(rotate) and mixed


def deals_for(n_games: int, seatings: int) -> int:
    """Deals so that deals x seatings covers ``n_games`` games (rounded up to whole deals)."""
    return max(1, -(-int(n_games) // seatings))


def simulate_rotated(game: str, strategies: Sequence[str], n_games: int, seed: int = 0,
                     rules: Mapping[str, Any] | None = None, *, start: int = 0,
                     threads: int | None = None, chunk_size: int | None = None,
                     progress: Callable[[int], None] | None = None,
                     strategy_dirs: Sequence[str] = (),
                     kernel_strategies: Sequence[str] = (),
                     time_limit: float | None = None) -> pd.DataFrame:
    """``simulate(..., rotate=True)``: about ``n_games`` games, as whole deals times seatings.

    Deals start..start+D-1 (D = ceil(n_games / seatings)) are each played in every seating
    of the design."""
    strategies = strategy_names(strategies)     # a list: a str is refused, not split

    def run_spec_for(seating: Sequence[str], deals: int):
        return RunSpec.create(game, seating, deals, seed, rules, start, chunk_size,
                              kernel_strategies=kernel_strategies, strategy_dirs=strategy_dirs,
                              threads=threads)

    return execute_rotated(run_spec_for, strategies, n_games,
                           backend=ThreadBackend(threads, time_limit), progress=progress)


def execute_rotated(run_spec_for: Callable[[Sequence[str], int], Any], strategies: Sequence[str],
                    n_games: int, run_dir: Path | None = None, backend=None, resume: bool = False,
                    progress: Callable[[int], None] | None = None) -> pd.DataFrame | RotatedTotals:
    """A rotated run: one run per seating (each in ``run_dir/order-K`` when given, so it resumes
    seating by seating), all their chunks on one backend, every row written once into one
    frame; ``run_spec_for(seating, deals)`` builds each RunSpec.

    The frame gains the column ``order`` (int8, first) and holds strategies as one
    categorical over the line-up's distinct names, sorted. Summary-only runs give their
    totals per seat order instead (``RotatedTotals``), played in the same design."""
    seatings = rotated_lineups(strategies)
    deals = deals_for(n_games, len(seatings))
    runs = [run_spec_for(seating, deals) for seating in seatings]
    if runs[0].summary_only:
        with holding_locks():
            return RotatedTotals(deals, _play_totals(runs, run_dir, backend, resume, progress))
    batch = runs[0].batch()
    # canonical names (simcards.params): 'expert:margin=0' is 'expert' when 0 is the default
    builder = FrameBuilder(batch.spec, batch.rules, batch.n_players, sorted(set(batch.strategies)),
                           deals * len(seatings), order=True)
    parts = [Rows(run, None if run_dir is None else Path(run_dir) / order_folder(k), k * deals, k)
             for k, run in enumerate(runs)]
    with holding_locks():      # each seat order's run folder, locked for the run
        play_rows(builder, parts, backend, resume, progress)
    attrs = frame_attrs(batch)
    attrs.update(strategies=list(batch.strategies), rotated=True,
                 seatings=[list(run.batch().strategies) for run in runs],
                 deals=int(deals))
    return builder.frame(attrs)


class RotatedTotals:
    """A rotated ``--summary-only`` run: the running totals of each seat order of the design
    (``parts``, one ``simcards.totals.Totals`` each, over the same ``deals``), kept apart so
    that strategies are summed over the seats they held and seats over the strategies that
    sat in them.

    ``summary()`` gives the win rates ``simcards.summarize`` gives on the same run's frame
    (each strategy net of seat, each seat over every strategy), from exact integer win
    units. Its intervals cannot be the frame's: those come from the spread between deals,
    which totals do not keep. Each row's is Wilson's on the deals as trials, a deal scoring
    its mean over the seat orders: a deal's score lies in [0, 1] (in [0, 1/m] for a strategy
    in m seats), so its variance is at most that of one game, and the interval is never
    narrower than the deals allow (wider than the frame's for strategies, whose seat
    orders cancel out the cards)."""

    def __init__(self, deals: int, parts: Sequence[Totals]):
        self.deals = int(deals)
        self.parts = list(parts)
        self.seatings = [tuple(t.strategies) for t in self.parts]
        self.game = self.parts[0].game
        self.games = sum(t.games for t in self.parts)
        self.unfinished = sum(t.unfinished for t in self.parts)

    def summary(self) -> pd.DataFrame:
        import numpy as np
        from simcards.statistics.intervals import summary_rows
        from simcards.run.totals import SHARE_UNITS
        n = len(self.seatings[0])
        names = sorted(set(self.seatings[0]))
        held = [self.seatings[0].count(name) for name in names]
        units = {name: 0 for name in names}
        seat_units = np.zeros(n, np.int64)
        for seating, part in zip(self.seatings, self.parts):
            seat_units += part.win_units
            for seat, name in enumerate(seating):
                units[name] += int(part.win_units[seat])
        # exact integer units, one division each: the frame's mean of deal means, to rounding
        rates = np.array([units[name] / (SHARE_UNITS * self.games * m) for name, m in zip(names, held)])
        seat_rates = seat_units / (SHARE_UNITS * self.games)
        out = summary_rows(names, rates * self.deals, [self.deals] * len(names), range(n),
                           seat_rates * self.deals, [self.deals] * n, n, held=held,
                           unfinished=self.unfinished / self.games if self.games else 0.0)
        out["win_rate"] = np.concatenate([rates, seat_rates])
        out["games"] = self.games
        out["wins"] = out["win_rate"] * self.games
        out.insert(len(out.columns) - 1, "deals", self.deals)
        return out


def _play_totals(runs: Sequence[RunSpec], run_dir: Path | None, backend, resume: bool,
                 progress: Callable[[int], None] | None) -> list[Totals]:
    """Every seat order's running totals, all their chunks on one backend (each order's saved
    in ``run_dir/order-K`` when given, so that it resumes order by order)."""
    from simcards.run.run_folder import RunFolder, keeping_note
    backend = backend or ThreadBackend()
    folders = [None if run_dir is None else RunFolder(Path(run_dir) / order_folder(k), run, resume)
               for k, run in enumerate(runs)]
    done = [folder.done() if folder else set() for folder in folders]
    totals: list[Totals | None] = [None] * len(runs)
    seen: list[set[int]] = [set() for _ in runs]
    todo, owner = [], []
    for k, run in enumerate(runs):
        for chunk in run.chunks():
            if chunk[0] not in done[k]:
                todo.append((run, *chunk))
                owner.append(k)
        if progress and done[k]:
            progress(sum(c for i, _, c in run.chunks() if i in done[k]))

    def add(k: int, index: int, part: Totals) -> None:
        if index not in seen[k]:        # a chunk is never counted twice
            seen[k].add(index)
            totals[k] = part if totals[k] is None else totals[k].add(part)

    def on_result(i: int, part: Totals) -> None:
        k, (_, index, _, count) = owner[i], todo[i]
        if folders[k]:
            folders[k].save(index, part)
        add(k, index, part)
        if progress:
            progress(count)

    if todo:
        with keeping_note([f for f in folders if f]):
            backend.run(todo, on_result)
    for k, folder in enumerate(folders):
        for index in sorted(done[k]):
            add(k, index, folder.load(index))
    return totals


def describe(frame) -> str:
    """The run's games as the table title says them (a frame, or a rotated run's totals)."""
    if isinstance(frame, RotatedTotals):
        k, d = len(frame.seatings), frame.deals
        return (f"{k * d:,} games ({d:,} deals x {k} seat orders, rotated: strategies net of seat; "
                "summary only)")
    if frame.attrs.get("rotated"):
        k, d = len(frame.attrs["seatings"]), frame.attrs["deals"]
        return f"{k * d:,} games ({d:,} deals x {k} seat orders, rotated: strategies net of seat)"
    # a run's frame is sorted by game: one read of the column (Series.nunique hashes every
    # row, 0.7 s of serial time after a 10**7-game run)
    from simcards.statistics.intervals import distinct_count
    return f"{distinct_count(frame, ['game']):,} games, fixed seats"
