"""Compiled entry points, generated per game and strategy set.

numba cannot cache a kernel that takes strategy functions as arguments (every
process would recompile; shared/design-notes.md), so for each game and sorted
set of strategies we write a small module that imports the game's fast engine
and the strategies by name and dispatches on an integer strategy id per seat.

Caching follows every edit: the module's file name carries a hash of every
project source it reaches through imports, transitively (simcards.sources), so
an edited rule, view, helper or strategy gives a new module name and numba
compiles it afresh; nothing else is cached on disk (simcards.config). Old
modules stay in the kernel folder until ``simcards cache --clear``
(simcards.cache_folder); they are never loaded again. Nothing cached is trusted as it is: a
module is made from the text generated now (a file on disk that differs is damaged), and
numba's cached machine code is verified before it is loaded (simcards.cached_load); a folder
simcards may not write in costs a compile in memory, never the run (``import_generated``).

The game loop below is the same for every game; a game's fast module provides
what simcards.registry.FAST_FUNCTIONS lists.
"""
from __future__ import annotations

import contextlib
import importlib.util
import linecache
import sys
from pathlib import Path
from types import ModuleType
from typing import Iterator, Sequence

import numba
from filelock import FileLock

from simcards.codegen import sources
from simcards.compiled import cached_load
from simcards.compiled.cache_folder import PYCACHE, cannot_write, damaged, kernel_module, usable_kernel_dir
from simcards.codegen.kernel_waits import ENTRIES, announce_compile
from simcards.outputs import replace_bytes
from simcards.contract.registry import GameSpec
from numba.extending import intrinsic

from simcards.package import FOLDER

from simcards.contract.strategy_registry import (StrategyInfo, compile_fault, decision_fault, decision_function,
                                        takes_params)

_TEMPLATE_VERSION = "9"
_loaded: dict[str, ModuleType] = {}
_last: dict[tuple, ModuleType] = {}      # (game, strategy modules, entry) -> the module loaded last
_warm: set[tuple[str, str]] = set()     # (module, entry point) compiled or loaded from cache

#: Slots of the status array a kernel fills when a strategy returns an illegal move; and, in the
#: replay loop only, the decision under way (``ST_STEP``: its step + 1; ``ST_DECIDER``: its
#: seat), which a watchdog on another thread reads (simcards.replay: a per-decision time limit).
STATUS_SIZE = 8
ST_ILLEGAL, ST_GAME, ST_SEAT, ST_KIND, ST_MOVE, ST_STRATEGY, ST_STEP, ST_DECIDER = range(8)


@intrinsic
def as_move(typingctx, decision, move):
    """``move``, the value the strategy function ``decision`` returned, as the int64 move the
    engine takes: any integer (or bool) converts as ``np.int64`` would; anything else (a float,
    which ``np.int64`` would truncate, a string, None, an array) stops the kernel's compile with
    one line naming the strategy's file and the line of its ``return``
    (simcards.strategy_registry.decision_fault), which also refuses a user's decision that
    writes into its view. The check reads the strategy's own compile, which numba makes
    before it links it into the kernel: it adds no compile, and a kernel that fails it is
    never cached. No code of its own: the same conversion as before."""
    fault = decision_fault(decision, move)
    if fault:
        raise numba.core.errors.TypingError(fault)

    def codegen(context, builder, signature, args):
        return context.cast(builder, args[1], signature.args[1], numba.types.int64)
    return numba.types.int64(decision, move), codegen


@intrinsic
def stop_requested(typingctx, stop):
    """Whether ``stop[0]`` is set: the run's stop flag, which another thread sets (SIGINT,
    SIGTERM, a time limit; simcards.runner). Read between games, as a relaxed atomic load, so
    that LLVM reads it each time instead of once before the loop."""
    def codegen(context, builder, signature, args):
        array = context.make_array(signature.args[0])(context, builder, args[0])
        flag = builder.load_atomic(array.data, ordering="monotonic", align=8)
        return builder.icmp_signed("!=", flag, flag.type(0))
    return numba.types.boolean(stop), codegen

# The game loop is written out as text twice, in the batch kernel and in the replay
# loop, with the strategy dispatch written into it too. numba's own inlining
# (inline="always") re-types and deep-copies the callee at every level, and nested it
# cost 60-90% of a kernel's compile (Thirty-One with five strategies: 100 s); text costs
# nothing to compile and keeps the whole turn in one function, where a call into a
# separate loop function kept no-op reference counting on the borrowed arrays
# (measured on Thirty-One: 85 -> 61 ns per turn).
_BATCH = """

@njit(**KERNEL_NJIT_OPTIONS)
def play_batch(seed, start, count, sids, params, sparams, seat_out, game_out, status, stop):
    \"\"\"Games start..start+count-1; returns how many finished (fewer after an illegal move, or
    when another thread sets ``stop[0]``, read between games).\"\"\"
    owner = E.new_state(sids.shape[0], params)
    rngs = np.zeros(2, np.uint64)
    st = borrow(owner)              # borrowed views: no atomic refcounts per call
    grng = borrow(rngs[0:1])
    srng = borrow(rngs[1:2])
    done = count
    for i in range(count):
        if stop_requested(stop):
            done = i
            break
        g = start + i
        seed_game(grng, seed, g, STREAM_DEAL)
        seed_game(srng, seed, g, STREAM_STRATEGY)
        E.start_game(st, grng)
{batch_loop}
        if status[ST_ILLEGAL] != 0:
            done = i
            break
        E.write_result(st, seat_out[i], game_out[i])
    keep_alive(owner)
    keep_alive(rngs)
    return done


@njit(**KERNEL_HELPER_NJIT_OPTIONS)
def _play(st, grng, srng, sids, sparams, status, g, moves, snaps, raws):
    \"\"\"Play one dealt game to the end (replays). Given room in ``snaps``, keep every decision and
    the state before and after it (``snaps``: the snapshot layout shared with the
    reference engine; ``raws``: the engine's own state array at each decision, which
    the contract tests hold against the reference engine's views). Stops at an
    illegal move, noted in status.\"\"\"
    # from the arrays, not a flag argument: a literal flag gets numba to compile the loop
    # once per value
    record = snaps.shape[0] > 0
    step = 0
    while True:
        {advance}
        if record:
            E.snapshot(st, snaps[2 * step])
        if k < 0:
            return step
        if record:
            raws[step, :] = st
        p = {decider}
        sid = sids[p]
        status[ST_DECIDER] = p          # the decision under way, for a watchdog (simcards.replay)
        status[ST_STEP] = step + 1
{dispatch}
        if not ok:
            _illegal(status, g, p, k, m, sid)
            return step
        {apply}
        if record:
            moves[step, 0] = k
            moves[step, 1] = p
            moves[step, 2] = m
            E.snapshot(st, snaps[2 * step + 1])
        step += 1
"""

#: The batch kernel's decision k: the decider's strategy's move m, checked.
_DECIDE = """
            p = {decider}
            sid = sids[p]
{dispatch}
            if not ok:
                _illegal(status, g, p, k, m, sid)
                break"""
#: The batch kernel's turn loop: ``advance``, a decision, ``apply``...
_LOOP = """        while True:
            {advance}
            if k < 0:
                break""" + _DECIDE + """
            {apply}"""
#: ...or, for an engine with ``step`` (apply the move of the decision ``k``, if ``k >= 0``, then
#: advance; returns the next decision), the same loop calling the engine at one place. An engine
#: whose turn LLVM inlines into the kernel (Bombs Away's) is then held and optimized once in it,
#: not twice (``advance`` and ``apply``).
_STEP_LOOP = """        k = np.int64(-1)            # no decision yet: the first step only advances
        m = np.int64(-1)
        while True:
            k = E.step(st, grng, k, m)
            if k < 0:
                break""" + _DECIDE

_REST = '''

@njit(**KERNEL_HELPER_NJIT_OPTIONS)
def _illegal(status, g, p, k, m, sid):
    status[ST_ILLEGAL] = 1
    status[ST_GAME] = g
    status[ST_SEAT] = p
    status[ST_KIND] = k
    status[ST_MOVE] = m
    status[ST_STRATEGY] = sid


@njit(**KERNEL_HELPER_NJIT_OPTIONS)
def _dealt(seed, g, sids, params):
    """Game g of the seed, dealt, with its two generators (one game: replays only)."""
    st = E.new_state(sids.shape[0], params)
    grng = np.zeros(1, np.uint64)
    srng = np.zeros(1, np.uint64)
    seed_game(grng, seed, g, STREAM_DEAL)
    seed_game(srng, seed, g, STREAM_STRATEGY)
    E.start_game(st, grng)
    return st, grng, srng


def count_steps(seed, g, sids, params, sparams, status):
    """The decisions of game g, to size a record's arrays: record_game with no room to keep
    them. Not compiled on its own: that would compile the replay loop once more."""
    return record_game(seed, g, sids, params, sparams, np.zeros((0, 3), np.int64),
                       np.zeros((0, 0), np.int64), np.zeros((0, 0), np.int64),
                       np.zeros((sids.shape[0], {seat_width}), np.int64),
                       np.zeros({game_width}, np.int64), status)


@njit(**KERNEL_NJIT_OPTIONS)
def record_game(seed, g, sids, params, sparams, moves, snaps, raws, seat_out, game_out, status):
    if g < 0:       # no game: compiles the replay loop now (simcards.kernel_waits)
        return 0
    st, grng, srng = _dealt(seed, g, sids, params)
    steps = _play(st, grng, srng, sids, sparams, status, g, moves, snaps, raws)
    if status[ST_ILLEGAL] == 0:
        E.write_result(st, seat_out, game_out)
    return steps


@njit(**KERNEL_NJIT_OPTIONS)
def snapshot_size(n, params):
    return E.snapshot_size(n, params)


@njit(**KERNEL_NJIT_OPTIONS)
def state_size(n, params):
    return E.new_state(n, params).shape[0]
'''


# The engine calls of the loop. An engine may carry the turn from ``advance`` to the calls
# that follow it (optional: an engine without ``advance_turn`` gets the plain calls): then
# ``advance_turn`` returns (k, t), t being whatever the engine wants kept in registers
# between them (Five Alive: the seat to move and its legal mask), and the ``*_turn`` calls
# take it. The plain engine stores such things in its state array and reads them back,
# which LLVM, in numba's pass order, does not turn into register moves: each read back
# waits on the store just made (measured on Five Alive: ~0.5 ns of its ~24 ns a turn).
_CALLS = {
    False: {"{advance}": "k = E.advance(st, grng)", "{decider}": "E.decider(st)",
            "{is_legal}": "E.is_legal(st, k, m)", "{apply}": "E.apply(st, grng, k, m)",
            "{view}": "E.view_{name}(st)"},
    True: {"{advance}": "k, t = E.advance_turn(st, grng)", "{decider}": "E.decider_turn(st, t)",
           "{is_legal}": "E.is_legal_turn(st, t, k, m)", "{apply}": "E.apply_turn(st, grng, t, k, m)",
           "{view}": "E.view_{name}_turn(st, t)"},
}


def carries_turn(spec: GameSpec) -> bool:
    """Whether the game's fast engine carries the turn between its calls (``advance_turn``
    and the ``decider_turn``, ``view_<decision>_turn``, ``is_legal_turn``, ``apply_turn``
    that go with it)."""
    return hasattr(importlib.import_module(f"{spec.package}.fast"), "advance_turn")


def has_step(spec: GameSpec) -> bool:
    """Whether the game's fast engine has ``step`` (``apply`` then ``advance`` in one call; optional)."""
    return hasattr(importlib.import_module(f"{spec.package}.fast"), "step")


def _dispatch(spec: GameSpec, infos: Sequence[StrategyInfo], indent: str, turn: bool = False) -> str:
    """``m = <the move of strategy sid for decision k>``, as nested ifs. Each decision's
    view has its own name: views of different decisions may have different types. A
    function with run-time parameters gets its seat's row of ``sparams`` as a third argument."""
    n_strategies = len(infos)
    out = []
    for k, d in enumerate(spec.decisions):
        head = "if" if k == 0 else "elif" if k < len(spec.decisions) - 1 else "else"
        out.append(f"{head} k == {k}:" if head != "else" else "else:")
        out.append(f"    view{k} = " + _CALLS[turn]["{view}"].replace("{name}", d.name))
        for i in range(n_strategies):
            extra = ", sparams[p]" if _takes_params(spec, infos[i], d) else ""
            f = f"s{i}_{d.function}"
            call = f"m = as_move({f}, {f}(view{k}, srng{extra}))"
            if n_strategies == 1:
                out.append(f"    {call}")
            elif i < n_strategies - 1:
                out += [f"    {'if' if i == 0 else 'elif'} sid == {i}:", f"        {call}"]
            else:
                out += ["    else:", f"        {call}"]
        # checked inside the decision's branch, where k is known: the engine's test inlined
        # here is folded to that decision's (one compare in a two-way vote)
        out.append("    ok = " + _CALLS[turn]["{is_legal}"])
    if len(spec.decisions) == 1:     # a lone "if k == 0" would leave m unset on paper
        out = [line[4:] for line in out[1:]]
    return "\n".join(indent + line for line in out)


def _takes_params(spec: GameSpec, info: StrategyInfo, decision) -> bool:
    module, function = decision_function(spec, info, decision)
    return bool(takes_params(getattr(importlib.import_module(module), function)))


def _user_bounds_checks(spec: GameSpec, infos: Sequence[StrategyInfo]) -> None:
    """A user's decisions are compiled with numba's bounds checks: an index past the end of an
    array raises IndexError, named in one line with its game (simcards.batch.strategy_raised),
    instead of reading another field or crashing the process. numba hands the flag down to the
    helpers compiled for them. A user who wants the speed back says so:
    ``@njit(boundscheck=False, ...)``. (Here, in the file whose text is in every kernel's key:
    the flag changes the compiled code.)"""
    from simcards.contract.strategy_registry import BUILTIN_PACKAGE
    for info in infos:
        if info.module.startswith(BUILTIN_PACKAGE + "."):
            continue
        for d in spec.decisions:
            module, function = decision_function(spec, info, d)
            fn = getattr(importlib.import_module(module), function)
            if module == info.module and not fn.overloads and fn.targetoptions.get("boundscheck") is None:
                fn.targetoptions["boundscheck"] = True


def _source(spec: GameSpec, infos: Sequence[StrategyInfo], key: str) -> str:
    _user_bounds_checks(spec, infos)
    names = [i.name for i in infos]
    lines = [
        f"# Generated by simcards.kernels for {spec.name} with strategies {', '.join(names)}.",
        f"# Do not edit: the name carries the hash {key} of every source it depends on.",
        "import numpy as np",
        "from numba import njit",
        "from simcards.compiled.config import KERNEL_HELPER_NJIT_OPTIONS, KERNEL_NJIT_OPTIONS",
        "from simcards.codegen.kernels import ST_ILLEGAL, ST_GAME, ST_SEAT, ST_KIND, ST_MOVE, ST_STRATEGY",
        "from simcards.codegen.kernels import ST_STEP, ST_DECIDER, as_move, stop_requested",
        "from simcards.compiled.rng import seed_game, STREAM_DEAL, STREAM_STRATEGY",
        "from simcards.compiled.borrow import borrow, keep_alive",
        f"import {spec.package}.fast as E",
    ]
    for i, info in enumerate(infos):
        for d in spec.decisions:
            module, function = decision_function(spec, info, d)
            lines.append(f"from {module} import {function} as s{i}_{d.function}")
    turn = carries_turn(spec)
    loops = _BATCH.replace("{batch_loop}", _STEP_LOOP if has_step(spec) else _LOOP)
    loops = loops.replace("{dispatch}", _dispatch(spec, infos, " " * 12, turn), 1)
    loops = loops.replace("{dispatch}", _dispatch(spec, infos, " " * 8, turn), 1)
    for name, call in _CALLS[turn].items():
        loops = loops.replace(name, call)
    rest = _REST.replace("{seat_width}", str(2 + len(spec.seat_columns)))
    return "\n".join(lines) + loops + rest.replace("{game_width}", str(len(spec.game_columns)))


def _roots(infos: Sequence[StrategyInfo]) -> list[Path]:
    roots = {FOLDER}
    for info in infos:
        roots.add(info.path.parent.parent.resolve())
    return sorted(roots)


_closures: dict[tuple, tuple[list[Path], list[sources.Stamp]]] = {}


def dependencies(spec: GameSpec, infos: Sequence[StrategyInfo]) -> list[Path]:
    """Every project file the kernel of this strategy set reaches, the kernel template included.

    Following the imports costs ~0.1 s; it is redone only when one of the files found last
    time changed (a stat each), since only an edit can change what a file imports."""
    return _dependencies_now(spec, infos)[0]


def _dependencies_now(spec: GameSpec, infos: Sequence[StrategyInfo]
                      ) -> tuple[list[Path], list[sources.Stamp]]:
    """``dependencies`` and each file's stamp, taken in this call (the staleness check and the
    key use them instead of a stat each of their own)."""
    # what the generated module imports, followed transitively; the template itself as a leaf
    modules = ["simcards.compiled.config", "simcards.compiled.rng", "simcards.compiled.borrow", f"{spec.package}.fast"]
    for info in infos:
        for d in spec.decisions:
            modules.append(decision_function(spec, info, d)[0])
    key = (spec.name, tuple(modules))
    known = _closures.get(key)
    if known is not None:
        stamps = [sources.stamp(f) for f in known[0]]
        if stamps == known[1]:
            return known[0], stamps
    files = sources.closure(modules, _roots(infos), leaves=["simcards.codegen.kernels"])
    stamps = [sources.stamp(f) for f in files]
    _closures[key] = (files, stamps)
    return files, stamps


def kernel_key(spec: GameSpec, infos: Sequence[StrategyInfo], deps: Sequence[Path] | None = None,
               stamps: Sequence[sources.Stamp] | None = None) -> str:
    """The hash of everything the kernel is compiled from; ``deps``: ``dependencies(spec, infos)``
    when the caller has it already, ``stamps`` their stamps when it has just taken them."""
    deps = dependencies(spec, infos) if deps is None else deps
    h = sources.fingerprint(f"simcards kernel {_TEMPLATE_VERSION}", deps, stamps)
    h.update(spec.name.encode() + b"\0")
    for info in infos:
        h.update(info.name.encode() + b"\0" + info.module.encode() + b"\0")
    return h.hexdigest()[:16]


def write_source(path: Path, text: str) -> None:
    """Write a generated module's source unless the file already holds it, write-then-rename:
    several processes (Dask workers, test workers) may race to create it. A write that fails (a
    full disk) leaves nothing behind and raises its OSError."""
    try:
        if path.read_bytes() == text.encode():
            return
    except OSError:
        pass
    replace_bytes(path, text.encode())


@contextlib.contextmanager
def build_lock(path: Path, writable: bool) -> Iterator[None]:
    """The file lock of an item of the kernel folder while it is made (one process makes it, the
    others wait and load it); none in a folder simcards may not write in, where nothing is made."""
    if not writable:
        yield
        return
    lock = FileLock(str(path))
    try:
        lock.acquire()
    except OSError as exc:          # the folder became unwritable since it was found writable
        cannot_write(exc)
        yield
        return
    try:
        yield
    finally:
        lock.release()


def import_generated(folder: Path, modname: str, text: str, label: str, writable: bool) -> ModuleType:
    """The generated module ``modname`` of source ``text``, imported from ``folder``, its numba
    cache beside it (simcards.cached_load verifies it). The file is written if missing; a file
    that does not hold ``text`` (no two texts share a name: the name carries their hash) is
    damaged: said in one line (``label``: "cached kernel for five-alive (random)"), its compiled
    code removed and compiled again. The module is always made from ``text``, never from what
    the disk holds (nor from a ``.pyc``); with no file (a folder simcards may not write in) it is
    compiled in memory and not cached. Called under ``build_lock``."""
    path = folder / f"{modname}.py"
    try:
        on_disk = path.read_bytes()
    except OSError:
        on_disk = None
    if on_disk is not None and on_disk != text.encode():
        damaged(label)
        for f in (folder / PYCACHE).glob(f"{modname}.*"):
            with contextlib.suppress(OSError):
                f.unlink()
        on_disk = None
    if on_disk is None and writable:
        try:
            write_source(path, text)
            on_disk = text.encode()
        except OSError as exc:
            cannot_write(exc)
    if on_disk is None:             # in memory: its text for tracebacks and numba's messages
        linecache.cache[str(path)] = (len(text), None, text.splitlines(True), str(path))
    cached_load.LABELS[modname] = label
    module = ModuleType(modname)
    module.__file__ = str(path)
    sys.modules[modname] = module
    try:
        exec(compile(text, str(path), "exec"), module.__dict__)
    except BaseException:
        del sys.modules[modname]
        raise
    return module


def kernel_module_name(spec: GameSpec, infos: Sequence[StrategyInfo],
                       deps: Sequence[Path] | None = None,
                       stamps: Sequence[sources.Stamp] | None = None) -> str:
    """The generated module's name: the game and the key of every source it depends on."""
    return kernel_module(spec.module_name, kernel_key(spec, infos, deps, stamps))


def load_kernel(spec: GameSpec, infos: Sequence[StrategyInfo], check: bool = True,
                entry: str = "play_batch") -> ModuleType:
    """The compiled entry module for this game and strategy set (ids = positions in ``infos``),
    its ``entry`` point (``play_batch`` for runs, ``record_game`` for replays) compiled or loaded
    from cache before it is returned; the other is compiled at its own first use.

    Raises StaleCodeError if a source this process already imported has changed since:
    the compiled code in memory would be the old one. A run checks once, before its first
    chunk; its chunks then pass ``check=False`` and skip re-reading the sources."""
    if entry not in ENTRIES:
        raise ValueError(f"entry point {entry!r}: accepted are {', '.join(ENTRIES)}")
    infos = tuple(infos)
    memo = (spec.name, tuple(i.module for i in infos), entry)
    if not check and memo in _last:
        return _last[memo]
    deps, stamps = _dependencies_now(spec, infos)      # one stat a file for all three uses
    sources.check_unchanged(deps, stamps)
    sources.observe(deps)
    modname = kernel_module_name(spec, infos, deps, stamps)
    key = modname.rsplit("_", 1)[1]
    if (modname, entry) in _warm:
        _last[memo] = _loaded[modname]
        return _loaded[modname]
    folder, writable = usable_kernel_dir()
    # One process compiles a kernel, the others wait and load it from numba's cache: without
    # the lock, processes started together (test workers, Dask workers on one machine, two
    # terminals) each compile the same kernel, at full cost.
    with build_lock(folder / f"{modname}.lock", writable):
        module = _loaded.get(modname)
        if module is None:
            label = f"cached kernel for {spec.name} ({', '.join(sorted({i.name for i in infos}))})"
            module = import_generated(folder, modname, _source(spec, infos, key), label, writable)
            _loaded[modname] = module
        # compile now, on simcards.events; a strategy numba cannot compile is a user's file
        # with a fault: one line naming it, as for a file that cannot be imported
        try:
            announce_compile(spec, [i.name for i in infos], module, folder, modname, entry)
        except numba.core.errors.NumbaError as exc:
            fault = compile_fault(exc, infos)
            if fault is None:
                raise
            raise fault from None
    _warm.add((modname, entry))
    _last[memo] = module
    return module
