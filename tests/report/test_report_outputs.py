"""A report folder that holds files is refused before any game; --force replaces only what simcards wrote."""
from __future__ import annotations

import json

from typer.testing import CliRunner

from simcards.outputs import sha256

from .conftest import TINY, write


def test_report_folder_refused_then_replaced_with_force(tmp_path, cli_app):
    exp = write(tmp_path, "tiny", TINY)
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    (out / "holiday.png").write_text("mine")          # a png simcards never wrote
    (out / "old_plot.png").write_text("simcards")       # one it wrote for an older report
    (out / "index.html").write_text("old")
    (out / "edited.png").write_text("edited since")     # one it wrote, edited by the user since
    # the list records each file simcards wrote with its checksum (issue 49): only a file whose
    # content still has it is simcards's to remove
    (out / ".simcards-written.json").write_text(json.dumps({"format": 2, "files": {
        "old_plot.png": sha256(out / "old_plot.png"), "index.html": sha256(out / "index.html"),
        "edited.png": "0" * 64}}))
    before = {p.name: p.read_bytes() for p in out.iterdir()}

    refused = CliRunner().invoke(cli_app, ["report", str(exp), "--out-dir", str(out)])
    assert refused.exit_code == 2 and "--force" in refused.output
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before

    forced = CliRunner().invoke(cli_app, ["report", str(exp), "--out-dir", str(out), "--force"])
    assert forced.exit_code == 0, forced.output
    names = {p.name for p in out.iterdir()}
    assert {"notes.txt", "holiday.png", "index.html", "report.md", "config.json", "edited.png"} <= names
    assert "old_plot.png" not in names
    assert (out / "notes.txt").read_text() == "mine" and (out / "holiday.png").read_text() == "mine"
    listed = set(json.loads((out / ".simcards-written.json").read_text())["files"])
    assert "index.html" in listed and "holiday.png" not in listed and "notes.txt" not in listed
    assert not [n for n in names if ".tmp" in n]
    timings = json.loads((out / "config.json").read_text())["timings_s"]
    assert timings["compile"] >= 0 and "without compiling" in (out / "report.md").read_text()


def test_report_progress_reaches_every_game(tmp_path):
    from simcards.report.experiment import load_experiment
    from simcards.report.run import play
    exp = load_experiment(write(tmp_path, "tiny", TINY))
    seen = []
    run = play(exp, threads=1, progress=lambda done, total, where: seen.append((done, total, where)))
    games = sum(run.games[c.id] * len(c.lineups) for c in exp.cells)
    games += run.skill.groupby(["players", "order", "game"]).ngroups     # the skill index's games
    from simcards.report.elimination import planned_deals
    games += planned_deals(exp)          # Five Alive's deals replayed to time when players go out
    assert planned_deals(exp) > 0 and run.outs is not None
    assert seen[-1][:2] == (games, games)
    assert "elimination replays" in {w for _, _, w in seen}
    assert {w for _, _, w in seen} >= {f"{c.label}, line-up 1/{len(c.lineups)}" for c in exp.cells}


def test_max_minutes_stops_the_precision_batches(tmp_path):
    # a target no first batch meets, and a cap already spent once the first batch is played: no
    # second batch, and the run says the minutes stopped it (not max_games)
    from simcards.report.experiment import load_experiment
    from simcards.report.run import play
    text = TINY.replace("games = 150", "games = 40\nprecision = 0.005\nmax_minutes = 0.0001")
    exp = load_experiment(write(tmp_path, "capped", text))
    run = play(exp, threads=1)
    assert run.precision_met is False and run.precision_stop == "max_minutes"
    assert set(run.games.values()) == {40} and run.worst


def test_the_precision_batches_leave_half_the_minutes_to_a_sequential_verdict(tmp_path):
    # tournaments of search players spent every minute on precision batches, so the verdict's
    # cheap mirror rounds found none left: with a verdict to decide, the batches get half
    from simcards.report.experiment import load_experiment
    from simcards.report.run import PRECISION_SHARE, precision_minutes
    exp = load_experiment(write(tmp_path, "both", TINY.replace("games = 150", "games = 40\nmax_minutes = 4").replace("looks = 1", "looks = 3")))
    assert exp.looks > 1 and precision_minutes(exp) == 4 * PRECISION_SHARE == 2
    single = load_experiment(write(tmp_path, "one_look", TINY.replace("games = 150", "games = 40\nmax_minutes = 4")))
    assert precision_minutes(single) == 4
