"""A replayed game told decision by decision: what the deciding seat saw, what it played,
every hand (``--open``), and, for a game stopped by an illegal move, that move and why
the rules refuse it. ``as_json`` is the same as data, for a bug report.

Views are described from each game's own ``view.py``: every accessor a strategy may
call (``total(view)``, ``lives(view, p)`` per seat, ``held(view, kind)`` per card kind),
so what is shown is exactly what a strategy may read. A game whose view is a tuple
of plain values (Thirty-One) is shown field by field.
"""
from __future__ import annotations

import importlib
import inspect
from dataclasses import dataclass, field
from typing import Any

from simcards.errors import IllegalMove
from simcards.run.replay import Record, replay


@dataclass
class Decision:
    step: int
    seat: int
    strategy: str
    decision: str
    view: dict[str, Any]
    move: int
    move_text: str
    log: list[str]                       # what happened since the previous decision
    hands: list[str]                     # every hand at this decision
    illegal: str | None = None           # why the rules refuse the move (the last decision only)


@dataclass
class Story:
    game: str
    title: str
    seed: int
    game_index: int
    strategies: list[str]
    rules: dict[str, Any]
    decisions: list[Decision] = field(default_factory=list)
    end_log: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None  # None when an illegal move stopped the game


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return int(value) if hasattr(value, "__index__") and not isinstance(value, bool) else value


def _card_names(spec) -> tuple[str, ...]:
    return tuple(getattr(importlib.import_module(spec.package + ".rules"), "CARD_NAMES", ()))


def describe_hand(spec, hand: list[int]) -> str:
    """A hand as card names: counts per kind (most games) or a list of card ids (Thirty-One)."""
    names = _card_names(spec)
    rules = importlib.import_module(spec.package + ".rules")
    if len(hand) == getattr(rules, "N_KINDS", -1):
        cards = [f"{c}x{names[k] if k < len(names) else k}" if c > 1 else (names[k] if k < len(names) else str(k))
                 for k, c in enumerate(hand) if c]
    else:
        cards = [names[c] if 0 <= c < len(names) else str(c) for c in hand]
    return " ".join(cards) if cards else "(empty)"


def _accessors(spec) -> list[tuple[str, Any, list[str]]]:
    try:
        module = importlib.import_module(spec.package + ".view")
    except ImportError:
        return []
    found = []
    for name, func in vars(module).items():
        py = getattr(func, "py_func", None)
        if name.startswith("_") or py is None or py.__module__ != module.__name__:
            continue
        params = list(inspect.signature(py).parameters)
        if params and params[0] == "view":
            found.append((name, py, params[1:]))
    return found


def describe_view(spec, view: Any, n_players: int) -> dict[str, Any]:
    """What the deciding seat may see, read through the game's accessors only."""
    fields = getattr(view, "_fields", ())
    # a view over the state array is (s, seat, ...): Five Alive's also carries its legal mask
    if fields and fields[:2] != ("s", "seat"):      # a tuple of plain values
        return {f: _plain(getattr(view, f)) for f in fields}
    rules = importlib.import_module(spec.package + ".rules")
    kinds = range(getattr(rules, "N_KINDS", 0))
    names = _card_names(spec)
    shown: dict[str, Any] = {}
    for name, func, rest in _accessors(spec):
        if not rest:
            shown[name] = _plain(func(view))
        elif rest in (["p"], ["seat"]):
            shown[name] = [_plain(func(view, p)) for p in range(n_players)]
        elif rest == ["kind"] and kinds:
            counts = {(names[k] if k < len(names) else str(k)): _plain(func(view, k)) for k in kinds}
            shown[name] = {k: c for k, c in counts.items() if c}
    return shown


def tell(rec: Record) -> Story:
    """Replay ``rec`` through the reference engine (checked against the fast engine at every
    move) and keep, at every decision, the view, the move and every hand."""
    batch = rec.batch
    spec = batch.spec
    describe = spec.describe_move
    story = Story(spec.name, spec.title, batch.seed, rec.game_index, list(batch.strategies),
                  dict(batch.rules))
    seen = [0]   # log lines already told

    def decision(ref, step: int, kind: int, seat: int, move: int, illegal: str | None = None) -> None:
        story.decisions.append(Decision(
            step, seat, batch.strategies[seat], spec.decisions[kind].name,
            describe_view(spec, ref.view(kind), batch.n_players), move, describe(kind, move),
            ref.log[seen[0]:], [describe_hand(spec, list(h)) for h in ref.hands], illegal))
        seen[0] = len(ref.log)

    ref = replay(rec, on_decision=decision)
    if "illegal" in rec.extra:
        bad = rec.extra["illegal"]
        before = len(story.decisions)
        decision(ref, len(rec.moves), bad["kind"], bad["seat"], bad["move"])
        try:
            ref.apply(bad["kind"], bad["move"])
            why = "the reference engine accepts it: the engines disagree"
        except IllegalMove as exc:     # the reference engine says why
            why = str(exc)
        story.decisions[before].illegal = why
        return story
    story.end_log = ref.log[seen[0]:]
    seats, game_row = ref.result()
    story.result = {"seats": [{"seat": p, "win": bool(row[0]), "rank": row[1],
                               **dict(zip(spec.seat_columns, row[2:]))} for p, row in enumerate(seats)],
                    "game": dict(zip(spec.game_columns, game_row))}
    return story


def as_json(story: Story) -> dict[str, Any]:
    """The story as plain data: every decision, the view the strategy saw, the move."""
    return {"game": story.game, "seed": story.seed, "game_index": story.game_index,
            "strategies": story.strategies, "rules": story.rules,
            "decisions": [vars(d) for d in story.decisions], "end_log": story.end_log,
            "result": story.result,
            "illegal": next((vars(d) for d in story.decisions if d.illegal), None)}


def as_lines(story: Story, open_hands: bool) -> list[str]:
    """The story in words: the game's own log, and with ``open_hands`` every hand and the
    deciding seat's view at each decision."""
    lines = [f"{story.title}, seed {story.seed}, game {story.game_index}, seats: "
             + ", ".join(f"{i}={s}" for i, s in enumerate(story.strategies))]
    for d in story.decisions:
        lines += d.log
        if open_hands:
            lines.append(f"  [hands] " + "; ".join(f"seat {p}: {h}" for p, h in enumerate(d.hands)))
            lines.append(f"  [seat {d.seat} ({d.strategy}) sees for {d.decision}] "
                         + ", ".join(f"{k}={v}" for k, v in d.view.items()))
        if d.illegal:
            lines.append(f"ILLEGAL: seat {d.seat} ({d.strategy}) chose {d.move} ({d.move_text}) "
                         f"for {d.decision}: {d.illegal}")
    lines += story.end_log
    return lines
