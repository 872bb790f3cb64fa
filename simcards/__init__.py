"""simcards: a Monte-Carlo strategy simulator for card games.

>>> import simcards
>>> frame = simcards.simulate("five-alive", ["high_first", "random", "random"], 10_000, seed=1)
>>> simcards.summarize(frame)
"""
from __future__ import annotations


from typing import TYPE_CHECKING, Any

from simcards.errors import IllegalMoveError, SimcardsError
from simcards.package import __version__
from simcards.contract.registry import get_game

if TYPE_CHECKING:       # type checkers and editors see it where Python loads it lazily (below)
    from simcards.run.simulation import simulate
    from simcards.balancing.run import balance


def __getattr__(name: str) -> Any:
    """``simcards.simulate``, imported at its first use: it brings pandas and numba (0.4 s), which
    ``simcards --help`` and the commands that play nothing do without. (Its module is
    ``simcards.simulation``: a submodule named ``simulate`` would replace the function on the
    package as soon as it was imported.)"""
    if name == "simulate":
        from simcards.run.simulation import simulate
        globals()["simulate"] = simulate      # asked once: a plain attribute from then on
        return simulate
    if name == "balance":
        from simcards.balancing.run import balance
        globals()["balance"] = balance
        return balance
    raise AttributeError(f"module 'simcards' has no attribute {name!r}")


def __dir__() -> list[str]:
    """Completion in a notebook lists ``simulate`` before its first use too."""
    return sorted(set(globals()) | {"simulate", "balance"})


def summarize(frame):
    """Win rate per strategy and per seat with 95% Wilson intervals (see simcards.stats)."""
    from simcards.statistics.intervals import summarize as _summarize  # statsmodels loads in 0.7 s: only when asked
    from simcards.contract.validate import check_frame
    check_frame(frame)
    return _summarize(frame)


def list_games() -> list[str]:
    """Names of the registered games. (Not ``simcards.games``: that name is the package of
    the games, which Python binds on ``simcards`` as soon as a game is imported.)"""
    from simcards.contract.registry import games
    return list(games())


def list_strategies(game: str, strategy_dirs=()) -> list[str]:
    """Names of the usable strategies of a game (built-in, ``SIMCARDS_STRATEGY_PATH`` and
    ``strategy_dirs``); ``simcards strategies GAME`` also shows the broken files and why."""
    from simcards.contract.strategy_registry import strategies_for
    from simcards.contract.validate import check_folders
    dirs = check_folders(strategy_dirs, "strategy_dirs")
    return [n for n, i in strategies_for(get_game(game), dirs).items() if not i.problem]


def rule_options(game: str) -> dict:
    """Every rule option of a game with its default value."""
    spec = get_game(game)
    return spec.resolve_rules({})


__all__ = ["simulate", "balance", "summarize", "list_games", "get_game", "list_strategies", "rule_options",
           "SimcardsError", "IllegalMoveError", "__version__"]
