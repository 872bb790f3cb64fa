"""Golden playthroughs: one seeded game per game, its whole transcript stored and diffed.

A change to any rule, shuffle or strategy shows up here as a readable diff of
the game in words. After a deliberate change, rewrite the files with
``SIMCARDS_UPDATE_GOLDEN=1 python -m pytest tests/core/test_golden.py`` and
review the diff before committing it.
"""
import os
from pathlib import Path

import pytest

import simcards
from simcards.replay import record, replay
from simcards.simulate import prepare

GOLDEN = Path(__file__).parent.parent / "golden"
GAMES = {  # game: (seed, game index, line-up)
    "five-alive": (3, 2, ["expert", "random", "keep_zero", "pressure_draw"]),
    "thirty-one": (3, 1, ["greedy", "random", "threshold"]),
    "bombs-away": (3, 1, ["sniper", "random", "keeper"]),
    "vzhukh": (3, 1, ["joker_dump", "random", "cheap_beat"]),
}


def transcript(game: str) -> str:
    seed, index, lineup = GAMES[game]
    # the kernel of all the game's strategies: the one the other tests compile too
    batch = prepare(game, lineup, seed, kernel_strategies=simcards.list_strategies(game))
    ref = replay(record(game, lineup, seed, index, batch=batch))
    seats, game_row = ref.result()
    lines = [f"{game}, seed {seed}, game {index}: " + ", ".join(f"seat {i} {s}" for i, s in enumerate(lineup))]
    lines += ref.log
    lines.append("result: " + "; ".join(f"seat {p} " + " ".join(map(str, row)) for p, row in enumerate(seats)))
    lines.append("game: " + " ".join(map(str, game_row)))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_golden_playthrough(game):
    path = GOLDEN / f"{game}.txt"
    text = transcript(game)
    if os.environ.get("SIMCARDS_UPDATE_GOLDEN"):
        path.write_text(text)
    assert path.exists(), f"no golden file {path}: run with SIMCARDS_UPDATE_GOLDEN=1 once"
    assert text == path.read_text()
