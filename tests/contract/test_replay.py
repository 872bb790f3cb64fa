"""The fast engine against the reference engine, move by move, for every game.

``simcards.replay.replay`` compares the complete state (stock order included) before and
after every decision, the two engines' lists of legal moves, and the reference engine's
view with the fast state on every field the layout lets the seat see (hidden fields
must be zero in the view). Cards are conserved after every move.
"""
from __future__ import annotations

from collections import Counter

import pytest

import simcards
from simcards.replay import record, replay

GAMES_DEFAULT_RULES = 600     # per game, over every player count and strategy mix
GAMES_PER_LINEUP_PER_VARIANT = 2


def _conserved(ref) -> None:
    assert Counter(ref.cards()) == Counter(ref.deck()), "a card appeared or vanished"


def _replay_many(kit, game: str, rules: dict, games_per_lineup: int, seed: int,
                 kinds: Counter | None = None) -> int:
    moves = 0
    for i, lineup in enumerate(kit.lineups(game)):
        if not kit.usable(game, lineup, rules):
            continue
        batch = kit.batch_for(game, lineup, seed + i, rules)
        for g in range(games_per_lineup):
            rec = record(game, lineup, batch.seed, g, batch=batch)
            replay(rec, check=_conserved)
            moves += len(rec.moves)
            if kinds is not None:
                kinds.update(rec.moves[:, 0].tolist())
    return moves


def test_fast_games_replay_through_the_reference_engine(game, kit):
    per = -(-GAMES_DEFAULT_RULES // len(kit.lineups(game)))
    kinds: Counter = Counter()
    moves = _replay_many(kit, game, {}, per, seed=1000, kinds=kinds)
    assert moves > 10 * GAMES_DEFAULT_RULES
    spec = simcards.get_game(game)
    unseen = [d.name for k, d in enumerate(spec.decisions) if kinds[k] == 0]
    assert not unseen, f"decisions never asked in {GAMES_DEFAULT_RULES} games: {unseen}"


def test_every_rule_option_replays_too(game, kit):
    variants = kit.rule_variants(game)
    assert variants, "a game with rule options exercises each of them"
    played = 0
    for j, (label, rules) in enumerate(variants):
        # two line-ups per variant among those it fits (and changes: kit.usable), turning
        # through the player counts from one variant to the next
        lineups = [u for u in kit.lineups(game) if kit.usable(game, u, rules)]
        if not lineups:
            continue
        for lineup in (lineups[j % len(lineups)], lineups[(j + len(lineups) // 2) % len(lineups)]):
            batch = kit.batch_for(game, lineup, 77 + j, rules)
            for g in range(GAMES_PER_LINEUP_PER_VARIANT):
                replay(record(game, lineup, batch.seed, g, batch=batch), check=_conserved)
            played += 1
    assert played >= len(variants), "most variants must fit some player count"


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
