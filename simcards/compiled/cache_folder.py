"""The kernel folder: where it is, what simcards keeps there, and emptying it (``simcards cache``).

Everything simcards compiles or builds is kept in one folder (``kernel_dir``): the generated
kernel modules with numba's cache of their machine code, the modules that build strategies'
tables, the built tables and the C yardsticks of ``simcards bench``. Each name carries a hash of
the sources it was made from (simcards.sources), so an edit never loads old code: it writes new
files beside the old ones. Nothing old is ever loaded again, and nothing removes it either; a
designer editing rules for a day leaves hundreds of megabytes behind.

Clearing removes only files with the names simcards gives them, so a ``SIMCARDS_KERNEL_DIR``
pointed at a folder that holds anything else keeps it. A kernel or table another process is
building right now (its file lock held) is skipped and reported, never pulled from under it.
Processes that have loaded a kernel keep it in memory; the next run of each line-up compiles
again, and says so (simcards.kernel_waits).

Nothing in the folder is trusted as it is: numba's files of the generated modules end in a
checksum (simcards.cached_load), each table has one beside it (``<table>.npy.sha256``,
simcards.tables), and a generated module's source is compared with the text it is generated
from (simcards.kernels); an item that fails is removed, said in one line (``damaged``) and made
again. A folder simcards may not write in is no error either (``usable_kernel_dir``): what it
holds is read, the rest is compiled in memory, and that is said once (``cannot_write``).

This module imports neither numba nor the engines: ``simcards cache`` starts as fast as ``--help``.
"""
from __future__ import annotations

import contextlib
import errno
import os
import re
import sys
import tempfile
import threading
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from filelock import FileLock, Timeout

from simcards.errors import SimcardsError

#: What the names of simcards' items in the folder start with; each name ends in ``_`` and the
#: 16 hex digits of its sources' hash. Generated kernel modules (simcards.kernels)...
KERNEL_MODULE_PREFIX = "_simcards_kernel_"
#: ...the modules that build strategies' tables (simcards.tables)...
TABLE_MODULE_PREFIX = "_simcards_table_"
#: ...and the C yardsticks (simcards.yardstick).
YARDSTICK_PREFIX = "yardstick_"
#: The sub-folder of built tables, ``<game_pkg>-<strategy>-<hash>.npy`` (simcards.tables).
TABLES = "tables"
#: The kinds of item: (label, sub-folder, the name of an item's files up to their first dot).
KINDS = (
    ("kernels", "", re.compile(rf"{KERNEL_MODULE_PREFIX}\w+_[0-9a-f]{{16}}")),
    ("table builders", "", re.compile(rf"{TABLE_MODULE_PREFIX}\w+_[0-9a-f]{{16}}")),
    ("tables", TABLES, re.compile(r"\w+-\w+-[0-9a-f]{16}")),
    ("C yardsticks", "", re.compile(rf"{YARDSTICK_PREFIX}\w+_[0-9a-f]{{16}}")),
)
#: numba's cache of a module's functions and Python's bytecode of it, named after the module
PYCACHE = "__pycache__"


# The names the makers give their items (``key``: 16 hex digits of the hash of their sources),
# here beside the patterns that ``items`` knows them by.
def kernel_module(game_pkg: str, key: str) -> str:
    """A generated kernel module's name (simcards.kernels)."""
    return f"{KERNEL_MODULE_PREFIX}{game_pkg}_{key}"


def table_module(game_pkg: str, strategy: str, key: str) -> str:
    """The name of the module that builds a strategy's table (simcards.tables)."""
    return f"{TABLE_MODULE_PREFIX}{game_pkg}_{strategy}_{key}"


def table_file(game_pkg: str, strategy: str, key: str) -> str:
    """A built table's file name, in the TABLES sub-folder (simcards.tables)."""
    return f"{game_pkg}-{strategy}-{key}.npy"


def yardstick_program(source_stem: str, key: str) -> str:
    """A C yardstick's program name (simcards.yardstick)."""
    return f"{YARDSTICK_PREFIX}{source_stem}_{key}"


def kernel_dir() -> Path:
    """Folder for generated kernel modules (one per game and strategy set).

    ``SIMCARDS_KERNEL_DIR`` overrides it; Dask workers on other machines should
    point it at a local folder (the modules are regenerated from the sources).
    """
    env = os.environ.get("SIMCARDS_KERNEL_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "simcards" / "kernels"


def made_kernel_dir(folder: Path | None = None) -> Path:
    """``kernel_dir()`` (or a folder in it), created if need be; a path that cannot be a folder
    (a file is there, no right to create it) is the user's setting, said in one line."""
    folder = kernel_dir() if folder is None else folder
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _bad_folder(folder, "a file is there" if folder.is_file()
                          else (exc.strerror or str(exc)).lower()) from None
    return folder


def _bad_folder(folder: Path, why: str) -> SimcardsError:
    """The one line for a kernel folder that cannot be one: the user's setting, and what is wanted."""
    return SimcardsError(f"bad kernel folder {str(folder)!r}: {why}; expected a folder simcards may "
                         "write in ($SIMCARDS_KERNEL_DIR, else simcards/kernels in $XDG_CACHE_HOME "
                         "or ~/.cache)")


#: What an OSError says when the folder is there, or could be, but simcards may not write in it
#: (read-only, no permission, a full disk or quota, a file-size limit): a cache it runs without.
_CANNOT_WRITE = frozenset({errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOSPC, errno.EDQUOT,
                           errno.EFBIG})


def usable_kernel_dir(folder: Path | None = None) -> tuple[Path, bool]:
    """``kernel_dir()`` (or a folder in it), created if need be, and whether simcards may write in it.

    A folder simcards may not create or write in (read-only, no permission, a full disk) is a
    cache it runs without: said once on stderr (``cannot_write``); what it holds is read as it is
    (verified, simcards.cached_load), what it lacks is compiled or built in memory and not kept,
    and no lock is taken in it. A path that cannot be a folder (a file is there) is the user's
    setting: one line (SimcardsError), as ``made_kernel_dir``."""
    folder = kernel_dir() if folder is None else Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()      # numba's own test of a cache folder
    except OSError as exc:
        if exc.errno not in _CANNOT_WRITE:
            raise _bad_folder(folder, "a file is there" if folder.is_file()
                              else (exc.strerror or str(exc)).lower()) from None
        cannot_write(exc)
        return folder, False
    return folder, True


_told: set[str] = set()
_telling = threading.Lock()


def tell(line: str, once: str | None = None) -> None:
    """One line on stderr about the cache (an item found damaged, a folder simcards cannot write
    in), once per process for each ``once`` (default: the line itself). A fault of the cache is
    never an error: the run goes on, from code compiled again or in memory."""
    with _telling:
        if (once or line) in _told:
            return
        _told.add(once or line)
    print(line, file=sys.stderr, flush=True)


def cannot_write(exc: OSError) -> None:
    """Say, once per process, that the kernel folder cannot be written and why."""
    why = (exc.strerror or str(exc)).lower()
    tell(f"cannot write the kernel cache {kernel_dir()} ({why}): compiling in memory what it "
         "does not hold, nothing is cached", once="cannot write")


def damaged(label: str, remedy: str = "compiling it again") -> None:
    """Say, once per process and item, that a cached item (``label``: "cached kernel for
    five-alive (random)") failed its checksum, was removed and is made again."""
    tell(f"{label} was damaged: {remedy}")


@dataclass(frozen=True)
class Item:
    """One kernel, table builder, table or yardstick: every file that belongs to it."""

    kind: str
    name: str
    files: tuple[Path, ...]

    @property
    def size(self) -> int:
        total = 0
        for f in self.files:
            with contextlib.suppress(OSError):       # removed meanwhile by another process
                total += f.stat().st_size
        return total

    @property
    def lock(self) -> Path | None:
        """The file lock its builder holds while it writes it (yardsticks have none)."""
        return next((f for f in self.files if f.name.endswith(".lock")), None)


@dataclass(frozen=True)
class Cleared:
    """What ``clear`` removed, and what it left because another process was building it."""

    removed: int
    freed: int
    busy: tuple[str, ...]


def items(folder: Path | None = None) -> list[Item]:
    """Everything simcards made in the kernel folder, grouped by item, in name order.

    An item's files share the part of their names before the first dot: the generated
    ``<module>.py``, its ``.lock``, and in ``__pycache__`` numba's ``<module>.<function>-<line>.*``
    and Python's ``<module>.cpython-*.pyc``; a table's ``.npy``, its checksum and its lock."""
    folder = kernel_dir() if folder is None else Path(folder)
    if folder.exists() and not folder.is_dir():
        raise _bad_folder(folder, "a file is there")
    groups: dict[tuple[str, str], list[Path]] = defaultdict(list)
    for kind, sub, pattern in KINDS:
        places = [folder / sub] if sub else [folder, folder / PYCACHE]
        for place in places:
            if not place.is_dir():
                continue
            for f in place.iterdir():
                # (a dot file is another process's work in progress: it matches no name)
                name = f.name.split(".", 1)[0]
                if pattern.fullmatch(name) and f.is_file():
                    groups[(kind, name)].append(f)
    order = [k for k, _, _ in KINDS]
    keys = sorted(groups, key=lambda key: (order.index(key[0]), key[1]))
    return [Item(kind, name, tuple(sorted(groups[(kind, name)]))) for kind, name in keys]


def clear(folder: Path | None = None) -> Cleared:
    """Remove every item of ``items(folder)`` that no other process is building now."""
    removed, freed, busy = 0, 0, []
    for item in items(folder):
        lock = item.lock
        guard = FileLock(str(lock), timeout=0) if lock is not None else contextlib.nullcontext()
        # measured before the lock is taken: filelock before 3.13 truncates its lock file
        size = item.size
        try:
            with guard:
                # the lock file last, while held: a process that starts building the item now
                # waits for it, then finds nothing and builds afresh
                for f in sorted(item.files, key=lambda f: f == lock):
                    try:
                        os.unlink(f)
                    except FileNotFoundError:
                        pass                        # removed meanwhile by another process
                    except OSError as exc:
                        raise SimcardsError(f"cannot remove {f}: {exc.strerror} ({removed:,} items "
                                            "removed before it)") from None
        except Timeout:
            busy.append(item.name)
            continue
        removed += 1
        freed += size
    return Cleared(removed, freed, tuple(busy))
