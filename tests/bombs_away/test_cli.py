"""The simcards command on Bombs Away, through typer's CliRunner."""
import pandas as pd
import pytest
from typer.testing import CliRunner

from simcards.cli import app

runner = CliRunner()


def run(*args):
    return runner.invoke(app, list(args))


def test_games_lists_bombs_away():
    result = run("games")
    assert result.exit_code == 0 and "bombs-away" in result.output


def test_strategies_lists_every_strategy_with_rationale():
    result = run("strategies", "bombs-away")
    assert result.exit_code == 0
    for name in ("random", "keeper", "duelist", "sniper", "hoarder"):
        assert name in result.output
    assert "Uniform" in result.output


def test_rules_lists_every_option_with_default():
    result = run("rules", "bombs-away")
    assert result.exit_code == 0
    for word in ("points", "30", "hand_size", "tens_rule", "duel_victim", "next", "chosen",
                 "turn_cap", "5000"):
        assert word in result.output


def test_run_prints_win_rates_and_writes_parquet(tmp_path):
    out = tmp_path / "r.parquet"
    result = run("run", "bombs-away", "--players", "3", "--strategies", "random", "--games", "300",
                 "--seed", "5", "--rule", "duel_victim=chosen", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "random" in result.output and "95% interval" in result.output
    frame = pd.read_parquet(out)
    assert len(frame) == 900 and {"points", "dealt_mask", "duels", "points_lost"} <= set(frame)


def test_replay_prints_the_game_and_agrees():
    result = run("replay", "bombs-away", "--strategies", "random,random,random", "--seed", "2",
                 "--game", "3")
    assert result.exit_code == 0, result.output
    assert "Turn 1: seat 0 plays" in result.output and "winner" in result.output
    assert "agrees with the fast engine" in result.output


@pytest.mark.parametrize("args, bad", [
    (("run", "bombs-away", "--strategies", "random,bogus"), "'bogus'"),
    (("run", "bombs-away", "--rule", "duel_victim=nobody"), "'nobody'"),
    (("run", "bombs-away", "--rule", "points=zero"), "'zero'"),
    (("run", "bombs-away", "--rule", "hand_size=11"), "'11'"),
    (("run", "bombs-away", "--rule", "jokers=2"), "'jokers'"),
    (("run", "bombs-away", "--players", "6"), "not 6"),
    (("run", "bombs-away", "--strategies", "random,random,random,random,random,random"), "not 6"),
    (("run", "bombs-away", "--strategies", "random", "--players", "1"), "not 1"),
    (("replay", "bombs-away", "--strategies", "keeper,nobody"), "'nobody'"),
    (("strategies", "bombs-awayy"), "'bombs-awayy'"),
])
def test_bad_input_is_one_line_and_exit_code_2(args, bad):
    result = run(*args)
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.strip().splitlines() if line.strip()]
    assert len(lines) == 1 and bad in lines[0] and "error" in lines[0]
