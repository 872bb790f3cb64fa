"""The contract suite: every registered game passes these tests, with no line written for it.

A game is parametrized in by its registration alone (simcards.registry.games()); what the
tests need from it is the engine contract (docs/architecture.md, simcards.registry).
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import simcards
from simcards.batch import Batch, prepare
from simcards.errors import SimcardsError
from simcards.options import RuleOption
from simcards.strategy_registry import strategies_for

GAMES = sorted(simcards.list_games())


def pytest_generate_tests(metafunc):
    if "game" in metafunc.fixturenames:
        metafunc.parametrize("game", GAMES)


def all_strategies(game: str) -> list[str]:
    # the pool of the suite's one kernel per game (tests/conftest.py, the ``shared`` fixture)
    return sorted(simcards.list_strategies(game))


#: Parameters that make a strategy read hidden cards on purpose, kept at their defaults here:
#: search's ``oracle`` (the skill index's open-hand information ceiling) rolls out on the true
#: deal, which the reference engine's views hide, so no twin or replay can play its games.
#: tests/core/test_search_oracle.py checks that it does read them, and that plain search does not.
SEES_HIDDEN = frozenset({"oracle"})


def param_variants(game: str) -> list[str]:
    """Each strategy with run-time parameters once more, every parameter off its default
    (its lowest value, or its highest where the default is the lowest): the kernel and the
    reference twin must hand the same row to the same function."""
    from simcards.params import SEPARATOR
    out = []
    for name, info in sorted(strategies_for(simcards.get_game(game)).items()):
        if info.params and not info.problem:
            values = [(p.name, p.low if p.default != p.low else p.high) for p in info.params
                      if p.name not in SEES_HIDDEN]
            out.append(SEPARATOR.join([name] + [f"{k}={int(v) if float(v).is_integer() else v}"
                                                for k, v in values]))
    return out


#: A strategy with a ``budget`` parameter (a search player) plays the contract's line-ups at
#: this budget: the contract checks rules, views and replays, not strength, and a search at
#: its full budget costs milliseconds a decision.
CONTRACT_BUDGET = 20


def contract_names(game: str) -> list[str]:
    """The game's strategies as the contract plays them (search players at a small budget)."""
    infos = strategies_for(simcards.get_game(game))
    return [f"{n}:budget={CONTRACT_BUDGET}" if any(p.name == "budget" for p in infos[n].params) else n
            for n in all_strategies(game)]


def lineups(game: str, per_count: int = 2) -> list[list[str]]:
    """Every player count, seats filled from a cycle over all the game's strategies (and
    their parameter variants)."""
    spec = simcards.get_game(game)
    cycle = itertools.cycle(contract_names(game) + param_variants(game))
    return [[next(cycle) for _ in range(n)]
            for n in range(spec.min_players, spec.max_players + 1) for _ in range(per_count)]


def batch_for(game: str, lineup: list[str], seed: int, rules: dict | None = None) -> Batch:
    # one kernel for every line-up of a game: all its strategies
    return prepare(game, lineup, seed, rules, kernel_strategies=all_strategies(game))


def _other_values(opt: RuleOption, default) -> list:
    if opt.choices:
        return [c for c in opt.choices if c != default]
    if opt.kind is bool:
        return [not default]
    if opt.kind is int:
        values = {v for v in (opt.minimum, default - 1, default + 1) if v is not None}
        return sorted(v for v in values if v != default and (opt.minimum is None or v >= opt.minimum)
                      and (opt.maximum is None or v <= opt.maximum))
    return []


def rule_variants(game: str) -> list[tuple[str, dict]]:
    """One non-default value of every rule option at a time, generated from the options'
    declared choices and bounds (turn caps too: an unfinished game must replay as well)."""
    spec = simcards.get_game(game)
    defaults = spec.resolve_rules({})
    out = []
    for opt in spec.options:
        for value in _other_values(opt, defaults[opt.name]):
            out.append((f"{opt.name}={value}", {opt.name: value}))
    return out


def usable(game: str, lineup: list[str], rules: dict) -> bool:
    """A variant may not fit every player count (say, hands too big for the deck); and one that
    leaves the engine's rule row as the default rules have it at this player count (a seat's
    compensation where that seat is not at the table) would only replay the default game."""
    try:
        prepare(game, lineup, 0, rules)
    except SimcardsError:
        return False
    spec = simcards.get_game(game)
    resolved, defaults, n = spec.resolve_rules(rules), spec.resolve_rules({}), len(lineup)
    return resolved == defaults or not np.array_equal(spec.encode_params(resolved, n),
                                                      spec.encode_params(defaults, n))


class Kit:
    """The helpers above, handed to tests as the ``kit`` fixture (test modules are imported
    in importlib mode, so they cannot import this file by name)."""

    all_strategies = staticmethod(all_strategies)
    lineups = staticmethod(lineups)
    batch_for = staticmethod(batch_for)
    rule_variants = staticmethod(rule_variants)
    usable = staticmethod(usable)


@pytest.fixture
def kit() -> type[Kit]:
    return Kit
