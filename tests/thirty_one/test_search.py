"""The search strategy's own parts: the keys model of eval 1, and decisions (turns and votes)
that depend on nothing hidden and on the strategy stream alone (the contract suite plays it in
every line-up, the twin test included)."""
import numpy as np
import pytest
from numba import types
from numba.typed import Dict

import simcards
from simcards.batch import prepare
from simcards.games.thirty_one import view as V
from simcards.games.thirty_one.rules import TURN
from simcards.replay import record
from simcards_strategies.thirty_one import search

#: the kernel of every line-up here: the suite's one kernel per game (tests/conftest.py)
KERNEL = simcards.list_strategies("thirty-one")


def _model(keys):
    memo = Dict.empty(key_type=types.int64, value_type=types.float64)
    arr = np.zeros(4, np.int64)
    arr[:len(keys)] = keys
    return search.keys_value(arr, len(keys), memo)


@pytest.mark.parametrize("keys", [[3, 3, 3, 3], [3, 1, 4, 2], [2, 5], [1, 1, 6], [5, 0, 2, 5]])
def test_the_keys_model_shares_one_win(keys):
    values = [_model([keys[p]] + [k for q, k in enumerate(keys) if q != p]) for p in range(len(keys))]
    assert sum(values) == pytest.approx(1.0)
    assert all(0.0 <= v <= 1.0 for v in values)


def test_the_keys_model_prefers_more_keys():
    assert _model([3, 3, 3, 3]) == pytest.approx(0.25)
    assert _model([4, 3, 3, 3]) > 0.25 > _model([2, 3, 3, 3])
    assert _model([2, 0, 1, 2]) == pytest.approx(0.5) and _model([0, 3]) == 0.0
    assert _model([1, 1]) == pytest.approx(0.5)      # whoever loses the next key loses


def _plain_model(keys, memo):
    """The keys model as rule 18 reads, a plain recursion (the compiled one runs on an
    explicit stack, since numba 0.68 refuses a self-recursive function called from Python):
    the same states in the same order, so the same values to the bit. A memoized state's
    value depends in its last bits on the seat order it was first met in, so each call
    starts with an empty memo, as the compiled one does here."""
    if min(keys) <= 0:
        return 1.0 / keys.count(max(keys)) if keys[0] == max(keys) else 0.0
    key = (keys[0], tuple(sorted(keys[1:])))
    if key not in memo:
        v = 0.0
        for i in range(len(keys)):
            v += _plain_model([k - (j == i) for j, k in enumerate(keys)], memo)
        memo[key] = v / len(keys)
    return memo[key]


def test_the_keys_model_equals_the_plain_recursion_to_the_bit():
    rng = np.random.default_rng(4)
    for _ in range(60):
        keys = [int(v) for v in rng.integers(0, 7, size=int(rng.integers(2, 5)))]
        assert _model(keys) == _plain_model(keys, {})
    assert _model([9, 9, 9, 9]) == _plain_model([9, 9, 9, 9], {})


@pytest.mark.parametrize("ev,rollout", [(1, 1), (0, 2), (1, 0)])
def test_a_decision_reads_no_hidden_field_and_only_the_strategy_stream(ev, rollout):
    lineup = ["suit_chaser", "threshold", "greedy", "suit_chaser"]
    # the kernel tests/thirty_one/test_redeal.py compiles too (one compile, cached)
    batch = prepare("thirty-one", lineup, 5, kernel_strategies=KERNEL)
    rec = record("thirty-one", lineup, 5, 0, batch=batch)
    kinds = set()
    for step in range(0, len(rec.moves), 5):
        kind, seat = int(rec.moves[step, 0]), int(rec.moves[step, 1])
        kinds.add(kind)
        s = rec.raws[step]
        zeroed = np.where(V.LAYOUT.visible_to(seat, s.shape[0]), s, 0)
        a_rng, b_rng = np.array([11 + step], np.uint64), np.array([11 + step], np.uint64)
        live = s.copy()
        a = search.search_move(live, seat, a_rng, kind, 40, 0.5, ev, rollout, 23, 21, 0)
        b = search.search_move(zeroed, seat, b_rng, kind, 40, 0.5, ev, rollout, 23, 21, 0)
        assert a == b and a_rng[0] == b_rng[0]
        assert np.array_equal(live, s), "search wrote into the state it was handed"
        assert V.is_legal_move(V.View(s, seat), a)
    assert TURN in kinds and len(kinds) == 2, "both decisions, turns and votes, were tried"
