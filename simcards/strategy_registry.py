"""Strategies are files: ``strategies/<game_package>/<name>.py``.

A strategy file defines one compiled function per decision kind of its game
(``GameSpec.decisions``), each ``function(view, rng) -> int``; its docstring is
the rationale shown by ``simcards strategies GAME``. Files whose name starts
with ``_`` are helpers shared by strategies, not strategies.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path

from simcards.errors import SimcardsError, choices
from simcards.registry import GameSpec


@dataclass(frozen=True)
class StrategyInfo:
    game: str
    name: str
    module: str
    path: Path
    doc: str

    @property
    def summary(self) -> str:
        return self.doc.strip().splitlines()[0] if self.doc.strip() else ""


def strategy_dir(spec: GameSpec) -> Path:
    import strategies
    return Path(strategies.__path__[0]) / spec.module_name


def helper_files(spec: GameSpec) -> list[Path]:
    folder = strategy_dir(spec)
    return sorted(folder.glob("_*.py")) if folder.is_dir() else []


def strategies_for(spec: GameSpec) -> dict[str, StrategyInfo]:
    """Every strategy for the game, by name (the file's stem), checked to be usable."""
    folder = strategy_dir(spec)
    found: dict[str, StrategyInfo] = {}
    if not folder.is_dir():
        return found
    for path in sorted(folder.glob("*.py")):
        if path.name.startswith("_"):
            continue
        modname = f"strategies.{spec.module_name}.{path.stem}"
        try:
            module = importlib.import_module(modname)
        except Exception as exc:  # a user's broken file must be named, not hidden
            raise SimcardsError(f"strategy file {path} cannot be imported: {exc}") from exc
        missing = [d.function for d in spec.decisions if not callable(getattr(module, d.function, None))]
        if missing:
            raise SimcardsError(
                f"strategy file {path} must define {choices(d.function for d in spec.decisions)}"
                f" for {spec.name}; missing: {choices(missing)}")
        found[path.stem] = StrategyInfo(spec.name, path.stem, modname, path, module.__doc__ or "")
    return found


def check_strategies(spec: GameSpec, names: list[str]) -> dict[str, StrategyInfo]:
    known = strategies_for(spec)
    for name in names:
        if name not in known:
            raise SimcardsError(
                f"unknown strategy {name!r} for {spec.name}: accepted are {choices(known)}")
    return known
