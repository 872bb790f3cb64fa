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


#: (cards, seed) whose shuffle (game index = cards, stream 0) meets a draw Lemire's method
#: rejects (77, 271946; 1000, 50; 5000, 403) or one it might have (the others)
_NEAR_REJECTIONS = [(77, 271946), (77, 2489750), (1000, 50), (1000, 15421), (5000, 403), (5000, 438)]


def test_shuffle_ahead_is_shuffle_range_to_the_last_number():
    cases = _NEAR_REJECTIONS + [(n, seed) for n in (0, 1, 2, 3, 77, 1000) for seed in range(30)]
    for n, seed in cases:
        a = np.arange(2 * n + 3, dtype=np.int64)
        b = a.copy()
        s1, s2 = rng.new_state(), rng.new_state()
        rng.seed_game(s1, seed, n, 0)
        s2[0] = s1[0]
        twin = rng.PyRandom(seed, n, 0)
        items = list(range(3, n + 3))
        rng.shuffle_range(a, 3, n, s1)
        rng.shuffle_range_ahead(b, 3, n, s2, b[n + 3:])
        twin.shuffle(items)
        assert a[3:n + 3].tolist() == b[3:n + 3].tolist() == items, (n, seed)
        assert s1[0] == s2[0] == twin.state, (n, seed)


def test_shuffle_top_ahead_is_shuffle_top_to_the_last_number():
    """The first k steps only (a deal): the same top k cards, the same generator state after,
    through the near-rejections and a first draw that Lemire's method rejects."""
    cases = _NEAR_REJECTIONS + [(n, seed) for n in (2, 3, 36, 77) for seed in range(20)]
    for n, seed in cases:
        for k in sorted({0, 1, n // 2, n - 1}):
            a = np.arange(2 * n + 3, dtype=np.int64)
            b = a.copy()
            s1, s2 = rng.new_state(), rng.new_state()
            rng.seed_game(s1, seed, n, 0)
            s2[0] = s1[0]
            rng.shuffle_top(a, 3, n, k, s1)
            rng.shuffle_top_ahead(b, 3, n, k, s2, b[n + 3:])
            # every place, not only the top k: a stock taken at random later (engine.take_top)
            # picks by place, so the cards left below must lie as shuffle_top leaves them
            assert a[:n + 3].tolist() == b[:n + 3].tolist(), (n, seed, k)
            assert s1[0] == s2[0], (n, seed, k)
    start = (_unmix(12345) - rng.GOLDEN) & rng.MASK64       # its first draw is rejected
    a = np.arange(120, dtype=np.int64)
    b = a.copy()
    s1, s2 = rng.new_state(), rng.new_state()
    s1[0] = s2[0] = start
    rng.shuffle_top(a, 0, 36, 15, s1)
    rng.shuffle_top_ahead(b, 0, 36, 15, s2, b[60:])
    assert a[:36].tolist() == b[:36].tolist()
    assert s1[0] == s2[0] == (start + 16 * rng.GOLDEN) & rng.MASK64     # 15 draws + 1 redraw


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


def _unmix(z: int) -> int:
    """The state step whose output is z (SplitMix64's mixer is a bijection)."""
    def unshift(y, s):
        x = y
        for _ in range(64 // s):
            x = y ^ (x >> s)
        return x & rng.MASK64
    z = unshift(z, 31)
    z = unshift(z * pow(rng._M2, -1, 1 << 64) & rng.MASK64, 27)
    return unshift(z * pow(rng._M1, -1, 1 << 64) & rng.MASK64, 30)


def test_shuffle_ahead_redraws_like_shuffle_range():
    for n in (0, 1, 2, 3, 8, 9, 17, 53, 54):
        for game in range(20):
            plain, batched = rng.new_state(), rng.new_state()
            rng.seed_game(plain, 7, game, 0)
            batched[:] = plain
            a = np.arange(120, dtype=np.int64)
            b = a.copy()
            rng.shuffle_range(a, 5, n, plain)
            rng.shuffle_range_ahead(b, 5, n, batched, b[60:])      # scratch: b[60:60 + n - 1]
            assert a[5:5 + n].tolist() == b[5:5 + n].tolist() and plain[0] == batched[0]
    # a state whose first draw Lemire's method rejects (its top 32 bits are 0): drawn again
    start = (_unmix(12345) - rng.GOLDEN) & rng.MASK64
    plain, batched = rng.new_state(), rng.new_state()
    plain[0] = batched[0] = start
    a = np.arange(120, dtype=np.int64)
    b = a.copy()
    rng.shuffle_range(a, 0, 50, plain)
    rng.shuffle_range_ahead(b, 0, 50, batched, b[60:])
    assert a[:50].tolist() == b[:50].tolist()
    assert plain[0] == batched[0] == (start + 50 * rng.GOLDEN) & rng.MASK64  # 49 draws + 1 redraw


def test_draw_to_top_taken_back_to_back_is_the_shuffle():
    """Cards taken off the top one at a time, each chosen then (draw_to_top), come in the order
    shuffle_range would have laid them out, from the same numbers: a shuffle taken lazily. The
    jitted function and its Python twin agree."""
    for n in (2, 3, 9, 54):
        for game in range(10):
            whole, lazy = rng.new_state(), rng.new_state()
            rng.seed_game(whole, 11, game, 0)
            lazy[:] = whole
            twin = rng.PyRandom(11, game, 0)
            a = np.arange(70, dtype=np.int64)
            b = a.copy()
            rng.shuffle_range(a, 5, n, whole)
            items, taken = list(range(5, 5 + n)), []
            for m in range(n, 1, -1):
                rng.draw_to_top(b, 5, m, lazy)
                twin.draw_to_top(items, 0)
                taken.append(items.pop())
            assert a.tolist() == b.tolist(), (n, game)
            assert taken + items == a[5:5 + n][::-1].tolist()
            assert whole[0] == lazy[0] == twin.state
    # past a known bottom: only the cards above it are chosen from
    twin = rng.PyRandom(1, 0, 0)
    for _ in range(200):
        items = [7, 8, 1, 2, 3]
        twin.draw_to_top(items, 2)
        assert items[:2] == [7, 8] and sorted(items[2:]) == [1, 2, 3]
