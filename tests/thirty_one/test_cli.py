"""The simcards command on Thirty-One with keys, through typer's CliRunner.

Every run uses the {greedy, random} kernel that test_engines.py compiles too."""
import pandas as pd
import pytest
from typer.testing import CliRunner

from simcards.cli import app

runner = CliRunner()


def run(*args):
    return runner.invoke(app, list(args))


def test_games_lists_thirty_one():
    result = run("games")
    assert result.exit_code == 0 and "thirty-one" in result.output


def test_strategies_lists_every_strategy_with_its_rationale():
    result = run("strategies", "thirty-one")
    assert result.exit_code == 0
    for name in ("random", "greedy", "threshold", "suit_chaser", "discard_reader"):
        assert name in result.output
    assert "Кручу" in result.output


def test_rules_lists_every_option_with_its_default():
    result = run("rules", "thirty-one")
    assert result.exit_code == 0
    for word in ("keys", "key_cards", "rebuild", "shuffled", "as_it_lies", "turn_cap", "120",
                 "round_cap", "500"):
        assert word in result.output


def test_run_prints_win_rates_and_writes_parquet(tmp_path):
    out = tmp_path / "r.parquet"
    result = run("run", "thirty-one", "--strategies", "greedy,random,random", "--games", "300",
                 "--seed", "5", "--rule", "rebuild=as_it_lies", "--no-rotate", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "greedy" in result.output and "95% interval" in result.output
    frame = pd.read_parquet(out)
    assert len(frame) == 900 and frame["game"].nunique() == 300
    assert {"keys", "dealt_mask", "ends_31", "ends_proposal", "ends_cap"} <= set(frame.columns)


def test_run_reports_unfinished_games(tmp_path):
    out = tmp_path / "r.csv"
    result = run("run", "thirty-one", "--strategies", "random,greedy", "--games", "40",
                 "--rule", "round_cap=1", "--no-rotate", "--out", str(out))
    assert result.exit_code == 0, result.output
    frame = pd.read_csv(out)
    unfinished = int(frame.groupby("game")["unfinished"].first().sum())
    assert unfinished > 0 and f"{unfinished:,} games reached the cap" in result.output


def test_replay_prints_the_game_in_words_and_checks_it():
    result = run("replay", "thirty-one", "--seed", "3", "--game", "2", "--strategies",
                 "greedy,random,random,greedy")
    assert result.exit_code == 0, result.output
    assert "Round 1: seat 3 deals" in result.output and "Turn 1: seat 0" in result.output
    assert "agrees with the fast engine" in result.output


@pytest.mark.parametrize("args, words", [
    (["run", "thirty-one", "--strategies", "psychic,random"], ["'psychic'", "greedy"]),
    (["run", "thirty-one", "--players", "5", "--strategies", "random"], ["2 to 4", "not 5"]),
    (["run", "thirty-one", "--players", "1", "--strategies", "random"], ["2 to 4", "not 1"]),
    (["run", "thirty-one", "--strategies", "random,random,random,random,greedy"], ["not 5"]),
    (["run", "thirty-one", "--strategies", "random,greedy", "--rule", "rebuild=sideways"],
     ["'sideways'", "rebuild", "shuffled", "as_it_lies"]),
    (["run", "thirty-one", "--strategies", "random,greedy", "--rule", "turn_cap=0"],
     ["'0'", "turn_cap", "1..1000000"]),
    (["run", "thirty-one", "--strategies", "random,greedy", "--rule", "keys=many"],
     ["'many'", "keys", "integer"]),
    (["run", "thirty-one", "--strategies", "random,greedy,greedy", "--rule", "key_cards=8"],
     ["key_cards=8", "3 players", "key_cards >= 9"]),
    (["run", "thirty-one", "--strategies", "random,greedy", "--rule", "jokers=2"],
     ["'jokers'", "accepted are", "rebuild"]),
    (["replay", "thirty-one", "--strategies", "random,bluff"], ["'bluff'", "accepted are"]),
    (["replay", "thirty-one", "--strategies", "random,greedy", "--game", "-1"], ["-1", "0 or more"]),
])
def test_bad_input_is_one_line_with_exit_code_2(args, words):
    result = run(*args)
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:"), result.output
    for w in words:
        assert w in lines[0], lines[0]
