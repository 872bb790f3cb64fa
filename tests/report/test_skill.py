"""The skill index of balance reports (simcards.report.skill)."""
from __future__ import annotations

import numpy as np
import pytest

from simcards.errors import SimcardsError
from simcards.report.experiment import parse_experiment
from simcards.report.skill import (SEARCH_DEALS, decompose, oracle_players, oracle_table, play_oracle,
                                   play_skill, skill_deals, skill_strategy, skill_table, variance_share)

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


# ---------------------------------------------------------------- the information ceiling

def test_the_decomposition_by_hand():
    # 4 players, fair share 1/4: search wins 1/2 (odds 1, theta = log 3), the oracle 3/4
    # (theta = log 9): relative skill log 3 / log 9 = 1/2; of the oracle's headroom 3/4 above
    # the fair share, skill takes 1/4, hidden information 1/4, luck 1/4: a third each
    d = decompose(0.5, 0.75, 0.25, 4)
    assert d["learning"] == pytest.approx(np.log(3)) and d["information"] == pytest.approx(np.log(3))
    assert d["relative_skill"] == pytest.approx(0.5)
    for key in ("skill_share", "information_share", "luck_share"):
        assert d[key] == pytest.approx(1 / 3)
    # the shares always sum to one, whatever the win rates (fair share net of unfinished games)
    s, o = np.array([0.3, 0.6, 0.2]), np.array([0.5, 0.55, 0.9])
    parts = decompose(s, o, 0.9 / 3, 3)
    assert parts["skill_share"] + parts["information_share"] + parts["luck_share"] == pytest.approx(np.ones(3))
    # seeing the cards adds nothing: relative skill 1; an oracle no better than random: undefined;
    # an oracle that won every deal has an infinite log-odds estimate: the ratio says nothing
    # (undefined), while the shares still split the win rates
    assert decompose(0.6, 0.6, 0.5, 2)["relative_skill"] == pytest.approx(1.0)
    assert np.isnan(decompose(0.4, 0.5, 0.5, 2)["relative_skill"])
    perfect = decompose(0.7, 1.0, 0.5, 2)
    assert np.isnan(perfect["relative_skill"]) and np.isnan(decompose(1.0, 1.0, 0.5, 2)["relative_skill"])
    assert (perfect["skill_share"], perfect["information_share"], perfect["luck_share"]) == \
        pytest.approx((0.4, 0.6, 0.0))


def _ceiling_games(search_wins, oracle_wins, players=2):
    """A skill-games frame for oracle_table: deal g's strong seat wins search_wins[g] (search)
    and oracle_wins[g] (oracle), in each of its ``players`` seat orders."""
    rows = []
    for who, wins in (("search", search_wins), ("oracle", oracle_wins)):
        for g, w in enumerate(wins):
            for order in range(players):
                for seat in range(players):
                    strong = seat == order
                    rows.append({"player": who, "players": players, "order": order, "game": g, "seat": seat,
                                 "strong": strong, "win_share": float(w if strong else (1 - w) / (players - 1)),
                                 "unfinished": False})
    import pandas as pd
    return pd.DataFrame(rows)


def test_the_ceiling_table_is_paired_and_reproducible(tmp_path):
    exp = _exp(tmp_path, "[skill]\noracle_deals = 40\noracle_budget = 30\n")
    assert (exp.oracle_deals, exp.oracle_budget) == (40, 30)
    assert oracle_players(exp) == ("search:budget=30", "search:budget=30:oracle=1")
    rng = np.random.default_rng(5)
    search_wins = (rng.random(300) < 0.6).astype(float)
    # the oracle wins every deal search won, and a third of the others: paired, information > 0
    oracle_wins = np.maximum(search_wins, (rng.random(300) < 1 / 3).astype(float))
    games = _ceiling_games(search_wins, oracle_wins)
    t = oracle_table(games, exp)
    r = t.iloc[0]
    assert r["search_win_rate"] == pytest.approx(search_wins.mean())
    assert r["oracle_win_rate"] == pytest.approx(oracle_wins.mean())
    point = decompose(search_wins.mean(), oracle_wins.mean(), 0.5, 2)
    for key, value in point.items():
        assert r[key] == pytest.approx(float(value))
        assert r[f"{key}_low"] <= r[key] <= r[f"{key}_high"]
    # paired: the information share's interval is far narrower than two independent samples'
    # (the oracle's gain is 0 or positive on every deal, so its interval stays above 0)
    assert r["information_share_low"] > 0
    assert oracle_table(games, exp).equals(t), "the bootstrap is seeded by the experiment"


def test_the_ceiling_keys(tmp_path):
    assert _exp(tmp_path).oracle_deals == 0 and oracle_players(_exp(tmp_path)) is None
    exp = _exp(tmp_path, '[skill]\nplayer = "keep_zero"\noracle_deals = 10\n')
    assert skill_strategy(exp) == "keep_zero" and exp.oracle_budget == 100
    assert oracle_players(_exp(tmp_path, "[skill]\nplayer = false\noracle_deals = 10\n")) is None
    with pytest.raises(SimcardsError, match="skill.oracle_deals"):
        _exp(tmp_path, "[skill]\noracle_deals = -1\n")
    with pytest.raises(SimcardsError, match="skill.nope"):
        _exp(tmp_path, "[skill]\nnope = 1\n")


def test_the_oracle_games_are_search_and_its_oracle_on_the_same_deals(tmp_path):
    exp = _exp(tmp_path, "[skill]\noracle_deals = 12\noracle_budget = 20\n")
    games = play_oracle(exp)
    for (who, n), part in games.groupby(["player", "players"]):
        assert part.groupby(["order", "game"]).ngroups == n * exp.oracle_deals
        assert sorted(part[part["strong"]]["seat"].value_counts()) == [exp.oracle_deals] * n
    deals = games.groupby("player")["game"].agg(lambda g: tuple(sorted(set(g))))
    assert deals["search"] == deals["oracle"]
    assert oracle_table(games, exp)["deals"].tolist() == [12, 12]
