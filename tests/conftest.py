"""Tests of one game run on one worker (``--dist loadgroup`` in pyproject.toml).

A game's kernels are compiled by the first test that needs them and loaded from cache by
the rest; spread over two workers, both would compile the same kernels at the same time
(the kernel lock makes the second wait instead, but the wait is lost time all the same).
"""
from __future__ import annotations

from pathlib import Path

import pytest

import simcards

#: tests/<module_name>/ holds a game's own tests
_GAME_FOLDERS = {simcards.get_game(g).module_name: g for g in simcards.list_games()}


def _game_of(item) -> str | None:
    callspec = getattr(item, "callspec", None)
    if callspec is not None and isinstance(callspec.params.get("game"), str):
        return callspec.params["game"]
    return _GAME_FOLDERS.get(Path(str(item.fspath)).parent.name)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    for item in items:
        game = _game_of(item)
        if game is not None and not any(True for _ in item.iter_markers("xdist_group")):
            item.add_marker(pytest.mark.xdist_group(game))


class SharedKernel:
    """Games played on one kernel per game, compiled for all the game's strategies
    (``kernel_strategies``): a kernel compiles in tens of seconds, and a test about rules,
    views or frames gains nothing from a kernel of its own line-up. The games are the same
    as on the line-up's own kernel (tests/five_alive/test_api.py checks it)."""

    @staticmethod
    def prepare(game: str, lineup, seed: int = 0, rules=None, **kwargs):
        from simcards.batch import prepare
        return prepare(game, list(lineup), seed, rules, kernel_strategies=simcards.list_strategies(game),
                       **kwargs)

    @staticmethod
    def record(game: str, lineup, seed: int, index: int, rules=None):
        from simcards.replay import record
        return record(game, list(lineup), seed, index, batch=SharedKernel.prepare(game, lineup, seed, rules))

    @staticmethod
    def simulate(game: str, lineup, n_games: int, seed: int = 0, **kwargs):
        return simcards.simulate(game, list(lineup), n_games, seed,
                                 kernel_strategies=simcards.list_strategies(game), **kwargs)


@pytest.fixture
def shared() -> type[SharedKernel]:
    """The suite's one kernel per game (SharedKernel)."""
    return SharedKernel
