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
        experiment: Annotated[Path, typer.Argument(help="Experiment file, e.g. experiments/five_alive_balance.toml.")],
        precision: Annotated[Optional[float], typer.Option(
            help="Add batches until every 95% interval's half-width is at most this (e.g. 0.005).")] = None,
        out_dir: Annotated[Optional[Path], typer.Option(
            "--out-dir", help="Report folder (default: reports/NAME beside experiments/).")] = None,
        threads: Annotated[Optional[int], typer.Option(help="Threads (default: all cores).")] = None,
        force: Annotated[bool, typer.Option(
            "--force", help="Replace a report folder that already holds files; only files simcards "
                            "wrote there are removed.")] = False,
    ) -> None:
        """Run an experiment and write its report: index.html, report.md, plots, results.parquet, config.json."""
        from rich.console import Console

        from simcards.report.run import run_experiment
        if threads is not None and threads < 1:
            raise SimcardsError(f"bad thread count {threads}: expected a positive integer")
        from simcards.waits import progress_bar
        err = Console(stderr=True)
        with progress_bar(err, 0) as bar:
            folder = run_experiment(experiment, precision=precision, out_dir=out_dir, threads=threads,
                                    log=lambda msg: err.print(msg, highlight=False, markup=False),
                                    force=force, progress=bar.update)
        typer.echo(f"report written to {folder / 'index.html'}")
