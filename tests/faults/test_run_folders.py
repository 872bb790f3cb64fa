"""Run folders under faults (issue 49): every part checked before it is trusted, one writer
per folder, and an interrupted run that resumes to the uninterrupted frame bit for bit.

The corruption cases play small runs in this process (the faults are real bytes on disk);
the concurrency and interruption cases are real processes, paused, signalled or killed."""
from __future__ import annotations

import json
import os
import shutil
import signal
from pathlib import Path

import pandas as pd
import pytest

from simcards import outputs
from simcards.run import run_folder
from simcards.errors import SimcardsError
from simcards.run_folder import MANIFEST, PARTS, part_name, record_name
from simcards.runner import RunSpec, ThreadBackend, execute

LINEUP = ["high_first", "high_first"]       # `simcards run five-alive --players 2`: one kernel
N, CHUNK = 4_000, 1_000


def spec(seed: int = 5, summary_only: bool = False) -> RunSpec:
    return RunSpec.create("five-alive", LINEUP, N, seed=seed, chunk_size=CHUNK, summary_only=summary_only)


@pytest.fixture(scope="module")
def reference() -> pd.DataFrame:
    return execute(spec(), ThreadBackend(1))


def same_frame(a: pd.DataFrame, b: pd.DataFrame) -> None:
    assert a.equals(b) and (a.dtypes == b.dtypes).all(), "the frames differ"


def saved_run(tmp_path: Path, summary_only: bool = False) -> Path:
    folder = tmp_path / "run"
    execute(spec(summary_only=summary_only), ThreadBackend(1), run_dir=folder)
    return folder


def part(folder: Path, index: int, summary_only: bool = False) -> Path:
    return folder / PARTS / part_name(index, summary_only)


# ------------------------------------------------------------------ corrupted parts
def flip_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))


def truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 3])


def garble(path: Path) -> None:
    path.write_bytes(os.urandom(path.stat().st_size))


def copy_over_next(path: Path) -> None:        # chunk 1's part over chunk 2's
    shutil.copyfile(path.with_name(part_name(1, False)), path)


@pytest.mark.parametrize("damage,said", [
    (flip_byte, "checksum differs"),
    (truncate, "bytes"),
    (garble, "checksum differs"),
    (copy_over_next, "chunk 2 in"),
])
def test_a_damaged_chunk_is_played_again_never_used(tmp_path, capfd, reference, damage, said):
    folder = saved_run(tmp_path)
    damage(part(folder, 2))
    capfd.readouterr()
    resumed = execute(spec(), ThreadBackend(1), run_dir=folder, resume=True)
    err = capfd.readouterr().err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith(f"chunk 2 in {folder}:"), err
    assert said in lines[0] and lines[0].endswith("playing it again"), err
    same_frame(resumed, reference)
    # played again, the part is whole: the next resume uses every part as it is
    again = execute(spec(), ThreadBackend(1), run_dir=folder, resume=True)
    assert capfd.readouterr().err == ""
    same_frame(again, reference)


def test_a_part_copied_with_its_record_over_another_chunk_is_played_again(tmp_path, capfd, reference):
    """The record names its chunk, its first game and its run: copied with its part, it no
    longer matches the chunk it lies in."""
    folder = saved_run(tmp_path)
    for name in (part_name(1, False), record_name(1)):
        shutil.copyfile(folder / PARTS / name, folder / PARTS / name.replace("000001", "000003"))
    capfd.readouterr()
    resumed = execute(spec(), ThreadBackend(1), run_dir=folder, resume=True)
    err = capfd.readouterr().err
    assert "chunk 3 in" in err and "differs in chunk, file, first_game" in err, err
    same_frame(resumed, reference)


def test_parts_of_another_run_are_not_used(tmp_path, capfd):
    """A run folder of seed 5 whose parts are copied into one of seed 6 (same chunks): the
    records' run fingerprint differs, every chunk is played again."""
    five, six = saved_run(tmp_path), tmp_path / "six"
    execute(spec(seed=6), ThreadBackend(1), run_dir=six)
    for name in os.listdir(five / PARTS):
        shutil.copyfile(five / PARTS / name, six / PARTS / name)
    capfd.readouterr()
    resumed = execute(spec(seed=6), ThreadBackend(1), run_dir=six, resume=True)
    assert capfd.readouterr().err.count("differs in run") == N // CHUNK
    same_frame(resumed, execute(spec(seed=6), ThreadBackend(1)))


def test_a_part_without_its_record_is_played_again(tmp_path, capfd, reference):
    """Killed between a part's rename and its record's: the part is not trusted."""
    folder = saved_run(tmp_path)
    (folder / PARTS / record_name(0)).unlink()
    garble(part(folder, 0))      # whatever it holds, it is not read
    resumed = execute(spec(), ThreadBackend(1), run_dir=folder, resume=True)
    same_frame(resumed, reference)


def test_temporary_names_left_by_a_killed_writer_are_removed(tmp_path, reference):
    folder = saved_run(tmp_path)
    leftovers = [folder / PARTS / f".{part_name(1, False)}.999999-1.tmp.parquet",
                 folder / PARTS / f".{record_name(1)}.999999-1.tmp.done", folder / PARTS / "chunk-000001.tmp"]
    for path in leftovers:
        path.write_text("half")
    same_frame(execute(spec(), ThreadBackend(1), run_dir=folder, resume=True), reference)
    assert not any(p.exists() for p in leftovers)


def test_an_edited_summary_only_part_is_played_again(tmp_path, capfd):
    """The issue's case: a totals part edited to 10,000 games made the table report more
    games than the run played."""
    whole = execute(spec(summary_only=True), ThreadBackend(1))
    folder = saved_run(tmp_path, summary_only=True)
    path = part(folder, 1, summary_only=True)
    data = json.loads(path.read_text())
    data["games"] = 10_000
    path.write_text(json.dumps(data))
    capfd.readouterr()
    again = execute(spec(summary_only=True), ThreadBackend(1), run_dir=folder, resume=True)
    assert "chunk 1 in" in capfd.readouterr().err
    assert again.games == whole.games == N
    assert (again.win_units == whole.win_units).all() and (again.sums == whole.sums).all()


# ------------------------------------------------------------------ the manifest
@pytest.mark.parametrize("content,said", [
    (b'{"run": {"game": "five-al', "not JSON"),
    (b"", "it is empty"),
    (b"\xff\xfe\x00garbage", "it is not text"),
    (b'{"something": "else"}', "no run in it"),
    (b'{"format": 2, "run": {"game": "five-alive"}, "chunks": 4}', "bad or missing"),
])
def test_a_garbled_manifest_is_refused_naming_it_and_nothing_is_removed(tmp_path, content, said):
    folder = saved_run(tmp_path)
    (folder / MANIFEST).write_bytes(content)
    before = sorted(os.listdir(folder / PARTS))
    with pytest.raises(SimcardsError) as exc:
        execute(spec(), ThreadBackend(1), run_dir=folder, resume=True)
    message = str(exc.value)
    assert message.startswith(f"{folder / MANIFEST} is not a simcards run manifest ({said}")
    assert "nothing was removed" in message and "\n" not in message
    assert sorted(os.listdir(folder / PARTS)) == before and (folder / MANIFEST).read_bytes() == content


def test_an_old_manifest_is_refused_with_the_way_out(tmp_path):
    """Format 1 (before issue 49): no checksums to check its parts by; --force starts again."""
    folder = saved_run(tmp_path)
    manifest = json.loads((folder / MANIFEST).read_text())
    del manifest["format"]
    (folder / MANIFEST).write_text(json.dumps(manifest))
    with pytest.raises(SimcardsError, match="older simcards .* start it again with --force"):
        execute(spec(), ThreadBackend(1), run_dir=folder, resume=True)
    removed = run_folder.clear_run_folder(folder)          # what --force does first
    assert {p.name for p in removed} >= {MANIFEST, part_name(0, False), record_name(3)}
    execute(spec(), ThreadBackend(1), run_dir=folder)


def test_parts_without_a_manifest_are_never_relabelled_with_another_seed(tmp_path):
    """The issue's case: the manifest deleted, then resumed with another seed, gave the old
    seed's games labelled with the new one."""
    folder = saved_run(tmp_path)
    (folder / MANIFEST).unlink()
    for resume in (True, False):
        with pytest.raises(SimcardsError, match="parts without a manifest"):
            execute(spec(seed=9), ThreadBackend(1), run_dir=folder, resume=resume)
    assert len(os.listdir(folder / PARTS)) == 2 * (N // CHUNK)     # nothing removed
    run_folder.clear_run_folder(folder)                                # --force
    assert os.listdir(folder / PARTS) == []
    same_frame(execute(spec(seed=9), ThreadBackend(1), run_dir=folder), execute(spec(seed=9), ThreadBackend(1)))


def test_the_manifest_and_records_say_what_each_part_is(tmp_path):
    folder = saved_run(tmp_path)
    manifest = json.loads((folder / MANIFEST).read_text())
    assert manifest["format"] == 2 and manifest["chunks"] == N // CHUNK
    record = json.loads((folder / PARTS / record_name(2)).read_text())
    assert record["file"] == part_name(2, False) and record["first_game"] == 2 * CHUNK
    assert record["games"] == CHUNK and record["rows"] == CHUNK * len(LINEUP)
    assert record["sha256"] == outputs.sha256(part(folder, 2))
    assert record["bytes"] == part(folder, 2).stat().st_size


# ------------------------------------------------------------------ two processes, one folder
RUN = ["run", "five-alive", "--players", "2", "--games", "40000", "--chunk-size", "2000", "--threads", "1"]


@pytest.mark.slow
@pytest.mark.parametrize("second", ["same run", "resume"])
def test_a_second_process_on_one_run_folder_is_refused(tmp_path, faults, second):
    """Two runs sharing one --run-dir, or two --resume of one folder: the second is refused in
    one line naming the first's pid, and the first ends with a whole, correct run."""
    folder, out = tmp_path / "run", tmp_path / "a.parquet"
    if second == "resume":      # a run with chunks to finish
        done = faults.simcards(*RUN, "--run-dir", folder)
        assert done.returncode == 0, done.stderr
        for name in sorted(os.listdir(folder / PARTS))[::3]:
            (folder / PARTS / name).unlink()
    extra = ["--resume"] if second == "resume" else []
    first = faults.start(*RUN, "--run-dir", folder, *extra, "--out", out)
    try:
        # stopped once it holds the folder's lock: whatever the second does, the first is mid-run
        faults.wait_for(lambda: faults.locked_by(folder / outputs.FOLDER_LOCK, first.pid), proc=first)
        first.send_signal(signal.SIGSTOP)
        refused = faults.simcards(*RUN, "--run-dir", folder, *extra)
    finally:
        first.send_signal(signal.SIGCONT)
    faults.one_line(refused, "is being written by another simcards process", f"(pid {first.pid})")
    _, err = first.communicate(timeout=240)
    assert first.returncode == 0, err
    whole = faults.simcards(*RUN, "--out", tmp_path / "whole.parquet")
    assert whole.returncode == 0, whole.stderr
    same_frame(pd.read_parquet(out), pd.read_parquet(tmp_path / "whole.parquet"))
    assert not (folder / outputs.FOLDER_LOCK).exists()


# ------------------------------------------------------------------ interruptions
LONG = ["run", "five-alive", "--games", "1000000", "--chunk-size", "10000", "--threads", "1", "--seed", "3"]


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory, faults_module):
    """The uninterrupted runs' frames (fixed seats and rotated), through the same command."""
    folder = tmp_path_factory.mktemp("whole")
    frames = {}
    for name, lineup in (("fixed", ["--players", "2"]), ("rotated", ["--strategies", "high_first,random"])):
        done = faults_module.simcards(*LONG, *lineup, "--out", folder / f"{name}.parquet")
        assert done.returncode == 0, done.stderr
        frames[name] = pd.read_parquet(folder / f"{name}.parquet")
    return frames


@pytest.fixture(scope="module")
def faults_module():
    from .conftest import Faults
    return Faults


def finished_parts(folder: Path) -> int:
    """Chunks saved: parts with their records (in every seat order's folder)."""
    return sum(1 for _ in folder.rglob(f"{PARTS}/chunk-*.done"))


@pytest.mark.slow
@pytest.mark.parametrize("sig,code,lineup", [
    (signal.SIGINT, 130, "fixed"),
    (signal.SIGTERM, 143, "rotated"),
    (signal.SIGKILL, -9, "fixed"),
])
def test_an_interrupted_run_resumes_to_the_same_frame_bit_for_bit(tmp_path, faults, uninterrupted, sig, code,
                                                                   lineup):
    args = [*LONG, *(["--players", "2"] if lineup == "fixed" else ["--strategies", "high_first,random"])]
    folder, out = tmp_path / "run", tmp_path / "resumed.parquet"
    proc = faults.start(*args, "--run-dir", folder)
    faults.wait_for(lambda: finished_parts(folder) >= 3, proc=proc)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == code, err
    saved = finished_parts(folder)
    total = 100      # rotated: 500,000 deals in each of 2 seat orders, 50 chunks each
    assert 3 <= saved < total, "the run ended before the signal"
    if sig != signal.SIGKILL:
        lines = [ln for ln in err.splitlines() if ln.strip() and "━" not in ln]
        assert lines[-1] == f"interrupted: {saved} of {total} chunks saved in {folder}; add --resume to finish", err
        assert "Traceback" not in err
    # no half-written file under a final name: every part has its record, and checks out
    for path in folder.rglob(f"{PARTS}/chunk-*.parquet"):
        pd.read_parquet(path)
    again = faults.simcards(*args, "--run-dir", folder, "--resume", "--out", out)
    assert again.returncode == 0, again.stderr
    assert "playing it again" not in again.stderr
    same_frame(pd.read_parquet(out), uninterrupted[lineup])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["resumed.parquet", "run"]
