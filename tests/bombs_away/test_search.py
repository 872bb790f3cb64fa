"""The search strategy reads nothing hidden and draws only from the strategy stream: the same
answer and the same stream state from the engine's live state and from the reference view
(hidden fields zero); it never writes into the state; its answer is allowed. The contract suite
plays it in every line-up, the twin test included."""
import numpy as np
import pytest

from simcards.games.bombs_away import view as V
from simcards_strategies.bombs_away import search


@pytest.mark.parametrize("horizon,rollout", [(0, 0), (8, 1), (0, 2), (5, 3)])
def test_a_decision_reads_no_hidden_field_and_only_the_strategy_stream(horizon, rollout, shared):
    rec = shared.record("bombs-away", ["duelist", "sniper", "keeper", "random"], 5, 0,
                        rules={"duel_victim": "chosen"} if rollout == 1 else None)
    kinds = set()
    for step in range(0, len(rec.moves), 3):
        s, seat = rec.raws[step], int(rec.moves[step, 1])
        zeroed = np.where(V.LAYOUT.visible_to(seat, s.shape[0]), s, 0)
        a_rng, b_rng = np.array([11 + step], np.uint64), np.array([11 + step], np.uint64)
        live = s.copy()
        a = search.search_move(live, seat, a_rng, 30, 0.5, horizon, rollout, 31, 0)
        b = search.search_move(zeroed, seat, b_rng, 30, 0.5, horizon, rollout, 31, 0)
        assert a == b and a_rng[0] == b_rng[0]
        assert np.array_equal(live, s), "search wrote into the state it was handed"
        assert (s[V.S_LEGAL] >> a) & 1, "search gave an answer that is not allowed"
        kinds.add(int(s[V.S_KIND]))
    assert len(kinds) >= 3


def test_an_unsearched_question_gets_the_rollout_strategy_answer(shared):
    rec = shared.record("bombs-away", ["duelist"] * 4, 6, 0)
    for step in range(0, len(rec.moves), 5):
        s, seat = rec.raws[step], int(rec.moves[step, 1])
        kind = int(s[V.S_KIND])
        rng = np.array([1], np.uint64)
        a = search.search_move(s, seat, rng, 30, 0.0, 0, 0, 31 & ~(1 << kind), 0)
        assert a == rec.moves[step, 2], "duelist's own answer (the recorded game is duelist's)"
        assert rng[0] == 1, "an unsearched question draws nothing"
