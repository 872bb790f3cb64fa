"""Calibration: many small replicate experiments whose truth is known.

Two identical strategies under different names, rotated over the seats, on
deals that strongly favour one seat or one hand (so the rows of one deal are
far from independent). Every 95% interval must cover the truth 93-97% of the
time and the pairwise test must reject no more than 5% (within the replicate
count's noise). Intervals that ignore the deal clustering, in either
direction (too wide from counting a deal's average as one Bernoulli trial, too
narrow from counting seat rows as independent), fail these bounds: the last
checks of each test compute those old intervals on the same replicates and see
them fail.

Kept fast (a few seconds) by building every replicate in one frame: the
strategy, seat and pairwise tables of all 400 replicates come from one call each.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from simcards.report.analysis import card_effects, pairwise, seat_rates, strategy_rates, strategy_scores
from simcards.report.experiment import MAIN, Cell, parse_experiment
from simcards.stats import wilson

REPLICATES = 2000   # at 400 the seat coverage sat on the band's edge (0.930); 2000 gives margins
DEALS = 50
COVER_LOW, COVER_HIGH = 0.93, 0.97
#: the largest rejection rate a 5% test may show over REPLICATES tests (two binomial SDs above)
REJECT_MAX = 0.05 + 2 * np.sqrt(0.05 * 0.95 / REPLICATES)

EXPERIMENT = """
game = "five-alive"
seed = 1
players = [2]
[lineups]
pool = ["high_first", "random"]
"""


@pytest.fixture(scope="module")
def replicates():
    """REPLICATES cells of 2 players, line-ups (A, B) and (B, A) on the same DEALS deals.

    Deal g favours seat 0 with probability p_g, spread widely (uniform 0.1..0.9);
    both line-ups draw their winner from it independently. Truth: each strategy
    wins 0.5, seat 0 wins 0.5, the difference A - B is 0."""
    base = parse_experiment(Path("calibration.toml"), EXPERIMENT)
    cell = base.cells[0]
    cells = [Cell(i, MAIN, 2, cell.rules, cell.lineups, cell.mirror) for i in range(REPLICATES)]
    exp = dataclasses.replace(base, cells=cells)
    rng = np.random.default_rng(12)
    p_seat0 = rng.uniform(0.1, 0.9, size=(REPLICATES, 1, DEALS))
    seat0_wins = (rng.random((REPLICATES, 2, DEALS)) < p_seat0).astype(float)
    shares = np.stack([seat0_wins, 1 - seat0_wins], axis=-1)        # cell, lineup, game, seat
    c, l, g, s = np.meshgrid(np.arange(REPLICATES), np.arange(2), np.arange(DEALS), np.arange(2), indexing="ij")
    names = np.array([list(x) for x in cell.lineups])                 # lineup x seat
    frame = pd.DataFrame({"cell": c.ravel().astype(np.int16), "players": np.int8(2),
                          "lineup": (2 * c + l).ravel().astype(np.int32), "game": g.ravel(),
                          "seat": s.ravel(), "strategy": names[l.ravel(), s.ravel()],
                          "win_share": shares.ravel()})
    frame["strategy"] = frame["strategy"].astype("category")
    return frame, exp


def _coverage(table: pd.DataFrame, truth: float) -> float:
    return float(((table["ci_low"] <= truth) & (truth <= table["ci_high"])).mean())


def _bernoulli_coverage(per_deal: pd.Series, truth: float) -> float:
    """The old method: per cell, each deal's mean as one Bernoulli trial, a Wilson interval."""
    agg = per_deal.groupby(level="cell").agg(["sum", "count"])
    low, high = wilson(agg["sum"], agg["count"])
    return float(((low <= truth) & (truth <= high)).mean())


def test_strategy_intervals_cover_the_truth(replicates):
    frame, exp = replicates
    rates = strategy_rates(frame, exp)
    one = rates[rates["strategy"] == "high_first"]          # the other is its mirror image
    assert len(one) == REPLICATES
    assert COVER_LOW <= _coverage(one, 0.5) <= COVER_HIGH
    # the old method, a deal's mean over its line-ups as one Bernoulli trial, is far too wide
    scores = strategy_scores(frame, exp)
    old = _bernoulli_coverage(scores[scores["strategy"] == "high_first"].set_index(["cell", "game"])["score"], 0.5)
    assert old > COVER_HIGH


def test_seat_intervals_cover_the_truth(replicates):
    frame, exp = replicates
    seats = seat_rates(frame, exp)
    first = seats[seats["seat"] == 0]
    assert len(first) == REPLICATES
    assert COVER_LOW <= _coverage(first, 0.5) <= COVER_HIGH
    # the old method (Wilson over deal means) is too wide here too
    old = _bernoulli_coverage(frame[frame["seat"] == 0].groupby(["cell", "game"])["win_share"].mean(), 0.5)
    assert old > COVER_HIGH


def test_pairwise_test_keeps_its_level(replicates):
    frame, exp = replicates
    pairs = pairwise(frame, exp)
    assert len(pairs) == REPLICATES
    assert (pairs["p_value"] < 0.05).mean() <= REJECT_MAX
    covered = ((pairs["ci_low_pp"] <= 0) & (0 <= pairs["ci_high_pp"])).mean()
    assert COVER_LOW <= covered <= COVER_HIGH


CARD_REPLICATES, CARD_DEALS, CARDS, SEATS, LINEUPS = 400, 80, 3, 4, 3


def test_card_intervals_cover_zero_for_cards_that_do_not_matter():
    """Hands carry a hidden strength that decides the game in every line-up alike; the
    dealt cards are independent of it, so every card's true effect is 0."""
    rng = np.random.default_rng(7)
    covered, rejected, total = 0, 0, 0
    old_covered = 0
    players = np.full(CARD_DEALS * SEATS * LINEUPS, SEATS)
    deals = np.repeat(np.arange(CARD_DEALS), SEATS * LINEUPS)
    for _ in range(CARD_REPLICATES):
        strength = rng.normal(size=(CARD_DEALS, 1, SEATS))
        noise = 0.3 * rng.normal(size=(CARD_DEALS, LINEUPS, SEATS))
        score = strength + noise
        wins = (score == score.max(axis=2, keepdims=True)).astype(float)
        masks = rng.integers(0, 2 ** CARDS, size=(CARD_DEALS, 1, SEATS))
        masks = np.broadcast_to(masks, wins.shape)
        table = card_effects(masks.ravel(), wins.ravel(), players, deals, [f"c{k}" for k in range(CARDS)])
        covered += int(((table["ci_low_pp"] <= 0) & (0 <= table["ci_high_pp"])).sum())
        rejected += int((table["p_value"] < 0.05).sum())
        total += len(table)
        # the old method: seat rows as independent trials (difference of two proportions)
        y, bits = wins.ravel(), masks.ravel()
        for k in range(CARDS):
            dealt = ((bits >> k) & 1).astype(bool)
            p1, p0 = y[dealt].mean(), y[~dealt].mean()
            se = np.sqrt(p1 * (1 - p1) / dealt.sum() + p0 * (1 - p0) / (~dealt).sum())
            old_covered += int(abs(p1 - p0) <= 1.959964 * se)
    assert total == CARD_REPLICATES * CARDS
    assert COVER_LOW <= covered / total <= COVER_HIGH
    assert rejected / total <= 0.05 + 2 * np.sqrt(0.05 * 0.95 / total)
    assert old_covered / total < COVER_LOW      # far too narrow
