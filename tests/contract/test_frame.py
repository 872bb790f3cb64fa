"""The frame (simcards.frame): every column in the narrowest type that holds the bounds the game
declares, values equal to the kernel's int64 records, columns wrapped without a copy, and a
memory per row that is the sum of the column types."""
from __future__ import annotations

import types

import numpy as np
import pandas as pd
import pytest

import simcards
import simcards.run.chunk     # where a chunk is played, a slice of records at a time (simcards.runner before)
from simcards.batch import run_range, to_frame
from simcards.errors import ContractError
from simcards.frame import FrameBuilder, _narrow, row_bytes, write_parquet
from simcards.registry import UNFINISHED

INTS = (np.int8, np.int16, np.int32, np.int64)


def test_frame_values_equal_the_kernel_records(game, kit):
    spec = simcards.get_game(game)
    lineup = kit.lineups(game)[-1]
    n, count, start = len(lineup), 300, 100
    batch = kit.batch_for(game, lineup, 4)
    seat_out, game_out = run_range(batch, start, count)
    frame = to_frame(batch, seat_out, game_out, start)

    def grid(column: str) -> np.ndarray:
        return frame[column].to_numpy().reshape(count, n)

    assert (grid("game") == np.arange(start, start + count)[:, None]).all()
    assert (grid("seat") == np.arange(n)).all()
    assert (frame["strategy"].astype(str).to_numpy().reshape(count, n) == np.array(lineup)).all()
    assert (grid("rank").astype(np.int64) == seat_out[:, :, 1]).all()
    for j, column in enumerate(spec.seat_columns):
        assert (grid(column).astype(np.int64) == seat_out[:, :, 2 + j]).all(), column
    for j, column in enumerate(spec.game_columns):
        assert (grid(column).astype(np.int64) == game_out[:, j, None]).all(), column
    wins = seat_out[:, :, 0]
    winners = wins.sum(axis=1, keepdims=True)
    assert (grid("win_share") == np.where(winners > 0, wins / np.maximum(winners, 1), 0.0)).all()


def test_every_column_has_the_narrowest_type_its_bounds_allow(game, kit, shared):
    spec = simcards.get_game(game)
    lineup = kit.lineups(game)[0]
    frame = shared.simulate(game, lineup, 50, seed=1)
    assert frame["game"].dtype == np.int64 and frame["win_share"].dtype == np.float64
    assert frame["seat"].dtype == np.int8 and frame["rank"].dtype == np.int8
    assert frame[UNFINISHED].dtype == bool
    assert isinstance(frame["strategy"].dtype, pd.CategoricalDtype)
    assert frame["strategy"].cat.codes.dtype == np.int8
    bounds = spec.column_bounds(spec.resolve_rules({}), len(lineup))
    for column, (lo, hi) in bounds.items():
        kind = frame[column].dtype.type
        assert np.iinfo(kind).min <= lo and hi <= np.iinfo(kind).max, column       # it holds them
        narrower = INTS[:INTS.index(kind)]
        assert not any(np.iinfo(t).min <= lo and hi <= np.iinfo(t).max for t in narrower), column


def test_rules_widen_a_column_only_when_its_bounds_grow():
    lineup = ["random"] * 4
    short = simcards.simulate("five-alive", lineup, 5, seed=1)
    long = simcards.simulate("five-alive", lineup, 5, seed=1, rules={"turn_cap": 100_000})
    assert short["turns"].dtype == np.int16 and long["turns"].dtype == np.int32
    assert long["lives"].dtype == np.int8


def test_every_rule_variant_stays_within_the_declared_bounds(game, kit):
    """Each option's other values, at the player counts at both ends: a value outside the
    bounds would raise ContractError while the frame is built."""
    for label, rules in kit.rule_variants(game):
        for lineup in (kit.lineups(game, 1)[0], kit.lineups(game, 1)[-1]):
            if not kit.usable(game, lineup, rules):
                continue
            batch = kit.batch_for(game, lineup, 3, rules)
            frame = to_frame(batch, *run_range(batch, 0, 40))
            assert len(frame) == 40 * len(lineup), label


@pytest.mark.parametrize("width", [3, 1], ids=["seat records", "game records"])
def test_one_pass_narrows_a_types_columns_and_checks_both_ends_of_each(width):
    """``_narrow`` writes each column of a type into its rows of the block (a game record onto
    every seat), from the first row it is given, over several blocks of games, and finds a
    value one past either end of any one column's bounds, with the widest bounds as well (its
    comparison is unsigned: it must wrap)."""
    rng = np.random.default_rng(3)
    count, n, first = 700, 3, 30            # games: more than one block; rows before them
    records = rng.integers(-90, 90, (count, width, 5))
    picks = np.array([4, 0, 2])
    least, most = records[:, :, picks].min(axis=(0, 1)), records[:, :, picks].max(axis=(0, 1))
    block = np.zeros((len(picks), first + count * n + 9), np.int8)
    assert not _narrow(records, picks, block, first, n, least, most)
    for row, c in zip(block, picks):
        assert (row[first:first + count * n].reshape(count, n) == np.broadcast_to(records[:, :, c], (count, n))).all()
        assert not row[:first].any() and not row[first + count * n:].any()
    for k in range(len(picks)):
        tight_lo = least.copy()
        tight_lo[k] += 1
        tight_hi = most.copy()
        tight_hi[k] -= 1
        assert _narrow(records, picks, block, first, n, tight_lo, most), k
        assert _narrow(records, picks, block, first, n, least, tight_hi), k
    wide = np.empty((len(picks), count * n), np.int64)
    full = np.iinfo(np.int64)
    records[5, 0, 4], records[6, 0, 0] = full.min, full.max
    assert not _narrow(records, picks, wide, 0, n, np.full(3, full.min), np.full(3, full.max))
    assert _narrow(records, picks, wide, 0, n, np.full(3, full.min + 1), np.full(3, full.max))
    assert _narrow(records, picks, wide, 0, n, np.full(3, full.min), np.full(3, full.max - 1))


def test_a_value_outside_its_bounds_raises_instead_of_wrapping(game, kit):
    spec = simcards.get_game(game)
    lineup = kit.lineups(game)[0]
    batch = kit.batch_for(game, lineup, 2)
    seat_out, game_out = run_range(batch, 0, 20)
    step = spec.game_columns.index(spec.step_column)
    longest = int(game_out[:, step].max())
    narrow = types.SimpleNamespace(
        name=spec.name, seat_columns=spec.seat_columns, game_columns=spec.game_columns,
        column_bounds=lambda rules, n: {**spec.column_bounds(rules, n), spec.step_column: (0, longest - 1)})
    builder = FrameBuilder(narrow, batch.rules, len(lineup), batch.names, 20)
    with pytest.raises(ContractError, match=f"{spec.step_column}.*{longest}"):
        builder.put(0, seat_out, game_out, 0, builder.codes(lineup))


def test_the_frame_wraps_its_columns_without_a_copy(game, kit):
    lineup = kit.lineups(game)[0]
    batch = kit.batch_for(game, lineup, 5)
    builder = FrameBuilder(batch.spec, batch.rules, len(lineup), batch.names, 30)
    builder.put(0, *run_range(batch, 0, 30), 0, builder.codes(lineup))
    frame = builder.frame({})
    for column in frame.columns:
        values = frame[column].array.codes if column == "strategy" else frame[column].to_numpy()
        assert np.shares_memory(values, builder.columns[column]), column


def test_a_frame_is_refused_before_every_game_is_written(game, kit):
    lineup = kit.lineups(game)[0]
    batch = kit.batch_for(game, lineup, 5)
    builder = FrameBuilder(batch.spec, batch.rules, len(lineup), batch.names, 30)
    builder.put(0, *run_range(batch, 0, 20), 0, builder.codes(lineup))
    with pytest.raises(RuntimeError, match="20 of its 30 games"):
        builder.frame({})


def test_memory_per_row_is_the_sum_of_the_column_types(game, kit, shared):
    """A row costs what its types say and no more; at four players (or the most the game
    allows) 10**6 games stay under 300 MB, the issue's target."""
    spec = simcards.get_game(game)
    n = min(4, spec.max_players)
    lineup = [kit.all_strategies(game)[0]] * n
    frame = shared.simulate(game, lineup, 2_000, seed=1)
    per_row = frame.memory_usage(deep=True, index=False).sum() / len(frame)
    assert per_row <= row_bytes(spec, spec.resolve_rules({}), n) + 1      # + the category names
    assert per_row * n * 10**6 < 300e6


def test_a_rotated_frame_holds_each_seat_order_as_played_alone(game, kit, shared, monkeypatch):
    spec = simcards.get_game(game)
    lineup = kit.lineups(game)[0][:2]
    if len(lineup) < spec.min_players or len(set(lineup)) < 2:
        lineup = kit.all_strategies(game)[:spec.min_players]
    # the chunks' records handed to the frame 3 games at a time (the last of each chunk 1)
    monkeypatch.setattr(simcards.run.chunk, "RECORDS_SLICE", 3)
    frame = shared.simulate(game, lineup, 60, seed=7, rotate=True, start=11, threads=2, chunk_size=7)
    monkeypatch.undo()
    plain = shared.simulate(game, lineup, 30, seed=7, start=11)
    assert list(frame.columns) == ["order"] + list(plain.columns)
    assert frame["order"].dtype == np.int8
    # (the plain frame's strategy categories are the shared kernel's whole pool)
    assert (frame.dtypes.drop(["order", "strategy"]) == plain.dtypes.drop("strategy")).all()
    assert list(frame["strategy"].cat.categories) == sorted(set(lineup))
    for k, seating in enumerate(frame.attrs["seatings"]):
        alone = shared.simulate(game, seating, frame.attrs["deals"], seed=7, start=11)
        rows = frame[frame["order"] == k].drop(columns="order").reset_index(drop=True)
        pd.testing.assert_frame_equal(rows, alone, check_categorical=False)


def test_a_remembered_layout_is_the_rules_own_and_the_callers_to_change(game):
    """``column_bounds`` and ``frame_dtypes`` are remembered by their arguments: another player
    count gets its own layout, a caller's change to the dict it got does not reach the next caller, and
    rules holding an unhashable value are still answered."""
    from simcards.frame import column_bounds, frame_dtypes
    spec = simcards.get_game(game)
    rules = spec.resolve_rules({})
    first = column_bounds(spec, rules, spec.min_players)
    first.clear()
    assert column_bounds(spec, rules, spec.min_players) == column_bounds(spec, dict(rules), spec.min_players) != {}
    dtypes = frame_dtypes(spec, rules, spec.min_players, 3)
    dtypes["game"] = None
    assert frame_dtypes(spec, rules, spec.min_players, 3)["game"] == np.dtype(np.int64)
    assert frame_dtypes(spec, rules, spec.min_players, 3, True) != frame_dtypes(spec, rules, spec.min_players, 3)
    assert column_bounds(spec, rules, spec.max_players)["rank"] == (1, spec.max_players)
    unhashable = {**rules, "note": ["not", "a", "rule"]}
    assert column_bounds(spec, unhashable, spec.min_players) == column_bounds(spec, rules, spec.min_players)


def _parquet_layout(path) -> dict[str, tuple[str, set[str]]]:
    """Each column's (compression, encodings) in a Parquet file's first row group."""
    import pyarrow.parquet as pq
    group = pq.ParquetFile(path).metadata.row_group(0)
    return {group.column(i).path_in_schema: (group.column(i).compression, set(group.column(i).encodings))
            for i in range(group.num_columns)}


def test_a_frame_written_to_parquet_reads_back_the_same_with_the_game_index_as_deltas(
        game, kit, tmp_path):
    lineup = kit.lineups(game)[-1]
    batch = kit.batch_for(game, lineup, 4)
    seat_out, game_out = run_range(batch, 100, 300)
    frame = to_frame(batch, seat_out, game_out, 100)
    path = tmp_path / "frame.parquet"
    write_parquet(frame, path)
    pd.testing.assert_frame_equal(pd.read_parquet(path), frame)
    layout = _parquet_layout(path)
    assert set(layout) == set(frame.columns)
    assert {compression for compression, _ in layout.values()} == {"ZSTD"}
    assert "DELTA_BINARY_PACKED" in layout["game"][1]
    # the other columns keep Parquet's dictionary (a game-level column: runs of one code),
    # but for booleans, which Parquet packs a bit a row
    assert all("RLE_DICTIONARY" in encodings for name, (_, encodings) in layout.items()
               if name != "game" and frame[name].dtype != bool)
