"""simcards/inline_once.py translates a function numba inlines once per compile instead of once
per call site. It replaces a numba method; these tests fail loudly if a numba release changes
what it relies on, and check that the code compiled is numba's own: the same answers, a module
global read afresh by the next compile, the caller's SSA flag left as numba leaves it."""
from __future__ import annotations

import inspect

import numpy as np
from numba import njit
from numba.core import event
from numba.core import inline_closurecall as inline

import simcards.config  # noqa: F401  (installs the memo, as every simcards process does)
from simcards import inline_once

SCALE = 2


@njit(inline="always")
def _helper(a, i):
    return a[i] * SCALE + 1


def _five_sites(a):
    return _helper(a, 0) + _helper(a, 1) + _helper(a, 2) + _helper(a, 3) + _helper(a, 4)


@njit
def _nested(a):
    # compiled inside the compile of its caller, where ``_helper`` is translated already
    return _helper(a, 0) + _helper(a, 4)


def _caller_of_nested(a):
    return _helper(a, 1) + _nested(a)


def _spy(monkeypatch):
    """Counts the translations of ``_helper`` and notes the caller's SSA flag after each inline."""
    seen = {"translations": 0, "ssa": []}
    translate = inline.InlineWorker.run_untyped_passes
    inline_ir = inline.InlineWorker.inline_ir

    def run_untyped_passes(self, func, enable_ssa=False):
        seen["translations"] += func is _helper.py_func
        return translate(self, func, enable_ssa)

    def recording_inline_ir(self, *args, **kwargs):
        out = inline_ir(self, *args, **kwargs)
        seen["ssa"].append(self.flags.enable_ssa)
        return out

    monkeypatch.setattr(inline.InlineWorker, "run_untyped_passes", run_untyped_passes)
    monkeypatch.setattr(inline.InlineWorker, "inline_ir", recording_inline_ir)
    return seen


def test_the_internals_it_replaces_exist():
    original = inline.InlineWorker.inline_function.__wrapped__
    assert original.__module__ == inline.__name__
    body = inspect.getsource(original)
    # the body inline_once repeats: translate, then inline with the function's free variables
    assert "self.run_untyped_passes(function)" in body and "self.inline_ir(" in body
    assert "co_freevars" in body
    assert "state.flags.enable_ssa = enable_ssa" in inspect.getsource(inline.InlineWorker.run_untyped_passes)
    assert inline_once._scope in event._registered["numba:compile"]


def test_a_function_inlined_at_five_sites_is_translated_once_per_compile(monkeypatch):
    seen = _spy(monkeypatch)
    a = np.arange(5.0)
    first = njit(_five_sites)
    assert first(a) == _five_sites(a) == 25.0
    assert seen["translations"] == 1
    assert seen["ssa"] == [False] * 5          # every site leaves the caller's flag as numba does
    assert inline_once._memo == {}             # nothing kept past the compile
    second = njit(_five_sites)                 # a new compile translates again
    assert second(a) == 25.0
    assert seen["translations"] == 2


def test_a_nested_compile_served_from_the_memo_leaves_its_ssa_flag_as_numba_does(monkeypatch):
    seen = _spy(monkeypatch)
    a = np.arange(5.0)
    assert njit(_caller_of_nested)(a) == _caller_of_nested(a) == 3.0 + 1.0 + 9.0
    assert seen["translations"] == 1           # the nested compile's two sites came from the memo
    assert seen["ssa"] == [False] * 3


def test_a_global_changed_between_compiles_is_read_again(monkeypatch):
    a = np.arange(5.0)
    assert njit(_five_sites)(a) == 25.0
    monkeypatch.setitem(globals(), "SCALE", 3)
    assert njit(_five_sites)(a) == 35.0


def test_outside_a_compile_numbas_method_runs(monkeypatch):
    calls = []
    monkeypatch.setattr(inline.InlineWorker, "inline_function",
                        inline_once._inline_function_once(lambda *args: calls.append(args)))
    inline.InlineWorker.inline_function(object(), "ir", "block", 0, _helper.py_func)
    assert len(calls) == 1 and inline_once._memo == {}


def test_install_again_wraps_numbas_own_method_and_listens_once():
    inline_once.install()
    inline_once.install()
    assert inline.InlineWorker.inline_function.__wrapped__.__module__ == inline.__name__
    assert event._registered["numba:compile"].count(inline_once._scope) == 1
