"""The fast engine against the reference engine: recorded games replayed move by move."""
import itertools

import pytest

from simcards.games.five_alive import SPEC
from simcards.replay import play_reference, record, replay
from simcards.batch import prepare
from simcards.strategy_registry import strategies_for

STRATEGIES = sorted(strategies_for(SPEC))
GAMES_PER_EDITION = 2_000
EDITIONS = {"standard": {}, "russian": {"edition": "russian"},
            "russian blitz": {"edition": "russian", "blitz": True, "lives": 2},
            "standard short": {"lives": 1, "hand_size": 4, "count_killer": 3, "count_redeal": 3}}


def lineups():
    """Every player count 2..7 with a rotating mix of all strategies (one kernel: all of them)."""
    cycle = itertools.cycle(STRATEGIES)
    for n in range(2, 8):
        for _ in range(3):
            yield [next(cycle) for _ in range(n)]


def _invariants(conserved):
    last = {}

    def check(game):
        assert conserved(game)
        if "lives" in last:
            assert all(a <= b for a, b in zip(game.lives, last["lives"])), "lives rose"
        last["lives"] = list(game.lives)
    return check


@pytest.mark.parametrize("edition", ["standard", "russian"])
def test_two_thousand_fast_games_replay_identically(edition, conserved):
    ups = list(lineups())
    per = GAMES_PER_EDITION // len(ups) + 1
    played = events = 0
    for i, strategies in enumerate(ups):
        batch = prepare("five-alive", strategies, seed=1000 + i, rules=EDITIONS[edition],
                        kernel_strategies=STRATEGIES)  # one kernel for every line-up
        for g in range(per):
            rec = record("five-alive", strategies, batch.seed, g, batch=batch)
            replay(rec, check=_invariants(conserved))
            played += 1
            events += len(rec.moves)
    assert played >= GAMES_PER_EDITION and events > 50 * played


@pytest.mark.parametrize("variant", ["russian blitz", "standard short"])
def test_variants_replay_identically(variant, conserved):
    for i, strategies in enumerate(lineups()):
        batch = prepare("five-alive", strategies, seed=7 + i, rules=EDITIONS[variant],
                        kernel_strategies=STRATEGIES)
        for g in range(12):
            replay(record("five-alive", strategies, batch.seed, g, batch=batch), check=_invariants(conserved))


def test_plain_python_twin_plays_the_same_games():
    """Reference engine + each strategy's uncompiled py_func = the compiled kernel."""
    for i, strategies in enumerate(lineups()):
        batch = prepare("five-alive", strategies, seed=50 + i, rules={"edition": ["standard", "russian"][i % 2]},
                        kernel_strategies=STRATEGIES)
        for g in range(12):
            rec = record("five-alive", strategies, batch.seed, g, batch=batch)
            ref, moves = play_reference("five-alive", strategies, batch.seed, g, batch=batch)
            assert moves == [tuple(m) for m in rec.moves.tolist()]
            assert ref.result() == (rec.seats.tolist(), rec.game_row.tolist())


def test_replay_detects_a_tampered_record():
    rec = record("five-alive", ["high_first"] * 3, 3, 0)
    rec.snaps[5, 2] += 1
    with pytest.raises(AssertionError, match="state differs"):
        replay(rec)
