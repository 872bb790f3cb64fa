"""The ``simcards`` command as a process (``simcards.cli.program``): it leaves without tearing
the interpreter down, so these check that nothing is lost on the way out."""
from __future__ import annotations

import subprocess
import sys


def _simcards(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "simcards", *args], capture_output=True, text=True)


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


def test_asking_for_one_game_imports_only_that_game_and_still_lists_all():
    code = ("import sys, simcards\n"
            "simcards.get_game('vzhukh')\n"
            "print(sorted({m.split('.')[2] for m in sys.modules if m.startswith('simcards.games.')}))\n"
            "print(simcards.list_games())\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    first, second = done.stdout.strip().splitlines()
    assert first == "['vzhukh']", done.stderr
    assert second == "['bombs-away', 'five-alive', 'thirty-one', 'vzhukh']"


def test_the_package_and_the_command_load_without_pandas_or_numba_and_simulate_is_the_function():
    code = ("import sys, simcards.cli\n"
            "print('pandas' in sys.modules, 'numba' in sys.modules)\n"
            "from simcards import simulate\n"
            "print(callable(simulate), simcards.simulate is simulate, 'pandas' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "False", "True", "True", "True"]
    helped = _simcards("--help")
    assert helped.returncode == 0 and "run" in helped.stdout
