"""The checks an experiment file's values go through, each mistake a one-line error naming the
file, the key and what is accepted: integers, texts, lists, tables, numbers in a range, and
strategy names with their run-time parameters."""
from __future__ import annotations

from pathlib import Path

from simcards.compiled import params as sparams
from simcards.contract.registry import GameSpec
from simcards.errors import SimcardsError, choices


class _Checker:
    """Builds the one-line errors: ``FILE: key 'K': PROBLEM; accepted: WHAT``."""

    def __init__(self, path: Path):
        self.path = path

    def fail(self, key: str, problem: str, accepted: str) -> SimcardsError:
        return SimcardsError(f"{self.path}: key {key!r}: {problem}; accepted: {accepted}")

    def keys(self, table: dict, allowed: tuple[str, ...], prefix: str = "") -> None:
        for key in table:
            if key not in allowed:
                raise self.fail(prefix + key, "unknown key", choices(allowed))

    def integer(self, table: dict, key: str, default, lo: int, hi: int, prefix: str = "") -> int:
        value = table.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise self.fail(prefix + key, f"bad value {value!r}", f"an integer {lo}..{hi}")
        return value

    def text(self, table: dict, key: str, default: str, prefix: str = "") -> str:
        value = table.get(key, default)
        if not isinstance(value, str):
            raise self.fail(prefix + key, f"bad value {value!r}", "a string")
        return value

    def int_list(self, table: dict, key: str, lo: int, hi: int, prefix: str = "") -> tuple[int, ...]:
        value = table.get(key)
        accepted = f"a non-empty list of integers {lo}..{hi}"
        if not isinstance(value, list) or not value:
            raise self.fail(prefix + key, f"bad value {value!r}", accepted)
        for v in value:
            if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
                raise self.fail(prefix + key, f"bad value {v!r}", accepted)
        return tuple(sorted(set(value)))

    def table(self, data: dict, key: str) -> dict:
        value = data.get(key, {})
        if not isinstance(value, dict):
            raise self.fail(key, f"bad value {value!r}", "a table")
        return value


def _positive(check: _Checker, data: dict, key: str, default: float, hi: float, accepted: str) -> float:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < hi:
        raise check.fail(key, f"bad value {value!r}", accepted)
    return float(value)


def _strategy_names(check: _Checker, spec: GameSpec, value, key: str, known: dict,
                    allow_all: bool = True) -> tuple[str, ...]:
    accepted = "a list of strategy names" + (' or "all"' if allow_all else "")
    if allow_all and value == "all":
        return tuple(sorted(known))
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise check.fail(key, f"bad value {value!r}", accepted)
    for i, name in enumerate(value):
        _check_strategy(check, spec, name, f"{key}[{i}]", known)
    if len(set(value)) != len(value):
        raise check.fail(key, f"a strategy is listed twice in {value!r}", "distinct names")
    return tuple(value)


def _check_strategy(check: _Checker, spec: GameSpec, text: str, key: str, known: dict) -> None:
    """A strategy name as a seat may give it, with run-time parameters or without
    (``search:budget=200``, simcards.params): the name known, every key and value accepted."""
    try:
        name, given = sparams.split(text)
    except SimcardsError as exc:
        raise check.fail(key, str(exc), "name or name:key=value:...") from None
    if name not in known:
        raise check.fail(key, f"unknown strategy {name!r} for {spec.name}", choices(sorted(known)))
    info = known[name]
    if info.alias:          # an alias takes the parameters of the strategy it plays
        info = known.get(sparams.split(info.alias)[0], info)
    try:
        sparams.resolve(name, info.params, given, text)
    except SimcardsError as exc:
        raise check.fail(key, str(exc), sparams.describe(info.params) or "no parameters") from None
