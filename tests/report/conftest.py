"""Shared fixtures: one tiny experiment is played and reported once per session.

Every experiment here uses the strategies high_first and random only, so the
whole folder needs one compiled kernel (the experiment compiles one kernel for
all its strategies)."""
from __future__ import annotations

from pathlib import Path

import pytest
import typer

TINY = """
game = "five-alive"
title = "tiny"
seed = 11
players = [2, 3]
games = 150
# one look: the verdict tested once at these deals (a sequential verdict would play on towards
# max_games; tests/report/test_verdict.py plays one with small caps)
looks = 1
# the skill index with a heuristic: "auto" would take Five Alive's search player, whose
# milliseconds a decision belong in reports, not in every test of the report machinery
skill = "high_first"

[rules]
lives = 4

[lineups]
mirror = ["high_first"]
pool = ["high_first", "random"]

[sweep]
option = "lives"
values = [3, 5]
players = [3]
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / f"{name}.toml"
    path.write_text(text)
    return path


@pytest.fixture(scope="session")
def cli_app():
    """A fresh typer app with ``report`` registered through simcards.cli.command (until the lead
    adds the line in simcards/cli/__init__.py, the command is reached this way)."""
    import simcards.cli.base as cli     # the module whose ``app`` the ``command`` decorator fills
    from simcards.report.cli import register
    saved = cli.app
    app = typer.Typer()

    @app.callback()
    def main() -> None:
        """simcards (test app)"""

    cli.app = app
    try:
        register(cli.command)
    finally:
        cli.app = saved
    return app


@pytest.fixture(scope="session")
def tiny_report(tmp_path_factory, cli_app):
    """(experiment file, report folder, CLI result) of the tiny experiment, run through the CLI."""
    from typer.testing import CliRunner
    folder = tmp_path_factory.mktemp("tiny")
    exp = write(folder / "", "tiny", TINY)
    out = folder / "out"
    result = CliRunner().invoke(cli_app, ["report", str(exp), "--out-dir", str(out)])
    assert result.exit_code == 0, result.output
    return exp, out, result
