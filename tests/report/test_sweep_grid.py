"""Two rule options swept as a grid: cells, paired effects against the defaults, BH, the heatmap."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
import scipy.stats
from statsmodels.stats.multitest import multipletests

from simcards.report.analysis import lineup_offsets
from simcards.report.results import analyse
from simcards.report.experiment import load_experiment
from simcards.report.run import play, write_report

from .conftest import TINY, write

#: conftest's tiny experiment (lives = 4 in its rules) with lives x hand_size swept at 2 players
GRID = (TINY.replace("games = 150", "games = 60").replace("values = [3, 5]", "values = [3, 4]")
        .replace("players = [3]\n", 'players = [2]\ngrid_option = "hand_size"\ngrid_values = [8, 10, 12]\n'))


def test_grid_cells(tmp_path):
    """Every pair of values is a cell; the pair of defaults is the main cell where there is one,
    else a baseline cell is played."""
    exp = load_experiment(write(tmp_path, "grid", GRID.replace("players = [2]\n", "players = [2, 4]\n")))
    assert exp.sweep_base == (4, 10)
    sweep = [(c.players, c.sweep_value) for c in exp.cells if c.part == "sweep"]
    assert sweep == [(2, (3, 8)), (4, (3, 8)), (2, (3, 10)), (4, (3, 10)), (2, (3, 12)), (4, (3, 12)),
                     (2, (4, 8)), (4, (4, 8)), (4, (4, 10)), (2, (4, 12)), (4, (4, 12))]
    by_value = {(c.players, c.sweep_value): c for c in exp.cells}
    assert by_value[(2, (3, 12))].rules["lives"] == 3 and by_value[(2, (3, 12))].rules["hand_size"] == 12
    assert exp.sweep_label((3, 12)) == "lives=3, hand_size=12"
    assert exp.to_dict()["sweep"]["grid_option"] == "hand_size"


@pytest.mark.parametrize("extra,key,accepted", [
    ('grid_option = "lives"\ngrid_values = [1, 2]\n', "'sweep.grid_option'", "a second rule option"),
    ('grid_option = "handsize"\ngrid_values = [1, 2]\n', "'sweep.grid_option'", "hand_size"),
    ('grid_option = "hand_size"\n', "'sweep.grid_values'", "at least 2 values"),
    ('grid_values = [8, 10]\n', "'sweep.grid_option'", "a second rule option"),
    ('grid_option = "hand_size"\ngrid_values = [8, "x"]\n', "'sweep.grid_values[1]'", "an integer 1..40"),
    ('grid_option = "hand_size"\ngrid_values = [8, 40]\n', "'sweep (lives=3, hand_size=40)'", "rules playable"),
])
def test_grid_errors(tmp_path, extra, key, accepted):
    from simcards.errors import SimcardsError
    text = GRID.split("grid_option")[0] + extra
    with pytest.raises(SimcardsError) as exc:
        load_experiment(write(tmp_path, "bad", text))
    assert key in str(exc.value) and accepted in str(exc.value), str(exc.value)


@pytest.fixture(scope="module")
def grid_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("grid")
    exp = load_experiment(write(folder, "grid", GRID))
    run = play(exp, threads=1)
    return run, analyse(run.frame, exp), folder


def test_grid_effect_is_the_paired_difference_by_hand(grid_run):
    """lives=3, hand_size=8 at 2 players against the main cell (4, 10): per deal, seat 0's win share
    under the mirror line-up and the mean number of turns, differenced on the same deals."""
    run, res, _ = grid_run
    exp, frame = run.exp, run.frame
    cell = next(c for c in exp.cells if c.sweep_value == (3, 8))
    main = next(c for c in exp.cells if c.part == "main" and c.players == 2)
    offsets = lineup_offsets(exp)

    def per_deal(c, column, seat0_mirror):
        rows = frame[frame["cell"] == c.id]
        if seat0_mirror:
            mirror = offsets[c.id] + c.lineups.index(("high_first", "high_first"))
            rows = rows[(rows["lineup"] == mirror) & (rows["seat"] == 0)]
        else:
            rows = rows[rows["seat"] == 0]
        return rows.groupby("game")[column].mean()

    for measure, column, seat0, scale in (("seat 0 (high_first)", "win_share", True, 100),
                                          ("mean turns", "turns", False, 1)):
        d = (per_deal(cell, column, seat0) - per_deal(main, column, seat0)).to_numpy(float)
        assert len(d) == exp.games
        row = res.sweep[(res.sweep["cell"] == cell.id) & (res.sweep["measure"] == measure)].iloc[0]
        assert (row["value"], row["value2"]) == (3, 8)
        assert row["effect"] == pytest.approx(scale * d.mean())
        if column == "turns":               # a length: the paired t-test
            test = scipy.stats.ttest_1samp(d, 0.0)
            ci = test.confidence_interval(0.95)
            low, high, p = ci.low, ci.high, test.pvalue
        else:                               # a difference of win shares: its share interval and test
            from simcards.stats import share_interval, share_pvalue
            se = d.std(ddof=1) / np.sqrt(len(d))
            low, high = share_interval(d.mean(), se, len(d), lower=-1.0, upper=1.0)
            p = share_pvalue(d.mean(), se, len(d), 0.0, lower=-1.0, upper=1.0)
        assert (row["ci_low"], row["ci_high"]) == pytest.approx((scale * low, scale * high))
        assert row["p_value"] == pytest.approx(float(p))


def test_grid_uses_benjamini_hochberg_and_no_default_cell(grid_run):
    run, res, _ = grid_run
    eff = res.sweep
    assert set(zip(eff["value"], eff["value2"])) == {(3, 8), (3, 10), (3, 12), (4, 8), (4, 12)}
    reject, adjusted, _, _ = multipletests(eff["p_value"], alpha=0.05, method="fdr_bh")
    assert eff["p_adjusted"].to_numpy() == pytest.approx(adjusted)
    assert list(eff["significant"]) == list(reject)
    assert eff.loc[eff["measure"] == "mean turns", "significant"].any()   # fewer lives: shorter games


def test_grid_report_has_the_heatmap(grid_run):
    run, _, folder = grid_run
    out = folder / "out"
    write_report(run, out)
    names = {p.name for p in out.iterdir()}
    assert "sweep_grid.png" in names and "sweep_effects.png" not in names
    page = (out / "index.html").read_text()
    assert 'src="sweep_grid.png"' in page and "Changing lives and hand_size" in page and "p (BH)" in page
    records = json.loads((out / "summary.json").read_text())["records"]
    sweep = [r for r in records if r["kind"] == "sweep"]
    assert {r["name"] for r in sweep} >= {"lives=3, hand_size=8: mean turns", "lives=4, hand_size=12: high_first"}
    assert all(r["method"].endswith("Benjamini-Hochberg") for r in sweep)
    table = pd.read_parquet(out / "results.parquet")
    assert np.array_equal(np.sort(table["cell"].unique()), np.arange(len(run.exp.cells)))
