"""numba's cache of simcards' kernels: loaded without numba's compiler, verified before it is
loaded, and never a reason for a run to fail.

**Loaded without the compiler.** Before it loads a cached function, numba "refreshes" its target
context: it imports every implementation it could need to compile (``numba.np.arraymath``,
``numba.typed``, the random generators ...) and installs their registries, then initializes its
runtime (NRT). Machine code loaded from the cache needs only the runtime. The imports took 0.7 s
of the 2.1 s a fresh ``simcards`` process needs to play its first game from the cache
(2026-12-02): a third of the start of every command, and time that no thread count shortens in
``simcards run``. For simcards' own cached functions only (the generated kernel modules of
simcards.kernels, and the frame's ``_narrow``, simcards.config), the load initializes the runtime
and skips the imports. Nothing is lost: numba refreshes the context at the start of every compile
(``CompilerBase.__init__``), so a later compile in the same process, or a cache miss (the load
returns None and the dispatcher compiles), installs the registries as before. Other cached
functions (a user's, numba's) load as numba loads them.

**Verified before it is loaded.** numba unpickles its index (``.nbi``) and loads the object code
of its data files (``.nbc``) as they are: one byte flipped in a cached kernel was a segmentation
fault, an empty one "Aborted." at every later run, a garbled one an ``UnpicklingError``. The
files of the modules simcards generates in the kernel folder (kernels, table builders:
``GENERATED``) are written with a checksum: numba's bytes, then ``TRAILER`` and the sha256 of
those bytes, in the same write-then-rename (so a file and its checksum are replaced together,
and two processes never see one without the other). Before numba reads such a file, its
checksum is verified; a file that fails (damaged, truncated, empty, or written without one) is
removed, said in one line on stderr (simcards.cache_folder.damaged) and its function compiled
again. numba reads the files with ``pickle``, which ignores bytes after the pickle, so a numba
that does not check them still reads them. The generated module's own source is checked
by simcards.kernels (it is compared with the text it is generated from).

**Never a reason to fail.** A generated module's functions are cached in ``__pycache__`` beside
it (``_GeneratedLocator``) even when simcards may not write there: a read-only cache is read
(verified), and a save that fails (a read-only folder, no permission, a full disk) is said once
on stderr (simcards.cache_folder.cannot_write) and leaves nothing of its files behind, instead of
numba's ``OSError`` in the middle of a run. A module compiled in memory (no file: the folder
could not be written) loads nothing and saves nothing.

This relies on numba internals, as ``simcards.borrow`` and ``simcards.link_only`` do;
``tests/core/test_numba_internals.py`` checks their shapes, ``tests/core/test_cached_load.py``
the light load and ``tests/faults/test_kernel_cache.py`` the checksums and folders that cannot
be written.
"""
from __future__ import annotations

import contextlib
import errno
import hashlib
import io
import os
from pathlib import Path

from numba.core import caching as _caching
from numba.core.runtime import rtsys as _rtsys

from simcards.compiled.cache_folder import KERNEL_MODULE_PREFIX, TABLE_MODULE_PREFIX, cannot_write, damaged

#: The modules of simcards' own cached functions: the package's, and the kernel modules
#: simcards.kernels generates.
OWN_MODULES = ("simcards.", KERNEL_MODULE_PREFIX)
#: The modules simcards generates in the kernel folder, whose cache files carry a checksum.
GENERATED = (KERNEL_MODULE_PREFIX, TABLE_MODULE_PREFIX)
#: What ends each of their cache files: this, then the sha256 (32 bytes) of what precedes it.
TRAILER = b"\0simcards sha256\0"
_TAIL = len(TRAILER) + 32

#: What the messages call a generated module's cached code, by module name ("cached kernel for
#: five-alive (random)"), set by whoever generates it (simcards.kernels).
LABELS: dict[str, str] = {}


def _is_own(cache) -> bool:
    return (getattr(getattr(cache, "_py_func", None), "__module__", None) or "").startswith(OWN_MODULES)


def _is_generated(cache) -> bool:
    return (getattr(getattr(cache, "_py_func", None), "__module__", None) or "").startswith(GENERATED)


def checked(payload: bytes) -> bytes:
    """``payload`` as written with its checksum."""
    return payload + TRAILER + hashlib.sha256(payload).digest()


def intact(raw: bytes) -> bool:
    """Whether ``raw`` (a whole file) ends in the checksum of what precedes it."""
    return (len(raw) >= _TAIL and raw[-_TAIL:-32] == TRAILER
            and hashlib.sha256(memoryview(raw)[:-_TAIL]).digest() == raw[-32:])


def _label(module: str) -> str:
    return LABELS.get(module, f"cached compiled code of {module}")


#: numba's class, even after install() replaced it in numba's module (a reload of this one)
_NUMBA_FILE = next(c for c in _caching.IndexDataCacheFile.__mro__ if c.__module__ == _caching.__name__)


class _CheckedCacheFile(_NUMBA_FILE):
    """numba's index and data files of one function; for a generated module's (``GENERATED``),
    each written with its checksum and verified before numba reads it."""

    def __init__(self, cache_path, filename_base, source_stamp):
        super().__init__(cache_path, filename_base, source_stamp)
        self._module = filename_base.split(".", 1)[0]
        self._checked = self._module.startswith(GENERATED)

    def _verified(self, path: str) -> bool:
        """False (and the file removed, said once per module) for a file that fails its checksum;
        True for an intact one or none (numba then finds nothing, as with no cache)."""
        try:
            with open(path, "rb") as fh:
                raw = fh.read()
        except FileNotFoundError:
            return True
        except OSError:
            raw = b""               # unreadable: not verifiable, so not loaded
        if intact(raw):
            return True
        with contextlib.suppress(OSError):          # a read-only cache keeps it: not loaded all the same
            os.unlink(path)
        damaged(_label(self._module))
        return False

    def _load_index(self):
        if self._checked and not self._verified(self._index_path):
            self.drop()             # its data files: nothing names them any more
            return {}
        return super()._load_index()

    def _load_data(self, name):
        if self._checked and not self._verified(self._data_path(name)):
            # numba's load takes an OSError for a data file that is gone: a cache miss, compiled again
            raise FileNotFoundError(errno.ENOENT, "damaged, removed", self._data_path(name))
        return super()._load_data(name)

    @contextlib.contextmanager
    def _open_for_write(self, filepath):
        if not self._checked:
            with super()._open_for_write(filepath) as fh:
                yield fh
            return
        buffer = io.BytesIO()
        yield buffer
        with super()._open_for_write(filepath) as fh:       # write-then-rename, as numba's
            fh.write(checked(buffer.getvalue()))

    def drop(self) -> None:
        """Remove this function's index and data files (a save that failed half-way: a later run
        must find nothing rather than an index whose data is missing)."""
        folder = Path(self._cache_path)
        stem = os.path.basename(self._index_path)[:-len(".nbi")]
        for path in [folder / f"{stem}.nbi", *folder.glob(f"{stem}.*.nbc")]:
            with contextlib.suppress(OSError):
                path.unlink()


#: numba 0.60 names its locators with a leading underscore, later releases without
#: (tests/core/test_numba_internals.py checks that one of the two is there)
_InTreeLocator = getattr(_caching, "InTreeCacheLocator", None) or _caching._InTreeCacheLocator
_UserProvidedLocator = (getattr(_caching, "UserProvidedCacheLocator", None)
                        or _caching._UserProvidedCacheLocator)


class _GeneratedLocator(_InTreeLocator):
    """``__pycache__`` beside a generated module (in the kernel folder), whether or not it may be
    written: a read-only cache is read, a save that fails is said (``_save_or_say``). numba's own
    locators take a folder only if they may write in it, and with none raise at the module's import."""

    @classmethod
    def from_function(cls, py_func, py_file):
        if not (getattr(py_func, "__module__", None) or "").startswith(GENERATED):
            return None
        return cls(py_func, py_file)

    def ensure_cache_path(self):
        if not os.path.exists(self._py_file):
            raise OSError(errno.ENOENT, "compiled in memory", self._py_file)
        super().ensure_cache_path()

    def get_source_stamp(self):
        try:
            return super().get_source_stamp()
        except OSError:         # compiled in memory: no file, and no index of a file can match
            return ("compiled in memory", os.getpid())


def _load_without_compiler(original):
    def load_overload(self, sig, target_context):
        if not _is_own(self):
            return original(self, sig, target_context)
        _rtsys.initialize(target_context)       # what a loaded kernel needs of refresh()
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)
    return load_overload


def _save_or_say(original):
    def save_overload(self, sig, data):
        if not _is_generated(self):
            return original(self, sig, data)
        try:
            return original(self, sig, data)
        except OSError as exc:
            self._cache_file.drop()
            self.disable()
            if not (exc.errno == errno.ENOENT and exc.strerror == "compiled in memory"):
                cannot_write(exc)     # (in memory: said already, when the folder was found unwritable)
    return save_overload


def _patched(owner, name: str, wrap) -> None:
    current = getattr(owner, name)
    original = getattr(current, "__wrapped__", current)
    patched = wrap(original)
    patched.__wrapped__ = original
    setattr(owner, name, patched)


def install() -> None:
    """Called when simcards.config is imported. Idempotent (wraps numba's original methods)."""
    _patched(_caching.Cache, "load_overload", _load_without_compiler)
    _patched(_caching.Cache, "save_overload", _save_or_say)
    _caching.IndexDataCacheFile = _CheckedCacheFile
    locators = [c for c in _caching.CacheImpl._locator_classes
                if not (c.__name__ == _GeneratedLocator.__name__ and c.__module__ == __name__)]
    at = locators.index(_UserProvidedLocator) + 1 if _UserProvidedLocator in locators else 0
    _caching.CacheImpl._locator_classes = locators[:at] + [_GeneratedLocator] + locators[at:]
