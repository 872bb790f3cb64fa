"""An experiment as validated (``Experiment``), its cells (``Cell``: the games played under one
set of rules at one player count), the keys of its file and their defaults."""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simcards.contract.registry import GameSpec


TOP_KEYS = ("game", "title", "description", "seed", "players", "games", "precision", "max_games",
            "max_minutes", "tolerance", "alpha", "power", "looks", "seconds_per_turn", "seconds", "skill",
            "rules", "lineups", "sweep", "balance")


LINEUP_KEYS = ("mirror", "pool", "explicit", "rotate")


SKILL_KEYS = ("player", "oracle_deals", "oracle_budget")


#: The information ceiling's search budget: search and its open-hand oracle play at this many
#: rollouts a decision (about a millisecond), so a few hundred deals cost seconds, not minutes.
DEFAULT_ORACLE_BUDGET = 100


SWEEP_KEYS = ("option", "values", "players", "grid_option", "grid_values")


DEFAULT_GAMES = 1000


DEFAULT_MAX_GAMES = 1_000_000


DEFAULT_TOLERANCE = 0.02


DEFAULT_SECONDS_PER_TURN = 10.0


DEFAULT_ALPHA = 0.05


DEFAULT_POWER = 0.8


DEFAULT_LOOKS = 5


AUTO = "auto"


MAIN = "main"


SWEEP = "sweep"


@dataclass(frozen=True)
class Cell:
    """Games played under one set of rules at one player count: its line-ups share the deals."""

    id: int
    part: str                        # "main" or "sweep"
    players: int
    rules: dict                      # every option resolved
    lineups: tuple[tuple[str, ...], ...]
    mirror: tuple[bool, ...]         # per line-up: every seat the same strategy
    sweep_value: Any = None

    @property
    def label(self) -> str:
        if self.part == SWEEP:
            return f"{self.players} players, sweep value {self.sweep_value}"  # a grid's: (value, grid value)
        return f"{self.players} players"


@dataclass
class Experiment:
    path: Path
    name: str
    spec: GameSpec
    title: str
    description: str
    seed: int
    players: tuple[int, ...]
    games: int
    precision: float | None
    max_games: int
    rules: dict                      # as given (user values)
    resolved_rules: dict             # every option resolved
    mirror: tuple[str, ...]
    pool: tuple[str, ...]
    explicit: tuple[tuple[str, ...], ...]
    rotate: bool
    sweep_option: str | None = None
    sweep_values: tuple = ()
    sweep_players: tuple[int, ...] = ()
    source: str = ""
    tolerance: float = DEFAULT_TOLERANCE
    seconds_per_turn: float = DEFAULT_SECONDS_PER_TURN
    mirror_note: str = ""            # where "auto" mirrors came from
    grid_option: str | None = None   # a second swept option: the sweep is a grid
    grid_values: tuple = ()
    skill: str | bool | None = None  # the skill index's strong player: None/"auto", a name, False
    seconds: dict = field(default_factory=dict)   # the [seconds] table: game column -> seconds
    alpha: float = DEFAULT_ALPHA                  # the verdict's level
    power: float = DEFAULT_POWER                  # the planned deals' chance to decide
    looks: int = DEFAULT_LOOKS                    # the sequential verdict's most looks
    max_minutes: float | None = None              # cap on the sequential rounds' minutes
    oracle_deals: int = 0                         # [skill] oracle_deals: the ceiling's deals (0: off)
    oracle_budget: int = 0                        # [skill] oracle_budget: its search's rollouts
    # the [balance] table as given: read by ``simcards balance`` (simcards.balancing.config),
    # which a plain report of the same file does without (it plays the rules as they are)
    balance: dict = field(default_factory=dict)

    @property
    def time_costs(self) -> dict[str, float]:
        """Seconds per unit of each costed game column: the step column at ``seconds_per_turn``
        unless the ``[seconds]`` table names it, and every column of that table."""
        return {self.spec.step_column: self.seconds_per_turn, **self.seconds}

    @property
    def sweep_default(self):
        """The swept option's value in the main rules: the baseline of every sweep effect."""
        return None if self.sweep_option is None else self.resolved_rules[self.sweep_option]

    @property
    def grid_default(self):
        return None if self.grid_option is None else self.resolved_rules[self.grid_option]

    @property
    def sweep_base(self):
        """The sweep value of the baseline: the default, or for a grid the pair of defaults."""
        return self.sweep_default if self.grid_option is None else (self.sweep_default, self.grid_default)

    @property
    def sweep_points(self) -> list:
        """The sweep's values; for a grid every (value, grid value) pair, values outermost."""
        if self.grid_option is None:
            return list(self.sweep_values)
        return list(itertools.product(self.sweep_values, self.grid_values))

    def sweep_rules(self, value) -> dict:
        """The rules given, with the swept option(s) set to a sweep value."""
        rules = dict(self.rules)
        if self.grid_option is None:
            rules[self.sweep_option] = value
        else:
            rules[self.sweep_option], rules[self.grid_option] = value
        return rules

    def sweep_label(self, value) -> str:
        """``lives=3``, or for a grid ``lives=3, hand_size=8``."""
        if self.grid_option is None:
            return f"{self.sweep_option}={value}"
        return f"{self.sweep_option}={value[0]}, {self.grid_option}={value[1]}"
    cells: list[Cell] = field(default_factory=list)

    @property
    def strategies(self) -> tuple[str, ...]:
        """Every strategy the experiment plays, sorted: one kernel serves all line-ups."""
        names = set(self.mirror) | set(self.pool)
        for lineup in self.explicit:
            names |= set(lineup)
        return tuple(sorted(names))

    def to_dict(self) -> dict:
        """The experiment as resolved: enough to run it again exactly."""
        return {
            "file": str(self.path), "name": self.name, "game": self.spec.name, "title": self.title,
            "description": self.description, "seed": self.seed, "players": list(self.players),
            "games": self.games, "precision": self.precision, "max_games": self.max_games,
            "tolerance": self.tolerance, "seconds_per_turn": self.seconds_per_turn,
            "seconds": dict(self.seconds),
            "alpha": self.alpha, "power": self.power, "looks": self.looks, "max_minutes": self.max_minutes,
            "mirror_note": self.mirror_note, "skill": self.skill,
            "oracle_deals": self.oracle_deals, "oracle_budget": self.oracle_budget, "rules_given": dict(self.rules), "rules": dict(self.resolved_rules),
            "lineups": {"mirror": list(self.mirror), "pool": list(self.pool),
                        "explicit": [list(x) for x in self.explicit], "rotate": self.rotate},
            "sweep": None if self.sweep_option is None else {
                "option": self.sweep_option, "values": list(self.sweep_values),
                "players": list(self.sweep_players),
                **({} if self.grid_option is None else {"grid_option": self.grid_option,
                                                        "grid_values": list(self.grid_values)})},
            "cells": [{"id": c.id, "part": c.part, "players": c.players,
                       "sweep_value": list(c.sweep_value) if isinstance(c.sweep_value, tuple) else c.sweep_value,
                       "rules": c.rules, "lineups": [list(x) for x in c.lineups]} for c in self.cells],
        }
