"""One chunk of games in the compiled kernel, on the calling thread.

Apart from ``batch`` (which validates and prepares), since a strategy that raises in compiled
code is named by playing its game again in the twin engine (``replay.strategy_raised``), and
replay itself prepares its games with ``batch``: here the three meet without a circle.
"""
from __future__ import annotations

import numpy as np

from simcards.codegen.kernels import ST_ILLEGAL, STATUS_SIZE
from simcards.errors import SimcardsError
from simcards.run.batch import Batch, RunStopped, new_stop_flag, raise_illegal
from simcards.run.replay import strategy_raised


def run_range(batch: Batch, start: int, count: int, stop: np.ndarray | None = None
              ) -> tuple[np.ndarray, np.ndarray]:
    """Games start..start+count-1 on the calling thread: (seat records, game records).

    ``stop``: the run's stop flag (``new_stop_flag``), set by another thread to stop the
    kernel between games; RunStopped is raised then. A strategy that raises (an exception in
    its compiled code) is named in one line with the game (StrategyError)."""
    n = batch.n_players
    seat_out = np.zeros((count, n, batch.seat_width), np.int64)
    game_out = np.zeros((count, len(batch.spec.game_columns)), np.int64)
    status = np.zeros(STATUS_SIZE, np.int64)
    stop = new_stop_flag() if stop is None else stop
    kernel = batch.kernel(check=False)
    try:
        done = kernel.play_batch(batch.seed, start, count, batch.sids, batch.params,
                                 batch.strategy_params, seat_out, game_out, status, stop)
    except SimcardsError:
        raise
    except Exception as exc:     # raised in compiled code: a strategy's, found with its game
        raise strategy_raised(batch, exc, range(start, start + count), kernel) from None
    if status[ST_ILLEGAL] != 0:
        raise_illegal(batch, status)
    if done < count:
        raise RunStopped(f"the run was stopped before game index {start + done}")
    return seat_out, game_out
