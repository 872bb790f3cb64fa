"""Playing games: ``simcards run`` (many, with win rates) and ``simcards replay`` (one, move by move)."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.table import Table

from simcards.cli.args import (ForceOpt, GameArg, RuleOpt, SeedOpt, StrategyDirOpt, _check_seed, _option_range,
                               _strategy_list)
from simcards.cli.base import command, err, fail, out
from simcards.errors import SimcardsError


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
    from simcards.contract.options import parse_assignments
    from simcards.contract.registry import get_game
    from simcards.run.runner import RunSpec, execute
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
    from simcards.run.rotation import execute_rotated, should_rotate
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
    backend = _backend(cluster, threads, workers, time_limit)
    if run_dir is not None and force:
        run_folder.clear_run_folder(run_dir)
    with progress_bar(err, games) as bar:
        if rotated:
            result = execute_rotated(spec_for, names, games, run_dir, backend=backend,
                                     resume=resume, progress=bar.advance)
        else:
            result = execute(run, backend, run_dir, resume, progress=bar.advance)
    _print_result(result, game, seed, rotated, summary_only)
    if out_path is not None:
        _write_rows(result, out_path)


def _backend(cluster: str | None, threads: int | None, workers: int | None, time_limit: float | None):
    """The run's backend, with ``--time-limit`` (threads only) set, and a scheduler's address
    reached, or one line, before anything is written."""
    from simcards.run.runner import backend_for
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
    return backend


def _print_result(result, game: str, seed: int, rotated: bool, summary_only: bool) -> None:
    """The win rates of a run's frame or totals, and its unfinished games."""
    from simcards.run.rotation import describe
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


def _write_rows(result, out_path: Path) -> None:
    """``--out``: every game's rows, to .parquet or .csv."""
    from simcards import outputs
    from simcards.run.frame import write_parquet
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

def _plain(value):
    """numpy scalars (a view accessor's bool or int64) as plain JSON values."""
    return value.item() if hasattr(value, "item") else str(value)
