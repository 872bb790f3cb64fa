"""Run an experiment and write its report folder: load it, play it (simcards.report.play), analyse
it and write every file (results.parquet, config.json, report.md, index.html, summary.json).
"""
from __future__ import annotations

import json
import platform
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from simcards.errors import SimcardsError
from simcards.outputs import (FOLDER_LOCK, check_output_folder, finish_output_folder, holding_locks,
                              take_lock, write_file, write_text)
from simcards.report.analysis import Results
from simcards.report.experiment import Experiment, load_experiment
# playing the experiment, its own module; its names are reachable from here too
from simcards.report.play import (PRECISION_SHARE, Log, Progress, Run, _downcast, _quiet,  # noqa: F401
                                  check_precision, make_batch, play, precision_minutes)
from simcards.report.results import analyse
from simcards.run.frame import write_parquet
from simcards.run.run_folder import Interrupted

REPORT_FILES = ("results.parquet", "config.json", "report.md", "index.html", "summary.json")


def default_out_dir(exp: Experiment) -> Path:
    """``reports/NAME`` beside the ``experiments`` folder holding the file, else under the current folder."""
    folder = exp.path.resolve().parent
    base = folder.parent / "reports" if folder.name == "experiments" else Path("reports")
    return base / exp.name


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
