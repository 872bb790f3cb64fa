"""Run an experiment and write its report folder.

Every line-up of a cell plays the same game indices with the same seed, so the
line-ups being compared are dealt the same games (common random numbers).
With a target precision, batches with new game indices are added (to every
line-up of the cells concerned alike) until every interval on the probability
scale has half-width at most the target, or the cap ``max_games`` is reached.
"""
from __future__ import annotations

import dataclasses
import json
import platform
import sys
import time
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd

from simcards.errors import SimcardsError
from simcards.run.frame import write_parquet
from simcards.outputs import (FOLDER_LOCK, check_output_folder, finish_output_folder, holding_locks,
                              take_lock, write_file, write_text)
from simcards.report.analysis import Results, games_needed
from simcards.report.results import analyse
from simcards.report.experiment import Experiment, load_experiment
from simcards.run.batch import Batch, prepare
from simcards.run.run_folder import MANIFEST, Interrupted, lineup_folder, stored_chunk_size
from simcards.run.runner import RunSpec, ThreadBackend, execute

Log = Callable[[str], None]
REPORT_FILES = ("results.parquet", "config.json", "report.md", "index.html", "summary.json")
Progress = Callable[[int, int, str], None]   # games done, games planned, where


def _quiet(_: str) -> None:
    pass


def default_out_dir(exp: Experiment) -> Path:
    """``reports/NAME`` beside the ``experiments`` folder holding the file, else under the current folder."""
    folder = exp.path.resolve().parent
    base = folder.parent / "reports" if folder.name == "experiments" else Path("reports")
    return base / exp.name


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
    offsets, k = {}, 0
    batches = {}
    for cell in exp.cells:
        offsets[cell.id] = k
        for i, lineup in enumerate(cell.lineups):
            batches[k + i] = make_batch(exp, lineup, cell.rules)
        k += len(cell.lineups)
    games = {c.id: 0 for c in exp.cells}
    frames: list[pd.DataFrame] = []
    history: list[dict] = []
    want = {c.id: exp.games for c in exp.cells}
    t0 = time.perf_counter()
    batches[0].kernel()   # every line-up shares this kernel: its compile is timed apart from the games
    seconds_compile = time.perf_counter() - t0
    t0 = time.perf_counter()
    done, total = 0, 0
    met: bool | None = None
    worst: list[dict] = []
    rounds = 0
    precision_stop = "max_games"        # what stopped the batches if the target is not met
    while want:
        rounds += 1
        total += sum((want[c.id] - games[c.id]) * len(c.lineups) for c in exp.cells if c.id in want)
        for cell in exp.cells:
            if cell.id not in want:
                continue
            start, count = games[cell.id], want[cell.id] - games[cell.id]
            for i, lineup in enumerate(cell.lineups):
                where = f"{cell.label}, line-up {i + 1}/{len(cell.lineups)}"

                def advance(k: int, where: str = where) -> None:
                    nonlocal done
                    done += k
                    if progress:
                        progress(done, total, where)

                folder = None if run_dir is None else (
                    Path(run_dir) / lineup_folder(cell.id, i, start, start + count))
                spec = RunSpec.create(exp.spec.name, lineup, count, exp.seed, cell.rules, start=start,
                                      kernel_strategies=exp.strategies, threads=threads,
                                      chunk_size=stored_chunk_size(folder) if resume else None)
                frame = execute(spec, backend, folder, resume and folder is not None
                                and (folder / MANIFEST).exists(), progress=advance)
                frame.insert(0, "lineup", np.int32(offsets[cell.id] + i))
                frame.insert(0, "players", np.int8(cell.players))
                frame.insert(0, "cell", np.int16(cell.id))
                frames.append(frame)
            games[cell.id] = start + count
            history.append({"round": rounds, "cell": cell.id, "first_game": start, "games": count,
                            "lineups": len(cell.lineups)})
        log(f"played {sum(games[c.id] * len(c.lineups) for c in exp.cells):,} games")
        if precision is None:
            break
        frame = pd.concat(frames, ignore_index=True)
        iv = analyse(frame, exp, with_rating=False).intervals
        need = games_needed(iv, games, precision)
        wide = iv[iv["half_width"] > precision]
        capped = {c: min(n, exp.max_games) for c, n in need.items() if games[c] < exp.max_games}
        if not need:
            met = True
        elif not capped:
            met = False
            worst = (wide.sort_values("half_width", ascending=False).head(10)
                     .assign(cells=lambda d: d["cells"].map(list)).to_dict("records"))
        want = {c: max(n, games[c] + exp.games // 2) for c, n in capped.items()}
        want = {c: min(n, exp.max_games) for c, n in want.items()}
        time_out = False
        budget = exp.max_minutes
        if want and exp.max_minutes is not None:
            budget = precision_minutes(exp)
            # a round shortened to what the rate of play so far fits in the minutes left (as the
            # sequential rounds are): one precision round of 100,000 search games ran 8 minutes
            elapsed = time.perf_counter() - t0
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
            time_out = not want or elapsed >= 60 * budget
        if time_out:
            # max_minutes caps the report's play from its first game: the precision batches
            # too, not only the sequential verdict's rounds (which then find no time left)
            met, want, precision_stop = False, {}, "max_minutes"
            worst = (wide.sort_values("half_width", ascending=False).head(10)
                     .assign(cells=lambda d: d["cells"].map(list)).to_dict("records"))
            log(f"{len(wide)} intervals wider than {precision}: the {budget:g}-minute cap stops the batches")
        if want:
            log(f"{len(wide)} intervals wider than {precision}: more games for "
                f"{len(want)} cell(s)")
    frame = pd.concat(frames, ignore_index=True)
    frame = frame.sort_values(["cell", "lineup", "game", "seat"], ignore_index=True)
    verdict_extra, verdict_deals, sampling = {}, dict(games), None
    from simcards.report.sequential import run_sequential, sequential
    if sequential(exp):
        def advance_verdict(k: int, where: str) -> None:
            nonlocal done
            done += k
            if progress:
                progress(done, total, where)

        def plan_verdict(k: int) -> None:
            nonlocal total
            total += k

        verdict_extra, more, sampling = run_sequential(exp, frame, games, backend, threads, log, t0,
                                                       advance_verdict, plan_verdict)
        verdict_deals.update(more)
    # the games of the verdicts, the skill index, the information ceiling and the elimination
    # replays timed apart: the page says where a report's time went (the ceiling's search costs
    # milliseconds a decision)
    seconds_games = time.perf_counter() - t0

    def phase(label: str, planned: int, note: str, play_part) -> tuple[object, float]:
        """One part after the verdict's games: its planned games join the bar's total, each
        finished chunk advances it under ``label``; returns (its result or None, its seconds)."""
        nonlocal total
        t1 = time.perf_counter()
        if not planned:
            return None, 0.0
        total += planned
        log(note.format(planned=planned))

        def advance(k: int) -> None:
            nonlocal done
            done += k
            if progress:
                progress(done, total, label)

        return play_part(advance), time.perf_counter() - t1

    from simcards.report.elimination import planned_deals, play_elimination
    from simcards.report.skill import oracle_planned_games, planned_games, play_oracle, play_skill
    skill, seconds_skill = phase("skill index", planned_games(exp),
                                 "skill index: {planned:,} games of the strongest player against random players",
                                 lambda advance: play_skill(exp, threads, backend, advance))
    oracle, seconds_oracle = phase("information ceiling", oracle_planned_games(exp),
                                   "information ceiling: {planned:,} games of search and its open-hand oracle "
                                   "against random players",
                                   lambda advance: play_oracle(exp, threads, backend, advance))
    outs, seconds_outs = phase("elimination replays", planned_deals(exp),
                               "elimination: {planned:,} deals replayed to time when players go out",
                               lambda advance: play_elimination(exp, advance))
    return Run(exp, _downcast(frame), games, history, precision, met, worst,
               seconds_play=time.perf_counter() - t0, seconds_compile=seconds_compile, skill=skill,
               verdict_extra=verdict_extra, verdict_deals=verdict_deals, sampling=sampling,
               oracle=oracle, precision_stop=precision_stop, outs=outs, seconds_parts={
                   k: round(v, 3) for k, v, played in (
                       ("verdict games", seconds_games, True), ("skill index", seconds_skill, skill is not None),
                       ("information ceiling (search)", seconds_oracle, oracle is not None),
                       ("elimination replays", seconds_outs, outs is not None)) if played})


def check_report_run_folder(path: Path, resume: bool) -> None:
    """A report's run folder holds one run folder per line-up and batch: a used one needs --resume.
    It is locked for the command: a second report on it is refused."""
    if path.exists() and not path.is_dir():
        raise SimcardsError(f"--run-dir {str(path)!r} is a file: expected a folder for the report's runs")
    take_lock(path, "--run-dir", folder=True)
    if any(p.name != FOLDER_LOCK for p in path.iterdir()) and not resume:
        raise SimcardsError(f"--run-dir {str(path)!r} already holds runs: add --resume to finish that "
                            "report, or choose an empty folder")


def resolved_config(run: Run, timings: dict) -> dict:
    import matplotlib
    import numba
    import scipy
    import statsmodels

    from simcards.package import __version__
    exp = run.exp
    offsets, k, lineups = {}, 0, []
    for cell in exp.cells:
        offsets[cell.id] = k
        for i, lineup in enumerate(cell.lineups):
            lineups.append({"lineup": k + i, "cell": cell.id, "seats": list(lineup),
                            "mirror": cell.mirror[i]})
        k += len(cell.lineups)
    return {
        "simcards_version": __version__,
        "experiment": exp.to_dict(),
        "experiment_source": exp.source,
        "precision": run.precision,
        "precision_met": run.precision_met,
        "precision_stopped_by": None if run.precision_met in (None, True) else run.precision_stop,
        "games_per_lineup": {str(c): n for c, n in run.games.items()},
        "game_ranges": [{"cell": c.id, "first_game": 0, "last_game": run.games[c.id] - 1,
                         "seed": exp.seed} for c in exp.cells],
        "total_games": int(sum(run.games[c.id] * len(c.lineups) for c in exp.cells)),
        "skill_games": 0 if run.skill is None else int(run.skill.groupby(["players", "order", "game"]).ngroups),
        "oracle_games": 0 if run.oracle is None else int(run.oracle.groupby(["player", "players", "order",
                                                                              "game"]).ngroups),
        "batches": run.batches,
        "sequential": None if run.sampling is None else {
            "alpha": run.sampling.alpha, "looks": run.sampling.looks, "looks_taken": run.sampling.looks_taken,
            "alpha_per_look": run.sampling.alpha_look, "power": run.sampling.power,
            "deals_per_lineup": {str(c): int(n) for c, n in run.verdict_deals.items()},
            "capped": {str(c): why for c, why in run.sampling.capped.items()},
            "looks_history": run.sampling.history,
            "verdict_games": int(sum((run.verdict_deals.get(c.id, run.games[c.id]) - run.games[c.id])
                                     * _verdict_lineups(c) for c in exp.cells))},
        "lineups": lineups,
        "timings_s": timings,
        "versions": {"python": platform.python_version(), "numpy": np.__version__,
                     "numba": numba.__version__, "pandas": pd.__version__,
                     "statsmodels": statsmodels.__version__, "scipy": scipy.__version__,
                     "matplotlib": matplotlib.__version__},
        "regenerate": "simcards report --force " + str(exp.path) + (
            f" --precision {run.precision}" if run.precision is not None else ""),
    }


def _verdict_lineups(cell) -> int:
    """Line-ups a sequential verdict round plays in a cell: its mirrors, else all of them."""
    return sum(cell.mirror) or len(cell.lineups)


def write_report(run: Run, out_dir: Path, log: Log = _quiet, single_file: bool = False) -> dict:
    """Analyse a played experiment and write every file of its report folder; with ``single_file``
    index.html embeds its images (one file to send; the PNGs stay for report.md)."""
    from simcards.report import plots, render, summary
    out_dir.mkdir(parents=True, exist_ok=True)
    t = time.perf_counter()
    results: Results = analyse(run.frame, run.exp, extra=run.verdict_extra, sampling=run.sampling)
    from simcards.report.skill import skill_table
    results.skill = skill_table(run.skill, run.exp, results.verdicts)
    from simcards.report.skill import oracle_table
    results.oracle = oracle_table(run.oracle, run.exp)
    from simcards.report.elimination import elimination_table
    results.elimination = elimination_table(run.outs)
    t_analysis = time.perf_counter() - t
    t = time.perf_counter()
    figures = plots.draw_all(results, run.exp, out_dir)
    t_plots = time.perf_counter() - t
    write_file(out_dir / "results.parquet", lambda tmp: write_parquet(run.frame, tmp))
    timings = {"compile": round(run.seconds_compile, 3), "play": round(run.seconds_play, 3),
               **run.seconds_parts,
               "analysis": round(t_analysis, 3), "plots": round(t_plots, 3)}
    config = resolved_config(run, timings)
    write_text(out_dir / "config.json", json.dumps(config, indent=2, default=_json_default) + "\n")
    render.write(run, results, figures, config, out_dir, single_file=single_file)
    summary.write(results, run.exp, out_dir)
    # the plots of an older report that this one does not draw go; files simcards never wrote stay
    finish_output_folder(out_dir, [*figures.values(), *REPORT_FILES])
    log(f"wrote {out_dir}")
    return config


def _json_default(value):
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating,)):
        return float(value)
    if isinstance(value, (np.bool_,)):
        return bool(value)
    if isinstance(value, Path):
        return str(value)
    raise TypeError(f"not JSON: {type(value).__name__}")


def run_experiment(path: str | Path, precision: float | None = None, out_dir: str | Path | None = None,
                   threads: int | None = None, log: Log = _quiet, force: bool = False,
                   progress: Progress | None = None, backend=None, run_dir: str | Path | None = None,
                   resume: bool = False, single_file: bool = False) -> Path:
    """``simcards report``: load, play, analyse and write ``reports/NAME/``; returns the folder.

    A folder that already holds files is refused before any game unless ``force``; then
    only the files simcards wrote there (its list ``.simcards-written.json``) are replaced.
    ``backend`` and ``run_dir``/``resume``: as for ``simcards run`` (see ``play``)."""
    exp = load_experiment(path)
    with holding_locks():       # the report folder and the run folder, locked until it is written
        out = check_output_folder(out_dir if out_dir is not None else default_out_dir(exp), force)
        check_precision(precision)   # before the first line of output
        if run_dir is not None:
            check_report_run_folder(Path(run_dir), resume)
        log(f"{exp.title}: {len(exp.cells)} cells, "
            f"{sum(len(c.lineups) for c in exp.cells)} line-ups, strategies {', '.join(exp.strategies)}")
        try:
            run = play(exp, precision, threads, log, progress, backend, run_dir, resume)
        except KeyboardInterrupt:
            if run_dir is None:
                raise Interrupted("no --run-dir, so no game was kept; nothing was written in "
                                  f"{str(out)}") from None
            raise Interrupted(f"the finished chunks are saved in {str(run_dir)}; add --resume "
                              "to finish the report") from None
        write_report(run, out, log, single_file=single_file)
    return out


if __name__ == "__main__":  # pragma: no cover - convenience
    print(run_experiment(sys.argv[1], log=print))
