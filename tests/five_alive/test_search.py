"""The search strategy's own parts: the lives model of eval 1, and decisions that depend on
nothing hidden and on the strategy stream alone (the contract suite plays it in every
line-up, the twin test included). The value table of eval 2: tests/five_alive/test_value_table.py."""
import numpy as np
import pytest

from simcards.games.five_alive import view as V
from simcards.batch import prepare
from simcards_strategies.five_alive import _values, search
from numba import types
from numba.typed import Dict


def _model(m, others, blitz=False):
    memo = Dict.empty(key_type=types.int64, value_type=types.float64)
    arr = np.zeros(7, np.int64)
    arr[:len(others)] = others
    return _values.model_value(m, arr, len(others), blitz, memo, np.empty(8, np.int64))


@pytest.mark.parametrize("lives", [[5, 5, 5, 5], [3, 1, 4, 2], [2, 2, 0, 5], [1, 1], [4, 3, 3, 2, 1, 5, 2]])
@pytest.mark.parametrize("blitz", [False, True])
def test_the_lives_model_shares_one_win(lives, blitz):
    values = [_model(lives[p], [l for q, l in enumerate(lives) if q != p], blitz)
              for p in range(len(lives)) if lives[p] > 0]
    assert sum(values) == pytest.approx(1.0)
    assert all(0.0 <= v <= 1.0 for v in values)


def test_the_lives_model_prefers_more_lives():
    assert _model(5, [5, 5, 5]) == pytest.approx(0.25)
    assert _model(5, [4, 4, 4]) > 0.25 > _model(4, [5, 5, 5])
    assert _model(1, [0, 0, 3]) == pytest.approx(0.125)   # it must win three rounds in a row
    assert _model(2, [0, 0, 0]) == 1.0 and _model(0, [3]) == 0.0


def _plain_model(m, others, blitz, memo):
    """The lives model as the rule reads, a plain recursion (the compiled one runs on an
    explicit stack, since numba 0.68 refuses a self-recursive function called from Python):
    the same states in the same order, so the same values to the bit. A memoized state's
    value depends in its last bits on the seat order it was first met in, so each call
    starts with an empty memo, as the compiled one does here."""
    alive = [o for o in others if o > 0]
    if m == 0:
        return 0.0
    if not alive:
        return 1.0
    if blitz and len(alive) < len(others):
        top = max([m] + others)
        return 1.0 / (1 + others.count(top)) if m == top else 0.0
    key = (m, tuple(sorted(others)))
    if key not in memo:
        v = _plain_model(m, [max(o - 1, 0) for o in others], blitz, memo)
        for i, o in enumerate(others):
            if o > 0:
                v += _plain_model(m - 1, [o if j == i else max(q - 1, 0) for j, q in enumerate(others)],
                                  blitz, memo)
        memo[key] = v / (len(alive) + 1)
    return memo[key]


@pytest.mark.parametrize("blitz", [False, True])
def test_the_lives_model_equals_the_plain_recursion_to_the_bit(blitz):
    rng = np.random.default_rng(3)
    for _ in range(60):
        k = int(rng.integers(1, 7))
        lives = [int(v) for v in rng.integers(0, 6, size=k + 1)]
        assert _model(lives[0], lives[1:], blitz) == _plain_model(lives[0], lives[1:], blitz, {})
    # a deep one: 7 players with 9 lives each is hundreds of rounds from its end
    assert _model(9, [9] * 6, blitz) == _plain_model(9, [9] * 6, blitz, {})


@pytest.mark.parametrize("ev, z", [(0, 0.0), (1, 0.0), (2, 0.0), (1, 1.0)])
def test_a_decision_reads_no_hidden_field_and_only_the_strategy_stream(ev, z, shared):
    budget = 60 if z == 0 else 200     # racing starts after simcards.search.RACE_MIN_SAMPLES samples
    rec = shared.record("five-alive", ["expert"] * 4, 5, 0)
    # eval 2's table as a run hands it over (after search's declared values)
    table = prepare("five-alive", ["search:eval=2"] + ["expert"] * 3, 5).strategy_params[0, len(search.PARAMS):]
    for step in range(0, len(rec.moves), 7):
        s, seat = rec.raws[step], int(rec.moves[step, 1])
        zeroed = np.where(V.LAYOUT.visible_to(seat, s.shape[0]), s, 0)
        a_rng, b_rng = np.array([11 + step], np.uint64), np.array([11 + step], np.uint64)
        live = s.copy()
        a = search.search_move(live, seat, a_rng, budget, 0.5, ev, 0, z, table, 0)
        b = search.search_move(zeroed, seat, b_rng, budget, 0.5, ev, 0, z, table, 0)
        assert a == b and a_rng[0] == b_rng[0]
        assert np.array_equal(live, s), "search wrote into the state it was handed"
        assert (s[V.LEGAL + seat] >> a) & 1
