"""A game that does not meet the engine contract fails at registration, naming what is missing,
and does not take the other games down with it."""
from __future__ import annotations

import sys
import types

import pytest

import simcards
from simcards.errors import ContractError
from simcards.registry import RULES_FIELDS, Decision, GameSpec, contract_problems, register


def _spec(package: str, **over) -> GameSpec:
    fields = dict(name="toy", title="Toy", package=package, min_players=2, max_players=3, options=(),
                  decisions=(Decision("play", "decide", "a card", default=True),),
                  seat_columns=("score",), game_columns=("turns",),
                  describe_move=lambda kind, move: str(move), card_names=("a",), bench_strategy="random")
    fields.update(over)
    return GameSpec(**fields)


@pytest.fixture
def toy_package(monkeypatch):
    """A game package with a fast engine that lacks most of the contract."""
    pkg = types.ModuleType("toy_game")
    pkg.__path__ = []
    fast = types.ModuleType("toy_game.fast")
    fast.new_state = fast.start_game = lambda *a: None
    monkeypatch.setitem(sys.modules, "toy_game", pkg)
    monkeypatch.setitem(sys.modules, "toy_game.fast", fast)
    return "toy_game"


def test_missing_parts_are_named(toy_package):
    problems = contract_problems(_spec(toy_package))
    for missing in ("fast.advance", "fast.legal_moves", "fast.view_play", "toy_game.view cannot be imported",
                    "toy_game.reference cannot be imported", "toy_game.defaults cannot be imported"):
        assert any(missing in p for p in problems), (missing, problems)
    assert not any("fast.new_state" in p for p in problems)
    with pytest.raises(ContractError, match="fast.advance"):
        register(_spec(toy_package))
    assert "toy" not in simcards.list_games()


def test_declaring_the_standard_column_or_a_column_twice_fails():
    with pytest.raises(ContractError, match="standard column"):
        _spec("x", game_columns=("turns", "unfinished"))
    with pytest.raises(ContractError, match="twice"):
        _spec("x", seat_columns=("turns",))
    with pytest.raises(ContractError, match="step_column"):
        _spec("x", step_column="moves")


def test_every_shipped_game_meets_the_contract(game):
    assert contract_problems(simcards.get_game(game)) == []


def test_result_columns_need_declared_bounds(toy_package):
    def problems(bounds):
        return [p for p in contract_problems(_spec(toy_package, column_bounds=bounds)) if "column_bounds" in p]

    assert any("least and greatest" in p for p in problems(None))
    assert problems(lambda rules, n: {"score": (0, 9), "turns": (0, 99)}) == []
    assert problems(lambda rules, n: {"score": (0, 9)}) == ["column_bounds['turns']"]
    assert problems(lambda rules, n: {"score": (9, 0), "turns": (0, 1.5)}) == [
        "column_bounds['score'] = (9, 0) (expected two integers, least first)",
        "column_bounds['turns'] = (0, 1.5) (expected two integers, least first)"]
    assert "ZeroDivisionError" in problems(lambda rules, n: {"score": (0, 1 // 0)})[0]


def test_a_spec_from_a_rules_module_takes_every_rule_field_and_names_what_is_missing():
    spec = _spec("toy_game")
    rules = types.ModuleType("toy_game.rules")
    for field, name in RULES_FIELDS.items():
        setattr(rules, name, getattr(spec, field))
    rules.GAME_COLUMNS = ("turns",)            # as declared: the spec appends "unfinished"
    made = GameSpec.from_rules(rules, package="toy_game", title="Toy", bench_strategy="random")
    assert made == spec
    del rules.OPTIONS, rules.column_bounds
    with pytest.raises(ContractError, match="toy_game.rules does not define OPTIONS, column_bounds"):
        GameSpec.from_rules(rules, package="toy_game", title="Toy", bench_strategy="random")


def test_the_bench_strategy_must_be_a_builtin_strategy():
    # `simcards run GAME` with no --strategies and `simcards bench GAME` play it
    real = simcards.get_game("five-alive")
    assert not any("bench_strategy" in p for p in contract_problems(real))
    problems = contract_problems(_spec(real.package, bench_strategy="no_such_strategy"))
    assert any("bench_strategy 'no_such_strategy'" in p and "strategies/five_alive/" in p for p in problems), problems
