"""Strategies are files: ``<folder>/<game_package>/<name>.py``.

A strategy file defines one compiled function per decision of its game
(``GameSpec.decisions``), each ``function(view, rng) -> int``, or
``function(view, rng, params) -> int`` for a strategy with run-time parameters
(``PARAMS``, simcards.params); a decision the game gives a default for
(``Decision.default``) may be left out. Its docstring's
first line is the rationale ``simcards strategies GAME`` shows. Files whose name
starts with ``_`` are helpers shared by strategies, not strategies.

Where strategies are found, in this order:
1. the built-in folder, the project's top-level ``strategies/``, installed as the
   package ``simcards_strategies`` (a generic name like ``strategies`` would collide
   with other projects in site-packages);
2. every folder of ``SIMCARDS_STRATEGY_PATH`` (separated by ``os.pathsep``);
3. every ``--strategy-dir`` (API: ``strategy_dirs=``).
A user's folder is mounted as a package of its own (``simcards_user_<hash>``), so its
files may import each other relatively (``from ._kit import ...``) and the generated
kernels import them by name in any process, a Dask worker's included.

Listing reads files without importing them, so one broken file breaks only the
runs that use it; using a strategy imports and checks it, and a fault is one line
naming the file, the line and what is wrong.
"""
from __future__ import annotations

import ast
import hashlib
import importlib
import os
import re
import sys
import traceback
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping, Sequence

import numpy as np

from simcards.compiled import params as sparams
from simcards.errors import SimcardsError, StrategyError, choices
from simcards.package import FOLDER
from simcards.contract.registry import GameSpec

BUILTIN_PACKAGE = "simcards_strategies"
PATH_VARIABLE = "SIMCARDS_STRATEGY_PATH"


@dataclass(frozen=True)
class StrategyInfo:
    game: str
    name: str
    module: str          # importable module name
    path: Path
    doc: str
    problem: str = ""    # why it cannot be used, found without importing it ("" if none seen)
    params: tuple[sparams.Param, ...] = ()   # run-time parameters (PARAMS), in row order
    alias: str = ""      # "base:key=value...": this name plays another strategy with these values

    @property
    def summary(self) -> str:
        return self.doc.strip().splitlines()[0] if self.doc.strip() else ""



#: The run-time parameter that makes a strategy a search player: its rollouts per decision.
SEARCH_BUDGET = "budget"


def is_search(infos: Mapping[str, StrategyInfo], name: str) -> bool | None:
    """Whether the strategy ``name`` (a file's name, an alias, or ``name:key=value``) searches:
    a ``budget`` parameter, rollouts that cost milliseconds a decision where a heuristic costs
    nanoseconds (tune leaves it out of its default pool, a report out of its mirror, the skill
    index plays fewer deals with it). None for a name ``infos`` does not hold, which each caller
    reads its own way (a report's tournament summary may name a strategy since removed)."""
    info = infos.get(sparams.split(name)[0])
    if info is None:
        return None
    if info.alias:
        info = infos.get(sparams.split(info.alias)[0], info)
    return any(p.name == SEARCH_BUDGET for p in info.params)

# ------------------------------------------------------------------ folders
def _builtin_root() -> Path:
    import simcards_strategies
    return Path(simcards_strategies.__path__[0])


def mount(folder: str | Path) -> str:
    """Make a user's strategy folder importable as a package; returns the package name.
    The name hashes the folder's absolute path: the same folder gets the same name in
    every process, so generated kernels can import it."""
    folder = Path(folder).resolve()
    name = "simcards_user_" + hashlib.sha256(str(folder).encode()).hexdigest()[:12]
    if name not in sys.modules:
        module = types.ModuleType(name, f"simcards strategies from {folder}")
        module.__path__ = [str(folder)]
        sys.modules[name] = module
    return name


def check_folder(folder: str | Path, where: str) -> Path:
    path = Path(folder).expanduser()
    if not path.is_dir():
        raise SimcardsError(f"strategy folder {str(folder)!r} ({where}) is not a folder: expected a "
                            "folder holding <game_package>/<name>.py files")
    return path.resolve()


def strategy_roots(strategy_dirs: Sequence[str | Path] = ()) -> list[tuple[Path, str]]:
    """(folder, package name) of every place strategies are looked for, in order."""
    roots = [(_builtin_root(), BUILTIN_PACKAGE)]
    env = os.environ.get(PATH_VARIABLE, "")
    folders = [(f, PATH_VARIABLE) for f in env.split(os.pathsep) if f.strip()]
    folders += [(f, "--strategy-dir") for f in strategy_dirs]
    seen = {roots[0][0]}
    for folder, where in folders:
        path = check_folder(folder, where)
        if path not in seen:
            seen.add(path)
            roots.append((path, mount(path)))
    return roots


# ------------------------------------------------------------------ listing
_read: dict[Path, tuple[tuple[int, int], tuple[str, str, tuple, str]]] = {}   # path -> (stamp, what it said)


def _static_problem(path: Path) -> tuple[str, str, tuple, str]:
    """(docstring, problem, parameters, alias) read from the file without running it; parsed again only when the
    file's modification time or size changed (every run lists the strategies, so every
    ``simulate`` call would parse every file of the game)."""
    try:
        st = path.stat()
        stamp = (st.st_mtime_ns, st.st_size)
    except OSError:
        return _parse(path)
    known = _read.get(path)
    if known is None or known[0] != stamp:
        known = _read[path] = (stamp, _parse(path))
    return known[1]


def _parse(path: Path) -> tuple[str, str, tuple, str]:
    if not path.stem.isidentifier():
        return "", (f"strategy file {path}: the name {path.stem!r} is not a Python identifier "
                    "(use letters, digits and _, e.g. " + repr(path.stem.replace("-", "_")) + ")"), (), ""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except SyntaxError as exc:
        return "", f"strategy file {path} line {exc.lineno}: syntax error: {exc.msg}", (), ""
    except UnicodeDecodeError as exc:
        return "", f"strategy file {path}: not UTF-8 text ({exc.reason} at byte {exc.start})", (), ""
    doc = ast.get_docstring(tree) or ""
    try:
        return doc, "", sparams.read_params(tree), sparams.read_alias(tree)
    except ValueError as exc:
        return doc, f"strategy file {path} {exc}", (), ""


def strategies_for(spec: GameSpec, strategy_dirs: Sequence[str | Path] = ()) -> dict[str, StrategyInfo]:
    """Every strategy file for the game, by name (the file's stem), without importing any.
    A name found in two folders keeps the first and marks the second as a problem."""
    found: dict[str, StrategyInfo] = {}
    for root, package in strategy_roots(strategy_dirs):
        folder = root / spec.module_name
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.py")):
            if path.name.startswith("_"):
                continue
            doc, problem, declared, alias = _static_problem(path)
            info = StrategyInfo(spec.name, path.stem, f"{package}.{spec.module_name}.{path.stem}",
                                path, doc, problem, declared, alias)
            if path.stem in found:
                first = found[path.stem]
                if not first.problem:
                    found[path.stem] = StrategyInfo(
                        first.game, first.name, first.module, first.path, first.doc,
                        f"strategy {path.stem!r} for {spec.name} is defined twice: {first.path} and "
                        f"{path}; rename one", first.params, first.alias)
                continue
            found[path.stem] = info
    return found


# ------------------------------------------------------------------ using
def _fault_line(exc: BaseException, path: Path) -> str:
    """'line N' of the deepest frame in the strategy file (or in the syntax error)."""
    if isinstance(exc, SyntaxError) and exc.lineno:
        return f" line {exc.lineno}"
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if Path(frame.filename).resolve() == path.resolve():
            return f" line {frame.lineno}"
    return ""


_WHERE = re.compile(r'File "([^"]+)", line (\d+)')
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def compile_fault(exc: BaseException, infos: Sequence[StrategyInfo]) -> StrategyError | None:
    """numba's refusal to compile a strategy's code, as one line: the strategy file, the line
    and numba's first words (its own message runs to a hundred lines of nested frames); None
    when no strategy file is named in it (the fault is the engine's own: a bug to see whole).

    numba names the innermost place first, so the first line of a strategy file it names is
    where the fault is."""
    text = _ANSI.sub("", str(exc))
    own = text.find(FAULT_MARK)             # decision_fault's line, raised inside numba's typing
    if own >= 0:
        return StrategyError(text[own + len(FAULT_MARK):].splitlines()[0].strip())
    paths = {info.path.resolve(): info for info in infos}
    for m in _WHERE.finditer(text):
        info = paths.get(Path(m.group(1)).resolve())
        if info is None:
            continue
        lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
        words = [ln for ln in lines if not ln.startswith(("Failed in ", "During:", "File ", "<source"))]
        what = " ".join(words[:2] if len(words) > 1 and words[1].startswith(">>>") else words[:1])
        module = sys.modules.get(info.module)
        own = [fn for fn in vars(module).values()          # the file's own compiled functions
               if hasattr(fn, "targetoptions") and fn.py_func.__module__ == info.module] if module else []
        hint = ("; a function compiled with STRATEGY_NJIT_OPTIONS (no reference counting) may not "
                "allocate: use NJIT_OPTIONS for it"
                if any(fn.targetoptions.get("_nrt") is False for fn in own) else "")
        return StrategyError(f"strategy file {info.path} line {m.group(2)}: {info.name} does not "
                             f"compile: {what}{hint}")
    return None


def load_strategy(spec: GameSpec, info: StrategyInfo) -> types.ModuleType:
    """Import a strategy file and check that it defines every decision it must, compiled."""
    if info.problem:
        raise StrategyError(info.problem)
    try:
        module = importlib.import_module(info.module)
    except Exception as exc:  # a user's file: say where and what, not a traceback
        raise StrategyError(f"strategy file {info.path}{_fault_line(exc, info.path)}: cannot be "
                            f"imported: {type(exc).__name__}: {exc}".replace("\n", " ")) from None
    missing = [d.function for d in spec.decisions
               if not d.default and getattr(module, d.function, None) is None]
    if missing:
        raise StrategyError(
            f"strategy file {info.path} must define {choices(missing)} for {spec.name} "
            f"(decisions with a default may be left out: "
            f"{choices(d.function for d in spec.decisions if d.default) or 'none'})")
    for d in spec.decisions:
        fn = getattr(module, d.function, None)
        if fn is None:
            continue
        if not hasattr(fn, "py_func"):
            line = getattr(getattr(fn, "__code__", None), "co_firstlineno", None)
            where = f" line {line}" if line else ""
            raise StrategyError(f"strategy file {info.path}{where}: {d.function} is not compiled: "
                                "decorate it with @njit(**NJIT_OPTIONS) (from numba import njit; "
                                "from simcards.compiled.config import NJIT_OPTIONS)")
        if takes_params(fn) is None:
            raise StrategyError(f"strategy file {info.path} line {fn.py_func.__code__.co_firstlineno}: "
                                f"{d.function} must take (view, rng) or (view, rng, params)")
        _OWNERS[fn.py_func] = info
    return module


def takes_params(fn) -> bool | None:
    """Whether a decision function takes the seat's parameter row as a third argument
    (None: neither form)."""
    n = fn.py_func.__code__.co_argcount if hasattr(fn, "py_func") else fn.__code__.co_argcount
    return {2: False, 3: True}.get(n)


# ------------------------------------------------------------------ a decision's own compile
#: Begins the one line decision_fault raises inside numba's typing of a kernel; compile_fault
#: finds it in numba's message and keeps the line alone.
FAULT_MARK = "[simcards strategy fault] "
#: Each loaded decision function's strategy (by its ``py_func``, which a wrapperless clone
#: shares: simcards.link_only).
_OWNERS: dict = {}
#: Array methods that change the array in place, and those whose result shares its memory.
_WRITING_METHODS = {"fill", "sort", "put", "itemset", "partition", "resize", "setfield"}
_ALIASING_METHODS = {"reshape", "view", "ravel", "transpose", "squeeze", "swapaxes", "T", "flat"}
#: Expressions whose result may be (part of) their operand: an array read out of the view is
#: still the view.
_ALIASING_OPS = {"getattr", "getitem", "static_getitem", "typed_getitem", "exhaust_iter", "build_tuple",
                 "cast", "phi", "pair_first", "getiter", "iternext"}


def decision_fault(decision, move) -> str:
    """Why a strategy's decision cannot be compiled into a kernel, as one line marked for
    compile_fault ('' if nothing is wrong), from its own compile: numba compiles a decision on
    its own before it links it into the kernel, so the kernel's typing (simcards.kernels.as_move)
    has both its return type and its typed code to read, and this check adds no compile.

    - ``move``, the return type, must be an integer (or a bool): a float would be truncated
      where ``np.int64`` converts it, and a str, None or an array has no move's meaning. The
      line is that of the first ``return`` of another type, else the ``def``.
    - a user's decision must not write into its view (the engine's own state): found in its
      typed code and the user's functions it hands the view to (writes through
      ``remember``, the seat's memory, are simcards' own and allowed)."""
    from numba.core import types as nbtypes
    dispatcher = getattr(decision, "dispatcher", None)
    py_func = getattr(dispatcher, "py_func", None)
    if py_func is None:             # not a compiled function: nothing to read
        return ""
    info = _OWNERS.get(py_func)
    name = info.name if info else py_func.__module__.rsplit(".", 1)[-1]
    path = Path(py_func.__code__.co_filename)       # where the line is (the strategy's file, or a helper's)
    where = f"{py_func.__name__}()"
    if not isinstance(move, (nbtypes.Integer, nbtypes.Boolean)):
        line = _bad_return_line(dispatcher)
        if line is None or "return" not in _source_line(py_func, line):
            line = _def_line(py_func)       # a path that ends without a return: numba's own None
        return (f"{FAULT_MARK}strategy file {path} line {line}: strategy {name!r} returns "
                f"{_describe_type(move)} from {where}: expected an integer, the number of a legal move")
    module = py_func.__module__ or ""
    if not module.startswith(("simcards.", BUILTIN_PACKAGE + ".")):
        write = _view_write(dispatcher, {0}, set())
        if write:
            file, line = write
            return (f"{FAULT_MARK}strategy file {file} line {line}: strategy {name!r} writes into its view "
                    f"in {where}: the view is the game's own state, for reading only (a strategy "
                    f"keeps what it needs with remember(view, i, value))")
    return ""


def _describe_type(t) -> str:
    from numba.core import types as nbtypes
    if isinstance(t, nbtypes.Float):
        return f"{t} (a float: a move is an integer, never rounded)"
    if isinstance(t, (nbtypes.NoneType, nbtypes.Omitted)) or str(t) == "none":
        return "None"
    if isinstance(t, nbtypes.Optional):
        return f"None or {t.type} (a path of the function returns nothing)"
    if isinstance(t, nbtypes.UnicodeType):
        return "a str"
    if isinstance(t, nbtypes.Array):
        return f"an array ({t})"
    return str(t)


def _typed(dispatcher):
    """(typed code, typemap, calltypes) of each of the dispatcher's compiles."""
    for cres in list(dispatcher.overloads.values()):
        annotation = getattr(cres, "type_annotation", None)
        if annotation is not None and getattr(annotation, "blocks", None):
            yield cres, annotation.blocks, annotation.typemap, annotation.calltypes


def _source_lines(py_func) -> list[str]:
    try:
        return Path(py_func.__code__.co_filename).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []


def _source_line(py_func, number: int) -> str:
    lines = _source_lines(py_func)
    return lines[number - 1] if 0 < number <= len(lines) else ""


def _def_line(py_func) -> int:
    """The line of a function's ``def`` (its code starts at its first decorator)."""
    first = py_func.__code__.co_firstlineno
    lines = _source_lines(py_func)
    for number in range(first, min(first + 20, len(lines) + 1)):
        if lines[number - 1].lstrip().startswith(("def ", "async def ")):
            return number
    return first


def _bad_return_line(dispatcher) -> int | None:
    """The line of the first ``return`` whose value is not an integer, in a compile of the
    dispatcher that returns something else."""
    from numba.core import ir, types as nbtypes
    for cres, blocks, typemap, _ in _typed(dispatcher):
        if isinstance(cres.signature.return_type, (nbtypes.Integer, nbtypes.Boolean)):
            continue
        lines = []
        for block in blocks.values():
            for stmt in block.body:
                if (isinstance(stmt, ir.Assign) and isinstance(stmt.value, ir.Expr)
                        and stmt.value.op == "cast"):
                    t = typemap.get(stmt.value.value.name)
                    if t is not None and not isinstance(t, (nbtypes.Integer, nbtypes.Boolean)):
                        lines.append(stmt.loc.line)
        if lines:
            return min(lines)
    return None


def _view_write(dispatcher, tainted_args: set[int], seen: set, depth: int = 0) -> tuple[str, int] | None:
    """(file, line) of a write into an argument of ``tainted_args`` (or into any array read out
    of it), in the dispatcher's typed code or in a user's function it hands such an array to."""
    from numba.core import ir, types as nbtypes
    key = (id(dispatcher), tuple(sorted(tainted_args)))
    if key in seen or depth > 8:
        return None
    seen.add(key)
    for _, blocks, typemap, calltypes in _typed(dispatcher):
        tainted: set[str] = set()
        assigns = [stmt for block in blocks.values() for stmt in block.body if isinstance(stmt, ir.Assign)]
        changed = True
        while changed:                  # the variables that hold (part of) the view, to a fixed point
            changed = False
            for stmt in assigns:
                target, value = stmt.target.name, stmt.value
                if target in tainted:
                    continue
                hit = False
                if isinstance(value, ir.Arg):
                    hit = value.index in tainted_args
                elif isinstance(value, ir.Var):
                    hit = value.name in tainted
                elif isinstance(value, ir.Expr) and value.op in _ALIASING_OPS:
                    hit = any(v.name in tainted for v in value.list_vars())
                elif isinstance(value, ir.Expr) and value.op == "call" and value.func.name in tainted:
                    hit = _method(typemap.get(value.func.name)) in _ALIASING_METHODS
                if hit:
                    tainted.add(target)
                    changed = True
        for block in blocks.values():
            for stmt in block.body:
                if _trusted_place(stmt.loc.filename):
                    continue        # simcards' own code inlined here (remember writes the seat's memory)
                if isinstance(stmt, (ir.SetItem, ir.StaticSetItem)) and stmt.target.name in tainted:
                    return stmt.loc.filename, stmt.loc.line
                if not isinstance(stmt, ir.Assign) or not isinstance(stmt.value, ir.Expr):
                    continue
                value = stmt.value
                if (value.op == "inplace_binop" and value.lhs.name in tainted
                        and isinstance(typemap.get(value.lhs.name), nbtypes.Array)):
                    return stmt.loc.filename, stmt.loc.line
                if value.op != "call":
                    continue
                if value.func.name in tainted and _method(typemap.get(value.func.name)) in _WRITING_METHODS:
                    return stmt.loc.filename, stmt.loc.line
                callee = typemap.get(value.func.name)
                target = getattr(callee, "dispatcher", None)
                module = getattr(getattr(target, "py_func", None), "__module__", "") or ""
                if target is None or module.startswith(("simcards.", BUILTIN_PACKAGE + ".")):
                    continue        # simcards' own functions (remember writes the seat's memory)
                given = {i for i, a in enumerate(value.args) if a.name in tainted}
                if given:
                    found = _view_write(target, given, seen, depth + 1)
                    if found:
                        return found
    return None


_TRUSTED: dict[str, bool] = {}


def _trusted_place(filename: str) -> bool:
    """Whether code at ``filename`` is simcards' own (its package or the built-in strategies):
    numba inlines ``inline="always"`` helpers such as ``remember`` into a user's function, where
    their statements keep their own file."""
    known = _TRUSTED.get(filename)
    if known is None:
        roots = (FOLDER, _builtin_root().resolve())
        try:
            path = Path(filename).resolve()
            known = any(path.is_relative_to(root) for root in roots)
        except (OSError, ValueError):
            known = False
        _TRUSTED[filename] = known
    return known


def _method(t) -> str:
    """The name of an array method a ``BoundFunction`` type calls ('' for anything else)."""
    key = getattr(getattr(t, "template", None), "key", "")
    return key.rsplit(".", 1)[-1] if isinstance(key, str) else ""


def decision_function(spec: GameSpec, info: StrategyInfo, decision) -> tuple[str, str]:
    """(module, function) that answers ``decision`` for this strategy: its own, or the game's default."""
    module = load_strategy(spec, info)
    if getattr(module, decision.function, None) is not None:
        return info.module, decision.function
    return f"{spec.package}.defaults", decision.function


def check_strategies(spec: GameSpec, names: Iterable[str], strategy_dirs: Sequence[str | Path] = (),
                     known: Mapping[str, StrategyInfo] | None = None) -> dict[str, StrategyInfo]:
    """The named strategies (names with or without ``:key=value`` parameters), imported and
    checked, by bare name; an alias brings the file it plays too. An unknown or broken one raises.
    ``known``: ``strategies_for(spec, strategy_dirs)`` when the caller has listed them already
    (listing reads every strategy folder: a third of a small ``simulate`` call's fixed cost)."""
    if known is None:
        known = strategies_for(spec, strategy_dirs)
    chosen: dict[str, StrategyInfo] = {}
    for name in (sparams.split(n)[0] for n in names):
        _check_one(spec, known, name, chosen)
    return chosen


def _check_one(spec: GameSpec, known: Mapping[str, StrategyInfo], name: str,
               chosen: dict[str, StrategyInfo], alias_of: str = "") -> None:
    if name not in known:
        usable = [n for n, i in known.items() if not i.problem]
        where = f" (the alias {alias_of!r} plays it)" if alias_of else ""
        raise SimcardsError(
            f"unknown strategy {name!r}{where} for {spec.name}: accepted are {choices(usable)}")
    info = known[name]
    if info.alias:
        if alias_of:
            raise StrategyError(f"strategy file {info.path}: an alias must name a strategy file, "
                                f"not another alias ({alias_of!r} -> {name!r})")
        if info.problem:
            raise StrategyError(info.problem)
        _check_one(spec, known, sparams.split(info.alias)[0], chosen, name)
    else:
        load_strategy(spec, info)
    chosen[name] = info


def seat_strategies(spec: GameSpec, texts: Sequence[str], strategy_dirs: Sequence[str | Path] = (),
                    known: Mapping[str, StrategyInfo] | None = None
                    ) -> tuple[tuple[str, ...], tuple[str, ...], np.ndarray]:
    """Each seat's strategy as written (``name`` or ``name:key=value...``), checked:
    (canonical names, the strategy file each seat plays, one row of parameter values per
    seat, padded with zeros to the widest row). An alias (``ALIAS`` in its file) keeps its
    own name and plays its file with its values, overridden by any the seat gives. A bad
    name, key or value raises one line."""
    infos = check_strategies(spec, texts, strategy_dirs, known)
    names, files, rows = [], [], []
    for text in texts:
        name, given = sparams.split(text)
        if infos[name].alias:
            base, preset = sparams.split(infos[name].alias)
            canonical, row = sparams.resolve(base, infos[base].params, {**preset, **given}, text)
            names.append(name if not given else canonical)
            files.append(base)
        else:
            canonical, row = sparams.resolve(name, infos[name].params, given, text)
            names.append(canonical)
            files.append(name)
        rows.append(row)
    table = np.zeros((len(texts), max([1] + [len(r) for r in rows])), np.float64)
    for p, row in enumerate(rows):
        table[p, :len(row)] = row
    return tuple(names), tuple(files), table
