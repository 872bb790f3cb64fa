"""Experiments: a TOML file in ``experiments/``, validated on load.

An experiment names a game, its rule options, the player counts, the line-ups (mirror, pool,
explicit), the games per line-up or a target precision, the seed, and optionally rule options
swept over values. Every mistake in the file is a ``SimcardsError`` of one line naming the file,
the key and what is accepted.

The file format, every key with its default, and what the sequential verdict and the sweeps do
with them: docs/reference/experiment-format.md (keep it in step with ``TOP_KEYS`` and
``parse_experiment``).
"""
from __future__ import annotations

import itertools
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simcards.run.designs import pool_lineups, rotated_lineups
from simcards.compiled import params as sparams
from simcards.errors import SimcardsError, choices
from simcards.contract.registry import GameSpec, get_game
from simcards.contract.strategy_registry import is_search
from simcards.compiled.rng import MAX_SEED

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


class _Checker:
    """Builds the one-line errors: ``FILE: key 'K': PROBLEM; accepted: WHAT``."""

    def __init__(self, path: Path):
        self.path = path

    def fail(self, key: str, problem: str, accepted: str) -> SimcardsError:
        return SimcardsError(f"{self.path}: key {key!r}: {problem}; accepted: {accepted}")

    def keys(self, table: dict, allowed: tuple[str, ...], prefix: str = "") -> None:
        for key in table:
            if key not in allowed:
                raise self.fail(prefix + key, "unknown key", choices(allowed))

    def integer(self, table: dict, key: str, default, lo: int, hi: int, prefix: str = "") -> int:
        value = table.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise self.fail(prefix + key, f"bad value {value!r}", f"an integer {lo}..{hi}")
        return value

    def text(self, table: dict, key: str, default: str, prefix: str = "") -> str:
        value = table.get(key, default)
        if not isinstance(value, str):
            raise self.fail(prefix + key, f"bad value {value!r}", "a string")
        return value

    def int_list(self, table: dict, key: str, lo: int, hi: int, prefix: str = "") -> tuple[int, ...]:
        value = table.get(key)
        accepted = f"a non-empty list of integers {lo}..{hi}"
        if not isinstance(value, list) or not value:
            raise self.fail(prefix + key, f"bad value {value!r}", accepted)
        for v in value:
            if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
                raise self.fail(prefix + key, f"bad value {v!r}", accepted)
        return tuple(sorted(set(value)))

    def table(self, data: dict, key: str) -> dict:
        value = data.get(key, {})
        if not isinstance(value, dict):
            raise self.fail(key, f"bad value {value!r}", "a table")
        return value


def _strategy_names(check: _Checker, spec: GameSpec, value, key: str, known: dict,
                    allow_all: bool = True) -> tuple[str, ...]:
    accepted = "a list of strategy names" + (' or "all"' if allow_all else "")
    if allow_all and value == "all":
        return tuple(sorted(known))
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise check.fail(key, f"bad value {value!r}", accepted)
    for i, name in enumerate(value):
        _check_strategy(check, spec, name, f"{key}[{i}]", known)
    if len(set(value)) != len(value):
        raise check.fail(key, f"a strategy is listed twice in {value!r}", "distinct names")
    return tuple(value)


def _check_strategy(check: _Checker, spec: GameSpec, text: str, key: str, known: dict) -> None:
    """A strategy name as a seat may give it, with run-time parameters or without
    (``search:budget=200``, simcards.params): the name known, every key and value accepted."""
    try:
        name, given = sparams.split(text)
    except SimcardsError as exc:
        raise check.fail(key, str(exc), "name or name:key=value:...") from None
    if name not in known:
        raise check.fail(key, f"unknown strategy {name!r} for {spec.name}", choices(sorted(known)))
    info = known[name]
    if info.alias:          # an alias takes the parameters of the strategy it plays
        info = known.get(sparams.split(info.alias)[0], info)
    try:
        sparams.resolve(name, info.params, given, text)
    except SimcardsError as exc:
        raise check.fail(key, str(exc), sparams.describe(info.params) or "no parameters") from None


def rotations(lineup: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Every seating of a line-up in the seat-order design (simcards.designs): every
    strategy in every seat, and beside every other, equally often."""
    return rotated_lineups(lineup)


def lineups_for(exp: Experiment, n: int) -> tuple[list[tuple[str, ...]], list[bool]]:
    lineups: list[tuple[str, ...]] = []
    mirror: list[bool] = []

    def add(lineup, is_mirror, repeat=False):
        # a Williams design may seat a line-up twice on purpose (its balance needs it)
        if repeat or lineup not in lineups:
            lineups.append(lineup)
            mirror.append(is_mirror)

    for s in exp.mirror:
        add((s,) * n, True)
    if exp.pool:
        for lineup in (seated for drawn in pool_lineups(exp.pool, n) for seated in rotations(drawn)):
            add(lineup, len(set(lineup)) == 1, repeat=len(set(lineup)) > 1)
    for lineup in exp.explicit:
        if len(lineup) == n:
            for rot in (rotations(lineup) if exp.rotate else [lineup]):
                add(rot, len(set(rot)) == 1, repeat=exp.rotate and len(set(rot)) > 1)
    return lineups, mirror


def _build_cells(exp: Experiment, check: _Checker) -> list[Cell]:
    cells: list[Cell] = []
    parts = [(MAIN, None, exp.players, exp.resolved_rules)]
    if exp.sweep_option is not None:
        default = exp.sweep_base
        points = exp.sweep_points
        for value in points:
            # the default is the main cell where there is one: not played twice
            counts = tuple(n for n in exp.sweep_players if value != default or n not in exp.players)
            if counts:
                parts.append((SWEEP, value, counts, exp.sweep_rules(value)))
        baseline = tuple(n for n in exp.sweep_players if n not in exp.players and default not in points)
        if baseline:
            parts.append((SWEEP, default, baseline, dict(exp.rules)))
    for part, value, counts, rules in parts:
        key = ("sweep.values" if exp.grid_option is None else "sweep") if part == SWEEP else "rules"
        try:
            resolved = exp.spec.resolve_rules(rules)
        except SimcardsError as exc:
            raise check.fail(key, str(exc), "values the game accepts (`simcards rules "
                             f"{exp.spec.name}`)") from None
        for n in counts:
            lineups, mirror = lineups_for(exp, n)
            if not lineups:
                raise check.fail("players", f"no line-up has {n} players",
                                 "player counts of the explicit line-ups, or add mirror or pool")
            try:
                exp.spec.encode_params(resolved, n)
            except SimcardsError as exc:
                where = key if part != SWEEP else (f"{key} (value {value!r})" if exp.grid_option is None
                                                   else f"{key} ({exp.sweep_label(value)})")
                raise check.fail(where, f"{exc} at {n} players", "rules playable at every "
                                 "player count of the experiment") from None
            cells.append(Cell(len(cells), part, n, resolved, tuple(lineups), tuple(mirror), value))
    return cells


def _positive(check: _Checker, data: dict, key: str, default: float, hi: float, accepted: str) -> float:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < hi:
        raise check.fail(key, f"bad value {value!r}", accepted)
    return float(value)


def auto_mirrors(path: Path, spec: GameSpec, known: dict) -> tuple[tuple[str, ...], str]:
    """``mirror = "auto"``: the strongest strategy of the game's last tournament, plus random.

    The tournament is ``reports/<game>_tournament/summary.json`` beside the
    experiments folder (its highest Plackett-Luce rating); without one, the
    game's bench strategy stands in, and the note says so."""
    folder = path.resolve().parent
    base = folder.parent / "reports" if folder.name == "experiments" else Path("reports")
    summary = base / f"{spec.name.replace('-', '_')}_tournament" / "summary.json"
    best, note = None, ""
    if summary.is_file():
        import json
        # a mirror plays every seat of thousands of games: heuristics only, never a search
        # player (its strength enters the report through the skill index instead)
        ratings = [r for r in json.loads(summary.read_text()).get("records", [])
                   if r["kind"] == "rating" and is_search(known, r["name"]) is False]
        if ratings:
            best = max(ratings, key=lambda r: r["estimate"])["name"]
            note = (f"strongest heuristic of the last tournament ({summary.parent.name}) and random")
    if best is None:
        best = spec.bench_strategy
        note = f"no tournament summary found: the game's bench strategy {best} and random"
    names = tuple(dict.fromkeys([best] + (["random"] if "random" in known else [])))
    return names, note


def parse_experiment(path: Path, text: str) -> Experiment:
    """Validate an experiment's TOML text; ``path`` names it in every error."""
    from simcards.contract.strategy_registry import strategies_for
    check = _Checker(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SimcardsError(f"{path}: not valid TOML: {exc}") from None
    if not data:
        raise check.fail("game", "missing: the file holds no settings (empty)",
                         "a TOML experiment with at least game, players and [lineups]")
    check.keys(data, TOP_KEYS)
    if "game" not in data:
        raise check.fail("game", "missing", "a game name from `simcards games`")
    if not isinstance(data["game"], str):
        raise check.fail("game", f"bad value {data['game']!r}", "a game name from `simcards games`")
    from simcards.contract.registry import games
    known_games = games()
    if data["game"] not in known_games:
        raise check.fail("game", f"unknown game {data['game']!r}", choices(known_games))
    spec = get_game(data["game"])
    known = strategies_for(spec)

    seed = check.integer(data, "seed", 0, 0, MAX_SEED)
    games_n = check.integer(data, "games", DEFAULT_GAMES, 1, 100_000_000)
    max_games = check.integer(data, "max_games", DEFAULT_MAX_GAMES, 1, 1_000_000_000)
    precision = data.get("precision")
    if precision is not None and (isinstance(precision, bool) or not isinstance(precision, (int, float))
                                  or not 0 < precision < 0.5):
        raise check.fail("precision", f"bad value {precision!r}",
                         "a number between 0 and 0.5 (half-width of a 95% interval, e.g. 0.005)")
    tolerance = _positive(check, data, "tolerance", DEFAULT_TOLERANCE, 0.5,
                          "a number between 0 and 0.5 (win-rate points as a fraction, e.g. 0.02)")
    seconds_per_turn = _positive(check, data, "seconds_per_turn", DEFAULT_SECONDS_PER_TURN, 3600,
                                 "a number of seconds between 0 and 3600")
    seconds = _seconds_table(check, spec, data)
    alpha = _positive(check, data, "alpha", DEFAULT_ALPHA, 0.5, "a number between 0 and 0.5 (e.g. 0.05)")
    power = _positive(check, data, "power", DEFAULT_POWER, 1.0, "a number between 0 and 1 (e.g. 0.8)")
    looks = check.integer(data, "looks", DEFAULT_LOOKS, 1, 100)
    max_minutes = (None if "max_minutes" not in data else
                   _positive(check, data, "max_minutes", 1.0, 100_000, "a number of minutes above 0"))
    title = check.text(data, "title", f"{spec.title}: {path.stem}")
    description = check.text(data, "description", "")

    rules = check.table(data, "rules")
    for key, value in rules.items():
        opt = {o.name: o for o in spec.options}.get(key)
        if opt is None:
            raise check.fail(f"rules.{key}", f"unknown rule option for {spec.name}",
                             choices(o.name for o in spec.options))
        try:
            opt.convert(spec.name, value)
        except SimcardsError:
            raise check.fail(f"rules.{key}", f"bad value {value!r}", opt.accepted()) from None
        if opt.kind is str and not isinstance(value, str):
            raise check.fail(f"rules.{key}", f"bad value {value!r}", opt.accepted())
    try:
        resolved = spec.resolve_rules(rules)
    except SimcardsError as exc:
        raise check.fail("rules", str(exc), "a combination of options the game accepts") from None

    lineups = check.table(data, "lineups")
    check.keys(lineups, LINEUP_KEYS, "lineups.")
    if not any(k in lineups for k in ("mirror", "pool", "explicit")):
        raise check.fail("lineups", "no line-ups given", "a table with mirror, pool or explicit")
    mirror_note = ""
    if lineups.get("mirror") == AUTO:
        mirror, mirror_note = auto_mirrors(path, spec, known)
    else:
        mirror = _strategy_names(check, spec, lineups.get("mirror", []), "lineups.mirror", known)
    pool = _strategy_names(check, spec, lineups.get("pool", []), "lineups.pool", known)
    if "pool" in lineups and len(pool) < 2:
        raise check.fail("lineups.pool", f"{len(pool)} strategies",
                         f"at least 2 strategies (the game has {choices(sorted(known))})")
    rotate = lineups.get("rotate", True)
    if not isinstance(rotate, bool):
        raise check.fail("lineups.rotate", f"bad value {rotate!r}", "true or false")
    explicit_raw = lineups.get("explicit", [])
    if not isinstance(explicit_raw, list):
        raise check.fail("lineups.explicit", f"bad value {explicit_raw!r}",
                         "a list of line-ups, each a list of strategy names (one per seat)")
    explicit = []
    for i, lineup in enumerate(explicit_raw):
        key = f"lineups.explicit[{i}]"
        if not isinstance(lineup, list) or not all(isinstance(s, str) for s in lineup):
            raise check.fail(key, f"bad value {lineup!r}", "a list of strategy names, one per seat")
        if not spec.min_players <= len(lineup) <= spec.max_players:
            raise check.fail(key, f"{len(lineup)} seats",
                             f"{spec.min_players}..{spec.max_players} strategies (one per seat)")
        for j, name in enumerate(lineup):
            _check_strategy(check, spec, name, f"{key}[{j}]", known)
        explicit.append(tuple(lineup))

    if "players" in data:
        players = check.int_list(data, "players", spec.min_players, spec.max_players)
    elif explicit and not (mirror or pool):
        players = ()
    else:
        raise check.fail("players", "missing",
                         f"a list of player counts {spec.min_players}..{spec.max_players}")
    players = tuple(sorted(set(players) | {len(x) for x in explicit}))

    skill = data.get("skill", "auto")
    oracle_deals, oracle_budget = 0, DEFAULT_ORACLE_BUDGET
    if isinstance(skill, dict):
        # the table form: the strong player (``player``, as the plain ``skill = ...``) and the
        # information ceiling's deals and search budget (simcards.report.skill; 0 deals: off)
        check.keys(skill, SKILL_KEYS, "skill.")
        oracle_deals = check.integer(skill, "oracle_deals", 0, 0, 100_000, "skill.")
        oracle_budget = check.integer(skill, "oracle_budget", DEFAULT_ORACLE_BUDGET, 1, 100_000, "skill.")
        skill = skill.get("player", AUTO)
    if skill is not False and skill != AUTO:
        if not isinstance(skill, str):
            raise check.fail("skill", f"bad value {skill!r}",
                             f'"auto", false or a strategy of the game ({choices(sorted(known))})')
        _check_strategy(check, spec, skill, "skill", known)
    exp = Experiment(path=path, name=path.stem, spec=spec, title=title, description=description,
                     seed=seed, players=players, games=games_n, precision=precision,
                     max_games=max(max_games, games_n), rules=dict(rules), resolved_rules=resolved,
                     mirror=mirror, pool=pool, explicit=tuple(explicit), rotate=rotate, source=text,
                     tolerance=tolerance, seconds_per_turn=seconds_per_turn, mirror_note=mirror_note,
                     skill=skill, seconds=seconds, alpha=alpha, power=power, looks=looks,
                     max_minutes=max_minutes, oracle_deals=oracle_deals, oracle_budget=oracle_budget,
                     balance=check.table(data, "balance"))

    if "sweep" in data:
        sweep = check.table(data, "sweep")
        check.keys(sweep, SWEEP_KEYS, "sweep.")
        option = sweep.get("option")
        names = [o.name for o in spec.options]
        if option not in names:
            raise check.fail("sweep.option", f"unknown rule option {option!r} for {spec.name}",
                             choices(names))
        converted = _sweep_values(check, spec, sweep, option, "values")
        if "grid_option" in sweep or "grid_values" in sweep:
            grid = sweep.get("grid_option")
            if grid not in names or grid == option:
                raise check.fail("sweep.grid_option", f"bad value {grid!r}",
                                 f"a second rule option of {spec.name} to sweep with {option!r} as a grid: "
                                 + choices(n for n in names if n != option))
            exp.grid_option, exp.grid_values = grid, _sweep_values(check, spec, sweep, grid, "grid_values")
        sweep_players = (check.int_list(sweep, "players", spec.min_players, spec.max_players, "sweep.")
                         if "players" in sweep else players)
        exp.sweep_option, exp.sweep_values, exp.sweep_players = option, converted, sweep_players
    exp.cells = _build_cells(exp, check)
    return exp


def _seconds_table(check: _Checker, spec: GameSpec, data: dict) -> dict[str, float]:
    """``[seconds]``: seconds per unit of game columns that count something (not ``unfinished``);
    naming the step column and ``seconds_per_turn`` both is refused (one cost a column)."""
    table = check.table(data, "seconds")
    columns = [c for c in spec.game_columns if c != "unfinished"]
    out = {}
    for key, value in table.items():
        if key not in columns:
            raise check.fail(f"seconds.{key}", f"not a game column of {spec.name}", choices(columns))
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < 3600:
            raise check.fail(f"seconds.{key}", f"bad value {value!r}", "a number of seconds 0..3600")
        out[key] = float(value)
    if spec.step_column in out and "seconds_per_turn" in data:
        raise check.fail(f"seconds.{spec.step_column}", "set twice (seconds_per_turn is the same column's cost)",
                         "one of seconds_per_turn and seconds." + spec.step_column)
    return out


def _sweep_values(check: _Checker, spec: GameSpec, sweep: dict, option: str, key: str) -> tuple:
    """``sweep.<key>``: at least 2 distinct values of the rule option ``option``, converted."""
    opt = {o.name: o for o in spec.options}[option]
    values = sweep.get(key)
    if not isinstance(values, list) or len(values) < 2:
        raise check.fail(f"sweep.{key}", f"bad value {values!r}",
                         f"a list of at least 2 values, each {opt.accepted()}")
    converted = []
    for i, v in enumerate(values):
        try:
            if opt.kind is int and isinstance(v, str):
                raise SimcardsError("string for an integer")
            converted.append(opt.convert(spec.name, v))
        except SimcardsError:
            raise check.fail(f"sweep.{key}[{i}]", f"bad value {v!r}", opt.accepted()) from None
    if len(set(converted)) != len(converted):
        raise check.fail(f"sweep.{key}", f"a value is listed twice in {values!r}", "distinct values")
    return tuple(converted)


def load_experiment(path: str | Path) -> Experiment:
    """Read and validate ``experiments/NAME.toml``."""
    path = Path(path)
    if path.suffix != ".toml":
        raise SimcardsError(f"bad experiment file {str(path)!r}: expected a .toml file")
    if path.is_dir():
        raise SimcardsError(f"bad experiment file {str(path)!r}: it is a folder, expected a .toml file")
    if not path.is_file():
        raise SimcardsError(f"experiment file {str(path)!r} not found: expected an existing .toml file")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SimcardsError(f"cannot read experiment file {str(path)!r}: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SimcardsError(f"bad experiment file {str(path)!r}: byte {exc.object[exc.start]:#04x} at "
                            f"offset {exc.start} is not UTF-8, expected a UTF-8 text file") from None
    if "\x00" in text:     # valid UTF-8 and still binary: TOML's message would be about a line
        raise SimcardsError(f"bad experiment file {str(path)!r}: a NUL byte at offset {text.index(chr(0))}, "
                            "a binary file; expected a UTF-8 TOML text file")
    return parse_experiment(path, text)
