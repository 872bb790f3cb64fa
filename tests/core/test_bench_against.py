"""``simcards bench --against DIR``: this code and another checkout timed side by side, in turns.
No timing is asserted (the machine decides those): which code each timing ran, the steps it
counted, the medians and the ratio, and one line and exit code 2 for a folder that is not a
checkout."""
from __future__ import annotations

import shutil
import statistics
from pathlib import Path

import pytest
from typer.testing import CliRunner

import simcards
from simcards import cli
from simcards.bench_against import MEASURES, side_by_side
from simcards.cli import app
from simcards.errors import SimcardsError

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def copy_of_this_checkout(tmp_path_factory) -> Path:
    """The project's simcards/ and strategies/ in another folder: the same code, found elsewhere."""
    folder = tmp_path_factory.mktemp("other") / "checkout"
    for part in ("simcards", "strategies"):
        shutil.copytree(ROOT / part, folder / part, ignore=shutil.ignore_patterns("__pycache__"))
    return folder


# slow: a copy of the checkout compiled and timed in fresh processes (20-30 s); CI runs it
@pytest.mark.slow
def test_each_version_runs_its_own_code_in_turns(copy_of_this_checkout):
    seen = []
    result = side_by_side("five-alive", ["high_first"] * 4, 400, 3, "turns", copy_of_this_checkout,
                          rounds=2, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 2), (2, 2)]
    assert result["against"] == str(copy_of_this_checkout.resolve())
    frame = simcards.simulate("five-alive", ["high_first"] * 4, 400, 3)
    turns = int(frame.groupby("game")["turns"].first().sum())
    for r in result["rounds"]:
        # this code is the installed package; the other is the copy's, found through the shim
        assert Path(r["this"]["simcards"]).resolve() == Path(simcards.__file__).resolve()
        assert Path(r["other"]["simcards"]).resolve() == copy_of_this_checkout / "simcards" / "__init__.py"
        assert r["this"]["steps"] == r["other"]["steps"] == turns      # the same code plays the same games
        assert r["this"]["again_steps"] == r["other"]["again_steps"] == turns     # simulate again
        assert r["this"]["kernel_steps"] == r["other"]["kernel_steps"] == turns   # the kernel alone: the same games
        assert r["this"]["warm_steps"] == r["other"]["warm_steps"] == turns       # and into warm memory
        for side in ("this", "other"):
            for prefix in MEASURES:
                assert r[side][f"{prefix}cpu_ns_per_step"] == pytest.approx(
                    r[side][f"{prefix}cpu_seconds"] / turns * 1e9)
    for prefix in MEASURES:
        assert result[f"{prefix}this_median"] == statistics.median(
            r["this"][f"{prefix}cpu_ns_per_step"] for r in result["rounds"])
        assert result[f"{prefix}ratio"] == pytest.approx(result[f"{prefix}other_median"] / result[f"{prefix}this_median"])


def test_a_folder_that_is_not_a_checkout_is_refused(tmp_path):
    (tmp_path / "simcards").mkdir()
    (tmp_path / "simcards" / "__init__.py").write_text("")
    with pytest.raises(SimcardsError, match="no strategies/__init__.py"):
        side_by_side("five-alive", ["high_first"] * 4, 10, 0, "turns", tmp_path)
    with pytest.raises(SimcardsError, match="--rounds 0"):
        side_by_side("five-alive", ["high_first"] * 4, 10, 0, "turns", ROOT, rounds=0)


# slow: as above
@pytest.mark.slow
def test_the_command_prints_both_versions_or_one_line(monkeypatch, copy_of_this_checkout, tmp_path):
    monkeypatch.setattr(cli.out, "_width", 80)      # a plain terminal's width
    done = CliRunner().invoke(app, ["bench", "five-alive", "--games", "300", "--against",
                                    str(copy_of_this_checkout), "--rounds", "1"])
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    assert max(map(len, lines)) <= 80 and "ratio by round" in done.output, done.output
    for measure in ("simulate (with frame)", "simulate, warm memory", "kernel alone",
                    "kernel, warm memory"):                                          # unwrapped
        assert sum(line.startswith(f"│ {measure} ") for line in lines) == 1, (measure, done.output)
    assert "CPU ns per turn, medians; five-alive" in " ".join(lines)
    assert str(copy_of_this_checkout / "simcards" / "__init__.py") in done.output
    missing = tmp_path / "nowhere"
    done = CliRunner().invoke(app, ["bench", "five-alive", "--against", str(missing)])
    assert done.exit_code == 2
    assert done.output.strip().splitlines() == [
        f"error: --against {str(missing)!r} is not a simcards checkout (no simcards/__init__.py): "
        "give the root of one, such as a `git worktree add` of a release"]
