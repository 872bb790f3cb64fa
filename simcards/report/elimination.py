"""When players go out: the turn at which the 1st, 2nd, ... player is eliminated, per player count.

No engine writes a seat's elimination turn into the frame (a seat's row holds its finishing
place), and adding a column would change every frame and its golden digests. The engines'
states do hold it: Five Alive's ``OUT_AT`` (the turn a seat went out, -1 while in) and Bombs
Away's ``A_OUT``/``A_OUT_TURN`` (the order and turn it went out). So the report replays a
sample of its own deals on the fast engine (simcards.replay.record: the kernel's game, bit for
bit, with the state at every decision) and reads them:

- a seat already out at the game's last decision went out at the turn its state records;
- a seat out at the end (its final score column at or below 0: lives, points) but still in at
  the last decision went out on the move that ended the game, at the game's last turn (the
  game's ``turns`` column).

The line-up replayed is the verdict's strongest heuristic mirror (the first mirror that is not
random), else the player count's first line-up: the first ``ELIMINATION_DEALS`` deals of the
report's seed, which are the report's own deals. Per player count and place k (the k-th seat
out), the table gives how many games had a k-th seat out and the median and 10-90% spread of
its turn: a spread of games, not an interval of an estimate. Games that ran into the turn cap
are left out (nobody went out at a place the rules would have decided).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
import pandas as pd

from simcards.report.experiment import MAIN, Experiment

#: Deals replayed per player count (about 4 ms a deal for Five Alive at 4 players).
ELIMINATION_DEALS = 400
RANDOM = "random"


@dataclass(frozen=True)
class OutFields:
    """Where a game's state says who is out and since which turn."""

    view: str            # the view module holding the layout constants
    out: str             # a block: >= 0 once the seat is out, -1 while in
    turn: str            # a block: the turn the seat went out
    score: str           # the seat column whose final value <= 0 means out


#: The games in which players go out one by one (the others end at once: nobody waits out).
GAMES = {
    "five-alive": OutFields("simcards.games.five_alive.view", "OUT_AT", "OUT_AT", "lives"),
    "bombs-away": OutFields("simcards.games.bombs_away.view", "A_OUT", "A_OUT_TURN", "points"),
}


def replay_lineup(exp: Experiment, cell) -> tuple[str, ...]:
    for lineup, mirror in zip(cell.lineups, cell.mirror):
        if mirror and lineup[0] != RANDOM:
            return lineup
    return cell.lineups[0]


def out_turns(rec, fields: OutFields, view, seat_columns: tuple[str, ...], turns_column: int) -> list[int]:
    """The turns at which the seats of one recorded game went out, ascending (one per seat out)."""
    return sorted(seat_out_turns(rec, fields, view, seat_columns, turns_column).values())


def seat_out_turns(rec, fields: OutFields, view, seat_columns: tuple[str, ...], turns_column: int
                   ) -> dict[int, int]:
    """Seat -> the turn it went out, for the seats of one recorded game that went out."""
    n = rec.seats.shape[0]
    steps = len(rec.moves)
    # rec.raws has one row more than moves (kept for an illegal move): the last decision is steps - 1
    last = rec.raws[steps - 1] if steps else None
    out_at, turn_at = getattr(view, fields.out), getattr(view, fields.turn)
    score = 2 + seat_columns.index(fields.score)        # seats: (win, rank, *seat columns)
    end_turn = int(rec.game_row[turns_column])
    turns = {}
    for p in range(n):
        if last is not None and last[out_at + p] >= 0:
            turns[p] = int(last[turn_at + p])
        elif rec.seats[p, score] <= 0:
            turns[p] = end_turn
    return turns


def play_elimination(exp: Experiment, progress: Callable[[int], None] | None = None) -> pd.DataFrame | None:
    """Replay the first deals of every main player count; one row per seat out:
    players, lineup, game, place (1 = the first seat out), turn, game_turns."""
    import importlib

    from simcards.run.batch import prepare
    from simcards.run.replay import record
    fields = GAMES.get(exp.spec.name)
    if fields is None:
        return None
    view = importlib.import_module(fields.view)
    seat_columns = tuple(exp.spec.seat_columns)
    turns_column = list(exp.spec.game_columns).index("turns")
    unfinished_column = list(exp.spec.game_columns).index("unfinished") \
        if "unfinished" in exp.spec.game_columns else None
    rows, finished = [], {}
    for cell in exp.cells:
        if cell.part != MAIN:
            continue
        lineup = replay_lineup(exp, cell)
        batch = prepare(exp.spec.name, lineup, exp.seed, cell.rules, kernel_strategies=exp.strategies)
        deals = min(exp.games, ELIMINATION_DEALS)
        for g in range(deals):
            rec = record(exp.spec.name, lineup, exp.seed, g, batch=batch)
            if unfinished_column is not None and rec.game_row[unfinished_column]:
                continue
            finished[cell.players] = finished.get(cell.players, 0) + 1
            for place, turn in enumerate(out_turns(rec, fields, view, seat_columns, turns_column), 1):
                rows.append({"players": cell.players, "lineup": " / ".join(sorted(set(lineup))), "game": g,
                             "place": place, "turn": turn, "game_turns": int(rec.game_row[turns_column])})
        if progress:
            progress(deals)
    out = pd.DataFrame(rows, columns=["players", "lineup", "game", "place", "turn", "game_turns"])
    out.attrs["deals"] = finished           # finished deals replayed, per player count
    return out


def planned_deals(exp: Experiment) -> int:
    if exp.spec.name not in GAMES:
        return 0
    return sum(min(exp.games, ELIMINATION_DEALS) for c in exp.cells if c.part == MAIN)


def median_interval(x: np.ndarray, confidence: float = 0.95) -> tuple[float, float]:
    """The distribution-free interval of a median from order statistics (one value per game: the
    game is the unit): the j-th and k-th smallest of m values, j and k from Binomial(m, 1/2), so
    that it covers the true median with at least ``confidence``."""
    from scipy.stats import binom
    x = np.sort(np.asarray(x, float))
    m = len(x)
    if m == 0:
        return float("nan"), float("nan")
    tail = (1 - confidence) / 2
    j = int(binom.ppf(tail, m, 0.5))            # P(B < j) <= tail: the j-th order statistic (1-based)
    k = m - j + 1                               # symmetric
    if j < 1:
        return float(x[0]), float(x[-1])        # too few games for the level: the whole range
    return float(x[j - 1]), float(x[k - 1])


def elimination_table(outs: pd.DataFrame | None) -> pd.DataFrame | None:
    """Per player count and place: games with a seat out at that place, the median and the 10% and
    90% quantiles of its turn, and the median game length in turns (of those games)."""
    if outs is None or outs.empty:
        return None
    rows = []
    for (n, place), part in outs.groupby(["players", "place"], sort=True):
        x = np.sort(part["turn"].to_numpy(float))
        q10, q50, q90 = np.percentile(x, [10, 50, 90])
        low, high = median_interval(x)
        rows.append({"players": int(n), "place": int(place), "lineup": part["lineup"].iloc[0],
                     "games": int(part["game"].nunique()),
                     "deals": int(outs.attrs.get("deals", {}).get(int(n), part["game"].nunique())),
                     "median": float(q50), "median_low": low, "median_high": high,
                     "p10": float(q10), "p90": float(q90),
                     "game_median": float(np.median(part["game_turns"].to_numpy(float)))})
    return pd.DataFrame(rows)
