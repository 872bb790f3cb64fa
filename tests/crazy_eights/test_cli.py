"""The `simcards` command on Crazy Eights: its rule defaults, its strategies' rationales, and
the errors only Crazy Eights' rules can cause.

Listings, `run`, `replay`, and the one-line errors for unknown strategies, rule options, bad
rule values and player counts are the contract suite's (tests/contract/test_cli.py), with the
game's words in the golden playthrough (tests/contract/test_golden.py)."""
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
    result = run("rules", "crazy-eights")
    assert result.exit_code == 0
    assert "until_playable" in result.output and "reshuffle" in result.output


def test_strategies_shows_each_rationale():
    result = run("strategies", "crazy-eights")
    assert result.exit_code == 0
    assert "Uniform" in result.output and "eights" in result.output


def test_hands_too_big_for_the_deck_is_one_line_and_exit_2():
    result = run("run", "crazy-eights", "--strategies", ",".join(["random"] * 7), "--games", "10",
                 "-r", "hand_size=8")
    assert result.exit_code == 2
    assert "hand_size=8" in one_error_line(result)
