"""The tight C yardsticks (simcards.yardstick) play the very games of simcards.simulate, game by
game, so that their time per turn is a fair measure of the engine's; each is built once per
source, compiler and flags, and a machine without a C compiler gets a note, not a crash.
No timing is asserted."""
from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

import simcards
from simcards import yardstick
from simcards.bench import c_yardstick
from simcards.errors import SimcardsError

#: (game, seed, players, games): every line-up with a C program, at several player counts
CHECKED = [("five-alive", 0, 4, 400), ("five-alive", 2027, 4, 400), ("five-alive", 5, 3, 200),
           ("thirty-one", 0, 4, 400), ("thirty-one", 2027, 3, 300), ("thirty-one", 5, 2, 300),
           ("vzhukh", 0, 4, 400), ("vzhukh", 2027, 3, 300), ("vzhukh", 5, 6, 200),
           ("bombs-away", 0, 4, 400), ("bombs-away", 2027, 3, 300), ("bombs-away", 5, 5, 200),
           ("bombs-away", 7, 2, 300)]


@pytest.mark.parametrize(("game", "seed", "players", "games"), CHECKED)
def test_the_c_plays_the_games_of_simulate(game, seed, players, games):
    stick = yardstick.yardsticks()[game]
    c = yardstick.games_played(games, seed, players, game)
    frame = simcards.simulate(game, [stick.strategy] * players, games, seed=seed)
    frame = frame.sort_values(["game", "seat"])
    per_game = frame.groupby("game")[list(stick.game_columns)].first()
    for column in stick.game_columns:
        np.testing.assert_array_equal(c[column], per_game[column].to_numpy().astype(np.int64),
                                      err_msg=column)
    for column in stick.seat_columns:
        if column == "win":        # the C marks every winner; the frame shares the win among them
            winners = c["win"].sum(axis=1, keepdims=True)
            np.testing.assert_array_equal(c["win"] / np.maximum(winners, 1),
                                          frame["win_share"].to_numpy().reshape(games, players))
            continue
        np.testing.assert_array_equal(c[column], frame[column].to_numpy().reshape(games, players),
                                      err_msg=column)
    # the games are not all alike: the comparison sees different lengths (in the game's steps:
    # turns, actions) and winners
    assert len(set(c[stick.spec.step_column])) > 10 and len(set(c["win"].argmax(axis=1))) == players


@pytest.mark.parametrize("game", sorted(yardstick.yardsticks()))
def test_the_timed_run_counts_the_checked_games(game):
    c = yardstick.games_played(300, 11, 4, game)
    timed = yardstick.run(300, 11, 4, game)
    stick = yardstick.yardsticks()[game]
    assert timed.games == 300 and timed.step_column == stick.spec.step_column
    assert timed.totals == {column: c[column].sum() for column in stick.game_columns}
    assert timed.steps == c[stick.spec.step_column].sum() > 300
    assert timed.cpu_seconds > 0 and timed.cpu_ns_per_step == pytest.approx(timed.cpu_seconds / timed.steps * 1e9)


def test_a_yardstick_outside_its_player_counts_or_games_is_refused():
    with pytest.raises(SimcardsError, match="thirty-one is played by 2 to 4 players, not 5"):
        yardstick.run(10, 0, 5, "thirty-one")
    with pytest.raises(SimcardsError, match="vzhukh is played by 2 to 6 players, not 7"):
        yardstick.run(10, 0, 7, "vzhukh")
    with pytest.raises(SimcardsError, match="bombs-away is played by 2 to 5 players, not 6"):
        yardstick.run(10, 0, 6, "bombs-away")
    with pytest.raises(SimcardsError, match="no C yardstick for 'no-such-game': accepted are "
                                            "bombs-away, five-alive, thirty-one, vzhukh"):
        yardstick.run(10, 0, 4, "no-such-game")


def test_the_build_is_cached_by_source_and_flags(tmp_path, monkeypatch):
    monkeypatch.setenv("SIMCARDS_KERNEL_DIR", str(tmp_path))
    first = yardstick.build()
    assert first.parent == tmp_path and yardstick.build() == first
    stamp = first.stat().st_mtime_ns
    assert yardstick.build() == first and first.stat().st_mtime_ns == stamp   # not rebuilt
    edited = tmp_path / "five_alive.c"
    edited.write_text(yardstick.yardsticks()["five-alive"].source.read_text() + "\n/* an edit */\n")
    assert yardstick.build(edited) != first
    monkeypatch.setattr(yardstick, "FLAGS", ("-O2",))
    assert yardstick.build() != first
    monkeypatch.undo()
    monkeypatch.setenv("SIMCARDS_KERNEL_DIR", str(tmp_path))
    shared = yardstick.HEADERS
    for i, original in enumerate(shared):              # each shared header is part of what is built
        header = tmp_path / original.name
        header.write_text(original.read_text() + "\n/* an edit */\n")
        monkeypatch.setattr(yardstick, "HEADERS", shared[:i] + (header,) + shared[i + 1:])
        assert yardstick.build() != first
    assert not list(tmp_path.glob("*.tmp"))       # written under a temporary name, then renamed


def test_each_game_brings_its_own_c_program():
    """A game's C program is yardstick.c in its package, beside its engines, found through the
    registry: its line-up is the game's bench strategy, its target the game's (issue 13's for
    Five Alive alone); the old names of the table still answer."""
    sticks = yardstick.yardsticks()
    assert list(sticks) == ["bombs-away", "five-alive", "thirty-one", "vzhukh"]
    for name, stick in sticks.items():
        spec = simcards.get_game(name)
        assert stick.source == Path(simcards.__file__).parent / "games" / spec.module_name / "yardstick.c"
        assert stick.strategy == spec.bench_strategy and stick.target == spec.c_target
    assert [n for n, s in sticks.items() if s.target is not None] == ["five-alive"]
    assert yardstick.YARDSTICKS == sticks and yardstick.FIVE_ALIVE_SOURCE == sticks["five-alive"].source
    assert not list((Path(yardstick.__file__).parent).glob("*.c"))     # only the shared headers here


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
    ("thirty-one", ["greedy", "random"], ["simcards_strategies.thirty_one.greedy",
                                          "simcards_strategies.thirty_one.random"]),
    ("vzhukh", ["low_attack", "random"], ["simcards_strategies.vzhukh.low_attack",
                                          "simcards_strategies.vzhukh.random"]),
    ("vzhukh", ["low_attack"] * 2, ["my_strategies.low_attack"] * 2),
    ("bombs-away", ["duelist", "random"], ["simcards_strategies.bombs_away.duelist",
                                           "simcards_strategies.bombs_away.random"]),
    ("bombs-away", ["random"] * 2, ["my_strategies.random"] * 2),
])
def test_other_line_ups_have_no_c_yardstick(game, strategies, modules):
    row, note = c_yardstick(game, strategies, modules, 10, 0)
    assert row is None and note.startswith("no C yardstick for this line-up")


def test_thirty_one_has_a_c_row_without_a_target():
    """Thirty-One's C is information: a row counting the games' own turns, and no target."""
    row, note = c_yardstick("thirty-one", ["greedy"] * 4, ["simcards_strategies.thirty_one.greedy"] * 4, 200, 3)
    frame = simcards.simulate("thirty-one", ["greedy"] * 4, 200, seed=3)
    assert row["steps"] == frame.groupby("game")["turns"].first().sum() and "-O3" in note
    assert yardstick.yardsticks()["thirty-one"].target is None
