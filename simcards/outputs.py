"""Where simcards writes: checked before any game is played, never clobbered by surprise.

Three rules, the same for every command:

- every output path is checked before the first game (a folder where a file is
  expected, a file where a folder is expected, a folder that cannot be written);
- an existing file or report folder is replaced only with ``--force``, and even
  then only files that simcards itself wrote are removed: a report folder keeps
  their names in ``.simcards-written.json``, a run folder in its manifest;
- every file is written under a temporary name beside its real one and renamed
  into place, so an interruption never leaves half a file under the real name.
"""
from __future__ import annotations

import contextlib
import json
import os
import re
import threading
from pathlib import Path
from typing import Iterable, Iterator

from simcards.errors import SimcardsError

WRITTEN = ".simcards-written.json"   # the files simcards wrote in a report folder
FORCE_HINT = "add --force to replace it"


@contextlib.contextmanager
def atomic(path: str | Path) -> Iterator[Path]:
    """Yield a temporary name beside ``path``; rename it into place if the block succeeds.

    The temporary name keeps the suffix, so writers that choose a format by the
    name (pandas, matplotlib) still do; it starts with a dot, so a listing of the
    folder does not show it while it is written."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}-{threading.get_ident()}.tmp{path.suffix}")
    try:
        yield tmp
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        raise


def write_text(path: str | Path, text: str) -> None:
    with atomic(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def _check_writable_parent(path: Path, label: str) -> None:
    """The nearest existing folder above ``path`` must be a folder we may write in."""
    parent = path.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        raise SimcardsError(f"bad {label} {str(path)!r}: {str(parent)!r} is a file, "
                            "expected a folder or a new name")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise SimcardsError(f"bad {label} {str(path)!r}: cannot write in {str(parent)!r}, "
                            "expected a folder you may write in")


def check_output_file(path: str | Path, force: bool, label: str = "--out",
                      suffixes: tuple[str, ...] = ()) -> Path:
    """Refuse, before any game is played, an output file that cannot or should not be written."""
    path = Path(path)
    if suffixes and path.suffix not in suffixes:
        raise SimcardsError(f"bad output file {str(path)!r}: expected a {' or '.join(suffixes)} name")
    if path.is_dir():
        raise SimcardsError(f"bad {label} {str(path)!r}: it is a folder, expected a file name")
    if path.exists() and not force:
        raise SimcardsError(f"bad {label} {str(path)!r}: the file exists, expected a new name "
                            f"({FORCE_HINT})")
    _check_writable_parent(path, label)
    return path


def write_file(path: str | Path, write) -> Path:
    """``write(tmp_path)`` writes the content; the file appears under ``path`` only when complete."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic(path) as tmp:
        write(tmp)
    return path


# ------------------------------------------------------------------ report folders
def written_files(folder: str | Path) -> set[str]:
    """Names simcards wrote in ``folder`` (as listed there); a missing or unreadable list lists nothing."""
    try:
        names = json.loads((Path(folder) / WRITTEN).read_text(encoding="utf-8"))["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return set()
    # only plain names of this folder: an edited list must not reach elsewhere
    return {n for n in names if isinstance(n, str) and n == Path(n).name and n not in ("", ".", "..")}


def check_output_folder(folder: str | Path, force: bool, label: str = "--out-dir") -> Path:
    """Refuse, before any game is played, a report folder that is a file, cannot be written,
    or already holds files (unless ``force``)."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise SimcardsError(f"bad {label} {str(folder)!r}: it is a file, expected a folder")
    if folder.is_dir():
        if not force and any(folder.iterdir()):
            raise SimcardsError(f"bad {label} {str(folder)!r}: the folder already holds files, "
                                f"expected a new or empty folder ({FORCE_HINT} "
                                "with a new report: only files simcards wrote there are removed)")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise SimcardsError(f"bad {label} {str(folder)!r}: cannot write in it, "
                                "expected a folder you may write in")
    else:
        _check_writable_parent(folder, label)
    return folder


def finish_output_folder(folder: str | Path, names: Iterable[str]) -> list[str]:
    """Record the files just written and remove the ones simcards wrote before but not now
    (the plots of an older report); files it never wrote stay. Returns the removed names."""
    folder = Path(folder)
    names = sorted(set(names))
    stale = sorted(written_files(folder) - set(names))
    for name in stale:
        with contextlib.suppress(FileNotFoundError):
            (folder / name).unlink()
    write_text(folder / WRITTEN, json.dumps({"files": names}, indent=1) + "\n")
    return stale


# ------------------------------------------------------------------ run folders
def check_run_folder(folder: str | Path, resume: bool, force: bool) -> Path:
    """``--run-dir``: a folder (or a new name) we may write in; a folder holding a run needs
    --resume (finish it) or --force (start again)."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise SimcardsError(f"bad --run-dir {str(folder)!r}: it is a file, expected a folder")
    if folder.is_dir():
        if not os.access(folder, os.W_OK | os.X_OK):
            raise SimcardsError(f"bad --run-dir {str(folder)!r}: cannot write in it, "
                                "expected a folder you may write in")
    else:
        _check_writable_parent(folder, "--run-dir")
    if resume and force:
        raise SimcardsError("--resume finishes the run in --run-dir and --force starts it again: use one of them")
    return folder


def clear_run_folder(folder: str | Path) -> list[Path]:
    """Remove the run simcards saved in ``folder`` (its manifest and its parts, finished or
    half-written), before ``--force`` starts the run again; anything else in the folder stays."""
    from simcards.runner import MANIFEST  # the run folder's layout lives there
    folder = Path(folder)
    manifest = folder / MANIFEST
    if not manifest.is_file():
        return []
    try:
        json.loads(manifest.read_text(encoding="utf-8"))["run"]["chunk_size"]
    except (ValueError, KeyError, TypeError) as exc:
        raise SimcardsError(f"bad --run-dir {str(folder)!r}: its {MANIFEST} is not a simcards "
                            f"manifest ({exc}), expected a run folder; nothing was removed") from None
    removed = [p for p in sorted((folder / "parts").glob("chunk-*")) if _PART.fullmatch(p.name)]
    for path in removed + [manifest]:
        path.unlink()
    return removed + [manifest]


# RunFolder's part names: chunk-000012.parquet / .json, and their temporary names
_PART = re.compile(r"chunk-\d{6,}\.(parquet|json|tmp|json\.tmp)")
