"""simcards/cached_load.py loads simcards' cached kernels without importing numba's compiler
registries. It relies on numba internals; these tests fail loudly if a numba release changes
them, and check that a process that loaded a kernel this way plays it and still compiles."""
from __future__ import annotations

import json
import subprocess
import sys

from numba.core import caching

import simcards
from simcards import cache_folder, cached_load

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


# ------------------------------------------------------------------ checksums (issue 49)
def test_the_cache_file_internals_the_checksums_rely_on_exist():
    """cached_load subclasses numba's IndexDataCacheFile and replaces it in numba's module, where
    Cache.__init__ looks it up by name; a numba release that renames or re-signs these fails here
    (the faults themselves: tests/faults/test_kernel_cache.py)."""
    import inspect
    original = cached_load._NUMBA_FILE
    assert original.__module__ == caching.__name__ and caching.IndexDataCacheFile is cached_load._CheckedCacheFile
    shapes = {"__init__": ("self", "cache_path", "filename_base", "source_stamp"), "_load_index": ("self",),
              "_load_data": ("self", "name"), "_open_for_write": ("self", "filepath"),
              "_data_path": ("self", "name"), "save": ("self", "key", "data"), "load": ("self", "key")}
    for name, params in shapes.items():
        assert tuple(inspect.signature(getattr(original, name)).parameters) == params, (
            f"numba changed numba.core.caching.IndexDataCacheFile.{name}, which simcards.cached_load relies on")
    assert "IndexDataCacheFile(" in inspect.getsource(caching.Cache.__init__), (
        "numba's Cache no longer makes its IndexDataCacheFile by name, which simcards.cached_load relies on")
    made = original("/nowhere", "x.f-1.py311", None)
    assert made._index_path == "/nowhere/x.f-1.py311.nbi" and made._cache_path == "/nowhere"


def test_a_generated_modules_cache_files_carry_a_checksum_that_numba_reads_past(tmp_path):
    base = "_simcards_kernel_five_alive_0123456789abcdef.play_batch-12.py311"
    mine = cached_load._CheckedCacheFile(str(tmp_path), base, "stamp")
    mine.save("key", ("any", "payload"))
    index, data = tmp_path / f"{base}.nbi", tmp_path / f"{base}.1.nbc"
    assert cached_load.intact(index.read_bytes()) and cached_load.intact(data.read_bytes())
    assert mine.load("key") == ("any", "payload")
    # numba's own reader (pickle ignores what follows a pickle) reads the same files
    assert cached_load._NUMBA_FILE(str(tmp_path), base, "stamp").load("key") == ("any", "payload")
    # a user's function is left to numba as it is: no checksum
    theirs = cached_load._CheckedCacheFile(str(tmp_path), "mine.f-3.py311", "stamp")
    theirs.save("key", 1)
    assert not cached_load.intact((tmp_path / "mine.f-3.py311.nbi").read_bytes())


def test_a_cache_file_that_fails_its_checksum_is_removed_and_said_once(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(cache_folder, "_told", set())
    base = "_simcards_kernel_five_alive_0123456789abcdef.play_batch-12.py311"
    mine = cached_load._CheckedCacheFile(str(tmp_path), base, "stamp")
    mine.save("key", "payload")
    data = tmp_path / f"{base}.1.nbc"
    raw = bytearray(data.read_bytes())
    raw[len(raw) // 2] ^= 1
    data.write_bytes(bytes(raw))
    assert mine.load("key") is None and not data.exists()          # a miss: numba compiles again
    (tmp_path / f"{base}.nbi").write_bytes(b"")
    assert mine.load("key") is None and not (tmp_path / f"{base}.nbi").exists()
    err = capsys.readouterr().err
    assert err == ("cached compiled code of _simcards_kernel_five_alive_0123456789abcdef was damaged: "
                   "compiling it again\n")
