"""Thirty-One's own checks beyond the contract suite (tests/contract/ replays, twins and
determinism for every game): replays that reach every way a round can end and both stock
rebuilds under combined options, the three cards of every hand and the middle distinct after
every move, the frame's game-specific columns, the legal sets and memory in the fast state.

One kernel of every strategy serves these tests (the one the golden test and the
baseline frames use too); rule options are parameters, so variants need no new compile.
"""
import numpy as np
import pytest

import simcards
from simcards.batch import prepare
from simcards.games.thirty_one import fast, view
from simcards.games.thirty_one.reference import Game
from simcards.replay import record, replay

GAME = "thirty-one"
SEED = 2024
MIXED = {                      # lineups of the {greedy, random} kernel, 2..4 players
    2: ("greedy", "random"),
    3: ("random", "greedy", "random"),
    4: ("greedy", "random", "random", "greedy"),
}
THINKERS = ("threshold", "suit_chaser", "discard_reader", "greedy")
VARIANTS = (None, {"rebuild": "as_it_lies"}, {"turn_cap": 6, "rebuild": "as_it_lies"},
            {"round_cap": 2}, {"keys": 1, "key_cards": 5})


@pytest.fixture(scope="module")
def batches():
    """Compile (or load) each kernel once for the module."""
    every = simcards.list_strategies(GAME)
    out = {}
    for n, lineup in MIXED.items():
        for v, rules in enumerate(VARIANTS):
            out[(n, v)] = prepare(GAME, lineup, SEED, rules, kernel_strategies=every)
    out[("thinkers", 0)] = prepare(GAME, THINKERS, SEED, None, kernel_strategies=every)
    out[("thinkers", 1)] = prepare(GAME, THINKERS[::-1], SEED, {"rebuild": "as_it_lies"},
                                   kernel_strategies=every)
    out[("random", 0)] = prepare(GAME, ("random",) * 4, SEED, {"turn_cap": 400},
                                 kernel_strategies=every)
    for b in out.values():
        record(GAME, b.strategies, b.seed, 0, b.rules, batch=b)   # compile or load here, once
    return out


def _replay_many(batch, games, start=0):
    totals = np.zeros(len(batch.spec.game_columns), np.int64)
    for g in range(start, start + games):
        rec = record(GAME, batch.strategies, batch.seed, g, batch.rules, batch=batch)
        replay(rec)
        totals += rec.game_row
    return dict(zip(batch.spec.game_columns, totals.tolist()))


def test_replays_reach_every_way_a_round_ends(batches):
    """Replayed fast games under combined options go through every ending and both rebuilds."""
    played = 0
    seen = {c: 0 for c in batches[(2, 0)].spec.game_columns}
    plan = {(n, v): 30 for n in MIXED for v in range(len(VARIANTS))}   # 450 games
    plan[("thinkers", 0)] = 40
    plan[("thinkers", 1)] = 40
    plan[("random", 0)] = 20
    for key, games in plan.items():
        totals = _replay_many(batches[key], games, start=1000 * played)
        for c, x in totals.items():
            seen[c] += x
        played += games
    assert played >= 500
    # the replays went through every way a round can end and through both stock rebuilds
    for column in ("ends_31", "ends_33", "ends_678", "ends_proposal", "ends_cap", "refreshes",
                   "rebuilds", "unfinished"):
        assert seen[column] > 0, column


@pytest.mark.parametrize("key", [(2, 1), ("random", 0)])
def test_every_card_is_accounted_for_after_every_move(batches, key):
    batch = batches[key]
    for g in range(15):
        rec = record(GAME, batch.strategies, batch.seed, g, batch.rules, batch=batch)
        ref = Game(batch.n_players, batch.rules, batch.seed, g)
        assert ref.cards_everywhere() == list(range(36))
        for step, (kind, seat, move) in enumerate(rec.moves.tolist()):
            assert ref.next_decision() == (kind, seat)
            assert ref.cards_everywhere() == list(range(36))
            ref.apply(kind, move)
            assert ref.cards_everywhere() == list(range(36)), (g, step)
            assert ref.snapshot() == rec.snaps[2 * step + 1].tolist()
            hands = [c for h in ref.hands for c in h]
            assert len(set(hands + ref.middle)) == 3 * batch.n_players + 3


def test_frame_columns_and_record_agree(batches, shared):
    frame = shared.simulate(GAME, MIXED[4], 50, seed=SEED)
    for column in ("keys", "dealt_mask", "declared", "proposals", "rounds", "turns", "ends_31",
                   "ends_33", "ends_678", "ends_proposal", "ends_cap", "refreshes", "rebuilds",
                   "unfinished"):
        assert column in frame
    batch = batches[(4, 0)]
    rec = record(GAME, batch.strategies, SEED, 7, batch=batch)
    rows = frame[frame.game == 7]
    assert rows["keys"].tolist() == rec.seats[:, 2].tolist()
    assert rows["dealt_mask"].tolist() == rec.seats[:, 3].tolist()
    # each dealt mask holds three cards; the four first hands are disjoint
    masks = rows["dealt_mask"].tolist()
    assert all(bin(m).count("1") == 3 for m in masks)
    assert bin(np.bitwise_or.reduce(masks)).count("1") == 12
    # every round ends one way: a combination, an accepted proposal or the cap
    ends = frame.groupby("game").first()
    ended = ends[["ends_31", "ends_33", "ends_678", "ends_proposal", "ends_cap"]].sum(axis=1)
    assert (ended == ends["rounds"]).all()


def test_the_fast_state_keeps_the_legal_sets_and_a_clean_memory(batches):
    """At every decision the decider's rows hold its legal moves, which the view lists in code
    order (as the reference engine does), and the strategies' memory starts at zero."""
    batch = batches[("random", 0)]
    assert view.LAYOUT.size == view.SIZE == batch.kernel().state_size(4, batch.params)
    out = np.zeros(4096, np.int64)
    for g in range(5):
        rec = record(GAME, batch.strategies, batch.seed, g, batch.rules, batch=batch)
        ref = Game(batch.n_players, batch.rules, batch.seed, g)
        for step, (kind, seat, move) in enumerate(rec.moves.tolist()):
            assert ref.next_decision() == (kind, seat)
            raw = rec.raws[step]
            k = fast.legal_moves(raw, out)
            v = view.View(raw, seat)
            listed = [view.legal_move(v, i) for i in range(view.n_legal(v))]
            assert listed == out[:k].tolist() == ref.legal_moves()
            assert move in listed and fast.is_legal(raw, kind, move)
            assert all(view.is_legal_move(v, m) for m in listed)
            assert not any(view.is_legal_move(v, m) for m in (-1, 2307, 4096, 63, 35 * 64 + 40))
            assert not fast.is_legal(raw, 1 - kind, move)
            if g == 0:      # the kernel's test (split on the kind) is exactly the listed set
                legal = set(listed)
                assert all(fast.is_legal(raw, kind, m) == (m in legal) for m in range(-2, 2310))
            assert view.can_knock(v) == (kind == 0 and 2305 in listed)
            assert not raw[view.MEMORY:view.MEMORY + 4 * 16].any()
            ref.apply(kind, move)
