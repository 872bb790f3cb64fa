"""Every statistic of a report, from the tidy frame of all games of an experiment.

The frame has one row per (cell, line-up, game, seat) (the frame of simcards.simulate
plus the columns ``cell``, ``lineup``, ``players``, ``part``). The line-ups of a
cell are played on the same game indices with the same seed, so game index g
is the same deal in every line-up of a cell (common random numbers).

The deal is the unit of every standard error: a strategy's score in deal g is
the mean win share of its seats, averaged over the cell's line-ups (seat orders)
that hold it; a seat's score the mean over the line-ups of the basis. Deals are
independent, line-ups on one deal are not. Intervals are 95%
(simcards.stats.CONFIDENCE). Every win rate, share, edge and difference of win
shares has the boundary-safe interval of simcards.stats.share_interval (Wilson on
the Korn-Graubard effective count of deals; a strategy in m seats bounded by 1/m)
and the test it inverts (share_pvalue); mean lengths t intervals; card effects
OLS with standard errors clustered by deal (simcards.report.inference); ratings a
bootstrap over deals. Multiplicity: Holm over the strategy pairs, the sweep
effects and the verdict's seats, Benjamini-Hochberg over the card effects; beside
every corrected p-value the interval at the level that agrees with it
(inference.adjusted_confidence). Fair shares are net of unfinished games.

Seats are read from the moments of one vector per deal (inference.Moments), so the
deals a sequential verdict adds (simcards.report.sequential) enter the seat table
and the verdict without a frame; ``extra`` holds them per cell.

Each kind of statistic has a module of its own: ``tidy`` (cells, line-ups, length columns),
``win_rates`` (strategies), ``seats``, ``pairs`` (strategies against each other), ``rating``
(strengths, head to head), ``lengths``, ``cards`` and ``verdict``. This module holds what ties
them together, the ``Results`` of a report and the intervals a precision target drives
(``intervals``, ``games_needed``), and hands on every name of theirs.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import pandas as pd

# every statistic in a module of its own, each name still reachable from here
from simcards.report.cards import card_balance, card_effects  # noqa: F401
from simcards.report.experiment import MAIN, Experiment
from simcards.report.lengths import game_lengths, length_summary  # noqa: F401
from simcards.report.pairs import _lineup_matrices, adjusted_intervals, crn_summary, pairwise  # noqa: F401
from simcards.report.rating import (RATING_ALPHA, RATING_MAX_GAMES, Rating, _games_for_rating,  # noqa: F401
                                    fit_strengths, head_to_head, rating, ranking_events)
from simcards.report.seats import (ALL_LINEUPS, cell_moments, layouts, seat_bases, seat_rates,  # noqa: F401
                                   seat_table)
from simcards.report.tidy import Z, _cell_info, cell_frame, length_columns, lineup_offsets, mirror_lineups  # noqa: F401
from simcards.report.verdict import Sampling, strategy_disagreements, verdicts  # noqa: F401
from simcards.report.win_rates import (_interval_rows, strategy_bounds, strategy_rates,  # noqa: F401
                                       strategy_scores, unfinished_rates)
from simcards.statistics.paired import SHARE_DIFFERENCE, paired_difference, paired_differences  # noqa: F401 (tune's too)


@dataclass
class Results:
    strategies: pd.DataFrame
    seats: pd.DataFrame
    pairs: pd.DataFrame
    crn: dict
    rating: Rating | None
    h2h: tuple[pd.DataFrame, pd.DataFrame]
    lengths: pd.DataFrame
    length_table: pd.DataFrame
    cards: pd.DataFrame | None
    sweep: pd.DataFrame | None           # paired effects against the default (simcards.report.sweep)
    intervals: pd.DataFrame
    verdicts: list = field(default_factory=list)
    designer: object = None
    skill: pd.DataFrame | None = None    # the skill index (simcards.report.skill), set by the report
    oracle: pd.DataFrame | None = None   # the information ceiling (simcards.report.skill.oracle_table)
    elimination: pd.DataFrame | None = None  # when seats go out (simcards.report.elimination)
    seat_tests: pd.DataFrame | None = None     # main seats with the verdict's tests (inference.evaluate)
    disagreements: pd.DataFrame | None = None  # mirror strategies whose seat edges differ (paired)
    sampling: Sampling | None = None            # how the verdict's deals were sampled


def intervals(exp: Experiment, strategies: pd.DataFrame, seats: pd.DataFrame, pairs: pd.DataFrame,
              cards: pd.DataFrame | None) -> pd.DataFrame:
    """Every interval on the probability scale, with its half-width and the cells it rests on.

    These are the intervals ``--precision`` drives below the target: win rates
    per strategy and per seat, pairwise differences, card-balance rates and
    differences. Ratings (log strengths) and lengths (turns) are not probabilities."""
    recs = []
    for df, what in ((strategies, "strategy win rate"), (seats, "seat win rate")):
        for row in df.itertuples():
            name = row.strategy if what.startswith("strategy") else f"seat {row.seat}"
            recs.append({"what": f"{what}: {name}", "cells": (row.cell,),
                         "half_width": max(row.win_rate - row.ci_low, row.ci_high - row.win_rate)})
    for row in pairs.itertuples():
        recs.append({"what": f"difference {row.a} - {row.b}", "cells": (row.cell,),
                     "half_width": (row.ci_high_pp - row.ci_low_pp) / 200})
    if cards is not None:
        main = tuple(c.id for c in exp.cells if c.part == MAIN)
        for row in cards.itertuples():
            recs.append({"what": f"card {row.card}: difference", "cells": main,
                         "half_width": (row.ci_high_pp - row.ci_low_pp) / 200})
            recs.append({"what": f"card {row.card}: dealt", "cells": main,
                         "half_width": max(row.rate_dealt - row.dealt_low, row.dealt_high - row.rate_dealt)})
            recs.append({"what": f"card {row.card}: not dealt", "cells": main,
                         "half_width": max(row.rate_not - row.not_low, row.not_high - row.rate_not)})
    return pd.DataFrame(recs, columns=["what", "cells", "half_width"])


def games_needed(iv: pd.DataFrame, games: dict[int, int], target: float) -> dict[int, int]:
    """Games per line-up each cell should reach for every interval to be at most ``target``.

    A half-width shrinks like 1/sqrt(games): an interval of half-width h on n
    games needs about n * (h / target)^2; 10% more covers the noise of the
    estimate. Cells whose intervals are all within the target need nothing."""
    need: dict[int, int] = {}
    for row in iv.itertuples():
        if not (row.half_width > target):  # NaN counts as met: nothing to estimate
            continue
        for cell in row.cells:
            n = games[cell]
            want = math.ceil(n * (row.half_width / target) ** 2 * 1.1)
            need[cell] = max(need.get(cell, 0), want)
    return need
