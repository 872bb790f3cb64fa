"""Arguments and options that several commands take, and their checks: each bad value one line."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from simcards.errors import SimcardsError

GameArg = Annotated[str, typer.Argument(help="Game name, as `simcards games` lists it.")]
RuleOpt = Annotated[Optional[list[str]], typer.Option(
    "--rule", "-r", help="Rule option as key=value (repeatable); `simcards rules GAME` lists them.")]
SeedOpt = Annotated[int, typer.Option(help="Base seed: the same seed gives the same games.")]
StrategyDirOpt = Annotated[Optional[list[Path]], typer.Option(
    "--strategy-dir", help="A folder of your own strategies, <game_package>/<name>.py (repeatable); "
                           "$SIMCARDS_STRATEGY_PATH adds folders too.")]
ForceOpt = Annotated[bool, typer.Option(
    "--force", help="Replace an existing output; only files simcards wrote there are removed.")]


def _option_range(option: str, value: Optional[int], low: int, high: Optional[int] = None,
                  why: str = "") -> None:
    """A number option out of its range: one line naming the option, its value and the range
    (typer has checked that it is an integer)."""
    if value is None or (low <= value and (high is None or value <= high)):
        return
    accepted = (f"an integer {low}..{high}" if high is not None else
                "a positive integer" if low == 1 else f"an integer {low} or more")
    raise SimcardsError(f"bad {option} {value}: expected {accepted}" + (f" ({why})" if why else ""))

def _check_players(spec, players: Optional[int]) -> None:
    if players is not None and not spec.min_players <= players <= spec.max_players:
        raise SimcardsError(f"bad --players {players}: {spec.name} is played by {spec.min_players} "
                            f"to {spec.max_players} players, not {players}")

def _check_seed(seed: int) -> None:
    from simcards.compiled.rng import MAX_SEED
    _option_range("--seed", seed, 0, MAX_SEED)

def _strategy_list(spec, players: Optional[int], strategies: Optional[str]) -> list[str]:
    _check_players(spec, players)
    if strategies is not None and not strategies.strip():
        raise SimcardsError(f"bad --strategies {strategies!r}: expected strategy names separated by "
                            f"commas, or leave it out for {spec.bench_strategy} in every seat")
    names = [s.strip() for s in strategies.split(",")] if strategies else [spec.bench_strategy]
    if any(not s for s in names):
        raise SimcardsError(f"bad strategy list {strategies!r}: expected names separated by commas")
    if players is None:
        players = len(names) if len(names) > 1 else max(spec.min_players, min(4, spec.max_players))
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise SimcardsError(f"--players {players} but {len(names)} strategies given "
                            f"({','.join(names)}): give one strategy, or one per seat")
    spec.check_players(players)
    return names
