"""``simcards balance``: the [balance] table checked, the search reproducible and resumable, its
recommendation an experiment that ``simcards report`` reads, its numbers those of the verdict.

Bombs Away at 3 players, two mirrors, a small space and few deals: the tests check the machinery,
not the balance of the game (the committed searches in reports/*_fair_* do that).
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from simcards.balancing.config import balance_config, load_balance
from simcards.balancing.measure import measure
from simcards.balancing.run import RECOMMENDED, balance
from simcards.errors import SimcardsError
from simcards.report.experiment import load_experiment, parse_experiment

pytestmark = pytest.mark.xdist_group("bombs-away")    # its kernels beside the game's own tests

SMALL = """
game = "bombs-away"
title = "small balance"
seed = 3
players = [3]
games = 500
tolerance = 0.03
max_games = 4000
looks = 2

[lineups]
mirror = ["duelist", "random"]

[balance]
trials = 5
games = 1200
skill_games = 200
confirm = 2

[balance.vary]
points_seat1 = [-3, 3]
points_seat2 = [-2, 2]
"""


def small(tmp_path: Path, text: str = SMALL, name: str = "small.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def without_seconds(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.drop(columns=["seconds"])


# ------------------------------------------------------------------ the [balance] table
@pytest.mark.parametrize("change, key, accepted", [
    ("[balance.vary]\npoints_seat1 = [-3, 3]", "balance.vary.nonsense", None),
    ("points_seat1 = [3, -3]", "balance.vary.points_seat1", "two integers low < high"),
    ("points_seat1 = [-30, 3]", "balance.vary.points_seat1", "an integer -10..10"),
    ("trials = 5", "balance.trials", "an integer 1..10000"),
    ("confirm = 2", "balance.confirm_seed", "another seed"),
])
def test_a_bad_balance_table_is_one_line_naming_its_key(tmp_path, change, key, accepted):
    text = {
        "balance.vary.nonsense": SMALL.replace("points_seat2 = [-2, 2]", "nonsense = [1, 2]"),
        "balance.vary.points_seat1": SMALL.replace("points_seat1 = [-3, 3]", change),
        "balance.trials": SMALL.replace("trials = 5", "trials = 0"),
        "balance.confirm_seed": SMALL.replace("confirm = 2", "confirm = 2\nconfirm_seed = 3"),
    }[key]
    with pytest.raises(SimcardsError) as err:
        load_balance(small(tmp_path, text))
    line = str(err.value)
    assert "\n" not in line and f"key {key!r}" in line
    if accepted:
        assert accepted in line


def test_an_option_fixed_and_varied_at_once_is_refused(tmp_path):
    text = SMALL.replace("[lineups]", "[rules]\npoints_seat1 = 2\n\n[lineups]")
    with pytest.raises(SimcardsError, match="either fixed in \\[rules\\] or varied"):
        load_balance(small(tmp_path, text))


def test_a_file_without_balance_says_what_is_missing(tmp_path):
    text = SMALL[:SMALL.index("[balance]")]
    with pytest.raises(SimcardsError, match="no \\[balance\\] table"):
        load_balance(small(tmp_path, text))


def test_a_plain_report_reads_a_balance_file_as_the_rules_it_holds(tmp_path):
    exp = load_experiment(small(tmp_path))
    assert exp.balance["trials"] == 5 and exp.resolved_rules["points_seat1"] == 0


# ------------------------------------------------------------------ one rule set measured
def test_a_mirrors_seat_edges_are_the_frame_s_win_shares_less_the_fair_share(tmp_path):
    import simcards
    cfg = load_balance(small(tmp_path))
    m = measure(cfg, {"points_seat1": 2, "points_seat2": -1}, threads=1, games=800, stages=2)
    frame = simcards.simulate("bombs-away", ["duelist"] * 3, 800, 3, {"points_seat1": 2, "points_seat2": -1},
                              threads=1)
    finished = 1 - frame[frame["seat"] == 0]["unfinished"].mean()
    rates = frame.groupby("seat")["win_share"].mean()
    seats = [s for s in m.seats if s["mirror"] == "duelist"]
    for s in seats:
        assert s["edge"] == pytest.approx(rates[s["seat"]] - finished / 3, abs=1e-12)
        assert s["low"] < s["edge"] < s["high"]
    # every game has one winner share in all: the edges of a finished table sum to zero
    assert sum(s["edge"] for s in seats) == pytest.approx(0, abs=1e-12)
    assert m.worst["edge"] == max((s["edge"] for s in m.seats), key=abs)
    assert m.bound == max(max(abs(s["low"]), abs(s["high"])) for s in m.seats)
    assert set(m.skill) == {3} and 0 < m.skill[3]["win_rate"] < 1


def test_compensating_the_favoured_seat_moves_its_edge_down(tmp_path):
    """A rule change must reach the engine: seat 1 starting with 5 points fewer wins less."""
    cfg = load_balance(small(tmp_path))
    plain = measure(cfg, {"points_seat1": 0, "points_seat2": 0}, threads=1, games=3000, stages=1)
    less = measure(cfg, {"points_seat1": -3, "points_seat2": 0}, threads=1, games=3000, stages=1)

    def edge(m):
        return next(s for s in m.seats if s["mirror"] == "duelist" and s["seat"] == 1)

    a, b = edge(plain), edge(less)
    assert b["edge"] < a["edge"] - 3 * np.hypot(a["se"], b["se"])


def test_a_corner_of_the_ranges_the_game_does_not_allow_is_skipped_not_fatal(tmp_path):
    text = SMALL.replace("points_seat2 = [-2, 2]", "points_seat2 = [-2, 2]\nhand_size = [1, 4]\nhand_seat1 = [-2, 2]")
    cfg = load_balance(small(tmp_path, text))
    m = measure(cfg, {"points_seat1": 0, "points_seat2": 0, "hand_size": 1, "hand_seat1": -2}, threads=1, games=400)
    assert m.pruned and "full hand of -1 cards" in m.invalid and not m.seats
    ok = measure(cfg, {"points_seat1": 0, "points_seat2": 0, "hand_size": 3, "hand_seat1": -2}, threads=1, games=400)
    assert not ok.pruned and not ok.invalid


# ------------------------------------------------------------------ the whole search
def test_the_same_seed_gives_the_same_search_and_recommendation(tmp_path):
    path = small(tmp_path)
    one = balance(path, tmp_path / "one", threads=1)
    two = balance(path, tmp_path / "two", threads=2)
    a, b = (json.loads((tmp_path / d / "summary.json").read_text()) for d in ("one", "two"))
    assert a["closest"]["values"] == b["closest"]["values"]
    assert a["closest"]["verdicts"] == b["closest"]["verdicts"]
    pd.testing.assert_frame_equal(without_seconds(pd.read_csv(tmp_path / "one" / "trials.csv")),
                                  without_seconds(pd.read_csv(tmp_path / "two" / "trials.csv")))
    assert one.trials[0].values == {"points_seat1": 0, "points_seat2": 0}      # the rules as printed first
    # the page, the figure and the recommended rules as an experiment simcards report reads
    for name in ("index.html", "report.md", "tradeoff.png", "summary.json", "study.db", RECOMMENDED):
        assert (tmp_path / "one" / name).is_file()
    rec = load_experiment(tmp_path / "one" / RECOMMENDED)
    assert {k: rec.resolved_rules[k] for k in one.closest.values} == one.closest.values
    assert not rec.balance and rec.mirror == ("duelist", "random")
    page = (tmp_path / "one" / "index.html").read_text()
    assert page.index('id="answer"') < page.index('id="confirmed"') < page.index('id="method"')
    assert ("Recommended:" in page) == two.found and ("Nothing within the ranges" in page) == (not two.found)


def test_an_interrupted_search_resumes_to_the_same_trials(tmp_path):
    path = small(tmp_path)
    whole = balance(path, tmp_path / "whole", threads=1)
    asked = []

    def stop_at_the_third(done: int, total: int, where: str) -> None:
        asked.append(where)
        if len(asked) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt, match="add --resume"):
        balance(path, tmp_path / "cut", threads=1, progress=stop_at_the_third)
    assert not (tmp_path / "cut" / "summary.json").exists()
    with pytest.raises(SimcardsError, match="already holds files"):
        balance(path, tmp_path / "cut", threads=1)                  # nothing overwritten without --resume
    resumed = balance(path, tmp_path / "cut", threads=1, resume=True)
    pd.testing.assert_frame_equal(without_seconds(pd.read_csv(tmp_path / "whole" / "trials.csv")),
                                  without_seconds(pd.read_csv(tmp_path / "cut" / "trials.csv")))
    assert resumed.closest.values == whole.closest.values


def test_resume_refuses_another_configuration(tmp_path):
    path = small(tmp_path)
    balance(path, tmp_path / "out", threads=1)
    other = small(tmp_path, SMALL.replace("trials = 5", "trials = 6"))
    with pytest.raises(SimcardsError, match="another balance's configuration"):
        balance(other, tmp_path / "out", threads=1, resume=True)


def test_the_command_line_builds_the_same_file(tmp_path):
    from simcards.balancing.cli import balance_file
    text = balance_file("bombs-away", "3", "duelist,random", ["points_seat1=-3..3", "duel_victim=next,chosen"],
                        0.01, 7, 1000, 1, 5, 0.2, None, None, ["hand_size=5"])
    cfg = balance_config(parse_experiment(tmp_path / "balance.toml", text))
    assert [a.name for a in cfg.axes] == ["points_seat1", "duel_victim"]
    assert cfg.axes[1].values == ("next", "chosen") and cfg.trials == 7 and cfg.exp.rules == {"hand_size": 5}


@pytest.mark.parametrize("args, says", [
    (["bombs-away"], "missing --vary"),
    (["bombs-away", "--vary", "points_seat1=-3"], "expected LOW..HIGH"),
    (["bombs-away", "--vary", "nonsense=1..2"], "bad --vary 'nonsense=1..2'"),
    (["no-such-game"], "unknown game or experiment file"),
])
def test_bad_command_lines_are_one_line_and_exit_2(tmp_path, args, says, monkeypatch):
    from typer.testing import CliRunner

    from simcards.cli import app
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["balance", *args])
    assert result.exit_code == 2, result.output
    lines = [l for l in result.output.splitlines() if l.strip()]
    assert len(lines) == 1 and says in lines[0]
    assert not any(tmp_path.iterdir())                 # nothing written
