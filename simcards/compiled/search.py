"""What every game's ``search`` strategy shares: the common-samples bookkeeping and the
choice of a move, compiled.

A determinized Monte-Carlo search (strategies/<game>/search.py) plays every candidate move
on the same sampled deals with the same game stream, so the candidates differ by the move
alone; their *paired* differences against a default move (the rollout strategy's choice)
have far less variance than their values. A noisy argmax over many moves picks a lucky one
often, so a candidate replaces the default only when its mean lead, paired over the
samples, exceeds ``margin`` standard errors (Five Alive probe: margin 1 beat margin 0 by
two points at the same budget; strategies/five_alive/search.py).

The rollout loop itself stays in each game's search module: it calls that game's engine
and strategies, and numba compiles a function taking other functions as arguments again
in every process (no cache), which the kernels avoid (simcards.kernels).

A rollout hands its state and generators to the engine and to the rollout strategy at every
turn, so two things the kernels already do matter as much here. The buffers are borrowed
views (``rollout_buffers``), and each game's rollout loop (``_play_on``), the function that asks
the rollout strategy for a move, and the strategies themselves are compiled without reference
counting (simcards.config: INTERNAL_NJIT_FLAGS, STRATEGY_NJIT_OPTIONS); the end point is scored
in a separate function that may allocate. With it, numba's atomic NRT_incref/NRT_decref around
every call was about 30% of Five Alive's search CPU (experiments/perf_kernel.py), and once the
loop had lost it, still 12-17% in the move function, which had been compiled first for
``search_move`` (which allocates) and so kept it (Thirty-One's search 18% faster without). A
state is copied for every candidate of every sample with simcards.engine.copy_into, not a slice
assignment (another 20%).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simcards.compiled.borrow import borrow
from simcards.compiled.config import NJIT_OPTIONS
from simcards.compiled.rng import next_u64

#: salt between a rollout's game generator and its strategy generator
STRATEGY_SALT = np.uint64(0x5DEECE66D)


@njit(**NJIT_OPTIONS)
def private_stream(rng):
    """A private generator for one decision, seeded by one draw from the strategy stream
    ``rng`` (uint64[1]); the game's deal stream is never touched."""
    local = np.empty(1, np.uint64)
    local[0] = next_u64(rng)
    return local


@njit(**NJIT_OPTIONS)
def seed_rollout(g0, grng, srng):
    """Seed a rollout's game and strategy generators from one number ``g0``: common samples
    give every candidate move the same ``g0``."""
    grng[0] = g0
    srng[0] = g0 ^ STRATEGY_SALT


#: rows of a tally (``new_tally``): a sample's values, their sums, the sums of the paired
#: differences against the default and of their squares, and whether a candidate is still
#: played (1) or was dropped by ``race`` (0)
VALS, SUM_V, SUM_D, SUM_D2, ACTIVE = 0, 1, 2, 3, 4
#: samples before ``race`` may drop a candidate: fewer give standard errors too rough to trust
RACE_MIN_SAMPLES = 16


@njit(**NJIT_OPTIONS)
def new_tally(nk):
    """Zeroed running sums for ``nk`` candidates, all of them in play; a sample writes its
    values into row ``VALS``."""
    tally = np.zeros((5, nk), np.float64)
    tally[ACTIVE, :] = 1.0
    return tally


@njit(**NJIT_OPTIONS)
def rollout_buffers(size):
    """A rollout's scratch: ``owner``, then the re-deal's, game's and strategies' generators
    (uint64[1] each), the re-dealt state ``w`` and the state ``x`` a candidate is played on
    (``size`` int64s).

    The five are borrowed views (simcards.borrow) of the arrays in ``owner`` (why: this
    module's docstring). The caller ends with ``keep_alive(owner)``, after the last use of a
    view."""
    states = np.empty(2 * size, np.int64)
    rngs = np.empty(3, np.uint64)
    return ((states, rngs), borrow(rngs[0:1]), borrow(rngs[1:2]), borrow(rngs[2:3]),
            borrow(states[:size]), borrow(states[size:]))


@njit(**NJIT_OPTIONS)
def index_of(moves, move):
    """The position of ``move`` in ``moves`` (0 if absent): where the default candidate sits."""
    for j in range(moves.shape[0]):
        if moves[j] == move:
            return j
    return 0


@njit(**NJIT_OPTIONS)
def accumulate(tally, jdef):
    """Add the sample in row ``VALS`` (a value per candidate in play) to the running sums:
    values, and differences against candidate ``jdef`` (the default) with their squares."""
    vd = tally[VALS, jdef]
    for j in range(tally.shape[1]):
        if tally[ACTIVE, j] != 0.0:
            d = tally[VALS, j] - vd
            tally[SUM_V, j] += tally[VALS, j]
            tally[SUM_D, j] += d
            tally[SUM_D2, j] += d * d


@njit(**NJIT_OPTIONS)
def _paired_se(tally, j, samples):
    """Mean paired lead of candidate ``j`` over the default, and its standard error."""
    mean = tally[SUM_D, j] / samples
    se = 0.0
    if samples > 1:
        var = (tally[SUM_D2, j] - samples * mean * mean) / (samples - 1)
        se = np.sqrt(max(var, 0.0) / samples)
    return mean, se


@njit(**NJIT_OPTIONS)
def race(tally, jdef, samples, z):
    """Drop every candidate whose paired lead over the default is below zero by more than
    ``z`` standard errors (after ``RACE_MIN_SAMPLES`` samples; ``z`` 0: never); returns how
    many candidates are still in play. A dropped candidate could only have replaced the
    default by leading it, so the budget it would have used goes to the close ones (racing,
    as in successive rejects); the default is never dropped."""
    active = 0
    for j in range(tally.shape[1]):
        if tally[ACTIVE, j] == 0.0:
            continue
        if z > 0.0 and j != jdef and samples >= RACE_MIN_SAMPLES:
            mean, se = _paired_se(tally, j, samples)
            if mean + z * se < 0.0:
                tally[ACTIVE, j] = 0.0
                continue
        active += 1
    return active


@njit(**NJIT_OPTIONS)
def keep_sampling(samples, spent, active, budget):
    """Whether to draw another sample: always a first one; then while the ``active``
    candidates still fit in the ``budget`` of rollouts (``spent`` so far), and more than the
    default is in play (once ``race`` has dropped every other one, the answer is fixed)."""
    return samples == 0 or (active > 1 and spent + active <= budget)


@njit(**NJIT_OPTIONS)
def paired_choice(tally, samples, jdef, margin):
    """The candidate to play: the best mean among those in play if it leads the default
    ``jdef`` by more than ``margin`` standard errors of the paired difference, else ``jdef``.
    (Candidates in play have all been played on every one of the ``samples``.)"""
    best = jdef
    for j in range(tally.shape[1]):
        if tally[ACTIVE, j] != 0.0 and tally[SUM_V, j] > tally[SUM_V, best]:
            best = j
    if best == jdef:
        return jdef
    mean, se = _paired_se(tally, best, samples)
    if mean > margin * se:
        return best
    return jdef


@njit(**NJIT_OPTIONS)
def win_share(seat_out, n, seat):
    """``seat``'s share of the win from a game's result rows (column 0: 1 for a winner):
    1 / the number of winners if it is one of them (ties shared), else 0."""
    if seat_out[seat, 0] == 0:
        return 0.0
    winners = 0
    for p in range(n):
        winners += seat_out[p, 0]
    return 1.0 / winners
