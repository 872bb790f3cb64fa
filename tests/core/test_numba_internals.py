"""Every numba internal that simcards relies on, in one table, checked by name.

``simcards.borrow`` (arrays without an owner), ``simcards.link_only`` (wrapperless functions
only linked), ``simcards.cached_load`` (a cached kernel loaded without the compiler) and
``simcards.inline_once`` (an inlined function translated once per compile) reach into
numba's private modules, which may change in any release. pyproject.toml admits numba from
its lower bound to below its upper one; CI runs this file on both ends (.ci/run, the two
jobs). A release that moves, renames or re-signs one of these fails here, with the internal's
name and its user in the message, before it fails somewhere deep in a compile.

The behaviour each one is patched for is tested beside its module (tests/core/test_borrow.py,
test_link_only.py, test_cached_load.py, test_inline_once.py); this file checks the shapes.
"""
from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

import numba
import pytest

import simcards

#: (module, attribute path, simcards module that uses it, the parameters it must take first,
#: in order, or None for a non-callable or a class)
INTERNALS = [
    ("numba", "carray", "borrow", ("ptr", "shape", "dtype")),
    ("numba.core.cgutils", "voidptr_t", "borrow", None),
    ("numba.extending", "intrinsic", "borrow", None),
    ("numba.extending", "overload", "borrow", None),
    ("numba.core.codegen", "CPUCodeLibrary._optimize_final_module", "link_only", ("self",)),
    ("numba.core.codegen", "CPUCodeLibrary._finalize_final_module", "link_only", ("self",)),
    ("numba.core.codegen", "CPUCodeLibrary._finalize_dynamic_globals", "link_only", ("self",)),
    ("numba.core.codegen", "CPUCodeLibrary._verify_declare_only_symbols", "link_only", ("self",)),
    ("numba.core.codegen", "JITCPUCodegen.set_env", "link_only", ("self", "env_name", "env")),
    ("numba.core.codegen", "CPUCodegen.create_library", "link_only", ("self", "name")),
    ("numba.core.dispatcher", "Dispatcher._numba_type_", "link_only", None),
    ("numba.core.caching", "Cache.load_overload", "cached_load", ("self", "sig", "target_context")),
    ("numba.core.caching", "Cache._load_overload", "cached_load", ("self", "sig", "target_context")),
    ("numba.core.caching", "Cache._guard_against_spurious_io_errors", "cached_load", ("self",)),
    ("numba.core.runtime", "rtsys.initialize", "cached_load", ("ctx",)),
    # the checksums of the kernel folder's cache, and a cache that cannot be written
    # (IndexDataCacheFile itself, which cached_load subclasses: tests/core/test_cached_load.py)
    ("numba.core.caching", "Cache.save_overload", "cached_load", ("self", "sig", "data")),
    ("numba.core.caching", "Cache.disable", "cached_load", ("self",)),
    ("numba.core.caching", "CacheImpl._locator_classes", "cached_load", None),
    # numba 0.60 spells the two locators with a leading underscore ("A|B": one of the two)
    ("numba.core.caching", "UserProvidedCacheLocator|_UserProvidedCacheLocator", "cached_load", None),
    ("numba.core.caching", "InTreeCacheLocator.__init__|_InTreeCacheLocator.__init__", "cached_load",
     ("self", "py_func", "py_file")),
    ("numba.core.caching", "InTreeCacheLocator.ensure_cache_path|_InTreeCacheLocator.ensure_cache_path",
     "cached_load", ("self",)),
    ("numba.core.caching", "InTreeCacheLocator.get_source_stamp|_InTreeCacheLocator.get_source_stamp",
     "cached_load", ("self",)),
    ("numba.core.types", "Integer", "strategy_registry", None),
    ("numba.core.types", "Boolean", "strategy_registry", None),
    ("numba.core.errors", "TypingError", "kernels", None),
    ("numba.core.errors", "NumbaError", "kernels", None),
    ("numba.core.dispatcher", "Dispatcher.stats", "kernel_waits", None),
    ("numba.core.inline_closurecall", "InlineWorker.inline_function", "inline_once",
     ("self", "caller_ir", "block", "i", "function", "arg_typs")),
    ("numba.core.inline_closurecall", "InlineWorker.run_untyped_passes", "inline_once", ("self", "func")),
    ("numba.core.inline_closurecall", "InlineWorker.inline_ir", "inline_once",
     ("self", "caller_ir", "block", "i", "callee_ir", "callee_freevars", "arg_typs")),
    ("numba.core.event", "Listener", "inline_once", None),
    ("numba.core.event", "_registered", "inline_once", None),
    ("numba.core.event", "register", "inline_once", ("kind", "listener")),
    ("numba.core.codegen", "get_host_cpu_features", "engine", ()),
    ("numba.core.config", "CACHE_DIR", "kernel_waits", None),
]


def _resolve(module: str, path: str):
    if "|" in path:         # either spelling, the first that is there
        first, rest = path.split("|", 1)
        try:
            return _resolve(module, first)
        except AttributeError:
            return _resolve(module, rest)
    obj = importlib.import_module(module)
    for part in path.split("."):
        if isinstance(obj, type) and part in vars(obj):
            obj = vars(obj)[part]          # the descriptor itself (a property stays a property)
        else:
            obj = getattr(obj, part)
    return obj


@pytest.mark.parametrize("module, path, user, params", INTERNALS,
                         ids=[f"{m}.{p}" for m, p, _, _ in INTERNALS])
def test_the_numba_internal_is_where_simcards_expects_it(module, path, user, params):
    name = f"{module}.{path}"
    try:
        obj = _resolve(module, path)
    except (ImportError, AttributeError) as exc:
        pytest.fail(f"numba {numba.__version__} has no {name} ({exc}), which simcards.{user} relies on")
    if params is None:
        return
    # simcards' own patches keep numba's original as __wrapped__
    patched = (getattr(obj, "__module__", None) or "").startswith("simcards")
    target = obj.__wrapped__ if patched else obj
    try:
        given = tuple(inspect.signature(target).parameters)
    except (TypeError, ValueError) as exc:
        pytest.fail(f"numba {numba.__version__}: {name} is no longer a function ({exc}), "
                    f"which simcards.{user} relies on")
    assert given[:len(params)] == params, (
        f"numba {numba.__version__} changed the signature of {name}, which simcards.{user} relies on: "
        f"expected {params}, found {given}")


def test_the_numba_type_is_a_property_simcards_can_replace():
    # link_only replaces Dispatcher._numba_type_ (a property) by one of its own
    from numba.core import dispatcher
    assert isinstance(dispatcher.Dispatcher.__dict__["_numba_type_"], property), (
        f"numba {numba.__version__}: numba.core.dispatcher.Dispatcher._numba_type_ is no longer a "
        "property, which simcards.link_only relies on")


def test_the_compile_event_carries_its_dispatcher():
    # inline_once follows nested compiles by the "numba:compile" event's dispatcher
    from numba import njit
    from numba.core import event
    seen = []

    class Listen(event.Listener):
        def on_start(self, ev):
            seen.append(ev.data.get("dispatcher"))

        def on_end(self, ev):
            pass

    @njit
    def f(x):
        return x + 1

    listener = Listen()
    with event.install_listener("numba:compile", listener):
        f(1)
    assert seen and seen[0] is f, (
        f"numba {numba.__version__}: the 'numba:compile' event no longer carries its dispatcher "
        "in data['dispatcher'], which simcards.inline_once relies on")


def test_every_module_that_reaches_into_numba_core_is_in_the_table():
    # a new reach into numba's private modules joins the table above, so that it is checked
    root = Path(simcards.__file__).parent
    listed = {user for _, _, user, _ in INTERNALS}
    private = re.compile(r"^\s*(from numba\.core[\w.]* import|import numba\.core)", re.M)
    users = {p.stem for p in root.rglob("*.py") if private.search(p.read_text(encoding="utf-8"))}
    assert users, "the search for numba.core imports found none: the pattern is wrong"
    assert users <= listed, f"modules reaching into numba.core with no row in INTERNALS: {sorted(users - listed)}"
