"""The simcards command on Bombs Away: its rule defaults.

Listings, `run`, `replay`, and the one-line errors for unknown strategies, rule options, bad
rule values and player counts are the contract suite's (tests/contract/test_cli.py), with
the game's words in the golden playthrough (tests/contract/test_golden.py); out-of-range and
bad choice values are tests/core's (test_options.py, test_bad_inputs.py)."""
from typer.testing import CliRunner

from simcards.cli import app


def test_rules_shows_the_defaults():
    result = CliRunner().invoke(app, ["rules", "bombs-away"])
    assert result.exit_code == 0
    for word in ("30", "next", "5000"):     # points, duel_victim, turn_cap
        assert word in result.output
