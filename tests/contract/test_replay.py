"""The fast engine against the reference engine, move by move, for every game.

``simcards.replay.replay`` compares the complete state (stock order included) before and
after every decision, the two engines' lists of legal moves, and the reference engine's
view with the fast state on every field the layout lets the seat see (hidden fields
must be zero in the view). Cards are conserved after every move.
"""
from __future__ import annotations

from collections import Counter

import pytest

from simcards.replay import record, replay

GAMES_DEFAULT_RULES = 1_200   # per game, over every player count and strategy mix
GAMES_PER_LINEUP_PER_VARIANT = 1  # every variant x every line-up: enough to hit its branches


def _conserved(ref) -> None:
    assert Counter(ref.cards()) == Counter(ref.deck()), "a card appeared or vanished"


def _replay_many(kit, game: str, rules: dict, games_per_lineup: int, seed: int) -> int:
    moves = 0
    for i, lineup in enumerate(kit.lineups(game)):
        if not kit.usable(game, lineup, rules):
            continue
        batch = kit.batch_for(game, lineup, seed + i, rules)
        for g in range(games_per_lineup):
            rec = record(game, lineup, batch.seed, g, batch=batch)
            replay(rec, check=_conserved)
            moves += len(rec.moves)
    return moves


def test_fast_games_replay_through_the_reference_engine(game, kit):
    per = -(-GAMES_DEFAULT_RULES // len(kit.lineups(game)))
    moves = _replay_many(kit, game, {}, per, seed=1000)
    assert moves > 10 * GAMES_DEFAULT_RULES


def test_every_rule_option_replays_too(game, kit):
    variants = kit.rule_variants(game)
    assert variants, "a game with rule options exercises each of them"
    played = 0
    for label, rules in variants:
        played += _replay_many(kit, game, rules, GAMES_PER_LINEUP_PER_VARIANT, seed=77) > 0
    assert played >= len(variants) // 2, "most variants must fit some player count"


def test_replay_detects_a_tampered_record(game, kit):
    lineup = kit.lineups(game)[0]
    rec = record(game, lineup, 3, 0, batch=kit.batch_for(game, lineup, 3))
    rec.snaps[min(3, len(rec.snaps) - 1), 0] += 1
    with pytest.raises(AssertionError, match="differ"):
        replay(rec)


def test_replay_detects_a_wrong_legal_list(game, kit):
    from simcards.replay import _check_decision
    lineup = kit.lineups(game)[0]
    rec = record(game, lineup, 3, 0, batch=kit.batch_for(game, lineup, 3))
    spec = rec.batch.spec
    ref = spec.reference.Game(rec.batch.n_players, rec.batch.rules, rec.batch.seed, 0)
    kind, seat = ref.next_decision()
    _check_decision(rec, 0, ref, kind, seat)          # as played: agrees
    ref.legal_moves = lambda: [-12345]                 # a reference that lists another move
    with pytest.raises(AssertionError, match="legal moves differ"):
        _check_decision(rec, 0, ref, kind, seat)
