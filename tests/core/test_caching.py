"""Compiled code follows every edit: a warm cache after an edit plays exactly what a cold copy plays.

Each test works on its own copy of the source tree (``simcards/`` and the built-in
strategies as ``simcards_strategies/``) with its own kernel folder, run in fresh
processes, so nothing here touches the installed tree or another test's caches.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import simcards
from simcards.strategy_registry import _builtin_root

PLAY = """
import pandas as pd, simcards
frame = simcards.simulate("five-alive", ["expert", "high_first"], 400, seed=5, threads=1)
print(int(pd.util.hash_pandas_object(frame).sum()))
"""

# What the next process would load, without compiling it: the kernel's module name (its key
# over every source it depends on) and whether numba holds machine code for that name.
PROBE = """
from simcards.batch import prepare
from simcards.cache_folder import kernel_dir
from simcards.kernel_waits import is_cached
from simcards.kernels import kernel_module_name
b = prepare("five-alive", ["expert", "high_first"], 5)
name = kernel_module_name(b.spec, b.infos)
print(name, is_cached(kernel_dir(), name))
"""


def _copy_tree(dest: Path) -> Path:
    ignore = shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc")
    shutil.copytree(Path(simcards.__file__).parent, dest / "simcards", ignore=ignore)
    shutil.copytree(_builtin_root(), dest / "simcards_strategies", ignore=ignore)
    return dest


def _run(tree: Path, code: str = PLAY) -> str:
    env = dict(os.environ, PYTHONPATH=str(tree), SIMCARDS_KERNEL_DIR=str(tree / "kernels"),
               SIMCARDS_STRATEGY_PATH="")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          cwd=tree)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def _edit(path: Path, pattern: str, replacement: str) -> None:
    text = path.read_text()
    new, count = re.subn(pattern, replacement, text, count=1, flags=re.M)
    assert count == 1, f"{pattern!r} not found in {path}"
    path.write_text(new)


EDITS = [
    # a rule constant that the engine imports from rules.py
    ("simcards/games/five_alive/rules.py", r"^LIMIT = 21$", "LIMIT = 24"),
    # a module that expert.py imports (not a file the kernel names)
    ("simcards_strategies/five_alive/hold_actions.py", r"^ACTION_ORDER = \((\w+), (\w+), (\w+)",
     r"ACTION_ORDER = (\3, \2, \1"),
    # a strategy file the kernel names
    ("simcards_strategies/five_alive/high_first.py", r"^ACTION_ORDER = \((\w+), (\w+)", r"ACTION_ORDER = (\2, \1"),
]


# slow: several cold kernel compiles (40-110 s on 2 cores); CI runs it (.ci/run: -m slow)
@pytest.mark.slow
def test_every_edit_is_played_by_the_next_process_as_a_cold_copy_would(tmp_path):
    warm = _copy_tree(tmp_path / "warm")
    before = _run(warm)
    assert _run(warm) == before                 # from cache: the same
    # Each edit gives the kernel a new name that numba holds no code for, so the next process
    # compiles it from the sources as they are. Compiled and played after the last edit only:
    # a cold compile costs about 20 s, and the played result checks what the names promise.
    name, cached = _run(warm, PROBE).split()
    assert cached == "True"                     # the probe sees the kernel just played
    seen = {name}
    for relative, pattern, replacement in EDITS:
        _edit(warm / relative, pattern, replacement)
        name, cached = _run(warm, PROBE).split()
        assert cached == "False" and name not in seen, f"editing {relative} left the kernel's name: stale machine code"
        seen.add(name)
    after = _run(warm)
    assert after != before, "the edits changed nothing: stale machine code"
    assert _run(warm, PROBE).split() == [name, "True"]
    before = after
    cold = _copy_tree(tmp_path / "cold")
    for relative, pattern, replacement in EDITS:
        _edit(cold / relative, pattern, replacement)
    assert _run(cold) == before
    # a process that sees a strategy edited while it runs says restart; on the warm tree, whose
    # kernel is in cache, so that this costs no compile of its own
    relative, pattern, replacement = EDITS[2]
    code = PLAY + f"""
import re, pathlib
p = pathlib.Path({str(warm / relative)!r})
p.write_text(re.sub({pattern!r}, {replacement!r}, p.read_text(), count=1, flags=re.M))
try:
    simcards.simulate("five-alive", ["expert", "high_first"], 10, seed=5)
except simcards.SimcardsError as exc:
    print("ERROR", exc)
"""
    out = _run(warm, code)
    assert out.startswith("ERROR") and "high_first.py changed" in out and "restart" in out


@pytest.mark.parametrize("name", ["compiled/rng.py", "compiled/borrow.py", "codegen/kernels.py", "games/five_alive/view.py",
                                  "games/five_alive/fast.py",
                                  # the rule options, and the helper that numbers the row's slots
                                  "games/five_alive/rules.py", "contract/options.py"])
def test_the_kernel_key_covers_the_engine_layer(name):
    from simcards.kernels import dependencies
    from simcards.strategy_registry import check_strategies
    spec = simcards.get_game("five-alive")
    infos = check_strategies(spec, ["expert"]).values()
    deps = {p.as_posix() for p in dependencies(spec, list(infos))}
    assert any(d.endswith("simcards/" + name) for d in deps)
    assert any(d.endswith("five_alive/hold_actions.py") for d in deps)
    assert not any(d.endswith("reference.py") for d in deps)   # editing it recompiles nothing
    # nor does editing the API, the runner or the reports: simcards/__init__ counts, its imports don't
    assert not any(d.endswith(("batch.py", "runner.py", "cli.py")) or "/report/" in d for d in deps)


@pytest.mark.parametrize("game", ["bombs-away", "crazy-eights", "five-alive", "thirty-one", "vzhukh"])
def test_a_search_kernel_key_covers_the_search_template_and_the_games_hooks(game):
    """A game's search is simcards.compiled.search's template (make_search) closed over the
    hooks in its search.py: an edit of either must give the kernel a new name."""
    from simcards.kernels import dependencies
    from simcards.strategy_registry import check_strategies
    spec = simcards.get_game(game)
    infos = check_strategies(spec, ["search"]).values()
    deps = {p.as_posix() for p in dependencies(spec, list(infos))}
    assert any(d.endswith("simcards/compiled/search.py") for d in deps)
    assert any(d.endswith(f"{spec.module_name}/search.py") and "/simcards/" not in d for d in deps)


def test_a_file_edited_or_removed_after_this_process_used_it_is_stale(tmp_path):
    """``sources.check_unchanged`` against what ``observe`` saw first: an edit and a removal
    both say restart; observing again does not take the edited text as the new truth."""
    from simcards import sources
    from simcards.errors import StaleCodeError
    path = tmp_path / "rule.py"
    path.write_text("LIMIT = 1\n")
    sources.observe([path])
    sources.check_unchanged([path])
    path.write_text("LIMIT = 22\n")          # another size: a new digest whatever the clock
    sources.observe([path])
    with pytest.raises(StaleCodeError, match="rule.py changed"):
        sources.check_unchanged([path])
    path.write_text("LIMIT = 1\n")
    sources.check_unchanged([path])           # the text this process compiled, back again
    path.unlink()
    with pytest.raises(StaleCodeError, match="rule.py changed"):
        sources.check_unchanged([path])


def test_a_module_created_after_a_closure_is_followed_by_the_next(tmp_path, monkeypatch):
    """``sources.closure`` looks each module up once per call, not once per process: a helper
    a strategy starts importing, written after the last run in this process, counts at the next."""
    import importlib
    from simcards import sources
    package = tmp_path / "closure_pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "strategy.py").write_text("from closure_pkg import helper\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    names = lambda: {p.name for p in sources.closure(["closure_pkg.strategy"], [tmp_path])}
    assert names() == {"__init__.py", "strategy.py"}
    (package / "helper.py").write_text("from closure_pkg import deep\n")
    (package / "deep.py").write_text("X = 1\n")
    importlib.invalidate_caches()
    assert names() == {"__init__.py", "strategy.py", "helper.py", "deep.py"}
