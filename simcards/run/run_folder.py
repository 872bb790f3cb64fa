"""A run folder: its names, its manifest, and its parts, each checked before it is trusted.

Every name of the layout is here and nowhere else (the runner, rotation, reports, the CLI and
``simcards.outputs`` import them)::

    RUN/manifest.json                the run (RunSpec), FORMAT, the number of chunks
    RUN/.simcards.lock               held by the one process writing the folder
    RUN/parts/chunk-000012.parquet   a finished chunk's rows (``.json``: its totals, summary-only)
    RUN/parts/chunk-000012.done      the chunk's record, written after its part (below)
    RUN/order-03/                    a rotated run: one run folder per seat order
    RUNS/cell000-lineup001-games0-150/   a report's run folder: one per line-up and batch

Why a record beside each part rather than a list in the manifest: the manifest is written
once, when the run starts, and a chunk's record is one small file written (under a
temporary name, then renamed) right after its part, by the thread that played the chunk.
Rewriting a list of every chunk in the manifest after each one would cost the square of
the chunks (10**5 chunks: 10**10 entries written) and serialize the threads on it; a
record per part costs the same for the first chunk and the last. A part without its record
was cut short between the two renames: it is played again, as a missing one is.

A record holds the part's file name, its size and sha256, the chunk's first game index,
games and rows, and a fingerprint of the run (the manifest's RunSpec). On ``--resume`` a
part is used only when its record matches the run and the chunk, its bytes hash to the
recorded checksum, and its content holds the chunk's rows and game indices (the Parquet
footer's row count and the game column's min/max; a totals part's games). Anything else
(a byte flipped, a truncated or garbled part, a chunk copied over another, a part from
another run) is said in one line on stderr and the chunk is played again, never used.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Iterator, Sequence

from simcards.errors import SimcardsError
from simcards.package import __version__

if TYPE_CHECKING:
    from simcards.run.spec import RunSpec

MANIFEST = "manifest.json"
PARTS = "parts"
FORMAT = 2          # 1: no "format" key, parts without records (simcards before issue 49)
RECORD_SUFFIX = "done"
FORCE_HINT = "start it again with --force"

#: a part, a record, or the temporary name of one (simcards.outputs.atomic's names, and the
#: ``chunk-NNNNNN.tmp`` of older versions): the files ``--force`` may remove from parts/
PART_FILE = re.compile(r"chunk-\d{6,}\.(parquet|json|done)")
PART_TEMPORARY = re.compile(r"(\.chunk-\d{6,}\.(parquet|json|done)\..+\.tmp.*|chunk-\d{6,}\.(tmp|json\.tmp))")
ORDER_FOLDER = re.compile(r"order-\d{2,}")


def order_folder(order: int) -> str:
    """The run folder of a rotated run's seat order ``order`` (inside the run's --run-dir)."""
    return f"order-{order:02d}"


def lineup_folder(cell: int, lineup: int, first: int, end: int) -> str:
    """The run folder of a report's line-up for games first..end-1 (inside its --run-dir)."""
    return f"cell{cell:03d}-lineup{lineup:03d}-games{first}-{end}"


def part_name(index: int, summary_only: bool) -> str:
    return f"chunk-{index:06d}.{'json' if summary_only else 'parquet'}"


def record_name(index: int) -> str:
    return f"chunk-{index:06d}.{RECORD_SUFFIX}"


def note(message: str) -> None:
    """One line on stderr: something was found and dealt with, the run goes on."""
    print(message, file=sys.stderr, flush=True)


def _sha256(path: Path) -> tuple[str, int]:
    digest, size = hashlib.sha256(), 0
    with open(path, "rb") as fh:
        while block := fh.read(1 << 20):
            digest.update(block)
            size += len(block)
    return digest.hexdigest(), size


def fingerprint(run: "RunSpec") -> str:
    """The run a part belongs to: a hash of its RunSpec as the manifest stores it."""
    return hashlib.sha256(json.dumps(run.to_json(), sort_keys=True).encode()).hexdigest()[:32]


# ------------------------------------------------------------------ the manifest
def read_manifest(folder: str | Path) -> dict:
    """The manifest of the run in ``folder``, checked: one line naming it when it is not one
    this simcards can resume (garbled, empty, another program's, an older format)."""
    path = Path(folder) / MANIFEST
    expected = (f"expected the JSON simcards writes (format {FORMAT}, run, chunks); nothing was "
                "removed (if the folder is a run folder, remove that file and start again with "
                "--force; or choose another folder)")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise SimcardsError(f"{str(path)} is not a simcards run manifest (it is not text): {expected}") from None
    except OSError as exc:
        raise SimcardsError(f"cannot read {str(path)}: {exc.strerror or exc}") from None
    if not text.strip():
        raise SimcardsError(f"{str(path)} is not a simcards run manifest (it is empty): {expected}")
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise SimcardsError(f"{str(path)} is not a simcards run manifest (not JSON: {exc}): {expected}") from None
    if not isinstance(data, dict) or not isinstance(data.get("run"), dict):
        raise SimcardsError(f"{str(path)} is not a simcards run manifest (no run in it): {expected}")
    if "format" not in data:
        raise SimcardsError(f"{str(path)} was written by an older simcards (format 1: its parts carry no "
                            f"checksums to check them by, so they cannot be resumed): {FORCE_HINT}")
    if data["format"] != FORMAT:
        raise SimcardsError(f"{str(path)} has format {data['format']!r}, this simcards reads format "
                            f"{FORMAT}: {FORCE_HINT}, or finish it with the simcards that started it")
    from simcards.run.spec import RunSpec
    try:
        RunSpec.from_json(data["run"])
        chunks = int(data["chunks"])
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise SimcardsError(f"{str(path)} is not a simcards run manifest (bad or missing {exc}): "
                            f"{expected}") from None
    data["chunks"] = chunks
    return data


def stored_chunk_size(run_dir: str | Path | None) -> int | None:
    """The chunk size of the run saved in ``run_dir``, if any: a resumed run keeps its chunks
    whatever the threads now (the default chunk size depends on them). A manifest that is
    not one is refused in one line (by ``read_manifest``), before any game."""
    if run_dir is None or not (Path(run_dir) / MANIFEST).is_file():
        return None
    try:
        return int(read_manifest(run_dir)["run"]["chunk_size"])
    except (TypeError, ValueError):
        return None


def _names(folder: Path) -> set[str]:
    try:
        return set(os.listdir(folder))
    except FileNotFoundError:
        return set()


def part_files(folder: str | Path) -> list[Path]:
    """simcards's own files in a run folder's parts/: parts, records and their temporary names."""
    parts = Path(folder) / PARTS
    return sorted(parts / n for n in _names(parts) if PART_FILE.fullmatch(n) or PART_TEMPORARY.fullmatch(n))


# ------------------------------------------------------------------ the folder
class RunFolder:
    """``manifest.json`` and one part per finished chunk, each with its record (see the module).

    Opening the folder takes its lock for as long as the command runs (``outputs.take_lock``):
    a second process writing or resuming the same folder is refused in one line."""

    def __init__(self, path: str | Path, run: "RunSpec", resume: bool):
        from simcards.outputs import take_lock, write_text
        self.path = Path(path)
        self.run = run
        self.fingerprint = fingerprint(run)
        self._mutex = threading.Lock()
        self.saved: set[int] = set()
        take_lock(self.path, "--run-dir", folder=True)
        manifest = self.path / MANIFEST
        if manifest.exists():
            if not resume:
                raise SimcardsError(f"run folder {str(self.path)!r} already holds a run: "
                                    "add --resume to finish it, or choose another folder")
            stored = read_manifest(self.path)["run"]
            mine = run.to_json()
            differ = sorted(k for k in mine if stored.get(k) != mine[k])
            if differ:
                raise SimcardsError(f"cannot resume {str(self.path)!r}: the run differs in "
                                    f"{', '.join(differ)} (stored {', '.join(f'{k}={stored.get(k)!r}' for k in differ)})")
        else:
            found = [p for p in part_files(self.path) if PART_FILE.fullmatch(p.name)]
            if found:
                # the manifest said which run they belong to: without it they are nobody's
                raise SimcardsError(f"{str(self.path)!r} holds parts without a manifest ({len(found):,} "
                                    f"files in {PARTS}/): nothing says which run they belong to, so they "
                                    f"are not used; {FORCE_HINT} (removes them) or choose another folder")
            (self.path / PARTS).mkdir(parents=True, exist_ok=True)
            write_text(manifest, json.dumps({"format": FORMAT, "run": run.to_json(),
                                             "version": __version__,
                                             "chunks": self.chunk_count(),
                                             "parts": f"{PARTS}/chunk-NNNNNN.parquet (or .json: totals), each "
                                                      f"with its record chunk-NNNNNN.{RECORD_SUFFIX}"},
                                            indent=2))
        (self.path / PARTS).mkdir(parents=True, exist_ok=True)
        # a temporary name left by a killed writer: no live process writes here (we hold the lock)
        for leftover in part_files(self.path):
            if PART_TEMPORARY.fullmatch(leftover.name):
                with contextlib.suppress(FileNotFoundError):
                    leftover.unlink()

    def part(self, index: int) -> Path:
        return self.path / PARTS / part_name(index, self.run.summary_only)

    def record(self, index: int) -> Path:
        return self.path / PARTS / record_name(index)

    def chunk_count(self) -> int:
        return -(-self.run.n_games // self.run.chunk_size)

    def _chunk(self, index: int) -> tuple[int, int]:
        """(first game index, games) of chunk ``index``, as ``RunSpec.chunks`` cuts them."""
        lo = index * self.run.chunk_size
        return self.run.start + lo, min(self.run.chunk_size, self.run.n_games - lo)

    def done(self) -> set[int]:
        """The chunks whose parts pass every check; a part that fails one is said in one line
        on stderr and removed with its record, so that its chunk is played again."""
        names = _names(self.path / PARTS)
        ok: set[int] = set()
        for index, first, count in self.run.chunks():
            part, record = part_name(index, self.run.summary_only), record_name(index)
            if part not in names and record not in names:
                continue
            if record not in names:     # cut short between the part and its record
                problem = None
            else:
                problem = self._problem(index, first, count)
                if problem is None:
                    ok.add(index)
                    continue
            if problem:
                note(f"chunk {index} in {self.path}: {problem}, playing it again")
            for path in (self.record(index), self.part(index)):
                with contextlib.suppress(FileNotFoundError):
                    path.unlink()
        with self._mutex:
            self.saved = set(ok)
        return ok

    def _problem(self, index: int, first: int, count: int) -> str | None:
        """Why the part of chunk ``index`` cannot be trusted, or None."""
        try:
            rec = json.loads(self.record(index).read_text(encoding="utf-8"))
            if not isinstance(rec, dict):
                raise ValueError("not an object")
        except (OSError, ValueError) as exc:
            return f"its record {record_name(index)} is unreadable ({exc})"
        part = self.part(index)
        expect = {"format": FORMAT, "run": self.fingerprint, "chunk": index, "file": part.name,
                  "first_game": first, "games": count}
        wrong = [k for k, v in expect.items() if rec.get(k) != v]
        if wrong:
            return f"its record is not this run's chunk {index} (it differs in {', '.join(wrong)})"
        if not part.is_file():
            return "its part is missing"
        size = part.stat().st_size
        if size != rec.get("bytes"):
            return f"its part holds {size:,} bytes, {rec.get('bytes')!r} were written (truncated or replaced)"
        if _sha256(part)[0] != rec.get("sha256"):
            return "checksum differs"
        return self._content_problem(part, first, count)

    def _content_problem(self, part: Path, first: int, count: int) -> str | None:
        """The part's own content against the chunk: rows and game indices (checked by the
        checksum already; this catches a record written for the wrong part)."""
        last = first + count - 1
        if self.run.summary_only:
            try:
                d = json.loads(part.read_text(encoding="utf-8"))
                games = d["games"]
                same = d["game"] == self.run.game and tuple(d["strategies"]) == self.run.strategies
            except (OSError, ValueError, KeyError, TypeError) as exc:
                return f"its totals are unreadable ({exc})"
            if games != count or not same:
                return f"its totals hold {games!r} games of {d.get('strategies')!r}, expected {count:,}"
            return None
        import pyarrow.parquet as pq
        players = len(self.run.strategies)
        try:
            meta = pq.ParquetFile(part).metadata
            rows = meta.num_rows
            game = meta.schema.names.index("game")
            stats = [meta.row_group(g).column(game).statistics for g in range(meta.num_row_groups)]
            low = min(s.min for s in stats) if stats and all(s is not None and s.has_min_max for s in stats) else None
            high = max(s.max for s in stats) if low is not None else None
        except (OSError, ValueError, ArithmeticError) as exc:   # pyarrow's ArrowInvalid is a ValueError
            return f"its part is not a readable Parquet file ({str(exc).splitlines()[0][:120]})"
        if rows != count * players:
            return f"its part holds {rows:,} rows, expected {count * players:,}"
        if (low, high) != (first, last):
            return f"its part holds games {low}-{high}, expected {first}-{last}"
        return None

    def save(self, index: int, result) -> None:
        """Write a finished chunk's part, then its record (each under a temporary name, renamed
        when complete): a record names only a part that is whole on disk."""
        from simcards.outputs import write_file, write_text
        part = self.part(index)
        first, count = self._chunk(index)
        if self.run.summary_only:
            write_text(part, json.dumps(result.to_dict()))
            rows = None
        else:
            from simcards.run.frame import write_parquet
            write_file(part, lambda tmp: write_parquet(result, tmp))
            rows = len(result)
        sha, size = _sha256(part)
        write_text(self.record(index), json.dumps({
            "format": FORMAT, "run": self.fingerprint, "chunk": index, "file": part.name,
            "first_game": first, "games": count, "rows": rows, "bytes": size, "sha256": sha}))
        with self._mutex:
            self.saved.add(index)

    def load(self, index: int):
        """A part ``done`` checked: its frame (or totals); the game indices are checked again."""
        from simcards.run.totals import Totals
        part = self.part(index)
        if self.run.summary_only:
            return Totals.from_dict(json.loads(part.read_text(encoding="utf-8")))
        import numpy as np
        import pandas as pd
        frame = pd.read_parquet(part)
        first, count = self._chunk(index)
        expected = np.repeat(np.arange(first, first + count, dtype=np.int64), len(self.run.strategies))
        if len(frame) != len(expected) or not np.array_equal(frame["game"].to_numpy(), expected):
            raise SimcardsError(f"{str(part)} changed while it was read (its games are not "
                                f"{first}-{first + count - 1}): resume again to play it again")
        return frame


# ------------------------------------------------------------------ interruptions
class Interrupted(KeyboardInterrupt):
    """A run stopped by SIGINT or SIGTERM; the message says what was saved and how to finish."""


def saved_note(folders: Sequence[RunFolder]) -> str:
    """"N of M chunks saved in RUN" over a run's folders (a rotated run: its seat orders)."""
    saved = sum(len(f.saved) for f in folders)
    total = sum(f.chunk_count() for f in folders)
    where = folders[0].path if len(folders) == 1 else Path(os.path.commonpath([f.path for f in folders]))
    return f"{saved:,} of {total:,} chunks saved in {where}"


@contextlib.contextmanager
def keeping_note(folders: Sequence[RunFolder]) -> Iterator[None]:
    """Around a run's play: an interruption, or a write that failed (a full disk), says
    what the run folders keep and how to finish."""
    from simcards.outputs import WriteError
    try:
        yield
    except KeyboardInterrupt as exc:
        if not folders or isinstance(exc, Interrupted):
            raise
        raise Interrupted(f"{saved_note(folders)}; add --resume to finish") from None
    except WriteError as exc:
        if not folders:
            raise
        raise WriteError(f"{exc}; {saved_note(folders)} (add --resume to finish once it can be written)") from None


# ------------------------------------------------------------------ --run-dir, before a run
def check_run_folder(folder: str | Path, resume: bool, force: bool) -> Path:
    """``--run-dir``: a folder (or a new name) we may write in, locked for the command; a
    folder holding a run needs --resume (finish it) or --force (start again)."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise SimcardsError(f"bad --run-dir {str(folder)!r}: it is a file, expected a folder")
    from simcards.outputs import _check_parent_is_folder, take_lock
    _check_parent_is_folder(folder, "--run-dir")
    if resume and force:
        raise SimcardsError("--resume finishes the run in --run-dir and --force starts it again: use one of them")
    take_lock(folder, "--run-dir", folder=True)
    return folder


def clear_run_folder(folder: str | Path) -> list[Path]:
    """Remove the run simcards saved in ``folder`` (its manifest, its parts and their records,
    finished or half-written; a rotated run's seat-order folders alike), before ``--force``
    starts the run again; anything else in the folder stays."""
    folder = Path(folder)
    removed: list[Path] = []
    subfolders = sorted(p for p in folder.iterdir() if p.is_dir() and ORDER_FOLDER.fullmatch(p.name)) \
        if folder.is_dir() else []
    manifests = [m for m in (w / MANIFEST for w in [folder, *subfolders]) if m.is_file()]
    for manifest in manifests:      # every one checked before anything is removed
        try:
            json.loads(manifest.read_text(encoding="utf-8"))["run"]["chunk_size"]
        except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as exc:
            raise SimcardsError(f"bad --run-dir {str(folder)!r}: {str(manifest)} is not a simcards "
                                f"manifest ({exc}), expected a run folder; nothing was removed "
                                "(remove it by hand if the folder is a run folder)") from None
    for where in [folder, *subfolders]:
        manifest = where / MANIFEST
        mine = part_files(where) + ([manifest] if manifest.is_file() else [])
        for path in mine:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
        removed += mine
    return removed
