"""simcards.simulate and summarize: shape, determinism, errors."""
import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.proportion import proportion_confint

import simcards
from simcards.errors import SimcardsError

LINEUP = ["high_first", "random", "keep_zero", "random"]


@pytest.fixture(scope="module")
def frame():
    return simcards.simulate("five-alive", LINEUP, 3_000, seed=42)


def test_frame_is_tidy(frame):
    assert len(frame) == 3_000 * 4
    for col in ["game", "seat", "strategy", "win_share", "rank", "lives", "rounds", "turns", "busts",
                "unfinished", "dealt_mask"]:
        assert col in frame
    assert frame["strategy"].tolist()[:4] == LINEUP
    shares = frame.groupby("game")["win_share"].sum()
    finished = ~frame.groupby("game")["unfinished"].first()
    assert np.allclose(shares[finished], 1.0)
    assert (frame.loc[frame["win_share"] > 0, "rank"] == 1).all()
    assert frame.groupby("game")["lives"].apply(lambda s: (s > 0).sum()).max() == 1  # one survivor


def test_same_seed_same_frame_for_any_split_and_threads(frame):
    for threads, chunk in [(1, 3_000), (2, 7), (2, 1_000), (1, 333)]:
        other = simcards.simulate("five-alive", LINEUP, 3_000, seed=42, threads=threads, chunk_size=chunk)
        pd.testing.assert_frame_equal(frame, other)


def test_a_range_of_games_equals_the_same_rows_of_a_longer_run(frame):
    part = simcards.simulate("five-alive", LINEUP, 500, seed=42, start=1_000)
    whole = frame[frame["game"].between(1_000, 1_499)].reset_index(drop=True)
    pd.testing.assert_frame_equal(part, whole, check_categorical=False)


def test_other_seed_other_games(frame):
    other = simcards.simulate("five-alive", LINEUP, 3_000, seed=43)
    assert not frame["turns"].equals(other["turns"])


def test_summary_uses_wilson_intervals(frame):
    summary = simcards.summarize(frame)
    row = summary[(summary.scope == "seat") & (summary.name == "0")].iloc[0]
    wins = frame.loc[frame.seat == 0, "win_share"].sum()
    low, high = proportion_confint(wins, 3_000, alpha=0.05, method="wilson")
    assert row.ci_low == pytest.approx(low) and row.ci_high == pytest.approx(high)
    rnd = summary[(summary.scope == "strategy") & (summary.name == "random")].iloc[0]
    per_game = frame[frame.strategy == "random"].groupby("game")["win_share"].mean()
    assert rnd.games == 3_000 and rnd.win_rate == pytest.approx(per_game.mean())


def test_rules_change_the_game():
    short = simcards.simulate("five-alive", ["high_first"] * 3, 300, seed=1, rules={"lives": 1})
    long = simcards.simulate("five-alive", ["high_first"] * 3, 300, seed=1, rules={"lives": 7})
    assert short["rounds"].mean() < long["rounds"].mean()
    blitz = simcards.simulate("five-alive", ["high_first"] * 3, 300, seed=1,
                              rules={"blitz": True, "edition": "russian"})
    assert blitz.attrs["rules"]["blitz"] is True and blitz.attrs["rules"]["count_life"] == 2


def test_turn_cap_marks_unfinished_games():
    frame = simcards.simulate("five-alive", ["high_first"] * 4, 50, seed=1, rules={"turn_cap": 30})
    assert frame["unfinished"].all() and (frame["win_share"] == 0).all() and (frame["turns"] == 30).all()


@pytest.mark.parametrize("args, words", [
    (("chess", ["random"] * 2, 10), ["'chess'", "five-alive"]),
    (("five-alive", ["random"], 10), ["2 to 7", "not 1"]),
    (("five-alive", ["random"] * 8, 10), ["2 to 7", "not 8"]),
    (("five-alive", ["random", "psychic"], 10), ["'psychic'", "high_first"]),
    (("five-alive", ["random"] * 2, 0), ["0", "positive"]),
])
def test_bad_input_is_one_line(args, words):
    with pytest.raises(SimcardsError) as info:
        simcards.simulate(*args)
    assert "\n" not in str(info.value)
    for w in words:
        assert w in str(info.value)


def test_bad_seed():
    with pytest.raises(SimcardsError, match="bad seed -1"):
        simcards.simulate("five-alive", ["random"] * 2, 5, seed=-1)
