"""What the command line shows while the user waits, on stderr.

A status line while numba compiles a kernel or a strategy's table is built, a
note when a cached kernel is loaded (all from ``simcards.events``), and a progress bar that appears when a
run or a report has taken ``DELAY_S`` seconds, so that short runs print
nothing extra. On a console that is not a terminal (a pipe, a log, a test)
none of this is printed: stdout and the one-line errors stay clean.
"""
from __future__ import annotations

import contextlib
import threading
from typing import Any, Iterator

from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn,
                           TaskProgressColumn, TextColumn, TimeRemainingColumn)
from rich.text import Text

from simcards import events

DELAY_S = 2.0


def _set(strategies) -> str:
    return ", ".join(sorted(set(strategies)))


class KernelNotes:
    """Subscriber to ``simcards.events``: a rich status line during a compile, notes after."""

    def __init__(self, console: Console):
        self.console = console
        self._status = None

    def __call__(self, kind: str, **f: Any) -> None:
        if not self.console.is_terminal:
            return
        if kind == "compile-start":
            self._start(f"compiling {f['game']} for {_set(f['strategies'])} … first use of this set, "
                        f"about {f['estimate_s']:.0f} s")
        elif kind == "compile-done":
            self._done(f"compiled {f['game']} for {_set(f['strategies'])} in {f['seconds']:.1f} s")
        elif kind == "kernel-cached":
            self.note(f"loaded the compiled {f['game']} kernel for {_set(f['strategies'])} "
                      f"from the cache in {f['seconds']:.1f} s")
        elif kind == "table-start":
            self._start(f"building the {f['table']} of {f['strategy']} for {f['game']} at "
                        f"{f['n_players']} players by simulation … first use of these rules")
        elif kind == "table-done":
            self._done(f"built the {f['table']} of {f['strategy']} for {f['game']} at "
                       f"{f['n_players']} players in {f['seconds']:.1f} s")

    def _start(self, text: str) -> None:
        self._status = self.console.status(Text(text))
        self._status.start()

    def _done(self, text: str) -> None:
        """Stop the status line; note what was done and that the cache keeps it."""
        if self._status is not None:
            self._status.stop()
            self._status = None
        self.note(f"{text} (kept in the cache for the next runs)")

    def note(self, text: str) -> None:
        self.console.print(text, markup=False, highlight=False, style="dim")


@contextlib.contextmanager
def kernel_notes(console: Console) -> Iterator[KernelNotes]:
    notes = KernelNotes(console)
    with events.subscribe(notes):
        try:
            yield notes
        finally:
            if notes._status is not None:   # a compile that failed: take the line away
                notes._status.stop()


class _Speed(ProgressColumn):
    def render(self, task) -> Text:
        unit = task.fields.get("unit", "games")
        return Text("" if task.speed is None else f"{task.speed:,.{2 if unit == 'trials' else 0}f} {unit}/s")


class Bar:
    """Games done out of a total that may grow (a report adds batches); shown after DELAY_S."""

    def __init__(self, progress: Progress, task):
        self._progress, self._task = progress, task

    def advance(self, games: int) -> None:
        self._progress.advance(self._task, games)

    def update(self, done: int, total: int, where: str = "", unit: str = "games") -> None:
        """``unit``: what ``done`` counts (games, or a balance search's trials); a bar that
        changes unit starts its rate and time left again, since neither carries over."""
        if self._progress.tasks[0].fields.get("unit", "games") != unit:
            self._progress.reset(self._task, total=total, completed=done, unit=unit)
        self._progress.update(self._task, completed=done, total=total,
                              description=where or "playing")


@contextlib.contextmanager
def progress_bar(console: Console, total: int, delay: float = DELAY_S) -> Iterator[Bar]:
    """One bar for every backend: games done, games per second, time left."""
    progress = Progress(TextColumn("{task.description}", markup=False), BarColumn(),
                        MofNCompleteColumn(), TaskProgressColumn(), _Speed(), TimeRemainingColumn(),
                        console=console, transient=True, disable=not console.is_terminal)
    task = progress.add_task("playing", total=total)
    timer = threading.Timer(delay, progress.start)   # short runs print no bar at all
    timer.daemon = True
    timer.start()
    try:
        yield Bar(progress, task)
    finally:
        timer.cancel()
        progress.stop()
