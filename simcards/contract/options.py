"""Rule options: declared once per game, validated once per run, never parsed in a kernel.

A game declares its options once, in ``rules.py``'s ``OPTIONS``. Everything else is derived
from that declaration: the CLI's and the API's checks (``resolve_options``), and the int64
parameter row the fast engine receives (``ParamRow``): one slot per option, in the order of
``OPTIONS``, holding the option's ``encode``-d value, then one slot per ``Derived`` value the
game adds (a deck's size). ``ParamRow.slots`` (the game's ``rules.P``) names every slot, as
constants numba compiles in; the state fields that hold a copy of a slot are declared from the
same names (``simcards.compiled.layout.Layout.params``), and ``new_state`` copies them all at
once (``simcards.compiled.engine.copy_params``).
"""
from __future__ import annotations

import keyword
from collections import namedtuple
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from simcards.errors import ContractError, SimcardsError, choices

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


@dataclass(frozen=True)
class RuleOption:
    """One named rule option of a game.

    ``default`` may be a callable of the other resolved options (for example a
    card count that depends on the edition); ``default_text`` then explains it.

    Its slot of the parameter row (``ParamRow``) holds ``int(value)`` for an int or a bool and
    the value's index in ``choices`` for a str, unless ``encode(resolved, n_players)`` says
    otherwise (a value the engine wants derived: the hand size dealt at this table, a choice
    read as a flag). ``seat=k`` marks a seat-compensation option of seat k (k places after
    the first player): its slot holds 0 at a table of k players or fewer, whatever its value.
    """

    name: str
    kind: type  # int, bool or str
    default: Any
    help: str
    choices: tuple = ()
    minimum: int | None = None
    maximum: int | None = None
    default_text: str | None = None
    encode: Callable[[dict, int], int] | None = None
    seat: int | None = None

    def row_value(self, resolved: Mapping[str, Any], n_players: int) -> int:
        """This option's int in the parameter row of a table of ``n_players``."""
        if self.seat is not None and self.seat >= n_players:
            return 0
        if self.encode is not None:
            return int(self.encode(resolved, n_players))
        value = resolved[self.name]
        return self.choices.index(value) if self.kind is str else int(value)

    def describe_default(self) -> str:
        if self.default_text is not None:
            return self.default_text
        if self.kind is bool:
            return "true" if self.default else "false"
        return str(self.default)

    def accepted(self) -> str:
        if self.choices:
            return "one of " + choices(self.choices)
        if self.kind is bool:
            return "true or false"
        lo = "" if self.minimum is None else str(self.minimum)
        hi = "" if self.maximum is None else str(self.maximum)
        return f"an integer {lo}..{hi}" if (lo or hi) else "an integer"

    def convert(self, game: str, value: Any) -> Any:
        """Turn a user value (Python value or CLI string) into the option's type."""
        bad = SimcardsError(
            f"bad value {value!r} for rule option {self.name!r} of {game}: expected {self.accepted()}")
        if self.kind is bool:
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
                return value.strip().lower() in _TRUE
            if isinstance(value, int) and value in (0, 1):
                return bool(value)
            raise bad
        if self.kind is int:
            if isinstance(value, bool):
                raise bad
            if isinstance(value, str):
                try:
                    value = int(value.strip())
                except ValueError:
                    raise bad from None
            if not isinstance(value, int):
                raise bad
            if (self.minimum is not None and value < self.minimum) or (
                    self.maximum is not None and value > self.maximum):
                raise bad
            return value
        if not isinstance(value, str):     # str(["a"]) is no choice of anyone's
            raise bad
        value = value.strip()
        if self.choices and value not in self.choices:
            raise bad
        return value


def resolve_options(game: str, options: tuple[RuleOption, ...],
                    given: Mapping[str, Any] | None) -> dict[str, Any]:
    """Every option of the game with its value: the user's where given, else the default.
    ``given`` is a mapping (``{"lives": 3}``) or None; key=value text is the CLI's
    (``parse_assignments``), refused here rather than half-parsed."""
    from simcards.contract.validate import check_rules
    given = check_rules(given)
    known = {o.name: o for o in options}
    for key in given:
        if key not in known:
            raise SimcardsError(
                f"unknown rule option {key!r} for {game}: accepted are {choices(known)}")
    resolved: dict[str, Any] = {}
    deferred: list[RuleOption] = []
    for opt in options:
        if opt.name in given:
            resolved[opt.name] = opt.convert(game, given[opt.name])
        elif callable(opt.default):
            deferred.append(opt)
        else:
            resolved[opt.name] = opt.default
    for opt in deferred:
        resolved[opt.name] = opt.default(resolved)
    return resolved


def check_deal(n_players: int, hand_size: int, deck: int) -> None:
    """The deck must hold every starting hand."""
    if n_players * hand_size > deck:
        raise SimcardsError(
            f"hand_size={hand_size} for {n_players} players needs {n_players * hand_size} cards "
            f"but the deck has {deck}")


def parse_assignments(pairs: list[str] | None) -> dict[str, str]:
    """``["lives=3", "blitz=true"]`` -> ``{"lives": "3", "blitz": "true"}`` (CLI ``--rule``)."""
    out: dict[str, str] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise SimcardsError(f"bad rule {pair!r}: expected key=value, for example lives=3")
        if key.strip() in out:
            # the last one winning silently hides a typo in a long command line
            raise SimcardsError(f"rule option {key.strip()!r} given twice ({key.strip()}={out[key.strip()]}, "
                                f"{pair.strip()}): expected each option once")
        out[key.strip()] = value.strip()
    return out


OptionDefault = Callable[[dict], Any]


@dataclass(frozen=True)
class Derived:
    """An entry of the parameter row that is no rule option: a value the game derives from the
    resolved options and the player count, for its engine to read like an option's (Five
    Alive's deck size, the sum of its ``count_*`` options; Thirty-One's starting bank)."""

    name: str
    encode: Callable[[dict, int], int]
    help: str = ""

    def row_value(self, resolved: Mapping[str, Any], n_players: int) -> int:
        return int(self.encode(resolved, n_players))


class ParamRow:
    """The int64 row of rule values a game's fast engine receives (no string reaches a kernel):
    one slot per rule option, in the order of ``options``, then one per ``Derived`` value, in the
    order given. ``slots`` names each slot's position, ``slots.lives`` or ``slots.count_0 + k``:
    a named tuple of ints, which numba compiles in as constants. ``encode(resolved, n)`` fills a
    row (``GameSpec.encode_params`` adds the game's ``check_table``)."""

    def __init__(self, options: Sequence[RuleOption], *derived: Derived, name: str = "P"):
        self.options = tuple(options)
        self.derived = tuple(derived)
        self.entries: tuple[RuleOption | Derived, ...] = self.options + self.derived
        names = [e.name for e in self.entries]
        repeated = sorted({n for n in names if names.count(n) > 1})
        if repeated:
            raise ContractError(f"parameter row {name}: {', '.join(repeated)} declared twice")
        for e in self.entries:
            if not e.name.isidentifier() or keyword.iskeyword(e.name) or e.name.startswith("_"):
                raise ContractError(f"parameter row {name}: {e.name!r} cannot name a slot "
                                    "(expected a Python name not starting with _)")
            if isinstance(e, RuleOption):
                if e.kind is str and not e.choices and e.encode is None:
                    raise ContractError(f"rule option {e.name!r} is a str without choices: "
                                        "declare its encode(resolved, n_players)")
                if e.seat is not None and e.seat < 1:
                    raise ContractError(f"rule option {e.name!r}: seat={e.seat}, expected 1 or more "
                                        "(seat 0, the first player, has no compensation)")
        self.slots = namedtuple(name, names)(*range(len(names)))
        self.size = len(names)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ParamRow) and other.entries == self.entries

    def __hash__(self) -> int:
        return hash(self.entries)

    def __repr__(self) -> str:
        return f"ParamRow({', '.join(self.slots._fields)})"

    def slot(self, name: str) -> int:
        try:
            return getattr(self.slots, name)
        except AttributeError:
            raise KeyError(f"the parameter row has no entry {name!r}: "
                           f"accepted are {choices(self.slots._fields)}") from None

    def encode(self, resolved: Mapping[str, Any], n_players: int) -> np.ndarray:
        """The row for these resolved rules at a table of ``n_players``."""
        return np.array([e.row_value(resolved, n_players) for e in self.entries], dtype=np.int64)
