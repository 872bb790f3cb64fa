"""The sequential balance verdict: rounds of deals until every verdict is decided or a cap is reached.

A report first plays ``games`` deals of every line-up (and the batches of a precision target):
that is the first look. Then, while some main player count's verdict is undecided, the cells of
those player counts play more deals and the verdicts are tested again:

- **Deals planned by power.** For every undecided seat, a power calculation
  (inference.plan_deals: statsmodels' TTestPower with the deal's own standard deviation) gives
  the deals at which its test decides with probability ``power`` (0.8) at its worst plausible
  edge; a cell grows to the most any of its rows asks for, at least by half its deals, at most
  to ``max_games`` deals a line-up.
- **Repeated looks do not inflate alpha.** At most ``looks`` looks are taken, and every look
  tests at alpha / looks (Bonferroni over the looks: the chance of any false verdict at any look
  is at most alpha, whatever the looks' correlation; an alpha-spending boundary would be less
  conservative, at the price of fixing the information of every look in advance, which the
  power-planned rounds do not).
- **Caps.** ``max_games`` (deals a line-up) and ``max_minutes`` (minutes of play of the rounds,
  measured from the report's first game; a round is shortened to what the measured rate of play
  fits in the time left). An undecided row says which one stopped it (inference.undecided_reason).
- **No frame for the extra deals.** A round plays only the line-ups the verdict reads (a cell's
  mirror line-ups, or all its line-ups when it has no mirror) and keeps, per deal, the vector of
  every basis's seat win shares and finished share (inference.Layout), summed into its moments
  (inference.Moments) as the chunks land: millions of deals in a few megabytes. Those deals enter
  the seat table and the verdict; every other table reads the first batches' frame.

The rounds play deal indices after the frame's (same seed), so a report is reproducible: the
deals of every look are in config.json (``sequential``), and without ``max_minutes`` the same
experiment plays the same rounds.
"""
from __future__ import annotations

import math
import threading
import time
from typing import Callable

import numpy as np
import pandas as pd

from simcards.report import inference
from simcards.report.experiment import MAIN, Cell, Experiment

#: A round grows a cell's deals by at least this factor (a plan that asks for fewer was unlucky).
MIN_GROWTH = 1.5
#: Deals of a cell played at once: the per-deal vectors of a sub-round stay below ~100 MB.
SUB_ROUND = 250_000


def sequential(exp: Experiment) -> bool:
    """Whether the experiment samples its verdict sequentially: more than one look, and main cells."""
    return exp.looks > 1 and any(c.part == MAIN for c in exp.cells)


def play_moments(exp: Experiment, cell: Cell, layout: inference.Layout, start: int, count: int,
                 backend, threads: int | None = None,
                 progress: Callable[[int], None] | None = None) -> inference.Moments:
    """Deals start..start+count-1 of the line-ups the cell's verdict reads, as moments of their
    deal vectors: every chunk's kernel records become win shares and finished flags where they
    are played (the backend's ``put``), added into per-deal arrays, no frame built."""
    from simcards.run.runner import RunSpec
    total: inference.Moments | None = None
    n = cell.players
    for lo in range(start, start + count, SUB_ROUND):
        size = min(SUB_ROUND, start + count - lo)
        acc = np.zeros((size, layout.width))
        lock = threading.Lock()
        tasks, where = [], []
        for b, lineups in enumerate(layout.lineups):
            for i in lineups:
                spec = RunSpec.create(exp.spec.name, cell.lineups[i], size, exp.seed, cell.rules, start=lo,
                                      kernel_strategies=exp.strategies, threads=threads)
                unfinished = (spec.batch().spec.game_columns.index("unfinished")
                              if "unfinished" in spec.batch().spec.game_columns else -1)
                for chunk in spec.chunks():
                    tasks.append((spec, *chunk))
                    where.append((b, 1.0 / len(lineups), unfinished))

        def put(i: int, first: int, seat_out: np.ndarray, game_out: np.ndarray) -> None:
            b, weight, unfinished = where[i]
            wins = seat_out[:, :, 0].astype(np.float64)
            winners = wins.sum(axis=1, keepdims=True)
            share = np.divide(wins, winners, out=np.zeros_like(wins), where=winners > 0)
            done = (np.ones(len(wins)) if unfinished < 0 else 1.0 - (game_out[:, unfinished] != 0))
            rows = slice(first - lo, first - lo + len(wins))
            cols = slice(layout.seat(b, 0), layout.seat(b, 0) + n)
            with lock:
                acc[rows, cols] += weight * share
                acc[rows, layout.finished(b)] += weight * done

        def on_result(i: int, _) -> None:
            if progress:
                progress(tasks[i][3])

        backend.run(tasks, on_result, None, put)
        part = inference.Moments.of(acc)
        total = part if total is None else total + part
    return total


def plan_round(want: dict[int, int], deals: dict[int, int], cap: int) -> tuple[dict[int, int], dict[int, str]]:
    """(deals each cell should reach this round, cells the cap stopped): a cell grows to the deals
    its undecided rows ask for (``want``), at least by MIN_GROWTH, at most to ``cap``."""
    targets, stopped = {}, {}
    for c, need in want.items():
        if deals[c] >= cap:
            stopped[c] = "games"
            continue
        target = max(need, math.ceil(deals[c] * MIN_GROWTH))
        if target > cap:
            stopped[c] = "games"
            target = cap
        targets[c] = target
    return targets, stopped


def run_sequential(exp: Experiment, frame: pd.DataFrame, games: dict[int, int], backend,
                   threads: int | None, log: Callable[[str], None], started: float,
                   advance: Callable[[int, str], None] | None = None,
                   plan_total: Callable[[int], None] | None = None):
    """The looks after the first: returns (extra moments per cell, deals per cell in all,
    analysis.Sampling). ``games``: the frame's deals per cell; ``started``: perf_counter at the
    first game (``max_minutes`` counts from it); ``advance(games, where)`` reports play,
    ``plan_total(games)`` a round's planned games."""
    from simcards.report.analysis import Sampling, cell_moments, layouts
    sampling = Sampling(alpha=exp.alpha, looks=exp.looks, power=exp.power)
    main = {c.id: c for c in exp.cells if c.part == MAIN}
    lay = layouts(exp)
    base = cell_moments(frame, exp, list(main))
    extra: dict[int, inference.Moments] = {}
    deals = {c: games[c] for c in main}
    cap = exp.max_games
    # the rate of play so far (the first batches), for fitting a round into max_minutes
    played_games = sum(games[c.id] * len(c.lineups) for c in exp.cells)
    played_seconds = max(time.perf_counter() - started, 1e-9)

    for number in range(1, exp.looks + 1):
        sampling.looks_taken = number
        found, want = _look(exp, frame, base, extra, sampling)
        undecided = [v for v in found if v.verdict == inference.UNDECIDED]
        sampling.history.append({"look": number, "alpha": sampling.alpha_look,
                                 "deals": {str(c): int(n) for c, n in deals.items()},
                                 "undecided": len(undecided), "rows": len(found),
                                 "seconds": round(time.perf_counter() - started, 3)})
        if not undecided:
            log(f"look {number}: every verdict decided")
            break
        if number == exp.looks:
            for c in want:
                sampling.capped.setdefault(c, "looks")
            log(f"look {number}: {len(undecided)} of {len(found)} verdicts undecided; the last look (looks)")
            break
        targets, stopped = plan_round(want, deals, cap)
        sampling.capped.update(stopped)
        if not targets:
            log(f"look {number}: {len(undecided)} of {len(found)} verdicts undecided; cap reached (max_games)")
            break
        rate = played_games / played_seconds if played_seconds > 0 else None
        targets = _within_minutes(exp, targets, deals, lay, started, rate, sampling)
        if targets is None:
            log(f"look {number}: {len(undecided)} of {len(found)} verdicts undecided; time cap reached "
                "(max_minutes)")
            break
        cost = _cost(targets, deals, lay)
        if plan_total:
            plan_total(sum(cost.values()))
        log(f"look {number}: {len(undecided)} of {len(found)} verdicts undecided; "
            f"{sum(cost.values()):,} more games for {len(targets)} player count(s)")
        t0 = time.perf_counter()
        _play_round(exp, main, lay, targets, deals, extra, backend, threads, advance)
        played_seconds += time.perf_counter() - t0
        played_games += sum(cost.values())
        if exp.max_minutes is not None and time.perf_counter() - started >= exp.max_minutes * 60:
            for c in targets:
                sampling.capped[c] = "minutes"
    sampling.room = {c: max(0, cap - deals[c]) for c in main}
    # a cell that decided after all was not stopped by anything
    final, _ = _look(exp, frame, base, extra, sampling)
    decided = {v.cell for v in final if v.verdict != inference.UNDECIDED}
    undecided_cells = {v.cell for v in final if v.verdict == inference.UNDECIDED}
    sampling.capped = {c: why for c, why in sampling.capped.items() if c in undecided_cells or c not in decided}
    return extra, deals, sampling


def _look(exp: Experiment, frame: pd.DataFrame, base: dict, extra: dict, sampling) -> tuple[list, dict[int, int]]:
    """The verdicts on every deal so far (the frame's moments ``base`` and the looks' ``extra``),
    and the deals each cell's undecided rows ask for."""
    from simcards.report.analysis import seat_table, verdicts
    moments = {c: base[c] + extra.get(c) for c in base}
    seats = seat_table(moments, exp)
    found, _ = verdicts(frame, exp, seats, extra, sampling)
    want: dict[int, int] = {}
    for v in found:
        if v.verdict == inference.UNDECIDED:
            want[v.cell] = max(want.get(v.cell, 0), v.planned_deals)
    return found, want


def _cost(targets: dict[int, int], deals: dict[int, int], lay: dict) -> dict[int, int]:
    """The games a round plays per cell: its new deals in every line-up of the cell's bases."""
    return {c: (t - deals[c]) * sum(len(l) for l in lay[c].lineups) for c, t in targets.items()}


def _within_minutes(exp: Experiment, targets: dict[int, int], deals: dict[int, int], lay: dict, started: float,
                    rate: float | None, sampling) -> dict[int, int] | None:
    """A round's targets within ``max_minutes`` at the rate of play so far: shrunk where the round
    would outlast the minutes left (those cells then capped by minutes), None when none are left."""
    if exp.max_minutes is None:
        return targets
    left = exp.max_minutes * 60 - (time.perf_counter() - started)
    planned = sum(_cost(targets, deals, lay).values())
    if left <= 0:
        for c in targets:
            sampling.capped[c] = "minutes"
        return None
    if rate is not None and planned / rate > left:
        shrink = left * rate / planned
        for c in targets:
            sampling.capped[c] = "minutes"
            targets[c] = deals[c] + max(1, int((targets[c] - deals[c]) * shrink))
    return targets


def _play_round(exp: Experiment, main: dict, lay: dict, targets: dict[int, int], deals: dict[int, int],
                extra: dict, backend, threads: int | None, advance: Callable[[int, str], None] | None) -> None:
    """A look's round: each cell's new deals played (``play_moments``), their moments added to
    ``extra`` and the cell's deals to ``deals``."""
    for c, target in targets.items():
        cell = main[c]

        def progress(k: int, where: str = f"{cell.label}, verdict deals") -> None:
            if advance:
                advance(k, where)

        part = play_moments(exp, cell, lay[c], deals[c], target - deals[c], backend, threads, progress)
        extra[c] = part + extra.get(c) if c in extra else part
        deals[c] = target
