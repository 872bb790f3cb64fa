"""State layouts: named scalars and blocks laid end to end in one flat int64 array.

A fast engine keeps its whole state in one int64 array (docs/architecture.md says
why). Every field is an offset into it. Numbering offsets by hand let two fields
overlap silently when a block grew; here a game declares its fields in order and
the builder hands out the offsets, so fields can never overlap and a block's size
comes from the rules (``MAX_PLAYERS``, ``N_KINDS``...), not from arithmetic in a
comment. The offsets are plain Python ints, which numba freezes as constants.

Modelled on OpenSpiel's observer, which builds one flat tensor from named
``(name, size, shape)`` pieces::

    L = Layout("five-alive")
    N, TOTAL, DIR = L.scalars("N", "TOTAL", "DIR")
    LIVES = L.block("LIVES", MAX_PLAYERS)          # s[LIVES + p]
    HANDS = L.block("HANDS", MAX_PLAYERS, N_KINDS)  # s[HANDS + p * N_KINDS + kind]
    STOCK = L.tail("STOCK")                        # variable length: sized by new_state
"""
from __future__ import annotations

from dataclasses import dataclass
from math import prod


#: Who may read a field: every seat (the table saw it), only the seat whose row it is
#: (a block shaped ``(seats, ...)``: hands, a strategy's memory), or nobody (the stock).
VISIBILITY = ("public", "seat", "hidden")


@dataclass(frozen=True)
class Field:
    name: str
    offset: int
    shape: tuple[int, ...]
    visibility: str = "public"

    @property
    def size(self) -> int:
        return prod(self.shape)


class Layout:
    """An append-only list of named fields; ``size`` is where the next one would start."""

    def __init__(self, name: str):
        self.name = name
        self.fields: list[Field] = []
        self._closed = False

    @property
    def size(self) -> int:
        return self.fields[-1].offset + self.fields[-1].size if self.fields else 0

    def _add(self, name: str, shape: tuple[int, ...], visibility: str = "public") -> int:
        if self._closed:
            raise ValueError(f"layout {self.name}: {name} declared after the variable-length tail")
        if any(f.name == name for f in self.fields):
            raise ValueError(f"layout {self.name}: field {name} declared twice")
        if any(int(d) != d or d < 0 for d in shape):
            raise ValueError(f"layout {self.name}: field {name} has a bad shape {shape}")
        if visibility not in VISIBILITY:
            raise ValueError(f"layout {self.name}: field {name} has visibility {visibility!r}, "
                             f"expected one of {VISIBILITY}")
        if visibility == "seat" and len(shape) < 2:
            raise ValueError(f"layout {self.name}: seat-private field {name} needs a (seats, ...) shape")
        offset = self.size
        self.fields.append(Field(name, offset, tuple(int(d) for d in shape), visibility))
        return offset

    def scalar(self, name: str, visibility: str = "public") -> int:
        """One int64; returns its offset."""
        return self._add(name, (1,), visibility)

    def scalars(self, *names: str, visibility: str = "public") -> tuple[int, ...]:
        """Several scalars in a row; returns their offsets in order."""
        return tuple(self.scalar(n, visibility) for n in names)

    def block(self, name: str, *shape: int, visibility: str = "public") -> int:
        """A block of ``prod(shape)`` int64s, row-major; returns its first offset.
        ``visibility="seat"``: row p belongs to seat p alone (shape ``(seats, ...)``)."""
        return self._add(name, shape, visibility)

    def tail(self, name: str, visibility: str = "hidden") -> int:
        """The last field, of a length only known at run time (``new_state`` sizes the
        array as ``offset + length``). Nothing may follow it. Hidden unless said otherwise:
        it usually holds the stock."""
        offset = self._add(name, (0,), visibility)
        self._closed = True
        return offset

    def field(self, name: str) -> Field:
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(f"layout {self.name} has no field {name!r}")

    def visible_to(self, seat: int, size: int) -> "np.ndarray":
        """Boolean mask over a state array of ``size`` int64s: what ``seat`` may read
        (public fields and its own rows of seat-private blocks). The contract tests use
        it to check that a view carries every public fact and no hidden one."""
        import numpy as np
        mask = np.zeros(size, bool)
        for f in self.fields:
            end = size if f.shape == (0,) else f.offset + f.size
            if f.visibility == "public":
                mask[f.offset:end] = True
            elif f.visibility == "seat":
                row = f.size // f.shape[0]
                mask[f.offset + seat * row:f.offset + (seat + 1) * row] = True
        return mask

    def describe(self) -> list[tuple[str, int, tuple[int, ...]]]:
        """(name, offset, shape) of every field, for documentation and tests."""
        return [(f.name, f.offset, f.shape) for f in self.fields]
