"""Win rates with honest intervals, from the tidy frame of simcards.simulate."""
from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import t as student_t
from statsmodels.stats.proportion import proportion_confint

CONFIDENCE = 0.95


def wilson(successes, trials, confidence: float = CONFIDENCE) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval (statsmodels); shares of shared wins count as fractions."""
    low, high = proportion_confint(np.asarray(successes, float), np.asarray(trials, float),
                                   alpha=1 - confidence, method="wilson")
    return np.asarray(low), np.asarray(high)


def deal_means(frame: pd.DataFrame, value: str, by: list[str],
               deal: tuple[str, ...] = ("game",)) -> pd.Series:
    """Mean of column ``value`` per group ``by`` and deal: each deal's rows become one number."""
    return frame.groupby(list(by) + list(deal), observed=True)[value].mean()


def mean_interval(per_deal: pd.Series, by: list[str] | str | None = None,
                  confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Mean over deals with its t interval, per group (the mean-of-deal-means formula).

    The deal is the unit: one number per deal (``per_deal``, indexed by the
    groups ``by`` and the deal), so whatever repeats within a deal (seat orders,
    line-ups, the seats of one hand) shares its deal's weight, and the standard
    error is the standard deviation of the deal means over the square root of
    the number of deals. This is the cluster-robust standard error of a mean,
    clustered by deal, without the small-sample factor. Columns: deals, mean,
    se, ci_low, ci_high (the t interval of statsmodels' DescrStatsW.tconfint_mean).
    """
    groups = per_deal.groupby(level=by, observed=True) if by else per_deal.groupby(lambda _: 0)
    agg = groups.agg(["count", "mean", "std"]).rename(columns={"count": "deals"})
    agg["se"] = agg["std"].fillna(0.0) / np.sqrt(agg["deals"])
    df = np.maximum(agg["deals"].to_numpy() - 1, 1)
    half = student_t.ppf(0.5 + confidence / 2, df) * agg["se"].to_numpy()
    agg["ci_low"] = agg["mean"] - half
    agg["ci_high"] = agg["mean"] + half
    return agg.drop(columns="std")


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
    """Win rate per strategy and per seat, each with a 95% interval; the unit is the deal.

    A strategy that holds several seats of one game scores the mean of its
    seats' win shares in that game. With fixed seats every game is its own deal
    and its outcome one trial: Wilson intervals. A rotated frame (column
    ``order``, simcards.rotation) plays every deal in every seat order; a
    strategy's or seat's score in a deal is its mean over the orders (net of
    seat for strategies), and the interval is the t interval over deal means
    (``mean_interval``). Unfinished games count as games without a winner.
    """
    if "order" in frame:
        return _summarize_rotated(frame)
    per_game = (frame.groupby(["strategy", "game"], observed=True)["win_share"].mean()
                .groupby(level="strategy", observed=True).agg(["sum", "count"]))
    seats = frame.groupby("seat")["win_share"].agg(["sum", "count"])
    n_players = int(frame["seat"].max()) + 1 if len(frame) else 0
    return summary_rows(per_game.index, per_game["sum"], per_game["count"],
                        seats.index, seats["sum"], seats["count"], n_players)


def _summarize_rotated(frame: pd.DataFrame) -> pd.DataFrame:
    n_players = int(frame["seat"].max()) + 1
    games = frame.groupby(["order", "game"]).ngroups
    parts = []
    for scope, key in (("strategy", "strategy"), ("seat", "seat")):
        iv = mean_interval(deal_means(frame, "win_share", [key]), key)
        parts.append(pd.DataFrame({
            "scope": scope, "name": [str(k) for k in iv.index], "games": games,
            "wins": iv["mean"].to_numpy() * games, "win_rate": iv["mean"].to_numpy(),
            "ci_low": iv["ci_low"].clip(lower=0).to_numpy(), "ci_high": iv["ci_high"].clip(upper=1).to_numpy(),
            "deals": iv["deals"].to_numpy()}))
    out = pd.concat(parts, ignore_index=True)
    out["fair_share"] = 1.0 / n_players
    return out


def unfinished_games(frame: pd.DataFrame) -> int:
    """Games (every seat order of a deal counted) that reached the game's cap."""
    if "unfinished" not in frame:
        return 0
    keys = ["order", "game"] if "order" in frame else ["game"]
    return int(frame.loc[frame["unfinished"].astype(bool), keys].drop_duplicates().shape[0])
