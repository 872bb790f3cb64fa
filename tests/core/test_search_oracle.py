"""The open-hand search (``search:oracle=1``), the information ceiling of the skill index
(simcards.report.skill): it must really play on the true deal.

Each game's search re-deals the cards its seat cannot see before every rollout, so its move
depends on the seat's view alone (tests/<game>/test_search.py). The oracle skips that re-deal.
Two states that one seat cannot tell apart (the true one, and a re-deal of it from that seat's
view: same view, other hidden cards) must then get the same move from plain search and, at
some decisions, different moves from the oracle: the oracle's rollouts see the hidden cards.
The contract suite keeps ``oracle`` at its default (tests/contract/conftest.py): the reference
engine hides those cards, so no twin can replay the oracle's games.
"""
from __future__ import annotations

import importlib

import numpy as np
import pytest

#: game, line-up recorded, the decision steps visited (every k-th), and the search's arguments
#: between the rng and ``oracle`` (a small budget, margin 0: the best mean wins, so a seen card
#: can change the move). ``kind`` marks the games whose search takes the decision kind.
CASES = {
    "five-alive": (["expert"] * 4, 5, lambda kind: (60, 0.0, 1, 0, 0.0, np.zeros(0))),
    "bombs-away": (["duelist", "sniper", "keeper", "random"], 3, lambda kind: (30, 0.0, 0, 0, 31)),
    "crazy-eights": (["suit_switcher", "eights_last", "random"], 2, lambda kind: (kind, 40, 0.0, 0)),
    "thirty-one": (["suit_chaser", "threshold", "greedy", "suit_chaser"], 3,
                   lambda kind: (kind, 40, 0.0, 1, 1, 23, 21)),
    "vzhukh": (["cheap_beat_tuned"] * 4, 5, lambda kind: (40, 0.0, 1, 0, 34.0)),
}


@pytest.mark.parametrize("game", sorted(CASES))
def test_the_oracle_sees_the_hidden_cards_and_plain_search_does_not(game, shared):
    module = game.replace("-", "_")
    search = importlib.import_module(f"simcards_strategies.{module}.search")
    redeal = importlib.import_module(f"simcards.games.{module}.redeal").redeal
    assert "oracle" in search.PARAMS and search.PARAMS["oracle"][0] == 0, "off by default"
    lineup, every, args = CASES[game]
    differ = same_view = 0
    for index in range(3):
        rec = shared.record(game, lineup, 7, index)
        for step in range(0, len(rec.moves), every):
            kind, seat = int(rec.moves[step, 0]), int(rec.moves[step, 1])
            s = rec.raws[step]
            other = np.zeros_like(s)
            redeal(s, seat, other, np.array([1000 + step], np.uint64))   # same view, other hidden cards
            if np.array_equal(other, s):
                continue
            same_view += 1
            moves = {}
            for oracle in (0, 1):
                for name, state in (("true", s), ("other", other)):
                    live = state.copy()
                    rng = np.array([11 + step], np.uint64)
                    moves[oracle, name] = search.search_move(live, seat, rng, *args(kind), oracle)
                    assert np.array_equal(live, state), "search wrote into the state it was handed"
            assert moves[0, "true"] == moves[0, "other"], "plain search read a hidden card"
            differ += moves[1, "true"] != moves[1, "other"]
    assert same_view >= 10
    assert differ > 0, f"the oracle played the same move on {same_view} pairs of deals one seat cannot tell apart"
