"""Determinization (simcards.games.bombs_away.redeal): on decision positions from real games
(every player count, several rule options), a redealt state keeps everything the seat may see,
deals the true hidden cards (as a multiset) in the true hand and stock sizes, rebuilds the
engine's derived fields, is a state the engine plays on from to the end, depends on nothing
hidden (the same deal from the state with every field the seat may not read zeroed, which is
what the reference engine's views hold), and respects both inferences, which hold in the true
state too (so they are sound).
"""
import itertools

import numpy as np
import pytest
from numba import njit

from simcards.batch import prepare
from simcards.games.bombs_away import SPEC, fast
from simcards.games.bombs_away import view as V
from simcards.games.bombs_away.redeal import redeal, unseen_counts
from simcards.games.bombs_away.rules import MAX_PLAYERS, N_KINDS
from simcards.replay import record
from simcards.rng import rand_below
from simcards.strategy_registry import strategies_for

K = N_KINDS
# search plays rollouts through redeal itself: the positions come from the heuristics
STRATEGIES = sorted(n for n in strategies_for(SPEC) if n != "search")
#: the kernel of every line-up here: the suite's one kernel per game (tests/conftest.py)
KERNEL = sorted(strategies_for(SPEC))
RULES = {"standard": {}, "chosen": {"duel_victim": "chosen"},
         "no_tens_5": {"tens_rule": False, "hand_size": 5}, "short": {"points": 12}}


@njit
def _play_out(w, grng, srng):
    """Play the game in ``w`` to its end, a uniform allowed answer at every question; -1 on an
    illegal move, else the number of decisions played."""
    steps = 0
    while True:
        k = fast.advance(w, grng)
        if k < 0:
            return steps
        mask = w[V.S_LEGAL]
        i = rand_below(srng, w[V.S_N_LEGAL])
        m = 0
        for b in range(MAX_PLAYERS * 3 + K):
            if (mask >> b) & 1:
                if i == 0:
                    m = b
                    break
                i -= 1
        if not fast.is_legal(w, k, m):
            return -1
        fast.apply(w, grng, k, m)
        steps += 1


def _hand(s, q):
    return s[V.A_HANDS + q * K:V.A_HANDS + (q + 1) * K]


def _hidden_cards(s, seat):
    """Counts per kind of the other hands and the stock of a real state."""
    c = np.zeros(K, np.int64)
    for q in range(s[V.S_N]):
        if q != seat:
            c += _hand(s, q)
    c += np.bincount(s[V.A_STOCK:V.A_STOCK + s[V.S_STOCK_N]], minlength=K)
    return c


def _inferences_hold(s, seat):
    """Both inferences in state ``s`` as ``seat`` knows them; how many are not trivial."""
    active = 0
    for q in range(s[V.S_N]):
        if q == seat:
            continue
        known = s[V.A_KNOWN + seat * V.KNOWN_ROW + q * K:V.A_KNOWN + seat * V.KNOWN_ROW + (q + 1) * K]
        assert np.all(_hand(s, q) >= known), "a card the seat knows of is not in that hand"
        void = s[V.A_VOID + q]
        if void:
            kinds = [k for k in range(K) if (void >> k) & 1]
            assert _hand(s, q)[kinds].sum() <= s[V.A_FREE + q], "a hand holds a kind it lacked"
        active += int(known.sum() > 0) + int(void != 0 and s[V.A_FREE + q] < s[V.A_HAND_N + q])
    return active


def _positions(rules, games_per_lineup):
    """(state, decider) at every decision of games over every player count."""
    cycle = itertools.cycle(STRATEGIES)
    for n in range(2, MAX_PLAYERS + 1):
        lineup = [next(cycle) for _ in range(n)]
        batch = prepare("bombs-away", lineup, seed=700 + n, rules=rules,
                        kernel_strategies=KERNEL)
        for g in range(games_per_lineup):
            rec = record("bombs-away", lineup, batch.seed, g, batch=batch)
            for step in range(len(rec.moves)):
                yield rec.raws[step], int(rec.moves[step, 1])


@pytest.mark.parametrize("label", list(RULES))
def test_redeal_keeps_what_the_seat_knows_and_deals_the_hidden_cards(label):
    checked = active_true = active_redealt = 0
    masks = {}
    for i, (s, decider) in enumerate(_positions(RULES[label], 2)):
        seat = decider              # search redeals for the seat to decide
        key = (seat, s.shape[0])
        if key not in masks:
            masks[key] = V.LAYOUT.visible_to(seat, s.shape[0])
        visible = masks[key]
        n = int(s[V.S_N])
        w = np.zeros_like(s)
        m = redeal(s, seat, w, np.array([1000 + i], np.uint64))
        assert np.array_equal(w[visible], s[visible]), "a field the seat sees changed"
        scratch = V.LAYOUT.field("REDEAL")         # the redeal's own, zero again as in every state
        assert not w[scratch.offset:scratch.offset + scratch.size].any(), "scratch left behind"
        # the same multiset of hidden cards, the same hand and stock sizes
        hidden = _hidden_cards(s, seat)
        assert m == hidden.sum()
        assert np.array_equal(_hidden_cards(w, seat), hidden)
        unseen = np.zeros(K, np.int64)
        unseen_counts(s, seat, unseen)
        assert np.array_equal(unseen, hidden)
        assert np.array_equal(w[V.A_HAND_N:V.A_HAND_N + n], s[V.A_HAND_N:V.A_HAND_N + n])
        assert w[V.S_STOCK_N] == s[V.S_STOCK_N]
        # derived engine fields as the engine keeps them
        assert w[V.S_PHASE] == s[V.S_PHASE]
        for q in range(n):
            hand = _hand(w, q)
            assert w[V.A_HELD + q] == sum(1 << k for k in range(K) if hand[k] > 0)
            assert hand.sum() == w[V.A_HAND_N + q]
            for state in (s, w):    # KNOWN_KINDS covers every seat's nonzero count of q's cards
                kinds = [k for o in range(n) for k in range(K)
                         if state[V.A_KNOWN + o * V.KNOWN_ROW + q * K + k] > 0]
                assert all((state[V.A_KNOWN_KINDS + q] >> k) & 1 for k in kinds)
        # every inference holds in the true state (sound) and in the redealt one
        active_true += _inferences_hold(s, seat)
        active_redealt += _inferences_hold(w, seat)
        # nothing hidden was read: the view the reference engine builds gives the same deal
        w2 = np.zeros_like(s)
        redeal(np.where(visible, s, 0), seat, w2, np.array([1000 + i], np.uint64))
        assert np.array_equal(w, w2), "redeal read a field the seat may not see"
        # and the engine plays on from it to the end of the game
        if i % 3 == 0:
            steps = _play_out(w.copy(), np.array([7 + i], np.uint64), np.array([3 + i], np.uint64))
            assert steps >= 0, "the engine found an illegal move in a redealt state"
        checked += 1
    assert checked > 1000
    assert active_true == active_redealt and active_true > 50, "the inferences were not exercised"


def test_redeal_draws_different_deals_from_different_generators(shared):
    rec = shared.record("bombs-away", ["duelist"] * 4, 3, 0)
    s, seat = rec.raws[5], int(rec.moves[5, 1])
    deals = set()
    for r in range(20):
        w = np.zeros_like(s)
        redeal(s, seat, w, np.array([r], np.uint64))
        deals.add(w[V.A_HANDS:V.A_HANDS + 4 * K].tobytes() + w[V.A_STOCK:V.A_STOCK + 60].tobytes())
    assert len(deals) == 20
