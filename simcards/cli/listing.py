"""What there is: ``simcards games``, ``strategies`` and ``rules``."""
from __future__ import annotations

from rich.markup import escape
from rich.table import Table

from simcards.cli.args import GameArg, StrategyDirOpt
from simcards.cli.base import command, out


@command("games")
def games_cmd() -> None:
    """List the games."""
    from simcards.contract.registry import games
    table = Table("game", "players", "what it is")
    for name, spec in games().items():
        table.add_row(name, f"{spec.min_players}-{spec.max_players}", spec.summary)
    out.print(table)

@command("strategies")
def strategies_cmd(game: GameArg, strategy_dir: StrategyDirOpt = None) -> None:
    """List a game's strategies with their rationale and run-time parameters (a broken file is
    listed with its fault).

    A seat's strategy may set parameters after its name, each as :key=value, for example
    expert:danger=3:keep_zeros=0 in Five Alive; keys left out keep their defaults.
    New values never recompile anything."""
    from simcards.compiled.params import describe
    from simcards.contract.registry import get_game
    from simcards.contract.strategy_registry import strategies_for
    table = Table()
    table.add_column("strategy", no_wrap=True)    # a name is typed back: never broken
    for heading in ("rationale", "parameters (default, accepted)", "file"):
        table.add_column(heading)
    for name, info in strategies_for(get_game(game), strategy_dir or ()).items():
        table.add_row(name, f"[red]cannot be used:[/] {escape(info.problem)}" if info.problem
                      else escape(info.summary),
                      escape(describe(info.params) or (f"plays {info.alias}" if info.alias else "-")),
                      escape(str(info.path)))
    out.print(table)

@command("rules")
def rules_cmd(game: GameArg) -> None:
    """List a game's rule options with their defaults."""
    from simcards.contract.registry import get_game
    spec = get_game(game)
    table = Table("option", "default", "accepted", "meaning")
    for opt in spec.options:
        table.add_row(opt.name, opt.describe_default(), opt.accepted(), opt.help)
    out.print(table)
