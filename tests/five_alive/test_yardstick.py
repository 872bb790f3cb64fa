"""The tight C yardstick (simcards.yardstick) plays the very games of simcards.simulate, game by
game, so that its time per turn is a fair measure of the engine's; it is built once per source,
compiler and flags, and a machine without a C compiler gets a note, not a crash.
No timing is asserted."""
from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

import simcards
from simcards import yardstick
from simcards.bench import c_yardstick

GAME_COLUMNS = ("turns", "rounds", "busts", "unfinished")
#: the C's per-seat results and the frame's column for each
SEAT_COLUMNS = {"win": "win_share", "rank": "rank", "lives": "lives", "dealt_mask": "dealt_mask"}


@pytest.mark.parametrize(("seed", "players", "games"), [(0, 4, 400), (2027, 4, 400), (5, 3, 200)])
def test_the_c_plays_the_games_of_simulate(seed, players, games):
    c = yardstick.games_played(games, seed, players)
    frame = simcards.simulate("five-alive", ["high_first"] * players, games, seed=seed)
    frame = frame.sort_values(["game", "seat"])
    per_game = frame.groupby("game")[list(GAME_COLUMNS)].first()
    for column in GAME_COLUMNS:
        np.testing.assert_array_equal(c[column], per_game[column].to_numpy().astype(np.int64),
                                      err_msg=column)
    for column, frame_column in SEAT_COLUMNS.items():
        np.testing.assert_array_equal(c[column], frame[frame_column].to_numpy().reshape(games, players),
                                      err_msg=column)
    # the games are not all alike: the comparison sees different lengths and winners
    assert len(set(c["turns"])) > 10 and len(set(c["win"].argmax(axis=1))) == players


def test_the_timed_run_counts_the_checked_games():
    c = yardstick.games_played(300, 11, 4)
    timed = yardstick.run(300, 11, 4)
    assert (timed.games, timed.turns, timed.rounds, timed.busts) == (
        300, c["turns"].sum(), c["rounds"].sum(), c["busts"].sum())
    assert timed.cpu_seconds > 0 and timed.cpu_ns_per_turn == pytest.approx(timed.cpu_seconds / timed.turns * 1e9)


def test_the_build_is_cached_by_source_and_flags(tmp_path, monkeypatch):
    monkeypatch.setenv("SIMCARDS_KERNEL_DIR", str(tmp_path))
    first = yardstick.build()
    assert first.parent == tmp_path and yardstick.build() == first
    stamp = first.stat().st_mtime_ns
    assert yardstick.build() == first and first.stat().st_mtime_ns == stamp   # not rebuilt
    edited = tmp_path / "five_alive.c"
    edited.write_text(yardstick.FIVE_ALIVE_SOURCE.read_text() + "\n/* an edit */\n")
    assert yardstick.build(edited) != first
    monkeypatch.setattr(yardstick, "FLAGS", ("-O2",))
    assert yardstick.build() != first
    assert not list(tmp_path.glob("*.tmp"))       # written under a temporary name, then renamed


def test_without_a_c_compiler_there_is_a_note(monkeypatch):
    monkeypatch.setenv("CC", "no-such-c-compiler")
    with pytest.raises(yardstick.YardstickUnavailable, match="no C compiler"):
        yardstick.build()
    row, note = c_yardstick("five-alive", ["high_first"] * 4,
                            ["simcards_strategies.five_alive.high_first"] * 4, 10, 0)
    assert row is None and "no C compiler" in note


def test_a_failing_c_program_is_a_note_not_a_crash(monkeypatch):
    monkeypatch.setattr(yardstick, "build", lambda source=None: Path(shutil.which("false")))
    with pytest.raises(yardstick.YardstickUnavailable, match="failed"):
        yardstick.run(10)
    row, note = c_yardstick("five-alive", ["high_first"] * 4,
                            ["simcards_strategies.five_alive.high_first"] * 4, 10, 0)
    assert row is None and note.startswith("no C yardstick: false failed")


@pytest.mark.parametrize(("game", "strategies", "modules"), [
    ("five-alive", ["high_first", "random"], ["simcards_strategies.five_alive.high_first",
                                              "simcards_strategies.five_alive.random"]),
    ("five-alive", ["high_first"] * 2, ["my_strategies.high_first"] * 2),
    ("thirty-one", ["greedy"] * 2, ["simcards_strategies.thirty_one.greedy"] * 2),
])
def test_other_line_ups_have_no_c_yardstick(game, strategies, modules):
    row, note = c_yardstick(game, strategies, modules, 10, 0)
    assert row is None and note.startswith("no C yardstick for this line-up")
