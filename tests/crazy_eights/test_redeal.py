"""Determinization (simcards.games.crazy_eights.redeal): on decision positions from real games,
a redealt state keeps everything the seat may see, deals the true hidden cards in the true hand
and stock sizes, respects every inference (view.LACKS: what a pass without a choice showed),
rebuilds the legal moves of the seat to move and depends on nothing hidden: the same deal from
the engine's state and from that state with every field the seat may not read zeroed (the
reference engine's views). The engine plays on from it to the end of the game. Every inference
also holds in the true state: that is what makes it sound.
"""
import itertools

import numpy as np
import pytest
from numba import njit

from simcards.batch import prepare
from simcards.games.crazy_eights import SPEC, fast
from simcards.games.crazy_eights import view as V
from simcards.games.crazy_eights.redeal import redeal, unseen_mask
from simcards.games.crazy_eights.rules import MAX_PLAYERS
from simcards.replay import record
from simcards.strategy_registry import strategies_for
from simcards_strategies.crazy_eights.eights_last import play as eights_last
from simcards.games.crazy_eights.defaults import name_suit as default_suit

# search plays rollouts through redeal itself: the positions come from the cheap strategies
STRATEGIES = sorted(n for n in strategies_for(SPEC) if n != "search")
#: the kernel of every line-up here: the suite's one kernel per game (tests/conftest.py)
KERNEL = sorted(strategies_for(SPEC))
RULES = {"standard": {}, "no_reshuffle": {"empty_stock": "pass"},
         "draw_one_points": {"draw": "one", "empty_stock": "pass", "target": 60}}


@njit
def _play_out(w, grng, srng):
    """Play the game in ``w`` to its end with eights_last in every seat; -1 on an illegal
    move, else the number of decisions played."""
    steps = 0
    while True:
        k = fast.advance(w, grng)
        if k < 0:
            return steps
        v = fast.view_play(w)
        m = default_suit(v, srng) if k == 1 else eights_last(v, srng)
        if not fast.is_legal(w, k, m):
            return -1
        fast.apply(w, grng, k, m)
        steps += 1


@njit
def _legal_of(w, p):
    """What advance stores for seat p (fast._legal is inlined: no Python wrapper)."""
    return fast._legal(w, p)


def _hidden(s: np.ndarray, seat: int) -> int:
    """The other hands and the stock of a real state, as one mask."""
    m = 0
    for q in range(int(s[V.N])):
        if q != seat:
            m |= int(s[V.HANDS + q])
    for i in range(int(s[V.STOCK_N])):
        m |= 1 << int(s[V.STOCK + i])
    return m


def _positions(rules: dict, games_per_lineup: int):
    """(state, decider) at every decision of games over every player count."""
    cycle = itertools.cycle(STRATEGIES)
    for n in range(2, MAX_PLAYERS + 1):
        lineup = [next(cycle) for _ in range(n)]
        batch = prepare("crazy-eights", lineup, seed=500 + n, rules=rules, kernel_strategies=KERNEL)
        for g in range(games_per_lineup):
            rec = record("crazy-eights", lineup, batch.seed, g, batch=batch)
            for step in range(len(rec.moves)):
                yield rec.raws[step], int(rec.moves[step, 1])


@pytest.mark.parametrize("label", list(RULES))
def test_redeal_keeps_what_the_seat_sees_deals_the_hidden_cards_and_respects_inferences(label):
    checked = constrained = 0
    for i, (s, decider) in enumerate(_positions(RULES[label], 6)):
        n = int(s[V.N])
        # every inference holds in the true state, for every seat (soundness)
        for q in range(n):
            assert int(s[V.HANDS + q]) & int(s[V.LACKS + q]) == 0, "a true hand breaks LACKS"
        # the decider, and every few positions another seat too (redeal for any seat)
        for seat in {decider, (decider + 1 + i) % n}:
            w = np.zeros_like(s)
            m = redeal(s, seat, w, np.array([1000 + i], np.uint64))
            visible = V.LAYOUT.visible_to(seat, s.shape[0])
            assert np.array_equal(w[visible], s[visible]), "a field the seat sees changed"
            # the same hidden cards, in the same hand and stock sizes
            hidden = _hidden(s, seat)
            assert _hidden(w, seat) == hidden == int(unseen_mask(s, seat))
            assert m == bin(hidden).count("1")
            assert w[V.STOCK_N] == s[V.STOCK_N] and w[V.STOCK_FIXED] == w[V.STOCK_N]
            for q in range(n):
                assert bin(int(w[V.HANDS + q])).count("1") == w[V.HAND_N + q]
                if q != seat and s[V.LACKS + q]:
                    assert int(w[V.HANDS + q]) & int(s[V.LACKS + q]) == 0, "the deal breaks LACKS"
                    constrained += 1
            # derived fields as the engine keeps them: the legal moves of the seat to move
            cur = int(s[V.CUR])
            if cur == seat:
                assert w[V.LEGAL + cur] == s[V.LEGAL + cur]
            else:
                assert w[V.LEGAL + cur] == _legal_of(w, cur)
            # nothing hidden was read: the view the reference engine builds gives the same deal
            zeroed = np.where(visible, s, 0)
            w2 = np.zeros_like(s)
            redeal(zeroed, seat, w2, np.array([1000 + i], np.uint64))
            assert np.array_equal(w, w2), "redeal read a field the seat may not see"
            # and the engine plays on from it to the end of the game
            steps = _play_out(w.copy(), np.array([7 + i], np.uint64), np.array([3], np.uint64))
            assert steps >= 0, "the engine found an illegal move in a redealt state"
            checked += 1
    assert checked > 500
    if label != "standard":
        assert constrained > 20, "too few positions with an inference to test it"


def test_redeal_draws_different_deals_from_different_generators(shared):
    rec = shared.record("crazy-eights", ["eights_last"] * 4, 3, 0)
    s, seat = rec.raws[2], int(rec.moves[2, 1])
    deals = set()
    for r in range(20):
        w = np.zeros_like(s)
        redeal(s, seat, w, np.array([r], np.uint64))
        deals.add(w[V.HANDS:V.HANDS + 4].tobytes())
    assert len(deals) == 20


def test_a_seat_known_to_lack_a_suit_is_dealt_none_of_it(shared):
    rec = shared.record("crazy-eights", ["eights_last"] * 3, 4, 0)
    s = rec.raws[1].copy()
    seat = int(rec.moves[1, 1])
    other = (seat + 1) % 3
    hearts = ((1 << 13) - 1) << 26
    s[V.LACKS + other] = hearts
    for r in range(50):
        w = np.zeros_like(s)
        redeal(s, seat, w, np.array([r], np.uint64))
        assert int(w[V.HANDS + other]) & hearts == 0
        assert bin(int(w[V.HANDS + other])).count("1") == s[V.HAND_N + other]
