"""The games simcards knows. Each game package registers one ``GameSpec`` at import."""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Callable, Mapping

import numpy as np

from simcards.errors import SimcardsError, choices
from simcards.options import RuleOption, resolve_options


@dataclass(frozen=True)
class Decision:
    """One kind of decision a strategy makes: the engine builds ``view_<name>``
    and calls the strategy module's function ``function(view, rng) -> int``."""

    name: str
    function: str
    help: str


@dataclass(frozen=True)
class GameSpec:
    name: str                       # CLI/API name, e.g. "five-alive"
    title: str
    package: str                    # python package holding rules/fast/reference
    min_players: int
    max_players: int
    options: tuple[RuleOption, ...]
    decisions: tuple[Decision, ...]
    seat_columns: tuple[str, ...]   # per-seat outcome columns the kernel writes
    game_columns: tuple[str, ...]   # per-game outcome columns the kernel writes
    encode_params: Callable[[dict, int], np.ndarray]
    bench_strategy: str
    summary: str = ""
    extra: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        names = ("game", "seat", "strategy", "win_share", "rank") + self.seat_columns + self.game_columns
        repeated = sorted({c for c in names if names.count(c) > 1})
        if repeated:
            raise ValueError(f"game {self.name!r} declares result columns twice: {', '.join(repeated)}")

    @property
    def module_name(self) -> str:
        return self.package.rsplit(".", 1)[-1]

    @property
    def fast(self) -> ModuleType:
        return importlib.import_module(self.package + ".fast")

    @property
    def reference(self) -> ModuleType:
        return importlib.import_module(self.package + ".reference")

    def resolve_rules(self, rules: Mapping[str, Any] | None) -> dict[str, Any]:
        resolved = resolve_options(self.name, self.options, rules)
        check = self.extra.get("check_rules")
        if check is not None:
            check(resolved)
        return resolved

    def check_players(self, n: int) -> None:
        if not (self.min_players <= n <= self.max_players):
            raise SimcardsError(
                f"{self.name} is played by {self.min_players} to {self.max_players} players, "
                f"not {n}")


_GAMES: dict[str, GameSpec] = {}
_discovered = False


def register(spec: GameSpec) -> GameSpec:
    _GAMES[spec.name] = spec
    return spec


def _discover() -> None:
    import simcards.games as pkg
    for info in pkgutil.iter_modules(pkg.__path__):
        importlib.import_module(f"{pkg.__name__}.{info.name}")


def games() -> dict[str, GameSpec]:
    # once, whatever was imported before: a game imported directly must not hide the others
    global _discovered
    if not _discovered:
        _discover()
        _discovered = True
    return dict(sorted(_GAMES.items()))


def get_game(name: str) -> GameSpec:
    known = games()
    if name not in known:
        raise SimcardsError(f"unknown game {name!r}: accepted are {choices(known)}")
    return known[name]
