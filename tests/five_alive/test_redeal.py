"""Determinization (simcards.games.five_alive.redeal): on positions from real games, a
redealt state keeps everything the seat may see, deals the true hidden cards (as a
multiset) in the true hand sizes, respects what the table inferred from play (``LACKS``:
a bust, a missing 0 against a Killer; an inference that holds in the true state too), is
a state the engine plays on from to the end, and depends on nothing hidden: the same deal
from the engine's state and from that state with every field the seat may not read zeroed
(which is what the reference engine's views hold).
"""
import itertools

import numpy as np
import pytest
from numba import njit

from simcards.batch import prepare
from simcards.games.five_alive import SPEC, fast
from simcards.games.five_alive import view as V
from simcards.games.five_alive.redeal import redeal, unseen_counts
from simcards.games.five_alive.rules import MAX_PLAYERS, N_KINDS, PLAY
from simcards.replay import record
from simcards.strategy_registry import strategies_for
from simcards_strategies.five_alive.expert import decide as expert

# search plays rollouts through redeal itself: the positions come from the cheap strategies
STRATEGIES = sorted(n for n in strategies_for(SPEC) if n != "search")
#: the kernel of every line-up here: the suite's one kernel per game (tests/conftest.py)
KERNEL = sorted(strategies_for(SPEC))
RULES = {"standard": {}, "russian": {"edition": "russian"},
         "short": {"lives": 2, "hand_size": 4, "count_killer": 3, "count_redeal": 3}}
EXPERT_DEFAULTS = np.array([2.0, 1.0])     # expert's PARAMS defaults, in declared order


@njit
def _play_out(w, grng, srng, params):
    """Play the game in ``w`` to its end with expert in every seat; -1 on an illegal move,
    else the number of decisions played."""
    steps = 0
    while True:
        k = fast.advance(w, grng)
        if k < 0:
            return steps
        m = expert(fast.view_play(w), srng, params)
        if not fast.is_legal(w, k, m):
            return -1
        fast.apply(w, grng, k, m)
        steps += 1


def _hidden_cards(s: np.ndarray, seat: int) -> np.ndarray:
    """Counts per kind of the other hands and the stock of a real state."""
    c = np.zeros(N_KINDS, np.int64)
    for q in range(s[V.N]):
        if q != seat:
            c += s[V.HANDS + q * N_KINDS:V.HANDS + (q + 1) * N_KINDS]
    stock = s[V.STOCK:V.STOCK + s[V.STOCK_N]]
    c += np.bincount(stock, minlength=N_KINDS)
    return c


def _positions(rules: dict, games_per_lineup: int):
    """(state, decider) at every decision of games over every player count."""
    cycle = itertools.cycle(STRATEGIES)
    for n in range(2, MAX_PLAYERS + 1):
        lineup = [next(cycle) for _ in range(n)]
        batch = prepare("five-alive", lineup, seed=700 + n, rules=rules, kernel_strategies=KERNEL)
        for g in range(games_per_lineup):
            rec = record("five-alive", lineup, batch.seed, g, batch=batch)
            for step in range(len(rec.moves)):
                yield rec.raws[step], int(rec.moves[step, 1])


@pytest.mark.parametrize("label", list(RULES))
def test_redeal_keeps_what_the_seat_sees_and_deals_the_hidden_cards(label):
    checked = inferred = 0
    for i, (s, decider) in enumerate(_positions(RULES[label], 4)):
        n = int(s[V.N])
        # the decider, and every few positions another seat too (redeal for any seat)
        for seat in {decider, (decider + 1 + i) % n}:
            if s[V.LIVES + seat] == 0:
                continue
            w = np.zeros_like(s)
            seed = np.array([1000 + i], np.uint64)
            m = redeal(s, seat, w, seed)
            visible = V.LAYOUT.visible_to(seat, s.shape[0])
            assert np.array_equal(w[visible], s[visible]), "a field the seat sees changed"
            # the same multiset of hidden cards, the same hand and stock sizes
            assert m == _hidden_cards(s, seat).sum()
            assert np.array_equal(_hidden_cards(w, seat), _hidden_cards(s, seat))
            unseen = np.zeros(N_KINDS, np.int64)
            unseen_counts(s, seat, unseen)
            assert np.array_equal(unseen, _hidden_cards(s, seat))
            assert np.array_equal(w[V.HAND_N:V.HAND_N + n], s[V.HAND_N:V.HAND_N + n])
            assert w[V.STOCK_N] == s[V.STOCK_N]
            # derived fields as the engine keeps them
            for q in range(n):
                hand = w[V.HANDS + q * N_KINDS:V.HANDS + (q + 1) * N_KINDS]
                assert w[V.HELD + q] == sum(1 << k for k in range(N_KINDS) if hand[k] > 0)
                assert hand.sum() == w[V.HAND_N + q]
            # every inference the table made holds in the true state (it is sound) and in the
            # redeal (it is used); count the positions where one constrains a hidden hand
            for q in range(n):
                assert s[V.HELD + q] & s[V.LACKS + q] == 0, "LACKS names a kind seat q holds"
                assert w[V.HELD + q] & w[V.LACKS + q] == 0, "the redeal ignored LACKS"
                if q != seat and s[V.LACKS + q] != 0 and s[V.HAND_N + q] > 0:
                    inferred += 1
            assert np.array_equal(w[V.NEXT_SEAT:V.NEXT_SEAT + 2 * MAX_PLAYERS],
                                  s[V.NEXT_SEAT:V.NEXT_SEAT + 2 * MAX_PLAYERS])
            d = s[V.DECK]
            assert np.array_equal(w[V.STOCK + 2 * d:V.STOCK + 3 * d], s[V.STOCK + 2 * d:V.STOCK + 3 * d])
            cur = s[V.CUR]
            # the seat to move's legal mask, as advance stores it (its own hand if it is the seat)
            assert w[V.LEGAL + cur] == (s[V.LEGAL + cur] if cur == seat else fast._legal_mask(w, cur))
            # nothing hidden was read: the view the reference engine builds gives the same deal
            zeroed = np.where(visible, s, 0)
            w2 = np.zeros_like(s)
            redeal(zeroed, seat, w2, np.array([1000 + i], np.uint64))
            assert np.array_equal(w, w2), "redeal read a field the seat may not see"
            # and the engine plays on from it to the end of the game
            steps = _play_out(w.copy(), np.array([7 + i], np.uint64), np.array([3], np.uint64),
                              EXPERT_DEFAULTS)
            assert steps >= 0, "the engine found an illegal move in a redealt state"
            checked += 1
    assert checked > 1000
    assert inferred > 50, "too few positions where the table knows what a hand lacks"


def test_redeal_draws_different_deals_from_different_generators(shared):
    rec = shared.record("five-alive", ["expert"] * 4, 3, 0)
    s, seat = rec.raws[5], int(rec.moves[5, 1])
    deals = set()
    for r in range(20):
        w = np.zeros_like(s)
        redeal(s, seat, w, np.array([r], np.uint64))
        deals.add(w[V.HANDS:V.HANDS + 4 * N_KINDS].tobytes())
    assert len(deals) == 20
