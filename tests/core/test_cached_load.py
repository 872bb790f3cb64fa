"""simcards/cached_load.py loads simcards' cached kernels without importing numba's compiler
registries. It relies on numba internals; these tests fail loudly if a numba release changes
them, and check that a process that loaded a kernel this way plays it and still compiles."""
from __future__ import annotations

import json
import subprocess
import sys

from numba.core import caching

import simcards
from simcards import cached_load

FRESH = """
import json, sys
import numpy as np, pandas as pd, simcards
frame = simcards.simulate("five-alive", ["high_first", "random"], 300, seed=4)
registries = "numba.np.arraymath" in sys.modules
from numba import njit
total = njit(lambda a: np.sum(a * 2.0))(np.arange(4.0))   # a compile after the light load
print(json.dumps({"hash": int(pd.util.hash_pandas_object(frame).sum()), "registries": registries,
                  "compiled": float(total)}))
"""


def test_the_internals_it_wraps_exist():
    assert caching.Cache.load_overload.__wrapped__.__module__ == caching.__name__
    for name in ("_load_overload", "_guard_against_spurious_io_errors"):
        assert callable(getattr(caching.Cache, name)), name
    assert callable(cached_load._rtsys.initialize)


def test_a_fresh_process_plays_a_cached_kernel_without_the_compiler_and_still_compiles():
    import pandas as pd
    here = simcards.simulate("five-alive", ["high_first", "random"], 300, seed=4)   # compiled or cached
    done = subprocess.run([sys.executable, "-c", FRESH], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    there = json.loads(done.stdout.strip().splitlines()[-1])
    assert there["hash"] == int(pd.util.hash_pandas_object(here).sum())
    assert there["registries"] is False and there["compiled"] == 12.0


def test_only_simcards_own_functions_are_concerned():
    class Cache:
        def __init__(self, module):
            self._py_func = type("F", (), {"__module__": module})()
    assert cached_load._is_own(Cache("_simcards_kernel_five_alive_0123456789abcdef"))
    assert cached_load._is_own(Cache("simcards.frame"))
    assert not cached_load._is_own(Cache("my_project.kernels"))
    assert not cached_load._is_own(Cache("simcards_user_abc.five_alive.mine"))


def test_install_again_wraps_numbas_own_method():
    cached_load.install()
    cached_load.install()
    assert caching.Cache.load_overload.__wrapped__.__module__ == caching.__name__
