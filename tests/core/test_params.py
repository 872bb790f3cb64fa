"""Run-time strategy parameters (simcards.params): the syntax, the checks, the listing, and
that a value is a run-time input: it changes play, never the compiled kernel."""
from __future__ import annotations

import ast
import textwrap

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

import simcards
from simcards.batch import prepare
from simcards.cli import app
from simcards.errors import SimcardsError
from simcards.params import canonical, read_params, resolve, split

runner = CliRunner()


def _declared(text: str):
    return read_params(ast.parse(textwrap.dedent(text)))


def test_split_resolve_and_canonical_names():
    declared = _declared('''
        PARAMS = {"budget": (400, 1, 100_000, "rollouts"), "margin": (0.5, 0.0, 5.0, "s.e.")}
    ''')
    assert [p.integer for p in declared] == [True, False]
    assert split("search:budget=800: margin = 1.25") == ("search", {"budget": "800", "margin": "1.25"})
    name, row = resolve("search", declared, {"margin": "1.25"}, "search:margin=1.25")
    assert name == "search:margin=1.25" and row.tolist() == [400.0, 1.25]
    # a value equal to the default is left out of the canonical name
    assert resolve("search", declared, {"budget": "400"}, "search:budget=400")[0] == "search"
    assert canonical("search", declared, np.array([800.0, 0.5])) == "search:budget=800"


@pytest.mark.parametrize("text,message", [
    ("search:budget", "expected name:key=value"),
    ("search:budget=1:budget=2", "given twice"),
    ("search:budget=0", "bad value '0' for parameter 'budget'"),
    ("search:budget=2.5", "expected an integer 1..100000"),
    ("search:margin=nan", "expected a number 0..5"),
    ("search:depth=3", "unknown parameter 'depth'"),
])
def test_bad_parameters_raise_one_line(text, message):
    declared = _declared('PARAMS = {"budget": (400, 1, 100000, "r"), "margin": (0.5, 0.0, 5.0, "s")}')
    with pytest.raises(SimcardsError, match=message):
        name, given = split(text)
        resolve(name, declared, given, text)


@pytest.mark.parametrize("text", [
    'PARAMS = [("budget", 1)]',                       # not a dict
    'PARAMS = {"budget": (1, 2, 3)}',                 # no help
    'PARAMS = {"budget": (9, 1, 5, "above high")}',
    'PARAMS = {"budget": (N, 1, 5, "a name")}',       # listing reads literals only
])
def test_malformed_declarations_are_refused(text):
    with pytest.raises(ValueError):
        _declared(text)


def test_a_new_value_plays_differently_and_compiles_nothing():
    lineup = ["expert", "keep_zero", "high_first", "random"]
    default = prepare("five-alive", lineup, seed=3)
    tuned = prepare("five-alive", ["expert:danger=5:keep_zeros=0"] + lineup[1:], seed=3)
    assert tuned.kernel() is default.kernel()               # one compiled module for both
    assert tuned.strategies[0] == "expert:danger=5:keep_zeros=0"
    assert tuned.strategy_params[0, :2].tolist() == [5.0, 0.0]
    base = simcards.simulate("five-alive", lineup, 2000, seed=3)
    same = simcards.simulate("five-alive", ["expert:danger=2:keep_zeros=1"] + lineup[1:], 2000, seed=3)
    other = simcards.simulate("five-alive", ["expert:danger=5:keep_zeros=0"] + lineup[1:], 2000, seed=3)
    pd.testing.assert_frame_equal(base, same)                # the defaults, spelt out
    assert not base["win_share"].equals(other["win_share"])  # the values reach the strategy
    assert list(other["strategy"].cat.categories) == sorted(
        ["expert:danger=5:keep_zeros=0", "keep_zero", "high_first", "random"])


def test_two_seats_of_one_file_with_different_values():
    frame = simcards.simulate("five-alive", ["expert", "expert:danger=0"], 500, seed=1)
    assert set(frame["strategy"].unique()) == {"expert", "expert:danger=0"}


def test_cli_lists_parameters_and_refuses_bad_ones():
    listed = runner.invoke(app, ["strategies", "five-alive"], env={"COLUMNS": "250"})
    assert listed.exit_code == 0 and "danger=2" in listed.output and "0..9" in listed.output
    assert ":key=value" in runner.invoke(app, ["strategies", "--help"], env={"COLUMNS": "200"}).output
    bad = runner.invoke(app, ["run", "five-alive", "--strategies", "expert:danger=10,random", "--games", "5"])
    assert bad.exit_code == 2
    assert "bad value '10' for parameter 'danger' of strategy 'expert': expected an integer 0..9" in bad.output
