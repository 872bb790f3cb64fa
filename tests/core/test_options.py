import re

import numpy as np
import pytest

from simcards.contract.options import Derived, ParamRow, RuleOption
from simcards.errors import ContractError, SimcardsError
from simcards.options import parse_assignments
from simcards.registry import get_game


def test_defaults_resolve_every_option():
    spec = get_game("five-alive")
    rules = spec.resolve_rules(None)
    assert set(rules) == {o.name for o in spec.options}
    assert rules["lives"] == 5 and rules["blitz"] is False and rules["count_killer"] == 1


def test_cli_strings_are_converted():
    spec = get_game("five-alive")
    rules = spec.resolve_rules(parse_assignments(["lives=3", "blitz=yes", "edition=russian"]))
    assert rules["lives"] == 3 and rules["blitz"] is True and rules["count_life"] == 2


@pytest.mark.parametrize("given, words", [
    ({"livez": 3}, ["'livez'", "accepted are", "lives"]),
    ({"lives": 0}, ["0", "lives", "1..99"]),
    ({"lives": "many"}, ["'many'", "integer"]),
    ({"blitz": "maybe"}, ["'maybe'", "true or false"]),
    ({"edition": "german"}, ["'german'", "standard, russian"]),
])
def test_bad_rule_values_name_the_value_and_what_is_accepted(given, words):
    with pytest.raises(SimcardsError) as info:
        get_game("five-alive").resolve_rules(given)
    message = str(info.value)
    assert "\n" not in message
    for w in words:
        assert w in message


def test_malformed_assignment():
    with pytest.raises(SimcardsError, match="key=value"):
        parse_assignments(["lives"])


def test_deck_too_small_for_the_table():
    spec = get_game("five-alive")
    with pytest.raises(SimcardsError, match="needs 140 cards but the deck has 77"):
        spec.encode_params(spec.resolve_rules({"hand_size": 20}), 7)


def test_unknown_game():
    with pytest.raises(SimcardsError, match="unknown game 'chess': accepted are .*five-alive"):
        get_game("chess")


# ---- the parameter row: declared by the options, encoded by the contract (issue 51)

_OPTIONS = (
    RuleOption("lives", int, 5, "lives"),
    RuleOption("blitz", bool, False, "blitz"),
    RuleOption("edition", str, "standard", "edition", choices=("standard", "russian")),
    RuleOption("hand_size", int, 0, "0: by the players", encode=lambda rules, n: rules["hand_size"] or 10 - n),
) + tuple(RuleOption(f"lives_seat{k}", int, 0, "seat", seat=k) for k in (1, 2, 3))


def test_the_row_has_a_slot_per_option_in_order_then_the_derived_values():
    row = ParamRow(_OPTIONS, Derived("deck", lambda rules, n: 77))
    P = row.slots
    assert P._fields == ("lives", "blitz", "edition", "hand_size", "lives_seat1", "lives_seat2",
                         "lives_seat3", "deck")
    assert (P.lives, P.hand_size, P.lives_seat1, P.deck) == (0, 3, 4, 7) and row.size == 8
    assert row.slot("deck") == 7
    with pytest.raises(KeyError, match="no entry 'dekc'"):
        row.slot("dekc")


def test_the_row_encodes_each_value_as_declared():
    row = ParamRow(_OPTIONS, Derived("deck", lambda rules, n: 77))
    rules = {"lives": 3, "blitz": True, "edition": "russian", "hand_size": 0,
             "lives_seat1": 1, "lives_seat2": -1, "lives_seat3": 2}
    # int as is, bool as 0/1, a str as its index in choices, a callable's value, then the derived
    assert row.encode(rules, 3).tolist() == [3, 1, 1, 7, 1, -1, 0, 77]   # seat 3 is not at a table of 3
    assert row.encode(dict(rules, hand_size=4), 4).tolist() == [3, 1, 1, 4, 1, -1, 2, 77]
    assert row.encode(rules, 2).dtype == np.int64


@pytest.mark.parametrize("options, message", [
    ((RuleOption("a", int, 0, ""), RuleOption("a", int, 1, "")), "a declared twice"),
    ((RuleOption("mode", str, "x", ""),), "str without choices"),
    ((RuleOption("a_seat0", int, 0, "", seat=0),), "seat=0"),
    ((RuleOption("not-a-name", int, 0, ""),), "cannot name a slot"),
])
def test_a_row_that_cannot_be_encoded_is_refused(options, message):
    with pytest.raises(ContractError, match=message):
        ParamRow(options)


def test_the_spec_encodes_every_game_from_its_declaration():
    for name in ("five-alive", "thirty-one", "bombs-away", "vzhukh", "crazy-eights"):
        spec = get_game(name)
        assert spec.param_row.options == spec.options
        resolved = spec.resolve_rules({})
        row = spec.encode_params(resolved, spec.max_players)
        assert row.dtype == np.int64 and row.shape == (spec.param_row.size,)
        for opt in spec.options:
            if opt.encode is None and opt.seat is None:
                value = resolved[opt.name]
                want = opt.choices.index(value) if opt.kind is str else int(value)
                assert row[spec.param_row.slot(opt.name)] == want, (name, opt.name)


#: as a game's rules.py has it: the slots at module level, where numba finds them
_P = ParamRow(_OPTIONS, Derived("deck", lambda rules, n: 77)).slots


def test_numba_compiles_the_slots_in_as_constants():
    """A row's slots are a named tuple of ints: numba freezes a global tuple, so a read of
    ``params[P.x]`` is a load at a constant offset, as from a module-level int."""
    from numba import njit

    @njit
    def read(params):
        return params[_P.lives_seat1 + 2] + params[_P.deck]

    params = np.arange(_P.deck + 1, dtype=np.int64)
    assert read(params) == _P.lives_seat1 + 2 + _P.deck
    ir = read.inspect_llvm(read.signatures[0])
    for slot in (_P.lives_seat1 + 2, _P.deck):
        # newer numba (0.68) writes the load as a byte offset into the array's data, older
        # (0.60, the lowest admitted) as a getelementptr of the element: a constant either way
        byte_offset = f"i64 {8 * slot}" in ir
        element = re.search(rf"getelementptr[^\n]*params[^\n]*, i64 {slot}\b", ir) is not None
        assert byte_offset or element, f"slot {slot} is not a constant offset"
