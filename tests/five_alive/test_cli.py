"""The simcards command on Five Alive, through typer's CliRunner."""
import pandas as pd
import pytest
from typer.testing import CliRunner

from simcards.cli import app

runner = CliRunner()


def run(*args):
    return runner.invoke(app, list(args))


def test_games_lists_five_alive():
    result = run("games")
    assert result.exit_code == 0 and "five-alive" in result.output


def test_strategies_lists_builtins_with_rationale():
    result = run("strategies", "five-alive")
    assert result.exit_code == 0
    for name in ("random", "high_first", "hold_actions", "keep_zero", "pressure_draw", "expert"):
        assert name in result.output


def test_rules_lists_every_option_with_default():
    result = run("rules", "five-alive")
    assert result.exit_code == 0
    for word in ("edition", "lives", "blitz", "turn_cap", "count_killer", "standard"):
        assert word in result.output


def test_run_prints_win_rates_and_writes_parquet(tmp_path):
    out = tmp_path / "r.parquet"
    result = run("run", "five-alive", "--strategies", "high_first,random,keep_zero", "--games", "400",
                 "--seed", "5", "--rule", "lives=3", "--no-rotate", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "high_first" in result.output and "95% interval" in result.output
    frame = pd.read_parquet(out)
    assert len(frame) == 1200 and frame["game"].nunique() == 400


def test_a_mixed_line_up_is_rotated_by_default(tmp_path):
    out = tmp_path / "r.parquet"
    result = run("run", "five-alive", "--strategies", "high_first,random,keep_zero", "--games", "60",
                 "--seed", "5", "--out", str(out))
    assert result.exit_code == 0, result.output
    frame = pd.read_parquet(out)
    # every deal in each of the 3! seat orders
    assert len(frame) == 60 * 3 and frame["order"].nunique() == 6 and frame["game"].nunique() == 10


def test_run_writes_csv(tmp_path):
    out = tmp_path / "r.csv"
    result = run("run", "five-alive", "--players", "2", "--games", "50", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert len(pd.read_csv(out)) == 100


def test_replay_prints_the_game_in_words_and_checks_it():
    result = run("replay", "five-alive", "--seed", "3", "--game", "2", "--strategies", "expert,random,random")
    assert result.exit_code == 0, result.output
    assert "Round 1: seat 2 deals" in result.output and "Turn 1: seat 0 plays" in result.output
    assert "agrees with the fast engine" in result.output


@pytest.mark.parametrize("args, words", [
    (["run", "chess"], ["unknown game 'chess'", "five-alive"]),
    (["run", "five-alive", "--strategies", "psychic,random"], ["'psychic'", "high_first"]),
    (["run", "five-alive", "--players", "8"], ["2 to 7", "not 8"]),
    (["run", "five-alive", "--players", "3", "--strategies", "random,random"], ["--players 3", "2 strategies"]),
    (["run", "five-alive", "--rule", "lives=lots"], ["'lots'", "lives", "integer"]),
    (["run", "five-alive", "--rule", "colour=red"], ["'colour'", "accepted are"]),
    (["run", "five-alive", "--rule", "blitz"], ["'blitz'", "key=value"]),
    (["run", "five-alive", "--games", "0"], ["0", "positive"]),
    (["run", "five-alive", "--out", "x.xlsx"], ["x.xlsx", ".parquet or .csv"]),
    (["rules", "chess"], ["unknown game 'chess'"]),
    (["strategies", "chess"], ["unknown game 'chess'"]),
    (["replay", "five-alive", "--game", "-1"], ["-1", "0 or more"]),
])
def test_bad_input_is_one_line_with_exit_code_2(args, words):
    result = run(*args)
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:"), result.output
    for w in words:
        assert w in lines[0]
