"""Bad inputs, given for real (issue 49): the Python API called with wrong types, CLI values
out of range, broken experiment files, and ``--summary-only`` playing the design of the same
run with rows. Each bad input is one ``SimcardsError`` (in Python) or one line on stderr with
exit code 2 (the command), naming the argument or option, the bad value and what is accepted.

(tests/core/test_bad_inputs.py holds the earlier table; this file the sweep's cases.)"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

import simcards
from simcards.cli import app
from simcards.errors import BadArgument, SimcardsError
from simcards.report.experiment import load_experiment
from simcards.rng import MAX_SEED
from simcards.runner import RunSpec
from simcards.validate import MAX_CHUNK, max_threads

TWO = ["random", "random"]
MIXED = ["high_first", "random", "random"]


def _record(*args, **kwargs):
    from simcards.replay import record
    return record(*args, **kwargs)


# ------------------------------------------------------------------ the API
# (name, call, words the message must hold; BadArgument: the type check of that argument)
API_CASES = [
    ("simulate(None, ...)", lambda: simcards.simulate(None, TWO, 10), ["game None", "a str", "list_games"]),
    ("simulate(['five-alive'], ...)", lambda: simcards.simulate(["five-alive"], TWO, 10),
     ["game ['five-alive']", "game name"]),
    ("strategies='random'", lambda: simcards.simulate("five-alive", "random", 10),
     ["strategies 'random'", "list of strategy names", "not split"]),
    ("strategies='random,random'", lambda: simcards.simulate("five-alive", "random,random", 10),
     ["'random,random'", "list of strategy names"]),
    ("strategies=['random', '']", lambda: simcards.simulate("five-alive", ["random", ""], 10),
     ["['random', '']", "strategy names"]),
    ("n_games='10'", lambda: simcards.simulate("five-alive", TWO, "10"), ["n_games '10'", "positive integer"]),
    ("n_games=True", lambda: simcards.simulate("five-alive", TWO, True), ["n_games True", "positive integer"]),
    ("n_games=-3", lambda: simcards.simulate("five-alive", TWO, -3), ["n_games -3", "positive integer"]),
    ("seed='1'", lambda: simcards.simulate("five-alive", TWO, 10, seed="1"), ["seed '1'", f"0..{MAX_SEED}"]),
    ("seed=1.0", lambda: simcards.simulate("five-alive", TWO, 10, seed=1.0), ["seed 1.0", f"0..{MAX_SEED}"]),
    ("seed=-1", lambda: simcards.simulate("five-alive", TWO, 10, seed=-1), ["seed -1", f"0..{MAX_SEED}"]),
    ("seed=2**64", lambda: simcards.simulate("five-alive", TWO, 10, seed=2**64),
     [f"seed {2**64}", f"0..{MAX_SEED}"]),
    ("rules='lives=3'", lambda: simcards.simulate("five-alive", TWO, 10, rules="lives=3"),
     ["rules 'lives=3'", "mapping of rule option to value", "{'lives': 3}", "CLI's -r"]),
    ("rules=[('lives', 3)]", lambda: simcards.simulate("five-alive", TWO, 10, rules=[("lives", 3)]),
     ["rules [('lives', 3)]", "mapping"]),
    ("rules={'edition': ['standard']}",
     lambda: simcards.simulate("five-alive", TWO, 10, rules={"edition": ["standard"]}),
     ["['standard']", "'edition'", "one of standard"]),
    ("start='0'", lambda: simcards.simulate("five-alive", TWO, 10, start="0"), ["start '0'", "0 or more"]),
    ("start=True", lambda: simcards.simulate("five-alive", TWO, 10, start=True), ["start True", "0 or more"]),
    ("threads='2'", lambda: simcards.simulate("five-alive", TWO, 10, threads="2"), ["threads '2'", "positive integer"]),
    ("threads=1000", lambda: simcards.simulate("five-alive", TWO, 10, threads=1000),
     ["threads 1000", f"at most {max_threads()}", "per core"]),
    ("chunk_size=True", lambda: simcards.simulate("five-alive", TWO, 10, chunk_size=True),
     ["chunk size True", "positive integer"]),
    ("chunk_size=10**9", lambda: simcards.simulate("five-alive", TWO, 10, chunk_size=10**9),
     ["chunk size 1000000000", f"at most {MAX_CHUNK:,}"]),
    ("progress=3", lambda: simcards.simulate("five-alive", TWO, 10, progress=3), ["progress 3", "function"]),
    ("rotate='no'", lambda: simcards.simulate("five-alive", MIXED, 10, rotate="no"),
     ["rotate 'no'", "True or False"]),
    ("rotate=1", lambda: simcards.simulate("five-alive", MIXED, 10, rotate=1), ["rotate 1", "True or False"]),
    ("strategy_dirs='mine'", lambda: simcards.simulate("five-alive", TWO, 10, strategy_dirs="mine"),
     ["strategy_dirs 'mine'", "list of folders", "['mine']"]),
    ("strategy_dirs=Path('mine')", lambda: simcards.simulate("five-alive", TWO, 10, strategy_dirs=Path("mine")),
     ["strategy_dirs PosixPath('mine')", "list of folders"]),
    ("kernel_strategies='random'", lambda: simcards.simulate("five-alive", TWO, 10, kernel_strategies="random"),
     ["kernel_strategies 'random'", "list of strategy names", "not split"]),
    ("get_game(None)", lambda: simcards.get_game(None), ["game None", "game name"]),
    ("list_strategies(None)", lambda: simcards.list_strategies(None), ["game None"]),
    ("list_strategies(strategy_dirs='mine')", lambda: simcards.list_strategies("five-alive", "mine"),
     ["strategy_dirs 'mine'", "list of folders"]),
    ("rule_options(5)", lambda: simcards.rule_options(5), ["game 5", "game name"]),
    ("RunSpec.create(strategy_dirs='mine')", lambda: RunSpec.create("five-alive", TWO, 10, strategy_dirs="mine"),
     ["strategy_dirs 'mine'", "list of folders"]),
    ("RunSpec.create(summary_only='no')", lambda: RunSpec.create("five-alive", TWO, 10, summary_only="no"),
     ["summary_only 'no'", "True or False"]),
    ("RunSpec.create(chunk_size=10**7)", lambda: RunSpec.create("five-alive", TWO, 10, chunk_size=10**7),
     ["chunk size 10000000", f"at most {MAX_CHUNK:,}"]),
    ("record(game_index='0')", lambda: _record("five-alive", TWO, 0, "0"), ["game index '0'", "0 or more"]),
    ("record(strategies='random')", lambda: _record("five-alive", "random", 0, 0), ["strategies 'random'"]),
    ("record(rules='lives=3')", lambda: _record("five-alive", TWO, 0, 0, "lives=3"), ["rules 'lives=3'"]),
    ("record(strategy_dirs='mine')", lambda: _record("five-alive", TWO, 0, 0, strategy_dirs="mine"),
     ["strategy_dirs 'mine'"]),
    ("summarize(None)", lambda: simcards.summarize(None), ["NoneType", "DataFrame"]),
]


@pytest.mark.parametrize("call, words", [c[1:] for c in API_CASES], ids=[c[0] for c in API_CASES])
def test_the_api_refuses_a_wrong_type_naming_it(tmp_path, monkeypatch, call, words):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SimcardsError) as info:
        call()
    message = str(info.value)
    assert "\n" not in message and message.startswith("bad "), message
    for word in words:
        assert word in message, message
    assert list(tmp_path.iterdir()) == []          # nothing written, no folder "m", "i", "n", "e"


def test_a_wrong_type_is_also_a_type_error():
    """``BadArgument`` is a SimcardsError, a TypeError and a ValueError: code that catches
    either for a bad argument catches it too."""
    with pytest.raises(TypeError):
        simcards.simulate("five-alive", TWO, 10, rotate="no")
    with pytest.raises(ValueError):
        simcards.simulate("five-alive", TWO, 10, rules="lives=3")
    assert issubclass(BadArgument, SimcardsError)


def test_a_mapping_of_rules_and_a_tuple_of_names_are_accepted():
    a = simcards.simulate("five-alive", ("random", "random"), 20, seed=4, rules={"lives": 3},
                          strategy_dirs=(), kernel_strategies=("random",), rotate=False)
    b = simcards.simulate("five-alive", ["random", "random"], 20, seed=4, rules={"lives": "3"})
    assert a.equals(b) and a.attrs["rules"]["lives"] == 3


# ------------------------------------------------------------------ the CLI
# (args, words the one stderr line must hold)
CLI_CASES = [
    (["run", "five-alive", "--players", "1"], ["--players 1", "five-alive is played by 2 to 7 players"]),
    (["run", "five-alive", "--players", "99"], ["--players 99", "2 to 7"]),
    (["run", "five-alive", "--strategies", "random", "--players", "99"], ["--players 99", "2 to 7"]),
    (["replay", "five-alive", "--players", "1"], ["--players 1", "2 to 7"]),
    (["bench", "five-alive", "--players", "99"], ["--players 99", "2 to 7"]),
    (["tune", "five-alive", "expert", "--players", "1"], ["--players 1", "2 to 7"]),
    (["run", "five-alive", "--seed", "-1"], ["--seed -1", f"0..{MAX_SEED}"]),
    (["run", "five-alive", "--seed", str(2**63)], [f"--seed {2**63}", f"0..{MAX_SEED}"]),
    (["run", "five-alive", "--seed", str(2**64 - 1)], [f"--seed {2**64 - 1}", f"0..{MAX_SEED}"]),
    (["run", "five-alive", "--seed", str(2**64)], [f"--seed {2**64}", f"0..{MAX_SEED}"]),
    (["replay", "five-alive", "--seed", "-1"], ["--seed -1", f"0..{MAX_SEED}"]),
    (["bench", "five-alive", "--seed", str(2**64)], [f"--seed {2**64}"]),
    (["tune", "five-alive", "expert", "--seed", "-1"], ["--seed -1"]),
    (["run", "five-alive", "--threads", "1000"], ["thread count 1000", f"at most {max_threads()}", "per core"]),
    (["tune", "five-alive", "expert", "--threads", "1000"], ["thread count 1000", f"at most {max_threads()}"]),
    (["report", "ok.toml", "--threads", "1000"], ["thread count 1000", f"at most {max_threads()}"]),
    (["run", "five-alive", "--cluster", "local", "--workers", "1000"],
     ["worker count 1000", f"at most {max_threads()}"]),
    (["run", "five-alive", "--chunk-size", str(10**10)], ["chunk size 10000000000", f"at most {MAX_CHUNK:,}"]),
    (["run", "five-alive", "--games", "0"], ["--games 0", "positive integer"]),
    (["run", "five-alive", "--games", "-100"], ["--games -100", "positive integer"]),
    (["bench", "five-alive", "--games", "0"], ["--games 0", "positive integer"]),
    (["bench", "five-alive", "--reference-games", "-1"], ["--reference-games -1", "positive integer"]),
    (["bench", "five-alive", "--reference-games", "0"], ["--reference-games 0", "positive integer"]),
    (["bench", "five-alive", "--repeat", "0"], ["--repeat 0", "positive integer"]),
    (["tune", "five-alive", "expert", "--trials", "0"], ["--trials 0", "positive integer"]),
    (["tune", "five-alive", "expert", "--check-games", "-1"], ["--check-games -1", "positive integer"]),
    (["run", "five-alive", "--strategies", ""], ["--strategies ''", "names separated by commas"]),
    (["run", "five-alive", "--strategies", " , "], ["' , '", "names separated by commas"]),
]


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    (tmp_path / "ok.toml").write_text('game = "five-alive"\nplayers = [2]\ngames = 20\n'
                                      '[lineups]\nmirror = ["high_first"]\n')
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else b"/")
            for p in sorted(folder.rglob("*"))}


@pytest.mark.parametrize("args, words", CLI_CASES, ids=[" ".join(a) for a, _ in CLI_CASES])
def test_a_cli_value_out_of_range_is_one_line(workdir, args, words):
    before = _tree(workdir)
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, (result.output, result.exception)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for word in words:
        assert word in lines[0], lines[0]
    assert result.stdout == ""
    assert _tree(workdir) == before


# a few in a process of their own: exit code 2, one line, no traceback, nothing else printed
SUBPROCESS_CASES = [
    pytest.param(["run", "five-alive", "--players", "99"], ["--players 99", "2 to 7", "not 99"], id="players 99"),
    pytest.param(["run", "five-alive", "--threads", "1000"], ["thread count 1000"], id="threads 1000",
                 marks=pytest.mark.slow),
    pytest.param(["run", "five-alive", "--seed", str(2**64)], [f"--seed {2**64}"], id="seed 2**64",
                 marks=pytest.mark.slow),
    pytest.param(["run", "five-alive", "--chunk-size", str(10**10)], ["chunk size 10000000000"],
                 id="chunk size 10**10", marks=pytest.mark.slow),
]


@pytest.mark.parametrize("args, words", SUBPROCESS_CASES)
def test_a_cli_value_out_of_range_in_a_real_process(faults, tmp_path, args, words):
    done = faults.simcards(*args, cwd=tmp_path)
    faults.one_line(done, *words)
    assert done.stdout == "" and list(tmp_path.iterdir()) == []


# ------------------------------------------------------------------ experiment files
PNG = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x10\x08\x06\x00\x00\x00"
       b"\x1f\xf3\xffa\x00\x00\x00\x0bIDATx\x9cc\xf8\x0f\x00\x01\x01\x01\x00\x18\xdd\x8d\xb0")
GOOD = 'game = "five-alive"\nplayers = [2]\ngames = 20\n[lineups]\nmirror = ["random"]\n'


def _with(line: str, lineups: str = 'mirror = ["random"]', players: str = "[2]") -> bytes:
    return (f'game = "five-alive"\nplayers = {players}\n{line}\n[lineups]\n{lineups}\n').encode()


# (id, file content, key named, words the message must hold)
EXPERIMENT_CASES = [
    ("games as a string", _with('games = "20"'), "games", ["bad value '20'", "an integer 1..100000000"]),
    ("games zero", _with("games = 0"), "games", ["bad value 0", "an integer 1..100000000"]),
    ("games negative", _with("games = -5"), "games", ["bad value -5", "an integer 1..100000000"]),
    ("games a float", _with("games = 1e3"), "games", ["bad value 1000.0", "an integer"]),
    ("seed negative", _with("seed = -1"), "seed", ["bad value -1", f"an integer 0..{MAX_SEED}"]),
    ("title a number", _with("title = 3"), "title", ["bad value 3", "a string"]),
    ("rules a string", _with('rules = "lives=3"'), "rules", ["bad value 'lives=3'", "a table"]),
    ("an unknown key", _with("gmaes = 20"), "gmaes", ["unknown key", "games"]),
    ("an unknown lineups key", _with("", 'mirror = ["random"]\nmirorr = ["expert"]'), "lineups.mirorr",
     ["unknown key", "mirror"]),
    ("an unknown game", b'game = "chess"\nplayers = [2]\n', "game", ["unknown game 'chess'", "five-alive"]),
    ("a game as a list", b'game = ["five-alive"]\n', "game", ["bad value ['five-alive']", "a game name"]),
    ("an unknown strategy", _with("", 'mirror = ["nosuch"]'), "lineups.mirror[0]",
     ["unknown strategy 'nosuch'", "high_first"]),
    ("an unknown strategy in a line-up", _with("", 'explicit = [["random", "nosuch"]]'),
     "lineups.explicit[0][1]", ["unknown strategy 'nosuch'"]),
    ("mirror a string", _with("", 'mirror = "random"'), "lineups.mirror",
     ["bad value 'random'", "a list of strategy names"]),
    ("players 1", _with("", players="[1]"), "players", ["bad value 1", "integers 2..7"]),
    ("players 99", _with("", players="[99]"), "players", ["bad value 99", "integers 2..7"]),
    ("players a number", _with("", players="4"), "players", ["bad value 4", "a non-empty list"]),
    ("players empty", _with("", players="[]"), "players", ["bad value []", "a non-empty list"]),
    ("a line-up of 8 seats", _with("", "explicit = [[" + ", ".join(['"random"'] * 8) + "]]"),
     "lineups.explicit[0]", ["8 seats", "2..7 strategies"]),
    ("hands the deck cannot deal", _with("[rules]\nhand_size = 40", players="[7]"), "rules",
     ["at 7 players", "playable at every player count"]),
    ("an empty file", b"", "game", ["the file holds no settings (empty)", "game, players and [lineups]"]),
    ("only comments", b"# an experiment, some day\n\n", "game", ["(empty)"]),
]
BINARY_CASES = [
    ("a PNG image", PNG, ["byte 0x89 at offset 0 is not UTF-8", "UTF-8 text file"]),
    ("random bytes", random.Random(49).randbytes(4096), ["is not UTF-8", "UTF-8 text file"]),
    ("UTF-8 with NUL bytes", b'game = "five-alive"\x00\x00\n', ["a NUL byte at offset 19", "binary file"]),
]


@pytest.mark.parametrize("content, key, words", [c[1:] for c in EXPERIMENT_CASES],
                         ids=[c[0] for c in EXPERIMENT_CASES])
def test_a_broken_experiment_file_names_the_file_and_the_key(tmp_path, content, key, words):
    path = tmp_path / "exp.toml"
    path.write_bytes(content)
    with pytest.raises(SimcardsError) as info:
        load_experiment(path)
    message = str(info.value)
    assert "\n" not in message, message
    assert message.startswith(f"{path}: key {key!r}: ") and "; accepted: " in message, message
    for word in words:
        assert word in message, message
    assert [p.name for p in tmp_path.iterdir()] == ["exp.toml"]


@pytest.mark.parametrize("content, words", [c[1:] for c in BINARY_CASES], ids=[c[0] for c in BINARY_CASES])
def test_a_binary_experiment_file_is_refused_in_one_line(tmp_path, content, words):
    path = tmp_path / "exp.toml"
    path.write_bytes(content)
    with pytest.raises(SimcardsError) as info:
        load_experiment(path)
    message = str(info.value)
    assert "\n" not in message and message.startswith(f"bad experiment file {str(path)!r}: "), message
    for word in words:
        assert word in message, message


def test_an_experiment_file_that_is_a_folder(tmp_path):
    (tmp_path / "exp.toml").mkdir()
    with pytest.raises(SimcardsError, match=r"exp\.toml'?: it is a folder, expected a \.toml file"):
        load_experiment(tmp_path / "exp.toml")


@pytest.mark.parametrize("name, content, words", [
    pytest.param("empty.toml", b"", ["empty.toml", "key 'game'", "(empty)"], id="empty",
                 marks=pytest.mark.slow),
    pytest.param("image.toml", PNG, ["image.toml", "byte 0x89", "UTF-8"], id="png", marks=pytest.mark.slow),
    pytest.param("games.toml", _with("games = 0"), ["games.toml", "key 'games'", "an integer 1.."],
                 id="games 0", marks=pytest.mark.slow),
])
def test_simcards_report_on_a_broken_experiment_file(faults, tmp_path, name, content, words):
    (tmp_path / name).write_bytes(content)
    done = faults.simcards("report", name, "--out-dir", "out", cwd=tmp_path)
    faults.one_line(done, *words)
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]     # no report folder begun


# ------------------------------------------------------------------ --summary-only's design
def _table(stdout: str) -> dict[tuple[str, str], tuple[str, str]]:
    """(scope, name) -> (games, win rate) as `simcards run` prints them."""
    rows = {}
    for line in stdout.splitlines():
        cells = [c.strip() for c in line.strip("│ ").split("│")]
        if len(cells) == 5 and cells[0] in ("strategy", "seat"):
            rows[(cells[0], cells[1])] = (cells[2], cells[3])
    return rows


def test_summary_only_plays_the_rotated_design_of_the_run_with_rows(tmp_path, monkeypatch):
    """The sweep's case: `--summary-only` played fixed seats where the same command without it
    rotated, and its seat table reported high_first's 0.504 as seat 0's. Now both rotate, and
    every strategy and seat win rate is the same."""
    monkeypatch.chdir(tmp_path)
    args = ["run", "five-alive", "--strategies", ",".join(MIXED), "--games", "3000", "--seed", "49",
            "--threads", "2"]
    rows = CliRunner().invoke(app, args)
    totals = CliRunner().invoke(app, args + ["--summary-only"])
    assert rows.exit_code == 0 and totals.exit_code == 0, (rows.output, totals.output)
    assert "1,000 deals x 3 seat orders, rotated" in rows.stdout
    assert "1,000 deals x 3 seat orders, rotated" in totals.stdout and "summary only" in totals.stdout
    table, summary_only = _table(rows.stdout), _table(totals.stdout)
    assert len(table) == 2 + 3 and summary_only == table
    # strategies net of seat: high_first's rate is its own, not a seat's
    assert table[("strategy", "high_first")][1] != table[("seat", "0")][1]


def test_summary_only_totals_give_the_frames_win_rates(tmp_path):
    """In Python, to the last bits: the rotated totals' strategy and seat win rates are the
    frame's (``simcards.summarize``), from exact integer win units."""
    from simcards.rotation import RotatedTotals, execute_rotated

    def spec_for(summary_only):
        return lambda seating, deals: RunSpec.create("five-alive", seating, deals, 7, chunk_size=150,
                                                     summary_only=summary_only)

    frame = execute_rotated(spec_for(False), MIXED, 1500)
    totals = execute_rotated(spec_for(True), MIXED, 1500)
    assert isinstance(totals, RotatedTotals) and totals.games == 1500 and totals.deals == 500
    expected = simcards.summarize(frame).set_index(["scope", "name"])
    got = totals.summary().set_index(["scope", "name"])
    assert list(got.index) == list(expected.index)
    assert got["win_rate"].to_numpy() == pytest.approx(expected["win_rate"].to_numpy(), rel=1e-12, abs=0)
    assert (got["games"] == expected["games"]).all() and (got["deals"] == expected["deals"]).all()
    assert got["fair_share"].to_numpy() == pytest.approx(expected["fair_share"].to_numpy(), rel=1e-12)
    # the interval takes deals as trials: never narrower than the frame's, which knows the spread
    assert (got["ci_low"] <= expected["ci_low"] + 1e-12).all()
    assert (got["ci_high"] >= expected["ci_high"] - 1e-12).all()

    # the same run saved per seat order, one order's chunk lost, resumed: the same totals
    folder = tmp_path / "run"
    execute_rotated(spec_for(True), MIXED, 1500, run_dir=folder)
    lost = folder / "order-01" / "parts" / "chunk-000002.json"
    assert lost.is_file()
    lost.unlink()
    again = execute_rotated(spec_for(True), MIXED, 1500, run_dir=folder, resume=True)
    assert [list(t.win_units) for t in again.parts] == [list(t.win_units) for t in totals.parts]
    assert again.summary().equals(totals.summary())


def test_summary_only_with_no_rotate_keeps_fixed_seats(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = ["run", "five-alive", "--strategies", ",".join(MIXED), "--games", "600", "--seed", "3",
            "--no-rotate"]
    rows = CliRunner().invoke(app, args)
    totals = CliRunner().invoke(app, args + ["--summary-only"])
    assert rows.exit_code == 0 and totals.exit_code == 0, (rows.output, totals.output)
    assert "fixed seats" in rows.stdout and "600 games (summary only)" in totals.stdout
    assert _table(rows.stdout) == _table(totals.stdout)
