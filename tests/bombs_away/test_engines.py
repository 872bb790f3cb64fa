"""Bombs Away's own invariants, outcomes and strategies, on fast games replayed through the
reference engine.

The replay itself (states, legal lists, views, card conservation, every rule option one at a
time), the plain-Python twin, determinism over threads and chunks, the frame's declared
columns and the deal (the replay compares the dealt state first) are the contract suite's
(tests/contract/test_replay.py, test_twin.py, test_determinism.py). Here: points never rise,
no hand grows past the hand size, a joker on the pile is named, a player who is out holds no
cards, and every kind of question is asked, over the options and a combination of them."""

import numpy as np
import pytest

import simcards
from simcards.games.bombs_away import SPEC
from simcards.games.bombs_away.rules import ANSWER, EXTRA, NAME, PLAY, TARGET
from simcards.replay import record, replay
from simcards.runner import run_records
from simcards.batch import prepare, to_frame
from simcards.strategy_registry import strategies_for

STRATEGIES = sorted(strategies_for(SPEC))
RULES = {"seed": {}, "pagat duel": {"duel_victim": "chosen"},
         "odd": {"points": 12, "hand_size": 3, "tens_rule": False, "turn_cap": 60}}


MIX = ["random", "keeper", "duelist", "sniper"]


def lineups(n):
    """Four rotations of the quick strategies, then the slow hoarder (it avoids duels, so its
    games last ten times longer) beside them: five line-ups, one kernel for all."""
    ups = [[MIX[(i + j) % 4] for j in range(n)] for i in range(4)]
    ups[1][0], ups[2][-1] = "random", "random"   # some repeats too
    return ups + [["hoarder"] + [MIX[(j + 1) % 4] for j in range(n - 1)]]


def _invariants(conserved):
    last = {}

    def check(game):
        assert conserved(game)
        assert all(sum(h) <= game.hand_size for h in game.hands)
        if "points" in last:
            assert all(a <= b for a, b in zip(game.points, last["points"])), "points rose"
        last["points"] = list(game.points)
    return check


def _replay_many(n, rules, games, conserved, seed0):
    """``games`` games at n players: 90% over the quick line-ups, 10% with the hoarder."""
    played = moves = 0
    kinds = set()
    ups = lineups(n)
    shares = [(games * 9 // 10) // 4] * 4 + [games - 4 * ((games * 9 // 10) // 4)]
    for i, (strategies, count) in enumerate(zip(ups, shares)):
        batch = prepare("bombs-away", strategies, seed=seed0 + i, rules=rules,
                        kernel_strategies=STRATEGIES)
        for g in range(count):
            rec = record("bombs-away", strategies, batch.seed, g, batch=batch)
            replay(rec, check=_invariants(conserved))
            played += 1
            moves += len(rec.moves)
            kinds.update(rec.moves[:, 0].tolist())
    return played, moves, kinds


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_points_never_rise_and_every_question_is_asked(n, conserved):
    played, moves, kinds = _replay_many(n, RULES["seed"], 60, conserved, seed0=100 * n)
    assert played == 60 and moves > 20 * played
    # every kind of question was asked (with 2 players the opponent is never a question)
    assert kinds == ({PLAY, EXTRA, NAME, ANSWER} if n == 2 else {PLAY, EXTRA, NAME, TARGET, ANSWER})


@pytest.mark.parametrize("variant", ["pagat duel", "odd"])
def test_rule_variants_keep_the_invariants(variant, conserved):
    for n in (2, 3, 5):
        played, _, kinds = _replay_many(n, RULES[variant], 40, conserved, seed0=7 * n)
        assert played == 40 and (n == 2 or TARGET in kinds)


def test_turn_cap_leaves_games_unfinished_without_a_winner(shared):
    frame = shared.simulate("bombs-away", ["hoarder"] * 4, 5, seed=3, rules={"turn_cap": 25})
    assert frame["unfinished"].all() and (frame["win_share"] == 0).all() and (frame["turns"] == 25).all()


def test_outcomes(shared):
    frame = shared.simulate("bombs-away", ["random"] * 4, 2_000, seed=2)
    games = frame.groupby("game")
    winners = games["win_share"].sum()
    assert ((winners - 1).abs() < 1e-9).all()          # no unfinished game at the default cap
    assert (frame.loc[frame.win_share > 0, "points"] > 0).all()
    assert (frame.loc[frame["rank"] > 1, "points"] <= 0).all()
    assert 60 < games["turns"].first().mean() < 200     # the issue: about 110 turns at 4 players
    assert (games["points_lost"].first() >= 90).all()   # 3 players lost at least 30 each
    assert (frame.dealt_mask > 0).all() and (frame.dealt_mask < (1 << 14)).all()


def test_every_strategy_has_a_rationale_and_every_decision():
    known = strategies_for(SPEC)
    assert {"random", "keeper", "duelist", "sniper", "hoarder"} <= set(known)
    for info in known.values():
        assert len(info.summary) > 20


def test_heuristics_beat_random():
    batch = prepare("bombs-away", ["keeper", "random", "duelist", "random"], seed=4,
                    kernel_strategies=STRATEGIES)
    frame = to_frame(batch, *run_records(batch, 2_000, threads=1))
    rates = frame.groupby("strategy", observed=True)["win_share"].mean()
    assert rates["keeper"] > 0.3 and rates["duelist"] > 0.3 and rates["random"] < 0.15


def test_random_is_uniform_among_distinct_legal_ranks():
    """The rule file's `random`: three 2s and a K in hand are two choices, not four."""
    from simcards.games.bombs_away import view as V
    from simcards_strategies.bombs_away.random import play
    s = np.zeros(V.STATE_SIZE, np.int64)
    s[V.A_HANDS + 0], s[V.A_HANDS + 11] = 3, 1
    s[V.S_LEGAL] = (1 << 0) | (1 << 11)
    s[V.S_N_LEGAL] = 2
    rng = simcards.rng.PyRandom(1, 0, 1).as_array()
    picks = [play.py_func(V.View(s, 0), rng) for _ in range(4000)]
    assert set(picks) == {0, 11}
    assert abs(picks.count(11) / 4000 - 0.5) < 0.04


def test_reference_view_shows_only_what_the_seat_may_see():
    from simcards.games.bombs_away import view as V
    from simcards.games.bombs_away.reference import Game
    game = Game(4, SPEC.resolve_rules({}), seed=5, game_index=0)
    game.next_decision()
    seat = game.question.seat
    v = game.view()
    assert [V.held(v, k) for k in range(14)] == game.hands[seat]
    assert [V.points(v, p) for p in range(4)] == game.points
    assert [V.hand_size(v, p) for p in range(4)] == [4, 4, 4, 4]
    assert V.stock_size(v) == len(game.stock) and V.n_allowed(v) == len(game.question.options)
    assert V.legal_mask(v) == sum(1 << m for m in game.question.options)
    assert [V.legal_move(v, i) for i in range(V.n_legal(v))] == sorted(game.question.options)
    hidden = np.concatenate([v.s[V.A_STOCK:], v.s[V.S_PHASE:V.S_PHASE + 1]] + [
        v.s[V.A_HANDS + p * 14:V.A_HANDS + (p + 1) * 14] for p in range(4) if p != seat])
    assert not hidden.any()                 # other hands and the stock order stay hidden
