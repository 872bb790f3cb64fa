"""The public API's entry point: play many games and return a tidy pandas frame."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

import pandas as pd

from simcards.batch import ProgressFn
from simcards.runner import RunSpec, ThreadBackend, execute


def simulate(game: str, strategies: Sequence[str], n_games: int, seed: int = 0,
             rules: Mapping[str, Any] | None = None, *, start: int = 0,
             threads: int | None = None, chunk_size: int | None = None,
             progress: ProgressFn | None = None, rotate: bool = False,
             strategy_dirs: Sequence[str] = (),
             kernel_strategies: Sequence[str] = ()) -> pd.DataFrame:
    """Play ``n_games`` games (indices start..start+n_games-1) and return one row per (game, seat).

    ``strategies`` names one strategy per seat (its length is the player count);
    ``rules`` maps rule options to values (``simcards rules GAME`` lists them).
    ``strategy_dirs`` adds folders of strategy files (``<game_package>/<name>.py``).
    The same seed gives the same frame, bit for bit, for any threads or chunk size.
    With ``rotate=True`` every deal is played in every seat order of a balanced
    design (``simcards.rotation``): about ``n_games`` games as whole deals times
    orders, with a column ``order``.
    ``kernel_strategies`` compiles one kernel for a wider pool of strategies, so that
    calls with different line-ups drawn from the pool share one compile (a notebook
    comparing line-ups). The games are the same as without it; the ``strategy`` column's
    categories are then the whole pool, so that such frames concatenate.
    """
    if rotate:
        from simcards.rotation import simulate_rotated
        return simulate_rotated(game, strategies, n_games, seed, rules, start=start, threads=threads,
                                chunk_size=chunk_size, progress=progress, strategy_dirs=strategy_dirs,
                                kernel_strategies=kernel_strategies)
    run = RunSpec.create(game, strategies, n_games, seed, rules, start, chunk_size,
                         kernel_strategies=kernel_strategies, strategy_dirs=strategy_dirs,
                         threads=threads)
    return execute(run, ThreadBackend(threads), progress=progress)
