"""Record a fast-engine game and check it against the reference engine, move by move."""
from __future__ import annotations

import functools
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from simcards.run.batch import Batch, check_time_limit, describe_strategies, new_stop_flag, prepare, raise_illegal
from simcards.compiled.engine import save_memory
from simcards.errors import IllegalMove, IllegalMoveError, SimcardsError, StrategyError, TimeLimitError
from simcards.codegen.kernels import ST_DECIDER, ST_ILLEGAL, ST_KIND, ST_MOVE, ST_SEAT, ST_STEP, STATUS_SIZE
from simcards.compiled.rng import STREAM_STRATEGY, PyRandom
from simcards.contract.strategy_registry import decision_function, takes_params


class ReplayMismatch(AssertionError):
    """The reference engine and the fast engine disagree: a bug in one of them."""


@dataclass
class Record:
    batch: Batch
    game_index: int
    moves: np.ndarray        # (steps, 3): decision kind, seat, move
    snaps: np.ndarray        # (2 * steps + 1, size): before each move, after it, and at the end
    raws: np.ndarray         # (steps, state size): the fast engine's state array at each decision
    seats: np.ndarray        # per-seat results (win, rank, seat columns...)
    game_row: np.ndarray     # game-level results
    extra: dict = field(default_factory=dict)


def record(game: str, strategies: Sequence[str], seed: int, game_index: int,
           rules: Mapping[str, Any] | None = None, batch: Batch | None = None,
           stop_at_illegal: bool = False, strategy_dirs: Sequence[str] = (),
           decision_time_limit: float | None = None) -> Record:
    """Play one game on the fast engine and keep every decision and state.

    An illegal move raises IllegalMoveError; with ``stop_at_illegal`` the record keeps
    the game up to that move instead, and the move in ``extra["illegal"]``. A decision that
    takes more than ``decision_time_limit`` seconds raises TimeLimitError naming its strategy
    (the compiled game runs on a thread the caller's thread watches, so SIGINT reaches the
    caller too); a strategy that raises, a StrategyError naming it."""
    decision_time_limit = check_time_limit(decision_time_limit, "decision time limit")
    from simcards.contract.validate import check_game_index
    game_index = check_game_index(game_index)
    batch = batch or prepare(game, strategies, seed, rules, strategy_dirs=strategy_dirs)
    kernel = batch.kernel(entry="record_game")
    status = np.zeros(STATUS_SIZE, np.int64)
    steps = _watched(lambda: kernel.count_steps(batch.seed, game_index, batch.sids, batch.params,
                                                batch.strategy_params, status),
                     batch, game_index, status, decision_time_limit)
    size = kernel.snapshot_size(batch.n_players, batch.params)
    moves = np.zeros((steps, 3), np.int64)
    snaps = np.zeros((2 * steps + 1, size), np.int64)
    # one more row than moves: a game stopped by an illegal move keeps the state at that decision
    raws = np.zeros((steps + 1, kernel.state_size(batch.n_players, batch.params)), np.int64)
    seats = np.zeros((batch.n_players, batch.seat_width), np.int64)
    game_row = np.zeros(len(batch.spec.game_columns), np.int64)
    status[:] = 0
    _watched(lambda: kernel.record_game(batch.seed, game_index, batch.sids, batch.params,
                                        batch.strategy_params, moves, snaps, raws, seats, game_row, status),
             batch, game_index, status, decision_time_limit)
    extra = {}
    if status[ST_ILLEGAL] != 0:
        if not stop_at_illegal:
            raise_illegal(batch, status)
        extra["illegal"] = {"kind": int(status[ST_KIND]), "seat": int(status[ST_SEAT]),
                            "move": int(status[ST_MOVE])}
    return Record(batch, game_index, moves, snaps, raws, seats, game_row, extra)


#: How often the watching thread reads the decision under way (seconds).
_WATCH_S = 0.05


def _watched(call: Callable[[], Any], batch: Batch, game_index: int, status: np.ndarray,
             decision_time_limit: float | None) -> Any:
    """``call()``, a compiled replay of game ``game_index``, on a thread of its own, while this
    thread reads the decision under way from ``status`` (``ST_STEP``, ``ST_DECIDER``, written
    by the replay loop before each decision: simcards.kernels) and raises TimeLimitError when
    one has taken more than ``decision_time_limit`` seconds. A decision that never returns
    keeps its thread (a daemon: it does not hold the process at exit); the CLI leaves at once.
    An exception in the compiled code is the strategy's, named in one line."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["result"] = call()
        except BaseException as exc:  # noqa: BLE001 (handed to the watching thread)
            box["error"] = exc

    worker = threading.Thread(target=target, name="simcards-replay", daemon=True)
    worker.start()
    step, since = -1, time.monotonic()
    while True:
        worker.join(_WATCH_S)
        if not worker.is_alive():
            break
        now, current = time.monotonic(), int(status[ST_STEP])
        if current != step:
            step, since = current, now
        elif decision_time_limit is not None and step > 0 and now - since > decision_time_limit:
            seat = int(status[ST_DECIDER])
            info = batch.infos[int(batch.sids[seat])]
            raise TimeLimitError(
                f"strategy file {info.path}: strategy {batch.strategies[seat]!r} did not return within "
                f"the decision time limit of {decision_time_limit:g} s in {batch.spec.name} (seat {seat}, "
                f"game index {game_index}, seed {batch.seed}, decision {step - 1} of the game)")
    error = box.get("error")
    if error is not None:
        if isinstance(error, SimcardsError) or not isinstance(error, Exception):
            raise error
        raise strategy_raised(batch, error, [game_index]) from None
    return box["result"]


def _new_reference(batch: Batch, game_index: int):
    return batch.spec.reference.Game(batch.n_players, batch.rules, batch.seed, game_index)


def _check(label: str, step: int, ref_state: list[int], fast_state: np.ndarray) -> None:
    ref = np.asarray(ref_state, dtype=np.int64)
    if ref.shape != fast_state.shape or not np.array_equal(ref, fast_state):
        diff = np.flatnonzero(ref != fast_state)[:8] if ref.shape == fast_state.shape else "size"
        raise ReplayMismatch(f"state differs {label} step {step} at positions {diff}: "
                             f"reference {ref.tolist()} fast {fast_state.tolist()}")


def _check_decision(rec: Record, step: int, ref, kind: int, seat: int) -> None:
    """Both engines list the same legal moves, and the reference engine's view holds exactly
    what the layout lets the seat see: every public field and the seat's own rows equal the
    fast engine's state, every other field is zero."""
    spec = rec.batch.spec
    fast = spec.fast
    raw = rec.raws[step]
    out = np.zeros(raw.shape[0] + 4096, np.int64)
    count = fast.legal_moves(raw, out)
    fast_legal = sorted(out[:count].tolist())
    ref_legal = sorted(ref.legal_moves())
    if fast_legal != ref_legal:
        raise ReplayMismatch(f"step {step}: legal moves differ: reference {ref_legal}, fast {fast_legal}")
    # the kernel checks a strategy's answer with is_legal: it must agree with the list
    listed = set(fast_legal)
    probes = fast_legal + [m for m in (min(fast_legal) - 1, max(fast_legal) + 1, -1, 0, 1, 63)
                           if m not in listed]
    wrong = [m for m in probes if bool(fast.is_legal(raw, kind, m)) != (m in listed)]
    if wrong:
        raise ReplayMismatch(f"step {step}: fast is_legal disagrees with legal_moves on {wrong[:4]}")
    view = ref.view(kind)
    mine = np.asarray(view.s, dtype=np.int64)
    if mine.shape != raw.shape:
        raise ReplayMismatch(f"step {step}: the reference view has {mine.shape[0]} fields, "
                             f"the fast state {raw.shape[0]}")
    visible, check = _masks(spec.view.LAYOUT, seat, raw.shape[0])
    if not np.array_equal(mine[check], raw[check]):
        names = _field_names(spec.view.LAYOUT, np.flatnonzero(check & (mine != raw))[:4])
        raise ReplayMismatch(f"step {step}: the reference view differs from the fast state in "
                             f"public fields {names}")
    if np.any(mine[~visible]):
        names = _field_names(spec.view.LAYOUT, np.flatnonzero(~visible & (mine != 0))[:4])
        raise ReplayMismatch(f"step {step}: the reference view shows hidden fields {names} to seat {seat}")


@functools.lru_cache(maxsize=256)
def _masks(layout, seat: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    """What ``seat`` may see, and the part of it both engines must hold alike (not the
    strategy's memory, which the twin test checks)."""
    visible = layout.visible_to(seat, size)
    m = layout.field("MEMORY")
    check = visible.copy()
    check[m.offset:m.offset + m.size] = False
    return visible, check


def _field_names(layout, positions) -> list[str]:
    out = []
    for pos in positions:
        for f in layout.fields:
            if f.offset <= pos and (f.shape == (0,) or pos < f.offset + f.size):
                out.append(f"{f.name}[{pos - f.offset}]")
                break
    return out


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
        _check_decision(rec, step, ref, kind, seat)
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
    import importlib
    batch = batch or prepare(game, strategies, seed, rules)
    funcs, with_params = {}, {}
    for info in batch.infos:
        funcs[info.name], with_params[info.name] = {}, {}
        for d in batch.spec.decisions:
            module, function = decision_function(batch.spec, info, d)
            fn = getattr(importlib.import_module(module), function)
            funcs[info.name][d.name] = getattr(fn, "py_func", fn)
            with_params[info.name][d.name] = takes_params(fn)
    decisions = [d.name for d in batch.spec.decisions]
    memory_at = batch.spec.view.MEMORY
    srng = PyRandom(batch.seed, game_index, STREAM_STRATEGY).as_array()
    ref = _new_reference(batch, game_index)
    moves = []
    while (decision := ref.next_decision()) is not None:
        kind, seat = decision
        name = batch.strategies[seat]
        file = batch.infos[batch.sids[seat]].name
        view = ref.view(kind)
        args = (view, srng, batch.strategy_params[seat]) if with_params[file][decisions[kind]] else (view, srng)
        try:
            move = int(funcs[file][decisions[kind]](*args))
        except Exception as exc:     # a user's code: one line naming it, the game and the seat
            raise StrategyError(f"{_raised_at(exc, batch.infos[batch.sids[seat]])}: strategy {name!r} "
                                f"raised {_exception(exc)} in {batch.spec.name} (seat {seat}, game index "
                                f"{game_index}, seed {batch.seed})") from exc
        save_memory(view.s, memory_at, seat, ref.memory[seat])
        try:
            ref.apply(kind, move)
        except IllegalMove as exc:
            raise IllegalMoveError(batch.spec.name, name, game_index, batch.seed, seat,
                                   f"{move} ({batch.spec.describe_move(kind, move)})", str(exc)) from None
        moves.append((kind, seat, move))
    return ref, moves


def _exception(exc: BaseException) -> str:
    """'ValueError: boom' on one line."""
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _raised_at(exc: BaseException, info) -> str:
    """'strategy file F line N' of the deepest frame of the exception in the strategy's file or
    its folder (a helper it imports), else the strategy's file alone."""
    import traceback
    from pathlib import Path
    folder = info.path.parent.resolve()
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        path = Path(frame.filename).resolve()
        if path.parent == folder:
            return f"strategy file {path} line {frame.lineno}"
    return f"strategy file {info.path}"


# ------------------------------------------------------------------ a kernel that raised
def strategy_raised(batch: Batch, exc: BaseException, games: Sequence[int] | None = None,
                    kernel=None) -> SimcardsError:
    """The one line for an exception raised in a kernel (a strategy's ``raise``, an index past
    an array's end: user strategies are compiled with bounds checks, simcards.kernels):
    the first game of ``games`` that raises it, found by playing them again one at a time (a
    chunk's worth of games, on the failure path only), then that game played by the
    plain-Python twin (simcards.replay.play_reference), which raises the same exception with
    the strategy's file and line. Where the twin does not raise it, the line names the game
    and the line-up's strategies."""
    what = f"{type(exc).__name__}: {exc}".rstrip(": ")
    game = None
    if games is not None and kernel is None and len(games) == 1:
        game = games[0]
    elif games is not None and kernel is not None:
        seat_out = np.zeros((1, batch.n_players, batch.seat_width), np.int64)
        game_out = np.zeros((1, len(batch.spec.game_columns)), np.int64)
        for g in games:
            try:
                kernel.play_batch(batch.seed, g, 1, batch.sids, batch.params, batch.strategy_params,
                                  seat_out, game_out, np.zeros(STATUS_SIZE, np.int64), new_stop_flag())
            except Exception:        # noqa: BLE001 (the kernel's exception, whatever its class)
                game = g
                break
    if game is not None:
        try:
            play_reference(batch.spec.name, batch.strategies, batch.seed, game, batch.rules, batch=batch)
        except SimcardsError as found:      # the twin names the strategy, its file and line
            if isinstance(found, StrategyError):
                return found
        except Exception:                   # noqa: BLE001 (the twin failed otherwise: say what we know)
            pass
    where = f"game index {game}" if game is not None else "a game"
    return StrategyError(
        f"{where} of {batch.spec.name} (seed {batch.seed}) raised {what} in compiled code; "
        f"its strategies: {describe_strategies(batch.infos)}")
