"""Which source files a compiled kernel depends on, and whether they changed.

numba's on-disk cache checks only the timestamp of the file that defines a
function, never the files it imports: an edited rule constant in ``rules.py``
left ``fast.py``'s cached machine code in place. simcards therefore caches only
the generated kernel modules (simcards.kernels), whose file name carries a hash
of every source file they reach through imports, transitively: the engine, the
rules, the view, the shared helpers, every strategy and everything a strategy
imports. Library code outside the project (numba, numpy...) is represented by
its version.

Within one process, numba cannot reload code it compiled. ``check_unchanged``
notices a project file that was edited after this process imported it and says
that a restart is needed, instead of playing the old code.
"""
from __future__ import annotations

import ast
import hashlib
import importlib.util
import platform
import sys
from pathlib import Path
from typing import Iterable, Sequence

from simcards.errors import StaleCodeError

_digests: dict[Path, tuple[int, int, str]] = {}    # path -> (mtime_ns, size, sha256)
_imports: dict[str, list[str]] = {}                 # sha256 -> imported module names
_seen: dict[Path, str] = {}                         # digest when this process first saw the file


#: A file's (mtime_ns, size), or MISSING for a file that is gone.
Stamp = tuple[int, int]
MISSING: Stamp = (-1, -1)


def stamp(path: Path) -> Stamp:
    """The file's (mtime_ns, size) now: one stat."""
    try:
        st = path.stat()
    except OSError:
        return MISSING
    return st.st_mtime_ns, st.st_size


def digest(path: Path, now: Stamp | None = None) -> str:
    """sha256 of a file, recomputed only when its mtime or size changed. ``now``: its stamp,
    taken by a caller that has just taken it (a kernel's load stats each source once, not three
    times: ``kernels.load_kernel``); FileNotFoundError for a file that is gone."""
    mtime, size = stamp(path) if now is None else now
    if (mtime, size) == MISSING:
        raise FileNotFoundError(f"no file {path}")
    cached = _digests.get(path)
    if cached and cached[0] == mtime and cached[1] == size:
        return cached[2]
    h = hashlib.sha256(path.read_bytes()).hexdigest()
    _digests[path] = (mtime, size, h)
    return h



def fingerprint(head: str, paths: Sequence[Path], stamps: Sequence[Stamp] | None = None) -> "hashlib._Hash":
    """The sha256 of what generated code is compiled from, for its name: ``head`` (the generator
    and its format), the library versions (library code is represented by its version; numba's
    own cache index checks numba's) and every project source in ``paths`` by name and content.
    A kernel's key and a table's both start here (``kernels.kernel_key``, ``tables``) and add
    what is theirs. ``stamps``: the files' stamps, when the caller has just taken them."""
    import numba        # here, not above: reading sources alone needs neither
    import numpy as np
    h = hashlib.sha256(f"{head}\0".encode())
    h.update(f"{numba.__version__} {np.__version__} {platform.python_version()}\0".encode())
    now = [None] * len(paths) if stamps is None else stamps
    for path, s in zip(paths, now, strict=True):
        h.update(path.name.encode() + b"\0" + digest(path, s).encode())
    return h

def _digest_or_none(path: Path, now: Stamp | None = None) -> str | None:
    """``digest``, or None for a file that is gone (one stat either way, none given ``now``)."""
    try:
        return digest(path, now)
    except FileNotFoundError:
        return None


def _module_path(name: str) -> Path | None:
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError, AttributeError):
        return None
    if spec is None or not spec.origin or spec.origin in ("built-in", "frozen"):
        return None
    path = Path(spec.origin)
    return path if path.suffix == ".py" and path.exists() else None


def _imported_names(path: Path, module: str) -> list[str]:
    """Modules a file imports (relative imports resolved), and for ``from X import Y``
    also ``X.Y`` in case Y is a submodule."""
    key = digest(path)
    if key in _imports:
        return _imports[key]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_bytes(), filename=str(path))):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)] if node.level > 1 else base
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            names.append(target)
            names += [f"{target}.{a.name}" for a in node.names if a.name != "*"]
    _imports[key] = names
    return names


def _inside(path: Path, roots: Iterable[Path]) -> bool:
    return any(path.is_relative_to(root) for root in roots)


def closure(modules: Iterable[str], roots: Iterable[Path], leaves: Iterable[str] = ()) -> list[Path]:
    """Every project file reachable by imports from ``modules``, sorted; a file counts when
    it lies under one of ``roots`` (the simcards package and the strategy folders).

    Parent packages' ``__init__.py`` files count too (importing a module runs them), but their
    own imports are not followed: ``simcards/__init__.py`` imports the whole API, and an edit
    of the report code must not recompile the engines. ``leaves`` are modules counted the
    same way (the kernel template, whose imports are the loader's, not the kernel's)."""
    roots = [Path(r).resolve() for r in roots]
    todo = list(modules)
    done: set[str] = set()
    files: set[Path] = set()
    # each module looked up and its path resolved once per call: every name counts its parent
    # packages again, and Thirty-One's kernel met 641 names for its 22 files (a resolve is a few
    # system calls: the closure took 66 ms of every run's start, now 32). Not kept between calls:
    # a helper written since (a strategy's new import) must count at the next run in this process.
    found: dict[str, Path | None] = {}

    def count(name: str) -> Path | None:
        if name not in found:
            path = _module_path(name)
            path = None if path is None else path.resolve()
            found[name] = path if path is not None and _inside(path, roots) else None
            if found[name] is not None:
                files.add(found[name])
        return found[name]

    for name in leaves:
        count(name)
    while todo:
        name = todo.pop()
        if not name or name in done:
            continue
        done.add(name)
        parts = name.split(".")
        for i in range(1, len(parts)):
            count(".".join(parts[:i]))
        path = count(name)
        if path is not None:
            todo += _imported_names(path, name)
    return sorted(files)


def observe(paths: Iterable[Path]) -> None:
    """Remember what these files held when this process first used them."""
    for p in paths:
        if p not in _seen:          # not setdefault: that would hash every file on every call
            _seen[p] = digest(p)


def check_unchanged(paths: Iterable[Path], stamps: Iterable[Stamp] | None = None) -> None:
    """Raise if a file this process already imported has changed since: numba cannot
    reload compiled code, so the old code would run. ``stamps``: the files' stamps, just taken."""
    paths = list(paths)
    now = [None] * len(paths) if stamps is None else list(stamps)
    changed = [p for p, s in zip(paths, now, strict=True)
               if p in _seen and _digest_or_none(p, s) != _seen[p]]
    if changed:
        raise StaleCodeError(
            f"{changed[0]} changed after this Python process imported it; numba cannot reload "
            "compiled code: restart the process (in a notebook, restart the kernel) to play "
            "the edited code")


def loaded_project_files(roots: Iterable[Path]) -> list[Path]:
    """Files of already imported modules that lie under ``roots``."""
    roots = [Path(r).resolve() for r in roots]
    out = []
    for module in list(sys.modules.values()):
        f = getattr(module, "__file__", None)
        if f and f.endswith(".py"):
            p = Path(f).resolve()
            if _inside(p, roots):
                out.append(p)
    return out
