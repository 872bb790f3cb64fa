"""A strategy that never returns (issue 49): it ran until SIGKILL, SIGINT and SIGTERM ignored.
Now the compiled chunks stop between games on SIGINT, SIGTERM or ``--time-limit``, keeping the
chunks saved before, and a replay stops a decision that takes longer than
``--decision-time-limit``. Real processes, real signals, a real endless loop.

The cases share one strategy folder, so that its kernels compile once (the first run and the
first replay); they run in order on one test worker."""
from __future__ import annotations

import os
import signal
import subprocess
import textwrap
import time
from pathlib import Path

import pytest

from simcards.run_folder import PARTS, part_name

pytestmark = pytest.mark.xdist_group("faults-endless-strategy")

#: Plays its first legal card, and now and then loops for ever: it draws the numbers
#: test_strategies.RARE_RAISE draws, so its first endless decision is in game FIRST_LOOP.
RARE_LOOP = '''
    """Plays its first legal card, and now and then never returns (a hostile test strategy)."""
    from numba import njit
    from simcards.config import STRATEGY_NJIT_OPTIONS
    from simcards.games.five_alive.view import legal_move
    from simcards.rng import rand_below


    @njit(**STRATEGY_NJIT_OPTIONS)
    def decide(view, rng):
        if rand_below(rng, 20000) == 0:
            while view.seat >= 0:
                pass
        return legal_move(view, 0)
'''
FIRST_LOOP = 27
CHUNK = 5
#: Seconds from a signal to the end of the process: the threads get one second to reach the end
#: of their game, then the run is given up; the rest is the machine's load.
STOPS_WITHIN = 6.0


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("endless") / "mine"
    (root / "five_alive").mkdir(parents=True)
    (root / "five_alive" / "rare_loop.py").write_text(textwrap.dedent(RARE_LOOP).lstrip())
    return root


def start_run(faults, root: Path, run_dir: Path, *extra: str):
    return faults.start("run", "five-alive", "--strategies", "rare_loop", "--players", "2", "--games",
                        "100000", "--chunk-size", str(CHUNK), "--threads", "2", "--strategy-dir", str(root),
                        "--run-dir", str(run_dir), *extra)


def parts_before_the_loop(run_dir: Path) -> list[Path]:
    return [run_dir / PARTS / part_name(i, False) for i in range(FIRST_LOOP // CHUNK)]


def wait_for(condition, proc, timeout: float = 240.0) -> None:
    end = time.monotonic() + timeout
    while not condition():
        assert proc.poll() is None, f"the process ended first: {proc.communicate()}"
        assert time.monotonic() < end, "timed out waiting"
        time.sleep(0.1)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def stop_with(proc, sig: int) -> tuple[float, str]:
    """Send ``sig``; (seconds until the process ended, its stderr)."""
    sent = time.monotonic()
    proc.send_signal(sig)
    try:
        _, err = proc.communicate(timeout=60)
    except Exception:
        proc.kill()
        raise
    return time.monotonic() - sent, err


@pytest.mark.slow
def test_time_limit_stops_a_strategy_that_never_returns_and_names_it(faults, root, tmp_path):
    """The first case compiles the kernel: the limit counts from the first game, not the compile."""
    run_dir = tmp_path / "run"
    proc = start_run(faults, root, run_dir, "--time-limit", "3")
    out, err = proc.communicate(timeout=300)
    done = subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
    faults.one_line(done, "did not finish within its time limit of 3 s", "a strategy may never return",
                    f"rare_loop ({root / 'five_alive' / 'rare_loop.py'})")
    assert all(p.is_file() for p in parts_before_the_loop(run_dir)), "the chunks before the loop were lost"


@pytest.mark.slow
def test_simulate_time_limit_raises_naming_the_lineup(root):
    """The API's ``time_limit``: a TimeLimitError (a SimcardsError) naming the strategies; the
    stuck thread is the caller's process's, so a new process plays it and leaves."""
    import sys
    code = textwrap.dedent(f"""
        import os, simcards
        from simcards.errors import SimcardsError, TimeLimitError
        try:
            simcards.simulate("five-alive", ["rare_loop"] * 2, 100000, threads=2, chunk_size={CHUNK},
                              strategy_dirs=[{str(root)!r}], time_limit=3)
        except TimeLimitError as exc:
            print("TimeLimitError", isinstance(exc, SimcardsError), exc, flush=True)
        os._exit(0)
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.stdout.startswith("TimeLimitError True"), (done.stdout, done.stderr[-2000:])
    assert "time limit of 3 s" in done.stdout and "rare_loop" in done.stdout


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_stops_a_strategy_that_never_returns_within_seconds(faults, root, tmp_path, sig):
    run_dir = tmp_path / "run"
    proc = start_run(faults, root, run_dir)
    kept = parts_before_the_loop(run_dir)
    wait_for(lambda: all(p.is_file() for p in kept), proc)
    time.sleep(1.0)          # the chunk of game FIRST_LOOP is in its endless decision by now
    seconds, err = stop_with(proc, sig)
    assert proc.returncode == 128 + sig, (proc.returncode, err)
    assert seconds < STOPS_WITHIN, f"{seconds:.1f} s from the signal to the end"
    assert "Traceback" not in err and len(err.strip().splitlines()) <= 2, err
    assert all(p.is_file() for p in kept), "the chunks saved before the signal were lost"
    assert not (run_dir / PARTS / part_name(FIRST_LOOP // CHUNK, False)).exists()


@pytest.mark.slow
def test_replay_stops_a_decision_past_its_time_limit_and_names_it(faults, root):
    """`simcards replay` runs the compiled game on a thread it watches: a decision that takes
    longer than --decision-time-limit is named with its strategy, file and game. (The first
    replay: it compiles the replay loop.)"""
    done = faults.simcards("replay", "five-alive", "--strategies", "rare_loop", "--players", "2", "--game",
                           str(FIRST_LOOP), "--strategy-dir", str(root), "--decision-time-limit", "2",
                           timeout=300)
    faults.one_line(done, f"strategy file {root / 'five_alive' / 'rare_loop.py'}:", "strategy 'rare_loop'",
                    "did not return within the decision time limit of 2 s", f"game index {FIRST_LOOP},")


@pytest.mark.slow
def test_sigint_stops_a_replay_stuck_in_a_decision(faults, root):
    proc = faults.start("replay", "five-alive", "--strategies", "rare_loop", "--players", "2", "--game",
                        str(FIRST_LOOP), "--strategy-dir", str(root), "--decision-time-limit", "600")
    # the replay loop is cached by the case above: a fresh process loads it in a few seconds of CPU,
    # and the rest is the endless decision
    wait_for(lambda: cpu_seconds(proc.pid) > 8.0, proc)
    seconds, err = stop_with(proc, signal.SIGINT)
    assert proc.returncode == 128 + signal.SIGINT, (proc.returncode, err)
    assert seconds < STOPS_WITHIN and "Traceback" not in err, (seconds, err)


@pytest.mark.parametrize("args", [("run", "--time-limit", "0"), ("run", "--time-limit", "nan"),
                                  ("replay", "--decision-time-limit", "-1")], ids=["zero", "nan", "negative"])
def test_a_bad_time_limit_is_one_line(faults, args):
    command, option, value = args
    done = faults.simcards(command, "five-alive", "--players", "2", option, value)
    faults.one_line(done, option, value, "expected a positive number of seconds")
