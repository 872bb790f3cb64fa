"""The tutorials' code runs, and the manual builds.

Every ```bash and ```python block of ``docs/tutorials/*.md`` runs, in the page's order, in a
folder of its own (the same path on every run, so that a user strategy folder's kernel is
compiled once and then found in the kernel cache):

- a block whose info string has ``title="PATH"`` (any language) is a file the reader writes:
  it is written to PATH, relative to that folder, and not run;
- a ```python block is run with ``exec``, in one namespace per page, from that folder;
- a ```bash block is run line by line: a line ``simcards ARGS`` as ``python -m simcards ARGS``
  with this interpreter, any other line with ``bash -c``; every line must exit with 0;
- a block right after a line ``<!-- no-test: why -->`` is not run (installing, a cluster);
- other blocks (```text output, ```toml without a title) are shown, not run.

Keep a tutorial's games few (thousands, not millions): after its kernels are cached the whole
file runs in well under a minute.

``test_manual_builds`` runs ``mkdocs build --strict`` (slow: CI runs it). It fails, never skips,
where the docs tools are missing: install them with ``pip install -e '.[docs]'``.
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TUTORIALS = sorted((ROOT / "docs" / "tutorials").glob("*.md"))
NO_TEST = re.compile(r"^<!--\s*no-test\b.*-->\s*$")
FENCE = re.compile(r"^```(?P<info>[^\n`]*)\n(?P<body>.*?)^```[ \t]*$", re.S | re.M)
TITLE = re.compile(r'title="(?P<path>[^"]+)"')
#: a user's own settings would change what the tutorials play
HERMETIC = ("SIMCARDS_STRATEGY_PATH", "SIMCARDS_CLUSTER")

pytestmark = pytest.mark.xdist_group("docs")   # one worker: tutorials share their kernels


def blocks(page: Path) -> list[tuple[int, str, str, str | None]]:
    """(line, language, code, file to write) of every block of ``page`` that the test acts on."""
    text = page.read_text(encoding="utf-8")
    found = []
    for match in FENCE.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        before = text[:match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        if NO_TEST.match(before.strip()):
            continue
        info = match.group("info").strip()
        language = info.split(" ", 1)[0] if info else ""
        title = TITLE.search(info)
        if title:
            found.append((line, language, match.group("body"), title.group("path")))
        elif language in ("bash", "python"):
            found.append((line, language, match.group("body"), None))
    return found


def tutorial_folder(page: Path) -> Path:
    """The page's folder: the same path on every run (a user folder's kernel is keyed by its
    path), one per checkout, emptied before each run."""
    checkout = hashlib.sha256(str(ROOT).encode()).hexdigest()[:8]
    folder = Path(tempfile.gettempdir()) / f"simcards-tutorials-{checkout}" / page.stem
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder


def run_line(line: str, folder: Path, where: str) -> None:
    args = shlex.split(line, comments=True)
    if not args:
        return
    env = {k: v for k, v in os.environ.items() if k not in HERMETIC}
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    if args[0] == "simcards":
        command = [sys.executable, "-m", "simcards", *args[1:]]
    else:
        command = ["bash", "-c", line]
    done = subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, (
        f"{where}: `{line}` exited with {done.returncode}\n--- stdout\n{done.stdout[-3000:]}"
        f"\n--- stderr\n{done.stderr[-3000:]}")


# slow: every tutorial's commands, compiles included (1-3 min); CI runs them
@pytest.mark.slow
@pytest.mark.parametrize("page", TUTORIALS, ids=[p.stem for p in TUTORIALS])
def test_tutorial_runs(page: Path, monkeypatch):
    found = blocks(page)
    assert found, f"{page.relative_to(ROOT)} has no code block to run"
    folder = tutorial_folder(page)
    for name in HERMETIC:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(folder)
    namespace: dict = {"__name__": "__tutorial__"}
    for line, language, code, path in found:
        where = f"{page.relative_to(ROOT)}:{line}"
        if path is not None:
            target = folder / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(code, encoding="utf-8")
        elif language == "python":
            exec(compile(code, where, "exec"), namespace)
        else:
            for command in code.splitlines():
                run_line(command, folder, where)


def test_no_test_marks_name_a_reason():
    """A block left out of the test says why, so that leaving one out stays a decision."""
    for page in TUTORIALS:
        for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            if NO_TEST.match(line.strip()):
                assert re.match(r"^<!--\s*no-test:\s*\S", line.strip()), (
                    f"{page.relative_to(ROOT)}:{n}: write the reason, <!-- no-test: why -->")


DOCS_TOOLS = ("mkdocs", "material", "mkdocstrings", "mkdocstrings_handlers.python", "mkdocs_typer")


@pytest.mark.slow
def test_manual_builds(tmp_path):
    """``mkdocs build --strict``: every page, link, nav entry, API block and the CLI block."""
    missing = []
    for name in DOCS_TOOLS:
        try:
            found = importlib.util.find_spec(name)
        except ModuleNotFoundError:
            found = None
        if found is None:
            missing.append(name)
    if missing:
        pytest.fail(f"the docs tools are not installed ({', '.join(missing)}): "
                    "pip install -e '.[docs]'")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                           str(tmp_path / "site")], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stdout[-3000:]}\n{done.stderr[-5000:]}"
    cli = (tmp_path / "site" / "reference" / "cli" / "index.html").read_text(encoding="utf-8")
    assert "--strategy-dir" in cli, "the command-line reference came out empty"
