"""``simcards bench``: whole runs against the previous release, the reference engine labelled as
information. No timing is asserted (the machine decides those); the shape and labels are."""
from __future__ import annotations

import re

import pytest
import typer
from typer.testing import CliRunner

import simcards
from simcards import bench_release
from simcards.bench import KERNEL_1, REFERENCE, REPEAT, SIMULATE_1, TIGHT_C, _median_pass, bench
from simcards.bench_against import ROUNDS
from simcards import cli
from simcards.errors import SimcardsError
from simcards.cli import app


def test_bench_rows_compare_with_the_previous_release(monkeypatch):
    monkeypatch.setattr(bench_release, "TRIES", {bench_release.processor(): {
        ("five-alive", "high_first", 4): {SIMULATE_1: (1e9, 3e9, 2e9), KERNEL_1: (1e-9,)}}})
    passes = []
    result = bench("five-alive", games=300, reference_games=2, strategy="high_first",
                   progress=lambda done, total: passes.append((done, total)))
    assert passes == [(done, REPEAT) for done in range(1, REPEAT + 1)]       # one report a pass
    rows = {r["engine"]: r for r in result["rows"]}
    assert [SIMULATE_1, KERNEL_1, REFERENCE] == [e for e in rows if e in (SIMULATE_1, KERNEL_1, REFERENCE)]
    # the fast rows play the same games, so they count the same turns
    assert rows[SIMULATE_1]["steps"] == rows[KERNEL_1]["steps"] > 300
    assert rows[SIMULATE_1]["vs_previous"] > 1 > rows[KERNEL_1]["vs_previous"]
    # against the median of the release's tries, with the ratios to its fastest and slowest
    ours = rows[SIMULATE_1]["cpu_ns_per_step"]
    assert rows[SIMULATE_1]["vs_previous"] == pytest.approx(2e9 / ours)
    assert rows[SIMULATE_1]["vs_previous_range"] == pytest.approx((1e9 / ours, 3e9 / ours))
    assert rows[REFERENCE]["vs_previous"] is None and result["unit"] == "turn"
    # every fast row timed REPEAT times, shown by its median pass; the reference once
    for label in (SIMULATE_1, KERNEL_1, TIGHT_C):
        low, high = rows[label]["cpu_ns_per_step_range"]
        assert rows[label]["passes"] == REPEAT and low <= rows[label]["cpu_ns_per_step"] <= high, label
    assert "passes" not in rows[REFERENCE]
    assert result["previous"].here and result["previous"].processors == (bench_release.processor(),)
    assert result["steps_per_game"] == pytest.approx(rows[KERNEL_1]["steps"] / 300)
    # every game's decisions counted: a Five Alive turn is a decision unless it is a bust
    frame = simcards.simulate("five-alive", ["high_first"] * 4, 300, seed=0)
    per_game = frame.groupby("game")[["turns", "busts"]].first().astype("int64")
    assert result["decisions_sample"] == 300
    assert result["decisions_per_game"] == pytest.approx((per_game["turns"] - per_game["busts"]).mean())
    assert result["cpu_ms_per_decision"] > 0 and result["decisions_per_s"] > 0
    # the tight C yardstick plays the same games (so the same turns), before the reference row
    assert list(rows).index(TIGHT_C) == list(rows).index(REFERENCE) - 1
    assert rows[TIGHT_C]["steps"] == rows[KERNEL_1]["steps"] and rows[TIGHT_C]["vs_previous"] is None
    assert result["c_ratio"] == pytest.approx(rows[SIMULATE_1]["cpu_ns_per_step"] / rows[TIGHT_C]["cpu_ns_per_step"])
    assert result["c_kernel_ratio"] == pytest.approx(rows[KERNEL_1]["cpu_ns_per_step"] / rows[TIGHT_C]["cpu_ns_per_step"])
    assert result["c_target"] == 1.5          # issue 13's bound for Five Alive
    assert "-O3" in result["c_note"] and "WARNING" not in result["c_note"]


def test_a_row_is_its_pass_of_median_cpu_time():
    """Wall and CPU seconds from one and the same pass; the lower middle one of an even count."""
    def timed(cpu, wall):
        return {"engine": SIMULATE_1, "games": 10, "seconds": wall, "cpu_seconds": cpu, "steps": 100}
    row = _median_pass([timed(3.0, 9.0), timed(1.0, 8.0), timed(2.0, 7.0)])
    assert (row["cpu_seconds"], row["seconds"], row["passes"]) == (2.0, 7.0, 3)
    assert row["cpu_ns_per_step_range"] == pytest.approx((1e7, 3e7))
    row = _median_pass([timed(4.0, 1.0), timed(1.0, 1.0), timed(3.0, 6.0), timed(2.0, 5.0)])
    assert (row["cpu_seconds"], row["seconds"], row["passes"]) == (2.0, 5.0, 4)
    assert _median_pass([timed(5.0, 6.0)])["cpu_ns_per_step_range"] == pytest.approx((5e7, 5e7))


def test_the_passes_and_rounds_options_go_with_their_own_measure(tmp_path):
    """--repeat times the usual rows and --rounds the side-by-side: each refused with the other
    measure (one line, exit 2) rather than taken and ignored; --repeat 0 is refused before any
    work. The defaults the help names are the library's."""
    for args, message in (
            (["--against", str(tmp_path), "--repeat", "2"],
             "error: --repeat 2 sets the passes of the usual rows: with --against, --rounds sets the "
             "timings of each version"),
            (["--rounds", "2"],
             "error: --rounds 2 goes with --against: without it, --repeat sets the timed passes of each row"),
            (["--repeat", "0"], "error: bad --repeat 0: expected a positive integer")):
        done = CliRunner().invoke(app, ["bench", "five-alive", *args])
        assert done.exit_code == 2 and done.output.strip().splitlines() == [message], done.output
    with pytest.raises(SimcardsError, match="--repeat 0"):
        bench("five-alive", games=10, reference_games=1, strategy="high_first", repeat=0)
    helps = {param.name: param.help for param in typer.main.get_command(app).commands["bench"].params}
    assert f"(default {ROUNDS})" in helps["rounds"] and f"(default {REPEAT};" in helps["repeat"]


def test_every_saved_release_figure_names_a_row_bench_times():
    """A figure saved under a label no row carries would never be compared (a renamed row), and
    a processor bench cannot name would print a key instead of where the tries were timed."""
    assert set(bench_release.TRIES) <= set(bench_release.PROCESSORS)
    for name, line_ups in bench_release.TRIES.items():
        for line_up, figures in line_ups.items():
            assert set(figures) <= {SIMULATE_1, KERNEL_1}, (name, line_up)
            assert all(len(tries) >= 3 for tries in figures.values()), (name, line_up)


def test_the_release_is_compared_on_this_processor_where_it_was_timed_here(monkeypatch):
    """The same code is 1.5x the release's speed on one processor and 1.9x on another: a bench
    takes the tries timed on its own processor, and pools every processor's only where it has
    none, saying so."""
    line_up = ("five-alive", "high_first", 4)
    monkeypatch.setattr(bench_release, "TRIES", {
        "cpu-a": {line_up: {SIMULATE_1: (10.0, 11.0, 12.0)}},
        "cpu-b": {line_up: {SIMULATE_1: (20.0, 21.0, 22.0), KERNEL_1: (5.0, 6.0, 7.0)}}})
    here = bench_release.previous(*line_up, here="cpu-b")
    assert here == bench_release.Previous({SIMULATE_1: (20.0, 21.0, 22.0), KERNEL_1: (5.0, 6.0, 7.0)},
                                          ("cpu-b",), True)
    elsewhere = bench_release.previous(*line_up, here="cpu-c")
    assert not elsewhere.here and elsewhere.processors == ("cpu-a", "cpu-b")
    assert elsewhere.tries == {SIMULATE_1: (10.0, 11.0, 12.0, 20.0, 21.0, 22.0), KERNEL_1: (5.0, 6.0, 7.0)}
    assert bench_release.previous("five-alive", "random", 4, here="cpu-b") is None
    assert bench_release.previous(*line_up) is not None          # this machine's name, whatever it is


def test_a_ratio_to_the_release_reads_the_same_way_round_as_its_range():
    """Slower: both ends turned over too, the least slow first (a range is never printed backwards)."""
    assert cli._vs_release({"vs_previous": 2.0, "vs_previous_range": (1.5, 3.0)}) == "2.00x faster (range 1.50-3.00)"
    assert cli._vs_release({"vs_previous": 0.5, "vs_previous_range": (0.25, 0.8)}) == "2.00x slower (range 1.25-4.00)"
    assert cli._vs_release({"vs_previous": None, "vs_previous_range": None}) == "-"


def test_bench_command_names_its_yardstick(monkeypatch):
    monkeypatch.setattr(cli.out, "_width", 80)      # a plain terminal's width
    monkeypatch.setattr("simcards.bench.fresh_start_seconds", lambda game, strategies: 0.0)  # not tested here
    out = CliRunner().invoke(app, ["bench", "five-alive", "--games", "300", "--reference-games", "2"])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    # the table fits 80 columns with no cell wrapped: every row's label whole on its own line
    assert max(map(len, lines)) <= 80, out.output
    for label in (SIMULATE_1, KERNEL_1, TIGHT_C, REFERENCE):
        assert sum(line.startswith(f"│ {label} ") for line in lines) == 1, (label, out.output)
    text = " ".join(out.output.split())
    tries = bench_release.previous("five-alive", "high_first", 4)
    count = max(map(len, tries.tries.values()))
    assert f"previous release 0.1.0 (commit 963dcb8), CPU ns per turn (the median of its {count} tries" in text
    assert re.search(rf"{SIMULATE_1} \d+\.\d\dx (faster|slower) \(range \d+\.\d\d-\d+\.\d\d\); "
                     rf"{KERNEL_1} \d+\.\d\dx", text), text
    assert "x the C per turn (target 1.5x), kernel only, 1 core" in text
    assert re.search(rf"each fast row: the median of {REPEAT} passes, interleaved; CPU ns per turn, fastest "
                     rf"to slowest pass: {SIMULATE_1} \d+\.\d-\d+\.\d; ", text), text
    assert re.search(r"of CPU per decision", text) and "e-0" not in text     # no exponent notation


@pytest.mark.parametrize("here", ["rocketlake", "no-such-cpu"])
def test_bench_names_where_the_release_was_timed(monkeypatch, here):
    """On a processor the release was timed on, bench says so; on another, that its ratio
    compares machines as well as code, and what times both here."""
    monkeypatch.setattr(bench_release, "processor", lambda: here)
    monkeypatch.setattr("simcards.bench.c_yardstick", lambda *args: (None, "no C"))   # not tested here
    monkeypatch.setattr("simcards.bench.fresh_start_seconds", lambda game, strategies: 0.0)
    out = CliRunner().invoke(app, ["bench", "five-alive", "--games", "300", "--reference-games", "2"])
    assert out.exit_code == 0, out.output
    text = " ".join(out.output.split())
    if here == "rocketlake":
        assert "tries on this processor, rocketlake: an Intel Xeon at 2.6 GHz (2026-12-03))" in text, text
        assert "compares machines" not in text
    else:
        assert ("none on this processor, no-such-cpu, so the ratio compares machines as well as code: "
                "`simcards bench five-alive --against` a checkout of the release times both here") in text, text
        assert all(bench_release.PROCESSORS[p] in text for p in bench_release.TRIES), text


def test_bench_without_a_c_compiler_says_so(monkeypatch):
    monkeypatch.setenv("CC", "no-such-c-compiler")
    monkeypatch.setattr("simcards.bench.fresh_start_seconds", lambda game, strategies: 0.0)  # not tested here
    out = CliRunner().invoke(app, ["bench", "five-alive", "--games", "300", "--reference-games", "2"])
    assert out.exit_code == 0, out.output
    text = " ".join(out.output.split())
    assert "no C yardstick: no C compiler found" in text and TIGHT_C not in text


def test_bench_flags_a_c_yardstick_that_played_other_games(monkeypatch):
    from simcards import bench as bench_module

    def off_by_one(game, strategies, modules, games, seed):
        return {"engine": TIGHT_C, "games": games, "seconds": 1.0, "cpu_seconds": 1.0, "steps": 7}, "C"
    monkeypatch.setattr(bench_module, "c_yardstick", off_by_one)
    monkeypatch.setattr(bench_module, "fresh_start_seconds", lambda game, strategies: 0.0)
    result = bench("five-alive", games=300, reference_games=2, strategy="high_first")
    assert "WARNING: the C played 7 turns" in result["c_note"]


def test_bench_of_thirty_one_gives_both_ratios_to_its_c_and_no_target(monkeypatch):
    """Thirty-One's C is information: the line names the kernel's ratio too and no target."""
    monkeypatch.setattr(cli.out, "_width", 200)
    monkeypatch.setattr("simcards.bench.fresh_start_seconds", lambda game, strategies: 0.0)  # not tested here
    out = CliRunner().invoke(app, ["bench", "thirty-one", "--games", "300", "--reference-games", "2"])
    assert out.exit_code == 0, out.output
    text = " ".join(out.output.split())
    assert TIGHT_C in text and "x the C per turn (no target: the C is information), kernel only, 1 core" in text
    assert "target 1.5x" not in text


def test_a_time_per_decision_reads_in_its_own_unit():
    """A heuristic's decision takes nanoseconds and a search's milliseconds: neither in exponents."""
    assert cli._duration(0.98) == "0.98 ms"
    assert cli._duration(12.5) == "12.5 ms"
    assert cli._duration(0.0123) == "12.3 us"
    assert cli._duration(1.869e-05) == "18.7 ns"
