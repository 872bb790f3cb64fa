"""Strategies are files; kernels are generated, cached on disk, and guard against illegal moves."""
import json
import os
import subprocess
import sys
import textwrap
import uuid

import pytest

from simcards.kernels import kernel_key, load_kernel
from simcards.registry import get_game
from simcards.strategy_registry import strategy_dir

SPEC = get_game("five-alive")


@pytest.fixture
def user_tree(tmp_path):
    """A copy of strategies/ on its own import path, so a file a test drops in is
    seen only by the subprocesses of that test (the suite runs in parallel)."""
    import shutil
    root = tmp_path / "tree"
    shutil.copytree(strategy_dir(SPEC).parent, root / "strategies",
                    ignore=shutil.ignore_patterns("__pycache__"))

    def drop(body: str) -> str:
        name = f"zz_test_{uuid.uuid4().hex[:8]}"
        (root / "strategies" / "five_alive" / f"{name}.py").write_text(textwrap.dedent(body))
        return name

    def run(*args: str, code: str | None = None) -> subprocess.CompletedProcess:
        # the tree first; then the caller's path (a worktree under test), if any
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            p for p in (str(root), os.environ.get("PYTHONPATH", "")) if p))
        cmd = [sys.executable, "-c", code] if code else [sys.executable, "-m", "simcards", *args]
        return subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=root)

    drop.run = run
    return drop


LOWEST = '''
    """Play the lowest legal card kind (a test strategy)."""
    from numba import njit
    from simcards.config import NJIT_OPTIONS
    from strategies.five_alive._kit import playable

    @njit(**NJIT_OPTIONS)
    def decide(view, rng):
        for k in range(19):
            if playable(view, k):
                return k
        return -1
'''

ALWAYS_SEVEN = '''
    """Always plays a 7, legal or not (a broken test strategy)."""
    from numba import njit
    from simcards.config import NJIT_OPTIONS

    @njit(**NJIT_OPTIONS)
    def decide(view, rng):
        return 7
'''


def test_a_dropped_file_is_listed_usable_and_compiled(user_tree, tmp_path):
    name = user_tree(LOWEST)
    listed = user_tree.run("strategies", "five-alive")
    assert listed.returncode == 0 and name in listed.stdout
    out = tmp_path / "r.parquet"
    ran = user_tree.run("run", "five-alive", "--strategies", f"{name},high_first", "--games", "200",
                        "--seed", "3", "--out", str(out))
    assert ran.returncode == 0, ran.stderr
    import pandas as pd
    frame = pd.read_parquet(out)
    assert set(frame["strategy"]) == {name, "high_first"}
    assert frame.loc[frame.strategy == name, "win_share"].mean() < 0.5  # lowest-first is weak
    compiled = user_tree.run(code=f"""
from simcards.simulate import prepare, run_range
b = prepare("five-alive", ["{name}", "high_first"], 3)
run_range(b, 0, 20)
k = b.kernel()
print(len(k.play_batch.signatures), "from strategies.five_alive.{name} import decide" in open(k.__file__).read())""")
    # the strategy is called from inside the compiled game loop, not from Python
    assert compiled.stdout.split() == ["1", "True"], compiled.stdout + compiled.stderr


def test_an_illegal_move_names_strategy_game_and_seed(user_tree):
    name = user_tree(ALWAYS_SEVEN)
    ran = user_tree.run("run", "five-alive", "--strategies", f"high_first,{name}", "--games", "100",
                        "--seed", "9")
    assert ran.returncode == 2
    line = ran.stderr.strip()
    assert "\n" not in line and name in line and "seed 9" in line and "seat 1" in line
    # the same error whatever the split: the lowest failing game index is reported
    split = user_tree.run(code=f"""import simcards
for threads, chunk in ((1, 100), (2, 1), (2, 7)):
    try:
        simcards.simulate("five-alive", ["high_first", "{name}"], 100, seed=9, threads=threads,
                          chunk_size=chunk)
    except simcards.IllegalMoveError as err:
        print(err.game_index, err.strategy, err.seed)""")
    rows = split.stdout.split("\n")[:3]
    assert len(set(rows)) == 1 and rows[0].split()[1:] == [name, "9"], split.stdout + split.stderr
    assert f"game index {rows[0].split()[0]}" in line


def test_a_strategy_file_without_decide_is_reported(user_tree):
    user_tree('"""Nothing here."""\n')
    listed = user_tree.run("strategies", "five-alive")
    assert listed.returncode == 2 and "must define decide" in listed.stderr


def test_kernel_key_follows_sources_and_strategy_set(tmp_path, monkeypatch):
    a = kernel_key(SPEC, ("high_first",))
    assert a == kernel_key(SPEC, ("high_first",))
    assert a != kernel_key(SPEC, ("high_first", "random"))
    from simcards import kernels
    real = kernels._dependencies
    changed = tmp_path / "changed.py"
    changed.write_text("# a changed strategy source\n")
    monkeypatch.setattr(kernels, "_dependencies", lambda spec, names: real(spec, names) + [changed])
    b = kernel_key(SPEC, ("high_first",))
    changed.write_text("# changed again\n")
    assert b != a and kernel_key(SPEC, ("high_first",)) != b


def test_generated_module_dispatches_every_strategy():
    module = load_kernel(SPEC, ("high_first", "random"))
    text = open(module.__file__).read()
    assert "s0_decide" in text and "s1_decide" in text and "if sid == 0" in text


FRESH = """
import json, sys
from simcards.simulate import prepare, run_range
b = prepare("five-alive", ["high_first", "random"], 0)
run_range(b, 0, 5)
k = b.kernel().play_batch
print(json.dumps({"hits": sum(k.stats.cache_hits.values()), "misses": sum(k.stats.cache_misses.values())}))
"""


def test_a_fresh_process_loads_the_kernel_from_cache():
    import json
    env = dict(os.environ)
    runs = [json.loads(subprocess.run([sys.executable, "-c", FRESH], capture_output=True, text=True,
                                      check=True, env=env).stdout.strip().splitlines()[-1])
            for _ in range(2)]
    assert runs[1] == {"hits": 1, "misses": 0}


def test_a_game_with_an_illegal_move_replays_up_to_it(user_tree, tmp_path):
    name = user_tree(ALWAYS_SEVEN)
    path = tmp_path / "bug.json"
    ran = user_tree.run("replay", "five-alive", "--seed", "9", "--strategies", f"high_first,{name}",
                        "--open", "--json", str(path))
    assert ran.returncode == 2, ran.stderr
    last = ran.stdout.strip().splitlines()[-1]
    assert last.startswith("ILLEGAL: seat 1") and name in last and "7" in last and "may not play" in last
    error = ran.stderr.strip()
    assert "\n" not in error and name in error and "may not play" in error
    data = json.loads(path.read_text())
    assert data["result"] is None and data["illegal"]["move"] == 7
    assert data["decisions"][-1]["illegal"] and data["decisions"][-1]["view"]["held"].get("7") is None
