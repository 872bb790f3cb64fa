"""The jitted generator and its Python twin give the same numbers; draws are uniform."""
import numpy as np
from scipy import stats

from simcards import rng


def test_jitted_and_python_generators_agree():
    for seed, game, stream in [(0, 0, 0), (1, 2, 1), (2**63 - 1, 10**12, 0), (12345, 7, 1)]:
        state = rng.new_state()
        rng.seed_game(state, seed, game, stream)
        twin = rng.PyRandom(seed, game, stream)
        assert int(state[0]) == twin.state
        for n in (1, 2, 3, 7, 77, 1000, 2**31 + 11):
            assert rng.rand_below(state, n) == twin.below(n)
        a = np.arange(50, dtype=np.int64)
        b = list(range(50))
        rng.shuffle(a, 50, state)
        twin.shuffle(b)
        assert a.tolist() == b


def test_streams_and_games_are_distinct():
    firsts = {rng.PyRandom(3, g, s).next_u64() for g in range(200) for s in (0, 1)}
    assert len(firsts) == 400


def test_rand_below_is_uniform():
    state = rng.new_state()
    rng.seed_game(state, 99, 0, 0)
    draws = np.array([rng.rand_below(state, 7) for _ in range(70_000)])
    assert draws.min() == 0 and draws.max() == 6
    assert stats.chisquare(np.bincount(draws, minlength=7)).pvalue > 1e-4


def test_shuffle_is_uniform_over_permutations_of_three():
    twin = rng.PyRandom(5, 0, 0)
    seen = {}
    for _ in range(6000):
        items = [0, 1, 2]
        twin.shuffle(items)
        seen[tuple(items)] = seen.get(tuple(items), 0) + 1
    assert len(seen) == 6
    assert stats.chisquare(list(seen.values())).pvalue > 1e-4
