"""Every game's state layout: built, not numbered by hand; no two fields overlap; the
engine's state array is exactly the layout; seat-private blocks are shaped by seat."""
from __future__ import annotations

import numpy as np

import simcards
from simcards.engine import MEMORY_SLOTS


def test_fields_tile_the_state_without_overlap(game, kit):
    spec = simcards.get_game(game)
    layout = spec.view.LAYOUT
    end = 0
    for f in layout.fields:
        assert f.offset == end, f"{f.name} does not start where the previous field ends"
        end = f.offset + f.size
    tail = layout.fields[-1]
    for n in (spec.min_players, spec.max_players):
        params = spec.encode_params(spec.resolve_rules({}), n)
        state = spec.fast.new_state(n, params)
        assert state.dtype == np.int64 and state.shape[0] >= tail.offset


def test_memory_is_a_seat_private_block(game):
    spec = simcards.get_game(game)
    memory = spec.view.LAYOUT.field("MEMORY")
    assert memory.visibility == "seat" and memory.shape == (spec.max_players, MEMORY_SLOTS)
    assert spec.view.MEMORY == memory.offset


def test_a_seat_sees_its_own_rows_and_no_one_elses(game):
    spec = simcards.get_game(game)
    layout = spec.view.LAYOUT
    size = layout.size + 10
    for f in layout.fields:
        if f.visibility != "seat":
            continue
        row = f.size // f.shape[0]
        for seat in (0, 1):
            mask = layout.visible_to(seat, size)
            assert mask[f.offset + seat * row:f.offset + (seat + 1) * row].all()
            other = 1 - seat
            assert not mask[f.offset + other * row:f.offset + (other + 1) * row].any()
