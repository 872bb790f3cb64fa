"""The search players' shared choice (simcards.search): paired sums over common samples, and
"keep the default unless another candidate leads it by ``margin`` paired standard errors"."""
from __future__ import annotations

import numpy as np
import pytest

from simcards.search import VALS, accumulate, index_of, new_tally, paired_choice


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
    np.testing.assert_allclose(tally[1:], [samples.sum(0), d.sum(0), (d * d).sum(0)])


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
