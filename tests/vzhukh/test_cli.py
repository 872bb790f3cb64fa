"""The `simcards` command on Vzhukh: its rule defaults, its strategies' rationales, and the
errors only Vzhukh's rules can cause.

Listings, `run`, `replay`, and the one-line errors for unknown strategies, rule options,
bad rule values and player counts are the contract suite's (tests/contract/test_cli.py),
with the game's words in the golden playthrough (tests/contract/test_golden.py)."""
from typer.testing import CliRunner

from simcards.cli import app

runner = CliRunner()


def run(*args):
    return runner.invoke(app, list(args))


def one_error_line(result) -> str:
    text = (result.stderr if hasattr(result, "stderr") and result.stderr else result.output).strip()
    lines = text.splitlines()
    assert len(lines) == 1, text
    return lines[0]


def test_rules_shows_the_defaults():
    result = run("rules", "vzhukh")
    assert result.exit_code == 0
    assert "10000" in result.output and "60" in result.output    # action_cap, joker_penalty


def test_strategies_shows_each_rationale():
    result = run("strategies", "vzhukh")
    assert result.exit_code == 0
    assert "Uniform" in result.output and "60" in result.output   # rationales, wrapped


def test_no_number_cards_is_one_line_and_exit_2():
    args = ["run", "vzhukh", "--games", "10"]
    for v in range(1, 11):
        args += ["-r", f"count_{v}=0"]
    result = run(*args)
    assert result.exit_code == 2
    assert "count_1 .. count_10" in one_error_line(result)


def test_deck_too_small_for_the_hands_is_one_line_and_exit_2():
    result = run("run", "vzhukh", "--strategies", ",".join(["random"] * 6), "--games", "10",
                 "-r", "hand_size=20")
    assert result.exit_code == 2
    assert "hand_size=20" in one_error_line(result)
