"""``simcards replay --open`` and ``--json``: every hand, every view, every move."""
from __future__ import annotations

import json

from typer.testing import CliRunner

from simcards.cli import app


def test_open_shows_every_hand_and_the_view_at_each_decision():
    result = CliRunner().invoke(app, ["replay", "five-alive", "--seed", "3", "--game", "2",
                                      "--strategies", "high_first,random,random", "--open"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    hands = [line for line in lines if line.startswith("  [hands] ")]
    views = [line for line in lines if line.startswith("  [seat ")]
    assert len(hands) == len(views) > 0 and lines.index(hands[0]) < lines.index(views[0])
    assert all(f"seat {p}:" in hands[0] for p in range(3))
    assert "held=" in views[0] and "lives=[" in views[0] and "total=" in views[0]
    assert "agrees with the fast engine" in result.stdout


def test_json_carries_every_decision_with_its_view_and_move(tmp_path):
    path = tmp_path / "replay.json"
    result = CliRunner().invoke(app, ["replay", "five-alive", "--seed", "3", "--game", "2",
                                      "--strategies", "high_first,random,random", "--json", str(path)])
    assert result.exit_code == 0, result.output
    data = json.loads(path.read_text())
    assert data["game"] == "five-alive" and data["seed"] == 3 and data["game_index"] == 2
    assert data["illegal"] is None and data["result"]["seats"]
    first = data["decisions"][0]
    assert {"seat", "strategy", "decision", "view", "move", "move_text", "hands"} <= set(first)
    assert first["view"]["total"] == 0 and len(first["hands"]) == 3
    opened = CliRunner().invoke(app, ["replay", "five-alive", "--seed", "3", "--game", "2",
                                      "--strategies", "high_first,random,random", "--open"])
    assert len(data["decisions"]) == opened.stdout.count("  [seat ")
