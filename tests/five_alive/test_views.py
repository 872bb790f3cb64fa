"""Five Alive's side of the engine contract: which fields are public, the views with every
public fact, the legal moves, memory, the reasons for illegal moves.

That fields tile the state, that a seat sees only its own rows, that the reference view
equals the fast state on every visible field and zero elsewhere, and that a strategy with
memory passes the twin test while one that peeks fails it, are the contract suite's
(tests/contract/test_layout.py, test_replay.py, test_twin.py)."""
import textwrap

import numpy as np
import pytest

import simcards
from simcards.batch import prepare
from simcards.engine import MEMORY_SLOTS
from simcards.errors import IllegalMove
from simcards.games.five_alive import SPEC, fast
from simcards.games.five_alive import view as V
from simcards.games.five_alive.rules import (DRAW2, KILLER, MAX_DECK, MAX_PLAYERS, N_KINDS, PASS,
                                             PLAY, SKIP, deck_counts)
from simcards.replay import play_reference


def test_layout_marks_what_each_field_shows():
    fields = V.LAYOUT.fields
    vis = {f.name: f.visibility for f in fields}
    assert vis["HANDS"] == vis["HELD"] == vis["LEGAL"] == vis["DEALT"] == vis["MEMORY"] == "seat"
    assert vis["STOCK"] == vis["RANK_KEYS"] == vis["NEXT_SEAT"] == "hidden"
    for name in ("PILE", "PILE_COUNTS", "COUNTS", "LIVES", "OUT_AT", "HAND_N", "DEALER", "TURNS",
                 "ROUNDS", "BUSTS", "DIR", "TOTAL", "STOCK_N"):
        assert vis[name] == "public", name
    assert fields[-1].name == "STOCK"
    assert V.LAYOUT.field("HANDS").shape == (MAX_PLAYERS, N_KINDS)
    assert V.LAYOUT.field("PILE").shape == (MAX_DECK,)


def test_reference_view_carries_every_public_fact(position):
    game = position(n=4, hands=[[3, KILLER, PASS], [1, 2], [5], [0, 0]], pile=[4, 7, SKIP],
                    total=11, current=0, lives=[5, 3, 0, 2])
    game.out_at = [-1, -1, 17, -1]
    game.dealer, game.turns, game.rounds, game.busts = 2, 40, 3, 6
    game.memory[0][3] = 99
    v = game.view(PLAY)
    assert v.seat == 0 and v.s.shape == (V.state_size.py_func(77),)
    assert [V.pile_card(v, i) for i in range(V.pile_size(v))] == [4, 7, SKIP]
    assert V.on_pile(v, SKIP) == 1 and V.stock_size(v) == len(game.stock)
    assert [V.deck_count(v, k) for k in range(N_KINDS)] == list(deck_counts(game.rules))
    assert V.deck_size(v) == 77 and V.starting_lives(v) == 5 and V.cards_dealt(v) == 10
    assert V.blitz(v) == 0 and V.turn_cap(v) == 10_000
    assert (V.dealer(v), V.turns(v), V.rounds(v), V.busts(v)) == (2, 40, 3, 6)
    assert [V.lives(v, p) for p in range(4)] == [5, 3, 0, 2]
    assert [V.out_at(v, p) for p in range(4)] == [-1, -1, 17, -1]
    assert [V.hand_size(v, p) for p in range(4)] == [3, 2, 1, 2]
    assert V.direction(v) == 1 and V.total(v) == 11 and V.n_players(v) == 4
    assert V.memory(v, 3) == 99
    # own hand and the legal moves; nobody else's hand, no stock
    assert V.held(v, 3) == 1 and V.held_mask(v) == (1 << 3) | (1 << KILLER) | (1 << PASS)
    assert [V.legal_move(v, i) for i in range(V.n_legal(v))] == game.legal_moves() == [3, PASS, KILLER]
    assert V.is_legal_move(v, PASS) and not V.is_legal_move(v, 5)
    visible = V.LAYOUT.visible_to(0, v.s.shape[0])
    assert not v.s[~visible].any()


def test_fast_engine_lists_the_legal_moves_it_stored(shared):
    rec = shared.record("five-alive", ["random"] * 3, 9, 0)
    out = np.zeros(N_KINDS, np.int64)
    for step, (_, _, move) in enumerate(rec.moves.tolist()):
        raw = rec.raws[step]
        count = fast.legal_moves(raw, out)
        assert move in out[:count].tolist()
        for k in range(N_KINDS):
            assert fast.is_legal(raw, PLAY, k) == (k in out[:count].tolist())
        assert not fast.is_legal(raw, PLAY, -1) and not fast.is_legal(raw, PLAY, N_KINDS)
        assert not fast.is_legal(raw, 1, out[0])


def test_illegal_moves_say_why(position):
    game = position(hands=[[7, 2, DRAW2], [1], [1]], total=15)
    with pytest.raises(IllegalMove, match="over 21"):
        game.apply(PLAY, 7)
    with pytest.raises(IllegalMove, match="holds no"):
        game.apply(PLAY, 3)
    with pytest.raises(IllegalMove, match="no such card"):
        game.apply(PLAY, N_KINDS)
    with pytest.raises(IllegalMove, match="not a Five Alive decision"):
        game.apply(1, 2)
    assert isinstance(IllegalMove("x"), simcards.errors.SimcardsError)


MEMORY_STRATEGY = '''
"""Counts its own decisions in memory slot 0 and plays the (count mod n)-th legal card."""
from numba import njit
from simcards.config import NJIT_OPTIONS
from simcards.games.five_alive.view import legal_move, memory, n_legal, pile_card, pile_size, remember


@njit(**NJIT_OPTIONS)
def decide(view, rng):
    c = memory(view, 0) + 1
    remember(view, 0, c)
    top = pile_card(view, pile_size(view) - 1) if pile_size(view) > 0 else 0
    remember(view, 1, memory(view, 1) + top)
    return legal_move(view, (c + memory(view, 1)) % n_legal(view))
'''


def test_every_game_of_a_simulate_run_starts_with_zeroed_memory(tmp_path):
    """simulate plays many games on one state per thread: a game after the first must not
    inherit the memory of the one before (the contract's twin test plays single games)."""
    folder = tmp_path / "five_alive"
    folder.mkdir()
    (folder / "counter.py").write_text(textwrap.dedent(MEMORY_STRATEGY))
    lineup = ["counter", "high_first", "counter"]
    batch = prepare("five-alive", lineup, 4, strategy_dirs=[str(tmp_path)])
    frame = simcards.simulate("five-alive", lineup, 6, seed=4, strategy_dirs=[str(tmp_path)])
    for g in range(6):
        ref, moves = play_reference("five-alive", lineup, 4, g, batch=batch)
        seats, game_row = ref.result()
        rows = frame[frame["game"] == g].sort_values("seat")
        assert rows["lives"].tolist() == [s[2] for s in seats]
        assert rows["turns"].tolist() == [game_row[1]] * 3
        assert any(m[1] in (0, 2) for m in moves)
    assert ref.memory[0][0] > 0


def test_memory_is_not_in_snapshots(shared):
    rec = shared.record("five-alive", ["high_first"] * 2, 1, 0)
    assert rec.snaps.shape[1] == fast.snapshot_size(2, SPEC.encode_params(SPEC.resolve_rules({}), 2))
    assert V.MEMORY + MAX_PLAYERS * MEMORY_SLOTS <= V.STOCK
