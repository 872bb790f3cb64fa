"""A function numba inlines (``inline="always"``) is translated once per compile, not once per call site.

At every call site of such a function numba reads its bytecode again and runs its whole untyped
pipeline (``InlineWorker.run_untyped_passes``: the bytecode's translation, the rewrites, the
inlining of what it inlines in turn) and then deep-copies the result into the caller. The
translation gives the same IR every time within one compile: a kernel inlines Thirty-One's
``value`` 40 times and ``lowest_bit`` 28 times, and the translations were about 3 s of a
search kernel's compile (2026-12-02, Thirty-One's search with three threshold: 282 inlines took
5.0 s; translated once per compile, 2.4 s for the 180 left, timing numba's inlining in the compile).

Here the translation is kept from the first call site to the next, for the length of the
outermost compile (numba's ``numba:compile`` event), keyed by the function and the flags its
pipeline reads. Each call site still gets its own deep copy (numba's ``inline_ir`` copies the
callee before it changes anything), so the caller's IR is what numba built before. Between
compiles nothing is kept: a compile reads a module's globals afresh, as numba does. Outside a
compile (numba's own tools that inline on their own), numba's method runs unchanged.

numba's translation also sets the caller's ``flags.enable_ssa`` to False (the caller is not in
SSA form while it inlines; its literal propagation reads that flag): a call site served from
the memo does the same, so the caller's pipeline runs as before.

This relies on numba internals, as ``simcards.link_only`` and ``simcards.cached_load`` do;
``tests/core/test_inline_once.py`` checks them.
"""
from __future__ import annotations

import threading

from numba.core import event as _event
from numba.core import inline_closurecall as _inline

_memo: dict[tuple, object] = {}
#: per thread, the dispatchers numba is compiling, innermost last (numba compiles under one
#: global lock, so only one thread compiles at a time; a thread's stack is still its own)
_compiles = threading.local()


def _stack() -> list:
    stack = getattr(_compiles, "stack", None)
    if stack is None:
        stack = _compiles.stack = []
    return stack


def compiling():
    """The dispatcher whose compile is innermost on this thread, None outside a compile (also
    read by simcards.link_only, which flags the libraries its clones' compiles create)."""
    stack = _stack()
    return stack[-1] if stack else None


class _CompileScope(_event.Listener):
    """Follows nested compiles; the memo is emptied when the outermost one ends (or fails)."""

    def on_start(self, event) -> None:
        _stack().append(event.data.get("dispatcher"))

    def on_end(self, event) -> None:
        stack = _stack()
        stack.pop()
        if not stack:
            _memo.clear()


def _key(function, flags) -> tuple:
    """The function and every flag numba's untyped pipeline reads (simcards' kernels all share
    one value of each, but a user's functions need not)."""
    parallel = flags.auto_parallel
    return (function, flags.no_rewrites, flags.enable_looplift, flags.enable_pyobject,
            flags.force_pyobject, tuple(sorted(vars(parallel).items())) if parallel is not None else None)


def _inline_function_once(original):
    def inline_function(self, caller_ir, block, i, function, arg_typs=None):
        if not _stack():
            return original(self, caller_ir, block, i, function, arg_typs)
        key = _key(function, self.flags)
        callee_ir = _memo.get(key)
        if callee_ir is None:
            callee_ir = _memo[key] = self.run_untyped_passes(function)
        else:
            self.flags.enable_ssa = False        # as run_untyped_passes leaves the caller's flags
        return self.inline_ir(caller_ir, block, i, callee_ir, function.__code__.co_freevars,
                              arg_typs=arg_typs)
    return inline_function


_scope = _CompileScope()


def install() -> None:
    """Called when simcards.config is imported. Idempotent (wraps numba's original method,
    registers the compile listener once)."""
    current = _inline.InlineWorker.inline_function
    original = getattr(current, "__wrapped__", current)
    patched = _inline_function_once(original)
    patched.__wrapped__ = original
    _inline.InlineWorker.inline_function = patched
    if _scope not in _event._registered.get("numba:compile", ()):
        _event.register("numba:compile", _scope)
