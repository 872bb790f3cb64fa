"""The public API's entry point: play many games and return a tidy pandas frame."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

import pandas as pd

from simcards.run.batch import ProgressFn
from simcards.run.runner import RunSpec, ThreadBackend, execute
from simcards.compiled.rng import MAX_SEED
from simcards.contract.validate import (check_callback, check_count, check_flag, check_folders,
                               check_game_name, check_int, check_names, check_optional_counts,
                               check_rules, strategy_names)


def simulate(game: str, strategies: Sequence[str], n_games: int, seed: int = 0,
             rules: Mapping[str, Any] | None = None, *, start: int = 0,
             threads: int | None = None, chunk_size: int | None = None,
             progress: ProgressFn | None = None, rotate: bool = False,
             strategy_dirs: Sequence[str] = (),
             kernel_strategies: Sequence[str] = (),
             time_limit: float | None = None) -> pd.DataFrame:
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
    ``time_limit`` (seconds of play, the compile not counted) stops a run that has not
    finished by then with a ``TimeLimitError`` naming the line-up: a strategy that never
    returns. A worker thread stuck in such a decision runs on until the process ends.
    """
    check_simulate_arguments(game, strategies, n_games, seed, rules, start=start, threads=threads,
                             chunk_size=chunk_size, progress=progress, rotate=rotate,
                             strategy_dirs=strategy_dirs, kernel_strategies=kernel_strategies)
    from simcards.run.batch import check_time_limit
    time_limit = check_time_limit(time_limit, "time_limit")
    if rotate:
        from simcards.run.rotation import simulate_rotated
        return simulate_rotated(game, strategies, n_games, seed, rules, start=start, threads=threads,
                                chunk_size=chunk_size, progress=progress, strategy_dirs=strategy_dirs,
                                kernel_strategies=kernel_strategies, time_limit=time_limit)
    run = RunSpec.create(game, strategies, n_games, seed, rules, start, chunk_size,
                         kernel_strategies=kernel_strategies, strategy_dirs=strategy_dirs,
                         threads=threads)
    return execute(run, ThreadBackend(threads, time_limit), progress=progress)


def check_simulate_arguments(game: Any, strategies: Any, n_games: Any, seed: Any = 0, rules: Any = None,
                             *, start: Any = 0, threads: Any = None, chunk_size: Any = None,
                             progress: Any = None, rotate: Any = False, strategy_dirs: Any = (),
                             kernel_strategies: Any = ()) -> None:
    """Every argument of ``simulate`` checked for its type and range before anything is
    looked up: each bad one is a ``BadArgument`` (a SimcardsError) naming the argument, the
    value and what is accepted. A str where a list belongs is refused, never split into
    letters; ``rotate`` is True or False, not a truthy str."""
    check_game_name(game)
    strategy_names(strategies)
    check_count(n_games, "n_games")                  # its range: simcards.validate.check_game_range
    check_int(seed, "seed", 0, MAX_SEED)
    check_rules(rules)
    check_count(start, "start", minimum=0)
    check_optional_counts(threads=threads, chunk_size=chunk_size)
    check_callback(progress, "progress")
    check_flag(rotate, "rotate")
    check_folders(strategy_dirs, "strategy_dirs")
    check_names(kernel_strategies, "kernel_strategies")
