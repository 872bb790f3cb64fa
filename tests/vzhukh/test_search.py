"""The search strategy's own parts: decisions that depend on nothing hidden and on the
strategy stream alone, leave the state alone and are legal (the contract suite plays it in
every line-up, the twin test included), and its evaluation."""
import numpy as np
import pytest

from simcards.games.vzhukh import view as V
from simcards_strategies.vzhukh import search


@pytest.mark.parametrize("ev", [0, 1])
def test_a_decision_reads_no_hidden_field_and_only_the_strategy_stream(ev, shared):
    rec = shared.record("vzhukh", ["cheap_beat_tuned"] * 4, 5, 0)
    for step in range(0, len(rec.moves), 9):
        s, seat = rec.raws[step], int(rec.moves[step, 1])
        zeroed = np.where(V.LAYOUT.visible_to(seat, s.shape[0]), s, 0)
        a_rng, b_rng = np.array([11 + step], np.uint64), np.array([11 + step], np.uint64)
        live = s.copy()
        a = search.search_move(live, seat, a_rng, 40, 0.5, ev, 0, 34.0, 0)
        b = search.search_move(zeroed, seat, b_rng, 40, 0.5, ev, 0, 34.0, 0)
        assert a == b and a_rng[0] == b_rng[0]
        assert np.array_equal(live, s), "search wrote into the state it was handed"
        assert V.is_legal_move.py_func(V.View(s, seat), a)


def test_one_legal_move_draws_nothing_from_the_stream(shared):
    rec = shared.record("vzhukh", ["cheap_beat_tuned"] * 3, 6, 0)
    seen = 0
    for step in range(len(rec.moves)):
        s, seat = rec.raws[step], int(rec.moves[step, 1])
        if V.n_legal(V.View(s, seat)) == 1:
            rng = np.array([5], np.uint64)
            m = search.search_move(s, seat, rng, 40, 1.0, 1, 0, 34.0, 0)
            assert rng[0] == 5 and V.is_legal_move.py_func(V.View(s, seat), m)
            seen += 1
    assert seen > 0


def test_the_round_model_prefers_fewer_points_and_the_game_end_shares_ties():
    s = np.zeros(V.STOCK, np.int64)
    s[V.N] = 4
    s[V.ROUND] = 1
    s[V.PENALTY:V.PENALTY + 4] = [30, 30, 30, 30]
    even = search._round_value(s, 0, 34.0)
    assert even == pytest.approx(0.125)
    s[V.PENALTY] = 10
    assert search._round_value(s, 0, 34.0) > even > search._round_value(s, 1, 34.0)
    s[V.PENALTY:V.PENALTY + 4] = [10, 10, 40, 50]
    assert search._win_share(s, 0) == 0.5 and search._win_share(s, 2) == 0.0
    s[V.UNFINISHED] = 1
    assert search._win_share(s, 0) == 0.0
