"""``simcards tune``: a strategy's run-time parameters searched for the best win rate."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.table import Table

from simcards.cli.args import ForceOpt, GameArg, RuleOpt, SeedOpt, StrategyDirOpt, _check_players, _check_seed
from simcards.cli.base import command, err, out
from simcards.errors import SimcardsError


@command("tune")
def tune_cmd(
    game: GameArg,
    strategy: Annotated[str, typer.Argument(help="The strategy whose parameters to tune "
                                            "(`simcards strategies GAME` lists them).")],
    players: Annotated[int, typer.Option(help="Number of players.")] = 4,
    pool: Annotated[Optional[str], typer.Option(
        help="Opponents, comma-separated, parameters allowed (default: the game's other strategies, "
             "search players left out).")] = None,
    trials: Annotated[int, typer.Option(help="Parameter settings to try; the first is the default.")] = 40,
    games: Annotated[int, typer.Option(help="Games per trial, over every line-up and seat order.")] = 20_000,
    check_games: Annotated[int, typer.Option(
        help="Games of the final comparison, tuned against default, on fresh deals.")] = 40_000,
    seed: SeedOpt = 0,
    rule: RuleOpt = None,
    out_dir: Annotated[Path, typer.Option("--out", help="Folder for the tuned strategy "
                                          "(<out>/<game>/<strategy>_tuned.py) and the run's record.")] = Path("tuned"),
    threads: Annotated[Optional[int], typer.Option(help="Threads on this machine (default: all cores).")] = None,
    strategy_dir: StrategyDirOpt = None,
    force: ForceOpt = False,
) -> None:
    """Search a strategy's run-time parameters (optuna) for the best win rate against a pool, on
    common deals in every seat order; check the best on fresh deals against the default."""
    from simcards.contract.options import parse_assignments
    from simcards.tune import TuneConfig, alias_path, default_pool, tune, write_results
    from simcards.contract.validate import check_optional_counts
    from simcards.run.waits import progress_bar
    from simcards.contract.registry import get_game
    spec = get_game(game)
    _check_players(spec, players)
    _check_seed(seed)
    check_optional_counts(thread_count=threads)
    dirs = [str(d) for d in strategy_dir or ()]
    names = [s.strip() for s in pool.split(",")] if pool else default_pool(game, strategy, dirs)
    config = TuneConfig(game, strategy, players, names, trials, games, check_games, seed,
                        parse_assignments(rule), dirs)
    target = alias_path(out_dir, game, strategy)
    record = Path(out_dir) / f"tune-{game}-{strategy}"
    from simcards.outputs import take_lock
    take_lock(target, "--out")      # for the command: a second tune of it is refused; --out is writable
    for path in (target, record):
        if path.exists() and not force:
            raise SimcardsError(f"{str(path)!r} exists: use --force to replace it, or another --out")
    with progress_bar(err, trials) as bar:
        result = tune(config, threads, progress=lambda i, rate, best: bar.update(i + 1, trials, "trials"))
    table = Table("trial", "values off the default", "win rate", title=f"{game}: {strategy}, best trials")
    for row in result.trials.sort_values("win_rate", ascending=False).head(5).itertuples(index=False):
        d = row._asdict()
        changed = [f"{p.name}={d[p.name]:g}" for p in result.params if d[p.name] != p.default]
        table.add_row(str(d["trial"]), " ".join(changed) or "(the default)", f"{d['win_rate']:.4f}")
    out.print(table)
    c = result.comparison
    out.print(f"tuned {result.best_name}: {c.tuned_rate:.4f} against default {c.default_rate:.4f} on "
              f"{c.deals:,} fresh deals: {c.diff:+.4f}, 95% interval [{c.low:+.4f}, {c.high:+.4f}]",
              highlight=False, markup=False)
    written = write_results(result, out_dir)
    out.print(f"wrote {written[0]} (use: --strategy-dir {out_dir} --strategies {target.stem},...) and "
              f"the record in {written[1].parent}", highlight=False, markup=False)
