"""When players go out (simcards.report.elimination): the turns read from replayed games agree
with the engines' own finishing places, and the median's interval covers."""
from __future__ import annotations

import importlib

import numpy as np
import pytest

from simcards.report.elimination import GAMES, elimination_table, median_interval, seat_out_turns

LINEUPS = {"five-alive": ["expert", "keep_zero", "random", "expert"],
           "bombs-away": ["duelist", "sniper", "keeper", "random"]}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_out_turns_agree_with_the_engines_places(game, shared):
    import simcards
    spec = simcards.get_game(game)
    fields = GAMES[game]
    view = importlib.import_module(fields.view)
    turns_column = list(spec.game_columns).index("turns")
    seen = 0
    for g in range(12):
        rec = shared.record(game, LINEUPS[game], 11, g)
        if rec.game_row[list(spec.game_columns).index("unfinished")]:
            continue
        outs = seat_out_turns(rec, fields, view, tuple(spec.seat_columns), turns_column)
        rank = rec.seats[:, 1]
        winners = {p for p in range(len(rank)) if rec.seats[p, 0] == 1}
        # every seat but the winner went out (no blitz here), none after the game's last turn,
        # and the last one on it
        assert set(outs) == set(range(len(rank))) - winners
        assert max(outs.values()) == rec.game_row[turns_column]
        # a seat that went out later never finished below one that went out earlier
        for p, tp in outs.items():
            for q, tq in outs.items():
                if tp < tq:
                    assert rank[p] >= rank[q], (g, outs, rank.tolist())
        seen += 1
    assert seen >= 8


def test_the_median_interval_covers_at_its_level():
    rng = np.random.default_rng(9)
    for m in (5, 40, 200):
        lo, hi = median_interval(np.arange(m, dtype=float))
        assert lo <= np.median(np.arange(m)) <= hi
    # coverage over many samples of a skewed distribution whose median is log 2
    hits = 0
    for _ in range(2000):
        lo, hi = median_interval(rng.exponential(size=60))
        hits += lo <= np.log(2) <= hi
    assert 0.94 <= hits / 2000 <= 0.985      # order statistics: at least 95%, a little above
    assert median_interval(np.array([3.0])) == (3.0, 3.0)


def test_the_table_by_place():
    import pandas as pd
    outs = pd.DataFrame({"players": [3] * 6, "lineup": ["expert"] * 6, "game": [0, 0, 1, 1, 2, 2],
                         "place": [1, 2] * 3, "turn": [10, 30, 20, 40, 30, 50], "game_turns": [30, 30, 40, 40, 50, 50]})
    outs.attrs["deals"] = {3: 3}
    t = elimination_table(outs)
    assert t["place"].tolist() == [1, 2] and t["median"].tolist() == [20.0, 40.0]
    assert t["games"].tolist() == [3, 3] and t["deals"].tolist() == [3, 3]
    assert t.loc[0, "p10"] == pytest.approx(12.0) and t.loc[1, "p90"] == pytest.approx(48.0)
