"""Helpers every fast engine shares, and the plain-Python twins the reference engines use.

Each game used to carry its own copy of these small loops (next living seat, a
hand to the bottom of the stock, the dealt-card mask, ranking from a key). They
live here once. Compiled ones take the flat state array ``s`` and offsets from
the game's layout (simcards.layout), so they work for any game.

A strategy's memory: good play needs what was seen earlier in the game, so every
game's layout ends its fixed part with a seat-private ``MEMORY`` block of
``MEMORY_SLOTS`` int64s per seat (``memory_block``). ``start_game`` zeroes it; a
strategy reads and writes its own row through ``memory(view, i)`` and
``remember(view, i, value)`` (made per game by ``memory_accessors``). The
reference engine keeps the same rows in ``Game.memory`` and copies them into and
out of the views it builds, so a strategy with memory passes the twin test.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simcards.compiled.config import FORCEINLINE_NJIT_OPTIONS, INTERNAL_NJIT_FLAGS, NJIT_OPTIONS
from simcards.compiled.rng import PyRandom, draw_to_top

#: int64 slots of private memory per seat and game.
MEMORY_SLOTS = 16


# ------------------------------------------------------------------ copies
@njit(**FORCEINLINE_NJIT_OPTIONS)
def copy_into(dst, src):
    """``dst[:] = src`` for two 1-D arrays of the same length, as a plain loop, which LLVM
    turns into a vectorized copy. numba compiles the slice assignment to a scalar loop that
    works out a broadcast index per element: 3.5x slower on a Five Alive state (1,751
    int64s), which a search copies for every candidate of every sample (20% of its CPU)."""
    for i in range(src.shape[0]):
        dst[i] = src[i]


@njit(**NJIT_OPTIONS, **INTERNAL_NJIT_FLAGS)   # new_state calls it, once per batch
def copy_params(s, params, copies):
    """Copy the rule values of the parameter row ``params`` into the state ``s``: ``copies``
    holds (state offset, row slot) pairs, the layout's ``param_copies()`` (a module-level array,
    which numba compiles in as a constant)."""
    for i in range(copies.shape[0]):
        s[copies[i, 0]] = params[copies[i, 1]]


# ------------------------------------------------------------------ seats
@njit(inline="always", **NJIT_OPTIONS)
def next_living(s, n, alive_at, p, d):
    """The next seat after ``p`` in direction ``d`` (+1/-1) with ``s[alive_at + q] > 0``.
    The caller makes sure one exists. A compare beats `%` on the hottest path."""
    q = p
    while True:
        q += d
        if q >= n:
            q = 0
        elif q < 0:
            q = n - 1
        if s[np.uint64(alive_at + q)] > 0:      # (a seat: unsigned, no wrap-around code)
            return q


def next_living_py(alive: list[bool], p: int, d: int = 1) -> int:
    """Reference twin of ``next_living``: the next seat after p in direction d still in."""
    n = len(alive)
    q = p
    for _ in range(n):
        q = (q + d) % n
        if alive[q]:
            return q
    raise ValueError("no seat is still in the game")


# ------------------------------------------------------------------ cards
@njit(inline="always", **NJIT_OPTIONS)
def kinds_mask(s, counts_at, n_kinds):
    """Bit mask of the kinds with a positive count in ``s[counts_at:counts_at + n_kinds]``
    (the dealt-card mask of a hand kept as counts per kind)."""
    mask = 0
    for k in range(n_kinds):
        if s[counts_at + k] > 0:
            mask |= np.int64(1) << k
    return mask


def kinds_mask_py(counts) -> int:
    """Reference twin of ``kinds_mask``."""
    return sum(1 << k for k, c in enumerate(counts) if c > 0)


@njit(**NJIT_OPTIONS, **INTERNAL_NJIT_FLAGS)   # only engines call it: linked, never emitted alone
def hand_to_bottom(s, stock_at, stock_n_at, hand_at, count, kinds):
    """Move a hand kept as counts per kind to the bottom of the stock, kinds ascending (the
    stock's top is its last card); returns how many cards moved.

    ``count`` is the hand's number of cards and ``kinds`` the mask of the kinds it holds, which
    the engines keep anyway: only those kinds are visited, and places are unsigned (never
    negative: no wrap-around test per card moved). Summing and visiting every kind, signed, took
    Five Alive about twice the work, and Bombs Away 12.9 of its 617.4 instructions a turn
    (callgrind, 2026-12-03)."""
    if count == 0:
        return 0
    shift = np.uint64(count)
    for i in range(s[stock_n_at] - 1, -1, -1):
        at = np.uint64(stock_at + i)
        s[at + shift] = s[at]
    pos = np.uint64(stock_at)
    while kinds != 0:
        k = lowest_bit(kinds)
        kinds &= kinds - 1
        at = np.uint64(hand_at + k)
        for _ in range(s[at]):
            s[pos] = k
            pos += np.uint64(1)
        s[at] = 0
    s[stock_n_at] += count
    return count


@njit(inline="always", **NJIT_OPTIONS)    # a few instructions on the draw's hot path
def take_top(s, stock_at, n_at, fixed_at, rng):
    """Take the top card off a stock kept lazily shuffled, and return it.

    The stock is ``s[stock_at:stock_at + s[n_at]]``, top last, and not empty. Its bottom
    ``s[fixed_at]`` cards lie in a known order (put under it, or a pile turned over as it
    lies); the cards above them were shuffled, and nobody sees them before they are taken,
    so they are kept in no particular order and the top one is chosen among them now, each
    with equal chance (``simcards.rng.draw_to_top``): the same game as a shuffle, with one
    random number per card taken instead of one per card shuffled. A shuffle of the whole
    stock is then ``s[fixed_at] = 0``. When only the known bottom is left, its top is taken.
    """
    m = s[n_at]
    f = s[fixed_at]
    if m > f:
        draw_to_top(s, stock_at + f, m - f, rng)
    else:
        s[fixed_at] = m - 1
    s[n_at] = m - 1
    return s[np.uint64(stock_at + m - 1)]         # (a place of the stock: unsigned, no wrap-around code)


def take_top_py(stock: list[int], fixed: int, rng: PyRandom) -> tuple[int, int]:
    """Reference twin of ``take_top``: (the card taken off the top, the new count of bottom
    cards in a known order) from a stock (top last, not empty) whose bottom ``fixed`` cards lie
    in a known order."""
    if len(stock) > fixed:
        rng.draw_to_top(stock, fixed)
    else:
        fixed -= 1
    return stock.pop(), fixed


def hand_to_bottom_py(stock: list[int], counts: list[int]) -> None:
    """Reference twin of ``hand_to_bottom`` (stock top last; counts emptied)."""
    cards = [k for k, c in enumerate(counts) for _ in range(c)]
    stock[:0] = cards
    counts[:] = [0] * len(counts)


# ------------------------------------------------------------------ outcome
@njit(inline="always", **NJIT_OPTIONS)
def rank_from_key(keys, n, p):
    """1 + the number of seats whose key is strictly higher (ties share a rank)."""
    better = 0
    for q in range(n):
        if keys[q] > keys[p]:
            better += 1
    return better + 1


def ranks_py(keys: list[int]) -> list[int]:
    """Reference twin of ``rank_from_key`` for every seat."""
    return [1 + sum(k > key for k in keys) for key in keys]


# ------------------------------------------------------------------ memory
def memory_accessors(memory_at: int):
    """``memory(view, i)`` and ``remember(view, i, value)`` for a game whose layout puts
    the MEMORY block at ``memory_at``; a view is any ``(s, seat, ...)`` named tuple."""

    @njit(inline="always", **NJIT_OPTIONS)
    def memory(view, i):
        """Slot i (0..MEMORY_SLOTS-1) of this seat's memory for the current game."""
        return view.s[memory_at + view.seat * MEMORY_SLOTS + i]

    @njit(inline="always", **NJIT_OPTIONS)
    def remember(view, i, value):
        """Keep ``value`` in slot i of this seat's memory until the game ends."""
        view.s[memory_at + view.seat * MEMORY_SLOTS + i] = value

    return memory, remember


def memory_block(layout, max_players: int) -> int:
    """Declare the seat-private MEMORY block in a layout; returns its offset."""
    return layout.block("MEMORY", max_players, MEMORY_SLOTS, visibility="seat")


def load_memory(s: np.ndarray, memory_at: int, seat: int, row: list[int]) -> None:
    """Reference engines: copy a seat's kept memory into a view's state array."""
    s[memory_at + seat * MEMORY_SLOTS:memory_at + (seat + 1) * MEMORY_SLOTS] = row


def save_memory(s: np.ndarray, memory_at: int, seat: int, row: list[int]) -> None:
    """Reference engines: keep what the strategy wrote into its view's memory row."""
    row[:] = s[memory_at + seat * MEMORY_SLOTS:memory_at + (seat + 1) * MEMORY_SLOTS].tolist()


# ------------------------------------------------------------------ bit masks
# A set of small ints (legal moves, kinds in a hand) kept as one int64 bit mask:
# one machine instruction counts it or finds its lowest member (LLVM ctpop/cttz).
from numba.extending import intrinsic as _intrinsic  # noqa: E402


@_intrinsic
def _ctpop(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return x(x), codegen


@_intrinsic
def _ctlz(typingctx, x):
    def codegen(context, builder, signature, args):
        from llvmlite import ir
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))   # defined (64) for 0
    return x(x), codegen


@_intrinsic
def _cttz(typingctx, x):
    def codegen(context, builder, signature, args):
        from llvmlite import ir
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))   # defined (64) for 0
    return x(x), codegen


@njit(inline="always", **NJIT_OPTIONS)
def bit_count(mask):
    """How many bits of ``mask`` (>= 0) are set."""
    return _ctpop(np.int64(mask))


@njit(inline="always", **NJIT_OPTIONS)
def lowest_bit(mask):
    """The index of the lowest set bit of ``mask`` (> 0); 64 for 0."""
    return _cttz(np.int64(mask))


@njit(inline="always", **NJIT_OPTIONS)
def highest_bit(mask):
    """The index of the highest set bit of ``mask`` (>= 0); -1 for 0."""
    return 63 - _ctlz(np.int64(mask))


@njit(inline="always", **NJIT_OPTIONS)
def nth_bit(mask, i):
    """The index of the i-th set bit of ``mask``, counted from 0 in ascending order
    (the i-th member of the set); the caller makes sure ``i < bit_count(mask)``."""
    m = np.int64(mask)
    for _ in range(i):
        m &= m - 1
    return _cttz(m)


def _fast_pdep() -> bool:
    """Whether numba compiles for a CPU with a fast ``pdep`` (BMI2): Intel since Haswell, AMD
    since Zen 3 (Zen 1 and 2 have it in microcode, hundreds of cycles)."""
    import llvmlite.binding as ll
    from numba import config
    from numba.core.codegen import get_host_cpu_features
    name = config.CPU_NAME or ll.get_host_cpu_name()
    features = config.CPU_FEATURES if config.CPU_FEATURES is not None else get_host_cpu_features()
    return "+bmi2" in features.split(",") and name not in ("generic", "znver1", "znver2")


@_intrinsic
def _pdep(typingctx, x, mask):
    def codegen(context, builder, signature, args):
        from llvmlite import ir
        i64 = ir.IntType(64)
        fnty = ir.FunctionType(i64, [i64, i64])
        return builder.call(builder.module.declare_intrinsic("llvm.x86.bmi.pdep.64", fnty=fnty), args)
    return x(x, mask), codegen


@njit(inline="always", **NJIT_OPTIONS)
def _nth_bit_pdep(mask, i):
    return _cttz(_pdep(np.int64(1) << i, np.int64(mask)))


@njit(inline="always", **NJIT_OPTIONS)
def _nth_bit_search(mask, i):
    # halve the window three times (8, 4, 2 bits), moving up when i is beyond its lower half
    m = np.int64(mask)
    pos = 0
    for width in (8, 4, 2):
        c = _ctpop(m & ((np.int64(1) << width) - 1))
        up = np.int64(i >= c)
        i -= up * c
        pos += up * width
        m >>= up * width
    return pos + np.int64(i >= (m & 1))


#: ``nth_bit_small(mask, i)``: ``nth_bit`` for a mask below 2**16 (card kinds, seats), without a
#: branch: the loop's exit depends on ``i``, a random number when a strategy draws a move, and
#: the mispredicted exit cost Bombs Away's ``random`` more than the draw itself. One ``pdep``
#: instruction where the CPU has a fast one, else a branch-free binary search by bit counts.
nth_bit_small = _nth_bit_pdep if _fast_pdep() else _nth_bit_search


def bits_py(mask: int) -> list[int]:
    """Reference twin: the set bits of ``mask``, ascending."""
    return [k for k in range(mask.bit_length()) if mask >> k & 1]
