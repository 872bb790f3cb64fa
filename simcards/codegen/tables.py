"""Tables a strategy builds by simulation, cached on disk and handed to its compiled code at
run time, behind the seat's parameter values.

A strategy file may define, beside its decision functions::

    def table_for(n_players, game_params, row) -> TableRequest | None

``game_params`` is the engine's rule row (``GameSpec.encode_params``; ``rules.P`` names its slots), ``row`` the seat's declared
parameter values (simcards.params). It returns None when that seat needs no table, or a
``TableRequest`` (simcards.params): a name, a key (what of the row the table depends on,
e.g. the rollout strategy, so that seats differing only in a budget share one table), a
``build(compiled)`` that returns a float64 vector, the same bytes on every machine (a fixed
seed, integer counts, no dependence on timing or thread order), and the compiled functions
the build calls (``entries``): ``compiled`` hands them back as entry points of a generated
module that numba caches on disk, so that only the first build compiles the engine and the
strategies (about 30 s of CPU for Five Alive's value table; a build after it: 4 s).

``attach`` (called by simcards.batch.prepare) appends the table to that seat's row:
``row[len(PARAMS):]`` is the table, and the kernel and the reference twin hand the whole row
to the strategy's functions, as they hand any parameter. Nothing is compiled in: a table is
data, so a new table recompiles nothing, and numba's on-disk cache can never hold a stale one
(a global array would be frozen into the machine code as a constant).

Caching: ``<kernel folder>/tables/<game_pkg>-<strategy>-<hash>.npy``, the hash covering the game,
the player count, the rule row, the request's name and key, ``FORMAT``, the numba, NumPy and
Python versions, and every project source the strategy file reaches through imports
(simcards.sources, as the kernels) and this module: an edit of the engine, the rules, the
rollout strategy or the table's own code builds a new table; an old one is never read again
(like old kernel modules, it stays until the folder is deleted). Within a process a table is
kept in memory. The entry-point modules, ``<kernel folder>/_simcards_table_<game_pkg>_<strategy>_<hash>.py``,
carry the same hash of the sources, so their cached machine code is never stale either.
A build is announced on simcards.events (``table-start``, ``table-done``); a file lock makes
processes started together build it once.

Integrity: beside each table, ``<table>.npy.sha256`` holds the sha256 of its file, written before
it (a table is never there without one); a table whose file fails it (a flipped byte, an empty
or truncated file, no checksum) is removed, said in one line and built again, never used. The
builder modules' cached machine code is verified as the kernels' is (simcards.cached_load). A
kernel folder simcards may not write in (read-only, a full disk) is read as it is, and a table
it lacks is built in memory and not kept (simcards.cache_folder.usable_kernel_dir).
"""
from __future__ import annotations

import contextlib
import hashlib
import importlib
import io
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Mapping, Sequence

import numpy as np

from simcards.codegen import sources
from simcards.compiled.cache_folder import (TABLES, cannot_write, damaged, kernel_dir, table_file, table_module,
                                   usable_kernel_dir)
from simcards.events import emit
from simcards.package import FOLDER
from simcards.codegen.kernels import build_lock, import_generated
from simcards.outputs import replace_bytes
from simcards.compiled.params import TableRequest

#: Bump when the cache's file format or key changes meaning.
FORMAT = "1"
#: The name of the hook a strategy module defines.
HOOK = "table_for"

_memory: dict[str, np.ndarray] = {}


def table_dir() -> Path:
    """Where built tables are kept: beside the generated kernels."""
    return kernel_dir() / TABLES


def dependencies(info) -> list[Path]:
    """Every project source the strategy file ``info`` reaches through imports (and this
    module): what a table built by its code depends on."""
    roots = sorted({FOLDER, info.path.parent.parent.resolve()})
    return sources.closure([info.module], roots, leaves=["simcards.codegen.tables"])


def table_key(spec, info, n_players: int, game_params: np.ndarray, request: TableRequest) -> str:
    """The cache key of a table: see the module docstring."""
    h = _sources_hash(info)
    h.update(f"{spec.name}\0{info.name}\0{n_players}\0{request.name}\0{request.key}\0".encode())
    h.update(np.asarray(game_params, dtype="<i8").tobytes())
    return h.hexdigest()[:16]


def load_or_build(spec, info, n_players: int, game_params: np.ndarray,
                  request: TableRequest) -> np.ndarray:
    """The table of this request: from memory, from the cache folder, or built and saved."""
    deps = dependencies(info)
    sources.check_unchanged(deps)    # the code in memory must be the code the key hashes
    sources.observe(deps)
    key = table_key(spec, info, n_players, game_params, request)
    if key in _memory:
        return _memory[key]
    folder, writable = usable_kernel_dir(table_dir())
    path = folder / table_file(spec.module_name, info.name, key)
    # one process builds, the others wait and load it
    with build_lock(Path(f"{path}.lock"), writable):
        table = _read(path, f"cached {request.name} of {info.name} for {spec.name}")
        if table is None:
            fields = {"game": spec.name, "strategy": info.name, "table": request.name,
                      "n_players": n_players}
            emit("table-start", **fields)
            started = time.perf_counter()
            compiled = compiled_entries(spec, info, request.entries)
            table = np.ascontiguousarray(request.build(compiled), dtype=np.float64)
            if table.ndim != 1:
                raise ValueError(f"{info.path}: {HOOK} built a {table.ndim}-d table; expected 1-d")
            if writable:
                try:
                    _save(path, table)
                except OSError as exc:      # a full disk: the table is used, not kept
                    cannot_write(exc)
            emit("table-done", seconds=time.perf_counter() - started, **fields)
    table.flags.writeable = False
    _memory[key] = table
    return table


#: Beside each table, the sha256 of its file: ``<table>.npy.sha256``.
CHECKSUM = ".sha256"


def _read(path: Path, label: str) -> np.ndarray | None:
    """The table saved at ``path``, verified against the checksum beside it; None when there is
    none, or when it fails (damaged, truncated, or no checksum): then it is removed and said in
    one line (``label``), and built again."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError:
        raw = None
    try:
        expected = Path(f"{path}{CHECKSUM}").read_text().strip()
    except (OSError, UnicodeDecodeError):
        expected = None
    if raw is not None and expected == hashlib.sha256(raw).hexdigest():
        try:
            return np.load(io.BytesIO(raw), allow_pickle=False)
        except ValueError:      # the bytes it was saved with: can only be a fault of the saver
            pass
    for f in (path, Path(f"{path}{CHECKSUM}")):
        with contextlib.suppress(OSError):
            f.unlink()
    damaged(label, "building it again")
    return None


def _save(path: Path, table: np.ndarray) -> None:
    """The table and, first, its checksum, each written then renamed: a checksum whose table is
    missing is no table; a table is never there without its checksum. A write that fails leaves
    neither behind. (A table is the same bytes on every build.)"""
    buffer = io.BytesIO()
    np.save(buffer, table)
    raw = buffer.getvalue()
    sidecar = Path(f"{path}{CHECKSUM}")
    try:
        replace_bytes(sidecar, (hashlib.sha256(raw).hexdigest() + "\n").encode())
        replace_bytes(path, raw)
    except OSError:
        for f in (path, sidecar):
            with contextlib.suppress(OSError):
                f.unlink()
        raise


def _sources_hash(info) -> hashlib._Hash:
    return sources.fingerprint(f"simcards table {FORMAT}", dependencies(info))


def compiled_entries(spec, info, entries) -> SimpleNamespace:
    """Cached entry points for the compiled functions ``entries`` (TableRequest): a generated
    module ``_simcards_table_<game>_<strategy>_<hash>.py`` in the kernel folder whose
    functions call them, compiled with numba's on-disk cache (``KERNEL_NJIT_OPTIONS``)."""
    if not entries:
        return SimpleNamespace()
    h = _sources_hash(info)
    lines = ["# Generated by simcards.tables: cached entry points of a table's build.",
             "from numba import njit", "from simcards.compiled.config import KERNEL_NJIT_OPTIONS"]
    for i, fn in enumerate(entries):
        code = fn.py_func.__code__
        args = ", ".join(code.co_varnames[:code.co_argcount])
        lines += [f"from {fn.py_func.__module__} import {fn.__name__} as _f{i}", "",
                  "@njit(**KERNEL_NJIT_OPTIONS)", f"def {fn.__name__}({args}):",
                  f"    return _f{i}({args})", ""]
    text = "\n".join(lines)
    h.update(text.encode())
    modname = table_module(spec.module_name, info.name, h.hexdigest()[:16])
    if modname not in sys.modules:
        folder, writable = usable_kernel_dir()
        with build_lock(folder / f"{modname}.py.lock", writable):
            import_generated(folder, modname, text, f"cached table builder of {info.name} for "
                             f"{spec.name}", writable)
    module = sys.modules[modname]
    return SimpleNamespace(**{fn.__name__: getattr(module, fn.__name__) for fn in entries})


def attach(spec, infos: Mapping[str, object], files: Sequence[str], game_params: np.ndarray,
           rows: np.ndarray) -> np.ndarray:
    """The seats' parameter rows with each seat's table (if its strategy asks for one) after
    its declared values; rows stay padded with zeros to the widest. ``files``: the strategy
    file each seat plays; ``infos``: those files' StrategyInfo by name."""
    n = len(files)
    tables: list[np.ndarray | None] = []
    for p, file in enumerate(files):
        info = infos[file]
        hook = getattr(importlib.import_module(info.module), HOOK, None)
        request = hook(n, game_params, rows[p, :len(info.params)].copy()) if hook else None
        tables.append(None if request is None else load_or_build(spec, info, n, game_params, request))
    if all(t is None for t in tables):
        return rows
    width = max([rows.shape[1]] + [len(infos[f].params) + t.shape[0]
                                   for f, t in zip(files, tables) if t is not None])
    out = np.zeros((n, width), np.float64)
    out[:, :rows.shape[1]] = rows
    for p, (file, table) in enumerate(zip(files, tables)):
        if table is not None:
            at = len(infos[file].params)
            out[p, at:at + table.shape[0]] = table
    return out
