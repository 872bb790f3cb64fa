"""The strategies: `random` exactly as the rule file defines it, and what each heuristic claims."""
import collections

import pytest

from simcards.games.vzhukh.reference import ATTACK_DECISION, DEFEND_DECISION, Game
from simcards.games.vzhukh.rules import BEAT, JOKER, KRABLE, N_KINDS, TRANSFER, VZHUKH, encode_move
from simcards.params import default_row
from simcards.registry import get_game
from simcards.rng import PyRandom
from simcards.games.vzhukh import defaults
from simcards_strategies.vzhukh import cheap_beat, joker_dump, low_attack, random, transfer_first

SPEC = get_game("vzhukh")


def counts(*kinds):
    c = [0] * N_KINDS
    for k in kinds:
        c[k] += 1
    return c


def defence_position(hand, stack):
    g = Game(3, SPEC.resolve_rules(None), 1, 0)
    g.hands[1] = counts(*hand)
    g.stack_kind, g.stack_count = stack
    g.current, g.phase = 1, DEFEND_DECISION
    return g


@pytest.mark.parametrize("decision, hand, stack", [
    (ATTACK_DECISION, (2, 2, 5, 9, KRABLE), (-1, 0)),
    (DEFEND_DECISION, (3, 3, 3, 9, VZHUKH), (3, 2)),       # 2 transfers, beats, one joker
    (DEFEND_DECISION, (0, 0, 0, 0, KRABLE), (9, 1)),       # only the joker
])
def test_random_is_uniform_over_the_distinct_legal_moves(decision, hand, stack):
    g = defence_position(hand, stack)
    g.phase = decision
    legal = g.legal_moves()
    func = (random.attack if decision == ATTACK_DECISION else random.defend).py_func
    rng = PyRandom(3, 0, 1).as_array()
    draws = 600 * len(legal)
    seen = collections.Counter(int(func(g.view(decision), rng)) for _ in range(draws))
    assert set(seen) == set(legal)
    assert min(seen.values()) > 0.8 * 600 and max(seen.values()) < 1.2 * 600


CHEAP = default_row(cheap_beat.PARAMS)     # cheap_beat's parameters at their defaults


def test_heuristics_do_what_their_rationale_says():
    g = defence_position((3, 3, 8, 9, VZHUKH), (3, 2))           # stack: two 4s, sum 8
    v = g.view(DEFEND_DECISION)
    assert low_attack.defend.py_func(v, None) == encode_move(TRANSFER, 3, 1)
    assert transfer_first.defend.py_func(v, None) == encode_move(TRANSFER, 3, 2)
    assert joker_dump.defend.py_func(v, None) == encode_move(JOKER, VZHUKH, 1)
    # cheap_beat: the fewest points above 8 is one 9 (kind 8), not a 10 or three 4s
    assert cheap_beat.defend.py_func(v, None, CHEAP) == encode_move(BEAT, 8, 1)
    g = defence_position((1, 1, 4, 4, 4), (-1, 0))
    g.phase = ATTACK_DECISION
    v = g.view(ATTACK_DECISION)
    assert low_attack.attack.py_func(v, None) == encode_move(0, 1, 2)       # both 2s
    assert defaults.attack.py_func(v, None) == encode_move(0, 1, 2)         # the default too
    assert transfer_first.attack.py_func(v, None) == encode_move(0, 4, 3)   # three 5s = 15


def test_cheap_beat_spends_jokers_when_the_stock_runs_low():
    g = defence_position((3, 3, 8, 9, KRABLE), (3, 2))
    assert cheap_beat.defend.py_func(g.view(DEFEND_DECISION), None, CHEAP) == encode_move(BEAT, 8, 1)
    g.stock = g.stock[:5]                                        # fewer than 2 per player
    assert cheap_beat.defend.py_func(g.view(DEFEND_DECISION), None, CHEAP) == encode_move(JOKER, KRABLE, 1)
    # its run-time parameter moves the threshold: with joker_below=0 it never hurries
    never = CHEAP.copy()
    never[list(cheap_beat.PARAMS).index("joker_below")] = 0
    assert cheap_beat.defend.py_func(g.view(DEFEND_DECISION), None, never) == encode_move(BEAT, 8, 1)
