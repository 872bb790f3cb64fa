"""The ``simcards`` command: thin skins over the library (simcards.simulate, replay, bench)."""
from __future__ import annotations

import functools
import inspect
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer
import typer.core
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from simcards.errors import IllegalMoveError, SimcardsError

if TYPE_CHECKING:                      # (imported where used: a command's start stays short)
    from simcards.benchmark.bench_release import Previous


class OneLineErrors(typer.core.TyperGroup):
    """Usage errors (an unknown option, ``--games 1.5``, ``--seed abc``) as one line on stderr
    and exit code 2, like every other bad input, instead of a framed box.

    typer vendors click (``typer._click``), so its exceptions are matched by what they
    provide (``format_message``, ``exit_code``), not by importing a private module."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except typer.Abort:
            if not standalone_mode:
                raise
            err.print("Aborted.", markup=False)
            code = 1
        except typer.TyperException as exc:
            if not standalone_mode or not hasattr(exc, "format_message"):
                raise
            if type(exc).__name__ == "NoArgsIsHelpError":
                exc.show()      # `simcards` alone: the help, as before
            else:
                err.print(error_line(usage_message(exc)), highlight=False, soft_wrap=True)
            code = exc.exit_code
        if not standalone_mode:
            return code
        sys.exit(code if isinstance(code, int) else 0)


def usage_message(exc) -> str:
    """click's message, plus what is accepted where click does not say it."""
    message = exc.format_message()
    ctx = getattr(exc, "ctx", None)
    if getattr(exc, "option_name", None) and getattr(exc, "possibilities", None) is not None and ctx:
        accepted = sorted(o for p in ctx.command.params for o in p.opts if o.startswith("--"))
        message = (f"unknown option {exc.option_name!r} for `{ctx.command_path}`: "
                   f"accepted are {', '.join(accepted)}")
    elif getattr(exc, "param", None) is not None and hasattr(exc.__cause__, "errors"):
        # typer checks values with pydantic: its error holds the value the user gave
        first = exc.__cause__.errors()[0]
        expected = first["msg"].split(",")[0].replace("Input should be", "expected")
        name = max(getattr(exc.param, "opts", None) or [exc.param.name], key=len)
        message = f"bad value {first['input']!r} for {name}: {expected}"
    elif getattr(exc, "param", None) is not None and (
            found := re.search(r"'([^']*)' is not a valid (int|integer|float)\b", message)):
        # typer before it checked values with pydantic: click's own words, said as above
        expected = "an integer" if found.group(2) != "float" else "a number"
        name = max(getattr(exc.param, "opts", None) or [exc.param.name], key=len)
        message = f"bad value {found.group(1)!r} for {name}: expected {expected}"
    elif type(exc).__name__ == "UsageError" and ctx is not None and "command" in message:
        message = (message.rstrip(".") + ": accepted are "
                   + ", ".join(sorted(ctx.command.list_commands(ctx))))
    return message[:1].lower() + message[1:]


app = typer.Typer(cls=OneLineErrors, add_completion=False, no_args_is_help=True,
                  help="Monte-Carlo strategy simulator for card games.")
out = Console()
err = Console(stderr=True)


def program() -> None:
    """The ``simcards`` command as a process (the console script and ``python -m simcards``).

    When the command is done, its output flushed and the exit handlers run, the process leaves
    without tearing the interpreter down: freeing numba's and LLVM's objects one by one took
    0.7-0.8 s after every command, more than a 10,000-game run (measured on Five Alive), and
    the operating system frees the memory at once. ``app`` itself (CliRunner tests, a caller's
    own process) exits as usual."""
    import atexit
    import signal
    signal.signal(signal.SIGTERM, _on_sigterm)
    signal.signal(signal.SIGINT, _on_sigint)
    sys.unraisablehook = _quiet_interrupts
    try:
        app(prog_name="simcards")
        code = 0
    except SystemExit as exc:
        code = exc.code
    if not isinstance(code, int):       # sys.exit("message") or sys.exit(None)
        if code is not None:
            print(code, file=sys.stderr)
        code = 0 if code is None else 1
    sys.stdout.flush()
    sys.stderr.flush()
    atexit._run_exitfuncs()
    os._exit(code)


GameArg = Annotated[str, typer.Argument(help="Game name, as `simcards games` lists it.")]
RuleOpt = Annotated[Optional[list[str]], typer.Option(
    "--rule", "-r", help="Rule option as key=value (repeatable); `simcards rules GAME` lists them.")]
SeedOpt = Annotated[int, typer.Option(help="Base seed: the same seed gives the same games.")]
StrategyDirOpt = Annotated[Optional[list[Path]], typer.Option(
    "--strategy-dir", help="A folder of your own strategies, <game_package>/<name>.py (repeatable); "
                           "$SIMCARDS_STRATEGY_PATH adds folders too.")]
ForceOpt = Annotated[bool, typer.Option(
    "--force", help="Replace an existing output; only files simcards wrote there are removed.")]


def error_line(message: str) -> Text:
    # a Text, not markup: "pip install 'simcards[dask]'" must keep its brackets
    return Text.assemble(("error:", "bold red"), " ", message)


def fail(message: str, code: int = 2) -> None:
    err.print(error_line(message), highlight=False, soft_wrap=True)
    raise typer.Exit(code)


#: the signals that stopped the command (SIGTERM, recorded by program()'s handler)
_signals: list[int] = []


def interrupted(exc: KeyboardInterrupt) -> None:
    """A command stopped by SIGINT or SIGTERM: one line (what a run folder keeps, how to
    finish), and exit code 128 + the signal, as a shell reports a process the signal killed."""
    import signal
    note = str(exc)
    err.print(f"interrupted: {note}" if note else "interrupted", highlight=False, markup=False,
              soft_wrap=True)
    raise typer.Exit(128 + (_signals[-1] if _signals else signal.SIGINT))


def _on_sigterm(signum, frame) -> None:
    """SIGTERM takes SIGINT's path (whatever handles SIGINT now), instead of Python's default,
    which ends the process at once: saved chunks are kept and the command says so."""
    import signal
    _signals.append(signum)
    handler = signal.getsignal(signal.SIGINT)
    if callable(handler) and handler is not _on_sigint:
        handler(signal.SIGINT, frame)
    else:
        raise KeyboardInterrupt


def _on_sigint(signum, frame) -> None:
    """Python's own SIGINT (a KeyboardInterrupt), remembered: a signal that lands inside numba's
    compiler is swallowed there (a ctypes callback) and comes out as another error, which the
    command then still reports as the interruption it was."""
    _signals.append(signum)
    raise KeyboardInterrupt


def _quiet_interrupts(unraisable) -> None:
    """An interruption swallowed where Python cannot raise it (numba's ctypes callbacks while it
    compiles) is not printed as a traceback: the command reports it in one line (``command``)."""
    if isinstance(unraisable.exc_value, KeyboardInterrupt):
        return
    sys.__unraisablehook__(unraisable)


def command_help(doc: str | None) -> tuple[str, str]:
    """A command's help with each paragraph of its docstring on one line, and the first
    paragraph (its line in ``simcards --help``). typer keeps a docstring's line breaks, so an
    80-column terminal showed them as ragged lines; rich wraps a paragraph to any width."""
    paragraphs = [" ".join(p.split()) for p in inspect.cleandoc(doc or "").split("\n\n")]
    return "\n\n".join(paragraphs), paragraphs[0]


def command(name: str):
    """Register a command whose bad input ends in one line on stderr and exit code 2,
    and whose waits for a compiling kernel are shown on a terminal."""
    def wrap(func):
        text, first = command_help(func.__doc__)
        @functools.wraps(func)
        def run(*args, **kwargs):
            from simcards.outputs import holding_locks
            from simcards.run.waits import kernel_notes
            try:
                with holding_locks(), kernel_notes(err):    # the outputs' locks: the whole command
                    return func(*args, **kwargs)
            except (SimcardsError, IllegalMoveError) as exc:
                fail(str(exc))
            except KeyboardInterrupt as exc:
                interrupted(exc)
            except Exception:
                if _signals:          # the signal became another error on its way (_on_sigint)
                    interrupted(KeyboardInterrupt())
                raise
        return app.command(name, help=text, short_help=first)(run)
    return wrap


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


def summarize(frame):
    from simcards import summarize as _summarize
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
        help="Strategies, one per seat separated by commas, or one for every seat; a strategy "
             "may set run-time parameters, e.g. expert:danger=3 (see `simcards strategies --help`).")] = None,
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
    force: ForceOpt = False,
    time_limit: Annotated[Optional[float], typer.Option(
        "--time-limit", help="Stop the run after this many seconds of play (the compile not counted), "
             "keeping the chunks saved in --run-dir, and name the strategies: one of them may never "
             "return. Threads on this machine only, not --cluster.")] = None,
) -> None:
    """Simulate games and print win rates with 95% intervals."""
    from simcards import outputs
    from simcards.run import run_folder
    from simcards.run.frame import write_parquet
    from simcards.contract.options import parse_assignments
    from simcards.contract.registry import get_game
    from simcards.run.runner import RunSpec, backend_for, execute
    from simcards.contract.validate import check_optional_counts
    from simcards.run.waits import progress_bar
    spec = get_game(game)
    _option_range("--games", games, 1)
    _check_seed(seed)
    names = _strategy_list(spec, players, strategies)
    if out_path is not None and summary_only:
        raise SimcardsError("--out writes every game's rows, which --summary-only does not keep: use one of them")
    check_optional_counts(thread_count=threads, worker_count=workers, chunk_size=chunk_size)
    if resume and run_dir is None:
        raise SimcardsError("--resume needs --run-dir, the folder of the run to finish")
    # every check before the first game: a bad path must not cost the run
    if out_path is not None:
        outputs.check_output_file(out_path, force, "--out", suffixes=(".parquet", ".csv"))
    if run_dir is not None:
        run_folder.check_run_folder(run_dir, resume, force)
    from simcards.run.rotation import describe, execute_rotated, should_rotate
    rotated = should_rotate(rotate, names, summary_only)

    from simcards.run.designs import rotated_lineups
    from simcards.run.run_folder import order_folder, stored_chunk_size
    seatings = rotated_lineups(names) if rotated else [tuple(names)]

    def spec_for(seating, n):
        # a resumed run keeps the chunks it was cut into, whatever --threads says now
        folder = None if run_dir is None or not resume else (
            run_dir / order_folder(seatings.index(tuple(seating))) if rotated else run_dir)
        return RunSpec.create(game, seating, n, seed, parse_assignments(rule),
                              chunk_size=chunk_size or stored_chunk_size(folder),
                              summary_only=summary_only, strategy_dirs=strategy_dir or (), threads=threads)

    run = spec_for(names, games)        # validates every input, whichever way it is played
    backend = backend_for(cluster, threads, workers)
    if time_limit is not None:
        from simcards.run.batch import check_time_limit
        from simcards.run.runner import ThreadBackend
        if not isinstance(backend, ThreadBackend):
            raise SimcardsError("--time-limit stops threads on this machine: it does not go with --cluster "
                                "(or $SIMCARDS_CLUSTER)")
        backend.time_limit = check_time_limit(time_limit, "--time-limit")
    if hasattr(backend, "reach"):
        backend.reach()     # a scheduler's address: reached, or one line, before anything is written
    if run_dir is not None and force:
        run_folder.clear_run_folder(run_dir)
    with progress_bar(err, games) as bar:
        if rotated:
            result = execute_rotated(spec_for, names, games, run_dir, backend=backend,
                                     resume=resume, progress=bar.advance)
        else:
            result = execute(run, backend, run_dir, resume, progress=bar.advance)
    if summary_only:       # the same design as with rows: rotated totals for a rotated run
        title = describe(result) if rotated else f"{result.games:,} games (summary only)"
        out.print(summary_table(result.summary(), f"{game}: {title}, seed {seed}"))
        unfinished = result.unfinished
    else:
        from simcards.statistics.intervals import unfinished_games
        out.print(summary_table(summarize(result), f"{game}: {describe(result)}, seed {seed}"))
        unfinished = unfinished_games(result)
    if unfinished:
        out.print(f"{unfinished:,} games reached the cap and are recorded as unfinished (no winner).")
    if out_path is not None:
        if out_path.suffix == ".parquet":
            outputs.write_file(out_path, lambda tmp: write_parquet(result, tmp))
        else:
            outputs.write_file(out_path, lambda tmp: result.to_csv(tmp, index=False))
        out.print(f"wrote {len(result):,} rows to {out_path}", markup=False, highlight=False)




@command("replay")
def replay_cmd(
    game: GameArg,
    seed: SeedOpt = 0,
    game_index: Annotated[int, typer.Option("--game", help="Game index within the seed.")] = 0,
    strategies: Annotated[Optional[str], typer.Option(help="Strategies, one per seat, comma-separated.")] = None,
    players: Annotated[Optional[int], typer.Option(help="Number of players.")] = None,
    rule: RuleOpt = None,
    strategy_dir: StrategyDirOpt = None,
    open_hands: Annotated[bool, typer.Option(
        "--open", help="Show every hand and what the deciding seat may see at each decision.")] = False,
    json_path: Annotated[Optional[Path], typer.Option(
        "--json", help="Also write the replay as data: every decision, the view the strategy saw, the move.")] = None,
    force: ForceOpt = False,
    decision_time_limit: Annotated[float, typer.Option(
        "--decision-time-limit", help="Stop the replay when one decision takes longer than this many "
             "seconds, naming its strategy: it may never return.")] = 10.0,
) -> None:
    """Play one game on the fast engine, check it move by move against the reference engine, print it.

    A game stopped by an illegal move is replayed up to that move, shown last with why it is illegal."""
    import json

    from simcards import outputs
    from simcards.contract.options import parse_assignments
    from simcards.contract.registry import get_game
    from simcards.run.replay import record
    from simcards.run.replay_story import as_json, as_lines, tell
    from simcards.contract.validate import check_game_index
    spec = get_game(game)
    _check_seed(seed)
    names = _strategy_list(spec, players, strategies)
    check_game_index(game_index)
    if json_path is not None:
        outputs.check_output_file(json_path, force, "--json", suffixes=(".json",))
    from simcards.run.batch import check_time_limit
    check_time_limit(decision_time_limit, "--decision-time-limit")
    rec = record(game, names, seed, game_index, parse_assignments(rule), stop_at_illegal=True,
                 strategy_dirs=strategy_dir or (), decision_time_limit=decision_time_limit)
    story = tell(rec)
    if json_path is not None:   # first: the story ends with the illegal move, if any
        outputs.write_file(json_path, lambda tmp: tmp.write_text(
            json.dumps(as_json(story), indent=1, default=_plain) + "\n", encoding="utf-8"))
        out.print(f"wrote the replay to {json_path}", highlight=False, markup=False, soft_wrap=True)
    for line in as_lines(story, open_hands):
        out.print(line, highlight=False, markup=False, soft_wrap=True)
    if story.result is None:
        bad = story.decisions[-1]
        fail(f"strategy {bad.strategy!r} returned an illegal move {bad.move} ({bad.move_text}) in {game} "
             f"(seat {bad.seat}, game index {game_index}, seed {seed}): {bad.illegal}")
    out.print("Result: " + "; ".join(
        f"seat {r['seat']} rank {r['rank']}" + (" (winner)" if r["win"] else "") for r in story.result["seats"]),
        highlight=False)
    out.print(", ".join(f"{c} {v}" for c, v in story.result["game"].items()), highlight=False)
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
    against: Annotated[Optional[Path], typer.Option(
        help="A checkout of another simcards version (e.g. `git worktree add ../release v0.1.0`): "
             "time it and this code side by side, in turns, instead of the usual rows.")] = None,
    rounds: Annotated[Optional[int], typer.Option(
        help="With --against: timings of each version, alternated (default 3).")] = None,
    repeat: Annotated[Optional[int], typer.Option(
        help="Timed passes of each fast row, interleaved; the table shows each row's median pass "
             "(default 3; not with --against).")] = None,
) -> None:
    """Games per second and ns per turn, on one core and all cores, against the previous release.

    Whole runs (frame included) on one core and all cores, and the kernel alone (records, no
    frame) on one core, both against the previous release; the reference engine for information.
    Each of these rows is timed --repeat times, interleaved, and shows its median pass.
    Each game's default line-up (high_first, greedy, random, low_attack in every seat) also times
    a tight C program playing the same games, built here with the system C compiler: issue 13's
    target for Five Alive is simulate on one core at most 1.5x its CPU time per turn; for the
    other games the C is information. With --against, this code and another checkout are timed
    side by side instead, alternated, one fresh process each (one core, CPU time: simulate, simulate
    again into warm memory, the kernel alone, and the kernel into warm memory): the machine's drift
    then cancels out."""
    from simcards.benchmark.bench import REPEAT, bench
    from simcards.benchmark.bench_against import ROUNDS
    from simcards.benchmark.bench_release import RELEASE
    from simcards.contract.registry import get_game
    spec = get_game(game)
    _option_range("--games", games, 1)
    _option_range("--reference-games", reference_games, 1)
    _check_players(spec, players)
    _check_seed(seed)
    _option_range("--repeat", repeat, 1)
    _option_range("--rounds", rounds, 1)
    # each option belongs to one of the two measures: never taken and then ignored
    if against is not None and repeat is not None:
        raise SimcardsError(f"--repeat {repeat} sets the passes of the usual rows: with --against, "
                            "--rounds sets the timings of each version")
    if against is None and rounds is not None:
        raise SimcardsError(f"--rounds {rounds} goes with --against: without it, --repeat sets the "
                            "timed passes of each row")
    if against is not None:
        _bench_against(spec, game, games, players, strategy or spec.bench_strategy, seed, against,
                       ROUNDS if rounds is None else rounds)
        return
    repeat = REPEAT if repeat is None else repeat
    from simcards.run.waits import progress_bar
    with progress_bar(err, repeat) as bar:
        result = bench(game, games=games, reference_games=reference_games, players=players,
                       strategy=strategy or spec.bench_strategy, seed=seed, strategy_dirs=strategy_dir or (),
                       repeat=repeat, progress=lambda done, total: bar.update(done, total, "timed passes"))
    unit = result["unit"]
    # Five narrow columns, so that the table fits an 80-column console unwrapped; the
    # release's ratios, with their ranges, read better as a sentence under it.
    table = Table("run", "games", "games/s", f"ns/{unit}", f"CPU ns/{unit}")
    for row in result["rows"]:
        table.add_row(row["engine"], f"{row['games']:,}", f"{row['games_per_s']:,.0f}",
                      f"{row['ns_per_step']:,.1f}", f"{row['cpu_ns_per_step']:,.1f}")
    out.print(table)
    if repeat > 1:
        spread = "; ".join(f"{row['engine']} {low:,.1f}-{high:,.1f}" for row in result["rows"]
                           if "passes" in row for low, high in [row["cpu_ns_per_step_range"]])
        out.print(f"each fast row: the median of {repeat} passes, interleaved; CPU ns per {unit}, "
                  f"fastest to slowest pass: {spread}", highlight=False)
    before = result["previous"]
    if before is not None:
        tries = max(len(t) for t in before.tries.values())
        against = "; ".join(f"{row['engine']} {_vs_release(row)}" for row in result["rows"] if row["vs_previous"])
        out.print(f"against the previous release {RELEASE}, CPU ns per {unit} (the median of its {tries} tries "
                  f"{_where_timed(before, game)}): {against}", highlight=False)
    else:
        out.print("no figure of the previous release for this line-up", highlight=False)
    out.print(f"decisions: {result['decisions_per_game']:.1f} per game (first {result['decisions_sample']:,} "
              f"games), {result['decisions_per_s']:,.0f} per second on one core, "
              f"{_duration(result['cpu_ms_per_decision'])} of CPU per decision", highlight=False)
    from simcards.benchmark.bench import KERNEL_1, SIMULATE_1
    if result["c_ratio"] is not None:
        target = (f"target {result['c_target']}x" + ("" if players == 4 else " at 4 players")  # issue 13's line-up
                  if result["c_target"] else "no target: the C is information")
        out.print(f"{SIMULATE_1} is {result['c_ratio']:.2f}x the C per {unit} ({target}), "
                  f"{KERNEL_1} {result['c_kernel_ratio']:.2f}x, CPU time; {result['c_note']}",
                  highlight=False)
    else:
        out.print(result["c_note"], highlight=False)
    out.print(f"mean {unit}s per game: {result['steps_per_game']:.1f}; "
              f"fresh process start (kernel from cache, one game): {result['fresh_start_s']:.2f} s; "
              f"compiling or loading the kernel: {result['load_s']:.2f} s, then a discarded warm-up (neither is in a column); "
              f"load average during the run: {result['load_average']:.1f} on {os.cpu_count()} cores "
              "(CPU time is per core, less sensitive to other processes than wall time)")


def _where_timed(before: Previous, game: str) -> str:
    """Where the release's tries were timed, and what that means for the ratio: the same
    code is 1.5x faster than the release on one processor and 1.9x on another."""
    from simcards.benchmark.bench_release import PROCESSORS, processor
    if before.here:
        return f"on this processor, {before.processors[0]}: {PROCESSORS[before.processors[0]]}"
    where = [PROCESSORS[p] for p in before.processors]
    where = ", ".join(where[:-1]) + " and " + where[-1] if len(where) > 1 else where[0]
    return (f"on {where}; none on this processor, "
            f"{processor()}, so the ratio compares machines as well as code: `simcards bench {game} "
            "--against` a checkout of the release times both here")


def _vs_release(row: dict) -> str:
    """A bench row against the median of the previous release's tries, with the range of the
    ratio over its tries: "2.10x faster (range 1.63-3.04)", or "-"."""
    ratio = row["vs_previous"]
    if not ratio:
        return "-"
    low, high = row["vs_previous_range"]
    if ratio >= 1:
        return f"{ratio:.2f}x faster (range {low:.2f}-{high:.2f})"
    return f"{1 / ratio:.2f}x slower (range {1 / high:.2f}-{1 / low:.2f})"


def _duration(ms: float) -> str:
    """A CPU time given in milliseconds, in the unit that reads best: "0.98 ms", "12.3 us",
    "18.7 ns" (a heuristic decides in nanoseconds, a search in milliseconds)."""
    for scale, unit in ((1.0, "ms"), (1e3, "us")):
        if ms * scale >= 0.1:
            return f"{ms * scale:.3g} {unit}"
    return f"{ms * 1e6:.3g} ns"


def _bench_against(spec, game: str, games: int, players: int, strategy: str, seed: int,
                   against: Path, rounds: int) -> None:
    from simcards.benchmark.bench_against import MEASURES, THIS, side_by_side
    from simcards.run.waits import progress_bar
    with progress_bar(err, rounds) as bar:
        result = side_by_side(game, [strategy] * players, games, seed, spec.step_column, against, rounds,
                              progress=lambda done, total: bar.update(done, total, "rounds"))
    unit = spec.step_column.rstrip("s")
    # Short headers, so that three rounds fit an 80-column console; the sentence below says
    # what each measure is.
    table = Table("measure", THIS, "--against", "ratio", "ratio by round")
    names = {"": "simulate (with frame)", "again_": "simulate, warm memory", "kernel_": "kernel alone",
             "warm_": "kernel, warm memory"}
    for prefix in MEASURES:
        rounds_ = ", ".join(f"{r['other'][f'{prefix}cpu_ns_per_step'] / r['this'][f'{prefix}cpu_ns_per_step']:.2f}"
                            for r in result["rounds"])
        table.add_row(names[prefix], f"{result[f'{prefix}this_median']:,.1f}",
                      f"{result[f'{prefix}other_median']:,.1f}", f"{result[f'{prefix}ratio']:.2f}", rounds_)
    out.print(table)
    first = result["rounds"][0]
    out.print(f"CPU ns per {unit}, medians; {game}, {players} x {strategy}, {games:,} games of seed {seed}, "
              f"on one core: simulate (frame included), again into memory it wrote before (warm "
              f"memory), then the kernel alone on the same games (run_records: int64 records, no "
              f"frame), then again into arrays it wrote before (warm memory), each timing a fresh process "
              f"after a warm-up; {THIS} "
              f"({first['this']['simcards']}) played {first['this']['steps']:,} {unit}s, "
              f"{result['against']} ({first['other']['simcards']}) {first['other']['steps']:,}; "
              f"ratio above 1: {THIS} is faster; load average {result['load_average']:.1f} "
              f"on {os.cpu_count()} cores", highlight=False)


@command("tune")
def tune_cmd(
    game: GameArg,
    strategy: Annotated[str, typer.Argument(help="The strategy whose parameters to tune "
                                            "(`simcards strategies GAME` lists them).")],
    players: Annotated[int, typer.Option(help="Number of players.")] = 4,
    pool: Annotated[Optional[str], typer.Option(
        help="Opponents, comma-separated, parameters allowed (default: the game's other strategies, "
             "search players left out).")] = None,
    trials: Annotated[int, typer.Option(help="Parameter settings to try; the first is the default.")] = 40,
    games: Annotated[int, typer.Option(help="Games per trial, over every line-up and seat order.")] = 20_000,
    check_games: Annotated[int, typer.Option(
        help="Games of the final comparison, tuned against default, on fresh deals.")] = 40_000,
    seed: SeedOpt = 0,
    rule: RuleOpt = None,
    out_dir: Annotated[Path, typer.Option("--out", help="Folder for the tuned strategy "
                                          "(<out>/<game>/<strategy>_tuned.py) and the run's record.")] = Path("tuned"),
    threads: Annotated[Optional[int], typer.Option(help="Threads on this machine (default: all cores).")] = None,
    strategy_dir: StrategyDirOpt = None,
    force: ForceOpt = False,
) -> None:
    """Search a strategy's run-time parameters (optuna) for the best win rate against a pool, on
    common deals in every seat order; check the best on fresh deals against the default."""
    from simcards.contract.options import parse_assignments
    from simcards.tune import TuneConfig, alias_path, default_pool, tune, write_results
    from simcards.contract.validate import check_optional_counts
    from simcards.run.waits import progress_bar
    from simcards.contract.registry import get_game
    spec = get_game(game)
    _check_players(spec, players)
    _check_seed(seed)
    check_optional_counts(thread_count=threads)
    dirs = [str(d) for d in strategy_dir or ()]
    names = [s.strip() for s in pool.split(",")] if pool else default_pool(game, strategy, dirs)
    config = TuneConfig(game, strategy, players, names, trials, games, check_games, seed,
                        parse_assignments(rule), dirs)
    target = alias_path(out_dir, game, strategy)
    record = Path(out_dir) / f"tune-{game}-{strategy}"
    from simcards.outputs import take_lock
    take_lock(target, "--out")      # for the command: a second tune of it is refused; --out is writable
    for path in (target, record):
        if path.exists() and not force:
            raise SimcardsError(f"{str(path)!r} exists: use --force to replace it, or another --out")
    with progress_bar(err, trials) as bar:
        result = tune(config, threads, progress=lambda i, rate, best: bar.update(i + 1, trials, "trials"))
    table = Table("trial", "values off the default", "win rate", title=f"{game}: {strategy}, best trials")
    for row in result.trials.sort_values("win_rate", ascending=False).head(5).itertuples(index=False):
        d = row._asdict()
        changed = [f"{p.name}={d[p.name]:g}" for p in result.params if d[p.name] != p.default]
        table.add_row(str(d["trial"]), " ".join(changed) or "(the default)", f"{d['win_rate']:.4f}")
    out.print(table)
    c = result.comparison
    out.print(f"tuned {result.best_name}: {c.tuned_rate:.4f} against default {c.default_rate:.4f} on "
              f"{c.deals:,} fresh deals: {c.diff:+.4f}, 95% interval [{c.low:+.4f}, {c.high:+.4f}]",
              highlight=False, markup=False)
    written = write_results(result, out_dir)
    out.print(f"wrote {written[0]} (use: --strategy-dir {out_dir} --strategies {target.stem},...) and "
              f"the record in {written[1].parent}", highlight=False, markup=False)


@command("cache")
def cache_cmd(
    clear: Annotated[bool, typer.Option(
        "--clear", help="Remove every kernel, table and yardstick simcards made there; the next run of "
                        "each line-up compiles again.")] = False,
) -> None:
    """Show what the kernel folder holds: compiled kernels, strategies' tables and the C
    yardsticks, with the room they take; --clear removes them.

    Names carry a hash of their sources, so old code is never loaded after an edit, but old files
    stay until they are cleared. Only files with the names simcards gives them are removed, and
    an item another process is building now is left alone. The folder is $SIMCARDS_KERNEL_DIR, else
    simcards/kernels in $XDG_CACHE_HOME or ~/.cache."""
    from simcards.compiled import cache_folder
    folder = cache_folder.kernel_dir()
    if clear:
        done = cache_folder.clear(folder)
        out.print(f"removed {done.removed:,} items ({_megabytes(done.freed)}) from {folder}",
                  markup=False, highlight=False)
        if done.busy:
            out.print(f"left {len(done.busy):,} that another process is building now: "
                      f"{', '.join(done.busy)}", markup=False, highlight=False)
        return
    table = Table("", "items", "on disk", title=str(folder))
    found = cache_folder.items(folder)
    for kind, _, _ in cache_folder.KINDS:
        mine = [i for i in found if i.kind == kind]
        table.add_row(kind, f"{len(mine):,}", _megabytes(sum(i.size for i in mine)))
    out.print(table)
    if found:
        out.print("simcards cache --clear removes them.", markup=False, highlight=False)


def _megabytes(size: int) -> str:
    return f"{size / 1e6:,.1f} MB"


from simcards.report.cli import register as _register_report  # noqa: E402  (report commands)

_register_report(command)


def _plain(value):
    """numpy scalars (a view accessor's bool or int64) as plain JSON values."""
    return value.item() if hasattr(value, "item") else str(value)
