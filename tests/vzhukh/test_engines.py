"""Vzhukh's own invariants and outcome columns, on fast games replayed through the
reference engine.

The replay itself (states, legal lists, views, card conservation, every rule option one at a
time), the plain-Python twin, determinism over threads and chunks and the frame's declared
columns are the contract suite's (tests/contract/test_replay.py, test_twin.py,
test_determinism.py). Here: penalties never fall, no hand grows past the hand size, rule 3's
pass and the defence are reached, over combinations of options the contract does not pair."""
import numpy as np

from simcards.games.vzhukh.reference import DEFEND_DECISION
from simcards.games.vzhukh.rules import N_KINDS, deck_counts
from simcards.replay import record, replay

SEED = 20_240_501
#: a few rule variants besides the defaults, to reach options and odd decks
VARIANTS = (None, {"hand_size": 3}, {"count_voila": 12, "count_vzhukh": 9, "joker_penalty": 7},
            {"count_10": 0, "count_9": 1, "hand_size": 7})


def lineup(strategies, n, g):
    """A mixed line-up of n seats, rotating through every strategy with the game index."""
    k = len(strategies)
    return [strategies[(g * 7 + 3 * s + s * s) % k] for s in range(n)]


def _invariants():
    last = {}

    def check(game) -> None:
        assert all(game.hand_size_of(p) <= game.hand_size for p in range(game.n)), "a hand too big"
        if "penalty" in last:
            assert all(a >= b for a, b in zip(game.penalty, last["penalty"])), "a penalty fell"
        last["penalty"] = list(game.penalty)
    return check


def test_penalties_never_fall_and_hands_keep_their_size(make_batch, all_strategies):
    games = passes = defences = 0
    for n in range(2, 7):
        for g in range(60):
            rules = VARIANTS[g % len(VARIANTS)]
            # search at a small budget: these games check rules, not strength
            seats = [x + ":budget=20" if x == "search" else x for x in lineup(all_strategies, n, g)]
            rec = record("vzhukh", seats, SEED, g, rules, batch=make_batch(seats, SEED, rules))
            ref = replay(rec, check=_invariants())
            passes += ref.passes
            defences += int((rec.moves[:, 0] == DEFEND_DECISION).sum())
            games += 1
    assert games >= 300
    assert passes > 0 and defences > 0      # the odd decks reached rule 3's pass


def test_an_action_cap_leaves_games_unfinished_without_a_winner(all_strategies, shared):
    seats = [n for n in all_strategies if n != "search"]   # at most 6 seats; search is slow
    frame = shared.simulate("vzhukh", seats, 20, seed=SEED, rules={"action_cap": 40})
    assert frame["unfinished"].all() and (frame["win_share"] == 0).all()


def test_outcome_columns_add_up(all_strategies, shared):
    seats = [n for n in all_strategies if n != "search"]   # at most 6 seats; search is slow
    frame = shared.simulate("vzhukh", seats, 300, seed=9, threads=1)
    # the columns are narrow integers (simcards.frame): a sum of columns is cast first
    rounds = frame[["penalty_round1", "penalty_round2", "penalty_round3"]].astype("int64")
    assert (frame["penalty"] == rounds.sum(axis=1)).all()
    per_game = frame.groupby("game").agg(takes=("takes", "sum"), total=("takes_total", "first"),
                                         jokers=("jokers_left", "sum"),
                                         jokers_total=("jokers_left_total", "first"))
    assert (per_game["takes"] == per_game["total"]).all() and per_game["total"].sum() > 0
    assert (per_game["jokers"] == per_game["jokers_total"]).all()
    best = frame.groupby("game")["penalty"].transform("min")
    assert ((frame["win_share"] > 0) == (frame["penalty"] == best)).all()
    assert (frame["dealt_mask"] > 0).all() and (frame["dealt_mask"] < (1 << N_KINDS)).all()


def test_start_game_zeroes_the_strategies_memory_and_views_carry_it():
    """A game after the first on the same state starts with empty memory (the contract's
    twin test plays single games, so it cannot see memory leak from one game to the next)."""
    from simcards.engine import MEMORY_SLOTS, save_memory
    from simcards.games.vzhukh import fast, view as V
    from simcards.games.vzhukh.reference import Game
    from simcards.registry import get_game
    spec = get_game("vzhukh")
    rules = spec.resolve_rules(None)
    params = spec.encode_params(rules, 3)
    s = fast.new_state(3, params)
    s[V.MEMORY:V.MEMORY + 3 * MEMORY_SLOTS] = 7
    fast.start_game(s, np.array([5], np.uint64))
    assert not s[V.MEMORY:V.MEMORY + 3 * MEMORY_SLOTS].any()
    assert len(s) == V.state_size.py_func(sum(deck_counts(rules)))
    g = Game(3, rules, 1, 0)
    v = g.view(g.next_decision()[0])
    V.remember.py_func(v, 3, 42)
    save_memory(v.s, V.MEMORY, v.seat, g.memory[v.seat])
    assert V.memory.py_func(g.view(), 3) == 42 and g.memory[v.seat][3] == 42


def test_the_fast_engines_shuffle_is_rng_shuffle_range():
    """fast._shuffle_stock restates rng.shuffle_range_ahead (unsigned indices): the same
    permutation and the same generator state after it as rng.shuffle_range, on several decks
    (every game's deal is checked against the reference engine too, by the replay tests)."""
    from numba import njit

    from simcards.games.vzhukh import fast, view as V
    from simcards.registry import get_game
    from simcards.rng import shuffle_range

    @njit
    def shuffle_stock(s, rng):
        fast._shuffle_stock(s, rng)

    spec = get_game("vzhukh")
    for counts in ({}, {"count_1": 60, "count_10": 60}, {"count_voila": 0, "count_2": 1}):
        rules = spec.resolve_rules(counts)
        s = fast.new_state(2, spec.encode_params(rules, 2))
        d = int(s[V.DECK])
        states = [np.uint64(g * 0x9E3779B97F4A7C15 % 2**64) for g in range(300)]
        states.append(np.uint64(0))
        for x in states:
            mine, theirs = s.copy(), s.copy()
            mine[V.STOCK:V.STOCK + d] = theirs[V.STOCK:V.STOCK + d] = np.arange(d)
            a, b = np.array([x], np.uint64), np.array([x], np.uint64)
            shuffle_stock(mine, a)
            shuffle_range(theirs, V.STOCK, d, b)
            assert (mine[V.STOCK:V.STOCK + d] == theirs[V.STOCK:V.STOCK + d]).all() and a[0] == b[0]
