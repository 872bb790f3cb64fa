"""The search strategy's own parts: decisions that depend on nothing hidden and on the
strategy stream alone, leave the state alone and are legal (the contract suite plays it in
every line-up, the twin test included), and its value."""
import numpy as np
import pytest

from simcards.games.crazy_eights import view as V
from simcards.games.crazy_eights.rules import NAME_SUIT, PLAY
from simcards_strategies.crazy_eights import search


@pytest.mark.parametrize("rollout", [0, 1, 2])
def test_a_decision_reads_no_hidden_field_and_only_the_strategy_stream(rollout, shared):
    rec = shared.record("crazy-eights", ["suit_switcher", "eights_last", "random"], 5, 0)
    kinds = set()
    for step in range(0, len(rec.moves), 3):
        kind, seat = int(rec.moves[step, 0]), int(rec.moves[step, 1])
        s = rec.raws[step]
        zeroed = np.where(V.LAYOUT.visible_to(seat, s.shape[0]), s, 0)
        a_rng, b_rng = np.array([11 + step], np.uint64), np.array([11 + step], np.uint64)
        live = s.copy()
        a = search.search_move(live, seat, a_rng, kind, 40, 0.5, rollout, 0)
        b = search.search_move(zeroed, seat, b_rng, kind, 40, 0.5, rollout, 0)
        assert a == b and a_rng[0] == b_rng[0]
        assert np.array_equal(live, s), "search wrote into the state it was handed"
        assert V.is_legal_move.py_func(V.View(s, seat), a)
        kinds.add(kind)
    assert kinds == {PLAY, NAME_SUIT} or PLAY in kinds


def test_the_value_is_the_win_share_and_nothing_for_an_unfinished_game():
    s = np.zeros(V.SIZE, np.int64)
    s[V.N] = 3
    s[V.SCORE:V.SCORE + 3] = [20, 20, 0]
    seat_out = np.zeros((7, 7), np.int64)
    game_out = np.zeros(7, np.int64)
    assert search._win_share(s, 0, seat_out, game_out) == 0.5
    assert search._win_share(s, 2, seat_out, game_out) == 0.0
    s[V.UNFINISHED] = 1
    assert search._win_share(s, 0, seat_out, game_out) == 0.0
