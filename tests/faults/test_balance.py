"""``simcards balance`` stopped by a real signal, then ``--resume``: the same trials as a search
that ran through (the study is in the output folder; each trial's sampler is seeded by its
number), the page written once, at the end. SIGKILL leaves the trial it was measuring RUNNING in
optuna's storage: the resumed search measures that one again.
"""
from __future__ import annotations

import signal
import sqlite3
from pathlib import Path

import pandas as pd
import pytest

from simcards.balancing.run import balance

pytestmark = pytest.mark.xdist_group("bombs-away")

FILE = """
game = "bombs-away"
title = "balance under signals"
seed = 8
players = [3]
games = 500
tolerance = 0.03
max_games = 3000
looks = 2

[lineups]
mirror = ["duelist", "random"]

[balance]
trials = 10
games = 4000
skill_games = 300
confirm = 1

[balance.vary]
points_seat1 = [-3, 3]
points_seat2 = [-3, 3]
"""


def finished_trials(folder: Path) -> int:
    db = folder / "study.db"
    if not db.is_file():
        return 0
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1) as con:
            return con.execute("select count(*) from trials where state in ('COMPLETE', 'PRUNED')").fetchone()[0]
    except sqlite3.Error:          # not made yet, or busy: look again
        return 0


def trials(folder: Path) -> pd.DataFrame:
    return pd.read_csv(folder / "trials.csv").drop(columns=["seconds"])


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    where = tmp_path_factory.mktemp("whole")
    path = where / "search.toml"
    path.write_text(FILE)
    balance(path, where / "out", threads=2)
    return where / "out"


@pytest.mark.parametrize("sig, code", [
    (signal.SIGINT, 130),
    pytest.param(signal.SIGTERM, 143, marks=pytest.mark.slow),
    pytest.param(signal.SIGKILL, -9, marks=pytest.mark.slow),
], ids=["SIGINT", "SIGTERM", "SIGKILL"])
def test_a_search_stopped_by_a_signal_resumes_to_the_same_trials(tmp_path, faults, uninterrupted, sig, code):
    path = tmp_path / "search.toml"
    path.write_text(FILE)
    out = tmp_path / "out"
    proc = faults.start("balance", path, "--out-dir", out)
    faults.wait_for(lambda: finished_trials(out) >= 3, proc=proc, timeout=240)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == code, err
    assert 3 <= finished_trials(out) < 10, "the search ended before the signal"
    assert not (out / "index.html").exists() and not (out / "recommended.toml").exists()
    if sig != signal.SIGKILL:
        lines = [ln for ln in err.splitlines() if ln.strip() and "━" not in ln]
        assert lines[-1].startswith("interrupted: the finished trials are saved in") and "--resume" in lines[-1], err
        assert "Traceback" not in err
    again = faults.simcards("balance", path, "--out-dir", out)      # nothing overwritten without --resume
    faults.one_line(again, "already holds files")
    resumed = faults.simcards("balance", path, "--out-dir", out, "--resume")
    assert resumed.returncode == 0, resumed.stderr
    pd.testing.assert_frame_equal(trials(out), trials(uninterrupted))
    assert (out / "recommended.toml").read_text().split("\n", 3)[3] == \
        (uninterrupted / "recommended.toml").read_text().split("\n", 3)[3]
