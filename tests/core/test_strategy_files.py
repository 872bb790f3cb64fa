"""Strategies are files, in the built-in folder or a user's: listed, compiled into the loop,
and a broken one breaks only the runs that use it, with one line naming file, line and fault."""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pandas as pd
import pytest

import simcards
from simcards.errors import StrategyError
from simcards.strategy_registry import check_strategies, mount, strategies_for

SPEC = simcards.get_game("five-alive")

# Delegating to a built-in keeps these files independent of the view's accessors.
LIKE_HIGH_FIRST = '''
    """Plays like high_first (a test strategy from a user's folder)."""
    from numba import njit
    from simcards.config import NJIT_OPTIONS
    from simcards_strategies.five_alive.high_first import decide as _high_first

    @njit(**NJIT_OPTIONS)
    def decide(view, rng):
        return _high_first(view, rng)
'''

ALWAYS_SEVEN = '''
    """Always plays a 7, legal or not (a broken test strategy)."""
    from numba import njit
    from simcards.config import NJIT_OPTIONS

    @njit(**NJIT_OPTIONS)
    def decide(view, rng):
        return 7
'''

BROKEN = {
    "syntax": ('"""Bad."""\ndef decide(view, rng)\n    return 0\n', "line 2", "syntax error"),
    "uncompiled": ('"""No njit."""\n\n\ndef decide(view, rng):\n    return 0\n', "line 4",
                   "decide is not compiled"),
    "no_decide": ('"""Nothing here."""\n', "", "must define decide"),
    "raises": ('"""Fails on import."""\nimport math\nX = math.nosuch\n', "line 3", "AttributeError"),
}


def _folder(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "mine"
    (root / "five_alive").mkdir(parents=True)
    for name, body in files.items():
        (root / "five_alive" / f"{name}.py").write_text(textwrap.dedent(body))
    return root


def _cli(*args: str) -> subprocess.CompletedProcess:
    """The command line, in this process: a fresh one would compile the engine again (about
    20 s) where this one links the kernel from the functions it has compiled already."""
    from typer.testing import CliRunner

    from simcards.cli import app
    result = CliRunner().invoke(app, list(args))
    return subprocess.CompletedProcess(args, result.exit_code, result.stdout, result.stderr)


def test_a_users_folder_is_listed_compiled_and_played_like_a_builtin(tmp_path, monkeypatch):
    root = _folder(tmp_path, {"mine_hf": LIKE_HIGH_FIRST})
    listed = _cli("strategies", "five-alive", "--strategy-dir", str(root))
    assert listed.returncode == 0 and "mine_hf" in listed.stdout and "high_first" in listed.stdout
    out = tmp_path / "r.parquet"
    ran = _cli("run", "five-alive", "--strategies", "mine_hf,random", "--games", "300", "--seed", "3",
               "--no-rotate", "--out", str(out), "--strategy-dir", str(root))
    assert ran.returncode == 0, ran.stderr
    mine = pd.read_parquet(out)
    builtin = simcards.simulate("five-alive", ["high_first", "random"], 300, seed=3)
    # the same play, bit for bit, under another name
    assert (mine["win_share"].to_numpy() == builtin["win_share"].to_numpy()).all()
    # and through the environment variable, with the API
    monkeypatch.setenv("SIMCARDS_STRATEGY_PATH", str(root))
    through_env = simcards.simulate("five-alive", ["mine_hf", "random"], 300, seed=3)
    assert (through_env["win_share"].to_numpy() == builtin["win_share"].to_numpy()).all()
    assert through_env["strategy"].iloc[0] == "mine_hf"


def test_the_generated_kernel_imports_the_users_module():
    from simcards.batch import prepare
    batch = prepare("five-alive", ["high_first", "random"], 0)
    text = Path(batch.kernel().__file__).read_text()
    assert "from simcards_strategies.five_alive.high_first import decide as s0_decide" in text
    assert "if sid == 0" in text


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_a_broken_file_names_file_line_and_fault_and_breaks_only_its_runs(tmp_path, kind):
    body, line, fault = BROKEN[kind]
    root = _folder(tmp_path, {f"bad_{kind}": body})
    name = f"bad_{kind}"
    with pytest.raises(StrategyError) as caught:
        check_strategies(SPEC, [name], [root])
    message = str(caught.value)
    assert "\n" not in message and f"{name}.py" in message and line in message and fault in message
    # other strategies of the same game still work with the broken file beside them
    assert check_strategies(SPEC, ["high_first"], [root])
    listed = strategies_for(SPEC, [root])
    assert "high_first" in listed and name in listed


def test_a_hyphen_in_a_name_is_refused_without_importing(tmp_path):
    root = _folder(tmp_path, {"my-strategy": LIKE_HIGH_FIRST})
    info = strategies_for(SPEC, [root])["my-strategy"]
    assert "not a Python identifier" in info.problem and "'my_strategy'" in info.problem
    with pytest.raises(StrategyError):
        check_strategies(SPEC, ["my-strategy"], [root])


def test_a_name_defined_twice_is_refused(tmp_path):
    root = _folder(tmp_path, {"high_first": LIKE_HIGH_FIRST})
    with pytest.raises(StrategyError, match="defined twice"):
        check_strategies(SPEC, ["high_first"], [root])


def test_a_missing_folder_is_one_clear_error(tmp_path):
    ran = _cli("strategies", "five-alive", "--strategy-dir", str(tmp_path / "nowhere"))
    assert ran.returncode == 2 and "is not a folder" in ran.stderr and len(ran.stderr.strip().splitlines()) == 1


def test_an_illegal_move_names_strategy_game_and_seed(tmp_path):
    root = _folder(tmp_path, {"sevens": ALWAYS_SEVEN})
    ran = _cli("run", "five-alive", "--strategies", "high_first,sevens", "--games", "100", "--seed", "9",
               "--no-rotate", "--strategy-dir", str(root))
    assert ran.returncode == 2
    line = ran.stderr.strip()
    assert "\n" not in line and "sevens" in line and "seed 9" in line and "seat 1" in line
    # the same error whatever the split: the lowest failing game index is reported
    for threads, chunk in ((1, 100), (2, 1), (2, 7)):
        with pytest.raises(simcards.IllegalMoveError) as caught:
            simcards.simulate("five-alive", ["high_first", "sevens"], 100, seed=9, threads=threads,
                              chunk_size=chunk, strategy_dirs=[root])
        assert f"game index {caught.value.game_index}" in line and caught.value.strategy == "sevens"


def test_user_folders_mount_under_a_stable_name(tmp_path):
    assert mount(tmp_path) == mount(str(tmp_path)) and mount(tmp_path).startswith("simcards_user_")


def test_installing_puts_no_generic_strategies_package_in_site_packages(tmp_path):
    """Build the wheel from the project's own files and look inside."""
    import shutil
    import zipfile
    source = Path(simcards.__file__).parent.parent
    project = tmp_path / "project"     # a copy: building writes build/ and egg-info beside the sources
    ignore = shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc")
    project.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(source / name, project / name)
    for name in ("simcards", "strategies"):
        shutil.copytree(source / name, project / name, ignore=ignore)
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                            "-w", str(tmp_path), str(project)], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr[-2000:]
    wheel = next(tmp_path.glob("simcards-*.whl"))
    tops = {name.split("/")[0] for name in zipfile.ZipFile(wheel).namelist()}
    assert "strategies" not in tops
    assert {"simcards", "simcards_strategies"} <= tops
    names = zipfile.ZipFile(wheel).namelist()
    assert "simcards_strategies/five_alive/expert.py" in names
    # the C yardsticks of `simcards bench`: each game's program in its package, the shared headers
    assert {"simcards/games/five_alive/yardstick.c", "simcards/games/vzhukh/yardstick.c",
            "simcards/yardstick/yardstick.h", "simcards/yardstick/yardstick_main.h"} <= set(names)


def test_a_game_with_an_illegal_move_replays_up_to_it(tmp_path):
    import json
    root = _folder(tmp_path, {"sevens": ALWAYS_SEVEN})
    path = tmp_path / "bug.json"
    ran = _cli("replay", "five-alive", "--seed", "9", "--strategies", "high_first,sevens", "--open",
               "--json", str(path), "--strategy-dir", str(root))
    assert ran.returncode == 2, ran.stderr
    last = ran.stdout.strip().splitlines()[-1]
    assert last.startswith("ILLEGAL: seat 1") and "sevens" in last and "7" in last
    error = ran.stderr.strip()
    assert "\n" not in error and "sevens" in error
    data = json.loads(path.read_text())
    assert data["result"] is None and data["illegal"]["move"] == 7
    assert data["decisions"][-1]["illegal"]
    # a replay compiles the replay loop alone, not the batch loop it does not play
    from simcards.batch import prepare
    from simcards.cache_folder import kernel_dir
    from simcards.kernel_waits import is_cached
    from simcards.kernels import kernel_module_name
    batch = prepare("five-alive", ["high_first", "sevens"], 9, strategy_dirs=[root])
    name = kernel_module_name(batch.spec, batch.infos)
    assert is_cached(kernel_dir(), name, "record_game") and not is_cached(kernel_dir(), name, "play_batch")


FRESH = """
import json
from simcards.batch import prepare
b = prepare("five-alive", ["high_first", "random"], 0)
k = b.kernel().play_batch
print(json.dumps({"hits": sum(k.stats.cache_hits.values()), "misses": sum(k.stats.cache_misses.values())}))
"""


def test_a_fresh_process_loads_the_kernel_from_cache():
    import json
    runs = [json.loads(subprocess.run([sys.executable, "-c", FRESH], capture_output=True, text=True,
                                      check=True).stdout.strip().splitlines()[-1])
            for _ in range(2)]
    assert runs[1] == {"hits": 1, "misses": 0}


@pytest.mark.parametrize("game", simcards.list_games())
def test_every_builtin_decision_runs_without_reference_counting(game):
    """A decision compiled on its own with numba's reference counting pays atomic increments
    and decrements at every call (Five Alive's expert x4: 37.5 against 30.8 ns a turn): each
    built-in one is compiled without it (STRATEGY_NJIT_OPTIONS) or inlined by LLVM
    (FORCEINLINE_NJIT_OPTIONS), or is a search's one-line hand-over that numba inlines."""
    import importlib
    from numba.core.registry import CPUDispatcher

    from simcards.config import FORCEINLINE_NJIT_OPTIONS, STRATEGY_NJIT_OPTIONS
    spec = simcards.get_game(game)
    checked = 0
    for name, info in strategies_for(spec).items():
        if info.alias or info.problem:
            continue
        module = importlib.import_module(info.module)
        for decision in spec.decisions:
            fn = getattr(module, decision.function, None)
            if fn is None:          # left out: the game's default plays it
                continue
            assert isinstance(fn, CPUDispatcher), (name, decision.function)
            options = fn.targetoptions
            ok = (options.get("_nrt") is False and options.items() >= STRATEGY_NJIT_OPTIONS.items()
                  or options.items() >= FORCEINLINE_NJIT_OPTIONS.items()
                  or options.get("inline") == "always")
            assert ok, f"{name}.{decision.function}: {options}"
            checked += 1
    assert checked >= len(spec.decisions) * 3


NOT_COMPILED = {
    "typo": ('''
        """Reads a field no view has (a broken test strategy)."""
        from numba import njit
        from simcards.config import NJIT_OPTIONS

        @njit(**NJIT_OPTIONS)
        def decide(view, rng):
            return view.no_such_field
    ''', "line 8", "Unknown attribute 'no_such_field'", False),
    "allocates": ('''
        """Allocates without reference counting (a broken test strategy)."""
        import numpy as np
        from numba import njit
        from simcards.config import STRATEGY_NJIT_OPTIONS
        from simcards_strategies.five_alive.high_first import decide as _high_first

        @njit(**STRATEGY_NJIT_OPTIONS)
        def decide(view, rng):
            room = np.zeros(2, np.int64)
            return _high_first(view, rng) + room[0]
    ''', "line 10", "zeros", True),
}


@pytest.mark.parametrize("kind", sorted(NOT_COMPILED))
def test_a_strategy_numba_cannot_compile_is_one_line_naming_file_and_line(tmp_path, kind):
    """Not numba's hundred lines of nested frames: the file, the line, numba's first words, and
    for a decision without reference counting that allocates, what to use instead."""
    body, line, fault, hint = NOT_COMPILED[kind]
    root = _folder(tmp_path, {f"bad_{kind}": body})
    with pytest.raises(StrategyError) as caught:
        simcards.simulate("five-alive", [f"bad_{kind}", "high_first"], 10, strategy_dirs=[root])
    message = str(caught.value)
    assert "\n" not in message and f"bad_{kind}.py {line}:" in message and fault in message, message
    assert ("may not allocate: use NJIT_OPTIONS" in message) == hint, message
