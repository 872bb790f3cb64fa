"""Record a fast-engine game and check it against the reference engine, move by move."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from simcards.errors import IllegalMoveError
from simcards.rng import STREAM_STRATEGY, PyRandom
from simcards.simulate import Batch, _raise_illegal, prepare
from simcards.strategy_registry import strategies_for


class ReplayMismatch(AssertionError):
    """The reference engine and the fast engine disagree: a bug in one of them."""


@dataclass
class Record:
    batch: Batch
    game_index: int
    moves: np.ndarray        # (steps, 3): decision kind, seat, move
    snaps: np.ndarray        # (2 * steps + 1, size): before each move, after it, and at the end
    seats: np.ndarray        # per-seat results (win, rank, seat columns...)
    game_row: np.ndarray     # game-level results
    extra: dict = field(default_factory=dict)


def record(game: str, strategies: Sequence[str], seed: int, game_index: int,
           rules: Mapping[str, Any] | None = None, batch: Batch | None = None,
           stop_at_illegal: bool = False) -> Record:
    """Play one game on the fast engine and keep every decision and state.

    An illegal move raises IllegalMoveError; with ``stop_at_illegal`` the record keeps
    the game up to that move instead, and the move in ``extra["illegal"]``."""
    batch = batch or prepare(game, strategies, seed, rules)
    kernel = batch.kernel()
    status = np.zeros(8, np.int64)
    steps = kernel.count_steps(batch.seed, game_index, batch.sids, batch.params, status)
    size = kernel.snapshot_size(batch.n_players, batch.params)
    moves = np.zeros((steps, 3), np.int64)
    snaps = np.zeros((2 * steps + 1, size), np.int64)
    seats = np.zeros((batch.n_players, 2 + len(batch.spec.seat_columns)), np.int64)
    game_row = np.zeros(len(batch.spec.game_columns), np.int64)
    status[:] = 0
    kernel.record_game(batch.seed, game_index, batch.sids, batch.params, moves, snaps, seats,
                       game_row, status)
    extra = {}
    if status[0] != 0:
        if not stop_at_illegal:
            _raise_illegal(batch, status)
        _, _, seat, kind, move, _ = (int(x) for x in status[:6])
        extra["illegal"] = {"kind": kind, "seat": seat, "move": move}
    return Record(batch, game_index, moves, snaps, seats, game_row, extra)


def _new_reference(batch: Batch, game_index: int):
    return batch.spec.reference.Game(batch.n_players, batch.rules, batch.seed, game_index)


def _check(label: str, step: int, ref_state: list[int], fast_state: np.ndarray) -> None:
    ref = np.asarray(ref_state, dtype=np.int64)
    if ref.shape != fast_state.shape or not np.array_equal(ref, fast_state):
        diff = np.flatnonzero(ref != fast_state)[:8] if ref.shape == fast_state.shape else "size"
        raise ReplayMismatch(f"state differs {label} step {step} at positions {diff}: "
                             f"reference {ref.tolist()} fast {fast_state.tolist()}")


def replay(rec: Record, check: Callable[[Any], None] | None = None,
           on_decision: Callable[[Any, int, int, int, int], None] | None = None):
    """Replay a record through the reference engine; returns the finished reference game
    (for a record stopped at an illegal move, the game at that decision).

    ``check(game)``, if given, runs after the deal and after every move (invariants in tests);
    ``on_decision(game, step, kind, seat, move)`` at every decision, before its move."""
    ref = _new_reference(rec.batch, rec.game_index)
    if check:
        check(ref)
    for step, (kind, seat, move) in enumerate(rec.moves.tolist()):
        decision = ref.next_decision()
        _check("before", step, ref.snapshot(), rec.snaps[2 * step])
        if decision != (kind, seat):
            raise ReplayMismatch(f"step {step}: reference expects {decision}, fast had {(kind, seat)}")
        if on_decision:
            on_decision(ref, step, kind, seat, move)
        ref.apply(kind, move)
        if check:
            check(ref)
        _check("after", step, ref.snapshot(), rec.snaps[2 * step + 1])
    if "illegal" in rec.extra:   # the game stops at the illegal decision: no result to compare
        bad = rec.extra["illegal"]
        if ref.next_decision() != (bad["kind"], bad["seat"]):
            raise ReplayMismatch(f"the reference game does not reach the illegal decision {bad}")
        _check("before the illegal move at", len(rec.moves), ref.snapshot(), rec.snaps[2 * len(rec.moves)])
        return ref
    if ref.next_decision() is not None:
        raise ReplayMismatch(f"the reference game goes on after {len(rec.moves)} moves")
    _check("at the end", len(rec.moves), ref.snapshot(), rec.snaps[-1])
    seats, game_row = ref.result()
    if seats != rec.seats.tolist() or game_row != rec.game_row.tolist():
        raise ReplayMismatch(f"results differ: reference {seats} {game_row}, "
                             f"fast {rec.seats.tolist()} {rec.game_row.tolist()}")
    return ref


def play_reference(game: str, strategies: Sequence[str], seed: int, game_index: int,
                   rules: Mapping[str, Any] | None = None, batch: Batch | None = None):
    """The plain-Python twin of a fast game: the reference engine driven by each
    strategy's uncompiled function (``py_func``). Returns (game, moves)."""
    batch = batch or prepare(game, strategies, seed, rules)
    known = strategies_for(batch.spec)
    import importlib
    funcs = {}
    for name in batch.names:
        module = importlib.import_module(known[name].module)
        funcs[name] = {d.name: getattr(getattr(module, d.function), "py_func",
                                       getattr(module, d.function))
                       for d in batch.spec.decisions}
    decisions = [d.name for d in batch.spec.decisions]
    srng = PyRandom(batch.seed, game_index, STREAM_STRATEGY).as_array()
    ref = _new_reference(batch, game_index)
    moves = []
    while (decision := ref.next_decision()) is not None:
        kind, seat = decision
        name = batch.strategies[seat]
        move = int(funcs[name][decisions[kind]](ref.view(kind), srng))
        try:
            ref.apply(kind, move)
        except ValueError:
            raise IllegalMoveError(batch.spec.name, name, game_index, batch.seed, seat,
                                   str(move)) from None
        moves.append((kind, seat, move))
    return ref, moves
