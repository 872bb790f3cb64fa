"""Run-time strategy parameters: ``name:key=value:key=value``.

A strategy file may declare its parameters as a literal dict (read without importing
the file, so ``simcards strategies GAME`` lists them even beside a broken file)::

    PARAMS = {
        "budget": (400, 1, 100_000, "rollouts per decision"),
        "margin": (0.0, 0.0, 5.0, "standard errors another card must win by"),
    }

``name: (default, low, high, help)``; a parameter whose default and bounds are all
integers takes integers only. Its decision functions then take a third argument,
``params``: the seat's row of values, float64, in the declared order (``slot`` turns a
name into its position at import time). The values are handed to the compiled kernel as
a row per seat, never baked into the code: a new value compiles nothing, which tuning
(thousands of values) needs.

On the command line and in the API a seat's strategy is its name, optionally followed
by ``:key=value`` pairs, e.g. ``search:budget=800`` or ``expert:margin=1.5``. Keys left
out keep their defaults. The canonical form (what frames and reports show) lists only
values that differ from the default, in the declared order; ``expert:margin=0`` is
``expert`` when 0 is the default.

A strategy file may also be an alias, ``ALIAS = "expert:danger=3"`` (see ``read_alias``):
the tuned strategies ``simcards tune`` writes are such files.

Tables after the values: a strategy may need data too large or too costly for parameters,
built by simulation (Five Alive's ``search:eval=2`` scores a round's end by a table of the
chance to win from everyone's lives). It defines ``table_for(n_players, game_params, row)``
returning a ``TableRequest`` (below) or None; simcards.tables builds the table once per key,
caches it on disk and appends it to that seat's row, so ``params[len(PARAMS):]`` is the
table, in the kernel and in the reference twin alike. Like a value, a table is data handed
at run time: a new one compiles nothing. Rows stay padded with zeros to the widest.
"""
from __future__ import annotations

import ast
import math
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Callable, Mapping

import numpy as np

from simcards.errors import SimcardsError, choices

#: Separates a strategy's name from its parameters, and one parameter from the next.
SEPARATOR = ":"


@dataclass(frozen=True)
class Param:
    """One run-time parameter of a strategy."""

    name: str
    default: float
    low: float
    high: float
    help: str
    integer: bool

    def accepted(self) -> str:
        kind = "an integer" if self.integer else "a number"
        return f"{kind} {_fmt(self.low, self.integer)}..{_fmt(self.high, self.integer)}"

    def parse(self, text: str, strategy: str) -> float:
        """The value of ``key=text``; one-line SimcardsError naming the value and the range."""
        bad = SimcardsError(f"bad value {text!r} for parameter {self.name!r} of strategy "
                            f"{strategy!r}: expected {self.accepted()}")
        try:
            value = int(text) if self.integer else float(text)
        except ValueError:
            raise bad from None
        if not math.isfinite(value) or not self.low <= value <= self.high:
            raise bad
        return float(value)


def _fmt(value: float, integer: bool) -> str:
    return str(int(value)) if integer else format(float(value), "g")


def _number(node: ast.AST) -> float | int:
    value = ast.literal_eval(node)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError("not a number")
    return value


def read_params(tree: ast.Module) -> tuple[Param, ...]:
    """The ``PARAMS`` literal of a parsed strategy file (empty if it declares none).
    Raises ValueError with what is wrong."""
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, ast.AnnAssign) and node.value is not None else []
        if not any(isinstance(t, ast.Name) and t.id == "PARAMS" for t in targets):
            continue
        if not isinstance(node.value, ast.Dict):
            raise ValueError(f"line {node.lineno}: PARAMS must be a literal dict "
                             "{name: (default, low, high, help)}")
        out = []
        for key, value in zip(node.value.keys, node.value.values):
            if not (isinstance(key, ast.Constant) and isinstance(key.value, str) and key.value.isidentifier()):
                raise ValueError(f"line {node.lineno}: PARAMS keys must be identifiers in quotes")
            if not (isinstance(value, ast.Tuple) and len(value.elts) == 4):
                raise ValueError(f"line {value.lineno}: PARAMS[{key.value!r}] must be "
                                 "(default, low, high, help)")
            try:
                default, low, high = (_number(e) for e in value.elts[:3])
                help_text = ast.literal_eval(value.elts[3])
            except ValueError:
                raise ValueError(f"line {value.lineno}: PARAMS[{key.value!r}]: default, low and "
                                 "high must be numbers and help a string") from None
            if not isinstance(help_text, str) or not low <= default <= high:
                raise ValueError(f"line {value.lineno}: PARAMS[{key.value!r}]: expected low <= "
                                 "default <= high and a help string")
            integer = all(isinstance(v, int) for v in (default, low, high))
            out.append(Param(key.value, float(default), float(low), float(high), help_text, integer))
        return tuple(out)
    return ()


def read_alias(tree: ast.Module) -> str:
    """The ``ALIAS`` string of a parsed strategy file ("" if none): a file holding only
    ``ALIAS = "expert:danger=3"`` is a strategy of its own name that plays ``expert`` with
    those values (``simcards tune`` writes such files: a tuned strategy compiles nothing)."""
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "ALIAS"
                                                 for t in node.targets):
            if not (isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)):
                raise ValueError(f"line {node.lineno}: ALIAS must be a string, e.g. 'expert:danger=3'")
            return node.value.value.strip()
    return ""


@dataclass(frozen=True)
class TableRequest:
    """A table a seat needs: ``build(compiled)`` makes it (float64, 1-D, deterministic).

    ``entries``: the compiled (``@njit``) functions the build calls. ``compiled`` hands them
    back, by name, as entry points of a generated module that numba caches on disk (its
    name carries the sources' hash, as a kernel's): a later build, in any process, loads
    their machine code instead of compiling the engine and the strategies again."""

    name: str                       # what it is, for messages ("value table")
    key: str                        # what of the seat's values it depends on ("rollout=expert")
    build: Callable[[SimpleNamespace], np.ndarray]
    entries: tuple = ()


def slot(params: Mapping[str, tuple], name: str) -> int:
    """Position of parameter ``name`` in a strategy's row (for module-level constants)."""
    return list(params).index(name)


def default_row(params: Mapping[str, tuple]) -> np.ndarray:
    """A strategy's row of default values (for calling its functions directly, e.g. in tests),
    read-only as the kernel's rows are (simcards.batch.Batch), so that a call compiles nothing
    the kernel did not."""
    row = np.array([float(v[0]) for v in params.values()], np.float64)
    row.setflags(write=False)
    return row


def split(text: str) -> tuple[str, dict[str, str]]:
    """``'search:budget=800'`` -> ``('search', {'budget': '800'})``; bad syntax raises."""
    name, *pairs = text.strip().split(SEPARATOR)
    given: dict[str, str] = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not key or not value:
            raise SimcardsError(f"bad strategy {text!r}: expected name:key=value:key=value, "
                                f"e.g. search:budget=800")
        if key in given:
            raise SimcardsError(f"bad strategy {text!r}: parameter {key!r} given twice")
        given[key] = value
    return name.strip(), given


def resolve(name: str, declared: tuple[Param, ...], given: Mapping[str, str], text: str
            ) -> tuple[str, np.ndarray]:
    """(canonical name, row of values in declared order) of one seat's strategy."""
    unknown = [k for k in given if k not in {p.name for p in declared}]
    if unknown:
        accepted = choices(p.name for p in declared) if declared else "none (it takes no parameters)"
        raise SimcardsError(f"unknown parameter {unknown[0]!r} of strategy {name!r} in {text!r}: "
                            f"accepted are {accepted}")
    row = np.array([p.parse(given[p.name], name) if p.name in given else p.default
                    for p in declared], np.float64)
    return canonical(name, declared, row), row


def canonical(name: str, declared: tuple[Param, ...], row: np.ndarray) -> str:
    """The name with the values that differ from the defaults, in declared order."""
    parts = [name] + [f"{p.name}={_fmt(v, p.integer)}" for p, v in zip(declared, row)
                      if v != p.default]
    return SEPARATOR.join(parts)


def describe(declared: tuple[Param, ...]) -> str:
    """``budget=400 (an integer 1..100000: rollouts per decision); ...`` for listings."""
    return "; ".join(f"{p.name}={_fmt(p.default, p.integer)} ({p.accepted()}: {p.help})"
                     for p in declared)
