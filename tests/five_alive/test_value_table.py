"""search's value table (eval 2): counted from the kernel's own games, deterministic,
probabilities that share one win, and handed to the compiled search at run time.
(The cache itself, keys and invalidation: tests/core/test_tables.py.)"""
import dataclasses
import itertools

import numpy as np
import pytest

from simcards.params import default_row
from simcards.registry import get_game
from simcards.replay import play_reference, record
from simcards_strategies.five_alive import _values, search

SPEC = get_game("five-alive")
#: games of the small tables these tests build (the real one: _values.TABLE_GAMES)
SMALL = 4000


def _rules_row(n, **rules):
    return SPEC.encode_params(SPEC.resolve_rules(rules), n)


def _value(table, m, others):
    arr = np.zeros(7, np.int64)
    arr[:len(others)] = others
    return table[_values.HEADER + _values.table_index(m, arr, len(others), int(table[0]),
                                                      np.empty(7, np.int64))]


@pytest.mark.parametrize("n, lives0", [(2, 5), (4, 5), (4, 1), (7, 3)])
def test_every_state_has_its_own_place_whatever_the_order_of_the_others(n, lives0):
    places = set()
    for m in range(lives0 + 1):
        for others in itertools.combinations_with_replacement(range(lives0 + 1), n - 1):
            at = {_value_index(m, p, lives0) for p in itertools.permutations(others)}
            assert len(at) == 1
            places |= at
    assert places == set(range(_values.table_entries(n, lives0)))


def _value_index(m, others, lives0):
    arr = np.zeros(7, np.int64)
    arr[:len(others)] = others
    return _values.table_index(m, arr, len(others), lives0, np.empty(7, np.int64))


def test_the_counts_are_the_kernels_games_with_expert_in_every_seat(shared):
    """Every round end of an unfinished game is counted once per seat; the seats' win shares
    at it sum to one win: checked against simcards.simulate's rounds, game by game total."""
    n, games = 4, 300
    wins, visits = _values.count_table(n, _rules_row(n), 0, games=games)
    frame = shared.simulate("five-alive", ["expert"] * n, games, seed=_values.TABLE_SEED, threads=1)
    per_game = frame.groupby("game", observed=True).first()
    ends = (per_game["rounds"] - 1)
    assert visits.sum() == n * ends.sum()
    assert wins.sum() == _values.SHARE_UNIT * ends[per_game["unfinished"] == 0].sum()


def test_the_build_is_the_same_bytes_whatever_the_threads_and_chunks():
    row = _rules_row(4)
    one = _values.count_table(4, row, 0, games=SMALL, threads=1, chunk=SMALL)
    many = _values.count_table(4, row, 0, games=SMALL, threads=2, chunk=300)
    assert all(np.array_equal(a, b) for a, b in zip(one, many))
    first = _values.build_table(4, row, 0, games=SMALL)
    assert first.tobytes() == _values.build_table(4, row, 0, games=SMALL).tobytes()
    # the values are the games': other games, other values
    assert first.tobytes() != _values.build_table(4, row, 0, games=SMALL, seed=1).tobytes()


@pytest.mark.parametrize("n, rules", [(3, {}), (4, {}), (4, {"lives": 3, "edition": "russian"})])
def test_values_are_probabilities_that_share_one_win(n, rules):
    table = _values.build_table(n, _rules_row(n, **rules), 0, games=SMALL)
    lives0 = rules.get("lives", 5)
    assert table[:_values.HEADER].tolist() == [lives0, n]
    assert table.shape[0] == _values.HEADER + _values.table_entries(n, lives0)
    values = table[_values.HEADER:]
    assert np.all((values >= 0) & (values <= 1))
    for lives in itertools.product(range(lives0 + 1), repeat=n):
        if sum(v > 0 for v in lives) < 2:
            continue
        seats = [_value(table, lives[p], [lives[q] for q in range(n) if q != p]) for p in range(n)]
        # each state's count is shrunk toward the model by its own visits: close to one win
        assert sum(seats) == pytest.approx(1.0, abs=0.1)
        assert all(v == 0.0 for v, l in zip(seats, lives) if l == 0)    # out: no chance
        if len(set(lives)) == 1:                                        # all alike: 1/n each
            assert seats[0] == pytest.approx(1.0 / n, abs=1e-12)


def test_a_common_state_is_the_games_and_an_unseen_one_the_models():
    row = _rules_row(4)
    table = _values.build_table(4, row, 0, games=SMALL)
    wins, visits = _values.count_table(4, row, 0, games=SMALL)
    model = np.empty(visits.shape[0])
    _values.model_table(4, 5, 0, model)
    common = visits >= 1000
    seen = wins[common] / _values.SHARE_UNIT / visits[common]
    gap = np.abs(model[common] - seen)
    assert np.sum(gap > 0.02) >= 3       # the model is off where the games are many
    # within 1/20 of the model's gap from what the games say (32 pseudo-games against 1,000+)
    assert np.all(np.abs(table[_values.HEADER:][common] - seen) <= gap / 20 + 1e-12)
    unseen = visits == 0
    assert unseen.any() and np.array_equal(table[_values.HEADER:][unseen], model[unseen])


def test_the_table_reaches_the_compiled_search_at_run_time(shared):
    """A seat's row carries its table after its values; another table changes the play
    of the same compiled kernel (nothing is compiled in)."""
    lineup = ["search:eval=2:budget=40"] + ["expert"] * 3
    batch = shared.prepare("five-alive", lineup, 7)
    at = len(search.PARAMS)
    table = batch.strategy_params[0, at:]
    assert table[:2].tolist() == [5, 4]
    assert table.shape[0] == _values.HEADER + _values.table_entries(4, 5)
    assert np.all(batch.strategy_params[1:, 2:] == 0)         # expert's two values, zero padded
    flat = batch.strategy_params.copy()
    flat[0, at + _values.HEADER:] = 0.5                         # every state alike: no card wins
    other = dataclasses.replace(batch, strategy_params=flat)
    assert other.kernel() is batch.kernel()
    real = [record("five-alive", lineup, 7, g, batch=batch).moves.tolist() for g in range(4)]
    alike = [record("five-alive", lineup, 7, g, batch=other).moves.tolist() for g in range(4)]
    assert real != alike


@pytest.mark.parametrize("n, rules", [(4, {}), (3, {"blitz": True})])
def test_search_with_the_table_passes_the_twin_test(n, rules, shared):
    lineup = ["expert"] * (n - 1) + ["search:eval=2:budget=20"]
    batch = shared.prepare("five-alive", lineup, 31, rules)
    for g in range(3):
        rec = record("five-alive", lineup, 31, g, batch=batch)
        ref, moves = play_reference("five-alive", lineup, 31, g, batch=batch)
        assert moves == [tuple(m) for m in rec.moves.tolist()]
        assert ref.result() == (rec.seats.tolist(), rec.game_row.tolist())


def test_only_eval_2_asks_for_a_table_and_only_one_of_a_sensible_size():
    row = default_row(search.PARAMS).copy()
    row[list(search.PARAMS).index("eval")] = 2
    assert search.table_for(4, _rules_row(4), row) is not None
    assert search.table_for(4, _rules_row(4, lives=60), row) is None     # eval 2 is then eval 1
    row[list(search.PARAMS).index("eval")] = 1
    assert search.table_for(4, _rules_row(4), row) is None
