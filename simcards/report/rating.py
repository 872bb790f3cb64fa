"""Strengths and head to head: a Plackett-Luce rating of every strategy from the finishing
order of the main cells' games (choix), with a bootstrap over deals; and the share of
seat-against-seat comparisons one strategy placed better than another."""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from simcards.report import inference
from simcards.report.experiment import MAIN, Experiment
from simcards.report.tidy import Z, lineup_offsets, mirror_lineups


#: The Plackett-Luce fit runs in Python over every game; above this many games it
#: uses the lowest game indices of every cell (the report says how many).
RATING_MAX_GAMES = 5_000


RATING_ALPHA = 0.01  # choix regularisation: keeps a strategy that never wins finite


def ranking_events(ranks: np.ndarray, items: np.ndarray) -> list[tuple[int, list[int]]]:
    """Top-1 choice events of one game for a Plackett-Luce fit.

    ``ranks[p]`` is seat p's place (1 = best, equal = tied), ``items[p]`` its
    strategy's item id. Places are taken best first: each seat of the best
    remaining place is chosen from all seats still in play (ties share the
    choice set, Breslow's method); a last group of tied seats gives no event.
    The same strategy in several seats is the same item several times, which is
    the Plackett-Luce likelihood with multiplicities.
    """
    order = np.argsort(ranks, kind="stable")
    remaining = list(order)
    events = []
    for place in np.unique(ranks):
        group = [p for p in remaining if ranks[p] == place]
        if len(group) == len(remaining):
            break
        for p in group:
            events.append((int(items[p]), [int(items[q]) for q in remaining if q != p]))
        remaining = [p for p in remaining if ranks[p] != place]
    return events


def fit_strengths(n_items: int, events: list[tuple[int, list[int]]], init=None,
                  alpha: float = RATING_ALPHA) -> np.ndarray:
    """Centred Plackett-Luce log-strengths by choix (I-LSR), optionally warm-started."""
    import choix
    theta = choix.ilsr_top1(n_items, events, alpha=alpha, initial_params=init, max_iter=1000, tol=1e-8)
    return theta - theta.mean()


def _games_for_rating(frame: pd.DataFrame, limit: int) -> pd.DataFrame:
    """All games, or the lowest game indices of every cell so that at most ``limit`` games are used."""
    keys = frame[["cell", "lineup", "game"]].drop_duplicates()
    if len(keys) <= limit:
        return frame
    counts = keys.groupby("game").size().sort_index().cumsum()
    last = counts.index[counts.to_numpy() <= limit]
    top = int(last.max()) if len(last) else int(counts.index.min())
    return frame[frame["game"] <= top]


@dataclass
class Rating:
    table: pd.DataFrame
    games_used: int = 0
    games_total: int = 0
    unfinished_left_out: int = 0
    events: int = 0
    notes: list[str] = field(default_factory=list)


def rating(frame: pd.DataFrame, exp: Experiment, limit: int = RATING_MAX_GAMES) -> Rating | None:
    """Plackett-Luce rating of every strategy from the main cells' multiplayer results."""
    mirrors = mirror_lineups(exp, lineup_offsets(exp))
    main = [c.id for c in exp.cells if c.part == MAIN]
    rows = frame[frame["cell"].isin(main) & ~frame["lineup"].isin(mirrors)]
    if rows.empty or rows["strategy"].astype(str).nunique() < 2:
        return None
    unfinished = 0
    if "unfinished" in rows:
        unfinished = int(rows.loc[rows["unfinished"].astype(bool), ["cell", "lineup", "game"]]
                         .drop_duplicates().shape[0])
        rows = rows[~rows["unfinished"].astype(bool)]
    total = int(rows[["cell", "lineup", "game"]].drop_duplicates().shape[0])
    used = _games_for_rating(rows, limit).sort_values(["cell", "lineup", "game", "seat"])
    names = sorted(used["strategy"].astype(str).unique())
    index = {s: i for i, s in enumerate(names)}
    items = used["strategy"].astype(str).map(index).to_numpy()
    ranks = used["rank"].to_numpy()
    sizes = used.groupby(["cell", "lineup", "game"], sort=False).size().to_numpy()
    per_game, start = [], 0
    for size in sizes:
        per_game.append(ranking_events(ranks[start:start + size], items[start:start + size]))
        start += size
    events = [e for game_events in per_game for e in game_events]
    theta = fit_strengths(len(names), events)
    # the deal is the unit: a bootstrap over game indices (each index's games in every
    # line-up and at every player count stay together, since they share a deck order)
    deal_ids = used.drop_duplicates(["cell", "lineup", "game"])["game"].to_numpy()
    by_deal: dict[int, list] = {}
    for deal, game_events in zip(deal_ids, per_game):
        by_deal.setdefault(int(deal), []).extend(game_events)
    se = inference.bootstrap_rating(len(names), list(by_deal.values()),
                                    lambda ev, init: fit_strengths(len(names), ev, init), theta, exp.seed)
    wins = np.bincount([w for w, _ in events], minlength=len(names))
    table = pd.DataFrame({"strategy": names, "strength": theta, "se": se,
                          "ci_low": theta - Z * se, "ci_high": theta + Z * se,
                          "first_choices": wins})
    table = table.sort_values("strength", ascending=False, ignore_index=True)
    table.insert(0, "rank", np.arange(1, len(table) + 1))
    # P(beats the next strategy down in a two-seat game) = logistic of the difference
    nxt = table["strength"].shift(-1)
    table["p_beats_next"] = 1 / (1 + np.exp(-(table["strength"] - nxt)))
    return Rating(table, games_used=int(len(sizes)), games_total=total,
                  unfinished_left_out=unfinished, events=len(events))


def head_to_head(frame: pd.DataFrame, exp: Experiment) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Share of seat-against-seat comparisons in one game that A placed better than B (ties half).

    Main cells, mirror line-ups and unfinished games left out. Returns (share, comparisons)."""
    mirrors = mirror_lineups(exp, lineup_offsets(exp))
    main = [c.id for c in exp.cells if c.part == MAIN]
    rows = frame[frame["cell"].isin(main) & ~frame["lineup"].isin(mirrors)]
    if "unfinished" in rows:
        rows = rows[~rows["unfinished"].astype(bool)]
    names = sorted(rows["strategy"].astype(str).unique())
    k = len(names)
    won = np.zeros((k, k))
    seen = np.zeros((k, k))
    index = {s: i for i, s in enumerate(names)}
    for _, lineup_rows in rows.groupby("lineup"):
        ranks = lineup_rows.pivot(index="game", columns="seat", values="rank").to_numpy()
        seat_strategy = (lineup_rows.drop_duplicates("seat").sort_values("seat")["strategy"]
                         .astype(str).map(index).to_numpy())
        for i, j in itertools.permutations(range(ranks.shape[1]), 2):
            a, b = seat_strategy[i], seat_strategy[j]
            if a == b:
                continue
            won[a, b] += float(np.sum(ranks[:, i] < ranks[:, j]) + 0.5 * np.sum(ranks[:, i] == ranks[:, j]))
            seen[a, b] += ranks.shape[0]
    share = np.divide(won, seen, out=np.full((k, k), np.nan), where=seen > 0)
    return (pd.DataFrame(share, index=names, columns=names),
            pd.DataFrame(seen.astype(np.int64), index=names, columns=names))
