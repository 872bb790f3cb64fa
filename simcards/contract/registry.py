"""The games simcards knows. Each game package registers one ``GameSpec`` at import."""
from __future__ import annotations

import importlib
import pkgutil
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Mapping

import numpy as np

from simcards.errors import ContractError, SimcardsError, choices
from simcards.package import FOLDER
from simcards.contract.options import ParamRow, RuleOption, resolve_options


@dataclass(frozen=True)
class Decision:
    """One kind of decision a strategy makes. The engine builds ``view_<name>(s)``;
    a strategy module defines ``function(view, rng) -> int``. With ``default``, the
    game's ``defaults.py`` defines the function too, and a strategy that does not
    care about this decision leaves it out."""

    name: str
    function: str
    help: str
    default: bool = False


#: Every game's last game-level column: 1 when the turn cap stopped the game.
UNFINISHED = "unfinished"
#: Columns of every frame before the game's own.
FRAME_COLUMNS = ("game", "seat", "strategy", "win_share", "rank")

#: ``check_table(resolved_rules, n_players)``: raise a one-line SimcardsError for rules this many
#: players cannot play (a deal the deck cannot hold), before the row is encoded.
CheckTable = Callable[[dict, int], None]

#: ``column_bounds(resolved_rules, n_players) -> {column: (least, greatest)}``: every value a
#: seat or game column can take under these rules ("unfinished" aside), from which the frame
#: stores each column in the narrowest integer type that holds it (simcards.frame).
ColumnBounds = Callable[[dict, int], Mapping[str, tuple[int, int]]]


#: The GameSpec fields a game's rules module declares, by their names there (``from_rules``).
RULES_FIELDS = {
    "name": "GAME", "min_players": "MIN_PLAYERS", "max_players": "MAX_PLAYERS",
    "options": "OPTIONS", "decisions": "DECISIONS", "seat_columns": "SEAT_COLUMNS",
    "game_columns": "GAME_COLUMNS", "param_row": "PARAM_ROW",
    "describe_move": "describe_move", "card_names": "CARD_NAMES", "check_rules": "check_rules",
    "column_bounds": "column_bounds",
}
#: Those a rules module may leave out (the field is then None).
OPTIONAL_RULES_FIELDS = {"check_table": "check_table"}


@dataclass(frozen=True)
class GameSpec:
    """What a game declares once; everything else (kernel, CLI, reports) is derived from it."""

    name: str                       # CLI/API name, e.g. "five-alive"
    title: str
    package: str                    # python package holding rules/view/fast/reference
    min_players: int
    max_players: int
    options: tuple[RuleOption, ...]
    decisions: tuple[Decision, ...]  # a decision's id is its position here
    seat_columns: tuple[str, ...]   # per-seat outcome columns the kernel writes after (win, rank)
    game_columns: tuple[str, ...]   # per-game outcome columns; "unfinished" is appended for every game
    describe_move: Callable[[int, int], str]   # (decision id, move) -> words
    card_names: tuple[str, ...]     # card kind -> name, for reports of dealt cards
    bench_strategy: str
    summary: str = ""
    check_rules: Callable[[dict], None] | None = None  # cross-option checks, raise SimcardsError
    step_column: str = "turns"      # the game column that counts a game's steps (speed is per step)
    column_bounds: ColumnBounds | None = None   # least and greatest value of every result column
    # issue 13's bound on simulate's CPU time per step over the tight C's (``yardstick.c`` in the
    # game's package, simcards.yardstick), or None: the C, if any, is information
    c_target: float | None = None
    param_row: ParamRow | None = None   # the engine's rule row; None: the options' own, nothing derived
    check_table: CheckTable | None = None   # rules against the player count, raise SimcardsError

    def __post_init__(self) -> None:
        if self.param_row is None:
            object.__setattr__(self, "param_row", ParamRow(self.options))
        elif self.param_row.options != tuple(self.options):
            raise ContractError(f"game {self.name!r}: its parameter row is not built from its "
                                "OPTIONS (ParamRow(OPTIONS, *derived))")
        if UNFINISHED in self.game_columns:
            raise ContractError(f"game {self.name!r}: {UNFINISHED!r} is a standard column, "
                                "do not declare it in game_columns")
        object.__setattr__(self, "game_columns", tuple(self.game_columns) + (UNFINISHED,))
        names = FRAME_COLUMNS + self.seat_columns + self.game_columns
        repeated = sorted({c for c in names if names.count(c) > 1})
        if repeated:
            raise ContractError(f"game {self.name!r} declares result columns twice: {', '.join(repeated)}")
        if self.step_column not in self.game_columns:
            raise ContractError(f"game {self.name!r}: step_column {self.step_column!r} is not one of "
                                f"its game columns ({choices(self.game_columns)})")

    @classmethod
    def from_rules(cls, rules: ModuleType, *, package: str, title: str, bench_strategy: str,
                   summary: str = "", step_column: str = "turns", c_target: float | None = None
                   ) -> "GameSpec":
        """The spec of a game whose ``rules.py`` declares it (docs/architecture.md, "A game's
        package"): every field under its name there (``RULES_FIELDS``); the caller adds what is
        not a rule (``package`` is the game package's ``__name__``)."""
        missing = [name for name in RULES_FIELDS.values() if not hasattr(rules, name)]
        if missing:
            raise ContractError(f"{rules.__name__} does not define {', '.join(missing)} "
                                f"(a game's rules module declares {', '.join(RULES_FIELDS.values())})")
        return cls(package=package, title=title, bench_strategy=bench_strategy, summary=summary,
                   step_column=step_column, c_target=c_target,
                   **{field: getattr(rules, name) for field, name in RULES_FIELDS.items()},
                   **{field: getattr(rules, name, None) for field, name in OPTIONAL_RULES_FIELDS.items()})

    @property
    def module_name(self) -> str:
        return self.package.rsplit(".", 1)[-1]

    def _part(self, part: str) -> ModuleType:
        # sys.modules first: a replay asks for these at every decision, and import_module
        # costs microseconds even for a module already imported
        name = f"{self.package}.{part}"
        return sys.modules.get(name) or importlib.import_module(name)

    @property
    def fast(self) -> ModuleType:
        return self._part("fast")

    @property
    def reference(self) -> ModuleType:
        return self._part("reference")

    @property
    def view(self) -> ModuleType:
        return self._part("view")

    @property
    def defaults(self) -> ModuleType | None:
        """The game's default decisions (``defaults.py``), if it has any."""
        if not any(d.default for d in self.decisions):
            return None
        return self._part("defaults")

    def decision_id(self, name: str) -> int:
        for i, d in enumerate(self.decisions):
            if d.name == name:
                return i
        raise KeyError(name)

    def resolve_rules(self, rules: Mapping[str, Any] | None) -> dict[str, Any]:
        resolved = resolve_options(self.name, self.options, rules)
        if self.check_rules is not None:
            self.check_rules(resolved)
        return resolved

    def encode_params(self, resolved: Mapping[str, Any], n_players: int) -> np.ndarray:
        """The int64 rule row the fast engine plays these resolved rules from at a table of
        ``n_players`` (``ParamRow.encode``), after the game's ``check_table``."""
        if self.check_table is not None:
            self.check_table(resolved, n_players)
        return self.param_row.encode(resolved, n_players)

    def check_players(self, n: int) -> None:
        if not (self.min_players <= n <= self.max_players):
            raise SimcardsError(
                f"{self.name} is played by {self.min_players} to {self.max_players} players, "
                f"not {n}")


# ------------------------------------------------------------------ the contract
#: What a game's fast engine must define (docs/architecture.md describes each).
FAST_FUNCTIONS = ("new_state", "start_game", "advance", "decider", "legal_moves", "is_legal",
                  "apply", "write_result", "snapshot_size", "snapshot")
#: What a game's reference ``Game`` class must define.
REFERENCE_METHODS = ("next_decision", "legal_moves", "view", "apply", "snapshot", "result", "cards", "deck")
#: What a game's view module must define.
VIEW_NAMES = ("View", "LAYOUT", "MEMORY", "memory", "remember")


def contract_problems(spec: GameSpec) -> list[str]:
    """Everything a game lacks to meet the engine contract, in words (empty: it meets it)."""
    problems: list[str] = []
    modules: dict[str, ModuleType] = {}
    for part in ("fast", "view", "reference"):
        try:
            modules[part] = importlib.import_module(f"{spec.package}.{part}")
        except ImportError as exc:
            problems.append(f"{spec.package}.{part} cannot be imported ({exc})")
    if "fast" in modules:
        wanted = FAST_FUNCTIONS + tuple(f"view_{d.name}" for d in spec.decisions)
        problems += [f"fast.{f}" for f in wanted if not callable(getattr(modules["fast"], f, None))]
    if "view" in modules:
        problems += [f"view.{f}" for f in VIEW_NAMES if not hasattr(modules["view"], f)]
    if "reference" in modules:
        game = getattr(modules["reference"], "Game", None)
        if game is None:
            problems.append("reference.Game")
        else:
            problems += [f"reference.Game.{m}" for m in REFERENCE_METHODS
                         if not callable(getattr(game, m, None))]
    problems += bounds_problems(spec)
    problems += bench_strategy_problems(spec)
    if any(d.default for d in spec.decisions):
        try:
            defaults = importlib.import_module(spec.package + ".defaults")
            problems += [f"defaults.{d.function}" for d in spec.decisions
                         if d.default and not callable(getattr(defaults, d.function, None))]
        except ImportError as exc:
            problems.append(f"{spec.package}.defaults cannot be imported ({exc})")
    return problems


def bench_strategy_problems(spec: GameSpec) -> list[str]:
    """``bench_strategy`` is what `simcards run` plays when no strategy is named, and what
    `simcards bench` times: it must be one of the game's built-in strategy files (read as a
    path, without importing the strategies: registration stays cheap)."""
    import importlib.util
    found = importlib.util.find_spec("simcards_strategies")
    folder = Path(found.submodule_search_locations[0]) / spec.module_name if found else None
    if folder is None or not (folder / f"{spec.bench_strategy}.py").is_file():
        return [f"bench_strategy {spec.bench_strategy!r} (a built-in strategy: "
                f"strategies/{spec.module_name}/{spec.bench_strategy}.py)"]
    return []


def bounds_problems(spec: GameSpec) -> list[str]:
    """What ``column_bounds`` lacks, checked under the default rules and the fewest players."""
    if spec.column_bounds is None:
        return ["column_bounds (the least and greatest value of every result column, by rules)"]
    try:
        bounds = spec.column_bounds(spec.resolve_rules({}), spec.min_players)
    except Exception as exc:  # a game's own code: say what failed, do not crash the discovery
        return [f"column_bounds fails under the default rules ({type(exc).__name__}: {exc})"]
    wanted = [c for c in spec.seat_columns + spec.game_columns if c != UNFINISHED]
    problems = [f"column_bounds[{c!r}]" for c in wanted if c not in bounds]
    problems += [f"column_bounds[{c!r}] = {b!r} (expected two integers, least first)"
                 for c, b in bounds.items() if c in wanted and not _is_range(b)]
    return problems


def _is_range(b) -> bool:
    return (isinstance(b, tuple) and len(b) == 2
            and all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in b)
            and b[0] <= b[1])


_GAMES: dict[str, GameSpec] = {}
_discovered = False


_BROKEN: dict[str, str] = {}    # package -> why it cannot be registered


def register(spec: GameSpec) -> GameSpec:
    """Called by a game package's ``__init__``; raises ContractError naming what is missing."""
    problems = contract_problems(spec)
    if problems:
        raise ContractError(f"game {spec.name!r} ({spec.package}) does not meet the engine "
                            f"contract; missing: {', '.join(problems)}")
    _GAMES[spec.name] = spec
    return spec


#: The package of the games, one subpackage each (simcards/games/NAME).
GAMES_PACKAGE = "simcards.games"


def _discover() -> None:
    # a game that fails to register is kept aside with its reason: it must not take
    # the other games down with it, and asking for it by name says what is wrong
    # The games stand above the contract (each registers itself here): they are found in their
    # folder and imported by name, so that the contract imports no game, not even its package.
    for info in pkgutil.iter_modules([str(FOLDER / "games")]):
        try:
            importlib.import_module(f"{GAMES_PACKAGE}.{info.name}")
        except ContractError as exc:
            _BROKEN[info.name] = str(exc)


def broken_games() -> dict[str, str]:
    """Game packages that could not be registered, with the reason."""
    games()
    return dict(_BROKEN)


def games() -> dict[str, GameSpec]:
    # once, whatever was imported before: a game imported directly must not hide the others
    global _discovered
    if not _discovered:
        _discover()
        _discovered = True
    return dict(sorted(_GAMES.items()))


def _import_named(name: str) -> None:
    """Import the package of the game ``name`` alone (five-alive: simcards.games.five_alive), if
    there is one: a command about one game need not import the others' engines (about 0.15 s
    each). A package that fails is left to ``games()`` to report."""
    package = name.replace("-", "_")
    if package.isidentifier() and package not in _BROKEN:
        try:
            importlib.import_module(f"{GAMES_PACKAGE}.{package}")
        except (ImportError, ContractError):
            pass


def get_game(name: str) -> GameSpec:
    if not isinstance(name, str):       # None, a list: one line, not an AttributeError below
        from simcards.contract.validate import check_game_name
        check_game_name(name)
    if name not in _GAMES and not _discovered:
        _import_named(name)
    if name in _GAMES:
        return _GAMES[name]
    known = games()
    if name not in known:
        broken = _BROKEN.get(name.replace("-", "_"))
        if broken:
            raise SimcardsError(broken)
        raise SimcardsError(f"unknown game {name!r}: accepted are {choices(known)}")
    return known[name]
