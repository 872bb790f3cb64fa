"""The `simcards` command on Vzhukh, and its one-line errors for bad input."""
import pytest
from typer.testing import CliRunner

from simcards.cli import app

runner = CliRunner()


@pytest.fixture(scope="module")
def lineup(make_batch, all_strategies):
    """Five seats, one per strategy: the session's shared kernel (see conftest)."""
    return ",".join(all_strategies)


def run(*args):
    return runner.invoke(app, list(args))


def one_error_line(result) -> str:
    text = (result.stderr if hasattr(result, "stderr") and result.stderr else result.output).strip()
    lines = text.splitlines()
    assert len(lines) == 1, text
    return lines[0]


def test_run_prints_win_rates(lineup):
    result = run("run", "vzhukh", "--strategies", lineup, "--games", "300", "--threads", "1",
                 "--seed", "3")
    assert result.exit_code == 0, result.output
    assert "vzhukh: 300 games" in result.output and "seed 3" in result.output
    for name in lineup.split(","):
        assert name in result.output


def test_run_with_a_rule_option_and_csv_output(lineup, tmp_path):
    out = tmp_path / "games.csv"
    result = run("run", "vzhukh", "--strategies", lineup, "--games", "50", "--threads", "1",
                 "-r", "joker_penalty=0", "--out", str(out))
    assert result.exit_code == 0, result.output
    text = out.read_text()
    assert "penalty_round3" in text.splitlines()[0] and len(text.splitlines()) == 1 + 50 * 5


def test_replay_prints_the_game_and_agrees(lineup):
    result = run("replay", "vzhukh", "--strategies", lineup, "--game", "4", "--seed", "2")
    assert result.exit_code == 0, result.output
    assert "Round 1: seat 0 attacks first" in result.output
    assert "attacks seat" in result.output and "The game is over." in result.output
    assert "The reference engine agrees with the fast engine" in result.output


def test_rules_lists_every_option_with_its_default():
    result = run("rules", "vzhukh")
    assert result.exit_code == 0
    for name in ("hand_size", "joker_penalty", "action_cap", "count_1", "count_10", "count_voila",
                 "count_krable_bums", "count_vzhukh"):
        assert name in result.output
    assert "10000" in result.output and "60" in result.output


def test_strategies_lists_each_with_its_rationale(all_strategies):
    result = run("strategies", "vzhukh")
    assert result.exit_code == 0
    for name in all_strategies:
        assert name in result.output
    assert "Uniform" in result.output and "60" in result.output   # rationales, wrapped


def test_unknown_strategy_is_one_line_and_exit_2():
    result = run("run", "vzhukh", "--strategies", "random,bogus", "--games", "10")
    assert result.exit_code == 2
    line = one_error_line(result)
    assert "'bogus'" in line and "random" in line


def test_bad_rule_value_is_one_line_and_exit_2():
    result = run("run", "vzhukh", "--strategies", "random,random", "--games", "10",
                 "-r", "hand_size=99")
    assert result.exit_code == 2
    line = one_error_line(result)
    assert "99" in line and "hand_size" in line and "1..20" in line


def test_unknown_rule_option_is_one_line_and_exit_2():
    result = run("run", "vzhukh", "--games", "10", "-r", "lives=3")
    assert result.exit_code == 2
    assert "'lives'" in one_error_line(result)


def test_no_number_cards_is_one_line_and_exit_2():
    args = ["run", "vzhukh", "--games", "10"]
    for v in range(1, 11):
        args += ["-r", f"count_{v}=0"]
    result = run(*args)
    assert result.exit_code == 2
    assert "count_1 .. count_10" in one_error_line(result)


@pytest.mark.parametrize("args, bad", [
    (["--players", "7", "--strategies", "random"], "not 7"),
    (["--strategies", "random"] * 1 + ["--players", "1"], "not 1"),
    (["--strategies", ",".join(["random"] * 7)], "not 7"),
])
def test_wrong_player_count_is_one_line_and_exit_2(args, bad):
    result = run("run", "vzhukh", "--games", "10", *args)
    assert result.exit_code == 2
    line = one_error_line(result)
    assert bad in line and "2 to 6" in line


def test_deck_too_small_for_the_hands_is_one_line_and_exit_2():
    result = run("run", "vzhukh", "--strategies", ",".join(["random"] * 6), "--games", "10",
                 "-r", "hand_size=20")
    assert result.exit_code == 2
    assert "hand_size=20" in one_error_line(result)
