"""The designer's numbers (simcards.report.designer) on frames built by hand, the ``[seconds]``
experiment key, and the figures' rules: a constant is said, not drawn; an axis holds one unit."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from simcards.errors import SimcardsError
from simcards.report import designer
from simcards.report.experiment import parse_experiment

BASE = '''game = "{game}"
players = [{players}]
games = 10
{extra}
[lineups]
mirror = ["random"]
'''


def experiment(tmp_path, game="vzhukh", players="2", extra=""):
    text = BASE.format(game=game, players=players, extra=extra)
    path = tmp_path / "exp.toml"
    path.write_text(text)
    return parse_experiment(path, text)


def test_seconds_table_costs_each_column(tmp_path):
    exp = experiment(tmp_path, extra="seconds_per_turn = 6\n[seconds]\npasses = 2\ntakes_total = 15\nrounds = 30\n")
    assert exp.time_costs == {"actions": 6.0, "passes": 2.0, "takes_total": 15.0, "rounds": 30.0}
    assert exp.to_dict()["seconds"] == {"passes": 2.0, "takes_total": 15.0, "rounds": 30.0}
    assert experiment(tmp_path).time_costs == {"actions": 10.0}                # the default
    assert experiment(tmp_path, extra="[seconds]\nactions = 4\n").time_costs == {"actions": 4.0}


@pytest.mark.parametrize("extra,key,accepted", [
    ("[seconds]\nturns = 3\n", "'seconds.turns'", "rounds, actions, passes"),         # not Vzhukh's
    ("[seconds]\nunfinished = 3\n", "'seconds.unfinished'", "rounds, actions"),
    ("[seconds]\nrounds = -1\n", "'seconds.rounds'", "a number of seconds"),
    ("[seconds]\nrounds = \"slow\"\n", "'seconds.rounds'", "a number of seconds"),
    ("seconds_per_turn = 5\n[seconds]\nactions = 4\n", "'seconds.actions'", "one of seconds_per_turn"),
])
def test_seconds_table_errors(tmp_path, extra, key, accepted):
    with pytest.raises(SimcardsError) as exc:
        experiment(tmp_path, extra=extra)
    assert f"key {key}" in str(exc.value) and accepted in str(exc.value)


def frame(players: int, scores: list[list[float]], extra: dict | None = None, column: str = "penalty"):
    """A main-cell frame: one game per row of ``scores`` (one deal each), the lowest score wins
    (penalty) or the highest (points)."""
    rows = []
    for g, game in enumerate(scores):
        best = (min if column == "penalty" else max)(game)
        for seat, score in enumerate(game):
            row = {"cell": 0, "lineup": 0, "players": players, "game": g, "seat": seat, column: score,
                   "win_share": float(score == best), "unfinished": False}
            for k, v in (extra or {}).items():
                row[k] = v[g][seat] if isinstance(v[g], list) else v[g]
            rows.append(row)
    return pd.DataFrame(rows)


def test_closeness_on_the_games_own_scale(tmp_path):
    exp = experiment(tmp_path)
    games = [[10, 40, 50], [0, 30, 100], [20, 25, 60], [5, 105, 200]]
    c = designer.closeness(frame(3, games), exp)
    margins = np.array([30, 30, 5, 100], float)
    row = c.iloc[0]
    assert row["score"] == "penalty" and not row["higher_wins"]
    assert row["mean"] == pytest.approx(margins.mean()) and row["median"] == pytest.approx(30)
    assert row["p10"] == pytest.approx(np.quantile(margins, 0.1))
    # relative: the margin over the larger of the two scores (winner, best other)
    assert row["relative"] == pytest.approx(np.median([30 / 40, 30 / 30, 5 / 25, 100 / 105]))
    points = designer.closeness(frame(2, [[3, 7], [9, 1]], column="points"),
                                experiment(tmp_path, game="bombs-away"))
    assert points.iloc[0]["median"] == pytest.approx(6) and bool(points.iloc[0]["higher_wins"])


def test_the_early_leader_against_a_random_seat(tmp_path):
    exp = experiment(tmp_path)
    rounds = {f"penalty_round{r}": [[r1, r2] for r1, r2 in pairs]
              for r, pairs in ((1, [(0, 5), (5, 0), (0, 5), (1, 1)]), (2, [(0, 5), (5, 0), (9, 0), (0, 0)]),
                               (3, [(0, 0), (0, 0), (0, 0), (0, 0)]))}
    totals = [[0, 10], [10, 0], [9, 10], [1, 1]]
    f = frame(2, totals, rounds)
    f.loc[(f["game"] == 3), "win_share"] = 0.5                # a shared win: nobody wins outright
    lead = designer.leader_wins(f, exp)
    first = lead[lead["after"] == "round 1 of 3"].iloc[0]
    assert first["deals"] == 3 and first["mean"] == pytest.approx(1.0)      # game 3: no sole leader
    second = lead[lead["after"] == "round 2 of 3"].iloc[0]
    assert second["mean"] == pytest.approx(2 / 3)                           # game 2's leader lost
    assert first["baseline"] == pytest.approx((0.5 + 0.5 + 0.5 + 0) / 4)    # a seat at random, outright


def test_minutes_spread_from_every_costed_column(tmp_path):
    exp = experiment(tmp_path, extra="seconds_per_turn = 6\n[seconds]\ntakes_total = 30\n")
    games = [[1, 2]] * 10
    actions = list(range(100, 200, 10))
    f = frame(2, games, {"actions": actions, "takes_total": [2] * 10})
    per_game, table = designer.game_minutes(f, exp)
    minutes = (6 * np.array(actions) + 60) / 60
    assert per_game["minutes"].to_numpy() == pytest.approx(minutes)
    row = table.iloc[0]
    assert row["median"] == pytest.approx(np.median(minutes)) and row["p90"] == pytest.approx(np.quantile(minutes, 0.9))
    assert row["mean"] == pytest.approx(minutes.mean()) and row["ci_low"] < row["mean"] < row["ci_high"]


def test_card_effects_by_rank(tmp_path):
    exp = experiment(tmp_path, game="thirty-one")
    names = exp.spec.card_names
    nine = [i for i, n in enumerate(names) if designer.rank_of(n) == "9"]
    assert len(nine) == 4 and designer.rank_of("10♥") == "10"
    rng = np.random.default_rng(3)
    n = 400
    masks = np.zeros((n, 2), np.int64)
    for g in range(n):
        for seat in range(2):
            for kind in rng.choice(len(names), 3, replace=False):
                masks[g, seat] |= 1 << int(kind)
    has_nine = np.array([[any((m >> k) & 1 for k in nine) for m in row] for row in masks])
    # a seat holding a nine wins against one holding none; otherwise they share the win
    only = has_nine & ~has_nine[:, ::-1]
    wins = np.where(only, 1.0, np.where(only[:, ::-1], 0.0, 0.5))
    f = pd.DataFrame({"cell": 0, "lineup": 0, "players": 2, "game": np.repeat(np.arange(n), 2),
                      "seat": np.tile([0, 1], n), "dealt_mask": masks.ravel(), "win_share": wins.ravel()})
    ranks = designer.rank_effects(f, exp)
    assert list(ranks["card"]).count("9") == 1 and len(ranks) == len({designer.rank_of(x) for x in names})
    nine_row = ranks[ranks["card"] == "9"].iloc[0]
    assert nine_row["diff_pp"] > 30 and nine_row["significant"]
    assert designer.rank_effects(f, experiment(tmp_path, game="five-alive")) is None   # kinds are ranks


def test_plots_say_a_constant_and_keep_one_unit_an_axis(tmp_path):
    from types import SimpleNamespace

    from simcards.report import plots
    exp = experiment(tmp_path, players="2, 3", extra='[sweep]\noption = "hand_size"\nvalues = [4, 6]\n')
    lengths = pd.DataFrame({"part": "main", "players": [2, 2, 3, 3], "rounds": 3, "actions": [100, 120, 90, 95]})
    table = pd.DataFrame({"part": "main", "players": [2, 3, 2, 3], "column": ["rounds"] * 2 + ["actions"] * 2,
                          "mean": [3.0, 3.0, 110.0, 92.5], "max": [3.0, 3.0, 120.0, 95.0]})
    res = SimpleNamespace(lengths=lengths, length_table=table)
    assert plots.constant_lengths(res, "rounds") == {2: 3.0, 3: 3.0}
    assert plots.length_histograms(res, exp, tmp_path, "rounds") is None                 # five bars of 3: no
    assert plots.length_histograms(res, exp, tmp_path, "actions") == "length_actions.png"
    sweep = pd.DataFrame({"value": [4, 6, 4, 6], "players": 2, "group": "game length", "significant": True,
                          "measure": ["mean rounds"] * 2 + ["mean actions"] * 2,
                          "unit": ["rounds"] * 2 + ["actions"] * 2,
                          "effect": [0.0, 0.0, 20.0, -18.0], "ci_low": [0.0, 0.0, 19.0, -19.0],
                          "ci_high": [0.0, 0.0, 21.0, -17.0]})
    assert plots.constant_sweep_measures(sweep) == ["mean rounds"]
    panels = plots._panels(sweep)
    assert [key[2] for key, _ in panels] == ["actions"]                  # one unit a panel, no constant
