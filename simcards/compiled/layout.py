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

The fields that hold rule values are declared from the game's parameter row (its
``rules.P``, ``simcards.contract.options.ParamRow``) by the names of its entries, and are
named after them; ``new_state`` copies every one of them from the row in one call::

    LIVES0, BLITZ = L.params(P, "lives", "blitz")  # s[LIVES0] = params[P.lives] ...
    SEAT_LIVES = L.param_block("SEAT_LIVES", P, ("lives_seat1", "lives_seat2"))
    copy_params(s, params, L.param_copies())       # (simcards.compiled.engine) in new_state
"""
from __future__ import annotations

from dataclasses import dataclass
from math import prod
from typing import Sequence


#: Who may read a field: every seat (the table saw it), only the seat whose row it is
#: (a block shaped ``(seats, ...)``: hands, a strategy's memory), or nobody (the stock).
VISIBILITY = ("public", "seat", "hidden")


@dataclass(frozen=True)
class Field:
    name: str
    offset: int
    shape: tuple[int, ...]
    visibility: str = "public"
    row_slot: int | None = None     # the parameter row's slot copied into the field's first int

    @property
    def size(self) -> int:
        return prod(self.shape)


class Layout:
    """An append-only list of named fields; ``size`` is where the next one would start."""

    def __init__(self, name: str):
        self.name = name
        self.fields: list[Field] = []
        self._closed = False
        self._copies = None

    @property
    def size(self) -> int:
        return self.fields[-1].offset + self.fields[-1].size if self.fields else 0

    def _add(self, name: str, shape: tuple[int, ...], visibility: str = "public",
             row_slot: int | None = None) -> int:
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
        self.fields.append(Field(name, offset, tuple(int(d) for d in shape), visibility, row_slot))
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

    def params(self, slots, *names: str, visibility: str = "public") -> tuple[int, ...]:
        """Scalars that hold entries of the game's parameter row, one per name (a rule option
        or a derived value; ``slots`` is the row's ``ParamRow.slots``, the game's ``rules.P``),
        each named after its entry; returns their offsets in order. ``new_state`` copies them
        from the row (``param_copies``)."""
        return tuple(self._add(name, (1,), visibility, _slot(self, slots, name)) for name in names)

    def param_block(self, name: str, slots, entries: Sequence[str], visibility: str = "public") -> int:
        """A block holding consecutive entries of the parameter row (a family of options:
        ``count_0 .. count_life``, ``lives_seat1 .. lives_seat6``), in their row order;
        returns its first offset."""
        first = _slot(self, slots, entries[0]) if entries else None
        for k, entry in enumerate(entries):
            if _slot(self, slots, entry) != first + k:
                raise ValueError(f"layout {self.name}: block {name} holds {entries[0]} .. {entries[-1]}, "
                                 f"but {entry} is not the row's next slot after {entries[k - 1]}")
        return self._add(name, (len(entries),), visibility, first)

    def param_copies(self) -> "np.ndarray":
        """(state offset, row slot) of every int a ``params``/``param_block`` field holds: what
        ``new_state`` copies from the row (``simcards.compiled.engine.copy_params``) and the
        reference engine writes into its views (``write_params``)."""
        import numpy as np
        if self._copies is None or self._copies[0] != len(self.fields):   # append-only: the count says
            pairs = [(f.offset + k, f.row_slot + k) for f in self.fields if f.row_slot is not None
                     for k in range(f.size)]
            self._copies = (len(self.fields), np.array(pairs, dtype=np.int64).reshape(len(pairs), 2))
        return self._copies[1]

    def write_params(self, s: "np.ndarray", row: "np.ndarray") -> None:
        """Copy the parameter row's entries into the state ``s``, as ``new_state`` does (for
        the reference engine, in Python)."""
        copies = self.param_copies()
        s[copies[:, 0]] = row[copies[:, 1]]

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


def _slot(layout: Layout, slots, name: str) -> int:
    """The row slot of entry ``name`` in a ``ParamRow.slots`` named tuple."""
    slot = getattr(slots, name, None) if not name.startswith("_") else None
    if not isinstance(slot, int):
        raise ValueError(f"layout {layout.name}: the parameter row has no entry {name!r} "
                         f"(its entries: {', '.join(getattr(slots, '_fields', ()))})")
    return slot
