"""The ``[balance]`` table of an experiment file: what ``simcards balance`` varies and aims at.

A balance file is an ordinary experiment (game, players, ``[lineups] mirror``, ``[rules]``,
``tolerance``, ``seconds``, the verdict's ``alpha``/``power``/``looks``/``max_games``...) plus
this table; ``simcards report`` on the same file reports the rules as they are. Keys
(docs/reference/experiment-format.md, "[balance]"):

- ``vary``: the rule options searched, each an integer range ``[low, high]`` (inclusive) or, for a
  true/false or named option, the list of its values to try.
- ``trials`` (40): rule sets tried, the first being the experiment's own rules.
- ``games`` (20,000): deals of every mirror at every player count per trial; every trial plays the
  same deals (common random numbers).
- ``confirm`` (3): the best candidates confirmed on fresh deals by the report's verdict.
- ``confirm_seed`` (seed + 1): the seed of those fresh deals.
- ``time_change`` (0.2): a candidate's mean game time within this fraction of the experiment's
  rules' own, at every player count; ``minutes = [low, high]`` instead (or as well) bounds it in
  minutes.
- ``skill_floor`` (none): the strongest mirror's log-odds gap over random players at least this,
  at every player count, so that a fix does not make the game a lottery.
- ``skill_games`` (``games`` / 4): deals of the skill games per trial, each in every seat order.

Every mistake is one line naming the file, the key and what is accepted (the experiment's
``_Checker``), before any game is played.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simcards.errors import SimcardsError, choices
from simcards.report.experiment import Experiment, _Checker

BALANCE_KEYS = ("vary", "trials", "games", "confirm", "confirm_seed", "time_change", "minutes",
                "skill_floor", "skill_games")
DEFAULT_TRIALS = 40
DEFAULT_GAMES = 20_000
DEFAULT_CONFIRM = 3
DEFAULT_TIME_CHANGE = 0.2
RANDOM = "random"


@dataclass(frozen=True)
class Axis:
    """One rule option searched: an integer range, or a list of values (true/false, names)."""

    name: str
    low: int | None = None
    high: int | None = None
    values: tuple = ()

    @property
    def integer(self) -> bool:
        return self.low is not None

    def describe(self) -> str:
        return f"{self.low}..{self.high}" if self.integer else ", ".join(map(str, self.values))


@dataclass
class BalanceConfig:
    """An experiment and its ``[balance]`` table, checked."""

    exp: Experiment
    axes: tuple[Axis, ...]
    trials: int = DEFAULT_TRIALS
    games: int = DEFAULT_GAMES
    confirm: int = DEFAULT_CONFIRM
    confirm_seed: int = 0
    time_change: float | None = DEFAULT_TIME_CHANGE
    minutes: tuple[float, float] | None = None
    skill_floor: float | None = None
    skill_games: int = DEFAULT_GAMES // 4
    given: dict = field(default_factory=dict)     # the table as written

    @property
    def mirrors(self) -> tuple[str, ...]:
        return self.exp.mirror

    @property
    def strong(self) -> str | None:
        """The skill games' strong player: the first mirror that is not random."""
        return next((m for m in self.mirrors if m != RANDOM), None)

    @property
    def kernel_strategies(self) -> tuple[str, ...]:
        """One kernel for every line-up of the search (mirrors, the skill games)."""
        return tuple(sorted(set(self.mirrors) | ({self.strong, RANDOM} if self.strong else set())))

    def default_values(self) -> dict[str, Any]:
        """The searched options as the experiment's own rules set them: the first trial."""
        return {a.name: self.exp.resolved_rules[a.name] for a in self.axes}

    def rules(self, values: dict[str, Any]) -> dict[str, Any]:
        """The experiment's rules as given, with the searched options set to ``values``."""
        return {**self.exp.rules, **values}

    def to_dict(self) -> dict:
        return {"experiment": self.exp.to_dict(),
                "axes": [{"name": a.name, "low": a.low, "high": a.high, "values": list(a.values)}
                         for a in self.axes],
                "trials": self.trials, "games": self.games, "confirm": self.confirm,
                "confirm_seed": self.confirm_seed, "time_change": self.time_change,
                "minutes": None if self.minutes is None else list(self.minutes),
                "skill_floor": self.skill_floor, "skill_games": self.skill_games}


def balance_config(exp: Experiment) -> BalanceConfig:
    """Check an experiment's ``[balance]`` table (``exp.balance``) against its game."""
    check = _Checker(exp.path)
    data = exp.balance
    if not data:
        raise check.fail("balance", "missing: the file has no [balance] table",
                         "a [balance] table with at least vary = { OPTION = [low, high] }")
    check.keys(data, BALANCE_KEYS, "balance.")
    if not exp.mirror:
        raise check.fail("lineups.mirror", "missing", "the mirror strategies a balance is judged under "
                         '(e.g. mirror = "auto": the strongest heuristic and random)')
    if exp.explicit or exp.pool:
        raise check.fail("lineups", "pool or explicit line-ups given",
                         "only [lineups] mirror: a balance is judged under mirrors, every seat the same player")
    if exp.sweep_option is not None:
        raise check.fail("sweep", "given with [balance]", "no [sweep]: the search varies the options itself")
    axes = _axes(check, exp, data)
    games = check.integer(data, "games", DEFAULT_GAMES, 100, 10_000_000, "balance.")
    time_change, minutes, floor = _targets(check, data)
    cfg = BalanceConfig(
        exp=exp, axes=tuple(axes),
        trials=check.integer(data, "trials", DEFAULT_TRIALS, 1, 10_000, "balance."),
        games=games,
        confirm=check.integer(data, "confirm", DEFAULT_CONFIRM, 1, 20, "balance."),
        confirm_seed=check.integer(data, "confirm_seed", exp.seed + 1, 0, 2 ** 63 - 1, "balance."),
        time_change=None if time_change is None else float(time_change),
        minutes=minutes,
        skill_floor=None if floor is None else float(floor),
        skill_games=check.integer(data, "skill_games", max(100, games // 4), 10, 10_000_000, "balance."),
        given=dict(data))
    if cfg.confirm_seed == exp.seed:
        raise check.fail("balance.confirm_seed", f"bad value {cfg.confirm_seed!r} (the search's own seed)",
                         "another seed: the candidates are confirmed on deals the search never saw")
    if floor is not None and cfg.strong is None:
        raise check.fail("balance.skill_floor", "set, but every mirror is random",
                         "a mirror that is not random, whose edge over random players is the skill")
    return cfg


def _axes(check: _Checker, exp: Experiment, data: dict) -> list[Axis]:
    """``vary``: an axis per rule option, an integer range or a list of values, none of them
    fixed in ``[rules]``."""
    options = {o.name: o for o in exp.spec.options}
    vary = data.get("vary", {})
    if not isinstance(vary, dict):
        raise check.fail("balance.vary", f"bad value {vary!r}", "a table of rule options with their ranges")
    if not vary:
        raise check.fail("balance.vary", "no option to vary",
                         f"a table of rule options of {exp.spec.name} with their ranges: {choices(options)}")
    axes = []
    for name, value in vary.items():
        key = f"balance.vary.{name}"
        opt = options.get(name)
        if opt is None:
            raise check.fail(key, f"unknown rule option for {exp.spec.name}", choices(options))
        axes.append(_int_axis(check, exp, key, name, value, opt) if opt.kind is int
                    else _values_axis(check, exp, key, name, value, opt))
        if name in exp.rules:
            raise check.fail(key, f"also set in [rules] ({name} = {exp.rules[name]!r})",
                             "an option either fixed in [rules] or varied in [balance], not both")
    return axes


def _int_axis(check: _Checker, exp: Experiment, key: str, name: str, value, opt) -> Axis:
    """An integer option's ``[low, high]``, both values the option takes."""
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
            or value[0] >= value[1]):
        raise check.fail(key, f"bad value {value!r}",
                         f"[low, high], two integers low < high within {opt.accepted()}")
    for v in value:
        try:
            opt.convert(exp.spec.name, v)
        except SimcardsError:
            raise check.fail(key, f"bad value {v!r}", opt.accepted()) from None
    return Axis(name, low=value[0], high=value[1])


def _values_axis(check: _Checker, exp: Experiment, key: str, name: str, value, opt) -> Axis:
    """Another option's values: at least 2, distinct, each one the option takes."""
    if not isinstance(value, list) or len(value) < 2:
        raise check.fail(key, f"bad value {value!r}", f"a list of at least 2 values, each {opt.accepted()}")
    converted = []
    for v in value:
        try:
            if opt.kind is bool and not isinstance(v, bool):
                raise SimcardsError("not a boolean")
            converted.append(opt.convert(exp.spec.name, v))
        except SimcardsError:
            raise check.fail(key, f"bad value {v!r}", opt.accepted()) from None
    if len(set(converted)) != len(converted):
        raise check.fail(key, f"a value is listed twice in {value!r}", "distinct values")
    return Axis(name, values=tuple(converted))


def _targets(check: _Checker, data: dict) -> tuple[float | None, tuple[float, float] | None, float | None]:
    """What a candidate must keep besides fair seats: the game time's change (``time_change``) or
    its minutes, and the skill's floor."""
    time_change = data.get("time_change", DEFAULT_TIME_CHANGE if "minutes" not in data else None)
    if time_change is not None and (isinstance(time_change, bool) or not isinstance(time_change, (int, float))
                                    or not 0 < time_change <= 10):
        raise check.fail("balance.time_change", f"bad value {time_change!r}",
                         "a fraction above 0 (0.2: within ±20% of the experiment's rules' game time)")
    minutes = data.get("minutes")
    if minutes is not None:
        if (not isinstance(minutes, list) or len(minutes) != 2
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in minutes)
                or not 0 <= minutes[0] < minutes[1]):
            raise check.fail("balance.minutes", f"bad value {minutes!r}", "[low, high] minutes, 0 <= low < high")
        minutes = (float(minutes[0]), float(minutes[1]))
    floor = data.get("skill_floor")
    if floor is not None and (isinstance(floor, bool) or not isinstance(floor, (int, float))):
        raise check.fail("balance.skill_floor", f"bad value {floor!r}",
                         "a log-odds gap over random players (a number, e.g. 0.5)")
    return time_change, minutes, floor


def load_balance(path: str | Path) -> BalanceConfig:
    """Read an experiment file with a ``[balance]`` table, both checked."""
    from simcards.report.experiment import load_experiment
    return balance_config(load_experiment(path))
