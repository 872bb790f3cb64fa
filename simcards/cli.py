"""The ``simcards`` command: thin skins over the library (simcards.simulate, replay, bench)."""
from __future__ import annotations

import contextlib
import os
import functools
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from simcards.errors import IllegalMoveError, SimcardsError

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Monte-Carlo strategy simulator for card games.")
out = Console()
err = Console(stderr=True)

GameArg = Annotated[str, typer.Argument(help="Game name, as `simcards games` lists it.")]
RuleOpt = Annotated[Optional[list[str]], typer.Option(
    "--rule", "-r", help="Rule option as key=value (repeatable); `simcards rules GAME` lists them.")]
SeedOpt = Annotated[int, typer.Option(help="Base seed: the same seed gives the same games.")]
StrategyDirOpt = Annotated[Optional[list[Path]], typer.Option(
    "--strategy-dir", help="A folder of your own strategies, <game_package>/<name>.py (repeatable); "
                           "$SIMCARDS_STRATEGY_PATH adds folders too.")]


def fail(message: str, code: int = 2) -> None:
    err.print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


def command(name: str):
    """Register a command whose bad input ends in one line on stderr and exit code 2."""
    def wrap(func):
        @functools.wraps(func)
        def run(*args, **kwargs):
            try:
                return func(*args, **kwargs)
            except (SimcardsError, IllegalMoveError) as exc:
                fail(str(exc))
        return app.command(name)(run)
    return wrap


def _strategy_list(spec, players: Optional[int], strategies: Optional[str]) -> list[str]:
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


@command("games")
def games_cmd() -> None:
    """List the games."""
    from simcards.registry import games
    table = Table("game", "players", "what it is")
    for name, spec in games().items():
        table.add_row(name, f"{spec.min_players}-{spec.max_players}", spec.summary)
    out.print(table)


@command("strategies")
def strategies_cmd(game: GameArg, strategy_dir: StrategyDirOpt = None) -> None:
    """List a game's strategies with their rationale (a broken file is listed with its fault)."""
    from simcards.registry import get_game
    from simcards.strategy_registry import strategies_for
    table = Table("strategy", "rationale", "file")
    for name, info in strategies_for(get_game(game), strategy_dir or ()).items():
        table.add_row(name, f"[red]cannot be used:[/] {escape(info.problem)}" if info.problem
                      else escape(info.summary), escape(str(info.path)))
    out.print(table)


@command("rules")
def rules_cmd(game: GameArg) -> None:
    """List a game's rule options with their defaults."""
    from simcards.registry import get_game
    spec = get_game(game)
    table = Table("option", "default", "accepted", "meaning")
    for opt in spec.options:
        table.add_row(opt.name, opt.describe_default(), opt.accepted(), opt.help)
    out.print(table)


def summarize(frame):
    from simcards.stats import summarize as _summarize
    return _summarize(frame)


def summary_table(summary, title: str) -> Table:
    table = Table("", "name", "games", "win rate", "95% interval", title=title)
    for row in summary.itertuples():
        table.add_row(row.scope, row.name, f"{row.games:,}", f"{row.win_rate:.4f}",
                      f"{row.ci_low:.4f} - {row.ci_high:.4f}")
    return table


@command("run")
def run_cmd(
    game: GameArg,
    players: Annotated[Optional[int], typer.Option(help="Number of players (default: one per strategy).")] = None,
    strategies: Annotated[Optional[str], typer.Option(
        help="Strategies, one per seat separated by commas, or one for every seat.")] = None,
    games: Annotated[int, typer.Option(help="Number of games.")] = 100_000,
    seed: SeedOpt = 0,
    rule: RuleOpt = None,
    out_path: Annotated[Optional[Path], typer.Option("--out", help="Write every game's rows to .parquet or .csv.")] = None,
    threads: Annotated[Optional[int], typer.Option(help="Threads on this machine (default: all cores).")] = None,
    cluster: Annotated[Optional[str], typer.Option(
        help="Run on Dask: 'local' (a LocalCluster here) or a scheduler address tcp://HOST:8786. "
             "Default: $SIMCARDS_CLUSTER, else threads here.")] = None,
    workers: Annotated[Optional[int], typer.Option(help="Workers of a --cluster local (default: all cores).")] = None,
    chunk_size: Annotated[Optional[int], typer.Option(help="Games per chunk (the unit of work and of resuming).")] = None,
    run_dir: Annotated[Optional[Path], typer.Option(
        help="Save every finished chunk here (Parquet parts and a manifest), so the run can --resume.")] = None,
    resume: Annotated[bool, typer.Option(help="Finish the run saved in --run-dir: only missing chunks are played.")] = False,
    summary_only: Annotated[bool, typer.Option(
        help="Keep running totals instead of rows: memory stays flat however many games.")] = False,
    rotate: Annotated[Optional[bool], typer.Option(
        "--rotate/--no-rotate", help="Play every deal in every seat order (default for mixed line-ups), "
             "so strategy rows are net of seat; --no-rotate keeps each strategy in its seat.")] = None,
    strategy_dir: StrategyDirOpt = None,
) -> None:
    """Simulate games and print win rates with 95% intervals."""
    from simcards.options import parse_assignments
    from simcards.registry import get_game
    from simcards.runner import RunSpec, backend_for, execute
    spec = get_game(game)
    names = _strategy_list(spec, players, strategies)
    if out_path is not None and out_path.suffix not in (".parquet", ".csv"):
        raise SimcardsError(f"bad output file {str(out_path)!r}: expected a .parquet or .csv name")
    if out_path is not None and summary_only:
        raise SimcardsError("--out writes every game's rows, which --summary-only does not keep: use one of them")
    for label, value in (("thread count", threads), ("worker count", workers)):
        if value is not None and value < 1:
            raise SimcardsError(f"bad {label} {value}: expected a positive integer")
    if resume and run_dir is None:
        raise SimcardsError("--resume needs --run-dir, the folder of the run to finish")
    run = RunSpec.create(game, names, games, seed, parse_assignments(rule), chunk_size=chunk_size,
                         summary_only=summary_only, strategy_dirs=strategy_dir or (), threads=threads)
    backend = backend_for(cluster, threads, workers)
    from simcards.rotation import describe, execute_rotated, should_rotate
    with _progress(games) as advance:
        if should_rotate(rotate, names, summary_only):
            result = execute_rotated(
                lambda seating, deals: RunSpec.create(game, seating, deals, seed, parse_assignments(rule),
                                                      chunk_size=chunk_size, strategy_dirs=strategy_dir or (),
                                                      threads=threads),
                names, games, execute, run_dir, backend=backend, resume=resume, progress=advance)
        else:
            result = execute(run, backend, run_dir, resume, progress=advance)
    if summary_only:
        out.print(summary_table(result.summary(), f"{game}: {result.games:,} games (summary only), seed {seed}"))
        unfinished = result.unfinished
    else:
        from simcards.stats import unfinished_games
        out.print(summary_table(summarize(result), f"{game}: {describe(result)}, seed {seed}"))
        unfinished = unfinished_games(result)
    if unfinished:
        out.print(f"{unfinished:,} games reached the cap and are recorded as unfinished (no winner).")
    if out_path is not None:
        out_path.parent.mkdir(parents=True, exist_ok=True)
        if out_path.suffix == ".parquet":
            result.to_parquet(out_path, index=False)
        else:
            result.to_csv(out_path, index=False)
        out.print(f"wrote {len(result):,} rows to {out_path}")


@contextlib.contextmanager
def _progress(total: int):
    """One bar for every backend: games done, games per second, time left (on stderr)."""
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn,
                               TaskProgressColumn, TextColumn, TimeRemainingColumn)
    from rich.text import Text

    class Speed(ProgressColumn):
        def render(self, task) -> Text:
            return Text("" if task.speed is None else f"{task.speed:,.0f} games/s")

    with Progress(TextColumn("playing"), BarColumn(), MofNCompleteColumn(), TaskProgressColumn(),
                  Speed(), TimeRemainingColumn(), console=err, transient=True,
                  disable=total < 50_000) as bar:
        task = bar.add_task("games", total=total)
        yield lambda k: bar.advance(task, k)


@command("replay")
def replay_cmd(
    game: GameArg,
    seed: SeedOpt = 0,
    game_index: Annotated[int, typer.Option("--game", help="Game index within the seed.")] = 0,
    strategies: Annotated[Optional[str], typer.Option(help="Strategies, one per seat, comma-separated.")] = None,
    players: Annotated[Optional[int], typer.Option(help="Number of players.")] = None,
    rule: RuleOpt = None,
    strategy_dir: StrategyDirOpt = None,
) -> None:
    """Play one game on the fast engine, check it move by move against the reference engine, print it."""
    from simcards.options import parse_assignments
    from simcards.registry import get_game
    from simcards.replay import record, replay
    spec = get_game(game)
    names = _strategy_list(spec, players, strategies)
    if game_index < 0:
        raise SimcardsError(f"bad game index {game_index}: expected 0 or more")
    rec = record(game, names, seed, game_index, parse_assignments(rule), strategy_dirs=strategy_dir or ())
    ref = replay(rec)
    out.print(f"{spec.title}, seed {seed}, game {game_index}, seats: "
              + ", ".join(f"{i}={s}" for i, s in enumerate(names)), highlight=False)
    for line in ref.log:
        out.print(line, highlight=False)
    seats, game_row = ref.result()
    out.print("Result: " + "; ".join(
        f"seat {p} rank {row[1]}" + (" (winner)" if row[0] else "") for p, row in enumerate(seats)),
        highlight=False)
    out.print(", ".join(f"{c} {v}" for c, v in zip(spec.game_columns, game_row)), highlight=False)
    out.print(f"[green]The reference engine agrees with the fast engine on all "
              f"{len(rec.moves)} moves.[/]")


@command("bench")
def bench_cmd(
    game: GameArg,
    games: Annotated[int, typer.Option(help="Games for the fast engine.")] = 200_000,
    reference_games: Annotated[int, typer.Option(help="Games for the reference engine.")] = 200,
    players: Annotated[int, typer.Option(help="Number of players.")] = 4,
    strategy: Annotated[Optional[str], typer.Option(help="Strategy for every seat (default: the game's).")] = None,
    seed: SeedOpt = 0,
    strategy_dir: StrategyDirOpt = None,
) -> None:
    """Games per second and ns per turn: fast engine on one core and all cores, reference engine."""
    from simcards.bench import bench
    from simcards.registry import get_game
    spec = get_game(game)
    result = bench(game, games=games, reference_games=reference_games, players=players,
                   strategy=strategy or spec.bench_strategy, seed=seed, strategy_dirs=strategy_dir or ())
    table = Table("engine", "games", "seconds", "games/s", f"ns per {result['unit']}",
                  f"CPU ns per {result['unit']}", "speed-up", "CPU speed-up")
    for row in result["rows"]:
        table.add_row(row["engine"], f"{row['games']:,}", f"{row['seconds']:.3f}", f"{row['games_per_s']:,.0f}",
                      f"{row['ns_per_step']:,.1f}", f"{row['cpu_ns_per_step']:,.1f}",
                      f"{row['speedup']:,.0f}x", f"{row['cpu_speedup']:,.0f}x")
    out.print(table)
    out.print(f"mean {result['unit']}s per game: {result['steps_per_game']:.1f}; "
              f"fresh process start (kernel from cache, one game): {result['fresh_start_s']:.2f} s; "
              f"first compile or load in this process: {result['load_s']:.2f} s; "
              f"load average during the run: {result['load_average']:.1f} on {os.cpu_count()} cores "
              "(CPU time is per core, less sensitive to other processes than wall time)")


from simcards.report.cli import register as _register_report  # noqa: E402  (report commands)

_register_report(command)
