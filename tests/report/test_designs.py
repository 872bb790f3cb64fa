"""Seat-order designs: balanced for seats and immediate neighbours."""
from __future__ import annotations

from collections import Counter

import pytest

from simcards.designs import is_balanced, rotated_lineups, seat_orders, williams_design
from simcards.rotation import should_rotate


@pytest.mark.parametrize("n", range(2, 9))
def test_every_design_balances_seats_and_neighbours(n):
    rows = seat_orders(n)
    assert all(sorted(r) == list(range(n)) for r in rows)
    seats = Counter((r[s], s) for r in rows for s in range(n))
    assert len(seats) == n * n and len(set(seats.values())) == 1
    pairs = Counter((r[s], r[s + 1]) for r in rows for s in range(n - 1))
    assert len(pairs) == n * (n - 1) and len(set(pairs.values())) == 1


def test_williams_sizes():
    assert len(williams_design(6)) == 6 and len(williams_design(7)) == 14
    assert len(seat_orders(4)) == 24


def test_rotated_lineups_balance_repeated_strategies():
    for lineup in (("a", "b", "a"), ("a", "b", "c", "a", "b"), ("x", "y", "z", "w", "x", "y", "z")):
        assert is_balanced(rotated_lineups(lineup))
    assert not is_balanced([("a", "b"), ("a", "b")])


def test_rotation_defaults():
    assert should_rotate(None, ["a", "b"]) and not should_rotate(None, ["a", "a"])
    # --summary-only plays the same design as the run with rows (issue 49)
    assert should_rotate(None, ["a", "b"], summary_only=True)
    assert should_rotate(True, ["a", "b"], summary_only=True)
    assert not should_rotate(False, ["a", "b"])
    assert not should_rotate(False, ["a", "b"], summary_only=True)
