"""A kernel loaded from numba's cache starts without importing numba's compiler.

Before it loads a cached function, numba "refreshes" its target context: it imports every
implementation it could need to compile (``numba.np.arraymath``, ``numba.typed``, the random
generators ...) and installs their registries, then initializes its runtime (NRT). Machine code
loaded from the cache needs only the runtime. The imports took 0.7 s of the 2.1 s a fresh
``simcards`` process needs to play its first game from the cache (2026-12-02): a third of the
start of every command, and time that no thread count shortens in ``simcards run``.

For simcards' own cached functions only (the generated kernel modules of simcards.kernels, and
the frame's ``_narrow``, simcards.config), the load initializes the runtime and skips the
imports. Nothing is lost: numba refreshes the context at the start of every compile
(``CompilerBase.__init__``), so a later compile in the same process, or a cache miss (the load
returns None and the dispatcher compiles), installs the registries as before. Other cached
functions (a user's, numba's) load as numba loads them.

This relies on numba internals, as ``simcards.borrow`` and ``simcards.link_only`` do;
``tests/core/test_cached_load.py`` checks them.
"""
from __future__ import annotations

from numba.core import caching as _caching
from numba.core.runtime import rtsys as _rtsys

from simcards.cache_folder import KERNEL_MODULE_PREFIX

#: The modules of simcards' own cached functions: the package's, and the kernel modules
#: simcards.kernels generates.
OWN_MODULES = ("simcards.", KERNEL_MODULE_PREFIX)


def _is_own(cache) -> bool:
    return (getattr(getattr(cache, "_py_func", None), "__module__", None) or "").startswith(OWN_MODULES)


def _load_without_compiler(original):
    def load_overload(self, sig, target_context):
        if not _is_own(self):
            return original(self, sig, target_context)
        _rtsys.initialize(target_context)       # what a loaded kernel needs of refresh()
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)
    return load_overload


def install() -> None:
    """Called when simcards.config is imported. Idempotent (wraps numba's original method)."""
    current = _caching.Cache.load_overload
    original = getattr(current, "__wrapped__", current)
    patched = _load_without_compiler(original)
    patched.__wrapped__ = original
    _caching.Cache.load_overload = patched
