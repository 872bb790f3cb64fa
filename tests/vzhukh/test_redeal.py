"""Determinization (simcards.games.vzhukh.redeal): on decision positions from real games, a
redealt state keeps everything the seat may see, deals the true hidden cards (as a
multiset) in the true hand sizes, rebuilds the engine's tables, respects every inference
(view.BARRED: what a take or a pass showed) and depends on nothing hidden: the same deal
from the engine's state and from that state with every field the seat may not read zeroed
(the reference engine's views). The engine plays on from it to the end of the game. Every
inference also holds in the true state: that is what makes it sound.
"""
import itertools

import numpy as np
import pytest
from numba import njit

from simcards.batch import prepare
from simcards.games.vzhukh import SPEC, fast
from simcards.games.vzhukh import view as V
from simcards.games.vzhukh.defaults import attack as default_attack
from simcards.games.vzhukh.redeal import TRIES, redeal, respects, unseen_counts
from simcards.games.vzhukh.rules import MAX_PLAYERS, N_KINDS, VOILA
from simcards.replay import record
from simcards.strategy_registry import strategies_for
from simcards_strategies.vzhukh.cheap_beat import defend as cheap_beat

# search plays rollouts through redeal itself: the positions come from the cheap strategies
STRATEGIES = sorted(n for n in strategies_for(SPEC) if n != "search")
#: the kernel of every line-up here: the suite's one kernel per game (tests/conftest.py)
KERNEL = sorted(strategies_for(SPEC))
RULES = {"standard": {}, "small_hands": {"hand_size": 3},
         "many_jokers": {"count_voila": 10, "count_krable_bums": 10, "count_vzhukh": 10,
                         "hand_size": 6}}
CHEAP_BEAT = np.array([2.0, 1.0])           # cheap_beat's PARAMS defaults, in declared order


@njit
def _play_out(w, grng, srng, params):
    """Play the game in ``w`` to its end with cheap_beat in every seat; -1 on an illegal
    move, else the number of decisions played."""
    steps = 0
    while True:
        k = fast.advance(w, grng)
        if k < 0:
            return steps
        v = fast.view_defend(w)
        m = default_attack(v, srng) if k == 0 else cheap_beat(v, srng, params)
        if not fast.is_legal(w, k, m):
            return -1
        fast.apply(w, grng, k, m)
        steps += 1


@njit
def _legal_row(w):
    """The legal row advance writes for the seat to act (fast._legal has no Python wrapper)."""
    fast._legal(w, w[V.PHASE])


def _hand(s, q):
    return s[V.HANDS + V.HAND_STRIDE * q:V.HANDS + V.HAND_STRIDE * q + N_KINDS]


def _hidden_cards(s: np.ndarray, seat: int) -> np.ndarray:
    """Counts per kind of the other hands and the stock of a real state."""
    c = np.zeros(N_KINDS, np.int64)
    for q in range(s[V.N]):
        if q != seat:
            c += _hand(s, q)
    c += np.bincount(s[V.STOCK:V.STOCK + s[V.STOCK_N]], minlength=N_KINDS)
    return c


def _positions(rules: dict, games_per_lineup: int):
    """(state, decider) at every decision of games over every player count."""
    cycle = itertools.cycle(STRATEGIES)
    for n in range(2, MAX_PLAYERS + 1):
        lineup = [next(cycle) for _ in range(n)]
        batch = prepare("vzhukh", lineup, seed=500 + n, rules=rules, kernel_strategies=KERNEL)
        for g in range(games_per_lineup):
            rec = record("vzhukh", lineup, batch.seed, g, batch=batch)
            for step in range(len(rec.moves)):
                yield rec.raws[step], int(rec.moves[step, 1])


@pytest.mark.parametrize("label", list(RULES))
def test_redeal_keeps_what_the_seat_sees_deals_the_hidden_cards_and_respects_inferences(label):
    checked = constrained = passes = 0
    for i, (s, decider) in enumerate(_positions(RULES[label], 2)):
        n = int(s[V.N])
        # every inference holds in the true state, for every seat (soundness)
        for q in range(n):
            word = int(s[V.BARRED + q])
            if word:
                assert respects(s, q, word), f"seat {q}'s true hand breaks what the table knows"
                passes += (word & V.BARRED_NUMBERS) == V.BARRED_NUMBERS
        # the decider, and every few positions another seat too (redeal for any seat)
        for seat in {decider, (decider + 1 + i) % n}:
            w = np.zeros_like(s)
            tries = redeal(s, seat, w, np.array([1000 + i], np.uint64))
            assert 1 <= tries <= TRIES, "a constrained seat was filled regardless"
            scratch = V.LAYOUT.field("REDEAL")     # the redeal's own, zero again as in every state
            assert not w[scratch.offset:scratch.offset + scratch.size].any(), "scratch left behind"
            visible = V.LAYOUT.visible_to(seat, s.shape[0])
            assert np.array_equal(w[visible], s[visible]), "a field the seat sees changed"
            # the same multiset of hidden cards, the same hand and stock sizes
            hidden = _hidden_cards(s, seat)
            assert np.array_equal(_hidden_cards(w, seat), hidden)
            unseen = np.zeros(N_KINDS, np.int64)
            assert unseen_counts(s, seat, unseen) == hidden.sum()
            assert np.array_equal(unseen, hidden)
            assert np.array_equal(w[V.HAND_N:V.HAND_N + n], s[V.HAND_N:V.HAND_N + n])
            assert w[V.STOCK_N] == s[V.STOCK_N]
            for q in range(n):
                assert _hand(w, q).sum() == w[V.HAND_N + q]
                # every inference respected by the deal
                word = int(s[V.BARRED + q])
                if word and q != seat:
                    assert respects(w, q, word), "the deal breaks what the table knows"
                    constrained += 1
            # derived fields as the engine keeps them: its tables, the seat to act's legal row
            d = s[V.DECK]
            assert w[V.NUMBERS] == s[V.NUMBERS]
            assert np.array_equal(w[V.NEXT_SEAT:V.NEXT_SEAT + 3 * V.SEAT_ROW],
                                  s[V.NEXT_SEAT:V.NEXT_SEAT + 3 * V.SEAT_ROW])
            assert np.array_equal(w[V.STOCK + d:V.STOCK + 2 * d], s[V.STOCK + d:V.STOCK + 2 * d])
            cur = int(s[V.CUR])
            row = slice(V.LEGAL + V.LEGAL_STRIDE * cur, V.LEGAL + V.LEGAL_STRIDE * (cur + 1))
            again = w.copy()
            _legal_row(again)
            assert np.array_equal(w[row], again[row])
            if cur == seat:
                assert np.array_equal(w[row], s[row])
            # nothing hidden was read: the view the reference engine builds gives the same deal
            zeroed = np.where(visible, s, 0)
            w2 = np.zeros_like(s)
            redeal(zeroed, seat, w2, np.array([1000 + i], np.uint64))
            assert np.array_equal(w, w2), "redeal read a field the seat may not see"
            # and the engine plays on from it to the end of the game
            steps = _play_out(w.copy(), np.array([7 + i], np.uint64), np.array([3], np.uint64),
                              CHEAP_BEAT)
            assert steps >= 0, "the engine found an illegal move in a redealt state"
            checked += 1
    assert checked > 1000
    assert constrained > 50, "too few positions with an inference to test it"
    if label == "many_jokers":
        assert passes > 0, "no pass seen: the jokers-only inference went untested"


def test_redeal_draws_different_deals_from_different_generators(shared):
    rec = shared.record("vzhukh", ["cheap_beat"] * 4, 3, 0)
    s, seat = rec.raws[5], int(rec.moves[5, 1])
    deals = set()
    for r in range(20):
        w = np.zeros_like(s)
        redeal(s, seat, w, np.array([r], np.uint64))
        deals.add(w[V.HANDS:V.HANDS + 4 * V.HAND_STRIDE].tobytes())
    assert len(deals) == 20


def test_a_pass_leaves_jokers_only_and_a_take_leaves_nothing_that_beats(shared):
    """The two inferences by hand: a seat barred as after a pass is dealt jokers only; one
    barred as after a take of two 5s holds no 5, no joker and at most one 10, 9, ... 6 ...
    and at most ten 1s (1 x count <= 10)."""
    rec = shared.record("vzhukh", ["cheap_beat"] * 3, 4, 0)
    s = rec.raws[3].copy()
    seat = int(rec.moves[3, 1])
    a, b = [q for q in range(3) if q != seat]
    s[V.BARRED + a] = V.barred_after(0, V.BARRED_NUMBERS, 600)
    s[V.BARRED + b] = V.barred_after(0, V.BARRED_KINDS ^ V.BARRED_NUMBERS | 1 << 4, 10)
    # make the pass possible: enough jokers unseen for a's hand
    for r in range(50):
        w = np.zeros_like(s)
        redeal(s, seat, w, np.array([r], np.uint64))
        assert _hand(w, a)[:VOILA].sum() == 0
        hb = _hand(w, b)
        assert hb[4] == 0 and hb[VOILA:].sum() == 0
        assert all(hb[k] * (k + 1) <= 10 for k in range(10))
