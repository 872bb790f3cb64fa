"""Hostile strategies (issue 49): a user's strategy file that returns the wrong type, writes into
its view, raises, returns an illegal move, cannot be imported or takes a built-in's name. Each is
a real file in a real ``--strategy-dir`` and a real ``python -m simcards`` process, and each ends
in one line naming the file, the line where known, the strategy and the game index, exit code 2.

A case that compiles a kernel (about 5-15 s on a cold cache) is marked slow; the file faults
are found before any compile."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from simcards.run_folder import PARTS, part_name

HEAD = '''
    from numba import njit
    from simcards.config import NJIT_OPTIONS, STRATEGY_NJIT_OPTIONS
    from simcards.games.five_alive.view import legal_move
    from simcards.rng import rand_below
'''


def folder(tmp_path: Path, name: str, body: str, doc: str = "A hostile test strategy.") -> Path:
    """``tmp_path/mine/five_alive/<name>.py``: the docstring, HEAD's imports, then ``body``."""
    root = tmp_path / "mine"
    (root / "five_alive").mkdir(parents=True, exist_ok=True)
    text = f'"""{doc}"""' + textwrap.dedent(HEAD) + textwrap.dedent(body)
    (root / "five_alive" / f"{name}.py").write_text(text)
    return root


def line_of(root: Path, name: str, needle: str) -> int:
    """The line of the strategy file that holds ``needle``."""
    lines = (root / "five_alive" / f"{name}.py").read_text().splitlines()
    return next(i for i, ln in enumerate(lines, 1) if needle in ln)


def run(faults, root: Path, *lineup: str, games: int = 20, extra: tuple = ()):
    return faults.simcards("run", "five-alive", "--strategies", ",".join(lineup), "--games", str(games),
                           "--no-rotate", "--strategy-dir", str(root), *extra)


# ------------------------------------------------------------------ the wrong return type
WRONG_TYPE = {
    # name: (body, the line's text, what the message says it returns)
    "gives_str": ('''
        @njit(**NJIT_OPTIONS)
        def decide(view, rng):
            return "7"
    ''', 'return "7"', "returns a str"),
    "gives_none": ('''
        @njit(**NJIT_OPTIONS)
        def decide(view, rng):
            if view.seat > 9:
                return legal_move(view, 0)
    ''', "def decide", "returns None or int64"),
    "gives_array": ('''
        @njit(**NJIT_OPTIONS)
        def decide(view, rng):
            return view.s[0:2]
    ''', "return view.s", "returns an array"),
    "gives_float": ('''
        @njit(**NJIT_OPTIONS)
        def decide(view, rng):
            if view.seat > 9:
                return legal_move(view, 0)
            return 1.5
    ''', "return 1.5", "returns float64"),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(WRONG_TYPE))
def test_a_wrong_return_type_is_one_line_naming_file_line_and_strategy(faults, tmp_path, name):
    """Not numba's 170 lines pointing into the generated kernel, and never a float truncated:
    the decision's own compile is read before it is linked into the kernel."""
    body, needle, says = WRONG_TYPE[name]
    root = folder(tmp_path, name, body)
    done = run(faults, root, name, name)
    where = f"{root / 'five_alive' / name}.py line {line_of(root, name, needle)}:"
    faults.one_line(done, where, f"strategy {name!r}", says, "from decide()", "expected an integer")


# ------------------------------------------------------------------ a write into the view
VIEW_WRITES = {
    "pokes_view": ('''
        @njit(**NJIT_OPTIONS)
        def decide(view, rng):
            view.s[3] = 0
            return legal_move(view, 0)
    ''', "view.s[3] = 0"),
    # through a helper of the user's own, handed a slice of the view
    "pokes_helper": ('''
        @njit(**NJIT_OPTIONS)
        def _clear(cells):
            cells[:] = 0

        @njit(**NJIT_OPTIONS)
        def decide(view, rng):
            _clear(view.s[10:12])
            return legal_move(view, 0)
    ''', "cells[:] = 0"),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(VIEW_WRITES))
def test_a_write_into_the_view_is_one_line_naming_file_line_and_strategy(faults, tmp_path, name):
    """Not "column 'rank' holds 0 ... widen them" from the frame, long after the fact."""
    body, needle = VIEW_WRITES[name]
    root = folder(tmp_path, name, body)
    done = run(faults, root, name, name)
    where = f"{root / 'five_alive' / name}.py line {line_of(root, name, needle)}:"
    faults.one_line(done, where, f"strategy {name!r}", "writes into its view")


# ------------------------------------------------------------------ a strategy that raises
RARE_RAISE = '''
    @njit(**STRATEGY_NJIT_OPTIONS)
    def decide(view, rng):
        if rand_below(rng, 20000) == 0:
            raise ValueError("a rare fault")
        return legal_move(view, 0)
'''
#: The first game of seed 0 in which RARE_RAISE raises, two seats of it (and of RARE_LOOP in
#: test_stopping.py, which draws the same numbers).
FIRST_FAULT = 27


@pytest.mark.slow
def test_a_raising_strategy_is_one_line_with_its_game_and_the_chunks_before_stay(faults, tmp_path):
    """A raise in compiled code was a traceback and exit 1. Now: the game is found, and the
    plain-Python twin names the line; the chunks saved before it stay in the run folder."""
    root = folder(tmp_path, "rare_raise", RARE_RAISE)
    run_dir = tmp_path / "run"
    done = run(faults, root, "rare_raise", "rare_raise", games=400,
               extra=("--threads", "1", "--chunk-size", "5", "--run-dir", str(run_dir)))
    where = f"{root / 'five_alive' / 'rare_raise'}.py line {line_of(root, 'rare_raise', 'raise ValueError')}:"
    faults.one_line(done, where, "strategy 'rare_raise' raised ValueError: a rare fault",
                    f"game index {FIRST_FAULT},", "seed 0")
    failed = FIRST_FAULT // 5
    for index in range(failed):
        assert (run_dir / PARTS / part_name(index, False)).is_file(), f"chunk {index} was not kept"
    assert not (run_dir / PARTS / part_name(failed, False)).exists()


@pytest.mark.slow
def test_an_index_past_the_end_raises_and_is_named_not_read(faults, tmp_path):
    """With numba's bounds checks off, an index past the array's end reads whatever lies there
    (or crashes the process); a user's decisions are compiled with them on."""
    root = folder(tmp_path, "past_end", '''
        @njit(**STRATEGY_NJIT_OPTIONS)
        def decide(view, rng):
            return legal_move(view, 0) + view.s[view.s.shape[0] + 1000] * 0
    ''')
    done = run(faults, root, "past_end", "past_end")
    where = f"{root / 'five_alive' / 'past_end'}.py line {line_of(root, 'past_end', 'view.s.shape')}:"
    faults.one_line(done, where, "strategy 'past_end' raised IndexError", "game index 0,")


# ------------------------------------------------------------------ an illegal move
@pytest.mark.slow
def test_an_illegal_move_is_one_line_naming_file_strategy_and_game(faults, tmp_path):
    root = folder(tmp_path, "minus_one", '''
        @njit(**STRATEGY_NJIT_OPTIONS)
        def decide(view, rng):
            return -1
    ''')
    done = run(faults, root, "minus_one", "minus_one")
    faults.one_line(done, f"strategy file {root / 'five_alive' / 'minus_one'}.py:",
                    "strategy 'minus_one' returned an illegal move -1", "game index 0,", "seed 0")


# ------------------------------------------------------------------ a file that cannot be used
BROKEN = {
    "syntax": ('''
        @njit(**NJIT_OPTIONS)
        def decide(view, rng)
            return 0
    ''', "def decide", "syntax error"),
    "missing_import": ('''
        import simcards_no_such_module

        @njit(**NJIT_OPTIONS)
        def decide(view, rng):
            return 0
    ''', "import simcards_no_such_module", "No module named 'simcards_no_such_module'"),
}


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_a_file_that_cannot_be_imported_is_one_line_naming_file_and_line(faults, tmp_path, kind):
    body, needle, says = BROKEN[kind]
    root = folder(tmp_path, f"bad_{kind}", body)
    done = run(faults, root, f"bad_{kind}", "random")
    where = f"{root / 'five_alive' / f'bad_{kind}'}.py line {line_of(root, f'bad_{kind}', needle)}:"
    faults.one_line(done, where, says)


def test_a_builtin_name_taken_again_is_one_line_naming_both_files(faults, tmp_path):
    root = folder(tmp_path, "high_first", '''
        @njit(**NJIT_OPTIONS)
        def decide(view, rng):
            return legal_move(view, 0)
    ''')
    done = run(faults, root, "high_first", "random")
    faults.one_line(done, "'high_first'", "defined twice", str(root / "five_alive" / "high_first.py"),
                    "strategies/five_alive/high_first.py", "rename one")
