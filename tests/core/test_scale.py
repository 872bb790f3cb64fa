"""Scale: threads, a Dask LocalCluster, resumable run folders, summary-only totals."""
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest

import simcards
from simcards.errors import SimcardsError
from simcards.registry import get_game
from simcards.runner import DaskBackend, RunSpec, ThreadBackend, backend_for, execute
from simcards.totals import totals_from_frame

LINEUP = ["expert", "random", "keep_zero", "high_first"]


@pytest.fixture(scope="module")
def reference_frame():
    return simcards.simulate("five-alive", LINEUP, 6_000, seed=21)


def test_threads_and_chunks_give_the_same_frame(reference_frame):
    for threads, chunk in [(1, 6_000), (2, 500), (2, 777)]:
        run = RunSpec.create("five-alive", LINEUP, 6_000, seed=21, chunk_size=chunk)
        pd.testing.assert_frame_equal(execute(run, ThreadBackend(threads)), reference_frame)


def test_a_run_validates_its_strategies_once_and_its_chunks_reuse_it(reference_frame, monkeypatch):
    """``RunSpec.create`` prepares the batch (every check and strategy file) and the chunks play
    that batch; a run spec made elsewhere (a Dask worker's, a resumed run's) prepares its own."""
    import simcards.run.spec as runner     # where RunSpec and its batches live (simcards.runner before)
    calls = []
    real = runner.prepare
    monkeypatch.setattr(runner, "prepare", lambda *a, **k: calls.append(a) or real(*a, **k))
    frame = simcards.simulate("five-alive", LINEUP, 6_000, seed=21, threads=2, chunk_size=1_000)
    assert len(calls) == 1
    pd.testing.assert_frame_equal(frame, reference_frame)
    elsewhere = RunSpec.from_json(RunSpec.create("five-alive", LINEUP, 500, seed=22).to_json())
    runner._BATCHES.clear()
    execute(elsewhere, ThreadBackend(1))
    assert len(calls) == 3


def test_local_dask_cluster_gives_the_same_frame(reference_frame, tmp_path, monkeypatch):
    # the second test of this module kills one worker on its first try of chunk 3
    monkeypatch.setenv("SIMCARDS_CRASH_ONCE", f"{tmp_path}:3")
    run = RunSpec.create("five-alive", LINEUP, 6_000, seed=21, chunk_size=500)
    frame = execute(run, DaskBackend("local", workers=2))
    pd.testing.assert_frame_equal(frame, reference_frame)
    tries = (tmp_path / "tries-3.log").read_text().split()
    assert len(tries) == 2, "the chunk of the dead worker ran exactly once more"
    assert tries[0] != tries[1], "and on another worker process"


def test_summary_only_equals_the_totals_of_the_full_frame(reference_frame):
    spec = get_game("five-alive")
    run = RunSpec.create("five-alive", LINEUP, 6_000, seed=21, chunk_size=700, summary_only=True)
    totals = execute(run, ThreadBackend(2))
    expected = totals_from_frame(spec, reference_frame)
    assert totals.games == expected.games == 6_000
    assert (totals.win_units == expected.win_units).all()
    assert (totals.win_units_sq == expected.win_units_sq).all()
    assert (totals.sums == expected.sums).all()          # integers below 2**53: exact
    assert (totals.squares == expected.squares).all()
    pd.testing.assert_frame_equal(totals.summary(), simcards.summarize(reference_frame))


def test_summary_only_resumes_from_its_parts(tmp_path):
    run = RunSpec.create("five-alive", LINEUP, 3_000, seed=5, chunk_size=400, summary_only=True)
    whole = execute(run)
    partial = RunSpec.create("five-alive", LINEUP, 3_000, seed=5, chunk_size=400, summary_only=True)
    folder = tmp_path / "run"
    first = execute(partial, run_dir=folder)
    (folder / "parts" / "chunk-000002.json").unlink()   # as if the run stopped before chunk 2
    again = execute(partial, run_dir=folder, resume=True)
    for t in (first, again):
        assert t.games == whole.games and (t.win_units == whole.win_units).all()
        assert (t.sums == whole.sums).all()


# fixed seats: one run folder (a mixed line-up rotates by default, one folder per seat order)
CLI = [sys.executable, "-m", "simcards", "run", "five-alive", "--strategies", ",".join(LINEUP),
       "--games", "120000", "--seed", "8", "--chunk-size", "1000", "--threads", "1", "--no-rotate"]


# slow: a run killed and resumed in real processes (10-30 s); tests/faults/test_run_folders.py holds the same promise by every signal; CI runs it
@pytest.mark.slow
def test_a_killed_run_resumes_to_the_same_frame(tmp_path):
    folder = tmp_path / "run"
    proc = subprocess.Popen(CLI + ["--run-dir", str(folder)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    parts = folder / "parts"
    deadline = time.time() + 120

    def finished_parts() -> int:
        return len(list(parts.glob("*.parquet"))) if parts.exists() else 0

    while time.time() < deadline and finished_parts() < 5 and proc.poll() is None:
        time.sleep(0.02)
    assert proc.poll() is None, "the run ended before it could be killed"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    before = len(list(parts.glob("*.parquet")))
    assert 5 <= before < 120
    out = tmp_path / "resumed.parquet"
    done = subprocess.run(CLI + ["--run-dir", str(folder), "--resume", "--out", str(out)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    resumed = pd.read_parquet(out)
    whole = simcards.simulate("five-alive", LINEUP, 120_000, seed=8)
    pd.testing.assert_frame_equal(resumed, whole, check_categorical=False)


def test_run_folder_parts_of_an_older_simcards_resume_into_the_narrow_frame(tmp_path, reference_frame):
    run = RunSpec.create("five-alive", LINEUP, 6_000, seed=21, chunk_size=1_000)
    folder = tmp_path / "run"
    execute(run, run_dir=folder)
    parts = sorted((folder / "parts").glob("*.parquet"))
    for path in parts[:3]:      # as simcards wrote them before narrow types: every integer int64
        old = pd.read_parquet(path)
        old.astype({c: "int64" for c in old.columns if pd.api.types.is_integer_dtype(old[c])}
                   ).to_parquet(path, index=False)
    parts[4].unlink()           # and a chunk still to play
    pd.testing.assert_frame_equal(execute(run, run_dir=folder, resume=True), reference_frame)


def test_run_folder_guards(tmp_path):
    run = RunSpec.create("five-alive", LINEUP, 1_000, seed=1, chunk_size=500)
    execute(run, run_dir=tmp_path)
    with pytest.raises(SimcardsError, match="already holds a run"):
        execute(run, run_dir=tmp_path)
    other = RunSpec.create("five-alive", LINEUP, 1_000, seed=2, chunk_size=500)
    with pytest.raises(SimcardsError, match="differs in seed"):
        execute(other, run_dir=tmp_path, resume=True)


def test_backend_choice(monkeypatch):
    assert isinstance(backend_for(None, threads=2), ThreadBackend)
    assert isinstance(backend_for("local"), DaskBackend)
    monkeypatch.setenv("SIMCARDS_CLUSTER", "tcp://scheduler:8786")
    assert backend_for(None).address == "tcp://scheduler:8786"
    with pytest.raises(SimcardsError, match="bad cluster 'mars'"):
        backend_for("mars")
