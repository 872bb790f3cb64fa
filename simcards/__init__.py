"""simcards: a Monte-Carlo strategy simulator for card games.

>>> import simcards
>>> frame = simcards.simulate("five-alive", ["high_first", "random", "random"], 10_000, seed=1)
>>> simcards.summarize(frame)
"""
from __future__ import annotations

__version__ = "0.1.0"

from simcards.errors import IllegalMoveError, SimcardsError
from simcards.registry import get_game, games
from simcards.simulate import simulate


def summarize(frame):
    """Win rate per strategy and per seat with 95% Wilson intervals (see simcards.stats)."""
    from simcards.stats import summarize as _summarize  # statsmodels loads in 0.7 s: only when asked
    from simcards.validate import check_frame
    check_frame(frame)
    return _summarize(frame)


def list_strategies(game: str) -> list[str]:
    """Names of the strategies available for a game."""
    from simcards.strategy_registry import strategies_for
    return list(strategies_for(get_game(game)))


def rule_options(game: str) -> dict:
    """Every rule option of a game with its default value."""
    spec = get_game(game)
    return spec.resolve_rules({})


__all__ = ["simulate", "summarize", "games", "get_game", "list_strategies", "rule_options",
           "SimcardsError", "IllegalMoveError", "__version__"]
