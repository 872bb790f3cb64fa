"""Waits the user sees: events from the kernel loader, the status line and notes they drive."""
from __future__ import annotations

import io

from rich.console import Console

from simcards import events
from simcards.waits import KernelNotes, kernel_notes, progress_bar


def test_subscribers_receive_events_only_inside_the_block():
    got = []
    events.emit("compile-start", game="g", strategies=("a",), estimate_s=1.0)
    with events.subscribe(lambda kind, **f: got.append((kind, f))):
        events.emit("kernel-cached", game="g", strategies=("a",), seconds=0.5)
    events.emit("compile-done", game="g", strategies=("a",), seconds=2.0)
    assert got == [("kernel-cached", {"game": "g", "strategies": ("a",), "seconds": 0.5})]


def _terminal() -> tuple[Console, io.StringIO]:
    buffer = io.StringIO()
    return Console(file=buffer, force_terminal=True, width=200), buffer


def test_notes_on_a_terminal_name_the_game_the_set_and_the_time():
    console, buffer = _terminal()
    with kernel_notes(console):
        events.emit("compile-start", game="five-alive", strategies=("keep_zero", "expert", "expert"),
                    estimate_s=15.0)
        events.emit("compile-done", game="five-alive", strategies=("keep_zero", "expert"), seconds=14.2)
        events.emit("kernel-cached", game="vzhukh", strategies=("random",), seconds=0.8)
    text = buffer.getvalue()
    assert "compiling five-alive for expert, keep_zero" in text and "about 15 s" in text
    assert "compiled five-alive for expert, keep_zero in 14.2 s" in text
    assert "loaded the compiled vzhukh kernel for random from the cache in 0.8 s" in text


def test_a_table_build_shows_a_status_then_a_note():
    console, buffer = _terminal()
    fields = dict(game="five-alive", strategy="search", table="value table", n_players=4)
    with kernel_notes(console) as notes:
        events.emit("table-start", **fields)
        assert notes._status is not None
        events.emit("table-done", seconds=3.7, **fields)
        assert notes._status is None
    text = buffer.getvalue()
    assert "building the value table of search for five-alive at 4 players" in text
    assert "built the value table of search for five-alive at 4 players in 3.7 s" in text


def test_nothing_is_printed_when_stderr_is_not_a_terminal():
    buffer = io.StringIO()
    notes = KernelNotes(Console(file=buffer, force_terminal=False))
    notes("kernel-cached", game="g", strategies=("a",), seconds=1.0)
    assert buffer.getvalue() == ""


def test_the_bar_takes_a_growing_total():
    console, buffer = _terminal()
    with progress_bar(console, 10, delay=0) as bar:
        bar.advance(4)
        bar.update(8, 20, "2 players, line-up 1/3")
        task = bar._progress.tasks[0]
        assert (task.completed, task.total, task.description) == (8, 20, "2 players, line-up 1/3")


def test_the_kernel_loader_announces_a_compile_then_a_cached_load(tmp_path, monkeypatch):
    """As two fresh processes would see it, in this one: an empty kernel folder, and the loader's
    memory of the modules it has loaded emptied before each load (a fresh process would
    compile the engine too, about 20 s, where this one links what it has compiled already)."""
    from simcards import kernels
    from simcards.registry import get_game
    from simcards.strategy_registry import check_strategies
    monkeypatch.setenv("SIMCARDS_KERNEL_DIR", str(tmp_path / "kernels"))
    spec = get_game("five-alive")
    infos = list(check_strategies(spec, ("high_first", "random")).values())

    def load():
        seen = []
        monkeypatch.setattr(kernels, "_loaded", {})
        monkeypatch.setattr(kernels, "_last", {})
        monkeypatch.setattr(kernels, "_warm", set())
        with events.subscribe(lambda kind, **f: seen.append([kind, sorted(f)])):
            kernels.load_kernel(spec, infos)
        return seen

    assert load() == [["compile-start", ["estimate_s", "game", "strategies"]],
                      ["compile-done", ["game", "seconds", "strategies"]]]
    assert load() == [["kernel-cached", ["game", "seconds", "strategies"]]]
    assert list((tmp_path / "kernels").glob("_simcards_kernel_five_alive_*.py"))
