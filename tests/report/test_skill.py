"""The skill index of balance reports (simcards.report.skill)."""
from __future__ import annotations

import numpy as np
import pytest

from simcards.errors import SimcardsError
from simcards.report.experiment import parse_experiment
from simcards.report.skill import (SEARCH_DEALS, play_skill, skill_deals, skill_strategy, skill_table,
                                   variance_share)

EXPERIMENT = '''
game = "five-alive"
seed = 3
players = [2, 3]
games = 80
{skill}
[lineups]
mirror = ["expert", "random"]
'''


def _exp(tmp_path, skill: str = ""):
    path = tmp_path / "experiments" / "small.toml"
    path.parent.mkdir(exist_ok=True)
    text = EXPERIMENT.format(skill=skill)
    path.write_text(text)
    return parse_experiment(path, text)


def test_variance_share_known_values():
    # the strong seat always wins, the others never: who plays explains everything
    assert variance_share(np.array([1.0, 0, 0, 1, 0, 0]), np.array([1, 0, 0, 1, 0, 0], bool)) == 1.0
    # the same outcomes whoever plays: nothing
    assert variance_share(np.array([1.0, 0, 1, 0]), np.array([1, 0, 0, 1], bool)) == 0.0
    # by hand: groups {1, 0} and {0.5, 0.5, 0, 0}; mean 1/3; between 2(1/2-1/3)^2 + 4(1/4-1/3)^2
    y = np.array([1, 0, 0.5, 0.5, 0, 0])
    strong = np.array([1, 1, 0, 0, 0, 0], bool)
    between = 2 * (0.5 - 1 / 3) ** 2 + 4 * (0.25 - 1 / 3) ** 2
    assert variance_share(y, strong) == pytest.approx(between / ((y - y.mean()) ** 2).sum())


def test_skill_games_put_the_strong_player_in_every_seat(tmp_path):
    exp = _exp(tmp_path, 'skill = "expert"')
    assert skill_strategy(exp) == "expert"
    games = play_skill(exp)
    for n, part in games.groupby("players"):
        assert part.groupby(["order", "game"]).ngroups == n * exp.games       # n seat orders per deal
        strong = part[part["strong"]]
        assert sorted(strong["seat"].value_counts()) == [exp.games] * n      # each seat equally often
    table = skill_table(games, exp, [])
    two = games[(games["players"] == 2) & games["strong"]]
    assert table.loc[0, "win_rate"] == pytest.approx(two.groupby("game")["win_share"].mean().mean())
    assert (table["win_rate"] > table["fair_share"]).all()       # expert beats random players
    assert (table["ci_low"] <= table["win_rate"]).all() and (table["win_rate"] <= table["ci_high"]).all()


def test_skill_key(tmp_path):
    auto = _exp(tmp_path)
    # the strongest heuristic mirror, not search (a compiled heuristic plays as many deals as
    # the verdicts in seconds); search when named
    assert skill_strategy(auto) == [m for m in auto.mirror if m != "random"][0] != "search"
    assert skill_deals(auto, "search") == min(auto.games, SEARCH_DEALS)
    assert skill_deals(auto, "expert") == auto.games
    assert skill_strategy(_exp(tmp_path, "skill = false")) is None
    assert skill_strategy(_exp(tmp_path, 'skill = "keep_zero"')) == "keep_zero"
    with pytest.raises(SimcardsError, match="key 'skill': unknown strategy 'nope'"):
        _exp(tmp_path, 'skill = "nope"')
    with pytest.raises(SimcardsError, match="key 'skill': bad value 3"):
        _exp(tmp_path, 'skill = 3')
    assert skill_strategy(_exp(tmp_path, 'skill = "search:budget=50"')) == "search:budget=50"
