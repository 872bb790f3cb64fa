"""``simcards cache``: what the kernel folder holds, and clearing only what simcards made there."""
from __future__ import annotations

import os
import threading

from filelock import FileLock
from typer.testing import CliRunner

from simcards import cache_folder
from simcards.cli import app

KERNEL = "_simcards_kernel_five_alive_0123456789abcdef"
BUILDER = "_simcards_table_five_alive_search_fedcba9876543210"
TABLE = "five_alive-search-00aa11bb22cc33dd"
YARDSTICK = "yardstick_five_alive_44ee55ff66aa77bb"
#: what a user keeps in a folder that SIMCARDS_KERNEL_DIR points at, and simcards' own records
FOREIGN = ("notes.txt", "__pycache__/helper.cpython-311.pyc", "tables/mine.npy", "compile-seconds.json",
           ".yardstick_five_alive_1.tmp")


def _fill(folder):
    """A kernel folder as simcards leaves it (sizes chosen to add up), and files of others."""
    files = {
        KERNEL: [f"{KERNEL}.py", f"{KERNEL}.lock", f"__pycache__/{KERNEL}.play_batch-21.py311.nbi",
                 f"__pycache__/{KERNEL}.play_batch-21.py311.1.nbc",
                 f"__pycache__/{KERNEL}.cpython-311.pyc"],
        BUILDER: [f"{BUILDER}.py", f"{BUILDER}.py.lock", f"__pycache__/{BUILDER}.model_table-12.py311.nbi"],
        TABLE: [f"tables/{TABLE}.npy", f"tables/{TABLE}.npy.lock", f"tables/{TABLE}.npy.sha256"],
        YARDSTICK: [YARDSTICK],
    }
    for i, name in enumerate([f for group in files.values() for f in group] + list(FOREIGN)):
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"x" * (100 + i))
    return files


def test_items_group_each_kernel_table_and_yardstick_with_all_its_files(tmp_path):
    files = _fill(tmp_path)
    found = {item.name: item for item in cache_folder.items(tmp_path)}
    assert set(found) == set(files)
    assert [found[n].kind for n in (KERNEL, BUILDER, TABLE, YARDSTICK)] == [
        "kernels", "table builders", "tables", "C yardsticks"]
    for name, names in files.items():
        assert {f.relative_to(tmp_path).as_posix() for f in found[name].files} == set(names)
        assert found[name].size == sum((tmp_path / n).stat().st_size for n in names)
    assert found[KERNEL].lock == tmp_path / f"{KERNEL}.lock"
    assert found[YARDSTICK].lock is None


def test_clear_removes_what_simcards_made_and_keeps_everything_else(tmp_path):
    files = _fill(tmp_path)
    size = sum((tmp_path / n).stat().st_size for names in files.values() for n in names)
    done = cache_folder.clear(tmp_path)
    assert (done.removed, done.freed, done.busy) == (4, size, ())
    assert cache_folder.items(tmp_path) == []
    assert all((tmp_path / f).exists() for f in FOREIGN)
    assert cache_folder.clear(tmp_path).removed == 0


def test_clear_leaves_an_item_another_process_is_building(tmp_path):
    files = _fill(tmp_path)
    held, release = threading.Event(), threading.Event()

    def build():      # another builder holds the kernel's lock (its own thread: a lock is per holder)
        with FileLock(str(tmp_path / f"{KERNEL}.lock")):
            held.set()
            release.wait(30)

    builder = threading.Thread(target=build)
    builder.start()
    try:
        assert held.wait(30)
        done = cache_folder.clear(tmp_path)
    finally:
        release.set()
        builder.join()
    assert done.busy == (KERNEL,) and done.removed == 3
    assert all((tmp_path / f).exists() for f in files[KERNEL])
    assert [item.name for item in cache_folder.items(tmp_path)] == [KERNEL]


def test_the_command_shows_the_folder_and_clears_it(tmp_path, monkeypatch):
    monkeypatch.setenv("SIMCARDS_KERNEL_DIR", str(tmp_path))
    _fill(tmp_path)
    runner = CliRunner()
    shown = runner.invoke(app, ["cache"], terminal_width=200)
    assert shown.exit_code == 0, shown.output
    lines = {line.split("│")[1].strip(): line for line in shown.output.splitlines() if line.count("│") == 4}
    assert set(lines) == {"kernels", "table builders", "tables", "C yardsticks"}
    assert all(" 1 " in line for line in lines.values())
    assert "simcards cache --clear" in shown.output
    cleared = runner.invoke(app, ["cache", "--clear"], terminal_width=200)
    assert cleared.exit_code == 0 and "removed 4 items" in cleared.output
    assert cache_folder.items(tmp_path) == []
    assert "simcards cache --clear" not in runner.invoke(app, ["cache"]).output


def test_a_file_that_cannot_be_removed_is_one_line_and_exit_2(tmp_path, monkeypatch):
    monkeypatch.setenv("SIMCARDS_KERNEL_DIR", str(tmp_path))
    _fill(tmp_path)

    def refuse(path, *args, **kwargs):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(cache_folder.os, "unlink", refuse)
    done = CliRunner().invoke(app, ["cache", "--clear"])
    assert done.exit_code == 2
    assert done.output.count("\n") == 1 and "cannot remove" in done.output and "Permission denied" in done.output


def test_a_kernel_folder_that_cannot_be_one_is_one_line_and_exit_2(tmp_path, monkeypatch):
    """$SIMCARDS_KERNEL_DIR naming a file: a run (a fresh process, where no kernel is loaded yet)
    and the cache command each say so in one line, exit 2, and leave the file as it was."""
    import subprocess
    import sys
    bad = tmp_path / "a_file"
    bad.write_text("mine")
    env = dict(os.environ, SIMCARDS_KERNEL_DIR=str(bad / "kernels"))
    done = subprocess.run([sys.executable, "-m", "simcards", "run", "five-alive", "--games", "5"],
                          env=env, capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == ""
    # one line of text (once, under the lowest releases in CI, a blank line came before it)
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and f"bad kernel folder '{bad / 'kernels'}'" in lines[0], done.stderr
    monkeypatch.setenv("SIMCARDS_KERNEL_DIR", str(bad))
    shown = CliRunner().invoke(app, ["cache", "--clear"])
    assert shown.exit_code == 2 and "a file is there" in shown.output and shown.output.count("\n") == 1
    assert bad.read_text() == "mine"


def test_every_name_simcards_gives_is_found_as_its_kind(tmp_path):
    """The names the kernels, tables and yardsticks are written under (a real kernel's among
    them) are the names ``items`` knows, each under its own kind: a maker renamed without the
    patterns would leave its files behind at every clear."""
    import hashlib
    from simcards.batch import prepare
    from simcards.kernels import kernel_module_name
    key = hashlib.sha256(b"sources").hexdigest()[:16]
    batch = prepare("thirty-one", ["threshold_tuned", "greedy"])
    named = {
        "kernels": [kernel_module_name(batch.spec, batch.infos) + ".py",
                    cache_folder.kernel_module("vzhukh", key) + ".lock"],
        "table builders": [cache_folder.table_module("five_alive", "hold_actions", key) + ".py"],
        "tables": [cache_folder.TABLES + "/" + cache_folder.table_file("bombs_away", "sniper_tuned", key)],
        "C yardsticks": [cache_folder.yardstick_program("thirty_one", key)],
    }
    for names in named.values():
        for name in names:
            (tmp_path / name).parent.mkdir(exist_ok=True)
            (tmp_path / name).write_text("x")
    found = {}
    for item in cache_folder.items(tmp_path):
        found.setdefault(item.kind, []).extend(f.relative_to(tmp_path).as_posix() for f in item.files)
    assert {kind: sorted(names) for kind, names in found.items()} == {
        kind: sorted(names) for kind, names in named.items()}
