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
            help="Two report folders A B: test every estimate for a difference B - A (paired on the same "
                 "deals when the seeds match) and print those that differ (Benjamini-Hochberg per kind).")] = None,
        force: Annotated[bool, typer.Option(
            "--force", help="Replace a report folder that already holds files; only files simcards "
                            "wrote there are removed.")] = False,
        single_file: Annotated[bool, typer.Option(
            "--single-file", help="Embed the plots in index.html, so the page is one file to e-mail "
                                  "(the PNG files are still written beside it).")] = False,
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
        from simcards.run.runner import backend_for
        from simcards.contract.validate import check_optional_counts
        check_optional_counts(thread_count=threads, worker_count=workers)
        if resume and run_dir is None:
            raise SimcardsError("--resume needs --run-dir, the folder of the report's runs")
        backend = backend_for(cluster, threads, workers)
        from simcards.run.waits import progress_bar
        err = Console(stderr=True)
        with progress_bar(err, 0) as bar:
            folder = run_experiment(experiment, precision=precision, out_dir=out_dir, threads=threads,
                                    log=lambda msg: err.print(msg, highlight=False, markup=False),
                                    force=force, progress=bar.update, backend=backend, run_dir=run_dir,
                                    resume=resume, single_file=single_file)
        typer.echo(f"report written to {folder / 'index.html'}")


def _compare(a: Path, b: Path) -> None:
    from rich.console import Console
    from rich.table import Table

    from simcards.report.summary import COMPARE_FDR, compare, verdict_changes
    result = compare(a, b)
    out = Console()
    flagged = result[result["flagged"]]
    paired = int((result["test"] == "paired").sum())
    out.print(f"{len(result)} estimates of {a} and {b} tested for a difference B - A: {paired} paired on the "
              f"same deals, {len(result) - paired} two-sample; Benjamini-Hochberg within each kind "
              f"(false discoveries at most {COMPARE_FDR:.0%} per kind).", highlight=False)
    changes = verdict_changes(a, b)
    for r in changes.itertuples():
        out.print(f"verdict at {r.players} players ({r.name}): {r.verdict_a} -> {r.verdict_b}", highlight=False)
    if flagged.empty:
        out.print(f"No estimate of {b} differs from {a} (q < {COMPARE_FDR:g} within its kind).")
        return
    table = Table("kind", "players", "name", "A", "B", "B - A", "95% interval", "test", "p", "q (BH)",
                  title=f"{len(flagged)} estimates of {b} that differ from {a}")
    for r in flagged.itertuples():
        table.add_row(r.kind, "" if r.players is None or str(r.players) == "<NA>" else str(r.players), r.name,
                      f"{r.estimate_a:.4f}", f"{r.estimate_b:.4f}", f"{r.difference:+.4f}",
                      f"{r.diff_low:+.4f} to {r.diff_high:+.4f}", r.test, f"{r.p_value:.2g}", f"{r.q_value:.2g}")
    out.print(table)
