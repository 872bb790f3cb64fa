"""numba settings and on-disk locations, in one place.

Every kernel is compiled with ``cache=True`` so that a fresh process (the CLI,
a test, a Dask worker) loads machine code from disk instead of recompiling, and
with ``nogil=True`` so that several chunks can run at once on Python threads.
"""
from __future__ import annotations

import os
from pathlib import Path

#: Options for every ``@njit`` in the package and in generated kernel modules.
NJIT_OPTIONS: dict = {"cache": True, "nogil": True, "error_model": "numpy"}


def kernel_dir() -> Path:
    """Folder for generated kernel modules (one per game and strategy set).

    ``SIMCARDS_KERNEL_DIR`` overrides it; Dask workers on other machines should
    point it at a local folder (the modules are regenerated from the sources).
    """
    env = os.environ.get("SIMCARDS_KERNEL_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "simcards" / "kernels"


#: Games per chunk handed to one thread; large enough to amortise the call,
#: small enough for a smooth progress bar.
DEFAULT_CHUNK = 20_000


def default_threads() -> int:
    return max(1, os.cpu_count() or 1)
