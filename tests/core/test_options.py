import pytest

from simcards.errors import SimcardsError
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
