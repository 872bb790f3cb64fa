"""Tight C yardsticks: what one core of this machine can do, built and timed at bench time.

Issue 13 sets Five Alive's speed target against a tight single-threaded C implementation
(4 players, every seat ``high_first``: at most 1.5x its time per turn). Machines differ, so a
figure measured elsewhere says little: ``simcards bench`` compiles the game's C program with
the system C compiler and times it on the same machine, in the same run, as the engine.
Thirty-One (every seat ``greedy``; its target is against the previous release), Vzhukh (every
seat ``low_attack``) and Bombs Away (every seat ``random``) have one too, for information: the C
tells how far the engine is from what the machine can do at all.

A game's C program is ``yardstick.c`` in the game's own package, beside its rules and engines
(simcards/games/five_alive/yardstick.c), and its line-up is the game's ``bench_strategy`` in
every seat, its target the game's ``c_target``: a game adds its yardstick with no shared edit
(``yardsticks`` finds it through the registry). The headers every program shares stay here, in
simcards/yardstick/.

Each C program plays exactly the games of
``simcards.simulate(game, [strategy] * players, games, seed=seed)`` (default rules): the same
generator streams, deals, draws and choices; ``games_played`` returns its per-game results for
tests to hold against the frame. It is written for speed, not to mirror the engine's structure
(bit masks, tables, everything inlined, nothing allocated per game); only the random sequence
is the engine's.

A binary is cached in the kernel folder (simcards.cache_folder.kernel_dir), its name keyed by a
hash of the source, the headers the programs share (``yardstick.h``: the generator, the
shuffle, the clock, the command line; ``yardstick_main.h``: the ``main`` that plays and prints
the games, around each program's own ``play``), the compiler, its flags and the processor, written to a temporary name and
renamed, so that processes racing to build it never run a half-written file.
"""
from __future__ import annotations

import hashlib
import importlib
import os
import platform
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simcards.compiled.cache_folder import made_kernel_dir, yardstick_program
from simcards.errors import SimcardsError

#: The optimisation flags, the same for every build; ``-march=native``: the yardstick is what
#: this machine's core can do, its vector instructions included.
FLAGS = ("-O3", "-march=native")


@dataclass(frozen=True)
class Yardstick:
    """A C program that plays a game's line-up: ``strategy`` in every seat, default rules, any
    player count the game allows. It prints the game's result columns in the frame's order (per
    game, then per seat ``win``, ``rank`` and the game's seat columns; ``win`` is 1 for a winner,
    where the frame shares the win: ``win_share``). ``target``: issue 13's bound on simulate's
    time per step over the C's, or None where the C is information only."""

    game: str
    strategy: str
    source: Path
    target: float | None = None

    @property
    def spec(self):
        from simcards.contract.registry import get_game        # (the registry imports every game)
        return get_game(self.game)

    @property
    def game_columns(self) -> tuple[str, ...]:
        return tuple(self.spec.game_columns)

    @property
    def seat_columns(self) -> tuple[str, ...]:
        return ("win", "rank", *self.spec.seat_columns)


_HERE = Path(__file__).parent
#: A game's C program: this file in the game's package.
SOURCE = "yardstick.c"
#: The line-up of ``build``'s default source: issue 13's, the one with a target.
DEFAULT_GAME = "five-alive"


def source_of(spec) -> Path:
    """Where the C program of the game ``spec`` would be: ``yardstick.c`` in its package (the
    game is registered, so its package is imported: found by name, never imported from here)."""
    return Path(importlib.import_module(spec.package).__file__).parent / SOURCE


def yardsticks() -> dict[str, Yardstick]:
    """The line-ups with a C program, by game (in ``games()``'s order): every registered game
    whose package holds a ``yardstick.c``, its ``bench_strategy`` in every seat, its
    ``c_target`` the target."""
    from simcards.contract.registry import games        # (the registry imports every game)
    return {name: Yardstick(name, spec.bench_strategy, source, spec.c_target)
            for name, spec in games().items() if (source := source_of(spec)).is_file()}


def __getattr__(name: str):
    """``YARDSTICKS`` and ``FIVE_ALIVE_SOURCE``, the names of the table this module held before
    each game's C moved into its package: derived now, at each use (they import every game)."""
    if name == "YARDSTICKS":
        return yardsticks()
    if name == "FIVE_ALIVE_SOURCE":
        return yardsticks()[DEFAULT_GAME].source
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class YardstickUnavailable(SimcardsError):
    """No C compiler was found, or the build failed: there is no C figure on this machine."""


@dataclass(frozen=True)
class CFigures:
    """One timed run of a C program: games, the totals of its per-game columns (``totals``:
    turns, rounds...), the CPU seconds and wall seconds of the games alone (process start and
    output not counted), and the step column its time is divided by."""

    games: int
    totals: dict[str, int]
    cpu_seconds: float
    seconds: float
    step_column: str = "turns"

    @property
    def steps(self) -> int:
        return self.totals[self.step_column]

    @property
    def cpu_ns_per_step(self) -> float:
        return self.cpu_seconds / self.steps * 1e9

    @property
    def ns_per_step(self) -> float:
        return self.seconds / self.steps * 1e9


def compiler() -> str | None:
    """The C compiler: ``$CC`` if set (None if it is not found), else ``cc``, else ``gcc``."""
    chosen = os.environ.get("CC")
    if chosen:
        return shutil.which(chosen)
    return shutil.which("cc") or shutil.which("gcc")


def _compiler_version(cc: str) -> str:
    try:
        done = subprocess.run([cc, "--version"], capture_output=True, text=True, timeout=30)
    except OSError as exc:
        raise YardstickUnavailable(f"the C compiler {cc} does not run: {exc}") from exc
    return done.stdout.splitlines()[0] if done.stdout else ""


def _cpu() -> str:
    """What ``-march=native`` compiles for: the processor's model and feature flags (a kernel
    folder shared by machines must not hand one machine's binary to another)."""
    try:
        lines = Path("/proc/cpuinfo").read_text().splitlines()
    except OSError:
        return platform.machine() + " " + platform.processor()
    keep = [line for line in lines if line.startswith(("model name", "flags", "Features"))]
    return "\n".join(dict.fromkeys(keep)) or platform.machine()


#: The headers every C yardstick includes, found with ``-I`` (the module docstring says what
#: each holds).
HEADERS = (_HERE / "yardstick.h", _HERE / "yardstick_main.h")


def build(source: Path | None = None) -> Path:
    """The compiled program for ``source`` (by default Five Alive's, issue 13's line-up): from
    the kernel folder if this source, the shared headers, the compiler, its flags and the
    processor were built before, else compiled now.

    Raises
    ------
    YardstickUnavailable
        No C compiler was found, or it failed on the source.
    """
    cc = compiler()
    if cc is None:
        raise YardstickUnavailable("no C compiler found (cc, gcc or $CC)")
    source = _yardstick(DEFAULT_GAME).source if source is None else source
    text = b"\0".join([source.read_bytes(), *(h.read_bytes() for h in HEADERS)])  # an edited header rebuilds too
    key = hashlib.sha256(b"\0".join([text, cc.encode(), _compiler_version(cc).encode(),
                                     " ".join(FLAGS).encode(), _cpu().encode()])).hexdigest()[:16]
    folder = made_kernel_dir()
    target = folder / yardstick_program(_program_name(source), key)
    if target.exists():
        return target
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
    os.close(fd)
    try:
        # the headers' folders: a game's program stands in its package, away from them
        folders = [f"-I{folder}" for folder in dict.fromkeys(h.parent for h in HEADERS)]
        done = subprocess.run([cc, *FLAGS, *folders, "-o", tmp, str(source)], capture_output=True, text=True)
        if done.returncode != 0:
            raise YardstickUnavailable(f"{cc} {' '.join(FLAGS)} failed on {source.name}: "
                                       f"{done.stderr.strip()[:500]}")
        os.chmod(tmp, 0o755)          # mkstemp's 0600: the linker may keep it
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return target


def _program_name(source: Path) -> str:
    """A built program's name: a game's ``yardstick.c`` by its package's folder (five_alive),
    any other source by its own name."""
    return source.parent.name if source.name == SOURCE else source.stem


def _yardstick(game: str) -> Yardstick:
    found = yardsticks()
    try:
        return found[game]
    except KeyError:
        raise SimcardsError(f"no C yardstick for {game!r}: accepted are {', '.join(found)}") from None


def _play(game: str, games: int, seed: int, players: int, *extra: str) -> str:
    """The C program's output for these games (built first if need be)."""
    stick = _yardstick(game)
    stick.spec.check_players(players)
    program = build(stick.source)
    done = subprocess.run([str(program), str(seed), str(games), str(players), *extra],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise YardstickUnavailable(f"{program.name} failed (exit {done.returncode}): "
                                   f"{done.stderr.strip()[:500]}")
    return done.stdout


def run(games: int, seed: int = 0, players: int = 4, game: str = "five-alive") -> CFigures:
    """Time the C program of ``game`` over games 0..games-1 of ``seed``, on one core (one
    process). It prints ``games cpu_seconds wall_seconds checksum`` and the totals of its
    per-game columns.

    Raises
    ------
    YardstickUnavailable
        No C compiler, or the build or the program failed.
    SimcardsError
        No C program for ``game``, or a player count the game does not allow.
    """
    stick = _yardstick(game)
    g, cpu, wall, _checksum, *totals = _play(game, games, seed, players).split()
    return CFigures(int(g), dict(zip(stick.game_columns, map(int, totals), strict=True)),
                    float(cpu), float(wall), stick.spec.step_column)


def games_played(games: int, seed: int = 0, players: int = 4, game: str = "five-alive"
                 ) -> dict[str, np.ndarray]:
    """Per game of the C program, the frame's columns: the game's columns (shape (games,)) and
    per seat the seat columns (shape (games, players)); ``win`` is 1 for a winner."""
    stick = _yardstick(game)
    out = _play(game, games, seed, players, "check")
    width = len(stick.game_columns) + len(stick.seat_columns) * players
    table = np.array([line.split() for line in out.splitlines()], dtype=np.int64).reshape(games, width)
    columns = {name: table[:, i] for i, name in enumerate(stick.game_columns)}
    seats = table[:, len(stick.game_columns):].reshape(games, players, len(stick.seat_columns))
    for i, name in enumerate(stick.seat_columns):
        columns[name] = seats[:, :, i]
    return columns
