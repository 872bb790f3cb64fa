"""The balance verdict row by row, the sequential rounds that decide it, and the numbers run prints."""
from __future__ import annotations

import json
import types

import numpy as np
import pandas as pd
import pytest

from simcards.report.analysis import layouts, seat_table
from simcards.report.experiment import MAIN, Cell, parse_experiment
from simcards.report.inference import BALANCED, UNBALANCED, UNDECIDED, Moments, evaluate, verdict_text

from .conftest import TINY, write


def _cell_moments(players: int, wins: list[int], deals: int, unfinished: int = 0) -> Moments:
    """Moments of a mirror line-up's deals from its win counts (one game a deal, one winner)."""
    n = players
    total = np.r_[np.asarray(wins, float), deals - unfinished]
    cross = np.zeros((n + 1, n + 1))
    cross[np.arange(n), np.arange(n)] = wins
    cross[:n, n] = cross[n, :n] = wins
    cross[n, n] = deals - unfinished
    return Moments(deals, total, cross)


def _family(rows: list[tuple[int, list[int], int]]):
    cells = [Cell(i, MAIN, n, {}, (("m",) * n,), (True,)) for i, (n, _, _) in enumerate(rows)]
    exp = types.SimpleNamespace(cells=cells)
    moments = {i: _cell_moments(n, w, d) for i, (n, w, d) in enumerate(rows)}
    return moments, layouts(exp), seat_table(moments, exp)


def test_a_verdict_row_names_the_seat_that_decides_it():
    """Seat 1 of 3 players wins 6.4 points over its fair share, seat 0 only 0.5: the row is
    unbalanced by seat 1, and its record carries seat 1's edge and interval, not seat 0's."""
    deals = 40_000
    share = np.array([1 / 3 + 0.005, 1 / 3 + 0.064, 1 / 3 - 0.069])
    moments, lay, seats = _family([(3, list(np.rint(share * deals).astype(int)), deals),
                                   (2, [20_100, 19_900], deals)])
    found, tests = evaluate(seats, moments, lay, 0.02)
    v = found[0]
    assert v.verdict == UNBALANCED and v.worst_seat == 2 and v.decided_by == "holm"
    assert v.worst_edge == pytest.approx(-0.069, abs=1e-4)
    row = seats[(seats["cell"] == 0) & (seats["seat"] == 2)].iloc[0]
    assert (v.worst_low, v.worst_high) == (row["edge_low"], row["edge_high"])
    assert v.decision_low < v.worst_low and v.decision_level > 0.95    # Holm's level, wider
    assert v.first_edge == pytest.approx(0.005, abs=1e-4)               # seat 0 kept apart
    assert "seat 2 disfavoured by 6.90 points" in verdict_text(v, 0.02)
    assert found[1].verdict == BALANCED and found[1].decided_by == "tost"
    assert set(tests["state"]) <= {"inside", "outside", "open"}


def test_an_undecided_row_says_why():
    deals = 3000
    moments, lay, seats = _family([(2, [1560, 1440], deals)])     # +2.0 points: on the tolerance
    found, _ = evaluate(seats, moments, lay, 0.02, capped={0: "games"})
    v = found[0]
    assert v.verdict == UNDECIDED and v.capped == "games"
    assert v.reason.startswith("cap reached (max_games): seat ")
    assert "of the ±2.0-point tolerance after 3,000 deals" in v.reason
    assert "no number of deals" in v.reason or "more deals would decide it with 80% power" in v.reason
    assert verdict_text(v, 0.02).startswith("undecided: cap reached")


SEQUENTIAL = TINY.replace("looks = 1", "looks = 3\nmax_games = 3000").replace("games = 150", "games = 200") \
    .split("[sweep]")[0].replace("players = [2, 3]", "players = [2]").replace('skill = "high_first"', "skill = false")


def test_the_sequential_verdict_plays_deals_until_decided_or_capped(tmp_path):
    """Two looks at most past the first: the undecided player count plays more deals (the verdict's
    line-ups only, as moments: the frame keeps its 200 deals), every look at alpha / 3, and a row
    left undecided at the cap says so."""
    from simcards.report.run import play, resolved_config
    exp = parse_experiment(write(tmp_path, "seq", SEQUENTIAL), SEQUENTIAL)
    run = play(exp, threads=2)
    assert run.games == {0: 200} and run.frame["game"].max() == 199
    s = run.sampling
    assert s is not None and s.alpha_look == pytest.approx(0.05 / 3) and 1 <= s.looks_taken <= 3
    assert run.verdict_deals[0] > 200 and run.verdict_deals[0] <= 3000
    assert run.verdict_extra[0].n == run.verdict_deals[0] - 200
    from simcards.report.results import analyse
    res = analyse(run.frame, exp, extra=run.verdict_extra, sampling=s)
    assert {v.deals for v in res.verdicts} == {run.verdict_deals[0]}
    seats = res.seats[res.seats["cell"] == 0]
    assert (seats["games"] == run.verdict_deals[0]).all()
    for v in res.verdicts:
        assert v.alpha == pytest.approx(0.05 / 3)
        if v.verdict == UNDECIDED:
            assert v.reason and v.capped in ("games", "looks")
    config = resolved_config(run, {})
    assert config["sequential"]["looks_taken"] == s.looks_taken
    assert config["sequential"]["deals_per_lineup"]["0"] == run.verdict_deals[0]
    json.dumps(config["sequential"])


def test_a_rotated_run_of_a_few_games_prints_no_point_interval():
    """A rotated run of 2 deals in 6 seat orders: high_first won once in every deal (1/6, all
    deals alike) and seat 0 never: the rotated summary gives the exact interval of 2 deals, and a
    strategy in 5 seats (random) stays within its 1/5 bound."""
    from simcards.stats import summarize
    lineup = ["high_first"] + ["random"] * 5
    rows = []
    for order in range(6):
        seating = lineup[-order:] + lineup[:-order] if order else lineup
        for g in range(2):
            winner = (order + g) % 6 or 1
            for s in range(6):
                rows.append({"order": order, "game": g, "seat": s, "strategy": seating[s],
                             "win_share": float(s == winner), "unfinished": False})
    frame = pd.DataFrame(rows).astype({"strategy": "category", "order": np.int8})
    frame.attrs["strategies"] = lineup
    out = summarize(frame).set_index(["scope", "name"])
    for key, row in out.iterrows():
        assert row["ci_high"] - row["ci_low"] > 0.05, key
        assert row["ci_low"] <= row["win_rate"] <= row["ci_high"], key
    assert out.loc[("strategy", "random"), "ci_high"] <= 0.2 + 1e-12
    assert out.loc[("seat", "0"), "win_rate"] == 0 and out.loc[("seat", "0"), "ci_high"] > 0.3


def test_fixed_seat_summary_bounds_a_strategy_by_its_seats_and_nets_unfinished_games():
    from simcards.stats import summary_rows
    out = summary_rows(["a", "b"], [0.24, 0.2], [1000, 1000], [0, 1, 2], [240, 380, 380], [1000] * 3, 3,
                       held=[1, 2], unfinished=0.1).set_index(["scope", "name"])
    assert out.loc[("strategy", "b"), "ci_high"] <= 0.5
    assert out["fair_share"].iloc[0] == pytest.approx(0.3)
