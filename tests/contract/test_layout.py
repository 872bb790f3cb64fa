"""Every game's state layout: built, not numbered by hand; no two fields overlap; the
engine's state array is exactly the layout; seat-private blocks are shaped by seat."""
from __future__ import annotations

import importlib

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


def test_rule_fields_are_declared_from_the_parameter_row_and_hold_it(game, kit):
    """The state's rule settings are the parameter row's entries (``Layout.params``), named
    after them; ``new_state`` copies each one from the row, a seat's compensation as 0 when the
    seat is not at the table."""
    spec = simcards.get_game(game)
    layout, P = spec.view.LAYOUT, spec.param_row.slots
    rules_module = importlib.import_module(spec.package + ".rules")
    assert rules_module.P == P and spec.view.PARAM_COPIES.tolist() == layout.param_copies().tolist()
    copied = [f for f in layout.fields if f.row_slot is not None]
    assert copied, "no field holds a rule setting"
    for f in copied:
        if f.shape == (1,):
            assert getattr(P, f.name) == f.row_slot, f"field {f.name} holds another entry's slot"
    variants = [{}] + [rules for _, rules in kit.rule_variants(game)]
    for n in (spec.min_players, spec.max_players):
        for rules in variants:
            try:
                row = spec.encode_params(spec.resolve_rules(rules), n)
            except simcards.SimcardsError:
                continue            # a variant this table cannot play
            state = spec.fast.new_state(n, row)
            for f in copied:
                held = state[f.offset:f.offset + f.size].tolist()
                assert held == row[f.row_slot:f.row_slot + f.size].tolist(), (rules, n, f.name)
