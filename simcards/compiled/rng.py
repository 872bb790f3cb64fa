"""The one random number generator of simcards: SplitMix64, per game and stream.

Every game draws from its own generator seeded from (base seed, game index,
stream) alone, so results do not depend on how a batch is split over chunks,
threads, processes or machines. Stream 0 deals and shuffles; stream 1 feeds the
strategies, so that line-ups played on the same seed get the same first deal
(common random numbers).

The jitted functions keep the state in a ``uint64[1]`` array. ``PyRandom`` is
the pure-Python twin used by the reference engines; tests check that both give
the same numbers.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simcards.compiled.config import FORCEINLINE_NJIT_OPTIONS, NJIT_OPTIONS

GOLDEN = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB
_STREAM = 0xD1B54A32D192ED03
MASK64 = (1 << 64) - 1
MAX_SEED = (1 << 63) - 1

STREAM_DEAL = 0
STREAM_STRATEGY = 1

_U_GOLDEN = np.uint64(GOLDEN)
_U_M1 = np.uint64(_M1)
_U_M2 = np.uint64(_M2)
_U_STREAM = np.uint64(_STREAM)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_LOW32 = np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(1 << 32)


@njit(**NJIT_OPTIONS)
def _mix(z):
    z = (z ^ (z >> _S30)) * _U_M1
    z = (z ^ (z >> _S27)) * _U_M2
    return z ^ (z >> _S31)


# inlined by numba: its callers pass the stream as a literal (STREAM_DEAL, STREAM_STRATEGY), and
# numba compiles a called function once per literal argument (simcards.config, "Literal arguments")
@njit(inline="always", **NJIT_OPTIONS)
def seed_game(state, seed, game_index, stream):
    """Set ``state`` to the start of the generator for (seed, game_index, stream)."""
    z = _mix(np.uint64(seed) + np.uint64(stream) * _U_STREAM)
    state[0] = _mix(z + np.uint64(game_index) * _U_GOLDEN)


@njit(**NJIT_OPTIONS)
def next_u64(state):
    state[0] = state[0] + _U_GOLDEN
    return _mix(state[0])


@njit(inline="always", **NJIT_OPTIONS)
def _below(x, n):
    """From generator value ``x``: (next value, uniform integer in [0, n)) for 0 < n < 2**32,
    without bias (Lemire). Works on a local value, so loops keep the state in a register."""
    un = np.uint64(n)
    x = x + _U_GOLDEN
    m = (_mix(x) >> _S32) * un
    low = m & _LOW32
    if low < un:
        t = (_TWO32 - un) % un
        while low < t:
            x = x + _U_GOLDEN
            m = (_mix(x) >> _S32) * un
            low = m & _LOW32
    return x, np.int64(m >> _S32)


@njit(inline="always", **NJIT_OPTIONS)   # tiny; and a literal bound would compile a copy
def rand_below(state, n):
    """Uniform integer in [0, n) for 0 < n < 2**32, without bias (Lemire)."""
    x, r = _below(state[0], n)
    state[0] = x
    return r


@njit(inline="always", **NJIT_OPTIONS)   # one draw and a swap, on a game's hot path
def draw_to_top(a, lo, n, state):
    """One step of ``shuffle_range(a, lo, n, state)`` at the moment it is needed: a uniformly
    chosen one of a[lo:lo+n] (0 < n) changes places with a[lo+n-1], the top.

    A pile of cards that nobody looks into until its top card is taken need not be shuffled
    first: taking a card at random from it each time, as here, deals exactly what a shuffle
    then taking the top would (each order equally likely), with one draw per card taken
    instead of one per card shuffled. Cards taken back to back come in the order, and from
    the numbers, of ``shuffle_range``; other draws in between spend the numbers differently."""
    j = np.uint64(lo + rand_below(state, n))     # unsigned: no wrap-around code (lo >= 0)
    hi = np.uint64(lo + n - 1)
    x = a[hi]
    a[hi] = a[j]
    a[j] = x


@njit(**NJIT_OPTIONS)
def shuffle_top(a, lo, n, k, state):
    """The first k steps (k < n, or k = 0) of ``shuffle_range(a, lo, n, state)``: the top k places
    of a[lo:lo+n] get the cards, and use the numbers, that the whole shuffle would give them;
    the cards below are left unordered, to be taken with ``draw_to_top``. For cards dealt
    back to back: ``draw_to_top`` once per card is the same, but it keeps the generator's
    state in memory, which the compiler cannot tell apart from ``a``'s; here it stays in a
    register (Thirty-One's deal: 30% of the kernel's perf samples with a ``draw_to_top`` per
    card, 12% with this)."""
    x = state[0]
    for i in range(n - 1, n - 1 - k, -1):
        x, j = _below(x, i + 1)
        # unsigned positions (lo >= 0): numba adds no negative-index wrap-around to the swap
        hi = np.uint64(lo + i)
        at = np.uint64(lo + j)
        t = a[hi]
        a[hi] = a[at]
        a[at] = t
    state[0] = x


@njit(**NJIT_OPTIONS)
def shuffle_range(a, lo, n, state):
    """Fisher-Yates shuffle of a[lo:lo+n] in place, from the last position down."""
    shuffle_top(a, lo, n, max(n - 1, 0), state)


# inlined by LLVM into its one call site per game: called, it cost Thirty-One's deal a call
# with the arrays' arguments and the vector constants set up again (callgrind: 410.2 -> 405.0
# instructions a turn with the untested swaps below)
@njit(**FORCEINLINE_NJIT_OPTIONS)
def shuffle_top_ahead(a, lo, n, k, state, draws):
    """``shuffle_top(a, lo, n, k, state)``: the same cards in the top k places from the same
    numbers, in about half the time. Every draw is computed first, in a loop the compiler runs
    on SIMD lanes, into the int64 array ``draws`` (k of them; a view of another part of ``a``
    will do: a 32-bit draw times n < 2**31 fits), noting on the way whether Lemire's method might
    reject any of them; when none can, the swaps follow with no test each. Otherwise (odds below
    k * n / 2**32) ``shuffle_top`` does the whole shuffle from the same state, so the numbers are
    exactly its either way.

    Indices are typed unsigned (``lo >= 0``, and every position and draw is): numba then
    leaves out the negative-index wrap-around, a compare and a select per access, which was
    a quarter of a shuffle's instructions (measured on Vzhukh's deck)."""
    x0 = state[0]
    maybe = np.uint64(0)            # some draw might be rejected
    for t in range(k):              # draw t places position n - 1 - t, out of n - t
        z = _mix(x0 + np.uint64(t + 1) * _U_GOLDEN)
        m = (z >> _S32) * np.uint64(n - t)
        draws[np.uint64(t)] = np.int64(m)
        maybe |= np.uint64((m & _LOW32) < np.uint64(n - t))
    if maybe != 0:                  # the exact loop, from the start
        shuffle_top(a, lo, n, k, state)
        return
    for t in range(k):
        hi = np.uint64(lo + n - 1 - t)
        j = np.uint64(lo + (draws[np.uint64(t)] >> 32))
        x = a[hi]
        a[hi] = a[j]
        a[j] = x
    state[0] = x0 + np.uint64(k) * _U_GOLDEN


@njit(**NJIT_OPTIONS)
def shuffle_range_ahead(a, lo, n, state, draws):
    """``shuffle_range(a, lo, n, state)`` by ``shuffle_top_ahead``: the same permutation from
    the same numbers (n - 1 draws into ``draws``)."""
    shuffle_top_ahead(a, lo, n, max(n - 1, 0), state, draws)


@njit(**NJIT_OPTIONS)
def shuffle(a, n, state):
    """Fisher-Yates shuffle of a[0:n] in place, from the last position down."""
    shuffle_range(a, 0, n, state)


def new_state() -> np.ndarray:
    return np.zeros(1, dtype=np.uint64)


# ---------------------------------------------------------------- Python twin
def _pymix(z: int) -> int:
    z = ((z ^ (z >> 30)) * _M1) & MASK64
    z = ((z ^ (z >> 27)) * _M2) & MASK64
    return z ^ (z >> 31)


class PyRandom:
    """Pure-Python twin of the jitted generator: same numbers, same order."""

    def __init__(self, seed: int, game_index: int, stream: int):
        z = _pymix((seed + stream * _STREAM) & MASK64)
        self.state = _pymix((z + game_index * GOLDEN) & MASK64)

    def next_u64(self) -> int:
        self.state = (self.state + GOLDEN) & MASK64
        return _pymix(self.state)

    def below(self, n: int) -> int:
        m = (self.next_u64() >> 32) * n
        low = m & 0xFFFFFFFF
        if low < n:
            t = ((1 << 32) - n) % n
            while low < t:
                m = (self.next_u64() >> 32) * n
                low = m & 0xFFFFFFFF
        return m >> 32

    def draw_to_top(self, items: list, lo: int) -> None:
        """Twin of ``draw_to_top``: a uniformly chosen one of items[lo:] changes places with
        the last (the top); items[lo:] is not empty."""
        j = lo + self.below(len(items) - lo)
        items[j], items[-1] = items[-1], items[j]

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def as_array(self) -> np.ndarray:
        """The state as the ``uint64[1]`` a jitted strategy expects (shared, not copied back)."""
        return np.array([self.state], dtype=np.uint64)
