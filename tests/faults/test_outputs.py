"""Outputs under faults (issue 49): one atomic writer, one writer per output, a report
folder's list of what simcards wrote, read-only folders, full disks, file-size limits,
and reports and tunes interrupted then run again.

Every fault is real: a second process, a real signal, a read-only bind mount, a small
tmpfs, RLIMIT_FSIZE."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from simcards import outputs
from simcards.errors import SimcardsError

RUN = ["run", "five-alive", "--players", "2", "--threads", "1"]


def same_frame(a: pd.DataFrame, b: pd.DataFrame) -> None:
    assert a.equals(b) and (a.dtypes == b.dtypes).all(), "the frames differ"


def temporaries(folder: Path) -> list[str]:
    return sorted(str(p) for p in Path(folder).rglob("*") if ".tmp" in p.name)


# ------------------------------------------------------------------ one atomic writer
def test_writers_on_two_threads_never_share_a_temporary_name(tmp_path):
    """Two threads writing one path at once: each its own temporary name, the file ends as
    one of the two, whole; nothing else is left."""
    target = tmp_path / "r.csv"
    seen, barrier = [], threading.Barrier(2)

    def write(tag: str) -> None:
        def slow(tmp: Path) -> None:
            seen.append(tmp.name)
            with open(tmp, "w") as fh:
                barrier.wait()              # both are writing now
                for _ in range(2000):
                    fh.write(tag * 50 + "\n")
        outputs.write_file(target, slow)

    threads = [threading.Thread(target=write, args=(t,)) for t in "ab"]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(seen)) == 2 and all(f".{os.getpid()}-" in n for n in seen)
    assert target.read_text() in ({"a": ("a" * 50 + "\n") * 2000, "b": ("b" * 50 + "\n") * 2000}.values())
    assert os.listdir(tmp_path) == ["r.csv"]


WRITE_BIG = """
import sys
import numpy as np, pandas as pd
from simcards import outputs
from simcards.errors import SimcardsError
frame = pd.DataFrame({"game": np.arange(200_000)})
try:
    outputs.write_file(sys.argv[1], lambda tmp: frame.to_parquet(tmp, compression=None))
except SimcardsError as exc:
    print(exc, file=sys.stderr)
    sys.exit(2)
"""


def test_a_file_size_limit_fails_in_one_line_and_keeps_the_older_file(tmp_path, faults):
    """``ulimit -f`` in the middle of a write: the error names the file and the limit; the
    older file under the name stays whole, and no temporary file is left."""
    target = tmp_path / "r.parquet"
    target.write_bytes(b"older results")
    done = subprocess.run([sys.executable, "-c", WRITE_BIG, str(target)], capture_output=True, text=True,
                          preexec_fn=faults.file_size_limit(64 * 1024))
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == f"cannot write {str(target)!r}: file too large (the file-size limit, ulimit -f)"
    assert target.read_bytes() == b"older results" and os.listdir(tmp_path) == ["r.parquet"]


@pytest.mark.slow
def test_run_out_past_the_file_size_limit_keeps_the_run_folder(tmp_path, faults):
    """The issue's case: `ulimit -f` gave "OSError File too large" after the table and a .tmp
    left behind. Now one line; --out's older file and the run folder's parts stay, and the
    run resumes from them to the whole frame."""
    out, folder = tmp_path / "r.parquet", tmp_path / "run"
    # first, without the limit (which also leaves the kernel in the cache, read from then on)
    whole = faults.simcards(*RUN, "--games", "20000", "--out", tmp_path / "whole.parquet")
    assert whole.returncode == 0, whole.stderr
    out.write_bytes(b"older results")
    args = [*RUN, "--games", "20000", "--chunk-size", "1000", "--run-dir", folder]
    done = faults.simcards(*args, "--out", out, "--force", preexec_fn=faults.file_size_limit(64 * 1024))
    faults.one_line(done, f"cannot write {str(out)!r}: file too large")
    assert out.read_bytes() == b"older results" and temporaries(tmp_path) == []
    again = faults.simcards(*args, "--resume", "--out", tmp_path / "again.parquet")
    assert again.returncode == 0 and "playing it again" not in again.stderr, again.stderr
    same_frame(pd.read_parquet(tmp_path / "again.parquet"), pd.read_parquet(tmp_path / "whole.parquet"))


@pytest.mark.slow
def test_a_full_disk_in_the_middle_of_a_run_keeps_the_chunks_saved(tmp_path, faults):
    """A run folder on a disk that fills up: one line naming the part it could not write and
    what is saved; no temporary file; the saved parts, moved to a disk with room, resume to
    the whole frame."""
    disk = tmp_path / "disk"
    args = [*RUN, "--games", "40000", "--chunk-size", "1000"]
    whole = faults.simcards(*args, "--out", tmp_path / "whole.parquet")
    assert whole.returncode == 0, whole.stderr
    with faults.full_disk(disk, 160) as small:
        done = faults.simcards(*args, "--run-dir", small / "run")
        err = faults.one_line(done, "no space left on the device", "chunks saved in", "--resume")
        assert f"cannot write '{small / 'run' / 'parts'}" in err
        assert temporaries(small) == []
        saved = sorted(p.name for p in (small / "run" / "parts").iterdir())
        assert 0 < len(saved) < 80 and len(saved) % 2 == 0     # parts with their records
        subprocess.run(["cp", "-a", str(small / "run"), str(tmp_path / "run")], check=True)
    again = faults.simcards(*args, "--run-dir", tmp_path / "run", "--resume", "--out", tmp_path / "again.parquet")
    assert again.returncode == 0 and "playing it again" not in again.stderr, again.stderr
    same_frame(pd.read_parquet(tmp_path / "again.parquet"), pd.read_parquet(tmp_path / "whole.parquet"))


# ------------------------------------------------------------------ one writer per output
HOLD = """
import sys, time
from simcards import outputs
outputs.take_lock(sys.argv[1], "--out", folder=sys.argv[2] == "folder")
print("held", flush=True)
time.sleep(600)
"""


def hold(path: Path, folder: bool = False) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(path), "folder" if folder else "file"],
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "held"
    return proc


def test_a_lock_held_by_another_process_refuses_naming_it(tmp_path):
    target = tmp_path / "r.parquet"
    other = hold(target)
    try:
        with pytest.raises(SimcardsError) as exc:
            with outputs.holding_locks():
                outputs.check_output_file(target, force=True)
        assert str(exc.value) == (f"--out {str(target)!r} is being written by another simcards process "
                                  f"(pid {other.pid}): wait for it to end, or choose another name")
    finally:
        other.kill()
        other.wait()


def test_a_lock_left_by_a_killed_process_does_not_block_and_goes_away(tmp_path):
    """SIGKILL leaves the lock file behind; the kernel released its lock with the process."""
    target = tmp_path / "report"
    other = hold(target, folder=True)
    other.send_signal(signal.SIGKILL)
    other.wait()
    lock = target / outputs.FOLDER_LOCK
    assert lock.read_text().strip() == str(other.pid)
    with outputs.holding_locks():
        outputs.check_output_folder(target, force=False)
        assert lock.read_text().strip() == str(os.getpid())
        with outputs.holding_locks():       # taken again in this process: shared, not refused
            outputs.check_output_folder(target, force=False)
        assert lock.exists()
    assert os.listdir(target) == []


def test_a_refused_command_leaves_no_folder_it_made_for_its_lock(tmp_path):
    target = tmp_path / "new" / "deeper" / "r.parquet"
    with pytest.raises(RuntimeError):
        with outputs.holding_locks():
            outputs.check_output_file(target, force=False)
            assert (target.parent / f".{target.name}.lock").exists()
            raise RuntimeError("a later check refused the command")
    assert os.listdir(tmp_path) == []


@pytest.mark.slow
def test_two_runs_writing_one_out_give_one_whole_file_and_one_refusal(tmp_path, faults):
    """The issue's case: seeds 1 and 2 into one --out both said "wrote", the file held seed 2's."""
    out = tmp_path / "same.parquet"
    args = [*RUN, "--games", "30000", "--out", out, "--force"]
    first = faults.start(*args, "--seed", "1")
    try:
        faults.wait_for(lambda: faults.locked_by(tmp_path / ".same.parquet.lock", first.pid), proc=first)
        first.send_signal(signal.SIGSTOP)
        second = faults.simcards(*args, "--seed", "2")
    finally:
        first.send_signal(signal.SIGCONT)
    faults.one_line(second, f"--out {str(out)!r} is being written by another simcards process (pid {first.pid})")
    _, err = first.communicate(timeout=240)
    assert first.returncode == 0, err
    alone = faults.simcards(*RUN, "--games", "30000", "--seed", "1", "--out", tmp_path / "alone.parquet")
    same_frame(pd.read_parquet(out), pd.read_parquet(tmp_path / "alone.parquet"))
    assert sorted(os.listdir(tmp_path)) == ["alone.parquet", "same.parquet"]


# ------------------------------------------------------------------ a report folder's list
def listed(folder: Path, files: dict) -> None:
    (folder / outputs.WRITTEN).write_text(json.dumps({"format": 2, "files": files}))


def test_force_removes_only_files_that_simcards_wrote_and_nobody_changed(tmp_path):
    """The issue's case: a name added to .simcards-written.json by hand made `report --force`
    delete that user file. A file is removed only if its content still hashes to the
    checksum simcards recorded when it wrote it."""
    for name in ("old.png", "edited.png", "mine.txt", "a.png"):
        (tmp_path / name).write_text(name)
    outputs.finish_output_folder(tmp_path, ["old.png", "edited.png", "a.png"])
    (tmp_path / "edited.png").write_text("the user changed it")
    files = json.loads((tmp_path / outputs.WRITTEN).read_text())["files"]
    files["mine.txt"] = "0" * 64                           # added by hand, a made-up checksum
    files["../outside.txt"] = outputs.sha256(tmp_path / "a.png")
    listed(tmp_path, files)
    (tmp_path.parent / "outside.txt").write_text("a.png")  # same content as a.png, outside
    removed = outputs.finish_output_folder(tmp_path, ["a.png"])
    assert removed == ["old.png"]
    assert sorted(os.listdir(tmp_path)) == [outputs.WRITTEN, "a.png", "edited.png", "mine.txt"]
    assert (tmp_path.parent / "outside.txt").exists()
    assert set(json.loads((tmp_path / outputs.WRITTEN).read_text())["files"]) == {"a.png"}


@pytest.mark.parametrize("content", [
    b'{"format": 2, "files": {"a.png": ',                       # garbled
    b"",                                                         # empty
    b"\x00\xff binary",
    b'{"files": ["a.png"]}',                                     # format 1: names without checksums
    b'{"format": 2, "files": ["a.png"]}',
    b'{"format": 2, "files": {"a.png": 7}}',
    b'[1, 2]',
])
def test_a_garbled_or_old_list_removes_nothing(tmp_path, content):
    (tmp_path / "a.png").write_text("a")
    (tmp_path / outputs.WRITTEN).write_bytes(content)
    assert outputs.written_files(tmp_path) == set()
    assert outputs.finish_output_folder(tmp_path, []) == []
    assert (tmp_path / "a.png").read_text() == "a"


# ------------------------------------------------------------------ read-only folders
TINY = """
game = "five-alive"
title = "tiny"
seed = 11
players = [2]
games = 200
skill = "high_first"

[lineups]
pool = ["high_first", "random"]
"""


def cli(*args) -> tuple[int, str]:
    from simcards.cli import app
    result = CliRunner().invoke(app, [str(a) for a in args])
    return result.exit_code, result.output


@pytest.mark.parametrize("case", ["run --out", "run --run-dir", "report --out-dir", "tune --out"])
def test_a_read_only_output_folder_is_refused_before_any_game(tmp_path, faults, case):
    """A read-only bind mount (root writes through a folder's mode, not through this): one
    line naming the path, exit 2, and nothing played (the check writes the lock file, so it
    fails before any kernel is compiled or game dealt)."""
    exp = tmp_path / "tiny.toml"
    exp.write_text(TINY)
    ro = tmp_path / "ro"
    args = {"run --out": [*RUN, "--games", "10", "--out", ro / "r.parquet"],
            "run --run-dir": [*RUN, "--games", "10", "--run-dir", ro / "run"],
            "report --out-dir": ["report", exp, "--out-dir", ro / "report"],
            "tune --out": ["tune", "five-alive", "expert", "--trials", "1", "--out", ro / "tuned"]}[case]
    with faults.read_only(ro):
        code, output = cli(*args)
    assert code == 2, output
    lines = [ln for ln in output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: bad "), output
    assert f"cannot write in {str(ro)!r}" in lines[0] and ("read-only" in lines[0] or "permission" in lines[0])
    assert os.listdir(ro) == []


# ------------------------------------------------------------------ reports and tunes
REPORT = TINY.replace("games = 200", "games = 40000")      # 2 chunks a line-up on one thread


def report_args(tmp_path: Path, out: Path, *extra) -> list:
    exp = tmp_path / "medium.toml"
    if not exp.exists():
        exp.write_text(REPORT)
    return ["report", exp, "--out-dir", out, "--threads", "1", *extra]


@pytest.fixture(scope="module")
def whole_report(tmp_path_factory) -> pd.DataFrame:
    """The uninterrupted report's results."""
    from .conftest import Faults
    folder = tmp_path_factory.mktemp("whole")
    done = Faults.simcards(*report_args(folder, folder / "report"))
    assert done.returncode == 0, done.stderr
    return pd.read_parquet(folder / "report" / "results.parquet")


@pytest.mark.slow
def test_two_reports_into_one_folder_give_one_report_and_one_refusal(tmp_path, faults, whole_report):
    """The issue's case: both exited 0 and the folder mixed their plots and tables."""
    out = tmp_path / "report"
    first = faults.start(*report_args(tmp_path, out))
    try:
        faults.wait_for(lambda: faults.locked_by(out / outputs.FOLDER_LOCK, first.pid), proc=first)
        first.send_signal(signal.SIGSTOP)
        second = faults.simcards(*report_args(tmp_path, out, "--force"))
    finally:
        first.send_signal(signal.SIGCONT)
    faults.one_line(second, f"--out-dir {str(out)!r} is being written by another simcards process "
                            f"(pid {first.pid})")
    _, err = first.communicate(timeout=600)
    assert first.returncode == 0, err
    written = json.loads((out / outputs.WRITTEN).read_text())["files"]
    assert sorted(written) == sorted(p for p in os.listdir(out) if p != outputs.WRITTEN)
    assert all(outputs.sha256(out / name) == checksum for name, checksum in written.items())
    same_frame(pd.read_parquet(out / "results.parquet"), whole_report)


@pytest.mark.slow
@pytest.mark.parametrize("sig,code", [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGKILL, -9)])
def test_an_interrupted_report_resumes_to_the_same_results(tmp_path, faults, whole_report, sig, code):
    runs, out = tmp_path / "runs", tmp_path / "report"
    proc = faults.start(*report_args(tmp_path, out, "--run-dir", runs))
    faults.wait_for(lambda: any(runs.rglob("chunk-*.done")), proc=proc, timeout=300)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == code, err
    if sig != signal.SIGKILL:
        assert err.strip().splitlines()[-1] == (f"interrupted: the finished chunks are saved in {runs}; "
                                                "add --resume to finish the report")
    assert not out.exists() or os.listdir(out) == [outputs.FOLDER_LOCK]   # a lock file SIGKILL left
    again = faults.simcards(*report_args(tmp_path, out, "--run-dir", runs, "--resume"))
    assert again.returncode == 0 and "playing it again" not in again.stderr, again.stderr
    same_frame(pd.read_parquet(out / "results.parquet"), whole_report)
    assert temporaries(tmp_path) == []


# 40 trials of 9,000 games: about 10 s of play with a warm kernel cache, so the signal a second after the lock
# lands inside the search (8 trials had finished within that second once the cache was warm)
TUNE = ["tune", "five-alive", "expert", "--players", "3", "--pool", "random,keep_zero", "--trials", "40",
        "--games", "9000", "--check-games", "3000", "--seed", "1", "--threads", "1"]


@pytest.mark.slow
@pytest.mark.parametrize("sig,code", [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGKILL, -9)])
def test_an_interrupted_tune_run_again_gives_the_same_tuned_file(tmp_path, faults, sig, code):
    out = tmp_path / "tuned"
    lock = out / "five_alive" / ".expert_tuned.py.lock"
    proc = faults.start(*TUNE, "--out", out)
    faults.wait_for(lambda: faults.locked_by(lock, proc.pid), proc=proc)
    time.sleep(1.0)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == code, err
    if sig == signal.SIGKILL:           # no last word; at most the lock file it held is left
        assert [p.name for p in out.rglob("*") if p.is_file()] in ([], [lock.name])
    else:
        assert err.strip().splitlines()[-1] == "interrupted" and "Traceback" not in err
        assert not out.exists()         # nothing half-written; the folders made for the lock are gone
    again = faults.simcards(*TUNE, "--out", out)
    assert again.returncode == 0, again.stderr
    whole = faults.simcards(*TUNE, "--out", tmp_path / "whole")
    assert whole.returncode == 0, whole.stderr
    for name in ("five_alive/expert_tuned.py", "tune-five-alive-expert/trials.csv"):
        assert (out / name).read_text() == (tmp_path / "whole" / name).read_text()
