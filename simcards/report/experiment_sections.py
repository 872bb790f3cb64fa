"""The parts of an experiment file, each read and checked in turn by ``parse_experiment``
(simcards.report.experiment), in the order their mistakes are reported: the TOML itself, the
game, the settings, ``[rules]``, ``[lineups]``, the player counts, ``[skill]`` and ``[sweep]``.
Each returns the fields of ``Experiment`` it settles."""
from __future__ import annotations

import tomllib
from pathlib import Path

from simcards.compiled.rng import MAX_SEED
from simcards.contract.registry import GameSpec, get_game
from simcards.contract.strategy_registry import is_search
from simcards.errors import SimcardsError, choices
from simcards.report.experiment_checks import _Checker, _check_strategy, _positive, _strategy_names
from simcards.report.experiment_model import (AUTO, DEFAULT_ALPHA, DEFAULT_GAMES, DEFAULT_LOOKS, DEFAULT_MAX_GAMES,
                                              DEFAULT_ORACLE_BUDGET, DEFAULT_POWER, DEFAULT_SECONDS_PER_TURN,
                                              DEFAULT_TOLERANCE, LINEUP_KEYS, SKILL_KEYS, SWEEP_KEYS, TOP_KEYS)


def read_toml(check: _Checker, path: Path, text: str) -> dict:
    """The file's tables: valid TOML, not empty, no unknown top-level key."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SimcardsError(f"{path}: not valid TOML: {exc}") from None
    if not data:
        raise check.fail("game", "missing: the file holds no settings (empty)",
                         "a TOML experiment with at least game, players and [lineups]")
    check.keys(data, TOP_KEYS)
    return data


def read_game(check: _Checker, data: dict) -> tuple[GameSpec, dict]:
    """``game``: the game's spec, and its strategies by name."""
    from simcards.contract.strategy_registry import strategies_for
    if "game" not in data:
        raise check.fail("game", "missing", "a game name from `simcards games`")
    if not isinstance(data["game"], str):
        raise check.fail("game", f"bad value {data['game']!r}", "a game name from `simcards games`")
    from simcards.contract.registry import games
    known_games = games()
    if data["game"] not in known_games:
        raise check.fail("game", f"unknown game {data['game']!r}", choices(known_games))
    spec = get_game(data["game"])
    return spec, strategies_for(spec)


def read_settings(check: _Checker, spec: GameSpec, data: dict, path: Path) -> dict:
    """The top-level settings: the seed, the games and their caps, the precision, the verdict's
    tolerance, level, power and looks, the time costs, the title and the description."""
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
    return dict(seed=seed, games=games_n, max_games=max(max_games, games_n), precision=precision,
                tolerance=tolerance, seconds_per_turn=seconds_per_turn, seconds=seconds, alpha=alpha,
                power=power, looks=looks, max_minutes=max_minutes, title=title, description=description)


def read_rules(check: _Checker, spec: GameSpec, data: dict) -> tuple[dict, dict]:
    """``[rules]``: the options as given, and every option resolved."""
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
    return rules, resolved


def read_lineups(check: _Checker, path: Path, spec: GameSpec, data: dict, known: dict) -> dict:
    """``[lineups]``: the mirror strategies (``"auto"``: ``auto_mirrors``, and its note), the pool,
    the explicit line-ups and whether they rotate."""
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
    return dict(mirror=mirror, pool=pool, explicit=tuple(explicit), rotate=rotate, mirror_note=mirror_note)


def read_players(check: _Checker, spec: GameSpec, data: dict, lineups: dict) -> tuple[int, ...]:
    """``players``, with the player counts of the explicit line-ups (``read_lineups``) added; it
    may be left out when explicit line-ups alone are given."""
    explicit = lineups["explicit"]
    if "players" in data:
        players = check.int_list(data, "players", spec.min_players, spec.max_players)
    elif explicit and not (lineups["mirror"] or lineups["pool"]):
        players = ()
    else:
        raise check.fail("players", "missing",
                         f"a list of player counts {spec.min_players}..{spec.max_players}")
    return tuple(sorted(set(players) | {len(x) for x in explicit}))


def read_skill(check: _Checker, spec: GameSpec, data: dict, known: dict) -> dict:
    """``skill``: the skill index's strong player (``"auto"``, false or a strategy), and from the
    table form the information ceiling's deals and search budget."""
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
    return dict(skill=skill, oracle_deals=oracle_deals, oracle_budget=oracle_budget)


def read_sweep(check: _Checker, spec: GameSpec, data: dict, players: tuple[int, ...]) -> dict:
    """``[sweep]``: the swept option and its values, and for a grid a second option and its; the
    player counts swept (by default the experiment's)."""
    sweep = check.table(data, "sweep")
    check.keys(sweep, SWEEP_KEYS, "sweep.")
    option = sweep.get("option")
    names = [o.name for o in spec.options]
    if option not in names:
        raise check.fail("sweep.option", f"unknown rule option {option!r} for {spec.name}",
                         choices(names))
    converted = _sweep_values(check, spec, sweep, option, "values")
    grid = {}
    if "grid_option" in sweep or "grid_values" in sweep:
        grid_option = sweep.get("grid_option")
        if grid_option not in names or grid_option == option:
            raise check.fail("sweep.grid_option", f"bad value {grid_option!r}",
                             f"a second rule option of {spec.name} to sweep with {option!r} as a grid: "
                             + choices(n for n in names if n != option))
        grid = dict(grid_option=grid_option,
                    grid_values=_sweep_values(check, spec, sweep, grid_option, "grid_values"))
    sweep_players = (check.int_list(sweep, "players", spec.min_players, spec.max_players, "sweep.")
                     if "players" in sweep else players)
    return dict(sweep_option=option, sweep_values=converted, sweep_players=sweep_players, **grid)


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
