"""Play an experiment: every line-up's games, the precision's batches, the sequential verdict's
deals, the skill index, the information ceiling and the elimination replays.

Every line-up of a cell plays the same game indices with the same seed, so the
line-ups being compared are dealt the same games (common random numbers).
With a target precision, batches with new game indices are added (to every
line-up of the cells concerned alike) until every interval on the probability
scale has half-width at most the target, or the cap ``max_games`` is reached.
"""
from __future__ import annotations

import dataclasses
import functools
import time
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd

from simcards.errors import SimcardsError
from simcards.report.analysis import games_needed
from simcards.report.experiment import Experiment
from simcards.report.results import analyse
from simcards.run.batch import Batch, prepare
from simcards.run.run_folder import MANIFEST, lineup_folder, stored_chunk_size
from simcards.run.runner import RunSpec, ThreadBackend, execute


Log = Callable[[str], None]
Progress = Callable[[int, int, str], None]   # games done, games planned, where


def _quiet(_: str) -> None:
    pass


def make_batch(exp: Experiment, lineup: tuple[str, ...], rules: dict) -> Batch:
    """A validated batch whose kernel covers every strategy of the experiment (one compile)."""
    return prepare(exp.spec.name, lineup, exp.seed, rules, kernel_strategies=exp.strategies)


def _downcast(frame: pd.DataFrame) -> pd.DataFrame:
    """Smallest integer types that hold the values: results.parquet stays small."""
    for col in frame.columns:
        if pd.api.types.is_integer_dtype(frame[col]) and not isinstance(frame[col].dtype, pd.CategoricalDtype):
            frame[col] = pd.to_numeric(frame[col], downcast="integer")
    return frame


@dataclasses.dataclass
class Run:
    exp: Experiment
    frame: pd.DataFrame
    games: dict[int, int]                # games per line-up, per cell
    batches: list[dict]
    precision: float | None
    precision_met: bool | None
    worst: list[dict]                    # intervals still above the target (cap reached)
    seconds_play: float = 0.0
    seconds_compile: float = 0.0        # compiling (or loading) the kernel, before the first game
    skill: pd.DataFrame | None = None   # the skill index's games (simcards.report.skill)
    # the sequential verdict (simcards.report.sequential): moments of the deals it played beyond
    # the frame, per cell; the deals per main cell in all; how it sampled (analysis.Sampling)
    verdict_extra: dict = dataclasses.field(default_factory=dict)
    verdict_deals: dict = dataclasses.field(default_factory=dict)
    sampling: object = None
    oracle: pd.DataFrame | None = None  # the information ceiling's games (simcards.report.skill)
    # seconds of seconds_play by part (verdict games, skill index, information ceiling)
    seconds_parts: dict = dataclasses.field(default_factory=dict)
    outs: pd.DataFrame | None = None    # seats out, replayed (simcards.report.elimination)
    precision_stop: str = "max_games"   # the cap that stopped a precision target's batches


#: The share of ``max_minutes`` the precision batches may take when a sequential verdict follows:
#: the rest is the verdict's (batches of search games had taken every minute, leaving the
#: verdict's cheap mirror rounds none, so every seat verdict of a tournament stayed undecided).
PRECISION_SHARE = 0.5


def precision_minutes(exp: Experiment) -> float:
    """The minutes of play the precision batches may use (``max_minutes`` counts from the first game)."""
    from simcards.report.sequential import sequential
    return exp.max_minutes * (PRECISION_SHARE if sequential(exp) else 1.0)


def check_precision(precision: float | None) -> float | None:
    if precision is not None and (isinstance(precision, bool) or not 0 < precision < 0.5):
        raise SimcardsError(f"bad precision {precision!r}: expected a number between 0 and 0.5 "
                            "(half-width of a 95% interval, e.g. 0.005)")
    return precision


def play(exp: Experiment, precision: float | None = None, threads: int | None = None,
         log: Log = _quiet, progress: Progress | None = None, backend=None,
         run_dir: str | Path | None = None, resume: bool = False) -> Run:
    """Play the experiment: a first batch of ``games`` per line-up, then more while imprecise.

    Every line-up's games are a run of ``simcards.runner`` on ``backend`` (threads here by
    default, or a Dask cluster); with ``run_dir`` each such run keeps its chunks in a folder
    of its own there, so an interrupted report resumes (``resume``) where it stopped.
    ``progress(done, total, where)`` is told the games played over every cell and line-up
    (the total grows when a precision target adds batches)."""
    precision = check_precision(exp.precision if precision is None else precision)
    backend = backend or ThreadBackend(threads)
    offsets, batches = _lineup_batches(exp)
    done = _Played({c.id: 0 for c in exp.cells})
    tally = _Tally(progress)
    want = {c.id: exp.games for c in exp.cells}
    t0 = time.perf_counter()
    batches[0].kernel()   # every line-up shares this kernel: its compile is timed apart from the games
    seconds_compile = time.perf_counter() - t0
    t0 = time.perf_counter()
    met: bool | None = None
    worst: list[dict] = []
    precision_stop = "max_games"        # what stopped the batches if the target is not met
    while want:
        _play_round(exp, want, done, offsets, tally, backend, threads, run_dir, resume)
        log(f"played {sum(done.games[c.id] * len(c.lineups) for c in exp.cells):,} games")
        if precision is None:
            break
        want, met, worst, precision_stop = _next_round(exp, precision, done, t0, log)
    games = done.games
    frame = pd.concat(done.frames, ignore_index=True)
    frame = frame.sort_values(["cell", "lineup", "game", "seat"], ignore_index=True)
    verdict_extra, verdict_deals, sampling = {}, dict(games), None
    from simcards.report.sequential import run_sequential, sequential
    if sequential(exp):
        verdict_extra, more, sampling = run_sequential(exp, frame, games, backend, threads, log, t0,
                                                       tally.advance, tally.plan)
        verdict_deals.update(more)
    # the games of the verdicts, the skill index, the information ceiling and the elimination
    # replays timed apart: the page says where a report's time went (the ceiling's search costs
    # milliseconds a decision)
    seconds_games = time.perf_counter() - t0
    from simcards.report.elimination import planned_deals, play_elimination
    from simcards.report.skill import oracle_planned_games, planned_games, play_oracle, play_skill
    skill, seconds_skill = _phase(tally, log, "skill index", planned_games(exp),
                                  "skill index: {planned:,} games of the strongest player against random players",
                                  lambda advance: play_skill(exp, threads, backend, advance))
    oracle, seconds_oracle = _phase(tally, log, "information ceiling", oracle_planned_games(exp),
                                    "information ceiling: {planned:,} games of search and its open-hand oracle "
                                    "against random players",
                                    lambda advance: play_oracle(exp, threads, backend, advance))
    outs, seconds_outs = _phase(tally, log, "elimination replays", planned_deals(exp),
                                "elimination: {planned:,} deals replayed to time when players go out",
                                lambda advance: play_elimination(exp, advance))
    return Run(exp, _downcast(frame), games, done.history, precision, met, worst,
               seconds_play=time.perf_counter() - t0, seconds_compile=seconds_compile, skill=skill,
               verdict_extra=verdict_extra, verdict_deals=verdict_deals, sampling=sampling,
               oracle=oracle, precision_stop=precision_stop, outs=outs, seconds_parts={
                   k: round(v, 3) for k, v, played in (
                       ("verdict games", seconds_games, True), ("skill index", seconds_skill, skill is not None),
                       ("information ceiling (search)", seconds_oracle, oracle is not None),
                       ("elimination replays", seconds_outs, outs is not None)) if played})


@dataclasses.dataclass
class _Tally:
    """The games played and planned over every part of a report, told to ``progress(done, total,
    where)`` as each chunk ends (the total grows as parts plan more)."""

    progress: Progress | None
    done: int = 0
    total: int = 0

    def plan(self, k: int) -> None:
        self.total += k

    def advance(self, k: int, where: str) -> None:
        self.done += k
        if self.progress:
            self.progress(self.done, self.total, where)


@dataclasses.dataclass
class _Played:
    """The precision loop's games so far: per cell the games per line-up, the frames of every
    line-up and batch, one record per cell and round (config.json's ``batches``)."""

    games: dict[int, int]
    frames: list[pd.DataFrame] = dataclasses.field(default_factory=list)
    history: list[dict] = dataclasses.field(default_factory=list)
    rounds: int = 0


def _lineup_batches(exp: Experiment) -> tuple[dict[int, int], dict[int, Batch]]:
    """The first global line-up id of every cell, and every line-up's batch by its global id:
    each line-up validated before the first game."""
    offsets, k = {}, 0
    batches = {}
    for cell in exp.cells:
        offsets[cell.id] = k
        for i, lineup in enumerate(cell.lineups):
            batches[k + i] = make_batch(exp, lineup, cell.rules)
        k += len(cell.lineups)
    return offsets, batches


def _play_round(exp: Experiment, want: dict[int, int], played: _Played, offsets: dict[int, int],
                tally: _Tally, backend, threads: int | None, run_dir: str | Path | None, resume: bool) -> None:
    """One round of batches: every line-up of each cell in ``want`` plays its games from where
    the cell stands up to ``want``'s, the same game indices in every line-up."""
    played.rounds += 1
    games = played.games
    tally.plan(sum((want[c.id] - games[c.id]) * len(c.lineups) for c in exp.cells if c.id in want))
    for cell in exp.cells:
        if cell.id not in want:
            continue
        start, count = games[cell.id], want[cell.id] - games[cell.id]
        for i, lineup in enumerate(cell.lineups):
            where = f"{cell.label}, line-up {i + 1}/{len(cell.lineups)}"
            folder = None if run_dir is None else (
                Path(run_dir) / lineup_folder(cell.id, i, start, start + count))
            spec = RunSpec.create(exp.spec.name, lineup, count, exp.seed, cell.rules, start=start,
                                  kernel_strategies=exp.strategies, threads=threads,
                                  chunk_size=stored_chunk_size(folder) if resume else None)
            frame = execute(spec, backend, folder, resume and folder is not None
                            and (folder / MANIFEST).exists(),
                            progress=functools.partial(tally.advance, where=where))
            frame.insert(0, "lineup", np.int32(offsets[cell.id] + i))
            frame.insert(0, "players", np.int8(cell.players))
            frame.insert(0, "cell", np.int16(cell.id))
            played.frames.append(frame)
        games[cell.id] = start + count
        played.history.append({"round": played.rounds, "cell": cell.id, "first_game": start, "games": count,
                               "lineups": len(cell.lineups)})


def _next_round(exp: Experiment, precision: float, played: _Played, t0: float, log: Log
                ) -> tuple[dict[int, int], bool | None, list[dict], str]:
    """After a round, for a precision target: the games per line-up each cell is to reach next
    (empty: the batches stop), whether the target was met (None while batches go on), the
    intervals still above it when a cap stops them, and which cap (``max_games`` or
    ``max_minutes``)."""
    games = played.games
    frame = pd.concat(played.frames, ignore_index=True)
    iv = analyse(frame, exp, with_rating=False).intervals
    need = games_needed(iv, games, precision)
    wide = iv[iv["half_width"] > precision]
    capped = {c: min(n, exp.max_games) for c, n in need.items() if games[c] < exp.max_games}
    met: bool | None = None
    worst: list[dict] = []
    if not need:
        met = True
    elif not capped:
        met, worst = False, _widest(wide)
    want = {c: max(n, games[c] + exp.games // 2) for c, n in capped.items()}
    want = {c: min(n, exp.max_games) for c, n in want.items()}
    time_out = False
    budget = exp.max_minutes
    if want and exp.max_minutes is not None:
        budget = precision_minutes(exp)
        elapsed = time.perf_counter() - t0
        want = _within_minutes(exp, want, games, budget, elapsed, log)
        time_out = not want or elapsed >= 60 * budget
    if time_out:
        # max_minutes caps the report's play from its first game: the precision batches
        # too, not only the sequential verdict's rounds (which then find no time left)
        log(f"{len(wide)} intervals wider than {precision}: the {budget:g}-minute cap stops the batches")
        return {}, False, _widest(wide), "max_minutes"
    if want:
        log(f"{len(wide)} intervals wider than {precision}: more games for "
            f"{len(want)} cell(s)")
    return want, met, worst, "max_games"


def _within_minutes(exp: Experiment, want: dict[int, int], games: dict[int, int], budget: float,
                    elapsed: float, log: Log) -> dict[int, int]:
    """``want`` shortened to what the rate of play so far fits in the minutes of ``budget`` left."""
    # a round shortened to what the rate of play so far fits in the minutes left (as the
    # sequential rounds are): one precision round of 100,000 search games ran 8 minutes
    rate = sum(games[c.id] * len(c.lineups) for c in exp.cells) / max(elapsed, 1e-9)
    lineups_of = {c.id: len(c.lineups) for c in exp.cells}
    planned = sum((n - games[c]) * lineups_of[c] for c, n in want.items())
    fits = rate * max(0.0, 60 * budget - elapsed)
    if planned > fits:
        share = fits / planned
        want = {c: games[c] + int((n - games[c]) * share) for c, n in want.items()}
        want = {c: n for c, n in want.items() if n > games[c]}
        if want:
            log(f"the {budget:g}-minute cap shortens the batch to {share:.0%} of its games")
    return want


def _widest(wide: pd.DataFrame) -> list[dict]:
    """The ten widest intervals still above the target, for config.json."""
    return (wide.sort_values("half_width", ascending=False).head(10)
            .assign(cells=lambda d: d["cells"].map(list)).to_dict("records"))


def _phase(tally: _Tally, log: Log, label: str, planned: int, note: str, play_part) -> tuple[object, float]:
    """One part after the verdict's games: its planned games join the bar's total, each
    finished chunk advances it under ``label``; returns (its result or None, its seconds)."""
    t1 = time.perf_counter()
    if not planned:
        return None, 0.0
    tally.plan(planned)
    log(note.format(planned=planned))
    return play_part(lambda k: tally.advance(k, label)), time.perf_counter() - t1
