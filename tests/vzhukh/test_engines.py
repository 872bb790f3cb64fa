"""The fast engine against the reference engine: replay, twin, conservation, determinism."""
import numpy as np
import pandas as pd

from simcards.games.vzhukh.reference import DEFEND_DECISION
from simcards.games.vzhukh.rules import N_KINDS, deck_counts
from simcards.replay import play_reference, record, replay
from simcards.simulate import simulate

SEED = 20_240_501
#: a few rule variants besides the defaults, to reach options and odd decks
VARIANTS = (None, {"hand_size": 3}, {"count_voila": 12, "count_vzhukh": 9, "joker_penalty": 7},
            {"count_10": 0, "count_9": 1, "hand_size": 7})


def lineup(strategies, n, g):
    """A mixed line-up of n seats, rotating through every strategy with the game index."""
    k = len(strategies)
    return [strategies[(g * 7 + 3 * s + s * s) % k] for s in range(n)]


def conserved(game) -> None:
    """Every card is in a hand, the stock, the stack or the discard pile, once."""
    counts = [0] * N_KINDS
    for h in game.hands:
        for k in range(N_KINDS):
            counts[k] += h[k]
    for k in game.stock:
        counts[k] += 1
    for k in range(N_KINDS):
        counts[k] += game.discard[k]
    if game.stack_count:
        counts[game.stack_kind] += game.stack_count
    assert tuple(counts) == deck_counts(game.rules)
    assert all(game.hand_size_of(p) <= game.hand_size for p in range(game.n))


def test_differential_replay_of_2000_games(make_batch, all_strategies):
    games = 0
    seen_passes = 0
    for n in range(2, 7):
        for g in range(400):
            rules = VARIANTS[g % len(VARIANTS)] if g % 5 == 0 else None
            seats = lineup(all_strategies, n, g)
            rec = record("vzhukh", seats, SEED, g, rules, batch=make_batch(seats, SEED, rules))
            ref = replay(rec)
            seen_passes += ref.passes
            games += 1
    assert games >= 2000
    assert seen_passes > 0            # the odd decks reached rule 3's pass


def test_card_conservation_after_every_move(make_batch, all_strategies):
    moves = 0
    for g in range(150):
        n = 2 + g % 5
        rules = VARIANTS[g % len(VARIANTS)]
        seats = lineup(all_strategies, n, g)
        rec = record("vzhukh", seats, SEED + 1, g, rules, batch=make_batch(seats, SEED + 1, rules))
        replay(rec, check=conserved)        # after the deal and after every move
        moves += len(rec.moves)
    assert moves > 150 * 50


def test_twin_reference_with_python_strategies_equals_fast_record(make_batch, all_strategies):
    defences = 0
    for g in range(200):
        n = 2 + g % 5
        seats = lineup(all_strategies, n, g)
        batch = make_batch(seats, SEED + 2)
        rec = record("vzhukh", seats, SEED + 2, g, batch=batch)
        ref, moves = play_reference("vzhukh", seats, SEED + 2, g, batch=batch)
        assert np.array_equal(np.array(moves, dtype=np.int64).reshape(-1, 3), rec.moves)
        assert ref.result() == (rec.seats.tolist(), rec.game_row.tolist())
        defences += sum(1 for kind, _, _ in moves if kind == DEFEND_DECISION)
    assert defences > 0


def test_unfinished_games_are_counted_under_a_small_cap(make_batch, all_strategies):
    seats = list(all_strategies)
    rules = {"action_cap": 40}
    for g in range(20):
        rec = record("vzhukh", seats, SEED, g, rules, batch=make_batch(seats, SEED, rules))
        ref = replay(rec)
        assert ref.unfinished and rec.game_row[-1] == 1 and rec.seats[:, 0].sum() == 0


def test_same_frame_for_any_chunk_size_and_thread_count(make_batch, all_strategies):
    seats = list(all_strategies) + [all_strategies[0]]     # six seats, the shared kernel's set
    make_batch(seats)
    a = simulate("vzhukh", seats, 600, seed=5, threads=1)
    b = simulate("vzhukh", seats, 600, seed=5, threads=2, chunk_size=37)
    c = simulate("vzhukh", seats, 600, seed=5, threads=2, chunk_size=600)
    pd.testing.assert_frame_equal(a, b)
    pd.testing.assert_frame_equal(a, c)
    assert set(a.columns) >= {"penalty", "penalty_round1", "penalty_round2", "penalty_round3",
                              "takes", "jokers_left", "dealt_mask", "actions", "unfinished"}
    assert (a["penalty"] == a["penalty_round1"] + a["penalty_round2"] + a["penalty_round3"]).all()
    d = simulate("vzhukh", seats, 600, seed=6, threads=1)
    assert not a["penalty"].equals(d["penalty"])


def test_outcome_columns_add_up(make_batch, all_strategies):
    seats = list(all_strategies)
    frame = simulate("vzhukh", seats, 300, seed=9, threads=1)
    per_game = frame.groupby("game").agg(takes=("takes", "sum"), total=("takes_total", "first"),
                                         jokers=("jokers_left", "sum"),
                                         jokers_total=("jokers_left_total", "first"))
    assert (per_game["takes"] == per_game["total"]).all() and per_game["total"].sum() > 0
    assert (per_game["jokers"] == per_game["jokers_total"]).all()
    winners = frame.groupby("game")["win_share"].sum()
    finished = ~frame.groupby("game")["unfinished"].first()
    assert np.allclose(winners[finished], 1.0)
    best = frame.groupby("game")["penalty"].transform("min")
    assert ((frame["win_share"] > 0) == (frame["penalty"] == best)).all()
    assert (frame["dealt_mask"] > 0).all() and (frame["dealt_mask"] < (1 << N_KINDS)).all()


def test_start_game_zeroes_the_strategies_memory_and_views_carry_it():
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
    assert len(s) == V.STOCK + sum(deck_counts(rules))
    g = Game(3, rules, 1, 0)
    v = g.view(g.next_decision()[0])
    V.remember.py_func(v, 3, 42)
    save_memory(v.s, V.MEMORY, v.seat, g.memory[v.seat])
    assert V.memory.py_func(g.view(), 3) == 42 and g.memory[v.seat][3] == 42
