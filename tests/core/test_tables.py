"""simcards.tables: a strategy's table is built once per key, kept on disk, rebuilt when a
source it depends on changes, and appended to the seat's parameter row."""
from __future__ import annotations

import textwrap

import numpy as np
import pytest

from simcards import events, tables
from simcards.batch import prepare
from simcards.registry import get_game
from simcards.strategy_registry import strategies_for

SPEC = get_game("five-alive")

TABLED = '''
    """probe: a strategy with a table of its own"""
    import numpy as np
    from numba import njit
    from simcards.config import NJIT_OPTIONS
    from simcards.params import TableRequest
    from simcards.games.five_alive.view import legal_mask
    from ._helper import WIDTH

    PARAMS = {"pick": (0, 0, 1, "0: lowest legal kind, 1: the table's choice")}


    @njit(**NJIT_OPTIONS)
    def fill(out, n):
        for i in range(out.shape[0]):
            out[i] = i + n


    def table_for(n_players, game_params, row):
        if row[0] == 0:
            return None

        def build(compiled):
            out = np.empty(WIDTH)
            compiled.fill(out, n_players)
            return out
        return TableRequest("probe table", "", build, (fill,))


    @njit(**NJIT_OPTIONS)
    def decide(view, rng, params):
        mask = legal_mask(view)
        k = 0
        while not (mask >> k) & 1:
            k += 1
        return k
'''


@pytest.fixture
def isolated(tmp_path, monkeypatch):
    """An empty cache folder and no table in memory."""
    monkeypatch.setenv("SIMCARDS_KERNEL_DIR", str(tmp_path / "kernels"))
    monkeypatch.setattr(tables, "_memory", {})
    return tmp_path


def _folder(tmp_path, width=5):
    sub = tmp_path / "strats" / SPEC.module_name
    sub.mkdir(parents=True, exist_ok=True)
    (sub / "tabled.py").write_text(textwrap.dedent(TABLED))
    (sub / "_helper.py").write_text(f"WIDTH = {width}\n")
    (sub / "_unrelated.py").write_text("X = 1\n")
    return tmp_path / "strats"


def _request(calls, value=1.0):
    def build(compiled):
        calls.append(1)
        return np.full(3, value)
    return tables.TableRequest("test table", "k=1", build)


def test_a_table_is_built_once_then_read_from_the_cache(isolated):
    info = strategies_for(SPEC)["search"]
    row = SPEC.encode_params(SPEC.resolve_rules({}), 4)
    calls, seen = [], []
    with events.subscribe(lambda kind, **f: seen.append((kind, f.get("table")))):
        first = tables.load_or_build(SPEC, info, 4, row, _request(calls))
        tables._memory.clear()                      # a new process: from the disk
        again = tables.load_or_build(SPEC, info, 4, row, _request(calls, value=2.0))
    assert calls == [1] and first.tobytes() == again.tobytes() == np.full(3, 1.0).tobytes()
    assert [k for k, _ in seen] == ["table-start", "table-done"] and seen[0][1] == "test table"
    assert len(list((isolated / "kernels" / "tables").glob("*.npy"))) == 1


def test_the_key_follows_rules_players_and_the_request():
    info = strategies_for(SPEC)["search"]
    row = SPEC.encode_params(SPEC.resolve_rules({}), 4)
    key = tables.table_key(SPEC, info, 4, row, _request([]))
    assert key == tables.table_key(SPEC, info, 4, row.copy(), _request([], value=9.0))
    blitz = SPEC.encode_params(SPEC.resolve_rules({"blitz": True}), 4)
    others = {tables.table_key(SPEC, info, 4, blitz, _request([])),
              tables.table_key(SPEC, info, 3, SPEC.encode_params(SPEC.resolve_rules({}), 3), _request([])),
              tables.table_key(SPEC, info, 4, row, tables.TableRequest("test table", "k=2", list))}
    assert key not in others and len(others) == 3


def test_search_tables_depend_on_the_engine_and_the_rollout_strategy():
    names = {p.name for p in tables.dependencies(strategies_for(SPEC)["search"])}
    assert {"fast.py", "rules.py", "expert.py", "_values.py", "_rollout.py", "tables.py"} <= names


def test_a_source_edit_gives_a_new_key_an_unrelated_one_does_not(tmp_path):
    folder = _folder(tmp_path)
    info = strategies_for(SPEC, [folder])["tabled"]
    row = SPEC.encode_params(SPEC.resolve_rules({}), 2)
    key = tables.table_key(SPEC, info, 2, row, _request([]))
    (folder / SPEC.module_name / "_unrelated.py").write_text("X = 22\n")
    assert tables.table_key(SPEC, info, 2, row, _request([])) == key
    (folder / SPEC.module_name / "_helper.py").write_text("WIDTH = 55\n")
    assert tables.table_key(SPEC, info, 2, row, _request([])) != key


def test_prepare_appends_a_table_after_the_seats_values(isolated):
    folder = _folder(isolated, width=4)
    batch = prepare("five-alive", ["tabled:pick=1", "expert", "tabled"], 0, strategy_dirs=[folder])
    rows = batch.strategy_params
    assert rows.shape == (3, 1 + 4)
    assert rows[0].tolist() == [1.0, 3.0, 4.0, 5.0, 6.0]          # pick=1, then the table (+3 players)
    assert rows[1].tolist() == [2.0, 1.0, 0.0, 0.0, 0.0]          # expert's values, padded
    assert rows[2].tolist() == [0.0] * 5                          # pick=0 asks for no table
    plain = prepare("five-alive", ["tabled", "expert"], 0, strategy_dirs=[folder])
    assert plain.strategy_params.shape == (2, 2)                  # no table, rows as before
    # the build ran its compiled function through a generated module numba caches on disk
    kernels = isolated / "kernels"
    assert len(list(kernels.glob("_simcards_table_five_alive_tabled_*.py"))) == 1
    assert list(kernels.glob("__pycache__/_simcards_table_five_alive_tabled_*.fill-*.nbi"))
