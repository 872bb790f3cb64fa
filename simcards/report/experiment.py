"""Experiments: a TOML file in ``experiments/``, validated on load.

An experiment names a game, its rule options, the player counts, the line-ups (mirror, pool,
explicit), the games per line-up or a target precision, the seed, and optionally rule options
swept over values. Every mistake in the file is a ``SimcardsError`` of one line naming the file,
the key and what is accepted.

The file format, every key with its default, and what the sequential verdict and the sweeps do
with them: docs/reference/experiment-format.md (keep it in step with ``TOP_KEYS`` and the parts
``parse_experiment`` reads, simcards.report.experiment_sections).

The experiment and its cells are ``experiment_model``'s, the checks of a value
``experiment_checks``', and the cells' line-ups ``experiment_cells``'; every name of theirs is
also reachable from here.
"""
from __future__ import annotations

from pathlib import Path

from simcards.errors import SimcardsError
from simcards.report.experiment_cells import _build_cells, lineups_for, rotations  # noqa: F401
from simcards.report.experiment_checks import _Checker, _check_strategy, _positive, _strategy_names  # noqa: F401
# the experiment and its cells, and the keys of the file with their defaults, named here before
from simcards.report.experiment_model import (AUTO, DEFAULT_ALPHA, DEFAULT_GAMES, DEFAULT_LOOKS,  # noqa: F401
                                              DEFAULT_MAX_GAMES, DEFAULT_ORACLE_BUDGET, DEFAULT_POWER,
                                              DEFAULT_SECONDS_PER_TURN, DEFAULT_TOLERANCE, LINEUP_KEYS, MAIN,
                                              SKILL_KEYS, SWEEP, SWEEP_KEYS, TOP_KEYS, Cell, Experiment)
from simcards.report.experiment_sections import (_seconds_table, _sweep_values, auto_mirrors,  # noqa: F401
                                                 read_game, read_lineups, read_players, read_rules, read_settings,
                                                 read_skill, read_sweep, read_toml)


def parse_experiment(path: Path, text: str) -> Experiment:
    """Validate an experiment's TOML text; ``path`` names it in every error. Each part of the file
    is read in turn (simcards.report.experiment_sections), in the order its mistakes are
    reported, then the cells are built from them."""
    check = _Checker(path)
    data = read_toml(check, path, text)
    spec, known = read_game(check, data)
    settings = read_settings(check, spec, data, path)
    rules, resolved = read_rules(check, spec, data)
    lineups = read_lineups(check, path, spec, data, known)
    players = read_players(check, spec, data, lineups)
    skill = read_skill(check, spec, data, known)
    balance = check.table(data, "balance")
    sweep = read_sweep(check, spec, data, players) if "sweep" in data else {}
    exp = Experiment(path=path, name=path.stem, spec=spec, players=players, rules=dict(rules),
                     resolved_rules=resolved, source=text, balance=balance,
                     **settings, **lineups, **skill, **sweep)
    exp.cells = _build_cells(exp, check)
    return exp


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
