"""Strategies are files; kernels are generated, cached on disk, and guard against illegal moves."""
import os
import subprocess
import sys
import textwrap
import uuid

import pytest

import simcards
from simcards.errors import IllegalMoveError
from simcards.kernels import kernel_key, load_kernel
from simcards.registry import get_game
from simcards.strategy_registry import strategy_dir

SPEC = get_game("five-alive")


@pytest.fixture
def dropped_strategy():
    """Write a strategy file into strategies/five_alive/ the way a user would; remove it after."""
    made = []

    def drop(body: str) -> str:
        name = f"zz_test_{uuid.uuid4().hex[:8]}"
        path = strategy_dir(SPEC) / f"{name}.py"
        path.write_text(textwrap.dedent(body))
        made.append(path)
        return name

    yield drop
    for path in made:
        path.unlink(missing_ok=True)


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


def test_a_dropped_file_is_listed_usable_and_compiled(dropped_strategy):
    name = dropped_strategy(LOWEST)
    assert name in simcards.list_strategies("five-alive")
    frame = simcards.simulate("five-alive", [name, "high_first"], 200, seed=3)
    assert set(frame["strategy"]) == {name, "high_first"}
    module = sys.modules[f"strategies.five_alive.{name}"]
    assert module.decide.signatures, "the strategy was compiled, not interpreted"
    assert frame.loc[frame.strategy == name, "win_share"].mean() < 0.5  # lowest-first is weak


def test_an_illegal_move_names_strategy_game_and_seed(dropped_strategy):
    name = dropped_strategy(ALWAYS_SEVEN)
    with pytest.raises(IllegalMoveError) as info:
        simcards.simulate("five-alive", ["high_first", name], 100, seed=9)
    err = info.value
    assert err.strategy == name and err.seed == 9 and err.seat == 1
    first_bad = err.game_index
    assert f"game index {first_bad}" in str(err) and name in str(err) and "seed 9" in str(err)
    # the same error whatever the split: the lowest failing game is reported
    with pytest.raises(IllegalMoveError) as again:
        simcards.simulate("five-alive", ["high_first", name], 100, seed=9, threads=2, chunk_size=1)
    assert again.value.game_index == first_bad


def test_a_strategy_file_without_decide_is_reported(dropped_strategy):
    dropped_strategy('"""Nothing here."""\n')
    with pytest.raises(simcards.SimcardsError, match="must define decide"):
        simcards.list_strategies("five-alive")


def test_kernel_key_follows_sources_and_strategy_set(dropped_strategy):
    a = kernel_key(SPEC, ("high_first",))
    assert a == kernel_key(SPEC, ("high_first",))
    assert a != kernel_key(SPEC, ("high_first", "random"))
    name = dropped_strategy(LOWEST)
    key = kernel_key(SPEC, (name,))
    path = strategy_dir(SPEC) / f"{name}.py"
    path.write_text(path.read_text() + "\n# changed\n")
    assert kernel_key(SPEC, (name,)) != key


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
