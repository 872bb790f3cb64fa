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
