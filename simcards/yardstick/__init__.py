"""Tight C yardsticks: what one core of this machine can do, built and timed at bench time.

Issue 13 sets Five Alive's speed target against a tight single-threaded C implementation
(4 players, every seat ``high_first``: at most 1.5x its time per turn). Machines differ, so a
figure measured elsewhere says little: ``simcards bench`` compiles ``five_alive.c`` (shipped
beside this module) with the system C compiler and times it on the same machine, in the same
run, as the engine.

The C program plays exactly the games of
``simcards.simulate("five-alive", ["high_first"] * players, games, seed=seed)`` (default
rules): the same generator streams, deals, shuffles and choices; ``games_played`` returns its
per-game results for tests to hold against the frame. It is written for speed, not to mirror
the engine's structure (bit masks of held kinds, everything inlined, nothing allocated per
game); only the random sequence is the engine's.

The binary is cached in the kernel folder (simcards.config.kernel_dir), its name keyed by a
hash of the source, the compiler, its flags and the processor, written to a temporary name and renamed, so
that processes racing to build it never run a half-written file.
"""
from __future__ import annotations

import hashlib
import os
import platform
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simcards.config import kernel_dir
from simcards.errors import SimcardsError
from simcards.games.five_alive.rules import MAX_PLAYERS, MIN_PLAYERS

FIVE_ALIVE_SOURCE = Path(__file__).with_name("five_alive.c")
#: The optimisation flags, the same for every build; ``-march=native``: the yardstick is what
#: this machine's core can do, its vector instructions included.
FLAGS = ("-O3", "-march=native")
#: The line-up the C plays: (game, strategy in every seat); any player count from 2 to 7.
GAME, STRATEGY = "five-alive", "high_first"


class YardstickUnavailable(SimcardsError):
    """No C compiler was found, or the build failed: there is no C figure on this machine."""


@dataclass(frozen=True)
class CFigures:
    """One timed run of the C program: games, turns (rounds, busts), the CPU seconds and wall
    seconds of the games alone (process start and output not counted)."""

    games: int
    turns: int
    rounds: int
    busts: int
    cpu_seconds: float
    seconds: float

    @property
    def cpu_ns_per_turn(self) -> float:
        return self.cpu_seconds / self.turns * 1e9

    @property
    def ns_per_turn(self) -> float:
        return self.seconds / self.turns * 1e9


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


def build(source: Path = FIVE_ALIVE_SOURCE) -> Path:
    """The compiled program for ``source``: from the kernel folder if this source, compiler,
    flags and processor were built before, else compiled now.

    Raises
    ------
    YardstickUnavailable
        No C compiler was found, or it failed on the source.
    """
    cc = compiler()
    if cc is None:
        raise YardstickUnavailable("no C compiler found (cc, gcc or $CC)")
    text = source.read_bytes()
    key = hashlib.sha256(b"\0".join([text, cc.encode(), _compiler_version(cc).encode(),
                                     " ".join(FLAGS).encode(), _cpu().encode()])).hexdigest()[:16]
    folder = kernel_dir()
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"yardstick_{source.stem}_{key}"
    if target.exists():
        return target
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
    os.close(fd)
    try:
        done = subprocess.run([cc, *FLAGS, "-o", tmp, str(source)], capture_output=True, text=True)
        if done.returncode != 0:
            raise YardstickUnavailable(f"{cc} {' '.join(FLAGS)} failed on {source.name}: "
                                       f"{done.stderr.strip()[:500]}")
        os.chmod(tmp, 0o755)          # mkstemp's 0600: the linker may keep it
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return target


def _check_players(players: int) -> None:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise SimcardsError(f"the C yardstick plays {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")


def _play(games: int, seed: int, players: int, *extra: str) -> str:
    """The C program's output for these games (built first if need be)."""
    _check_players(players)
    program = build()
    done = subprocess.run([str(program), str(seed), str(games), str(players), *extra],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise YardstickUnavailable(f"{program.name} failed (exit {done.returncode}): "
                                   f"{done.stderr.strip()[:500]}")
    return done.stdout


def run(games: int, seed: int = 0, players: int = 4) -> CFigures:
    """Time the C program over games 0..games-1 of ``seed``, on one core (one process).

    Raises
    ------
    YardstickUnavailable
        No C compiler, or the build or the program failed.
    """
    g, turns, rounds, busts, cpu, wall, _checksum = _play(games, seed, players).split()
    return CFigures(int(g), int(turns), int(rounds), int(busts), float(cpu), float(wall))


def games_played(games: int, seed: int = 0, players: int = 4) -> dict[str, np.ndarray]:
    """Per game of the C program, the frame's columns: ``turns``, ``rounds``, ``busts``,
    ``unfinished`` (shape (games,)) and per seat ``win``, ``rank``, ``lives``, ``dealt_mask``
    (shape (games, players))."""
    out = _play(games, seed, players, "check")
    table = np.array([line.split() for line in out.splitlines()], dtype=np.int64)
    table = table.reshape(games, 4 + 4 * players)
    out = {name: table[:, i] for i, name in enumerate(("turns", "rounds", "busts", "unfinished"))}
    seats = table[:, 4:].reshape(games, players, 4)
    for i, name in enumerate(("win", "rank", "lives", "dealt_mask")):
        out[name] = seats[:, :, i]
    return out
