"""A tiny experiment end to end through the CLI: every file, the HTML page's images, the numbers."""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

import simcards
from simcards.errors import SimcardsError
from simcards.report.results import analyse
from simcards.report.experiment import load_experiment, parse_experiment
from simcards.report.run import play
from simcards.stats import share_interval

from .conftest import TINY, write


class _Images(HTMLParser):
    def __init__(self):
        super().__init__()
        self.sources: list[str] = []
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "img":
            self.sources.append(attrs["src"])
        if tag in ("link", "script") and (attrs.get("href") or attrs.get("src")):
            self.links.append(attrs.get("href") or attrs.get("src"))


def test_every_file_is_written(tiny_report):
    _, out, result = tiny_report
    names = {p.name for p in out.iterdir()}
    assert {"index.html", "report.md", "results.parquet", "config.json", "summary.json"} <= names
    expected_png = {"strategy_win_rates.png", "seat_advantage.png", "pairwise_differences.png", "rating.png",
                    "head_to_head.png", "card_balance.png", "length_rounds.png", "length_turns.png",
                    "seat_edges.png", "sweep_effects.png", "game_time.png"}
    assert expected_png == {n for n in names if n.endswith(".png")}
    assert "index.html" in result.output


def test_html_references_only_images_that_exist(tiny_report):
    _, out, _ = tiny_report
    page = _Images()
    page.feed((out / "index.html").read_text())
    assert len(page.sources) == len({p for p in out.glob("*.png")})
    for src in page.sources:
        assert "/" not in src and (out / src).is_file() and (out / src).read_bytes()[:4] == b"\x89PNG"
    assert page.links == []   # no outside style sheet or script: the page stands alone
    markdown = (out / "report.md").read_text()
    assert set(re.findall(r"!\[[^\]]*\]\(([^)]+)\)", markdown)) == set(page.sources)


def test_config_resolves_everything(tiny_report):
    exp_path, out, _ = tiny_report
    config = json.loads((out / "config.json").read_text())
    exp = load_experiment(exp_path)
    assert config["simcards_version"] == simcards.__version__
    assert config["experiment"]["rules"] == exp.resolved_rules
    assert config["experiment"]["rules"]["lives"] == 4
    assert config["experiment_source"] == TINY
    assert config["games_per_lineup"] == {str(c.id): 150 for c in exp.cells}
    assert config["total_games"] == 150 * sum(len(c.lineups) for c in exp.cells)
    timings = config["timings_s"]
    # play split into the parts this report played (no information ceiling here): they add up to the play
    parts = {"verdict games", "skill index", "elimination replays"}
    assert set(timings) == {"compile", "play", "analysis", "plots"} | parts
    assert sum(timings.get(k, 0.0) for k in parts) <= timings["play"] + 0.01
    assert [l["seats"] for l in config["lineups"]] == [list(x) for c in exp.cells for x in c.lineups]


def test_results_hold_every_game_and_match_simulate(tiny_report):
    exp_path, out, _ = tiny_report
    frame = pd.read_parquet(out / "results.parquet")
    group = pq.ParquetFile(out / "results.parquet").metadata.row_group(0)
    game = next(group.column(i) for i in range(group.num_columns)
                if group.column(i).path_in_schema == "game")
    assert game.compression == "ZSTD" and "DELTA_BINARY_PACKED" in game.encodings   # as every frame
    exp = load_experiment(exp_path)
    assert len(frame) == sum(150 * len(c.lineups) * c.players for c in exp.cells)
    # one line-up's rows are exactly simcards.simulate's games 0..149 (same seed, same deals)
    cell = exp.cells[1]
    lineup_id = len(exp.cells[0].lineups) + 1
    mine = frame[frame["lineup"] == lineup_id].reset_index(drop=True)
    direct = simcards.simulate("five-alive", list(cell.lineups[1]), 150, seed=11, rules={"lives": 4})
    for col in ("game", "seat", "win_share", "rank", "lives", "dealt_mask", "turns", "rounds"):
        assert np.array_equal(mine[col].to_numpy(), direct[col].to_numpy()), col
    assert list(mine["strategy"].astype(str)) == list(direct["strategy"].astype(str))
    # the report's seat win rates of a mirror line-up are the means over its deals with the
    # boundary-safe share interval (simcards.stats.share_interval)
    mirror = frame[frame["lineup"] == 0]
    report_md = (out / "report.md").read_text()
    for seat, shares in mirror.groupby("seat")["win_share"]:
        x = shares.to_numpy(float)
        low, high = share_interval(x.mean(), x.std(ddof=1) / np.sqrt(len(x)), len(x))
        assert (f"| 2 | {seat} | 150 | 0.500 | {x.mean():.3f} ({float(low):.3f} to {float(high):.3f})"
                in report_md)


def test_common_deals_across_lineups(tiny_report):
    """Every line-up of a cell starts from the same deal: the first hands (dealt masks) agree."""
    exp_path, out, _ = tiny_report
    frame = pd.read_parquet(out / "results.parquet")
    cell0 = frame[frame["cell"] == 0]
    masks = cell0.pivot_table(index=["game", "seat"], columns="lineup", values="dealt_mask")
    assert masks.shape[1] == 3
    assert (masks.nunique(axis=1) == 1).all()


def test_precision_loop_reaches_the_target(tmp_path):
    text = TINY.replace("games = 150", "games = 40\nmax_games = 5000").split("[sweep]")[0]
    text = text.replace("players = [2, 3]", "players = [2]")
    exp = parse_experiment(write(tmp_path, "prec", text), text)
    run = play(exp, precision=0.06, threads=1)
    assert run.precision_met is True
    assert all(n > 40 for n in run.games.values())
    assert len(run.batches) >= 2 and run.batches[1]["first_game"] == 40
    iv = analyse(run.frame, exp, with_rating=False).intervals
    assert len(iv) > 10 and iv["half_width"].max() <= 0.06
    # each batch added new game indices to every line-up of the cell alike
    per_lineup = run.frame[run.frame["seat"] == 0].groupby("lineup")["game"].agg(["min", "max", "count"])
    assert (per_lineup["min"] == 0).all() and (per_lineup["count"] == per_lineup["max"] + 1).all()


def test_precision_cap_is_reported(tmp_path):
    text = TINY.replace("games = 150", "games = 30\nmax_games = 60").split("[sweep]")[0]
    text = text.replace("players = [2, 3]", "players = [2]")
    exp = parse_experiment(write(tmp_path, "cap", text), text)
    run = play(exp, precision=0.001, threads=2)
    assert run.precision_met is False and run.games == {0: 60} and run.worst


def test_same_games_for_any_threads(tmp_path, tiny_report):
    exp_path, out, _ = tiny_report
    exp = load_experiment(exp_path)
    again = play(exp, threads=1).frame
    saved = pd.read_parquet(out / "results.parquet")
    pd.testing.assert_frame_equal(again.reset_index(drop=True), saved, check_dtype=False,
                                  check_categorical=False)


def test_cli_errors_are_one_line(tmp_path, cli_app):
    bad = write(tmp_path, "bad", TINY.replace('"random"]', '"nobody"]'))
    result = CliRunner().invoke(cli_app, ["report", str(bad), "--out-dir", str(tmp_path / "o")])
    assert result.exit_code == 2
    lines = [l for l in result.output.splitlines() if l.strip()]
    assert len(lines) == 1 and "lineups.pool[1]" in lines[0] and "unknown strategy 'nobody'" in lines[0]
    result = CliRunner().invoke(cli_app, ["report", str(tmp_path / "none.toml")])
    assert result.exit_code == 2 and "not found" in result.output
    result = CliRunner().invoke(cli_app, ["report", str(write(tmp_path, "ok", TINY)), "--precision", "0.7"])
    assert result.exit_code == 2 and "bad precision 0.7" in result.output
    assert not (tmp_path / "o").exists()


def test_a_report_resumes_from_its_run_folder(tmp_path, tiny_report, cli_app):
    """Reports play through the runner: their line-ups keep chunks in --run-dir, and a report
    whose runs lost a part (an interruption) finishes with --resume to the same results."""
    from typer.testing import CliRunner
    exp, out, _ = tiny_report
    runs = tmp_path / "runs"
    first = CliRunner().invoke(cli_app, ["report", str(exp), "--out-dir", str(tmp_path / "a"),
                                         "--run-dir", str(runs), "--threads", "1"])
    assert first.exit_code == 0, first.output
    parts = sorted(runs.glob("*/parts/*.parquet"))
    assert len(parts) >= 3
    parts[1].unlink()                                    # as if killed before this chunk landed
    again = CliRunner().invoke(cli_app, ["report", str(exp), "--out-dir", str(tmp_path / "b"),
                                         "--run-dir", str(runs)])
    assert again.exit_code == 2 and "--resume" in again.output
    resumed = CliRunner().invoke(cli_app, ["report", str(exp), "--out-dir", str(tmp_path / "b"),
                                           "--run-dir", str(runs), "--resume"])
    assert resumed.exit_code == 0, resumed.output
    a = pd.read_parquet(tmp_path / "a" / "results.parquet")
    b = pd.read_parquet(tmp_path / "b" / "results.parquet")
    pd.testing.assert_frame_equal(a, b)
    pd.testing.assert_frame_equal(a, pd.read_parquet(out / "results.parquet"))


def test_line_ups_may_set_strategy_parameters(tmp_path):
    """A pool, mirror, explicit line-up or skill player may name a strategy with run-time
    parameters (a tournament plays search at a smaller budget); a bad key or value is one
    line naming the place, the value and what is accepted."""
    text = TINY.replace('pool = ["high_first", "random"]',
                        'pool = ["high_first", "search:budget=30", "expert:danger=3"]')
    exp = parse_experiment(write(tmp_path, "params", text), text)
    assert exp.pool == ("high_first", "search:budget=30", "expert:danger=3")
    for bad, where, what in [("search:budget=0", "lineups.pool[1]", "budget"),
                             ("search:depth=3", "lineups.pool[1]", "unknown parameter 'depth'"),
                             ("search:budget", "lineups.pool[1]", "name:key=value")]:
        text = TINY.replace('pool = ["high_first", "random"]', f'pool = ["high_first", "{bad}"]')
        with pytest.raises(SimcardsError) as exc:
            parse_experiment(write(tmp_path, "bad", text), text)
        assert where in str(exc.value) and what in str(exc.value), str(exc.value)
    text = TINY.replace('skill = "high_first"', 'skill = "expert:nonsense=1"')
    with pytest.raises(SimcardsError, match="skill"):
        parse_experiment(write(tmp_path, "bad", text), text)


def test_auto_mirrors_take_the_strongest_heuristic_of_the_last_tournament(tmp_path):
    """``mirror = "auto"`` reads the tournament's ratings beside the experiments folder and
    takes the strongest strategy that does not search (a search mirror would cost hours),
    plus random; without a tournament, the game's bench strategy."""
    text = TINY.replace('mirror = ["high_first"]', 'mirror = "auto"')
    (tmp_path / "experiments").mkdir()
    path = write(tmp_path / "experiments", "auto", text)
    exp = parse_experiment(path, text)
    assert exp.mirror == ("high_first", "random") and "no tournament" in exp.mirror_note
    ratings = [("search:budget=100", 1.2), ("search", 1.5), ("keep_zero", 0.4), ("expert:danger=3", 0.6),
               ("random", -1.0)]
    folder = tmp_path / "reports" / "five_alive_tournament"
    folder.mkdir(parents=True)
    (folder / "summary.json").write_text(json.dumps({"records": [
        {"kind": "rating", "name": n, "estimate": e} for n, e in ratings]}))
    exp = parse_experiment(path, text)
    assert exp.mirror == ("expert:danger=3", "random") and "strongest heuristic" in exp.mirror_note


def test_the_page_says_when_players_go_out(tiny_report):
    # Five Alive puts players out one by one: the report replays its first deals and times it
    _, out, _ = tiny_report
    html = (out / "index.html").read_text(encoding="utf-8")
    assert 'id="elimination"' in html and "When do players go out?" in html
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    records = summary["records"] if isinstance(summary, dict) else summary
    outs = [r for r in records if r["kind"] == "elimination"]
    config = json.loads((out / "config.json").read_text(encoding="utf-8"))
    for n in (2, 3):
        places = sorted(r["name"] for r in outs if r["players"] == n)
        # standard rules: every player but the winner goes out, the last on the game's last turn
        assert len(places) == n - 1
        last = [r for r in outs if r["players"] == n and r["name"].startswith(f"{'1st' if n == 2 else '2nd'}")][0]
        assert last["estimate"] == last["game_median_turns"]
        assert last["p10"] <= last["estimate"] <= last["p90"] and last["low"] <= last["estimate"] <= last["high"]
    assert config["timings_s"]["elimination replays"] > 0
