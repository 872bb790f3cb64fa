"""simcards.simulate and summarize on Five Alive: what the rules make of a frame.

Frame columns, win shares, determinism over threads, chunks and start indices, and the
one-line errors for bad input are the contract suite's (tests/contract/test_determinism.py,
tests/contract/test_cli.py, tests/core/test_bad_inputs.py)."""
import pandas as pd
import pytest
from statsmodels.stats.proportion import proportion_confint

import simcards
from simcards.errors import SimcardsError

LINEUP = ["high_first", "random", "keep_zero", "random"]


@pytest.fixture(scope="module")
def frame():
    return simcards.simulate("five-alive", LINEUP, 3_000, seed=42)


def test_the_one_survivor_wins_and_ranks_first(frame):
    assert frame["strategy"].tolist()[:4] == LINEUP
    assert (frame.loc[frame["win_share"] > 0, "rank"] == 1).all()
    assert frame.groupby("game")["lives"].apply(lambda s: (s > 0).sum()).max() == 1  # one survivor


def test_summary_uses_wilson_intervals(frame):
    # game-independent; not yet in tests/core (summarize's intervals are checked nowhere else)
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


# Game-independent API errors that neither tests/core/test_bad_inputs.py nor the contract suite
# (which checks the command line) has yet: move them to test_bad_inputs.API_CASES.
@pytest.mark.parametrize("args, words", [
    (("five-alive", ["random"], 10), ["2 to 7", "not 1"]),
    (("five-alive", ["random"] * 8, 10), ["2 to 7", "not 8"]),
    (("five-alive", ["random", "psychic"], 10), ["'psychic'", "high_first"]),
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


def test_a_kernel_for_a_wider_pool_plays_the_same_games(frame):
    """``kernel_strategies``: the line-up runs on a kernel compiled for every strategy of the
    game (the contract suite's), and plays what its own kernel played; only the strategy
    column's categories widen to the pool."""
    pool = simcards.list_strategies("five-alive")
    wide = simcards.simulate("five-alive", LINEUP, 300, seed=42, kernel_strategies=pool)
    assert list(wide["strategy"].cat.categories) == sorted(set(pool) | set(LINEUP))
    own = frame[frame["game"] < 300].reset_index(drop=True)
    assert (wide["strategy"].astype(str) == own["strategy"].astype(str)).all()
    pd.testing.assert_frame_equal(wide.drop(columns="strategy"), own.drop(columns="strategy"))
