"""Determinization (simcards.games.thirty_one.redeal): on decision positions from real games
(2-4 players, several rule options), a redealt state keeps everything the seat may see,
deals the true hidden cards in the true sizes, keeps the engine's derived fields, depends on
nothing hidden (the same deal from the reference engine's zeroed view), is a state the engine
plays on from to the end, and respects every inference of the module docstring -- the hard
ones hold in the true state too, which is what makes them sound.
"""
import itertools

import numpy as np
import pytest
from numba import njit

import simcards
from simcards.batch import prepare
from simcards.games.thirty_one import fast
from simcards.games.thirty_one import view as V
from simcards.games.thirty_one.redeal import (ACCEPT_MIN, PROPOSE_MIN, TRIES, hand_value,
                                              is_combination, redeal, redeal_with, soft_bound)
from simcards.games.thirty_one.rules import HAND, N_CARDS, PH_VOTE, TURN
from simcards.params import default_row
from simcards.replay import record
from simcards_strategies.thirty_one import suit_chaser

# search plays rollouts through redeal itself: positions come from the heuristics; a
# threshold that never proposes (bar=34) makes quiet circles, so stocks get rebuilt
STRATEGIES = ["greedy", "suit_chaser", "threshold", "discard_reader", "random",
              "threshold:bar=34:last_key=0"]
RULES = {"standard": {}, "as_it_lies": {"rebuild": "as_it_lies"},
         "short": {"keys": 2, "turn_cap": 30, "rebuild": "as_it_lies"}}
#: one kernel for every line-up of these tests
#: the kernel of every line-up here: the suite's one kernel per game (tests/conftest.py)
KERNEL = simcards.list_strategies("thirty-one")
CHASER = default_row(suit_chaser.PARAMS)
GAMES = 8               # games per line-up and player count


@njit
def _play_out(w, grng, srng, params):
    """Play the game in ``w`` to its end with suit_chaser in every seat; -1 on an illegal
    move, else the number of decisions played."""
    steps = 0
    while True:
        k = fast.advance(w, grng)
        if k < 0:
            return steps
        if k == TURN:
            m = suit_chaser.turn(fast.view_turn(w), srng, params)
        else:
            m = suit_chaser.vote(fast.view_vote(w), srng, params)
        if not fast.is_legal(w, k, m):
            return -1
        fast.apply(w, grng, k, m)
        steps += 1


@njit
def _advance(w, grng):
    return fast.advance(w, grng)


def _hand(s, q):
    return [int(c) for c in s[V.HANDS + HAND * q:V.HANDS + HAND * (q + 1)]]


def _mask(cards):
    return sum(1 << int(c) for c in cards)


def _hidden(s, seat):
    """The set of cards in the other hands and the stock, as a bit mask (each card once)."""
    cards = [c for q in range(s[V.N]) if q != seat for c in _hand(s, q)]
    cards += list(s[V.STOCK:V.STOCK + s[V.STOCK_N]])
    assert len(cards) == len(set(cards))
    return _mask(cards), len(cards)


def _positions(rules, games_per_lineup):
    """(state, decider) at every decision of games over every player count."""
    cycle = itertools.cycle(STRATEGIES)
    for n in range(2, 5):
        lineup = [next(cycle) for _ in range(n)]
        batch = prepare("thirty-one", lineup, seed=310 + n, rules=rules, kernel_strategies=KERNEL)
        for g in range(games_per_lineup):
            rec = record("thirty-one", lineup, batch.seed, g, batch=batch)
            for step in range(len(rec.moves)):
                yield rec.raws[step], int(rec.moves[step, 1])


def _check_hard_facts(x, seat):
    """The hard inferences, on a real or a redealt state."""
    n = x[V.N]
    for q in range(n):
        h = _hand(x, q)
        assert not is_combination(*h), "a hand holds a combination during the round"
        assert x[V.HELD + q] & ~_mask(h) == 0, "a card seen taken is not in its taker's hand"
        if q != seat:
            seen = x[V.DISCARD_MASK] | _mask(x[V.MID:V.MID + HAND]) | _mask(_hand(x, seat))
            assert _mask(h) & seen == 0
    stock = list(x[V.STOCK:V.STOCK + x[V.STOCK_N]])
    if x[V.STOCK_KNOWN]:
        assert _mask(stock) == x[V.STOCK_KNOWN], "a rebuilt stock is not the pile it came from"
        if x[V.AS_IT_LIES]:
            order = list(x[V.STOCK_KNOWN_ORDER:V.STOCK_KNOWN_ORDER + x[V.STOCK_N]])
            assert stock == order, "a stock rebuilt as it lies is not in the pile's order"


def _check_redeal(s, seat, i):
    """Every property of one redeal of position ``s`` for ``seat``; returns (signalled
    seats, bounds missed)."""
    n = int(s[V.N])
    w = np.zeros_like(s)
    miss = redeal(s, seat, w, np.array([1000 + i], np.uint64))
    visible = V.LAYOUT.visible_to(seat, s.shape[0])
    assert np.array_equal(w[visible], s[visible]), "a field the seat sees changed"
    # the same hidden cards, the same hand and stock sizes
    assert _hidden(w, seat) == _hidden(s, seat)
    assert w[V.STOCK_N] == s[V.STOCK_N]
    assert not w[V.STOCK + w[V.STOCK_N]:V.STOCK + N_CARDS].any()
    for q in range(n):
        h = _hand(w, q)
        assert h == sorted(h) and len(set(h)) == HAND
    _check_hard_facts(w, seat)
    # soft inferences: every signalled bound met unless the call says it missed some
    bounds = [soft_bound(s, q, PROPOSE_MIN, ACCEPT_MIN) if q != seat else 0 for q in range(n)]
    short = sum(hand_value(*_hand(w, q)) < bounds[q] for q in range(n))
    assert short == miss
    # derived fields as the engine keeps them: the decider's legal sets
    d = s[V.VOTER] if s[V.PHASE] == PH_VOTE else s[V.CUR]
    x = w.copy()
    assert _advance(x, np.array([1], np.uint64)) >= 0
    for block in (V.LEGAL_GIVE, V.LEGAL_TAKE, V.LEGAL_OTHER):
        assert w[block + d] == x[block + d]
        if d == seat:
            assert w[block + d] == s[block + d]
    # nothing hidden was read: the reference engine's view gives the same deal
    zeroed = np.where(visible, s, 0)
    w2 = np.zeros_like(s)
    assert redeal(zeroed, seat, w2, np.array([1000 + i], np.uint64)) == miss
    assert np.array_equal(w, w2), "redeal read a field the seat may not see"
    # and the engine plays on from it to the end of the game
    assert _play_out(w.copy(), np.array([7 + i], np.uint64), np.array([3], np.uint64),
                     CHASER) >= 0, "the engine found an illegal move in a redealt state"
    return sum(b > 0 for b in bounds), miss


@pytest.mark.parametrize("label", list(RULES))
def test_redeal_keeps_what_the_seat_sees_and_respects_every_inference(label):
    checked = signals = missed = 0
    for i, (s, decider) in enumerate(_positions(RULES[label], GAMES)):
        _check_hard_facts(s, decider)                  # sound: they hold in the true state
        # the decider, and every few positions another seat too (redeal for any seat)
        for seat in {decider, (decider + 1 + i) % int(s[V.N])}:
            sig, miss = _check_redeal(s, seat, i)
            signals += sig
            missed += miss
            checked += 1
    assert checked > 1000
    assert signals > 50 and missed <= 0.05 * signals   # bluffs with held cards


@pytest.mark.parametrize("rebuild", ["shuffled", "as_it_lies"])
def test_a_rebuilt_stock_is_known(rebuild):
    """Positions after a rebuild this round (random players rebuild the stock in about one
    game in eight): the stock is the pile it came from, in the true state and the redeal."""
    lineup = ["random"] * 4
    batch = prepare("thirty-one", lineup, seed=31, rules={"rebuild": rebuild}, kernel_strategies=KERNEL)
    checked = games = 0
    for g in range(200):
        rec = record("thirty-one", lineup, batch.seed, g, batch=batch)
        stock_known = rec.raws[:len(rec.moves), V.STOCK_KNOWN] != 0
        if not stock_known.any():
            continue
        for step in np.flatnonzero(stock_known)[::3]:
            s, seat = rec.raws[step], int(rec.moves[step, 1])
            _check_hard_facts(s, seat)
            _check_redeal(s, seat, int(step))
            checked += 1
        games += 1
        if games == 6:
            break
    assert checked > 20


@pytest.mark.parametrize("propose_min,accept_min", [(28, 25), (0, 0)])
def test_soft_bounds_are_the_callers(propose_min, accept_min):
    met = total = missed = 0
    for i, (s, seat) in enumerate(_positions({}, 4)):
        w = np.zeros_like(s)
        missed += redeal_with(s, seat, w, np.array([i], np.uint64), propose_min, accept_min, TRIES)
        for q in range(s[V.N]):
            if q != seat:
                b = soft_bound(s, q, propose_min, accept_min)
                total += b > 0
                met += b > 0 and hand_value(*_hand(w, q)) >= b
    assert met + missed == total
    if propose_min == 0:
        assert total == 0
    else:
        assert total > 20 and met >= 0.8 * total


def test_redeal_draws_different_deals_from_different_generators():
    s, seat = next(itertools.islice(_positions({}, 1), 30, None))
    deals = set()
    for r in range(20):
        w = np.zeros_like(s)
        redeal(s, seat, w, np.array([r], np.uint64))
        deals.add(w[V.HANDS:V.HANDS + 4 * HAND].tobytes() + w[V.STOCK:V.STOCK + N_CARDS].tobytes())
    assert len(deals) == 20
