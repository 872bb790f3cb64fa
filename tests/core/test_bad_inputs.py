"""Every bad input, one row each: one line on stderr naming the bad value and what is
accepted, exit code 2 (a SimcardsError in the API), and nothing written anywhere.

Grow the tables with every case found: a row is the whole test of it."""
from __future__ import annotations

import os
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

import simcards
from simcards.cli import app
from simcards.errors import SimcardsError
from simcards.report.experiment import load_experiment
from simcards.runner import RunSpec

VALID_EXPERIMENT = """
game = "five-alive"
seed = 1
players = [2]
games = 20
[lineups]
mirror = ["high_first"]
"""

# (args, words the one stderr line must contain); run in a folder prepared by `workdir`
CLI_CASES = [
    (["run", "five-alive", "--games", "1.5"], ["'1.5'", "--games", "integer"]),
    (["run", "five-alive", "--games", "1e5"], ["'1e5'", "--games", "integer"]),
    (["run", "five-alive", "--games", "1e19"], ["'1e19'", "--games", "integer"]),
    (["run", "five-alive", "--games", "10000000000000000000"], ["10000000000000000000", "game indices up to"]),
    (["run", "five-alive", "--games", "100000000000"], ["100,000,000,000", "--summary-only", "--run-dir"]),
    (["run", "five-alive", "--games", "-5"], ["-5", "positive integer"]),
    (["run", "five-alive", "--seed", "abc"], ["'abc'", "--seed", "integer"]),
    (["run", "five-alive", "--seed", "-1"], ["-1", "0.."]),
    (["run", "five-alive", "--frobnicate"], ["'--frobnicate'", "accepted are", "--games"]),
    (["run", "five-alive", "--games"], ["'--games'", "requires an argument"]),
    (["run"], ["missing argument", "game"]),
    (["run", "five-alive", "surplus"], ["surplus"]),
    (["nosuch"], ["'nosuch'", "accepted are", "replay"]),
    (["run", "five-alive", "--chunk-size", "0"], ["chunk size 0", "positive integer"]),
    (["run", "five-alive", "--threads", "0"], ["thread count 0", "positive integer"]),
    (["run", "five-alive", "--threads", "-3"], ["thread count -3", "positive integer"]),
    (["run", "five-alive", "--cluster", "local", "--workers", "0"], ["worker count 0", "positive integer"]),
    (["run", "five-alive", "-r", "lives=3", "-r", "lives=4"], ["'lives'", "twice", "lives=4", "once"]),
    (["run", "five-alive", "-r", "edition=[x]"], ["'[x]'", "edition", "one of"]),
    (["run", "five-alive", "--cluster", "nowhere"], ["'nowhere'", "tcp://"]),
    (["run", "five-alive", "--games", "10", "--out", "existing.parquet"], ["existing.parquet", "exists", "--force"]),
    (["run", "five-alive", "--games", "10", "--out", "adir"], ["adir", ".parquet or .csv"]),
    (["run", "five-alive", "--games", "10", "--out", "dir.csv"], ["dir.csv", "folder", "file name"]),
    (["run", "five-alive", "--games", "10", "--out", "afile/x.csv"], ["afile", "is a file", "folder"]),
    (["run", "five-alive", "--games", "10", "--run-dir", "afile"], ["afile", "is a file", "folder"]),
    (["run", "five-alive", "--games", "10", "--run-dir", "afile/run"], ["afile", "is a file", "folder"]),
    (["run", "five-alive", "--games", "10", "--run-dir", "r", "--resume", "--force"], ["--resume", "--force"]),
    (["run", "five-alive", "--resume"], ["--resume", "--run-dir"]),
    (["run", "five-alive", "--summary-only", "--out", "x.csv"], ["--out", "--summary-only"]),
    (["replay", "five-alive", "--game", "9223372036854775808"], ["9223372036854775808", "0 or more", "at most 9223372036854775807"]),
    (["replay", "five-alive", "--game", "-1"], ["-1", "0 or more"]),
    (["replay", "five-alive", "--json", "existing.json"], ["existing.json", "exists", "--force"]),
    (["replay", "five-alive", "--json", "replay.txt"], ["replay.txt", ".json"]),
    (["bench", "five-alive", "--players", "x"], ["'x'", "--players", "integer"]),
    (["report", "latin1.toml"], ["latin1.toml", "UTF-8", "0xe9"]),
    (["report", "missing.toml"], ["missing.toml", "not found"]),
    (["report", "ok.toml", "--out-dir", "busy"], ["busy", "already holds files", "--force"]),
    (["report", "ok.toml", "--out-dir", "afile"], ["afile", "is a file", "folder"]),
    (["report", "ok.toml", "--precision", "abc"], ["'abc'", "--precision", "number"]),
    (["report", "ok.toml", "--precision", "0.7"], ["0.7", "between 0 and 0.5"]),
    (["report", "ok.toml", "--threads", "0"], ["thread count 0", "positive integer"]),
]


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    """A folder holding the files and folders the cases must leave alone."""
    (tmp_path / "existing.parquet").write_text("mine")
    (tmp_path / "existing.json").write_text("mine")
    (tmp_path / "afile").write_text("mine")
    (tmp_path / "adir").mkdir()
    (tmp_path / "dir.csv").mkdir()
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "notes.txt").write_text("mine")
    (tmp_path / "latin1.toml").write_bytes('game = "caf\xe9"\n'.encode("latin-1"))
    (tmp_path / "ok.toml").write_text(VALID_EXPERIMENT)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else b"/")
            for p in sorted(folder.rglob("*"))}


def test_the_tables_are_large():
    assert len(CLI_CASES) + len(API_CASES) + len(EXPERIMENT_CASES) >= 50


@pytest.mark.parametrize("args, words", CLI_CASES, ids=[" ".join(a) for a, _ in CLI_CASES])
def test_cli_bad_input(workdir, args, words):
    before = tree(workdir)
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for word in words:
        assert word in lines[0], lines[0]
    assert result.stdout == ""
    assert tree(workdir) == before      # nothing written, nothing removed


def _frame(**columns):
    return pd.DataFrame(columns)


API_CASES = [
    ("simulate 10**12 games", lambda: simcards.simulate("five-alive", ["random"] * 4, 10**12),
     ["1,000,000,000,000", "memory", "summary_only"]),
    ("simulate strategies=None", lambda: simcards.simulate("five-alive", None, 10), ["None", "list of strategy names"]),
    ("simulate strategies=[1, 2]", lambda: simcards.simulate("five-alive", [1, 2], 10), ["[1, 2]", "strategy names"]),
    ("simulate threads=0", lambda: simcards.simulate("five-alive", ["random"] * 2, 10, threads=0),
     ["threads 0", "positive integer"]),
    ("simulate threads=-1", lambda: simcards.simulate("five-alive", ["random"] * 2, 10, threads=-1),
     ["threads -1", "positive integer"]),
    ("simulate chunk_size=0", lambda: simcards.simulate("five-alive", ["random"] * 2, 10, chunk_size=0),
     ["chunk size 0", "positive integer"]),
    ("simulate n_games=1.5", lambda: simcards.simulate("five-alive", ["random"] * 2, 1.5), ["1.5", "positive integer"]),
    ("simulate n_games=0", lambda: simcards.simulate("five-alive", ["random"] * 2, 0), ["0", "positive integer"]),
    ("simulate start too late", lambda: simcards.simulate("five-alive", ["random"] * 2, 10, start=2**63 - 5),
     ["game indices up to"]),
    ("simulate seed='abc'", lambda: simcards.simulate("five-alive", ["random"] * 2, 10, seed="abc"), ["'abc'", "integer"]),
    ("RunSpec chunk_size=0", lambda: RunSpec.create("five-alive", ["random"] * 2, 10, chunk_size=0),
     ["chunk size 0", "positive integer"]),
    ("summarize empty frame", lambda: simcards.summarize(_frame(game=[], seat=[], strategy=[], win_share=[])),
     ["no rows", "at least one game"]),
    ("summarize foreign frame", lambda: simcards.summarize(_frame(a=[1, 2])), ["game", "simcards.simulate"]),
    ("summarize a list", lambda: simcards.summarize([1, 2]), ["list", "DataFrame"]),
]


@pytest.mark.parametrize("call, words", [c[1:] for c in API_CASES], ids=[c[0] for c in API_CASES])
def test_api_bad_input(tmp_path, monkeypatch, call, words):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SimcardsError) as info:
        call()
    message = str(info.value)
    assert "\n" not in message
    for word in words:
        assert word in message, message
    assert list(tmp_path.iterdir()) == []


EXPERIMENT_CASES = [
    ("latin-1 bytes", 'game = "caf\xe9"\n'.encode("latin-1"), ["0xe9", "UTF-8"]),
    ("a UTF-16 file", VALID_EXPERIMENT.encode("utf-16"), ["0xff", "UTF-8"]),
    ("a stray byte in a comment", b"# \x80\n" + VALID_EXPERIMENT.encode(), ["0x80", "offset 2"]),
]


@pytest.mark.parametrize("content, words", [c[1:] for c in EXPERIMENT_CASES], ids=[c[0] for c in EXPERIMENT_CASES])
def test_experiment_file_bad_input(tmp_path, content, words):
    path = tmp_path / "exp.toml"
    path.write_bytes(content)
    with pytest.raises(SimcardsError) as info:
        load_experiment(path)
    message = str(info.value)
    assert "\n" not in message and "exp.toml" in message
    for word in words:
        assert word in message, message
    assert os.listdir(tmp_path) == ["exp.toml"]


def test_the_memory_check_asks_the_system_only_for_rows_that_might_not_fit(monkeypatch):
    from simcards.run import memory as validate     # the memory checks' home (simcards.validate before)
    spec = simcards.get_game("five-alive")
    per_game = validate.row_bytes(spec, 4)
    small = validate.SURELY_FREE // per_game            # rows that surely fit
    asked = []

    def free():
        asked.append(True)
        return validate.SURELY_FREE + per_game          # room for one game more than `small`

    monkeypatch.setattr(validate, "available_memory", free)
    validate.check_memory(spec, 4, small)
    assert asked == []
    validate.check_memory(spec, 4, small + 1)          # past the line: asked, and fits
    assert asked == [True]
    with pytest.raises(SimcardsError, match=f"bad number of games {small + 2:,}"):
        validate.check_memory(spec, 4, small + 2)
    assert len(asked) == 2
