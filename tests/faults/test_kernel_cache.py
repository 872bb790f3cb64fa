"""The kernel cache under faults (issue 49): a damaged cached kernel or table is rebuilt, never
loaded into a crash; a cache simcards cannot write in (read-only, an unwritable home, a full disk)
costs a compile, never the run; two processes compiling into one empty cache both finish.

Every fault is real: bytes changed on disk, a read-only bind mount, a small tmpfs, two processes
at once. Every case is a real ``simcards`` process with a kernel folder of its own, and ends as a
clean run does: exit 0, the same games (``--out`` compared frame to frame, or the table's bytes),
and exactly one line on stderr saying what happened. The line-up is the smallest that compiles a
kernel (Five Alive, ``random`` in each of three seats); one warm folder is compiled per module
and copied into each test. Each process also writes the ``simcards.events`` it saw to a file, so
that a test tells a compile from a load from the cache."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from simcards import cache_folder
from simcards.cached_load import intact

pytestmark = pytest.mark.slow       # each case compiles a kernel (or a table) at least once

RUN = ("run", "five-alive", "--strategies", "random", "--players", "3", "--games", "300",
       "--threads", "1")
#: The CLI as ``python -m simcards`` runs it, with the events it emits written to $EVENTS_FILE
#: (by an exit handler: the command leaves by os._exit, after them).
CLI = """
import atexit, json, os, sys
from simcards import events
seen = []
subscribed = events.subscribe(lambda kind, **fields: seen.append(kind))   # kept: never left
subscribed.__enter__()
atexit.register(lambda: json.dump(seen, open(os.environ["EVENTS_FILE"], "w")))
sys.argv = ["simcards", *sys.argv[1:]]
from simcards.cli import program
program()
"""
#: Five Alive's search at eval 2 asks for its value table (strategies/five_alive/search.py,
#: simcards.tables): prints the sha256 of the table a run would hand the seat.
TABLE = """
import hashlib, json, os
from simcards import events, tables
from simcards.batch import prepare
seen = []
with events.subscribe(lambda kind, **fields: seen.append(kind)):
    prepare("five-alive", ["search:eval=2", "random", "random"], 5)
(table,) = tables._memory.values()
print(hashlib.sha256(table.tobytes()).hexdigest())
with open(os.environ["EVENTS_FILE"], "w") as fh:
    json.dump(seen, fh)
"""


class Done:
    def __init__(self, done: subprocess.CompletedProcess, events_file: Path):
        self.returncode, self.stdout, self.stderr = done.returncode, done.stdout, done.stderr
        self.events = json.loads(events_file.read_text()) if events_file.exists() else None

    def lines(self) -> list[str]:
        return [ln for ln in self.stderr.splitlines() if ln.strip()]


def _env(tmp: Path, kernels: Path | None, **extra: str) -> dict[str, str]:
    env = dict(os.environ, COLUMNS="200", EVENTS_FILE=str(tmp / "events.json"), **extra)
    env.pop("SIMCARDS_KERNEL_DIR", None)
    if kernels is not None:
        env["SIMCARDS_KERNEL_DIR"] = str(kernels)
    return env


def simcards(tmp: Path, kernels: Path | None, *args: str, **extra: str) -> Done:
    """``simcards ARGS`` as a new process, its kernel folder ``kernels`` (None: the default one)."""
    env = _env(tmp, kernels, **extra)
    Path(env["EVENTS_FILE"]).unlink(missing_ok=True)
    done = subprocess.run([sys.executable, "-c", CLI, *args], capture_output=True, text=True, env=env,
                          timeout=600)
    return Done(done, Path(env["EVENTS_FILE"]))


def table(tmp: Path, kernels: Path) -> Done:
    env = _env(tmp, kernels)
    Path(env["EVENTS_FILE"]).unlink(missing_ok=True)
    done = subprocess.run([sys.executable, "-c", TABLE], capture_output=True, text=True, env=env,
                          timeout=900)
    return Done(done, Path(env["EVENTS_FILE"]))


def play(tmp: Path, kernels: Path | None, name: str = "out", **extra: str) -> tuple[Done, pd.DataFrame | None]:
    out = tmp / f"{name}.parquet"
    done = simcards(tmp, kernels, *RUN, "--out", str(out), **extra)
    return done, (pd.read_parquet(out) if out.exists() else None)


def same_frame(a: pd.DataFrame | None, b: pd.DataFrame) -> None:
    assert a is not None and a.equals(b) and (a.dtypes == b.dtypes).all(), "the frames differ"


def clean(done: Done) -> None:
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr, done.stderr


def one_line(done: Done, *needles: str) -> str:
    clean(done)
    lines = done.lines()
    assert len(lines) == 1, f"expected one line on stderr, got:\n{done.stderr}"
    for needle in needles:
        assert needle in lines[0], f"{needle!r} not in {lines[0]!r}"
    return lines[0]


def cached_files(folder: Path) -> list[Path]:
    """numba's files of the generated modules (index and data)."""
    return sorted(p for p in (folder / "__pycache__").glob("_simcards_*") if p.suffix in (".nbi", ".nbc"))


def all_verified(folder: Path) -> None:
    files = cached_files(folder)
    assert files, f"nothing cached in {folder}"
    for f in files:
        assert intact(f.read_bytes()), f"{f.name} fails its checksum"


@pytest.fixture(scope="module")
def warm(tmp_path_factory) -> tuple[Path, pd.DataFrame]:
    """A kernel folder holding the line-up's kernel, and the frame a clean run plays."""
    tmp = tmp_path_factory.mktemp("warm")
    done, frame = play(tmp, tmp / "kernels")
    clean(done)
    assert done.lines() == [] and "compile-done" in done.events
    all_verified(tmp / "kernels")
    return tmp / "kernels", frame


@pytest.fixture(scope="module")
def warm_table(tmp_path_factory) -> tuple[Path, str]:
    """A kernel folder holding search's value table and its builder, and the table's sha256."""
    tmp = tmp_path_factory.mktemp("warm_table")
    done = table(tmp, tmp / "kernels")
    clean(done)
    assert done.lines() == [] and "table-start" in done.events
    return tmp / "kernels", done.stdout.strip()


def copy_of(folder: Path, tmp: Path) -> Path:
    return Path(shutil.copytree(folder, tmp / "kernels"))


def flip_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))


def empty(path: Path) -> None:
    path.write_bytes(b"")


def garble(path: Path) -> None:
    path.write_bytes(os.urandom(path.stat().st_size))


# ------------------------------------------------------------------ damaged cached kernels
@pytest.mark.parametrize("damage", [flip_byte, empty, garble], ids=lambda f: f.__name__)
@pytest.mark.parametrize("kind", ["nbi", "nbc", "py"])
def test_a_damaged_cached_kernel_is_compiled_again_never_loaded(tmp_path, warm, kind, damage):
    """numba's index (.nbi) or object code (.nbc), or the generated module (.py): was a
    segmentation fault (one byte flipped), "Aborted." at every later run (empty), or an
    UnpicklingError (garbled)."""
    folder, reference = warm
    kernels = copy_of(folder, tmp_path)
    (victim,) = kernels.glob("_simcards_kernel_*.py") if kind == "py" else [
        f for f in cached_files(kernels) if f.suffix == f".{kind}"]
    damage(victim)
    done, frame = play(tmp_path, kernels)
    one_line(done, "cached kernel for five-alive (random) was damaged: compiling it again")
    same_frame(frame, reference)
    assert "compile-done" in done.events
    # rebuilt and valid: the next process loads it from the cache, verified, and says nothing
    again, frame = play(tmp_path, kernels, "again")
    clean(again)
    assert again.lines() == [] and "kernel-cached" in again.events and "compile-done" not in again.events
    same_frame(frame, reference)
    all_verified(kernels)


# ------------------------------------------------------------------ damaged cached tables
@pytest.mark.parametrize("which, damage", [("table", flip_byte), ("table", empty),
                                           ("checksum", flip_byte), ("builder", flip_byte)],
                         ids=lambda x: getattr(x, "__name__", x))
def test_a_damaged_cached_table_is_built_again_never_loaded(tmp_path, warm_table, which, damage):
    """Five Alive's search eval=2 value table (``tables/*.npy``), the checksum beside it, or the
    cached object code of the module that builds it."""
    folder, reference = warm_table
    kernels = copy_of(folder, tmp_path)
    if which == "builder":
        (victim,) = [f for f in cached_files(kernels) if "model_table" in f.name and f.suffix == ".nbc"]
        (kernels / "tables").joinpath(next((kernels / "tables").glob("*.npy")).name).unlink()
        said = "cached table builder of search for five-alive was damaged: compiling it again"
    else:
        (victim,) = (kernels / "tables").glob("*.npy" if which == "table" else "*.npy.sha256")
        said = "cached value table of search for five-alive was damaged: building it again"
    damage(victim)
    done = table(tmp_path, kernels)
    one_line(done, said)
    assert done.stdout.strip() == reference and "table-start" in done.events
    again = table(tmp_path, kernels)
    clean(again)
    assert again.lines() == [] and again.stdout.strip() == reference and "table-start" not in again.events


# ------------------------------------------------------------------ a cache that cannot be written
def test_a_read_only_warm_cache_is_read_without_a_lock(tmp_path, warm, faults):
    """Was a PermissionError on the kernel's .lock."""
    folder, reference = warm
    kernels = copy_of(folder, tmp_path)
    before = sorted((p.relative_to(kernels), p.stat().st_size) for p in kernels.rglob("*"))
    with faults.read_only(kernels):
        done, frame = play(tmp_path, kernels)
    one_line(done, f"cannot write the kernel cache {kernels} (", "nothing is cached")
    same_frame(frame, reference)
    assert "kernel-cached" in done.events and "compile-done" not in done.events
    assert sorted((p.relative_to(kernels), p.stat().st_size) for p in kernels.rglob("*")) == before


def test_a_read_only_cold_cache_compiles_in_memory(tmp_path, warm, faults):
    _, reference = warm
    kernels = tmp_path / "kernels"
    with faults.read_only(kernels):
        done, frame = play(tmp_path, kernels)
        again, frame_again = play(tmp_path, kernels, "again")
    one_line(done, f"cannot write the kernel cache {kernels} (", "compiling in memory")
    one_line(again, f"cannot write the kernel cache {kernels} (")
    same_frame(frame, reference)
    same_frame(frame_again, reference)
    assert "compile-done" in done.events and "compile-done" in again.events
    assert list(kernels.iterdir()) == []


def test_an_unwritable_home_with_no_kernel_folder_set_compiles_in_memory(tmp_path, warm, faults):
    """No $SIMCARDS_KERNEL_DIR: the cache is ~/.cache/simcards/kernels, which cannot be made."""
    _, reference = warm
    home = tmp_path / "home"
    with faults.read_only(home):
        done, frame = play(tmp_path, None, HOME=str(home), XDG_CACHE_HOME="")    # "": unset
    one_line(done, f"cannot write the kernel cache {home / '.cache' / 'simcards' / 'kernels'} (",
             "nothing is cached")
    same_frame(frame, reference)
    assert list(home.iterdir()) == []


def test_a_full_disk_during_the_cache_write_leaves_no_partial_cache(tmp_path, warm, faults):
    """A tmpfs of 64 KiB as the kernel folder: the module (5 KB) fits, numba's object code
    (200 KB) does not."""
    _, reference = warm
    kernels = tmp_path / "kernels"
    with faults.full_disk(kernels, 64):
        done, frame = play(tmp_path, kernels)
        left = sorted(p.relative_to(kernels).as_posix() for p in kernels.rglob("*") if p.is_file())
        again, frame_again = play(tmp_path, kernels, "again")
    one_line(done, f"cannot write the kernel cache {kernels} (no space left on device)")
    one_line(again, "(no space left on device)")
    same_frame(frame, reference)
    same_frame(frame_again, reference)
    assert "compile-done" in again.events          # nothing half-written was loaded
    assert not [f for f in left if f.endswith((".nbi", ".nbc")) or ".tmp" in f], left


# ------------------------------------------------------------------ two processes at once
def test_two_processes_compiling_into_an_empty_cache_both_finish_and_leave_it_valid(tmp_path, warm):
    _, reference = warm
    kernels = tmp_path / "kernels"
    racers = []
    for name in ("a", "b"):
        own = tmp_path / name
        own.mkdir()
        env = _env(own, kernels)
        racers.append((own, subprocess.Popen(
            [sys.executable, "-c", CLI, *RUN, "--out", str(own / "out.parquet")],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)))
    compiles = 0
    for own, racer in racers:
        stdout, stderr = racer.communicate(timeout=600)
        assert racer.returncode == 0 and stderr.strip() == "", stderr
        same_frame(pd.read_parquet(own / "out.parquet"), reference)
        compiles += json.loads((own / "events.json").read_text()).count("compile-done")
    assert compiles == 1, "one compiles, the other waits for it and loads it"
    all_verified(kernels)
    done, frame = play(tmp_path, kernels)
    clean(done)
    assert done.lines() == [] and "kernel-cached" in done.events and "compile-done" not in done.events
    same_frame(frame, reference)


# ------------------------------------------------------------------ simcards cache
def test_the_cache_command_lists_and_clears_every_file_the_checksums_included(tmp_path, warm_table):
    kernels = copy_of(warm_table[0], tmp_path)
    files = {p for p in kernels.rglob("*") if p.is_file()}
    assert [p for p in files if p.name.endswith(".sha256")], "no checksum beside the table"
    listed = {f for item in cache_folder.items(kernels) for f in item.files}
    assert files - listed == {kernels / "compile-seconds.json"} or files - listed == set()
    shown = simcards(tmp_path, kernels, "cache")
    clean(shown)
    assert "simcards cache --clear" in shown.stdout
    cleared = simcards(tmp_path, kernels, "cache", "--clear")
    clean(cleared)
    assert {p for p in kernels.rglob("*") if p.is_file()} <= {kernels / "compile-seconds.json"}
