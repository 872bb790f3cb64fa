"""Seat-order designs: which seat orders every deal is played in.

A design is a list of permutations of range(n); order ``perm`` seats
``lineup[perm[seat]]`` in ``seat``. Every design here is balanced for seats
(each position of the line-up sits in each seat equally often) and for
immediate neighbours (each ordered pair of positions sits side by side, the
first directly before the second, equally often), so a strategy's result over
the design is net of both its seat and of whom it follows.

Up to 4 players all n! orders are played (at most 24); above that a Williams
design: n orders for even n, 2n for odd n (a Williams square and its mirror).
"""
from __future__ import annotations

import itertools
from typing import Sequence

from simcards.errors import SimcardsError

#: Player counts up to this play every seat order.
ALL_ORDERS_UP_TO = 4


def williams_design(n: int) -> list[tuple[int, ...]]:
    """Williams' balanced Latin square(s) of order ``n`` (rows are seat orders).

    The first row is 0, 1, n-1, 2, n-2, ...; row r adds r to every entry mod n.
    For even n each ordered pair of neighbours occurs exactly once; for odd n the
    reversed rows are added, and each occurs exactly twice.
    """
    if n < 1:
        raise SimcardsError(f"bad player count {n!r}: expected 1 or more")
    first, lo, hi = [0], 1, n - 1
    while len(first) < n:
        first.append(lo)
        lo += 1
        if len(first) < n:
            first.append(hi)
            hi -= 1
    rows = [tuple((x + r) % n for x in first) for r in range(n)]
    if n % 2:
        rows += [tuple(reversed(row)) for row in rows]
    return rows


def seat_orders(n: int) -> list[tuple[int, ...]]:
    """The design for ``n`` players: all orders for n <= 4, else Williams."""
    if n <= ALL_ORDERS_UP_TO:
        return list(itertools.permutations(range(n)))
    return williams_design(n)


def arrange(lineup: Sequence[str], order: Sequence[int]) -> tuple[str, ...]:
    """The line-up seated in ``order``: seat s gets ``lineup[order[s]]``."""
    return tuple(lineup[i] for i in order)


def rotated_lineups(lineup: Sequence[str]) -> list[tuple[str, ...]]:
    """Every seating of ``lineup`` the design plays.

    With all orders (n <= 4) identical seatings (a strategy held twice) are kept
    once: the distinct arrangements of a multiset are each equally frequent
    among all orders, so dropping repeats keeps the balance. Williams rows are
    kept as they are (repeats included), since dropping them could unbalance it.
    """
    lineup = tuple(lineup)
    seatings = [arrange(lineup, o) for o in seat_orders(len(lineup))]
    if len(lineup) <= ALL_ORDERS_UP_TO:
        return list(dict.fromkeys(seatings))
    return seatings


def is_balanced(seatings: Sequence[Sequence[str]]) -> bool:
    """Each strategy equally often in each seat, relative to how many seats it holds."""
    if not seatings:
        return True
    n = len(seatings[0])
    counts: dict[tuple[str, int], int] = {}
    for row in seatings:
        for seat, name in enumerate(row):
            counts[(name, seat)] = counts.get((name, seat), 0) + 1
    names = {name for name, _ in counts}
    return all(len({counts.get((name, s), 0) for s in range(n)}) == 1 for name in names)


def pool_lineups(pool: Sequence[str], seats: int, lead: str | None = None) -> list[tuple[str, ...]]:
    """Line-ups of ``seats`` strategies drawn from ``pool``, each member as often as the
    others, before seating (``rotated_lineups`` seats each one). Reports and tune both draw
    their line-ups here.

    Without ``lead`` (a report's tournament): every set of ``seats`` distinct members, in the
    pool's order; a pool smaller than that is repeated to fill the seats (one line-up).

    With ``lead`` (``simcards tune``: one candidate against the pool): the lead, then a window of
    ``seats - 1`` members, each member leading a window in turn; the same window twice is kept
    once. Windows, not every set: every trial plays every line-up, and k windows stay k where
    every set would grow as C(k, seats - 1)."""
    k = len(pool)
    if lead is not None:
        out: list[tuple[str, ...]] = []
        for j in range(k if k > seats - 1 else 1):
            lineup = (lead, *(pool[(j + i) % k] for i in range(seats - 1)))
            if lineup not in out:
                out.append(lineup)
        return out
    if k >= seats:
        return list(itertools.combinations(pool, seats))
    return [tuple(pool[seat % k] for seat in range(seats))]
