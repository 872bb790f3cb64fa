"""Win rates with honest intervals, from the tidy frame of simcards.simulate."""
from __future__ import annotations

import numpy as np
import pandas as pd
from statsmodels.stats.proportion import proportion_confint

CONFIDENCE = 0.95


def wilson(successes, trials, confidence: float = CONFIDENCE) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval (statsmodels); shares of shared wins count as fractions."""
    low, high = proportion_confint(np.asarray(successes, float), np.asarray(trials, float),
                                   alpha=1 - confidence, method="wilson")
    return np.asarray(low), np.asarray(high)


def _rows(scope: str, keys, wins, games) -> pd.DataFrame:
    wins = np.asarray(wins, float)
    games = np.asarray(games, float)
    low, high = wilson(wins, games)
    return pd.DataFrame({"scope": scope, "name": [str(k) for k in keys], "games": games.astype(np.int64),
                         "wins": wins, "win_rate": wins / games, "ci_low": low, "ci_high": high})


def summary_rows(strategy_names, strategy_wins, strategy_games, seats, seat_wins, seat_games,
                 n_players: int) -> pd.DataFrame:
    """The summary table from win sums: shared by frames and by running totals."""
    out = pd.concat([_rows("strategy", strategy_names, strategy_wins, strategy_games),
                     _rows("seat", seats, seat_wins, seat_games)], ignore_index=True)
    out["fair_share"] = 1.0 / n_players if n_players else np.nan
    return out


def summarize(frame: pd.DataFrame) -> pd.DataFrame:
    """Win rate per strategy and per seat, each with a 95% Wilson interval.

    The unit of observation is the game: a strategy that holds several seats of
    one game scores the mean of its seats' win shares in that game, so the
    observations behind every interval are independent. Unfinished games count
    as games without a winner.
    """
    per_game = (frame.groupby(["strategy", "game"], observed=True)["win_share"].mean()
                .groupby(level="strategy", observed=True).agg(["sum", "count"]))
    seats = frame.groupby("seat")["win_share"].agg(["sum", "count"])
    n_players = int(frame["seat"].max()) + 1 if len(frame) else 0
    return summary_rows(per_game.index, per_game["sum"], per_game["count"],
                        seats.index, seats["sum"], seats["count"], n_players)


def unfinished_games(frame: pd.DataFrame) -> int:
    if "unfinished" not in frame:
        return 0
    return int(frame.loc[frame["unfinished"], "game"].nunique())
