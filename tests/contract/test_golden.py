"""Golden playthroughs: one seeded game per game, its whole transcript stored and diffed.

The file's first line names the seed, the game index and the line-up, so a new game
needs no line here: run ``SIMCARDS_UPDATE_GOLDEN=1 python -m pytest tests/contract/test_golden.py``
once (a game without a file gets a line-up of its strategies), review, commit. A change to
any rule, shuffle or strategy shows up as a readable diff of the game in words.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

from simcards.replay import record, replay

GOLDEN = Path(__file__).parent.parent / "golden"
HEADER = re.compile(r"^(?P<game>[\w-]+), seed (?P<seed>\d+), game (?P<index>\d+): (?P<seats>.*)$")


def _setup(game: str, kit) -> tuple[int, int, list[str]]:
    path = GOLDEN / f"{game}.txt"
    if path.exists():
        m = HEADER.match(path.read_text().splitlines()[0])
        seats = [s.split(" ", 2)[2] for s in m["seats"].split(", ")]
        return int(m["seed"]), int(m["index"]), seats
    return 3, 1, kit.lineups(game)[1]


def transcript(game: str, kit) -> str:
    seed, index, lineup = _setup(game, kit)
    ref = replay(record(game, lineup, seed, index, batch=kit.batch_for(game, lineup, seed)))
    seats, game_row = ref.result()
    lines = [f"{game}, seed {seed}, game {index}: " + ", ".join(f"seat {i} {s}" for i, s in enumerate(lineup))]
    lines += ref.log
    lines.append("result: " + "; ".join(f"seat {p} " + " ".join(map(str, row)) for p, row in enumerate(seats)))
    lines.append("game: " + " ".join(map(str, game_row)))
    return "\n".join(lines) + "\n"


def test_golden_playthrough(game, kit):
    path = GOLDEN / f"{game}.txt"
    text = transcript(game, kit)
    if os.environ.get("SIMCARDS_UPDATE_GOLDEN"):
        path.write_text(text)
    assert path.exists(), f"no golden file {path}: run with SIMCARDS_UPDATE_GOLDEN=1 once"
    assert text == path.read_text()
