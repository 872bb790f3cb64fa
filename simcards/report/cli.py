"""The ``simcards report`` command; ``simcards.cli`` calls ``register(command)``."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from simcards.errors import SimcardsError


def register(command) -> None:
    """Define ``report`` with ``command`` (simcards.cli.command: one-line errors, exit code 2)."""

    @command("report")
    def report_cmd(
        experiment: Annotated[Optional[Path], typer.Argument(
            help="Experiment file, e.g. experiments/five_alive_balance.toml.")] = None,
        precision: Annotated[Optional[float], typer.Option(
            help="Add batches until every 95% interval's half-width is at most this (e.g. 0.005).")] = None,
        out_dir: Annotated[Optional[Path], typer.Option(
            "--out-dir", help="Report folder (default: reports/NAME beside experiments/).")] = None,
        threads: Annotated[Optional[int], typer.Option(help="Threads (default: all cores).")] = None,
        cluster: Annotated[Optional[str], typer.Option(
            help="Play on Dask: 'local' or a scheduler address tcp://HOST:8786 (as simcards run).")] = None,
        workers: Annotated[Optional[int], typer.Option(help="Workers of a --cluster local.")] = None,
        run_dir: Annotated[Optional[Path], typer.Option(
            help="Keep every line-up's finished chunks here, so an interrupted report can --resume.")] = None,
        resume: Annotated[bool, typer.Option(help="Finish the report whose runs are in --run-dir.")] = False,
        compare: Annotated[Optional[tuple[Path, Path]], typer.Option(
            help="Two report folders A B: print every estimate of B outside A's 95% interval.")] = None,
        force: Annotated[bool, typer.Option(
            "--force", help="Replace a report folder that already holds files; only files simcards "
                            "wrote there are removed.")] = False,
    ) -> None:
        """Run an experiment and write its report: index.html, report.md, plots, results.parquet,
        config.json, summary.json.

        With --compare A B, compare two reports instead."""
        from rich.console import Console
        if compare is not None:
            return _compare(*compare)
        if experiment is None:
            raise SimcardsError("missing experiment file: expected experiments/NAME.toml, or --compare A B")

        from simcards.report.run import run_experiment
        from simcards.runner import backend_for
        from simcards.validate import check_optional_counts
        check_optional_counts(thread_count=threads, worker_count=workers)
        if resume and run_dir is None:
            raise SimcardsError("--resume needs --run-dir, the folder of the report's runs")
        backend = backend_for(cluster, threads, workers)
        from simcards.waits import progress_bar
        err = Console(stderr=True)
        with progress_bar(err, 0) as bar:
            folder = run_experiment(experiment, precision=precision, out_dir=out_dir, threads=threads,
                                    log=lambda msg: err.print(msg, highlight=False, markup=False),
                                    force=force, progress=bar.update, backend=backend, run_dir=run_dir,
                                    resume=resume)
        typer.echo(f"report written to {folder / 'index.html'}")


def _compare(a: Path, b: Path) -> None:
    from rich.console import Console
    from rich.table import Table

    from simcards.report.summary import compare
    moved = compare(a, b)
    out = Console()
    if moved.empty:
        out.print(f"Nothing in {b} moved beyond its interval in {a}.")
        return
    table = Table("kind", "players", "name", "A", "A 95% interval", "B", "B 95% interval",
                  title=f"{len(moved)} estimates of {b} outside their interval in {a}")
    for r in moved.itertuples():
        table.add_row(r.kind, "" if r.players is None or str(r.players) == "<NA>" else str(r.players), r.name,
                      f"{r.estimate_a:.4f}", f"{r.low_a:.4f} to {r.high_a:.4f}", f"{r.estimate_b:.4f}",
                      f"{r.low_b:.4f} to {r.high_b:.4f}")
    out.print(table)
