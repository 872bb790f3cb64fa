"""The plain-Python twin: the reference engine driven by each strategy's uncompiled
``py_func`` plays exactly the compiled kernel's games. A strategy that reads a hidden
field plays differently on the reference engine's views (hidden fields are zero there)
and fails it; one that keeps memory across decisions passes it."""
from __future__ import annotations

import textwrap

import pytest

import simcards
from simcards.replay import play_reference, record

GAMES_PER_LINEUP = 8


def _twin(game: str, lineup: list[str], batch, games: int) -> None:
    for g in range(games):
        rec = record(game, lineup, batch.seed, g, batch=batch)
        ref, moves = play_reference(game, lineup, batch.seed, g, batch=batch)
        assert moves == [tuple(m) for m in rec.moves.tolist()]
        assert ref.result() == (rec.seats.tolist(), rec.game_row.tolist())


def test_reference_engine_with_py_funcs_plays_the_kernels_games(game, kit):
    for i, lineup in enumerate(kit.lineups(game)):
        _twin(game, lineup, kit.batch_for(game, lineup, 50 + i), GAMES_PER_LINEUP)


def test_the_twin_holds_under_every_rule_option(game, kit):
    for j, (label, rules) in enumerate(kit.rule_variants(game)):
        lineups = [u for u in kit.lineups(game) if kit.usable(game, u, rules)]
        if lineups:
            lineup = lineups[j % len(lineups)]
            _twin(game, lineup, kit.batch_for(game, lineup, 90 + j, rules), 1)


# Generic probe strategies: every decision picks among the engine's own legal moves.
PROBE = '''
    """{doc}"""
    import numpy as np
    from numba import njit
    from simcards.config import NJIT_OPTIONS
    from simcards.engine import MEMORY_SLOTS
    from {package}.fast import legal_moves
    from {package}.view import memory, remember

    {decisions}
'''

DECISION = '''
    @njit(**NJIT_OPTIONS)
    def {function}(view, rng):
        out = np.zeros(4096, np.int64)
        n = legal_moves(view.s, out)
        remember(view, 0, memory(view, 0) + 1)        # decisions this seat made this game
        pick = {pick}
        return out[pick % n]
'''

PICKS = {
    # honest: its own memory and the public move list only
    "counter": "memory(view, 0) * 7 + view.seat",
    # a cheat: reads the first hidden cell of the state (the stock, usually)
    "peeker": "memory(view, 0) + view.s[{hidden}]",
}


def _write_probe(folder, game: str, name: str) -> None:
    spec = simcards.get_game(game)
    # the variable-length tail (the stock) if hidden: scratch fields may hold zeros in both engines
    fields = [f for f in spec.view.LAYOUT.fields if f.visibility == "hidden"]
    hidden = next((f.offset for f in fields if f.shape == (0,)), fields[0].offset)
    decisions = "\n".join(DECISION.format(function=d.function, pick=PICKS[name].format(hidden=hidden))
                          for d in spec.decisions)
    sub = folder / spec.module_name
    sub.mkdir(parents=True, exist_ok=True)
    (sub / f"probe_{name}.py").write_text(textwrap.dedent(PROBE).format(
        doc=f"probe strategy {name}", package=spec.package, decisions=textwrap.dedent(decisions)))


_probe_dirs: dict = {}


@pytest.fixture
def probes(game, tmp_path_factory):
    """A folder with both probe strategies of the game, and a batch maker whose kernel holds
    both (one compile per game for all the probe tests)."""
    if game not in _probe_dirs:
        folder = tmp_path_factory.mktemp(f"probes-{game}")
        for name in PICKS:
            _write_probe(folder, game, name)
        _probe_dirs[game] = folder
    folder = _probe_dirs[game]
    from simcards.batch import prepare

    def batch(name: str, seed: int):
        lineup = [f"probe_{name}"] * simcards.get_game(game).min_players
        return prepare(game, lineup, seed, strategy_dirs=[folder],
                       kernel_strategies=[f"probe_{n}" for n in PICKS])
    return batch


def _twin_agrees(game: str, batch, games: int = 30) -> bool:
    for g in range(games):
        rec = record(game, batch.strategies, batch.seed, g, batch=batch)
        _, moves = play_reference(game, batch.strategies, batch.seed, g, batch=batch)
        if moves != [tuple(m) for m in rec.moves.tolist()]:
            return False
    return True


def test_memory_is_kept_per_seat_and_game_in_both_engines(game, probes):
    assert _twin_agrees(game, probes("counter", 11))


def test_memory_starts_empty_in_every_game_of_a_batch(game, probes):
    """The batch kernel reuses one state for all its games: each game's result must equal
    that game played alone (which starts from a new state)."""
    from simcards.batch import run_range
    batch = probes("counter", 13)
    seat_out, game_out = run_range(batch, 0, 40)
    for g in range(40):
        alone = record(game, batch.strategies, 13, g, batch=batch)
        assert seat_out[g].tolist() == alone.seats.tolist() and game_out[g].tolist() == alone.game_row.tolist()


def test_a_strategy_that_reads_a_hidden_field_fails_the_twin_test(game, probes):
    assert not _twin_agrees(game, probes("peeker", 11))
