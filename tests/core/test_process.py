"""The ``simcards`` command as a process (``simcards.cli.program``): it leaves without tearing
the interpreter down, so these check that nothing is lost on the way out."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import simcards


def _simcards(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "simcards", *args], capture_output=True, text=True)


def _python(*lines: str) -> list[str]:
    """What a fresh Python prints running these lines (which must not fail), word by word."""
    done = subprocess.run([sys.executable, "-c", "\n".join(lines)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_output_reaches_a_pipe_and_the_exit_code_is_kept():
    listed = _simcards("games")
    assert listed.returncode == 0 and "five-alive" in listed.stdout and "vzhukh" in listed.stdout
    bad = _simcards("run", "no-such-game")
    assert bad.returncode == 2 and bad.stdout == ""
    assert len(bad.stderr.strip().splitlines()) == 1 and "no-such-game" in bad.stderr


def test_exit_handlers_still_run():
    code = ("import atexit, sys\n"
            "atexit.register(lambda: print('handler ran', flush=True))\n"
            "sys.argv = ['simcards', 'games']\n"
            "from simcards.cli import program\n"
            "program()\n"
            "print('not reached')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith("handler ran") and "not reached" not in done.stdout


#: the game packages, as a new game adds them: simcards/games/<game_pkg>/
GAMES = Path(simcards.__file__).parent / "games"

FRESH_PROCESSES = {
    "asking for one game imports only that game and still lists all": (
        ["import sys, simcards",
         "simcards.get_game('vzhukh')",
         "print(sorted({m.split('.')[2] for m in sys.modules if m.startswith('simcards.games.')}))",
         "print(simcards.list_games())"],
        # every game package beside it is listed too (the games' folders, not a list of names)
        ["['vzhukh']", *str(sorted(p.name.replace("_", "-") for p in GAMES.iterdir()
                                   if (p / "__init__.py").is_file())).split()]),
    "the package and the command load without pandas or numba; simulate is the function": (
        ["import sys, simcards.cli",
         "print('pandas' in sys.modules, 'numba' in sys.modules, 'simulate' in dir(simcards))",
         "from simcards import simulate",
         "print(callable(simulate), simcards.simulate is simulate, 'pandas' in sys.modules)"],
        ["False", "False", "True", "True", "True", "True"]),
    "simcards cache reads and clears the kernel folder without numba": (
        ["import sys, simcards.cache_folder as c",
         "c.items(c.kernel_dir())",
         "print('numba' in sys.modules, 'pandas' in sys.modules)"],
        ["False", "False"]),
}


@pytest.mark.parametrize("lines, printed", FRESH_PROCESSES.values(), ids=FRESH_PROCESSES)
def test_what_a_fresh_process_imports(lines, printed):
    assert _python(*lines) == printed


def test_the_help_answers():
    helped = _simcards("--help")
    assert helped.returncode == 0 and "run" in helped.stdout and helped.stderr == ""
