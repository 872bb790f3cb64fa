"""How much a game rewards skill, per player count: the skill index of a balance report.

- **The strongest player against random mirrors.** One seat plays the experiment's strongest
  strategy (``skill`` in the experiment: ``"auto"`` takes the strongest heuristic mirror, the
  one the balance verdict plays; a name such as ``"search"`` takes that player, at a few
  milliseconds a decision and so on fewer deals), every other seat ``random``; every deal is played with
  the strong seat in each position (simcards.designs), so its win rate is net of seat, with the
  boundary-safe interval over deal means (simcards.stats.share_interval: the deal is the unit;
  a strong player near 100% keeps its coverage there).
- **The skill index: a log-odds gap over random**, comparable across player counts. Under the
  Luce choice model (Plackett-Luce's first place), a player of strength e^theta among n - 1
  random players of strength 1 wins p = e^theta / (e^theta + n - 1), so
  theta = log(p (n - 1) / (1 - p)): 0 when it wins its fair share 1/n at any n, the same theta
  at 2 and at 6 players for the same gap in play. Its interval is the win rate's, mapped
  (monotone); ``elo`` is theta in Elo points (400 / ln 10 per unit). A player that won every
  deal has no upper end (infinite).
- **The information ceiling** (``[skill] oracle_deals`` > 0): Dreef, Borm and van der
  Genugten's relative skill compares a beginner, a player and a "fictive" player who knows the
  outcomes of the chance moves. Here the beginner is ``random``; the player is ``search`` at a
  small budget (``oracle_budget`` rollouts a decision); the fictive player is the same search
  with ``oracle=1``: its rollouts play on the true deal, every hand and the stock open, instead of
  re-deals of what its seat cannot see (strategies/<game>/search.py). Both play one seat against
  random players on the same deals, the seat rotated as above. On the log-odds scale (theta, 0
  for random) the learning effect is theta(search) and the information effect
  theta(oracle) - theta(search); the relative skill RS = learning / (learning + information) =
  theta(search) / theta(oracle). The gauge splits the oracle's headroom over a fair share on
  the win-rate scale: skill (search's win rate over the fair share), hidden information (the
  oracle's over search's) and luck (what even the oracle cannot win: 1 - its win rate), each
  as a share of 1 - fair share. Intervals: the win rates' boundary-safe intervals over deals;
  RS and the three shares by a percentile bootstrap over deals, paired (both players met the
  same deals; ``BOOTSTRAP`` resamples, seeded by the experiment's seed: the same report twice is
  the same bit for bit). The search here is deliberately weak (a small budget, so that a few
  hundred deals cost seconds): RS measures what its search could learn, not the best play.
- ``variance_share`` (the R² of the outcome on who plays the seat) is kept in the table for
  comparison with older reports, but is not the index: it is ((n p - 1) / (n - 1))², a squared
  rescaled win rate (55% at 2 players reads 1%).
- **Seat edges from random to skilled mirrors**: the first seat's edge under each mirror
  strategy of the balance verdict, side by side.
"""
from __future__ import annotations

from typing import Callable, Sequence

import numpy as np
import pandas as pd

from simcards.run.designs import rotated_lineups
from simcards.report.experiment import Experiment

RANDOM = "random"
SEARCH = "search"
#: Why the skill index has no information ceiling beside it (when the experiment asks for none).
ORACLE_NOTE = ("Information ceiling not measured in this report: set [skill] oracle_deals (and oracle_budget) "
               "in the experiment to play search and its open-hand oracle (search:oracle=1) against random "
               "players on the same deals (docs/reference/experiment-format.md).")
#: Bootstrap resamples of the deals for the relative skill's and the gauge's intervals.
BOOTSTRAP = 2000
#: Elo points per unit of log-odds.
ELO = 400 / np.log(10)
#: Deals of the skill games when the strong player searches (a ``budget`` parameter): it
#: costs milliseconds a decision, so its interval is wider than the heuristics'.
SEARCH_DEALS = 300


def skill_strategy(exp: Experiment) -> str | None:
    """The strong player of the skill index, or None when the experiment has none."""
    if exp.skill is False:
        return None
    if exp.skill not in (None, "auto"):
        return str(exp.skill)
    from simcards.contract.strategy_registry import strategies_for
    known = {n for n, i in strategies_for(exp.spec).items() if not i.problem}
    if RANDOM not in known or not exp.mirror:
        return None
    # the heuristic mirror, not search: a compiled heuristic plays a million games in seconds,
    # so the gauge is as exact as the verdicts, where search's few hundred deals took most of
    # a report's time (18 of 21 minutes of Five Alive's); an experiment may name search
    strong = [m for m in exp.mirror if m != RANDOM]
    return strong[0] if strong else None


def lineup(strong: str, players: int) -> tuple[str, ...]:
    return (strong,) + (RANDOM,) * (players - 1)


def skill_deals(exp: Experiment, strong: str) -> int:
    """The experiment's games per line-up, at most SEARCH_DEALS for a searching player."""
    from simcards.contract.strategy_registry import is_search, strategies_for
    return min(exp.games, SEARCH_DEALS) if is_search(strategies_for(exp.spec), strong) else exp.games


def _play_against_random(exp: Experiment, strong: str, deals: int, kernel: tuple[str, ...],
                         threads, backend, progress) -> pd.DataFrame:
    """``deals`` deals per main player count, one seat ``strong`` and every other random, the
    strong seat in every position (simcards.designs), on the experiment's seed and rules."""
    from simcards.run.rotation import execute_rotated
    from simcards.run.runner import RunSpec
    frames = []
    for n in exp.players:
        names = lineup(strong, n)
        seatings = len(rotated_lineups(names))

        def spec_for(seating: Sequence[str], deals: int):
            return RunSpec.create(exp.spec.name, seating, deals, exp.seed, exp.resolved_rules,
                                  kernel_strategies=kernel, threads=threads)

        frame = execute_rotated(spec_for, names, deals * seatings, backend=backend, progress=progress)
        frames.append(pd.DataFrame({
            "players": np.int8(n), "order": frame["order"].to_numpy(), "game": frame["game"].to_numpy(),
            "seat": frame["seat"].to_numpy(),
            # every other seat is random: the strong seat is the one that is not (whatever the
            # canonical spelling of the strong player's parameters)
            "strong": (frame["strategy"] != RANDOM).to_numpy(),
            "win_share": frame["win_share"].to_numpy(),
            "unfinished": (frame["unfinished"].to_numpy(bool) if "unfinished" in frame
                           else np.zeros(len(frame), bool))}))
    return pd.concat(frames, ignore_index=True)


def play_skill(exp: Experiment, threads: int | None = None, backend=None,
               progress: Callable[[int], None] | None = None) -> pd.DataFrame | None:
    """The skill games of every main player count: ``skill_deals`` deals, each with the strong
    seat in every position, on the experiment's seed (the same deals as its main cells)."""
    from simcards.run.runner import ThreadBackend
    strong = skill_strategy(exp)
    if strong is None:
        return None
    backend = backend or ThreadBackend(threads)
    kernel = tuple(sorted(set(exp.strategies) | {strong, RANDOM}))
    return _play_against_random(exp, strong, skill_deals(exp, strong), kernel, threads, backend, progress)


def oracle_players(exp: Experiment) -> tuple[str, str] | None:
    """(search, its open-hand oracle) at the experiment's ``oracle_budget``, or None when the
    experiment asks for no ceiling or the game's search has no ``oracle`` parameter."""
    if exp.oracle_deals <= 0 or exp.skill is False:
        return None
    from simcards.contract.strategy_registry import strategies_for
    info = strategies_for(exp.spec).get(SEARCH)
    if info is None or info.problem or RANDOM not in strategies_for(exp.spec) \
            or not {"oracle", "budget"} <= {p.name for p in info.params}:
        return None
    player = f"{SEARCH}:budget={exp.oracle_budget}"
    return player, f"{player}:oracle=1"


def play_oracle(exp: Experiment, threads: int | None = None, backend=None,
                progress: Callable[[int], None] | None = None) -> pd.DataFrame | None:
    """The information ceiling's games: search and its oracle, each in one seat against random
    players, ``oracle_deals`` deals per player count, the same deals for both (paired); the
    column ``player`` says which ("search" or "oracle")."""
    from simcards.run.runner import ThreadBackend
    pair = oracle_players(exp)
    if pair is None:
        return None
    backend = backend or ThreadBackend(threads)
    kernel = tuple(sorted(set(exp.strategies) | {RANDOM, *pair}))
    frames = []
    for who, name in zip(("search", "oracle"), pair):
        part = _play_against_random(exp, name, exp.oracle_deals, kernel, threads, backend, progress)
        part.insert(0, "player", who)
        frames.append(part)
    return pd.concat(frames, ignore_index=True)


def oracle_planned_games(exp: Experiment) -> int:
    pair = oracle_players(exp)
    if pair is None:
        return 0
    return 2 * sum(exp.oracle_deals * len(rotated_lineups(lineup(pair[0], n))) for n in exp.players)


def decompose(search_p, oracle_p, fair, players) -> dict:
    """Dreef et al.'s relative skill and the gauge's three shares from win rates (arrays
    broadcast): learning = theta(search), information = theta(oracle) - theta(search) on the
    log-odds scale (theta 0 for random); RS = learning / (learning + information); skill,
    information and luck as shares of the headroom 1 - fair on the win-rate scale, summing to 1.
    RS is nan where the oracle is no better than random (no ceiling to divide by) and where it won
    every deal: its log-odds estimate is then infinite (its interval has no upper end), so the ratio
    says nothing, although the shares on the win-rate scale still do."""
    s, o, f = (np.asarray(v, float) for v in (search_p, oracle_p, fair))
    ts, to = log_odds_gap(s, players), log_odds_gap(o, players)
    with np.errstate(divide="ignore", invalid="ignore"):
        rs = np.where((to > 0) & np.isfinite(to), ts / to, np.nan)
        room = 1.0 - f
        return {"learning": ts, "information": to - ts, "relative_skill": rs,
                "skill_share": (s - f) / room, "information_share": (o - s) / room,
                "luck_share": (1.0 - o) / room}


def oracle_table(games: pd.DataFrame | None, exp: Experiment) -> pd.DataFrame | None:
    """One row per player count: search's and the oracle's win rates against random with their
    intervals (the deal is the unit), the log-odds effects, the relative skill and the gauge's
    shares, each with a paired percentile-bootstrap interval over deals."""
    from simcards.statistics.intervals import mean_interval
    if games is None or games.empty:
        return None
    pair = oracle_players(exp)
    rows = []
    boot = np.random.default_rng([exp.seed, 50])
    for n, part in games.groupby("players", sort=True):
        mine = part[part["strong"]]
        per_deal = mine.groupby(["player", "game"])["win_share"].mean().unstack("player")
        per_deal = per_deal[["search", "oracle"]].dropna()        # the deals both played
        unfinished = float(part.loc[part["seat"] == 0, "unfinished"].mean())
        fair = (1.0 - unfinished) / n
        row = {"players": int(n), "search": pair[0] if pair else SEARCH, "oracle": pair[1] if pair else "",
               "deals": int(len(per_deal)), "fair_share": fair}
        for who in ("search", "oracle"):
            iv = mean_interval(per_deal[who], share=True).iloc[0]
            row.update({f"{who}_win_rate": float(iv["mean"]), f"{who}_low": float(iv["ci_low"]),
                        f"{who}_high": float(iv["ci_high"])})
        point = decompose(row["search_win_rate"], row["oracle_win_rate"], fair, n)
        # paired bootstrap: resample deals, both players' outcomes of a deal together
        x = per_deal.to_numpy()
        idx = boot.integers(0, len(x), size=(BOOTSTRAP, len(x)))
        means = x[idx].mean(axis=1)
        draws = decompose(means[:, 0], means[:, 1], fair, n)
        for key, value in point.items():
            d = draws[key][np.isfinite(draws[key])]
            row[key] = float(value)
            row[f"{key}_low"], row[f"{key}_high"] = ((float(np.percentile(d, 2.5)), float(np.percentile(d, 97.5)))
                                                      if d.size >= BOOTSTRAP // 2 else (float("nan"), float("nan")))
        rows.append(row)
    return pd.DataFrame(rows)


def oracle_sentence(table: pd.DataFrame) -> str:
    """The ceiling in words: how much of the oracle's headroom search's skill, hidden information
    and luck take, and the relative skill, per player count."""
    parts = []
    for r in table.to_dict("records"):
        rs = ("relative skill not defined (" + ("the oracle won every deal" if r["oracle_win_rate"] >= 1
                                                else "the oracle is no better than random") + ")"
              if not np.isfinite(r["relative_skill"])
              else f"relative skill {r['relative_skill']:.2f} [{r['relative_skill_low']:.2f}, "
                   f"{r['relative_skill_high']:.2f}]")
        parts.append(f"{r['players']} players: skill {100 * r['skill_share']:.0f}%, hidden information "
                     f"{100 * r['information_share']:.0f}%, luck {100 * r['luck_share']:.0f}% ({rs})")
    return "; ".join(parts)


def planned_games(exp: Experiment) -> int:
    strong = skill_strategy(exp)
    if strong is None:
        return 0
    return sum(skill_deals(exp, strong) * len(rotated_lineups(lineup(strong, n))) for n in exp.players)


def variance_share(win_share: np.ndarray, strong: np.ndarray) -> float:
    """Between-group over total sum of squares of the win share (groups: strong seat or not)."""
    y = np.asarray(win_share, float)
    total = float(((y - y.mean()) ** 2).sum())
    if total == 0:
        return float("nan")
    between = sum(g.size * (g.mean() - y.mean()) ** 2 for g in (y[strong], y[~strong]) if g.size)
    return float(between / total)


def log_odds_gap(p, players) -> np.ndarray:
    """theta = log(p (n - 1) / (1 - p)): the strength of a player winning p among n - 1 random
    players under the Luce choice model, 0 at the fair share; -inf at 0, +inf at 1."""
    p = np.asarray(p, float)
    n = np.asarray(players, float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.log(p * (n - 1)) - np.log1p(-p)


def skill_table(games: pd.DataFrame | None, exp: Experiment, verdicts: list) -> pd.DataFrame | None:
    """One row per player count: the strong player's win rate against random mirrors with its
    interval, the fair share (net of unfinished games), the skill index as a log-odds gap
    (``logodds``, ``logodds_low``, ``logodds_high``) and in Elo points (``elo``...), and the
    first seat's edge under each mirror. ``variance_share`` is kept for older readers only."""
    from simcards.statistics.intervals import mean_interval
    if games is None or games.empty:
        return None
    strong = skill_strategy(exp)
    rows = []
    for n, part in games.groupby("players", sort=True):
        mine = part[part["strong"]]
        per_deal = mine.groupby("game")["win_share"].mean()
        iv = mean_interval(per_deal, share=True).iloc[0]
        unfinished = float(part.loc[part["seat"] == 0, "unfinished"].mean()) if "unfinished" in part else 0.0
        gap = log_odds_gap([iv["mean"], iv["ci_low"], iv["ci_high"]], n)
        row = {"players": int(n), "strongest": strong, "deals": int(iv["deals"]),
               "win_rate": float(iv["mean"]), "ci_low": float(iv["ci_low"]),
               "ci_high": float(iv["ci_high"]), "se": float(iv["se"]), "fair_share": (1.0 - unfinished) / n,
               "logodds": float(gap[0]), "logodds_low": float(gap[1]), "logodds_high": float(gap[2]),
               "elo": float(ELO * gap[0]), "elo_low": float(ELO * gap[1]), "elo_high": float(ELO * gap[2]),
               "variance_share": variance_share(part["win_share"].to_numpy(), part["strong"].to_numpy())}
        for v in verdicts:
            if v.players == n:
                row[f"first_edge {v.basis}"] = float(v.first_edge)
        rows.append(row)
    return pd.DataFrame(rows)


def skill_sentence(table: pd.DataFrame) -> str:
    """A headline: how far above a fair share the strong player wins, as win rates and as the
    log-odds gap over random that compares player counts."""
    lo = table.loc[table["logodds"].idxmin()]
    hi = table.loc[table["logodds"].idxmax()]

    def gap(r) -> str:
        top = "no upper end" if not np.isfinite(r["logodds_high"]) else f"{r['logodds_high']:.2f}"
        return f"{r['logodds']:.2f} [{r['logodds_low']:.2f}, {top}] at {int(r['players'])} players"

    span = gap(lo) if lo["players"] == hi["players"] else f"{gap(lo)} to {gap(hi)}"
    return (f"Skill: `{lo['strongest']}` against random players wins {100 * table['win_rate'].min():.1f}% to "
            f"{100 * table['win_rate'].max():.1f}% of games (fair shares {100 * table['fair_share'].min():.1f}% "
            f"to {100 * table['fair_share'].max():.1f}%): a log-odds gap over random of {span} "
            "(0: no better than random; the same gap means the same edge at any player count).")
