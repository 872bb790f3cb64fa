"""The cells of an experiment: per player count its line-ups (mirrors, a pool seated by the
seat-order design, explicit line-ups rotated or not), under the main rules and each sweep
value's."""
from __future__ import annotations

from simcards.errors import SimcardsError
from simcards.report.experiment_checks import _Checker
from simcards.report.experiment_model import MAIN, SWEEP, Cell, Experiment
from simcards.run.designs import pool_lineups, rotated_lineups


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
