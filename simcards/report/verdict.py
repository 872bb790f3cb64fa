"""The balance verdict per main player count and seat basis (inference.evaluate), how its deals
were sampled (``Sampling``), and whether two mirror strategies' seat edges differ."""
from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from simcards.report import inference
from simcards.report.experiment import MAIN, Experiment
from simcards.report.seats import cell_moments, layouts


@dataclass
class Sampling:
    """How the verdict's deals were sampled (simcards.report.sequential): the level of every
    test (alpha over the planned looks: Bonferroni over looks), the looks taken and planned,
    and per cell what stopped it."""

    alpha: float = inference.ALPHA          # the experiment's level
    looks: int = 1                          # looks planned (each tests at alpha / looks)
    looks_taken: int = 1
    power: float = inference.POWER
    capped: dict = field(default_factory=dict)     # cell -> games | minutes | looks
    room: dict = field(default_factory=dict)       # cell -> deals it could still have grown by
    history: list = field(default_factory=list)    # one record per look

    @property
    def alpha_look(self) -> float:
        return self.alpha / max(self.looks, 1)


def _main_moments(frame: pd.DataFrame, exp: Experiment, extra: dict[int, inference.Moments] | None,
                  sampling: Sampling | None) -> tuple[Sampling, list[int], dict[int, inference.Moments]]:
    """The sampling (one look at the experiment's alpha unless given), the main cells, and their
    seat moments from ``frame`` plus the ``extra`` ones (the sequential verdict's earlier looks)."""
    sampling = sampling or Sampling(alpha=exp.alpha, looks=1, power=exp.power)
    main = [c.id for c in exp.cells if c.part == MAIN]
    moments = cell_moments(frame, exp, main)
    for cell, m in (extra or {}).items():
        if cell in moments:
            moments[cell] = moments[cell] + m
    return sampling, main, moments


def verdicts(frame: pd.DataFrame, exp: Experiment, seats: pd.DataFrame,
             extra: dict[int, inference.Moments] | None = None, sampling: Sampling | None = None
             ) -> tuple[list[inference.Verdict], pd.DataFrame]:
    """Per main player count and seat basis: the verdict (inference.evaluate) at the sampling's
    level, every seat of every main cell one family for Holm; and the seats' tests."""
    sampling, main, moments = _main_moments(frame, exp, extra, sampling)
    rows = seats[seats["cell"].isin(main)]
    if rows.empty:
        return [], rows
    return inference.evaluate(rows, moments, layouts(exp), exp.tolerance, sampling.alpha_look, sampling.power,
                              sampling.capped, sampling.room)


def strategy_disagreements(frame: pd.DataFrame, exp: Experiment,
                           extra: dict[int, inference.Moments] | None = None,
                           sampling: Sampling | None = None) -> pd.DataFrame:
    """Do two mirror strategies' seat edges differ at a player count (inference.disagreements)."""
    sampling, main, moments = _main_moments(frame, exp, extra, sampling)
    lay = {c: l for c, l in layouts(exp).items() if c in main and len(l.bases) > 1}
    return inference.disagreements(moments, lay, {c.id: c.players for c in exp.cells}, sampling.alpha_look)
