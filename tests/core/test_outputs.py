"""Outputs: checked before any game, replaced only with --force, written under a temporary name."""
from __future__ import annotations

import json

import pandas as pd
import pytest
from typer.testing import CliRunner

from simcards import outputs
from simcards.run import run_folder
from simcards.cli import app
from simcards.errors import SimcardsError


def run(*args):
    return CliRunner().invoke(app, list(args))


def test_atomic_leaves_nothing_under_the_real_name_when_writing_fails(tmp_path):
    target = tmp_path / "r.csv"
    with pytest.raises(RuntimeError):
        with outputs.atomic(target) as tmp:
            tmp.write_text("half")
            raise RuntimeError("interrupted")
    assert list(tmp_path.iterdir()) == []


def test_atomic_keeps_the_suffix_and_renames_into_place(tmp_path):
    target = tmp_path / "r.parquet"
    with outputs.atomic(target) as tmp:
        assert tmp.suffix == ".parquet" and tmp.parent == tmp_path and tmp.name.startswith(".")
        tmp.write_text("whole")
    assert [p.name for p in tmp_path.iterdir()] == ["r.parquet"] and target.read_text() == "whole"


def test_run_out_refuses_an_existing_file_and_replaces_it_with_force(tmp_path):
    out = tmp_path / "r.csv"
    out.write_text("mine")
    refused = run("run", "five-alive", "--players", "2", "--games", "30", "--out", str(out))
    assert refused.exit_code == 2 and out.read_text() == "mine"
    forced = run("run", "five-alive", "--players", "2", "--games", "30", "--out", str(out), "--force")
    assert forced.exit_code == 0, forced.output
    assert len(pd.read_csv(out)) == 60
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.csv"]   # no temporary file left


def test_run_out_in_a_new_folder_is_created(tmp_path):
    out = tmp_path / "new" / "deeper" / "r.parquet"
    result = run("run", "five-alive", "--players", "2", "--games", "30", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert len(pd.read_parquet(out)) == 60


def test_every_parquet_file_a_run_writes_is_zstd_with_the_game_index_as_deltas(tmp_path):
    import pyarrow.parquet as pq
    out, folder = tmp_path / "r.parquet", tmp_path / "big"
    result = run("run", "five-alive", "--players", "2", "--games", "40", "--chunk-size", "20",
                 "--run-dir", str(folder), "--out", str(out))
    assert result.exit_code == 0, result.output
    written = [out, *sorted((folder / "parts").glob("*.parquet"))]
    assert len(written) == 3                   # --out and the run folder's two parts
    for path in written:
        group = pq.ParquetFile(path).metadata.row_group(0)
        game = next(group.column(i) for i in range(group.num_columns)
                    if group.column(i).path_in_schema == "game")
        assert game.compression == "ZSTD" and "DELTA_BINARY_PACKED" in game.encodings, path
    assert pd.read_parquet(out)["game"].tolist() == [g for g in range(40) for _ in range(2)]


def test_run_dir_force_removes_only_the_runs_files(tmp_path):
    folder = tmp_path / "big"
    args = ["run", "five-alive", "--players", "2", "--games", "40", "--chunk-size", "10",
            "--run-dir", str(folder)]
    assert run(*args).exit_code == 0
    (folder / "notes.txt").write_text("mine")
    (folder / "parts" / "keep.parquet").write_text("mine")
    again = run(*args)
    assert again.exit_code == 2 and "--resume" in again.output
    forced = run(*args[:-4], "--chunk-size", "20", "--run-dir", str(folder), "--force")
    assert forced.exit_code == 0, forced.output
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["run"]["chunk_size"] == 20
    parts = sorted(p.name for p in (folder / "parts").iterdir())
    assert parts == ["chunk-000000.done", "chunk-000000.parquet", "chunk-000001.done", "chunk-000001.parquet",
                     "keep.parquet"]      # each part with its record (simcards.run_folder)
    assert (folder / "notes.txt").read_text() == "mine"


def test_clear_run_folder_refuses_a_foreign_manifest(tmp_path):
    (tmp_path / "manifest.json").write_text('{"something": "else"}')
    with pytest.raises(SimcardsError, match="not a simcards manifest"):
        run_folder.clear_run_folder(tmp_path)
    assert (tmp_path / "manifest.json").exists()


def test_finish_output_folder_removes_only_listed_stale_files(tmp_path):
    for name in ("a.png", "b.png", "theirs.png"):
        (tmp_path / name).write_text(name)
    outputs.finish_output_folder(tmp_path, ["a.png", "b.png"])
    (tmp_path / "a.png").write_text("again")
    removed = outputs.finish_output_folder(tmp_path, ["a.png"])
    assert removed == ["b.png"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [".simcards-written.json", "a.png", "theirs.png"]


def test_an_edited_list_cannot_reach_outside_the_folder(tmp_path):
    folder = tmp_path / "report"
    folder.mkdir()
    (tmp_path / "precious.txt").write_text("mine")
    (folder / outputs.WRITTEN).write_text(json.dumps({"files": ["../precious.txt", "/etc/passwd"]}))
    assert outputs.written_files(folder) == set()
    outputs.finish_output_folder(folder, [])
    assert (tmp_path / "precious.txt").exists()
