"""Same seed, same frame, bit for bit, whatever the threads, chunks or first game index."""
from __future__ import annotations

import pandas as pd

import simcards
import simcards.run.chunk     # where a chunk is played, a slice of records at a time (simcards.runner before)


def test_threads_and_chunks_do_not_change_a_frame(game, kit, shared, monkeypatch):
    lineup = kit.lineups(game)[-1]
    # 150 games: chunks of 7 and of 120 both end on a partial chunk; a search seat makes
    # Thirty-One's games cost about 20 ms each
    one = shared.simulate(game, lineup, 150, seed=9, threads=1, chunk_size=150)
    # a thread hands a chunk's records to the frame a slice at a time (whole here: the
    # default slice is longer than the run); slices of 11 and 64 end partial in most chunks
    for threads, chunk, records_slice in ((2, 7, 11), (2, 120, 11), (1, 150, 64), (1, 1, 11)):
        monkeypatch.setattr(simcards.run.chunk, "RECORDS_SLICE", records_slice)
        other = shared.simulate(game, lineup, 150, seed=9, threads=threads, chunk_size=chunk)
        pd.testing.assert_frame_equal(one, other)
    monkeypatch.undo()
    part = shared.simulate(game, lineup, 50, seed=9, start=100)
    pd.testing.assert_frame_equal(part.reset_index(drop=True),
                                  one[one["game"].between(100, 149)].reset_index(drop=True))
    assert not shared.simulate(game, lineup, 150, seed=10).equals(one)


def test_the_frame_has_the_declared_columns(game, kit, shared):
    spec = simcards.get_game(game)
    lineup = kit.lineups(game)[0]
    frame = shared.simulate(game, lineup, 50, seed=1)
    from simcards.registry import FRAME_COLUMNS
    assert list(frame.columns) == list(FRAME_COLUMNS + spec.seat_columns + spec.game_columns)
    assert frame["unfinished"].dtype == bool
    assert len(frame) == 50 * len(lineup)
    wins = frame.groupby("game")["win_share"].sum()
    finished = ~frame.groupby("game")["unfinished"].first()
    assert ((wins[finished] - 1).abs() < 1e-9).all()        # a finished game shares one win
