"""The search players' shared choice (simcards.search): paired sums over common samples, and
"keep the default unless another candidate leads it by ``margin`` paired standard errors"."""
from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from simcards.borrow import keep_alive
from simcards.engine import copy_into
from simcards.search import (ACTIVE, NO_RACE, RACE_MIN_SAMPLES, SUM_D2, SUM_V, VALS, accumulate,
                             index_of, keep_sampling, new_tally, paired_choice, race, rollout_buffers)


def _tally(samples: np.ndarray, jdef: int) -> np.ndarray:
    tally = new_tally(samples.shape[1])
    for row in samples:
        tally[VALS] = row
        accumulate(tally, jdef)
    return tally


def test_the_sums_are_the_values_and_the_paired_differences():
    rng = np.random.default_rng(1)
    samples = rng.random((50, 3))
    tally = _tally(samples, 1)
    d = samples - samples[:, [1]]
    np.testing.assert_allclose(tally[SUM_V:SUM_D2 + 1], [samples.sum(0), d.sum(0), (d * d).sum(0)])


@pytest.mark.parametrize("margin, chosen", [(0.0, 2), (3.0, 2), (4.0, 0)])
def test_another_candidate_replaces_the_default_only_by_a_clear_paired_lead(margin, chosen):
    # candidate 2 leads the default 0 by 0.1 a sample, give or take 0.3: over 100 samples a
    # lead of about 3.3 standard errors (the noise is common to all candidates, so it cancels
    # in the pairs however large it is)
    rng = np.random.default_rng(5)
    common = rng.normal(0, 5, 100)
    lead = 0.1 + rng.normal(0, 0.3, 100)
    lead += 0.1 - lead.mean()                          # exactly 0.1 on average
    se = lead.std(ddof=1) / np.sqrt(100)
    assert 3.0 < 0.1 / se < 4.0
    samples = np.stack([common, common - 0.05, common + lead], axis=1)
    expect = 2 if 0.1 > margin * se else 0
    assert expect == chosen
    assert paired_choice(_tally(samples, 0), 100, 0, margin) == chosen


def test_the_default_stays_when_it_is_best_and_index_of_finds_it():
    samples = np.array([[1.0, 0.0], [1.0, 0.5]])
    assert paired_choice(_tally(samples, 0), 2, 0, 0.0) == 0
    assert index_of(np.array([7, 3, 9]), 9) == 2
    assert index_of(np.array([7, 3, 9]), 4) == 0


def test_race_drops_only_candidates_clearly_behind_the_default_and_never_the_default():
    rng = np.random.default_rng(2)
    common = rng.normal(0, 3, 200)
    # candidate 1 trails the default 0 by 0.5 a sample (noise 0.2): clearly behind;
    # candidate 2 trails it by 0.01 (noise 0.2): not clearly; candidate 3 leads it
    samples = np.stack([common, common - 0.5 + rng.normal(0, 0.2, 200),
                        common - 0.01 + rng.normal(0, 0.2, 200), common + 0.3], axis=1)
    tally = new_tally(4)
    for i, row in enumerate(samples[:RACE_MIN_SAMPLES - 1]):
        tally[VALS] = row
        accumulate(tally, 0)
    assert race(tally, 0, RACE_MIN_SAMPLES - 1, 2.0) == 4        # too few samples to judge
    tally[VALS] = samples[RACE_MIN_SAMPLES - 1]
    accumulate(tally, 0)
    assert race(tally, 0, RACE_MIN_SAMPLES, 0.0) == 4              # z 0: racing off
    assert race(tally, 0, RACE_MIN_SAMPLES, 2.0) == 3
    assert list(tally[ACTIVE]) == [1.0, 0.0, 1.0, 1.0]
    # a dropped candidate's sums stop; those in play go on, and the choice ignores the dropped
    frozen = tally[:, 1].copy()
    tally[VALS] = samples[RACE_MIN_SAMPLES]
    accumulate(tally, 0)
    np.testing.assert_array_equal(tally[1:, 1], frozen[1:])
    tally[SUM_V, 1] = 1e9                                          # even if it looked best
    assert paired_choice(tally, RACE_MIN_SAMPLES + 1, 0, 1.0) == 3
    # the default itself is never dropped, however it trails
    t2 = new_tally(2)
    for row in samples[:, [1, 0]]:
        t2[VALS] = row
        accumulate(t2, 0)
    assert race(t2, 0, 200, 2.0) == 2


@njit
def _buffers_after_writes(size):
    # every view written through, then read back through its owner (simcards.borrow)
    owner, drng, grng, srng, w, x = rollout_buffers(size)
    drng[0], grng[0], srng[0] = 1, 2, 3
    for i in range(size):
        w[i] = i
    copy_into(x, w)
    x[0] = -1
    states, rngs = owner
    out = (states.copy(), rngs.copy(), w.shape[0], x.shape[0])
    keep_alive(owner)
    return out


def test_the_rollout_buffers_are_disjoint_views_of_their_owner_and_copy_into_copies():
    states, rngs, nw, nx = _buffers_after_writes(37)
    assert (nw, nx) == (37, 37)
    assert rngs.tolist() == [1, 2, 3]
    np.testing.assert_array_equal(states[:37], np.arange(37))       # w kept its values
    np.testing.assert_array_equal(states[37:], [-1] + list(range(1, 37)))   # x: the copy, then its own write


@pytest.mark.parametrize("nk", [2, 3, 5, 10])
def test_without_a_race_the_loop_draws_max_1_budget_over_n_samples_of_every_candidate(nk):
    """The template's loop (simcards.search.make_search) samples while ``keep_sampling`` says so
    and lets ``race`` drop candidates; a game with no race passes z 0 (NO_RACE) and must draw
    exactly the ``max(1, budget // n)`` samples of all n candidates its fixed count drew before
    the template, however far behind the default a candidate falls."""
    rng = np.random.default_rng(nk)
    for budget in range(1, 40 * nk):
        tally = new_tally(nk)
        samples, spent, active = 0, 0, nk
        while keep_sampling(samples, spent, active, budget):
            tally[VALS] = rng.random(nk)
            tally[VALS, 1:] -= 5.0                 # every other candidate clearly behind
            accumulate(tally, 0)
            samples += 1
            spent += active
            active = race(tally, 0, samples, NO_RACE)
        assert samples == max(1, budget // nk) and active == nk
        assert (tally[ACTIVE] == 1.0).all()
