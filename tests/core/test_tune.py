"""simcards tune: trials on common deals, a check on fresh deals, and a tuned strategy that is
an alias file usable by name (simcards.params)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

import simcards
import simcards.rotation
from simcards.cli import app
from simcards.errors import SimcardsError
from simcards.run.designs import pool_lineups
from simcards.tune import TuneConfig, deal_scores, tune, write_results

runner = CliRunner()


def test_pool_lineups_give_every_member_the_same_share():
    lineups = pool_lineups(["a", "b", "c", "d", "e"], 4, lead="x")      # tune's: windows
    assert len(lineups) == 5 and all(u[0] == "x" for u in lineups)
    counts = pd.Series([s for u in lineups for s in u[1:]]).value_counts()
    assert set(counts) == {3}
    assert pool_lineups(["a"], 3, lead="x") == [("x", "a", "a")]
    assert pool_lineups(["a", "b", "c"], 3, lead="x") == [("x", "a", "b"), ("x", "b", "c"), ("x", "c", "a")]


def test_deal_scores_are_common_deals_net_of_seat():
    config = TuneConfig("five-alive", "expert", 3, ["random", "high_first"], seed=2)
    a = deal_scores(config, "expert", 600, 0)
    b = deal_scores(config, "expert:danger=2", 600, 0)          # the default, spelt out
    np.testing.assert_array_equal(a, b)
    # by hand: the rotated frame of the one line-up, the candidate's mean per deal
    frame = simcards.rotation.simulate_rotated("five-alive", ["expert", "random", "high_first"],
                                               len(a) * 6, 2)
    by_hand = frame[frame["strategy"] == "expert"].groupby("game")["win_share"].mean()
    np.testing.assert_allclose(a, by_hand.to_numpy())
    assert a.mean() > 1 / 3          # expert beats random and high_first


def test_tune_writes_a_strategy_usable_by_name(tmp_path):
    config = TuneConfig("five-alive", "expert", 3, ["random", "keep_zero"], trials=4, games=600,
                        check_games=1200, seed=1)
    result = tune(config)
    assert len(result.trials) == 4
    assert result.trials.loc[0, ["danger", "keep_zeros"]].tolist() == [2, 1]     # the default first
    assert result.trials["best_so_far"].is_monotonic_increasing
    c = result.comparison
    assert c.low <= c.diff <= c.high and c.tuned_rate - c.default_rate == pytest.approx(c.diff)
    files = write_results(result, tmp_path)
    assert all(f.exists() for f in files)
    alias = files[0]
    assert alias == tmp_path / "five_alive" / "expert_tuned.py"
    # the alias plays exactly its parameters, under its own name, with no new kernel
    tuned = simcards.simulate("five-alive", ["expert_tuned", "random", "keep_zero"], 300, seed=4,
                              strategy_dirs=[tmp_path])
    spelt = simcards.simulate("five-alive", [result.best_name, "random", "keep_zero"], 300, seed=4)
    assert tuned["strategy"].iloc[0] == "expert_tuned"
    np.testing.assert_array_equal(tuned["win_share"].to_numpy(), spelt["win_share"].to_numpy())
    # nothing overwritten without --force
    again = runner.invoke(app, ["tune", "five-alive", "expert", "--out", str(tmp_path), "--trials", "1"])
    assert again.exit_code == 2 and "exists: use --force" in again.output


@pytest.mark.parametrize("args,message", [
    (["tune", "five-alive", "random"], "has no run-time parameters to tune"),
    (["tune", "five-alive", "nope"], "unknown strategy 'nope'"),
    (["tune", "five-alive", "expert", "--pool", "expert:danger=99"], "bad value '99'"),
    (["tune", "five-alive", "expert", "--trials", "0"], "bad --trials 0"),
])
def test_tune_refuses_bad_input_before_playing(tmp_path, args, message):
    result = runner.invoke(app, args + ["--out", str(tmp_path / "t")])
    assert result.exit_code == 2 and message in result.output
    assert not (tmp_path / "t").exists()
