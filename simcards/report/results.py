"""Every statistic of a report at once (``analyse``), from the building blocks of
``analysis``, ``sweep`` and ``designer``.

Apart from ``analysis`` since ``sweep`` and ``designer`` build on ``analysis`` themselves: here
the three meet without a circle.
"""
from __future__ import annotations

import pandas as pd

from simcards.report import inference
from simcards.report.analysis import (Results, Sampling, card_balance, crn_summary, game_lengths, head_to_head,
                                      intervals, length_summary, pairwise, rating, seat_rates,
                                      strategy_disagreements, strategy_rates, verdicts)
from simcards.report.designer import designer_metrics
from simcards.report.experiment import Experiment
from simcards.report.sweep import sweep_effects


def analyse(frame: pd.DataFrame, exp: Experiment, with_rating: bool = True,
            extra: dict[int, inference.Moments] | None = None, sampling: Sampling | None = None) -> Results:
    """Every statistic; ``with_rating=False`` (the precision loop) skips what it does not need.
    ``extra``/``sampling``: the deals a sequential verdict played beyond the frame (their moments,
    per cell) and how (simcards.report.sequential); they enter the seat table and the verdict."""
    strategies = strategy_rates(frame, exp)
    seats = seat_rates(frame, exp, extra)
    pairs = pairwise(frame, exp)
    cards = card_balance(frame, exp)
    lengths = game_lengths(frame, exp)
    length_table = length_summary(lengths, exp)
    sampling = sampling or Sampling(alpha=exp.alpha, looks=1, power=exp.power)
    found, seat_tests = verdicts(frame, exp, seats, extra, sampling) if with_rating else ([], None)
    return Results(
        strategies=strategies, seats=seats, pairs=pairs, crn=crn_summary(pairs),
        rating=rating(frame, exp) if with_rating else None,
        h2h=head_to_head(frame, exp) if with_rating else (pd.DataFrame(), pd.DataFrame()),
        lengths=lengths, length_table=length_table, cards=cards,
        sweep=sweep_effects(frame, exp) if with_rating else None,
        intervals=intervals(exp, strategies, seats, pairs, cards),
        verdicts=found, seat_tests=seat_tests,
        disagreements=strategy_disagreements(frame, exp, extra, sampling) if with_rating else None,
        sampling=sampling,
        designer=designer_metrics(frame, exp, length_table) if with_rating else None)
