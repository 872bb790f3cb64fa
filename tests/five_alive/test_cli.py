"""The simcards command on Five Alive, through typer's CliRunner.

Listings, `replay` and the one-line errors for bad strategies, player counts, rule options
and game counts are the contract suite's (tests/contract/test_cli.py), with the game's words
in the golden playthrough; output files and most bad input are tests/core's. What is left:
the defaults in `rules`, the win-rate table, rotation, and a few game-independent errors
that no generic test has yet (move them to tests/core/test_bad_inputs.py)."""
import pandas as pd
import pytest
from typer.testing import CliRunner

from simcards.cli import app

runner = CliRunner()


def run(*args):
    return runner.invoke(app, list(args))


def test_rules_shows_the_defaults():
    result = run("rules", "five-alive")
    assert result.exit_code == 0
    for word in ("standard", "10000"):      # edition and turn_cap defaults
        assert word in result.output


def test_run_prints_win_rates_and_writes_parquet(tmp_path):
    out = tmp_path / "r.parquet"
    result = run("run", "five-alive", "--strategies", "high_first,random,keep_zero", "--games", "400",
                 "--seed", "5", "--rule", "lives=3", "--no-rotate", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "five-alive: 400 games" in result.output and "seed 5" in result.output
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


@pytest.mark.parametrize("args, words", [
    (["run", "five-alive", "--players", "3", "--strategies", "random,random"], ["--players 3", "2 strategies"]),
    (["run", "five-alive", "--players", "1", "--strategies", "random"], ["2 to 7", "not 1"]),
    (["run", "five-alive", "--strategies", ",".join(["random"] * 8)], ["2 to 7", "not 8"]),
    (["rules", "chess"], ["unknown game 'chess'"]),
    (["strategies", "chess"], ["unknown game 'chess'"]),
])
def test_bad_input_is_one_line_with_exit_code_2(args, words):
    result = run(*args)
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:"), result.output
    for w in words:
        assert w in lines[0]
