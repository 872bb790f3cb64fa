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

from simcards import params as sparams
from simcards.errors import SimcardsError, StrategyError, choices
from simcards.registry import GameSpec

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
                                "from simcards.config import NJIT_OPTIONS)")
        if takes_params(fn) is None:
            raise StrategyError(f"strategy file {info.path} line {fn.py_func.__code__.co_firstlineno}: "
                                f"{d.function} must take (view, rng) or (view, rng, params)")
    return module


def takes_params(fn) -> bool | None:
    """Whether a decision function takes the seat's parameter row as a third argument
    (None: neither form)."""
    n = fn.py_func.__code__.co_argcount if hasattr(fn, "py_func") else fn.__code__.co_argcount
    return {2: False, 3: True}.get(n)


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
