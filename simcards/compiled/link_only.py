"""The engines' internal functions are only ever linked into their callers: numba is kept from
optimizing their modules on their own and from emitting machine code for them.

numba makes every compiled function a code library of its own. It optimizes the library's LLVM
module (O3), emits its machine code, and then links the module into every library that calls it,
where it is optimized and emitted again, at every level of a call chain (simcards.config,
"Compiled functions"). A function compiled with ``simcards.config.INTERNAL_NJIT_FLAGS`` has no
Python or C wrapper, so nothing can ever run its own machine code: a caller always links its IR.
For such a library, the module optimization and the machine code are work thrown away; the
kernel that links it optimizes and emits it once, with everything it calls. Measured on Bombs
Away's kernel (four ``random``), they were about a fifth of its cold compile (issue 13, whose note
has the figures), and the kernel's run time did not move beyond this machine's noise.

This relies on numba internals, as ``simcards.borrow`` does; ``tests/core/test_link_only.py``
checks them under the numba versions pyproject.toml admits. The change is narrow: a library is
left unemitted only when every function it defines is simcards' own (mangled names of the
``simcards`` and ``simcards_strategies`` packages and of the generated kernel modules) or
numba's copy of a helper it calls, and none is a Python or C wrapper. Anything else (user code,
numba's own helper libraries, every function with a wrapper) compiles as numba does it. The
kernel modules' helpers (the replay loop, simcards.kernels) are left unemitted too: the loop was
optimized and emitted three times for a replay (its own library, ``count_steps``, ``record_game``).
A library left unemitted still goes through numba's checks (dynamic globals, declared-only
symbols) and is marked finalized, so it links as before. Its function's dispatcher entry holds a
null address, which numba gives any function compiled without a Python wrapper anyway.

Most of simcards' compiled functions are called by kernels and by Python too (tests, replays,
which run strategies' decisions as Python). Compiled callers therefore see each of them as a
wrapperless clone (``_linked_type``, installed on numba's ``Dispatcher._numba_type_``): the
clone's library is only linked, and Python calls the function itself, which compiles with its
wrapper at its first Python call. Before, about 90 helper libraries of a search kernel were
emitted alone besides in the kernel; a cold search kernel compiled in 21-40 s of CPU, and now
in 16.5-31 s, alternated on the same hour (issue 13). A clone's library is still optimized
(``CLONE_FLAG``), unlike a wrapperless function's: left unoptimized, Bombs Away's kernel called
its strategy's decisions instead of inlining them. ``Linked`` remains for functions that Python calls in the
same process as the kernels (a search's loop, simcards.compiled.search.make_search; a re-deal): its
twin links the kernels' compile instead of compiling the function again.
"""
from __future__ import annotations

import functools
import re
from typing import Callable

from numba import njit, types
from numba.core import codegen as _codegen
from numba.core import dispatcher as _dispatcher

from simcards.compiled.cache_folder import KERNEL_MODULE_PREFIX
from simcards.compiled.inline_once import compiling as _compiling

#: Mangled-name prefixes of the functions this may leave unemitted (Itanium mangling: the
#: length of the package name, then the name).
OWN_PREFIXES = ("_ZN8simcards", "_ZN19simcards_strategies")
#: The mangled form of the names of the modules simcards.kernels generates (their prefix:
#: simcards.cache_folder), whose length prefix varies with the name.
KERNEL_MODULE = re.compile(rf"_ZN\d+{KERNEL_MODULE_PREFIX}")
#: What numba copies into a caller's module beside its functions: its reference-count helpers,
#: its own library functions (array helpers, error messages), exception argument unwrappers and
#: a typed dict's destructor (``linkonce_odr``, defined in every module that makes a dict: it kept
#: Five Alive's ``search_move``, whose memo is a dict, optimized and emitted alone, 2.3 s of its
#: kernel's compile). Copies only: the libraries they come from are compiled as numba compiles them.
NUMBA_COPIES = ("NRT_incref", "NRT_decref", "_ZN5numba", "__excinfo_unwrap_args", "_numba_dict_dtor")
#: numba's flags for a function with no Python or C wrapper: nothing but a compiled caller can
#: run it, so it is only ever linked (simcards.config builds its option sets from these).
WRAPPERLESS: dict = {"no_cpython_wrapper": True, "no_cfunc_wrapper": True}
#: Set on a library left unemitted (also what the tests look for).
FLAG = "_simcards_link_only"


def _own(name: str) -> bool:
    return name.startswith(OWN_PREFIXES) or KERNEL_MODULE.match(name) is not None


def is_link_only(library) -> bool:
    """True for a library of simcards' own functions, beside numba's copies of its helpers
    (``NUMBA_COPIES``), none of them a wrapper: only ever linked. Decided once, after its
    callees are linked in (numba links before optimizing)."""
    known = getattr(library, FLAG, None)
    if known is None:
        names = [f.name for f in library._final_module.functions if not f.is_declaration]
        known = (any(_own(n) for n in names)
                 and all(_own(n) or n.startswith(NUMBA_COPIES) for n in names))
        setattr(library, FLAG, known)
    return known


def _optimize_unless_link_only(original):
    def optimize(self) -> None:
        # a clone's library is optimized as numba optimizes the function's own (below): callers
        # link the same IR as before the clones, and LLVM makes the same inlining choices
        if not is_link_only(self) or getattr(self, CLONE_FLAG, False):
            original(self)
    return optimize


def _finalize_unless_link_only(original):
    def finalize(self) -> None:
        if not is_link_only(self):
            original(self)
            return
        # numba's own steps, without adding the module to the execution engine (which would
        # emit its machine code)
        self._finalize_dynamic_globals()
        self._verify_declare_only_symbols()
        self._finalized = True
    return finalize


def _set_env_if_emitted(original):
    def set_env(self, env_name, env) -> None:
        # numba points a function's environment global at its environment once it is emitted;
        # a library left unemitted has no such global in the engine (numba would write to
        # address 0)
        if self._engine.get_global_value_address(env_name):
            original(self, env_name, env)
    return set_env


#: Each own function with a wrapper -> its wrapperless twin, which compiled callers link.
_CLONES: dict = {}
#: Set on a clone and on the code libraries its compiles create.
CLONE_FLAG = "_simcards_clone"


def _flag_clone_libraries(original):
    def create_library(self, name, **kwargs):
        library = original(self, name, **kwargs)
        # the compile under way, as simcards.inline_once follows them ("numba:compile" events)
        if getattr(_compiling(), CLONE_FLAG, False):
            setattr(library, CLONE_FLAG, True)
        return library
    return create_library


#: Modules whose functions compiled callers see through a wrapperless clone.
OWN_MODULES = ("simcards.", "simcards_strategies.", KERNEL_MODULE_PREFIX)


def _linked_type(original):
    """numba types a compiled function that compiled code calls by its ``_numba_type_``. For
    simcards' own functions with a Python wrapper, that is a wrapperless clone of it: compiled
    callers link the clone, whose library is optimized as the function's own would be (callers
    link the same IR, and LLVM inlines as before) but never emitted alone, while Python calls
    the function itself, which compiles with its wrapper at its first Python call. About 90
    helper libraries of a search kernel were emitted alone besides in the kernel, with their
    wrappers (issue 13: a search kernel's cold compile 7-22% shorter)."""
    def numba_type(self):
        options = self.targetoptions
        module = getattr(self.py_func, "__module__", "") or ""
        if options.get("no_cpython_wrapper") or not module.startswith(OWN_MODULES):
            return original.fget(self)
        clone = _CLONES.get(self)
        if clone is None:
            clone = _CLONES[self] = type(self)(self.py_func, locals=dict(self.locals),
                                               targetoptions={**options, **WRAPPERLESS})
            setattr(clone, CLONE_FLAG, True)
        return types.Dispatcher(clone)
    return property(numba_type)


_PATCHES = ((_codegen.CPUCodeLibrary, "_optimize_final_module", _optimize_unless_link_only),
            (_codegen.CPUCodeLibrary, "_finalize_final_module", _finalize_unless_link_only),
            (_codegen.JITCPUCodegen, "set_env", _set_env_if_emitted),
            (_codegen.CPUCodegen, "create_library", _flag_clone_libraries))


def install() -> None:
    """Called when simcards.config is imported, before anything compiles. Idempotent (a reload
    of this module wraps numba's original methods again, not its own wrappers)."""
    for cls, name, wrap in _PATCHES:
        current = getattr(cls, name)
        original = getattr(current, "__wrapped__", current)
        patched = wrap(original)
        patched.__wrapped__ = original
        setattr(cls, name, patched)
    current = _dispatcher.Dispatcher.__dict__["_numba_type_"]
    original = getattr(current.fget, "__wrapped__", current)
    patched = _linked_type(original)
    patched.fget.__wrapped__ = original
    _dispatcher.Dispatcher._numba_type_ = patched


class Linked:
    """A compiled function that compiled callers link without a wrapper, and Python calls too.

    A function tests and notebooks call from Python needs numba's Python wrapper, and a function
    with a wrapper is optimized and emitted on its own besides in every caller (a search's
    ``search_move``: about 2 s of each search kernel's compile, 2026-12-02). Here compiled code
    sees ``linked``, compiled without wrappers (so never emitted alone, above); numba types the
    object as that dispatcher (``_numba_type_``). A call from Python goes through a one-line
    twin with a wrapper that calls ``linked``, compiled on the first such call: the function's
    own compile is shared with the kernels of the same process, and only the twin's library
    emits it again.
    """

    def __init__(self, py_func: Callable, options: dict):
        self.py_func = py_func
        self.linked = njit(**options, **WRAPPERLESS)(py_func)
        self._options = options
        self._twin = None
        functools.update_wrapper(self, py_func)

    @property
    def _numba_type_(self):
        return types.Dispatcher(self.linked)

    def __call__(self, *args):
        if self._twin is None:
            inner = self.linked
            # the twin is a Python entry: reference counting on (it boxes arrays), nothing to
            # inline it into
            options = {k: v for k, v in self._options.items() if k not in ("_nrt", "forceinline")}
            self._twin = njit(**options)(lambda *a: inner(*a))
        return self._twin(*args)


def linked(**options) -> Callable[[Callable], Linked]:
    """``@linked(**NJIT_OPTIONS)`` in place of ``@njit(**NJIT_OPTIONS)`` for a function that
    kernels call and that Python calls as well (``Linked``): a search, or a helper a strategy's
    decision calls, since replays run decisions as Python (``py_func``), and a wrapperless
    function called from Python crashes the process. ``_nrt=False`` may be given for a function
    that never allocates (as in INTERNAL_NJIT_FLAGS); the twin keeps reference counting."""
    return lambda py_func: Linked(py_func, options)
