"""``simcards tune``: search a strategy's run-time parameters for the best win rate against a pool.

Evidence, as everywhere in simcards, is counted by deal:
- every trial plays the *same* deals (common random numbers), each in every seat order
  (simcards.rotation), against every line-up of the pool, so two trials differ by their
  parameters and not by the luck of the deal or the seat;
- the best trial is then checked on *fresh* deals, never seen while tuning (the best of many
  noisy trials is biased upward: the winner's curse), against the untuned defaults on the same
  deals, paired over deals (simcards.statistics.paired.paired_difference: the boundary-safe
  interval of a difference of win shares and the test it inverts; the exact sign test where
  every deal's difference is the same).

Why optuna: its TPE sampler takes integer and real parameters together, needs no gradient and
few trials, and its ask-and-tell interface lets every trial be one ordinary simcards run; with a
seeded sampler the same command gives the same trials. cma handles real parameters only (most
of ours are integer thresholds), and nevergrad's strength, large budgets of cheap evaluations,
is not our case: a trial costs thousands of games.

The result is a strategy file holding one line, ``ALIAS = "expert:danger=3"`` (simcards.params):
usable by name with ``--strategy-dir``, and it compiles nothing.
"""
from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from simcards.run.designs import pool_lineups, rotated_lineups
from simcards.errors import SimcardsError, choices
from simcards.compiled.params import SEPARATOR, Param
from simcards.contract.registry import get_game
from simcards.contract.strategy_registry import is_search, seat_strategies, strategies_for

@dataclass
class TuneConfig:
    """Everything a tuning run depends on (saved beside its results as config.json)."""

    game: str
    strategy: str
    players: int
    pool: list[str]
    trials: int = 40
    games: int = 20_000           # games per trial, over every line-up and seat order
    check_games: int = 40_000     # games of the final comparison, on fresh deals
    seed: int = 0
    rules: dict[str, Any] = field(default_factory=dict)
    strategy_dirs: list[str] = field(default_factory=list)


@dataclass
class Comparison:
    """Tuned against default on fresh deals: win rates and the paired difference."""

    deals: int
    default_rate: float
    tuned_rate: float
    diff: float
    low: float
    high: float
    p_value: float


@dataclass
class TuneResult:
    config: TuneConfig
    params: list[Param]
    trials: pd.DataFrame           # one row per trial: its values and win rate on the tuning deals
    best: dict[str, float]
    best_name: str                 # canonical name, e.g. expert:danger=3
    comparison: Comparison


def default_pool(game: str, strategy: str, strategy_dirs: Sequence[str] = ()) -> list[str]:
    """The game's other strategies: not the tuned one, not aliases, not slow search players."""
    infos = strategies_for(get_game(game), strategy_dirs)
    return [n for n, i in sorted(infos.items())
            if n != strategy and not i.problem and not i.alias and not is_search(infos, n)]


def deal_scores(config: TuneConfig, candidate: str, games: int, start: int,
                threads: int | None = None) -> np.ndarray:
    """The candidate's win share per deal, net of seat: its mean over every seat order and
    line-up of that deal. Deals start..start+D-1, the same for every candidate."""
    from simcards.run.rotation import simulate_rotated
    from simcards.statistics.intervals import deal_means
    spec = get_game(config.game)
    name = seat_strategies(spec, [candidate], config.strategy_dirs)[0][0]
    lineups = pool_lineups(config.pool, config.players, lead=candidate)
    seatings = len(rotated_lineups(lineups[0]))
    deals = max(2, math.ceil(games / (len(lineups) * seatings)))
    total = np.zeros(deals)
    for lineup in lineups:
        frame = simulate_rotated(config.game, lineup, deals * seatings, config.seed, config.rules,
                                 start=start, threads=threads, strategy_dirs=config.strategy_dirs)
        means = deal_means(frame, "win_share", ["strategy"]).xs(name, level="strategy")
        total += means.to_numpy()
    return total / len(lineups)


def check_config(config: TuneConfig) -> list[Param]:
    """Every input checked before the first game; the parameters to tune."""
    from simcards.run.batch import prepare
    spec = get_game(config.game)
    infos = strategies_for(spec, config.strategy_dirs)
    if config.strategy not in infos:
        usable = [n for n, i in infos.items() if not i.problem]
        raise SimcardsError(f"unknown strategy {config.strategy!r} for {spec.name}: accepted are "
                            f"{choices(usable)}")
    info = infos[config.strategy]
    if info.alias or not info.params:
        with_params = [n for n, i in infos.items() if i.params and not i.problem]
        raise SimcardsError(f"strategy {config.strategy!r} has no run-time parameters to tune: "
                            f"accepted are {choices(with_params) or 'none'}")
    if not config.pool:
        raise SimcardsError("bad --pool: no strategy to play against; give one or more names")
    for name, n in (("--trials", config.trials), ("--games", config.games), ("--check-games", config.check_games)):
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise SimcardsError(f"bad {name} {n!r}: expected a positive integer")
    for lineup in pool_lineups(config.pool, config.players, lead=config.strategy):
        prepare(config.game, lineup, config.seed, config.rules, strategy_dirs=config.strategy_dirs)
    return list(info.params)


def tune(config: TuneConfig, threads: int | None = None,
         progress: Callable[[int, float, float], None] | None = None) -> TuneResult:
    """Run the search: ``progress(trial, win_rate, best_so_far)`` after every trial."""
    import optuna
    params = check_config(config)
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    sampler = optuna.samplers.TPESampler(seed=config.seed)
    study = optuna.create_study(direction="maximize", sampler=sampler)
    study.enqueue_trial({p.name: (int(p.default) if p.integer else p.default) for p in params})
    rows = []
    for number in range(config.trials):
        trial = study.ask()
        values = {p.name: (trial.suggest_int(p.name, int(p.low), int(p.high)) if p.integer
                           else trial.suggest_float(p.name, p.low, p.high)) for p in params}
        rate = float(deal_scores(config, _spec_text(config.strategy, values), config.games, 0, threads).mean())
        study.tell(trial, rate)
        rows.append({"trial": number, **values, "win_rate": rate})
        if progress:
            progress(number, rate, study.best_value)
    trials = pd.DataFrame(rows)
    trials["best_so_far"] = trials["win_rate"].cummax()
    best = dict(study.best_params)
    best_text = _spec_text(config.strategy, best)
    best_name = seat_strategies(get_game(config.game), [best_text], config.strategy_dirs)[0][0]
    # fresh deals: game indices after the tuning deals' (the same seed, never played while tuning)
    fresh = config.games + 1
    tuned = deal_scores(config, best_text, config.check_games, fresh, threads)
    default = deal_scores(config, config.strategy, config.check_games, fresh, threads)
    from simcards.statistics.paired import SHARE_DIFFERENCE, paired_difference
    diff, low, high, p = paired_difference(tuned - default, SHARE_DIFFERENCE)
    comparison = Comparison(len(tuned), float(default.mean()), float(tuned.mean()), diff, low, high, p)
    return TuneResult(config, params, trials, best, best_name, comparison)


def _spec_text(strategy: str, values: Mapping[str, float]) -> str:
    return SEPARATOR.join([strategy] + [f"{k}={v!r}" if isinstance(v, float) else f"{k}={v}"
                                        for k, v in values.items()])


# ------------------------------------------------------------------ outputs
def alias_path(out: Path, game: str, strategy: str) -> Path:
    return Path(out) / get_game(game).module_name / f"{strategy}_tuned.py"


def write_results(result: TuneResult, out: Path) -> list[Path]:
    """The tuned strategy (an alias file), and beside it the run's record: config.json,
    trials.csv, best_so_far.png and report.md. Returns the files written."""
    from simcards.outputs import write_file, write_text
    config, comp = result.config, result.comparison
    out = Path(out)
    record = out / f"tune-{config.game}-{config.strategy}"
    alias = alias_path(out, config.game, config.strategy)
    values = ", ".join(f"{k}={v:g}" for k, v in result.best.items())
    command = (f"simcards tune {config.game} {config.strategy} --players {config.players} "
               f"--pool {','.join(config.pool)} --trials {config.trials} --games {config.games} "
               f"--check-games {config.check_games} --seed {config.seed}"
               + "".join(f" --rule {k}={v}" for k, v in config.rules.items()))
    alias.parent.mkdir(parents=True, exist_ok=True)
    record.mkdir(parents=True, exist_ok=True)
    write_text(alias, f'"""{config.strategy} tuned by simcards tune for {config.players} players: '
                      f'{values}. Against the pool on {comp.deals:,} fresh deals: '
                      f'{comp.tuned_rate:.4f} win rate (untuned {comp.default_rate:.4f}; '
                      f'difference {comp.diff:+.4f}, 95% [{comp.low:+.4f}, {comp.high:+.4f}]).\n\n'
                      f'Made by: {command}\n"""\n'
                      f'ALIAS = "{result.best_name}"\n')
    write_text(record / "config.json", json.dumps(asdict(config), indent=1))
    write_file(record / "trials.csv", lambda tmp: result.trials.to_csv(tmp, index=False))
    write_file(record / "best_so_far.png", lambda tmp: _plot(result, tmp))
    write_text(record / "report.md", report_text(result, alias))
    return [alias, record / "config.json", record / "trials.csv", record / "best_so_far.png",
            record / "report.md"]


def report_text(result: TuneResult, alias: Path) -> str:
    config, comp = result.config, result.comparison
    best = ", ".join(f"`{k}={v:g}`" for k, v in result.best.items())
    lines = [
        f"# Tuning `{config.strategy}` for {config.game}, {config.players} players",
        "",
        f"- Pool: {', '.join(config.pool)}; every line-up played in every seat order on common deals.",
        f"- {config.trials} trials (optuna TPE, seed {config.seed}), {config.games:,} games each; "
        f"the first trial is the default.",
        f"- Best: {best} (`{result.best_name}`), win rate {result.trials['win_rate'].max():.4f} on "
        "the tuning deals (biased upward: the best of many trials).",
        "",
        f"## Tuned against the default, on {comp.deals:,} fresh deals",
        "",
        "| | win rate |",
        "|---|---|",
        f"| default `{config.strategy}` | {comp.default_rate:.4f} |",
        f"| tuned `{result.best_name}` | {comp.tuned_rate:.4f} |",
        f"| difference (paired by deal) | {comp.diff:+.4f}, 95% [{comp.low:+.4f}, {comp.high:+.4f}], "
        f"p = {comp.p_value:.3g} |",
        "",
        f"Fair share: {1 / config.players:.4f}. Use it: `--strategy-dir {alias.parent.parent} "
        f"--strategies {alias.stem},...`.",
        "",
        "![best so far](best_so_far.png)",
        "",
    ]
    return "\n".join(lines)


def _plot(result: TuneResult, path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    t = result.trials
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    ax.plot(t["trial"], t["win_rate"], "o", ms=3, alpha=0.6, label="trial")
    ax.step(t["trial"], t["best_so_far"], where="post", label="best so far")
    ax.axhline(t["win_rate"].iloc[0], ls=":", color="grey", label="default (trial 0)")
    ax.set_xlabel("trial")
    ax.set_ylabel("win rate on the tuning deals")
    ax.set_title(f"{result.config.game}: tuning {result.config.strategy}")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, format="png", dpi=110)
    plt.close(fig)
