"""Shared fixtures for the Vzhukh tests: one compiled kernel for the whole session.

Every line-up below is run on the kernel for *all* Vzhukh strategies
(``prepare(..., kernel_strategies=...)``), so the session compiles, or loads
from numba's cache, one kernel however many mixes and player counts it uses.
"""
import pytest

from simcards.registry import get_game
from simcards.replay import record
from simcards.batch import prepare
from simcards.strategy_registry import strategies_for

GAME = "vzhukh"


@pytest.fixture(scope="session")
def all_strategies():
    return tuple(sorted(strategies_for(get_game(GAME))))


@pytest.fixture(scope="session")
def make_batch(all_strategies):
    """Batch for any line-up, sharing the kernel compiled for every strategy."""
    def make(seats, seed=0, rules=None):
        return prepare(GAME, list(seats), seed, rules, kernel_strategies=all_strategies)
    seats = list(all_strategies)[:2]
    record(GAME, seats, 0, 0, batch=make(seats))   # compile, or load from numba's cache, once
    return make
