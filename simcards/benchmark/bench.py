"""``simcards bench``: the speed of a whole run, frame included, against the previous release.

What is timed is what a user waits for: ``simcards.simulate`` (kernel and frame) on one core
and on all cores, after a discarded warm-up, so that no compile or first load lands in a
column. The kernel alone (records, no frame) is shown too, to tell the engine from the frame.
The yardstick of both is the previous release's figures timed on this machine's processor
(simcards.bench_release: its simulate, and its kernel records, which its own bench timed; on a
processor it was never timed on, every processor's tries, and the result says so); the
readable reference engine is timed for information only, since it is written to be read, not
to be fast.

For each game's line-up in ``simcards.yardstick.yardsticks()`` (its default strategy in every
seat) a second yardstick is timed in the same run: a tight single-threaded C program that plays
exactly the same games, compiled with the system C compiler on this machine. ``c_ratio`` is
``simulate``'s CPU time per turn on one core over the C's, ``c_kernel_ratio`` the kernel alone's;
issue 13's target for Five Alive is a ``c_ratio`` of at most 1.5 (``c_target``), and for the
other games the C is information: how far the engine is from what one core can do. Other
line-ups have no C yardstick (``c_note`` says so, as it says when no C compiler is found).

Wall-clock figures measure the machine as well as the engine: on a shared or busy machine
compare the CPU-time figures (per core), which the load of other processes changes much less.
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from typing import Any, Callable, Sequence

import numpy as np

from simcards import yardstick
from simcards.run.batch import prepare
from simcards.benchmark.bench_release import previous
from simcards.codegen.kernels import STATUS_SIZE
from simcards.compiled.config import default_threads
from simcards.errors import SimcardsError
from simcards.run.replay import play_reference
from simcards.run.runner import RunSpec, ThreadBackend, execute, run_records
from simcards.contract.strategy_registry import BUILTIN_PACKAGE

_FRESH = """
import time
t = time.perf_counter()
from simcards.run.batch import prepare
from simcards.run.play import run_range
b = prepare({game!r}, {strategies!r}, 0)
run_range(b, 0, 1)
print(time.perf_counter() - t)
"""

SIMULATE_1 = "simulate, 1 core"
#: The C yardstick's row (simcards.yardstick: cc -O3 -march=native, one process).
TIGHT_C = "tight C, 1 core"
#: Games whose decisions are counted (a replay of each), for decisions per second.
DECISION_SAMPLE = 1000
KERNEL_1 = "kernel only, 1 core"
#: Timed passes of each fast row by default: the median of three is steady to a few per cent.
REPEAT = 3
REFERENCE = "reference (info only)"


def fresh_start_seconds(game: str, strategies: Sequence[str]) -> float:
    """Seconds for a new Python process to import simcards, load the cached kernel and play a game."""
    code = _FRESH.format(game=game, strategies=list(strategies))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(done.stdout.strip().splitlines()[-1])


def _timed(fn: Callable[[], Any]) -> tuple[Any, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def c_yardstick(game: str, strategies: Sequence[str], strategy_modules: Sequence[str],
                games: int, seed: int) -> tuple[dict | None, str]:
    """The tight C row for this line-up, timed now, and a note; ``(None, why)`` when there is
    no C yardstick for the line-up or no C compiler on this machine.

    Parameters
    ----------
    game, strategies
        The game and the canonical strategy of every seat (default rules).
    strategy_modules
        The module each seat's strategy resolved to: a ``high_first`` from a user's strategy
        folder is not the one the C plays.
    games, seed
        Games 0..games-1 of the seed, as the other rows play them.
    """
    sticks = yardstick.yardsticks()
    stick = sticks.get(game)
    builtin = f"{BUILTIN_PACKAGE}.{stick.spec.module_name}.{stick.strategy}" if stick else ""
    if (stick is None or any(s != stick.strategy for s in strategies)
            or any(m != builtin for m in strategy_modules)):
        return None, ("no C yardstick for this line-up (only " + ", ".join(
            f"{y.game} with the built-in {y.strategy}" for y in sticks.values())
            + " in every seat)")
    try:
        c = yardstick.run(games, seed, len(strategies), game)
    except (yardstick.YardstickUnavailable, SimcardsError) as exc:
        return None, f"no C yardstick: {exc}"
    return ({"engine": TIGHT_C, "games": c.games, "seconds": c.seconds, "cpu_seconds": c.cpu_seconds,
             "steps": c.steps}, f"C built with {yardstick.compiler()} {' '.join(yardstick.FLAGS)}")


def _median_pass(passes: list[dict]) -> dict:
    """The pass of median CPU time (the lower of the two middle ones for an even count), with
    ``passes`` and the CPU ns per step of the fastest and slowest (``cpu_ns_per_step_range``):
    a row's wall and CPU seconds then come from one and the same pass."""
    ordered = sorted(passes, key=lambda row: row["cpu_seconds"])
    row = dict(ordered[(len(ordered) - 1) // 2])
    row["passes"] = len(ordered)
    row["cpu_ns_per_step_range"] = tuple(r["cpu_seconds"] / r["steps"] * 1e9 for r in (ordered[0], ordered[-1]))
    return row


def bench(game: str, games: int = 200_000, reference_games: int = 200, players: int = 4,
          strategy: str = "", seed: int = 0, strategy_dirs: Sequence[str] = (), repeat: int = REPEAT,
          progress: Callable[[int, int], None] | None = None) -> dict:
    """Time ``games`` games of ``strategy`` in every seat; one row per way of playing them.

    Each fast row (simulate on one core and on all cores, the kernel alone, the tight C) is
    timed ``repeat`` times, the rows interleaved pass by pass so that the machine's drift falls
    on all of them, and shows its pass of median CPU time: one pass of 200,000 games moves by a
    tenth or more from the next on this project's machines. The reference engine, information
    only, is timed once. ``progress(done, repeat)`` is called after each pass.

    Also counts the decisions of the first games (``decisions_per_game``), for decisions per
    second and CPU milliseconds per decision on one core, a search player's measure.

    Returns
    -------
    dict
        ``rows`` (engine, games, seconds, cpu_seconds, steps, games_per_s, ns_per_step,
        cpu_ns_per_step, of the median pass; ``passes`` and ``cpu_ns_per_step_range``, the
        fastest and slowest pass's, for the fast rows; ``vs_previous``: the median of the
        previous release's tries, CPU ns per step, over this one's, where the release has tries,
        and ``vs_previous_range``: the same ratio for its fastest and slowest try), the tight C row among them where the line-up
        has one (``TIGHT_C``: it plays the same games, so it counts the same steps);
        ``c_ratio``, simulate's CPU ns per step on one core over the C's (None without a C
        row) and ``c_note`` (the compiler, or why there is no C row); the step ``unit``, and
        the load of the machine. ``c_kernel_ratio``: the kernel alone's over the C's;
        ``c_target``: issue 13's bound on ``c_ratio`` for the game, or None. ``previous``: the
        release's tries compared with (``simcards.bench_release.Previous``: by row, the
        processors they were timed on, and whether that is this machine's), or None."""
    if repeat < 1:
        raise SimcardsError(f"--repeat {repeat}: give 1 or more timed passes")
    batch = prepare(game, [strategy] * players, seed, strategy_dirs=strategy_dirs)
    col = list(batch.spec.game_columns).index(batch.spec.step_column)
    t = time.perf_counter()
    batch.kernel()                      # compiles, or loads from numba's cache
    load_s = time.perf_counter() - t
    _warm_up(game, batch, seed, games)
    rows, c_row, c_note = _fast_rows(game, batch, games, seed, col, repeat, progress)
    kernel_row = rows[-1]
    rows.append(_reference_row(game, batch, seed, reference_games, col))
    if c_row is not None:
        rows.insert(len(rows) - 1, c_row)       # before the reference engine, the information row
        if c_row["steps"] != kernel_row["steps"]:   # the same games count the same turns
            c_note += (f"; WARNING: the C played {c_row['steps']:,} turns where simulate played "
                       f"{kernel_row['steps']:,}: not the same games, the ratio means nothing")
    decisions, sample = _decisions_per_game(batch, seed, games)
    before = previous(game, strategy, players)
    _per_step(rows, before)
    one_core = rows[0]
    c_ratio = one_core["cpu_ns_per_step"] / c_row["cpu_ns_per_step"] if c_row is not None else None
    c_kernel_ratio = kernel_row["cpu_ns_per_step"] / c_row["cpu_ns_per_step"] if c_row is not None else None
    c_target = yardstick.yardsticks()[game].target if c_row is not None else None
    return {"rows": rows, "c_ratio": c_ratio, "c_kernel_ratio": c_kernel_ratio, "c_target": c_target,
            "c_note": c_note, "decisions_per_game": decisions, "decisions_sample": sample,
            "decisions_per_s": one_core["games"] * decisions / one_core["seconds"],
            "cpu_ms_per_decision": one_core["cpu_seconds"] / (one_core["games"] * decisions) * 1e3, "unit": batch.spec.step_column.rstrip("s"),
            "steps_per_game": rows[0]["steps"] / games, "load_s": load_s,
            "load_average": os.getloadavg()[0], "previous": before,
            "fresh_start_s": fresh_start_seconds(game, batch.strategies)}


def _simulate(game: str, batch, seed: int, threads: int, n: int):
    """``simulate``'s whole run, frame included, of games 0..n-1 on ``threads`` threads."""
    run = RunSpec.create(game, batch.strategies, n, seed, batch.rules, 0,
                         strategy_dirs=batch.strategy_dirs, threads=threads)
    return execute(run, ThreadBackend(threads))


def _warm_up(game: str, batch, seed: int, games: int) -> None:
    """Everything timed played once untimed first."""
    # one discarded pass over everything timed: a first call compiles or loads code (the
    # kernel, the strategies' helpers the reference engine calls, pandas' first frame)
    for threads in sorted({1, default_threads()}):
        _simulate(game, batch, seed, threads, 64)
    play_reference(game, batch.strategies, seed, 0, batch=batch)

    # the kernel's games once untimed too: the first large arrays a process writes cost this
    # machine its first touch of fresh memory (a third more time some hours), which made this
    # row, timed first, slower than simulate's, frame and all (bench_against times the kernel
    # after simulate, and the release's figures were timed that way)
    run_records(batch, games, threads=1)


def _fast_rows(game: str, batch, games: int, seed: int, col: int, repeat: int,
               progress: Callable[[int, int], None] | None) -> tuple[list[dict], dict | None, str]:
    """The fast rows (simulate on one core and on all cores, then the kernel alone), each timed
    ``repeat`` times, the rows interleaved pass by pass, each its pass of median CPU time; the
    tight C's row alike (None without one) and its note."""
    simulates = ((SIMULATE_1, 1), (f"simulate, {default_threads()} cores", default_threads()))
    passes: dict[str, list[dict]] = {label: [] for label, _ in simulates}
    passes[KERNEL_1] = []
    c_passes: list[dict] = []
    c_note = ""
    for _ in range(repeat):
        (_, game_out), wall, cpu = _timed(lambda: run_records(batch, games, threads=1))
        steps = int(game_out[:, col].sum())        # the same games in every fast row
        del game_out
        passes[KERNEL_1].append({"engine": KERNEL_1, "games": games, "seconds": wall, "cpu_seconds": cpu,
                                 "steps": steps})
        for label, threads in simulates:
            _, wall, cpu = _timed(lambda: _simulate(game, batch, seed, threads, games))
            passes[label].append({"engine": label, "games": games, "seconds": wall, "cpu_seconds": cpu,
                                  "steps": steps})
        if not c_note or c_passes:                  # (no C yardstick for this line-up: said once)
            c_row, c_note = c_yardstick(game, batch.strategies, [batch.infos[sid].module for sid in batch.sids],
                                        games, seed)
            if c_row is not None:
                c_passes.append(c_row)
        if progress:
            progress(len(passes[KERNEL_1]), repeat)
    rows = [_median_pass(passes[label]) for label, _ in simulates]
    rows.append(_median_pass(passes[KERNEL_1]))
    return rows, (_median_pass(c_passes) if c_passes else None), c_note


def _reference_row(game: str, batch, seed: int, reference_games: int, col: int) -> dict:
    """The reference engine's row, timed once (information only)."""
    steps = 0

    def reference():
        nonlocal steps
        for g in range(reference_games):
            ref, _ = play_reference(game, batch.strategies, seed, g, batch=batch)
            steps += ref.result()[1][col]

    _, wall, cpu = _timed(reference)
    return {"engine": REFERENCE, "games": reference_games, "seconds": wall, "cpu_seconds": cpu, "steps": steps}


def _decisions_per_game(batch, seed: int, games: int) -> tuple[float, int]:
    """The decisions per game over the first games, and how many games that is."""
    # decisions (moves a strategy chose) per game, counted on the first games again: a turn may
    # be forced (a bust), and a search player's cost is per decision
    kernel, status = batch.kernel(check=False, entry="record_game"), np.zeros(STATUS_SIZE, np.int64)
    sample = min(games, DECISION_SAMPLE)
    decisions = sum(kernel.count_steps(seed, g, batch.sids, batch.params, batch.strategy_params, status)
                    for g in range(sample)) / sample
    return decisions, sample


def _per_step(rows: list[dict], before) -> None:
    """Each row's games per second and ns per step, and its ratio to the release's tries."""
    for row in rows:
        row["games_per_s"] = row["games"] / row["seconds"]
        row["ns_per_step"] = row["seconds"] / row["steps"] * 1e9
        # CPU time per step is what the cores spend, whatever else the machine runs
        row["cpu_ns_per_step"] = row["cpu_seconds"] / row["steps"] * 1e9
        # against the median of the release's tries, with the ratio to its fastest and slowest
        # try: its simulate swings from day to day with this machine's cost of fresh memory
        tries = before.tries.get(row["engine"]) if before else None
        row["vs_previous"] = statistics.median(tries) / row["cpu_ns_per_step"] if tries else None
        row["vs_previous_range"] = ((min(tries) / row["cpu_ns_per_step"], max(tries) / row["cpu_ns_per_step"])
                                    if tries else None)
