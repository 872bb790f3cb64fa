"""What a designer asks beside balance: how long a game takes at the table, how close games
are, whether the early leader wins, and which card ranks help.

Everything is read from the frame the engines already write (no engine change):
the final score columns, per-round scores where a game records them, the game
columns that count steps (turns, actions, passes, rounds), the dealt masks.

- **Game time** in minutes: every game's costed columns times their seconds
  (``Experiment.time_costs``: ``seconds_per_turn`` for the step column, the
  ``[seconds]`` table for any other column, e.g. per action kind), over 60. The
  spread over games (median, 10% and 90%) is what a designer plans a box around;
  the mean has its 95% interval over deals.
- **Closeness** on the game's own scale: the winner's margin over the best other
  seat in the score column (points, lives, keys, penalty points), its spread, and
  the margin as a share of the larger of the two scores.
- **The early leader**: how often the sole leader after a round wins, against the
  chance a seat picked at random wins the same games.
- **Card ranks**: the card table's effect for "dealt at least one card of this
  rank" where a game's card kinds are rank and suit (Thirty-One's 9♠ and 9♥ are one
  rank 9); cards.card_effects, the same regression as the card table.

Elimination timing is not in the frame (a seat's row holds its finishing place, not when it was
reached): simcards.report.elimination replays a sample of the report's deals to time it.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from simcards.report.experiment import MAIN, Experiment
from simcards.statistics.intervals import mean_interval

#: A game's own score column and whether more is better (lives, points, keys, penalty points).
SCORES = {"lives": 1, "points": 1, "keys": 1, "penalty": -1}
#: Per-round score columns (cumulated) that show who led part-way through.
ROUND_PREFIX = "penalty_round"
#: Suit marks stripped from a card's name to find its rank.
SUITS = "♣♦♥♠"


@dataclass
class Designer:
    closeness: pd.DataFrame            # players, score, deals, mean margin with interval, spread, relative
    leader: pd.DataFrame               # players, after, deals, leader's win rate with interval, baseline
    minutes: pd.DataFrame              # players, games, mean with interval, p10, median, p90 (minutes)
    ranks: pd.DataFrame | None = None  # card effects by rank (card-table columns; card = the rank)
    costs: dict = field(default_factory=dict)   # game column -> seconds per unit
    notes: list[str] = field(default_factory=list)


def score_column(spec) -> tuple[str, int] | None:
    for col in spec.seat_columns:
        if col in SCORES:
            return col, SCORES[col]
    return None


def _main(frame: pd.DataFrame, exp: Experiment) -> pd.DataFrame:
    return frame[frame["cell"].isin([c.id for c in exp.cells if c.part == MAIN])]


def _games(frame: pd.DataFrame, exp: Experiment) -> pd.DataFrame:
    """Main-rule rows of finished games."""
    rows = _main(frame, exp)
    if "unfinished" in rows:
        rows = rows[~rows["unfinished"].astype(bool)]
    return rows


def _per_game_interval(values: pd.DataFrame, value: str) -> pd.DataFrame:
    """Mean of a per-game value per player count, the deal (cell, game) as the unit."""
    per_deal = values.groupby(["players", "game"])[value].mean()
    return mean_interval(per_deal, ["players"]).reset_index()


def _spread(values: pd.DataFrame, value: str) -> pd.DataFrame:
    """10%, median and 90% of a per-game value over every game, per player count."""
    g = values.groupby("players")[value]
    return pd.DataFrame({"p10": g.quantile(0.1), "median": g.median(), "p90": g.quantile(0.9)}).reset_index()


def closeness(frame: pd.DataFrame, exp: Experiment) -> pd.DataFrame:
    """Winner's margin over the best other seat in the game's own score (finished games, one winner):
    mean with its interval (deal = unit), median and 10-90% over games, and ``relative``: the
    margin over the larger of the two scores (the median of that share)."""
    found = score_column(exp.spec)
    if found is None:
        return pd.DataFrame()
    col, sign = found
    rows = _games(frame, exp)
    keys = ["cell", "lineup", "game"]
    rows = rows.assign(_score=sign * rows[col].to_numpy(float), _win=rows["win_share"].to_numpy() == 1.0)
    winner = rows[rows["_win"]].groupby(keys)["_score"].max().rename("_score_w")
    other = rows[~rows["_win"]].groupby(keys)["_score"].max().rename("_score_o")   # the best other seat
    both = pd.concat([winner, other], axis=1, join="inner").dropna()
    if both.empty:
        return pd.DataFrame()
    margin = pd.DataFrame({"margin": both["_score_w"] - both["_score_o"]})
    larger = np.maximum(both["_score_w"].abs(), both["_score_o"].abs())
    margin["relative"] = (margin["margin"] / larger).where(larger > 0)
    margin = margin.reset_index().merge(rows[keys + ["players"]].drop_duplicates(keys), on=keys)
    out = _per_game_interval(margin, "margin").merge(_spread(margin, "margin"), on="players")
    out["relative"] = margin.groupby("players")["relative"].median().to_numpy()
    out["score"] = col
    out["higher_wins"] = sign > 0
    return out


def leader_wins(frame: pd.DataFrame, exp: Experiment) -> pd.DataFrame:
    """How often the sole leader after round r (per-round scores, cumulated) wins the game, and
    ``baseline``: how often a seat picked at random wins those same games outright."""
    rounds = sorted(c for c in exp.spec.seat_columns if c.startswith(ROUND_PREFIX))
    found = score_column(exp.spec)
    if len(rounds) < 2 or found is None:
        return pd.DataFrame()
    sign = found[1]
    rows = _games(frame, exp)
    keys = ["cell", "lineup", "game"]
    won = (rows["win_share"] == 1.0).astype(float)
    chance = rows.assign(_won=won).groupby(["players", "game"])["_won"].mean().groupby("players").mean()
    parts = []
    total = np.zeros(len(rows))
    for r, col in enumerate(rounds[:-1], start=1):
        total = total + sign * rows[col].to_numpy(float)
        d = rows[keys + ["players", "win_share"]].assign(_s=total)
        top = d.groupby(keys)["_s"].transform("max")
        leaders = d[d["_s"] == top]
        sole = leaders[leaders.groupby(keys)["_s"].transform("size") == 1]   # ties lead nobody
        sole = sole.assign(leader_won=(sole["win_share"] == 1.0).astype(float))
        iv = _per_game_interval(sole, "leader_won")
        iv["after"] = f"round {r} of {len(rounds)}"
        iv["baseline"] = iv["players"].map(chance).to_numpy(float)
        parts.append(iv)
    return pd.concat(parts, ignore_index=True)


def game_minutes(frame: pd.DataFrame, exp: Experiment) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(per-game minutes of the main rules: players, game, minutes; the table per player count).

    A game's minutes: the sum over costed columns (``exp.time_costs``) of the column times its
    seconds, over 60; every game of the main rules, every line-up."""
    costs = {c: s for c, s in exp.time_costs.items() if c in frame}
    rows = _main(frame, exp)
    rows = rows[rows["seat"] == 0]
    seconds = np.zeros(len(rows))
    for col, s in costs.items():
        seconds += s * rows[col].to_numpy(float)
    games = pd.DataFrame({"players": rows["players"].to_numpy(), "game": rows["game"].to_numpy(),
                          "minutes": seconds / 60})
    if games.empty:
        return games, pd.DataFrame(columns=["players", "deals", "mean", "ci_low", "ci_high", "p10",
                                            "median", "p90", "games"])
    table = _per_game_interval(games, "minutes").merge(_spread(games, "minutes"), on="players")
    table["games"] = games.groupby("players").size().to_numpy()
    return games, table


def rank_of(card: str) -> str:
    return card.strip(SUITS).strip()


def rank_effects(frame: pd.DataFrame, exp: Experiment) -> pd.DataFrame | None:
    """Card effects summed by rank: a seat dealt at least one card of the rank against one dealt
    none, as the card table (the same rows, regression and correction). None where every card
    kind is its own rank."""
    from simcards.report.analysis import card_effects, lineup_offsets, mirror_lineups
    names = exp.spec.card_names
    if "dealt_mask" not in exp.spec.seat_columns or not names:
        return None
    ranks = list(dict.fromkeys(rank_of(n) for n in names))
    if len(ranks) == len(names):
        return None
    rows = _main(frame, exp)
    mirrors = mirror_lineups(exp, lineup_offsets(exp))
    basis = "all line-ups"
    if rows["lineup"].isin(mirrors).any():
        rows, basis = rows[rows["lineup"].isin(mirrors)], "mirror line-ups"
    masks = rows["dealt_mask"].to_numpy(np.int64)
    by_rank = np.zeros(len(masks), np.int64)
    for kind, name in enumerate(names):
        by_rank |= ((masks >> kind) & 1) << ranks.index(rank_of(name))
    return card_effects(by_rank, rows["win_share"].to_numpy(float), rows["players"].to_numpy(),
                        rows["game"].to_numpy(), ranks, basis)


def designer_metrics(frame: pd.DataFrame, exp: Experiment, length_table: pd.DataFrame) -> Designer:
    notes = []
    found = score_column(exp.spec)
    if found is None:
        notes.append("The game records no score column: closeness is not measured.")
    if not any(c.startswith(ROUND_PREFIX) for c in exp.spec.seat_columns):
        notes.append("The game records only final scores, so who led part-way through a game is not "
                     "known: how often the early leader wins is not measured for this game.")
    from simcards.report.elimination import GAMES
    if exp.spec.name not in GAMES:
        notes.append("Nobody goes out one by one in this game (the game ends for everyone at once), so "
                     "there is no elimination timing to measure.")
    _, minutes = game_minutes(frame, exp)
    costs = {c: s for c, s in exp.time_costs.items() if c in frame}
    return Designer(closeness(frame, exp), leader_wins(frame, exp), minutes, rank_effects(frame, exp),
                    costs, notes)
