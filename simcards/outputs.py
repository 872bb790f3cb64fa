"""Where simcards writes: checked before any game is played, never clobbered by surprise.

Four rules, the same for every command:

- every output path is checked before the first game (a folder where a file is
  expected, a file where a folder is expected, a folder that cannot be written: the
  check creates the output's lock file there, a real write, so a read-only mount is
  found even by root, whom modes do not stop);
- a writer holds a lock on its output for the whole command (``take_lock``): a second
  simcards process writing the same ``--out`` file, report folder or run folder is
  refused in one line naming the first one's pid. The lock is ``flock`` on a small file,
  ``.NAME.lock`` beside an output file or ``.simcards.lock`` inside an output folder:
  the kernel releases it when its process dies, however it dies, so a killed run never
  blocks the next one; the file is removed when the lock is released;
- an existing file or report folder is replaced only with ``--force``, and even
  then only files that simcards itself wrote are removed: a report folder keeps
  their names and checksums in ``.simcards-written.json`` (a file edited since, or a
  name added by hand, stays), a run folder its manifest and parts;
- every file is written under a temporary name beside its real one, unique to the
  process and thread, and renamed into place (``atomic``), so an interruption, a full
  disk or a file-size limit never leaves part of a file under the real name; such a
  failure is one line (``WriteError``) naming the file and the reason.
"""
from __future__ import annotations

import atexit
import contextlib
import errno
import hashlib
import json
import os
import re
import threading
from pathlib import Path
from typing import Iterable, Iterator

from simcards.errors import SimcardsError

try:
    import fcntl
except ImportError:     # Windows: filelock's lock, without the holder's pid
    fcntl = None

WRITTEN = ".simcards-written.json"   # the files simcards wrote in a report folder, with checksums
WRITTEN_FORMAT = 2                  # 1: {"files": [names]}, without checksums: nothing in it is trusted
FOLDER_LOCK = ".simcards.lock"      # the lock of an output folder (a report's, a run's), inside it
FORCE_HINT = "add --force to replace it"


class WriteError(SimcardsError):
    """A file could not be written (full disk, file-size limit, read-only folder...)."""


_REASONS = {
    errno.ENOSPC: "no space left on the device",
    errno.EFBIG: "file too large (the file-size limit, ulimit -f)",
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EDQUOT: "disk quota exceeded",
    errno.EIO: "input/output error",
    errno.ENOENT: "its folder is gone",
}


def reason(exc: OSError) -> str:
    """What an OSError means for a user, in a few words."""
    if exc.errno in _REASONS:
        return _REASONS[exc.errno]
    text = str(exc.strerror or exc) or type(exc).__name__
    return text.splitlines()[0][:160]


# ------------------------------------------------------------------ writing
def _temporary(path: Path) -> Path:
    # the suffix stays, so writers that choose a format by the name (pandas, matplotlib) still do;
    # the leading dot hides it from a listing while it is written
    return path.with_name(f".{path.name}.{os.getpid()}-{threading.get_ident()}.tmp{path.suffix}")


def _temporaries_of(path: Path) -> re.Pattern:
    return re.compile(re.escape(f".{path.name}.") + r"(\d+)-\d+\.tmp" + re.escape(path.suffix))


@contextlib.contextmanager
def atomic(path: str | Path) -> Iterator[Path]:
    """Yield a temporary name beside ``path``; rename it into place if the block succeeds.

    On any failure the temporary file is removed and ``path`` is left as it was (an older
    file under it stays whole); an OSError (ENOSPC, EFBIG, EROFS...) becomes a WriteError,
    one line naming ``path`` and the reason."""
    path = Path(path)
    tmp = _temporary(path)
    try:
        yield tmp
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        if isinstance(exc, OSError):
            raise WriteError(f"cannot write {str(path)!r}: {reason(exc)}") from None
        raise


def replace_bytes(path: str | Path, raw: bytes) -> None:
    """``raw`` under ``path``, write-then-rename, for the caches (simcards.kernels, tables): the
    same temporary name and clean-up as ``atomic``, but a failure stays the OSError it is, since
    a cache that cannot be written is no error of the run (its callers say so and go on)."""
    path = Path(path)
    tmp = _temporary(path)
    try:
        tmp.write_bytes(raw)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def write_text(path: str | Path, text: str) -> None:
    with atomic(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def write_file(path: str | Path, write) -> Path:
    """``write(tmp_path)`` writes the content; the file appears under ``path`` only when complete."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WriteError(f"cannot write {str(path)!r}: {reason(exc)}") from None
    with atomic(path) as tmp:
        write(tmp)
    return path


def sha256(path: str | Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


# ------------------------------------------------------------------ locks
class _Held:
    def __init__(self, fd, created: list[Path], other=None):
        self.fd, self.created, self.other, self.count = fd, created, other, 1


_held: dict[str, _Held] = {}          # lock file -> its lock, taken once per process
_held_mutex = threading.Lock()
_scopes = threading.local()            # the stack of holding_locks() blocks of this thread
_process_scope: list[str] = []         # locks taken outside any block: released at exit


@contextlib.contextmanager
def holding_locks() -> Iterator[None]:
    """Locks taken (``take_lock``) inside the block are released when it ends: a command
    holds its outputs' locks from its checks to its last write."""
    stack = _scopes.__dict__.setdefault("stack", [])
    mine: list[str] = []
    stack.append(mine)
    try:
        yield
    finally:
        stack.remove(mine)
        for key in reversed(mine):
            _release(key)


def lock_file(target: str | Path, folder: bool = False) -> Path:
    target = Path(target)
    return target / FOLDER_LOCK if folder else target.with_name(f".{target.name}.lock")


def _read_pid(fd: int) -> str:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return ""
    return text if text.isdigit() else ""


def take_lock(target: str | Path, label: str, folder: bool = False) -> Path:
    """Lock ``target`` (an output file, or with ``folder`` an output folder, created if new)
    for the enclosing ``holding_locks`` block, or this process's life outside one.

    Creating the lock file is the check that the folder can be written (one line if not).
    A lock another simcards process holds is one line naming its pid; one this process
    holds already is shared."""
    target = Path(target)
    path = lock_file(target, folder)
    key = os.path.abspath(path)
    with _held_mutex:
        if key in _held:
            _held[key].count += 1
            _register(key)
            return path
    where = path.parent
    created: list[Path] = []
    missing = where
    while not missing.exists() and missing != missing.parent:
        created.append(missing)
        missing = missing.parent

    def cannot(exc: OSError) -> SimcardsError:
        return SimcardsError(f"bad {label} {str(target)!r}: cannot write in {str(missing if created else where)!r} "
                             f"({reason(exc)}), expected a folder you may write in")

    try:
        where.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise cannot(exc) from None
    busy = (f"{label} {str(target)!r} is being written by another simcards process"
            " (pid {pid}): wait for it to end, or choose another name")
    if fcntl is None:       # pragma: no cover - Windows
        import filelock
        other = filelock.FileLock(str(path))
        try:
            other.acquire(timeout=0)
        except filelock.Timeout:
            raise SimcardsError(busy.replace(" (pid {pid})", "")) from None
        except OSError as exc:
            raise cannot(exc) from None
        return _keep(key, _Held(None, created, other), path)
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
        except OSError as exc:
            _remove_empty(created)
            raise cannot(exc) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            pid = _read_pid(fd)
            os.close(fd)
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise SimcardsError(busy.format(pid=pid or "unknown")) from None
            raise cannot(exc) from None
        # The holder before us removes the file before it lets go: we may hold a lock on a
        # file that no longer has the name, which locks nothing. Then try again.
        try:
            same = os.path.samestat(os.fstat(fd), os.stat(path))
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return _keep(key, _Held(fd, created), path)


def _keep(key: str, held: _Held, path: Path) -> Path:
    with _held_mutex:
        _held[key] = held
    _register(key)
    return path


def _register(key: str) -> None:
    stack = getattr(_scopes, "stack", None)
    (stack[-1] if stack else _process_scope).append(key)


def _release(key: str) -> None:
    with _held_mutex:
        held = _held.get(key)
        if held is None:
            return
        held.count -= 1
        if held.count > 0:
            return
        del _held[key]
    if held.other is not None:      # pragma: no cover - Windows
        held.other.release()
    else:
        with contextlib.suppress(OSError):
            os.unlink(key)          # still locked: a process that opened it retries on the new file
        os.close(held.fd)
    _remove_empty(held.created)


def _remove_empty(created: list[Path]) -> None:
    """Folders made for a lock that nothing was written into (the command failed first)."""
    for folder in created:
        try:
            folder.rmdir()
        except OSError:
            return


@atexit.register
def _release_all() -> None:
    for key in reversed(_process_scope):
        _release(key)
    _process_scope.clear()


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def _remove_dead_temporaries(path: Path) -> None:
    """Temporary names of ``path`` left by a writer that was killed (we hold its lock now)."""
    pattern = _temporaries_of(path)
    with contextlib.suppress(OSError):
        for name in os.listdir(path.parent):
            found = pattern.fullmatch(name)
            if found and not _pid_alive(int(found.group(1))):
                with contextlib.suppress(OSError):
                    (path.parent / name).unlink()


# ------------------------------------------------------------------ checks
def _check_parent_is_folder(path: Path, label: str) -> None:
    """The nearest existing folder above ``path`` must be a folder (written in: take_lock)."""
    parent = path.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        raise SimcardsError(f"bad {label} {str(path)!r}: {str(parent)!r} is a file, "
                            "expected a folder or a new name")


def check_output_file(path: str | Path, force: bool, label: str = "--out",
                      suffixes: tuple[str, ...] = ()) -> Path:
    """Refuse, before any game is played, an output file that cannot or should not be
    written; lock it for the command (``take_lock``)."""
    path = Path(path)
    if suffixes and path.suffix not in suffixes:
        raise SimcardsError(f"bad output file {str(path)!r}: expected a {' or '.join(suffixes)} name")
    if path.is_dir():
        raise SimcardsError(f"bad {label} {str(path)!r}: it is a folder, expected a file name")
    _check_parent_is_folder(path, label)
    take_lock(path, label)
    if path.exists() and not force:
        raise SimcardsError(f"bad {label} {str(path)!r}: the file exists, expected a new name "
                            f"({FORCE_HINT})")
    _remove_dead_temporaries(path)
    return path


# ------------------------------------------------------------------ report folders
def _plain(name) -> bool:
    return (isinstance(name, str) and name not in ("", ".", "..", WRITTEN, FOLDER_LOCK)
            and name == Path(name).name and "/" not in name and "\\" not in name and "\0" not in name)


def written_checksums(folder: str | Path) -> dict[str, str]:
    """The list of files simcards wrote in ``folder``, {name: sha256}: only plain names of
    this folder with a checksum; a missing, garbled or old (format 1) list lists nothing."""
    try:
        data = json.loads((Path(folder) / WRITTEN).read_text(encoding="utf-8"))
        files = data["files"] if data.get("format") == WRITTEN_FORMAT else {}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}
    if not isinstance(files, dict):
        return {}
    return {n: s for n, s in files.items() if _plain(n) and isinstance(s, str) and len(s) == 64}


def written_files(folder: str | Path) -> set[str]:
    """Names of files in ``folder`` that simcards wrote and nobody changed since: the list
    records them and their content still hashes to the recorded checksum. Only these are
    ever removed."""
    folder = Path(folder)
    mine = set()
    for name, checksum in written_checksums(folder).items():
        path = folder / name
        with contextlib.suppress(OSError):
            if path.is_file() and not path.is_symlink() and sha256(path) == checksum:
                mine.add(name)
    return mine


def _holds_files(folder: Path) -> bool:
    return any(p.name != FOLDER_LOCK for p in folder.iterdir())


def check_output_folder(folder: str | Path, force: bool, label: str = "--out-dir") -> Path:
    """Refuse, before any game is played, a report folder that is a file, cannot be written,
    or already holds files (unless ``force``); lock it for the command (made if new)."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise SimcardsError(f"bad {label} {str(folder)!r}: it is a file, expected a folder")
    _check_parent_is_folder(folder, label)
    take_lock(folder, label, folder=True)
    if not force and _holds_files(folder):
        raise SimcardsError(f"bad {label} {str(folder)!r}: the folder already holds files, "
                            f"expected a new or empty folder ({FORCE_HINT} "
                            "with a new report: only files simcards wrote there are removed)")
    return folder


def finish_output_folder(folder: str | Path, names: Iterable[str]) -> list[str]:
    """Record the files just written, with their checksums, and remove the ones simcards
    wrote before but not now (the plots of an older report) if nobody changed them since;
    files it never wrote, or that were edited, stay. Returns the removed names."""
    folder = Path(folder)
    names = sorted(n for n in set(names) if _plain(n))
    stale = sorted(written_files(folder) - set(names))
    for name in stale:
        with contextlib.suppress(FileNotFoundError):
            (folder / name).unlink()
    files = {n: sha256(folder / n) for n in names if (folder / n).is_file()}
    write_text(folder / WRITTEN, json.dumps({"format": WRITTEN_FORMAT, "files": files}, indent=1) + "\n")
    return stale


# ------------------------------------------------------------------ run folders
