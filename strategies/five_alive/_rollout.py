"""The strategy every seat plays in a search's rollouts, and in the games that build its
value table (strategies/five_alive/search.py, _values.py): one place, so that the table
counts games of exactly the play the rollouts play."""
import numpy as np
from numba import njit

from simcards.config import INTERNAL_NJIT_FLAGS, NJIT_OPTIONS
from simcards.games.five_alive.fast import view_play
from . import expert as _expert
from .expert import decide as expert_decide
from .high_first import decide as high_first_decide

#: expert's parameters at their defaults, in its declared order (a constant to numba)
EXPERT_DEFAULTS = np.array([float(v[0]) for v in _expert.PARAMS.values()], np.float64)
#: the rollout strategies by their ``rollout`` value (search's PARAMS)
ROLLOUT_NAMES = ("expert", "high_first")


@njit(**NJIT_OPTIONS, **INTERNAL_NJIT_FLAGS)
def rollout_move(x, srng, rollout):
    """The rollout strategy's card for the seat to move in state ``x``."""
    if rollout == 1:
        return np.int64(high_first_decide(view_play(x), srng))
    return np.int64(expert_decide(view_play(x), srng, EXPERT_DEFAULTS))
