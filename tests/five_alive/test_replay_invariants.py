"""Five Alive's own invariants on fast games replayed through the reference engine.

The replay itself (states, legal lists, views, card conservation, every rule option one at
a time) and the plain-Python twin at the default rules are the contract suite's
(tests/contract/test_replay.py, tests/contract/test_twin.py). Here: lives never rise, over
both editions and combinations of options the contract does not pair, and the twin on the
Russian edition, whose Life card the strategies must handle."""
import itertools

import pytest

from simcards.batch import prepare
from simcards.games.five_alive import SPEC
from simcards.replay import play_reference, record, replay
from simcards.strategy_registry import strategies_for

STRATEGIES = sorted(strategies_for(SPEC))
EDITIONS = {"standard": {}, "russian": {"edition": "russian"},
            "russian blitz": {"edition": "russian", "blitz": True, "lives": 2},
            "standard short": {"lives": 1, "hand_size": 4, "count_killer": 3, "count_redeal": 3}}
GAMES = {"standard": 120, "russian": 240, "russian blitz": 120, "standard short": 120}


def lineups():
    """Every player count 2..7 with a rotating mix of all strategies (one kernel: all of them)."""
    cycle = itertools.cycle(STRATEGIES)
    for n in range(2, 8):
        for _ in range(2):
            yield [next(cycle) for _ in range(n)]


def _lives_never_rise():
    last = {}

    def check(game):
        if "lives" in last:
            assert all(a <= b for a, b in zip(game.lives, last["lives"])), "lives rose"
        last["lives"] = list(game.lives)
    return check


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_lives_never_rise_during_a_replay(edition):
    ups = list(lineups())
    per = -(-GAMES[edition] // len(ups))
    events = 0
    for i, strategies in enumerate(ups):
        batch = prepare("five-alive", strategies, seed=1000 + i, rules=EDITIONS[edition],
                        kernel_strategies=STRATEGIES)  # one kernel for every line-up
        for g in range(per):
            rec = record("five-alive", strategies, batch.seed, g, batch=batch)
            replay(rec, check=_lives_never_rise())
            events += len(rec.moves)
    assert events > 5 * GAMES[edition]


def test_plain_python_twin_plays_the_russian_edition():
    """Reference engine + each strategy's uncompiled py_func = the compiled kernel."""
    for i, strategies in enumerate(lineups()):
        batch = prepare("five-alive", strategies, seed=50 + i, rules=EDITIONS["russian"],
                        kernel_strategies=STRATEGIES)
        for g in range(6):
            rec = record("five-alive", strategies, batch.seed, g, batch=batch)
            ref, moves = play_reference("five-alive", strategies, batch.seed, g, batch=batch)
            assert moves == [tuple(m) for m in rec.moves.tolist()]
            assert ref.result() == (rec.seats.tolist(), rec.game_row.tolist())
