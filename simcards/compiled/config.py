"""numba settings and on-disk locations, in one place.

Engines, views and strategies are compiled with ``NJIT_OPTIONS``: ``nogil=True``
so that several chunks run at once on Python threads, and *no* on-disk cache.
numba's cache checks only the timestamp of the file defining a function, not of
what it imports, so a cached engine function outlived an edit of its rules.
Only the generated kernel modules are cached (``KERNEL_NJIT_OPTIONS``): their
file name carries a hash of every source they reach (simcards.sources), so a
cached kernel is always the current code, and a fresh process (the CLI, a test,
a Dask worker) loads it from disk instead of recompiling. The other functions cached on
disk (the frame's passes, ``simcards.frame._narrow`` and ``_win_shares``, and those of
simcards.stats) call nothing of the project's, so that the timestamp of their own file is
all their machine code depends on.

Compiled functions: numba makes each compiled (not inlined) function a library of its own,
optimizes it with LLVM and emits its machine code, then links its IR into every library that
calls it, where it is optimized and emitted again (at every level of a call chain). For an
engine's internal functions (``INTERNAL_NJIT_FLAGS``: no wrapper, so only ever linked) the
first optimization and the machine code are skipped (simcards.link_only). A one-line
wrapper compiled on its own still costs a compile and a share of each caller's; such
wrappers are inlined by numba (``inline="always"``), which copies their IR into the caller.
numba's copy re-types and re-lowers the callee at every call site (the translation of its bytecode
is done once per compile, simcards.inline_once), so a helper with several
call sites that calls others (a draw, a card into a hand) is compiled once instead
(``FORCEINLINE_NJIT_OPTIONS``) and inlined by LLVM.
So are the searches' decision functions, which only hand over to the search: compiled on
their own, each held a linked copy of the whole search (Bombs Away's five cost about 3.4 s
of compile each).

Literal arguments: numba compiles a called function once for every literal argument it is
given, apart from its compile for an int64 in that place: ``f(s, 0)`` compiles ``f`` for
``Literal[int](0)``. A variable first set from a literal and changed in a loop (``m = 0`` ...
``m += 1`` ... ``f(s, m)``) does it too: type inference resolves the call once with the literal
before it settles on int64. Each such copy costs a whole compile of the function and of all
it calls (the Thirty-One search's ``search_move`` was compiled once for turns and once for votes,
Five Alive's turn once more for the search). So calls pass typed values (``np.int64(0)``, or a
module constant made with ``np.int64``), and the tiniest helpers called with literals are
inlined by numba (``inline="always"``), where a literal costs nothing. Where a specialization
is wanted (Thirty-One's deal shuffles 36 cards, a literal, so that numba unrolls it), a comment
says so. An array's read-only flag is part of its type too: numba makes a module's array
constant read-only, and the searches' rollouts pass their strategies such constants, so every
strategy parameter row is read-only (``simcards.batch.Batch``). ``experiments/compile_profile.py``
lists every function compiled more than once.
"""
from __future__ import annotations

import os

# (not ``from simcards import``: the kernel key follows what this file imports, and the whole
# package's API is not the kernel's source; simcards.sources)
from simcards.compiled.cached_load import install as _install_cached_load
from simcards.compiled.inline_once import install as _install_inline_once
from simcards.compiled.link_only import WRAPPERLESS as _WRAPPERLESS, install as _install_link_only

#: Options for every ``@njit`` in engines, views and strategies (not cached on disk: see above).
#: ``forceinline`` is spelt out: numba hands an unset flag down to the functions compiled
#: for a caller, so one ``FORCEINLINE_NJIT_OPTIONS`` function would inline all it calls.
NJIT_OPTIONS: dict = {"nogil": True, "error_model": "numpy", "forceinline": False}
#: For a small function on a hot path: LLVM inlines it into its callers (no call, no array
#: arguments passed on the stack). The cost is LLVM's alone, unlike ``inline="always"``,
#: with which numba re-types the callee at every call site.
FORCEINLINE_NJIT_OPTIONS: dict = {**NJIT_OPTIONS, "forceinline": True}
#: For a strategy's decision functions that allocate nothing (every built-in one): no reference
#: counting. A decision compiled on its own (not inlined) took the view's array and its
#: parameter row with NRT_incref/NRT_decref around their uses, atomic operations on every
#: decision: Five Alive's expert x4 ran at 37.5 ns a turn with them and 30.8 without, and a
#: search's rollouts spent 12-17% of their time in them. Allocating under it fails to compile
#: (numba has no np.zeros without NRT), so it cannot go wrong silently; a user's strategy that
#: allocates keeps NJIT_OPTIONS. The functions it calls are compiled without it too when they
#: are compiled first for it (numba hands the flag down).
STRATEGY_NJIT_OPTIONS: dict = {**NJIT_OPTIONS, "_nrt": False}
#: The same, inlined by LLVM into the kernel and a search's rollouts: for a small decision on a
#: hot path, such as a search's rollout policy (docs/architecture.md, "What a strategy sees",
#: has the figures). Inlined with reference counting (FORCEINLINE_NJIT_OPTIONS), Thirty-One's
#: threshold took 68-74 ns a turn against 46 called.
INLINED_STRATEGY_NJIT_OPTIONS: dict = {**STRATEGY_NJIT_OPTIONS, "forceinline": True}
#: Flags added to NJIT_OPTIONS for an engine's own functions, which are called with the
#: borrowed state and never keep, return or allocate an array: no Python or C wrapper (nobody
#: calls them from Python) and no reference counting (``_nrt=False``), which otherwise costs
#: NRT_incref/NRT_decref calls on the borrowed arrays' null counters at each call and slice
#: (Five Alive's kernel took about a fifth less CPU per turn without them). With no wrapper,
#: such a function is only ever linked into its callers, so numba is kept from optimizing and
#: emitting it on its own (simcards.link_only, installed here, before anything compiles).
INTERNAL_NJIT_FLAGS: dict = {**_WRAPPERLESS, "_nrt": False}
_install_link_only()
_install_cached_load()     # a kernel from the cache loads without numba's compiler (simcards.cached_load)
_install_inline_once()     # an inlined function translated once per compile (simcards.inline_once)
#: Options for the entry points of generated kernel modules, cached on disk.
KERNEL_NJIT_OPTIONS: dict = {**NJIT_OPTIONS, "cache": True}
#: Options for a generated kernel module's helpers, called only by its entry points: no
#: wrapper, so only ever linked (simcards.link_only), and not cached on their own (the entry
#: points that link them are). Reference counting stays on: they allocate or call strategies that do.
KERNEL_HELPER_NJIT_OPTIONS: dict = {**NJIT_OPTIONS, **_WRAPPERLESS}


#: Games per chunk handed to one thread; large enough to amortise the call,
#: small enough for a smooth progress bar.
DEFAULT_CHUNK = 20_000

#: Games whose int64 kernel records a thread of this process hands to the frame at a time: a
#: chunk's records (4.8 MB for 20,000 four-player games of Thirty-One) outgrow a core's L2
#: cache and went to memory and back between the kernel and the frame; a slice's (480 KB)
#: stay in it. Measured on the Intel Xeon of docs/performance.md, in warm memory: Thirty-One
#: 30.3 -> 29.3 ns a turn, the frame's pass 2.0 -> 1.5. The games are the same either way.
RECORDS_SLICE = 2_000


def default_threads() -> int:
    return max(1, os.cpu_count() or 1)
