"""The packages by layer (docs/explanation/layers.md): the import-linter contracts of
pyproject.toml hold for the code as it is, and they do fail when an import breaks them.

``lint-imports`` runs in a subprocess on a copy of the package, with the copy first on the
path: grimp finds a package by importing its name, and this process has ``simcards`` imported
from the work tree already. CI runs ``lint-imports`` too (.ci/run)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _lint(project: Path) -> subprocess.CompletedProcess:
    """``lint-imports`` over ``project`` (a folder holding ``simcards/`` and ``pyproject.toml``)."""
    env = {**os.environ, "PYTHONPATH": str(project)}
    # no_logo only from import-linter 2.13 on: passed where the installed release takes it (the
    # lowest release pyproject.toml admits, 2.12, has no such argument)
    code = ("import inspect, sys; from importlinter.cli import lint_imports; "
            "extra = {'no_logo': True} if 'no_logo' in inspect.signature(lint_imports).parameters else {}; "
            "sys.exit(lint_imports(config_filename='pyproject.toml', no_cache=True, **extra))")
    return subprocess.run([sys.executable, "-c", code], cwd=project, env=env, capture_output=True,
                          text=True, timeout=120)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the package and its contracts, to break."""
    shutil.copytree(ROOT / "simcards", tmp_path / "simcards",
                    ignore=shutil.ignore_patterns("__pycache__", "*.c", "*.h"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def test_the_contracts_hold(project):
    done = _lint(project)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "3 kept, 0 broken" in done.stdout


def _add_import(path: Path, line: str) -> None:
    """An import inside a function, the kind that hid the old circles: grimp must see it."""
    path.write_text(path.read_text() + f"\n\ndef _injected():\n    {line}\n")


@pytest.mark.parametrize("where, line, broken", [
    # the contract imports the run path: upward
    ("contract/validate.py", "from simcards.run.frame import row_bytes", "imports point down only BROKEN"),
    # the kernels import the statistics beside them: siblings are independent
    ("codegen/sources.py", "from simcards.statistics import intervals", "imports point down only BROKEN"),
    # own code through an old module name (an alias of the moved module)
    ("run/frame.py", "import simcards.batch", "old module names nor the package's face BROKEN"),
    # own code through the package's face, whose __init__ brings the registry
    ("compiled/rng.py", "import simcards", "old module names nor the package's face BROKEN"),
    # one game importing another
    ("games/vzhukh/rules.py", "from simcards.games.five_alive import rules", "a game knows no other game BROKEN"),
])
def test_a_broken_contract_fails(project, where, line, broken):
    _add_import(project / "simcards" / where, line)
    done = _lint(project)
    assert done.returncode == 1, done.stdout + done.stderr
    assert broken in done.stdout, done.stdout
