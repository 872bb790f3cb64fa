"""simcards/link_only.py keeps numba from optimizing and emitting the engines' wrapperless
functions on their own (they are only ever linked into callers). It relies on numba internals;
these tests fail loudly if a numba release changes them, and check that only simcards' own
wrapperless functions are concerned."""
from __future__ import annotations

import importlib

import numpy as np
from numba import njit, typeof, types
from numba.core import codegen, dispatcher
from numba.typed import Dict

from simcards import link_only
from simcards.config import INTERNAL_NJIT_FLAGS, NJIT_OPTIONS
from simcards.engine import copy_into, hand_to_bottom, hand_to_bottom_py


def _libraries(dispatcher):
    """The code library of each signature the function was compiled for (this test's, and any
    an engine compiled in the same process)."""
    libraries = [cres.library for cres in dispatcher.overloads.values()]
    assert libraries
    return libraries


def _link_only(dispatcher):
    return {getattr(library, link_only.FLAG) for library in _libraries(dispatcher)}


@njit(**NJIT_OPTIONS)
def _bottom(s):
    # stock s[0:10] (its count at s[10]), a hand of counts per kind at s[11:14]: 3 cards, of
    # kinds 0 and 2
    return hand_to_bottom(s, 0, 10, 11, 3, 0b101)


@njit(**NJIT_OPTIONS, **INTERNAL_NJIT_FLAGS)
def _twice(s):
    s[0] *= 2


@njit(**NJIT_OPTIONS)
def _call_twice(s):
    _twice(s)
    return s[0]


def test_the_internals_it_wraps_exist():
    for cls, name, _ in link_only._PATCHES:
        wrapped = getattr(cls, name).__wrapped__
        assert wrapped.__module__ == codegen.__name__, (cls, name)
    for name in ("_finalize_dynamic_globals", "_verify_declare_only_symbols"):
        assert callable(getattr(codegen.CPUCodeLibrary, name)), name
    assert callable(codegen.JITCPUCodegen._add_module)


def test_an_engine_function_is_linked_into_its_caller_and_not_emitted_alone():
    s = np.zeros(14, np.int64)
    s[:4] = [7, 8, 9, 6]
    s[10] = 4
    s[11:14] = [2, 0, 1]
    stock = s[:4].tolist()
    assert _bottom(s) == 3
    hand_to_bottom_py(stock, [2, 0, 1])
    assert s[:s[10]].tolist() == stock and s[11:14].tolist() == [0, 0, 0]
    assert _link_only(hand_to_bottom) == {True}
    assert all(library._finalized for library in _libraries(hand_to_bottom))
    assert _link_only(_bottom) == {False}                            # it has a Python wrapper


@njit(**NJIT_OPTIONS, **link_only.WRAPPERLESS)     # a dict needs numba's runtime (NRT)
def _memo_sum(s):
    memo = Dict.empty(key_type=types.int64, value_type=types.int64)   # as five_alive/search.py
    for x in s:
        memo[x] = memo.get(x, 0) + 1
    return len(memo)


@njit(**NJIT_OPTIONS)
def _call_memo_sum(s):
    return _memo_sum(s)


def test_a_function_that_makes_a_dict_is_linked_only_too():
    """numba defines a typed dict's destructor in the module of every function that makes one
    (five_alive/search.py's memo): a copy of its helper, which must not keep a simcards
    function's library emitted alone."""
    assert _call_memo_sum(np.array([3, 1, 3, 2])) == 3
    defined = {f.name for library in _libraries(_memo_sum) for f in library._final_module.functions
               if not f.is_declaration}
    helpers = defined - {f for f in defined if f.startswith("_ZN5tests")}
    assert "_numba_dict_dtor" in helpers and all(h.startswith(link_only.NUMBA_COPIES) for h in helpers)
    own = "_ZN19simcards_strategies10five_alive6search11search_moveB2v1E"
    assert link_only.is_link_only(_Library(own, *helpers))
    assert not link_only.is_link_only(_Library(*helpers))


@njit(**NJIT_OPTIONS)
def _copy_and_sum(dst, src):
    copy_into(dst, src)                 # simcards' own, compiled with a Python wrapper
    return dst.sum()


def test_compiled_callers_link_a_wrapperless_clone_of_an_own_function_with_a_wrapper():
    """numba types simcards' own compiled functions, for compiled callers, as a wrapperless
    clone (link_only._linked_type): its library is only linked, never optimized or emitted
    alone. Python still calls the function itself, with its wrapper."""
    src, dst = np.arange(5, dtype=np.int64), np.zeros(5, np.int64)
    assert _copy_and_sum(dst, src) == 10 and dst.tolist() == src.tolist()
    clone = link_only._CLONES[copy_into]
    assert clone.py_func is copy_into.py_func and clone.targetoptions["no_cpython_wrapper"]
    assert clone.targetoptions["forceinline"] == copy_into.targetoptions["forceinline"]
    assert _link_only(clone) == {True}
    # optimized as the function's own library was, so callers link the same IR as before
    assert all(getattr(library, link_only.CLONE_FLAG, False) for library in _libraries(clone))
    assert typeof(copy_into) == types.Dispatcher(clone)
    dst[:] = 0
    copy_into(dst, src)                 # from Python: the function itself, compiled with its wrapper
    assert dst.tolist() == src.tolist() and not copy_into.targetoptions.get("no_cpython_wrapper")
    assert _link_only(copy_into) == {False}
    # code outside simcards (this test module) is typed as numba types it
    assert typeof(_copy_and_sum) == types.Dispatcher(_copy_and_sum)
    assert _copy_and_sum not in link_only._CLONES


def test_other_code_compiles_as_numba_does_it():
    s = np.array([21], np.int64)
    assert _call_twice(s) == 42
    # wrapperless, but not simcards' own (a test module): emitted as usual
    assert _link_only(_twice) == {False}


def test_install_again_wraps_numbas_own_methods():
    importlib.reload(link_only)
    link_only.install()
    link_only.install()
    for cls, name, _ in link_only._PATCHES:
        assert getattr(cls, name).__wrapped__.__module__ == codegen.__name__
    numba_type = dispatcher.Dispatcher.__dict__["_numba_type_"].fget.__wrapped__
    assert isinstance(numba_type, property) and numba_type.fget.__module__ == dispatcher.__name__


class _Function:
    def __init__(self, name: str, is_declaration: bool = False):
        self.name, self.is_declaration = name, is_declaration


class _Library:
    """What is_link_only reads of a code library: the functions of its final module."""

    def __init__(self, *names: str, declared: tuple[str, ...] = ()):
        functions = [_Function(n) for n in names] + [_Function(n, True) for n in declared]
        self._final_module = type("Module", (), {"functions": functions})()


def test_only_libraries_of_own_wrapperless_functions_are_left_unemitted():
    own = "_ZN8simcards5games10five_alive4fast7advanceB2v1E5ArrayIxLi1E1C7mutable7alignedE"
    kernel = "_ZN44_simcards_kernel_five_alive_6407ae47c266f6205_playB3v12E"
    strategy = "_ZN19simcards_strategies10five_alive10high_first6decideB2v3E"
    numba_helper = "_ZN5numba2np8arrayobj31ol_raise_with_shape_context_cpu12_3clocals_3e4implB4v128E"
    wrapper = "_ZN7cpython8simcards5games10five_alive4fast7advanceB2v1E"
    user = "_ZN8my_tests6helperB2v1E"
    # simcards' own functions (engines, strategies, generated kernels), with numba's copies of
    # its helpers beside them: only linked
    assert link_only.is_link_only(_Library(own, strategy, kernel, "NRT_incref", "NRT_decref", numba_helper,
                                           "__excinfo_unwrap_args2a69", declared=("NRT_MemInfo_call_dtor",)))
    # a wrapper, user code, or numba's helpers alone: compiled as numba compiles them
    assert not link_only.is_link_only(_Library(own, wrapper))
    assert not link_only.is_link_only(_Library(own, user))
    assert not link_only.is_link_only(_Library(numba_helper, "NRT_incref"))
    assert not link_only.is_link_only(_Library(declared=(own,)))


def _scaled_sum(a, k):
    b = np.empty(a.shape[0])            # allocates: reference counting stays on in a Linked
    for i in range(a.shape[0]):
        b[i] = a[i] * k
    return b.sum()


_scaled = link_only.Linked(_scaled_sum, NJIT_OPTIONS)


@njit(**NJIT_OPTIONS)
def _call_scaled(a):
    return _scaled(a, 2.0) + 1.0


def test_a_linked_function_runs_from_python_through_a_twin_and_compiled_callers_link_it():
    a = np.arange(4.0)
    assert _call_scaled(a) == 13.0 and _scaled(a, 3.0) == 18.0
    # compiled callers got the wrapperless compile; Python, a twin with a wrapper that calls it
    assert _scaled.linked.targetoptions["no_cpython_wrapper"] and len(_scaled.linked.overloads) == 1
    assert "no_cpython_wrapper" not in _scaled._twin.targetoptions and len(_scaled._twin.overloads) == 1
    assert _scaled.__doc__ == _scaled_sum.__doc__ and _scaled.__name__ == "_scaled_sum"


def test_a_games_redeal_is_linked_only():
    from numba import types
    from simcards.games.five_alive import redeal
    # (not isinstance: a test above reloads link_only, which makes its classes anew)
    assert type(redeal.redeal).__name__ == "Linked" and redeal.redeal.linked.targetoptions["no_cpython_wrapper"]
    redeal.redeal.linked.compile((types.int64[::1], types.int64, types.int64[::1], types.uint64[::1]))
    assert _link_only(redeal.redeal.linked) == {True}        # simcards' own, no wrapper: never emitted alone
