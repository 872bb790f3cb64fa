"""One rule set measured on common deals: every seat's edge under every mirror at every player
count, the game time, and the strongest mirror's skill over random players.

- **Seat edges.** A mirror line-up (every seat the same strategy) plays deals ``0..games-1`` of
  the experiment's seed: every rule set of the search plays the *same* deals (common random
  numbers), so two rule sets differ by their rules, not by the luck of the deal. A mirror's
  seats differ only by their position, so no seat rotation is needed: seat ``s``'s edge is its
  win share less the fair share (finished games / players), per deal, and its interval is the
  report's (simcards.stats.share_interval on the deal's own edge: the deal is the unit).
- **The worst seat** is the one furthest from fair over every seat, mirror and player count;
  ``bound`` is the largest end of any seat's edge interval, in absolute value: the tolerance an
  equivalence test (TOST) would need to call this rule set fair. The search minimizes it.
- **Game time** is each game's costed columns times their seconds (the experiment's
  ``seconds_per_turn`` and ``[seconds]``, as the report's game time), under the first mirror (the
  strongest player's games: the time a skilled table takes).
- **Skill** is the report's skill index (simcards.report.skill.log_odds_gap): the first mirror
  that is not random, in one seat against random players, every deal in every seat order.

Deals are played in stages (``Tally``), so that a hopeless trial is stopped after the first.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from simcards.balancing.config import RANDOM, BalanceConfig

#: z of a two-sided 99.7% interval: a trial is pruned only when its worst seat is beyond the best
#: trial's bound with this margin (a lower bound three standard errors below the estimate).
PRUNE_Z = 3.0


@dataclass
class Cell:
    """The deals of one mirror at one player count played so far: per deal, every seat's edge."""

    players: int
    mirror: str
    edges: list = field(default_factory=list)     # (deals, players) arrays, one per stage
    shares: list = field(default_factory=list)
    finished: list = field(default_factory=list)
    minutes: list = field(default_factory=list)

    def add(self, share: np.ndarray, finished: np.ndarray, minutes: np.ndarray) -> None:
        self.shares.append(share)
        self.finished.append(finished)
        self.edges.append(share - finished[:, None] / self.players)
        self.minutes.append(minutes)

    def seats(self) -> list[dict]:
        """Per seat: edge, its standard error and its boundary-safe 95% interval (fractions)."""
        from simcards.statistics.intervals import share_interval
        share = np.vstack(self.shares)
        edge = np.vstack(self.edges)
        fin = np.concatenate(self.finished)
        deals = len(fin)
        rate = share.mean(axis=0)
        est = edge.mean(axis=0)
        se = edge.std(axis=0, ddof=1) / np.sqrt(deals) if deals > 1 else np.full(self.players, np.inf)
        low, high = share_interval(rate, se, np.full(self.players, deals))
        fair = fin.mean() / self.players
        return [{"players": self.players, "mirror": self.mirror, "seat": s, "deals": deals,
                 "edge": float(est[s]), "se": float(se[s]), "low": float(low[s] - fair),
                 "high": float(high[s] - fair), "unfinished": float(1 - fin.mean())}
                for s in range(self.players)]


@dataclass
class Measure:
    """A rule set's numbers on the search's deals (fractions for edges, minutes for time)."""

    values: dict[str, Any]
    seats: list[dict]
    worst: dict                       # the seat furthest from fair
    bound: float                      # max |end| of any seat's edge interval
    minutes: dict[int, dict]          # players -> mean, median, p10, p90 (first mirror)
    skill: dict[int, dict] = field(default_factory=dict)   # players -> win_rate, logodds (+ ends)
    deals: int = 0
    pruned: bool = False
    invalid: str = ""                 # why the rule set cannot be played (then pruned, no numbers)

    @property
    def worst_edge(self) -> float:
        return abs(self.worst["edge"])

    @property
    def skill_min(self) -> float | None:
        return min((s["logodds"] for s in self.skill.values()), default=None)

    def time_change(self, base: dict[int, dict]) -> float:
        """The largest relative change of mean game time against ``base`` over player counts."""
        return max(abs(self.minutes[n]["mean"] / base[n]["mean"] - 1) if base[n]["mean"] > 0 else 0.0
                   for n in self.minutes)

    def to_dict(self) -> dict:
        return {"values": self.values, "seats": self.seats, "worst": self.worst, "bound": self.bound,
                "minutes": {str(n): m for n, m in self.minutes.items()},
                "skill": {str(n): s for n, s in self.skill.items()}, "deals": self.deals, "pruned": self.pruned,
                "invalid": self.invalid}

    @classmethod
    def from_dict(cls, d: dict) -> "Measure":
        return cls(values=d["values"], seats=d["seats"], worst=d["worst"], bound=d["bound"],
                   minutes={int(n): m for n, m in d["minutes"].items()},
                   skill={int(n): s for n, s in d["skill"].items()}, deals=d["deals"], pruned=d["pruned"],
                   invalid=d.get("invalid", ""))


def _summary(cells: list[Cell], values: dict, pruned: bool) -> Measure:
    seats = [row for c in cells for row in c.seats()]
    worst = max(seats, key=lambda r: abs(r["edge"]))
    bound = max(max(abs(r["low"]), abs(r["high"])) for r in seats)
    minutes = {}
    for c in cells:
        if c.players in minutes:
            continue               # the first mirror's games
        m = np.concatenate(c.minutes)
        minutes[c.players] = {"mean": float(m.mean()), "median": float(np.median(m)),
                              "p10": float(np.quantile(m, 0.1)), "p90": float(np.quantile(m, 0.9))}
    return Measure(values=dict(values), seats=seats, worst=worst, bound=float(bound), minutes=minutes,
                   deals=sum(len(f) for f in cells[0].finished), pruned=pruned)


def play_mirror(cfg: BalanceConfig, rules: dict, players: int, mirror: str, start: int, count: int,
                seed: int, threads: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(win shares (deals, players), finished (deals,), minutes (deals,)) of deals
    start..start+count-1 with every seat playing ``mirror``."""
    from simcards.run.simulation import simulate
    frame = simulate(cfg.exp.spec.name, [mirror] * players, count, seed, rules, start=start,
                     threads=threads, kernel_strategies=cfg.kernel_strategies)
    # the frame's rows are (game, seat) in order: one row per seat of every game
    share = frame["win_share"].to_numpy(float).reshape(count, players)
    first = frame.iloc[::players]
    finished = (1.0 - first["unfinished"].to_numpy(float)) if "unfinished" in frame else np.ones(count)
    seconds = np.zeros(count)
    for column, cost in cfg.exp.time_costs.items():
        if column in first:
            seconds += cost * first[column].to_numpy(float)
    return share, finished, seconds / 60


def skill_games(cfg: BalanceConfig, rules: dict, seed: int, deals: int, threads: int | None) -> dict[int, dict]:
    """Per player count: the strong mirror's win rate against random players, every deal in every
    seat order, with its interval and the log-odds gap (simcards.report.skill)."""
    from simcards.run.designs import rotated_lineups
    from simcards.report.skill import log_odds_gap
    from simcards.run.rotation import simulate_rotated
    from simcards.statistics.intervals import mean_interval
    strong = cfg.strong
    out: dict[int, dict] = {}
    if strong is None:
        return out
    for n in cfg.exp.players:
        lineup = [strong] + [RANDOM] * (n - 1)
        seatings = len(rotated_lineups(lineup))
        frame = simulate_rotated(cfg.exp.spec.name, lineup, deals * seatings, seed, rules, threads=threads,
                                 kernel_strategies=cfg.kernel_strategies)
        mine = frame[frame["strategy"] == strong]
        iv = mean_interval(mine.groupby("game")["win_share"].mean(), share=True).iloc[0]
        gap = log_odds_gap([iv["mean"], iv["ci_low"], iv["ci_high"]], n)
        out[n] = {"win_rate": float(iv["mean"]), "low": float(iv["ci_low"]), "high": float(iv["ci_high"]),
                  "logodds": float(gap[0]), "logodds_low": float(gap[1]), "logodds_high": float(gap[2]),
                  "deals": int(iv["deals"])}
    return out


def measure(cfg: BalanceConfig, values: dict[str, Any], threads: int | None = None, *,
            seed: int | None = None, games: int | None = None, stages: int = 4,
            hopeless: Callable[[Measure], bool] | None = None) -> Measure:
    """Play the rule set ``values`` on deals 0..games-1 of ``seed`` (the experiment's by default),
    in ``stages``; after the first, ``hopeless(partial)`` may stop it (``pruned``, no skill games)."""
    seed = cfg.exp.seed if seed is None else seed
    games = cfg.games if games is None else games
    rules = cfg.rules(values)
    problem = unplayable(cfg, rules)
    if problem:
        return Measure(values=dict(values), seats=[], worst={}, bound=float("inf"), minutes={},
                       pruned=True, invalid=problem)
    cells = [Cell(n, m) for n in cfg.exp.players for m in cfg.mirrors]
    cuts = np.linspace(0, games, stages + 1).astype(int)
    for stage, (lo, hi) in enumerate(zip(cuts[:-1], cuts[1:])):
        if hi <= lo:
            continue
        for c in cells:
            c.add(*play_mirror(cfg, rules, c.players, c.mirror, int(lo), int(hi - lo), seed, threads))
        if stage == 0 and hopeless is not None and hi < games:
            partial = _summary(cells, values, pruned=True)
            if hopeless(partial):
                return partial
    result = _summary(cells, values, pruned=False)
    result.skill = skill_games(cfg, rules, seed, cfg.skill_games if games == cfg.games else
                               max(10, games // 4), threads)
    return result


def unplayable(cfg: BalanceConfig, rules: dict) -> str:
    """Why these rules cannot be played at some player count (a seat with no keys, hands too big
    for the deck), or "": the ranges of a search may hold such corners, which are skipped."""
    from simcards.errors import SimcardsError
    spec = cfg.exp.spec
    try:
        resolved = spec.resolve_rules(rules)
        for n in cfg.exp.players:
            spec.encode_params(resolved, n)
    except SimcardsError as exc:
        return str(exc)
    return ""


def lower_worst(m: Measure) -> float:
    """A lower bound on the rule set's worst seat: the largest |edge| less PRUNE_Z standard errors."""
    return max(abs(r["edge"]) - PRUNE_Z * r["se"] for r in m.seats)
