"""``simcards bench``: speed against the previous release, the C yardstick, or another checkout."""
from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer
from rich.table import Table

from simcards.cli.args import GameArg, SeedOpt, StrategyDirOpt, _check_players, _check_seed, _option_range
from simcards.cli.base import command, err, out
from simcards.errors import SimcardsError

if TYPE_CHECKING:                      # (imported where used: a command's start stays short)
    from simcards.benchmark.bench_release import Previous


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
    A game whose package holds a tight C program (yardstick.c) also times it on its default
    line-up, playing the same games, built here with the system C compiler: issue 13's
    target for Five Alive is simulate on one core at most 1.5x its CPU time per turn; for the
    other games the C is information. With --against, this code and another checkout are timed
    side by side instead, alternated, one fresh process each (one core, CPU time: simulate, simulate
    again into warm memory, the kernel alone, and the kernel into warm memory): the machine's drift
    then cancels out."""
    from simcards.benchmark.bench import REPEAT, bench
    from simcards.benchmark.bench_against import ROUNDS
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
    _print_result(result, game, players, repeat)

def _print_result(result: dict, game: str, players: int, repeat: int) -> None:
    """bench's table, and the sentences under it: the passes' spread, the previous release, the
    decisions, the C yardstick and the run's costs."""
    from simcards.benchmark.bench_release import RELEASE
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
