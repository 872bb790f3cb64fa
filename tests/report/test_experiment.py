"""Experiment files: validation errors name the file, the key and what is accepted; line-up design."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pandas as pd
import pytest

from simcards.errors import SimcardsError
from simcards.report.analysis import pairwise, seat_rates, strategy_rates
from simcards.report.experiment import load_experiment, rotations
from simcards.run.designs import pool_lineups

BASE = '''game = "five-alive"
players = [3]
games = 10
[lineups]
pool = ["high_first", "random"]
'''


def error(tmp_path, text, name="bad"):
    path = tmp_path / f"{name}.toml"
    path.write_text(text)
    with pytest.raises(SimcardsError) as exc:
        load_experiment(path)
    message = str(exc.value)
    assert "\n" not in message
    assert str(path) in message
    return message


@pytest.mark.parametrize("text,key,accepted", [
    (BASE.replace("games = 10", "games = 10\ncolour = 1"), "'colour'", "game, title"),
    (BASE.replace("[lineups]", "[lineups]\nshuffle = true"), "'lineups.shuffle'", "mirror, pool, explicit"),
    (BASE.replace("games = 10", 'games = "many"'), "'games'", "an integer 1.."),
    (BASE.replace("games = 10", "games = true"), "'games'", "an integer 1.."),
    (BASE.replace("players = [3]", "players = [3, 9]"), "'players'", "integers 2..7"),
    (BASE.replace('"random"]', '"randm"]'), "'lineups.pool[1]'", "high_first"),
    (BASE + "[rules]\nlivez = 3\n", "'rules.livez'", "edition, lives, hand_size"),
    (BASE + "[rules]\nlives = \"three\"\n", "'rules.lives'", "an integer 1..99"),
    (BASE + "[rules]\nedition = \"french\"\n", "'rules.edition'", "standard, russian"),
    (BASE.replace("games = 10", "games = 10\nprecision = 2"), "'precision'", "a number between 0 and 0.5"),
    (BASE + "[sweep]\noption = \"lifes\"\nvalues = [1, 2]\n", "'sweep.option'", "edition, lives"),
    (BASE + "[sweep]\noption = \"lives\"\nvalues = [1, \"x\"]\n", "'sweep.values[1]'", "an integer 1..99"),
    (BASE + "[sweep]\noption = \"hand_size\"\nvalues = [10, 30]\n", "'sweep.values (value 30)'",
     "rules playable"),
    (BASE.replace('pool = ["high_first", "random"]', 'explicit = [["random"]]'),
     "'lineups.explicit[0]'", "2..7 strategies"),
    ('players = [3]\n[lineups]\npool = "all"\n', "'game'", "a game name"),
    ('game = "six-alive"\nplayers = [3]\n[lineups]\npool = "all"\n', "'game'", "five-alive"),
])
def test_validation_errors(tmp_path, text, key, accepted):
    message = error(tmp_path, text)
    assert f"key {key}" in message
    assert "accepted: " in message and accepted in message


def test_not_toml(tmp_path):
    assert "not valid TOML" in error(tmp_path, "game = \n")


def test_missing_file(tmp_path):
    with pytest.raises(SimcardsError, match="not found"):
        load_experiment(tmp_path / "nothing.toml")


def test_resolved_cells(tmp_path):
    path = tmp_path / "ok.toml"
    path.write_text(BASE + '[rules]\nlives = 4\n[sweep]\noption = "lives"\nvalues = [2, 6]\nplayers = [2]\n')
    exp = load_experiment(path)
    assert [(c.part, c.players, c.sweep_value) for c in exp.cells] == [
        ("main", 3, None), ("sweep", 2, 2), ("sweep", 2, 6), ("sweep", 2, 4)]  # 4: the baseline at 2
    assert exp.cells[0].rules["lives"] == 4 and exp.cells[2].rules["lives"] == 6
    assert exp.cells[0].rules["count_killer"] == 1          # every option resolved
    assert exp.strategies == ("high_first", "random")


@pytest.mark.parametrize("pool,n", [(("a", "b"), 3), (("a", "b"), 4), (("a", "b", "c", "d"), 3),
                                    (("a", "b", "c"), 3), (("a", "b", "c"), 7)])
def test_pool_lineups_balanced_over_seats(pool, n):
    lineups = [seated for drawn in pool_lineups(pool, n) for seated in rotations(drawn)]   # a report's
    for name in pool:   # every strategy equally often in every seat
        counts = Counter(seat for lineup in lineups for seat, s in enumerate(lineup) if s == name)
        assert len(counts) == n and len(set(counts.values())) == 1


def test_rotations_are_every_distinct_order_up_to_four():
    assert rotations(("a", "b", "a", "b")) == [("a", "b", "a", "b"), ("a", "b", "b", "a"), ("a", "a", "b", "b"),
                                               ("b", "a", "a", "b"), ("b", "a", "b", "a"), ("b", "b", "a", "a")]


def _synthetic(exp, games, seat0_wins):
    """AB and BA on the same deals; seat 0 wins where seat0_wins[g] else seat 1."""
    rows = []
    for lineup, seats in enumerate(exp.cells[0].lineups):
        for g in range(games):
            winner = 0 if seat0_wins[g] else 1
            for seat, name in enumerate(seats):
                rows.append({"cell": 0, "players": 2, "lineup": lineup, "game": g, "seat": seat,
                             "strategy": name, "win_share": float(seat == winner),
                             "rank": 1 if seat == winner else 2})
    frame = pd.DataFrame(rows)
    frame["strategy"] = frame["strategy"].astype("category")
    return frame


def test_common_random_numbers_cancel_a_seat_effect(tmp_path):
    """Rotated line-ups on the same deals: the deal decides the seat, both strategies get it once."""
    path = tmp_path / "crn.toml"
    path.write_text('game = "five-alive"\n[lineups]\nexplicit = [["high_first", "random"]]\n')
    exp = load_experiment(path)
    assert exp.cells[0].lineups == (("high_first", "random"), ("random", "high_first"))
    seat0 = np.random.default_rng(1).random(200) < 0.7
    frame = _synthetic(exp, 200, seat0)
    pairs = pairwise(frame, exp)
    row = pairs.iloc[0]
    assert row["diff_pp"] == 0 and row["var_crn"] == 0
    # without common deals each line-up's half-difference (+-1/2) would vary on its own
    var_one = np.var(np.where(seat0, 0.5, -0.5), ddof=1)
    assert row["var_independent"] == pytest.approx(2 * var_one)
    assert row["crn_saving"] == 1.0
    seats = seat_rates(frame, exp)
    assert seats.loc[seats["seat"] == 0, "win_rate"].iloc[0] == pytest.approx(seat0.mean())
    rates = strategy_rates(frame, exp)
    assert list(rates["win_rate"]) == [0.5, 0.5]


def test_holm_correction_on_report_pairs(tmp_path):
    path = tmp_path / "holm.toml"
    path.write_text('game = "five-alive"\nplayers = [2, 3, 4]\n[lineups]\npool = ["high_first", "random"]\n')
    exp = load_experiment(path)
    rng = np.random.default_rng(2)
    rows = []
    lineup = 0
    for cell, strength in zip(exp.cells, (1.0, 1.15, 1.6)):
        for seats in cell.lineups:
            weights = np.array([strength if s == "high_first" else 1.0 for s in seats])
            for g in range(300):
                winner = rng.choice(len(seats), p=weights / weights.sum())
                for seat, name in enumerate(seats):
                    rows.append({"cell": cell.id, "players": cell.players, "lineup": lineup, "game": g,
                                 "seat": seat, "strategy": name, "win_share": float(seat == winner),
                                 "rank": 1 + int(seat != winner)})
            lineup += 1
    pairs = pairwise(pd.DataFrame(rows), exp)
    assert len(pairs) == 3
    p = pairs["p_value"].to_numpy()
    order = np.argsort(p)
    m = len(p)
    holm = np.empty(m)
    holm[order] = np.minimum(1, np.maximum.accumulate((m - np.arange(m)) * p[order]))
    assert pairs["p_holm"].to_numpy() == pytest.approx(holm)
    assert list(pairs["significant"]) == list(holm < 0.05)
