"""``simcards balance``: search, confirm, recommend, write; resumable from its folder.

The output folder is also the run folder (as Hydra keeps a run's resolved configuration beside
its results): ``config.json`` (the balance as resolved), ``study.db`` (optuna's storage: every
trial), ``confirm/`` (each confirmed rule set's verdicts), then the page (``index.html``,
``report.md``, ``tradeoff.png``, ``summary.json``, ``trials.csv``) and ``recommended.toml``.
``--resume`` finishes a search whose folder holds the same configuration; ``--force`` starts it
again.
"""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Callable

from simcards.balancing.config import BalanceConfig, load_balance
from simcards.balancing.confirm import Confirmed, confirm, experiment_text
from simcards.balancing.result import BalanceResult
from simcards.balancing.search import STUDY, ranked, run_search
from simcards.errors import SimcardsError

CONFIG = "config.json"
#: wall times of every process that worked on the search (a resumed one adds its own)
TIMINGS = "timings.json"
RECOMMENDED = "recommended.toml"
Log = Callable[[str], None]
Progress = Callable[[int, int, str], None]


def _quiet(_: str) -> None:
    pass


def _check_folder(folder: Path, cfg: BalanceConfig, force: bool, resume: bool) -> None:
    """A new or empty folder; with ``resume`` one holding this configuration's search; with
    ``force`` a search of simcards' started again (its study and confirmations removed)."""
    from simcards.outputs import check_output_folder, take_lock
    if resume and force:
        raise SimcardsError("--resume finishes the search in the folder and --force starts it again: use one of them")
    folder = Path(folder)
    if resume:
        if not (folder / STUDY).is_file() or not (folder / CONFIG).is_file():
            raise SimcardsError(f"bad --resume: {str(folder)!r} holds no balance search ({STUDY} and {CONFIG}); "
                                "expected the folder of an interrupted `simcards balance`")
        take_lock(folder, "--out-dir", folder=True)
        saved = json.loads((folder / CONFIG).read_text(encoding="utf-8"))
        if saved.get("balance") != _comparable(cfg):
            raise SimcardsError(f"bad --resume: {str(folder / CONFIG)!r} is another balance's configuration "
                                "(the file or its options changed); expected the same, or --force to start again")
        return
    check_output_folder(folder, force)
    if force:
        import shutil
        for name in (STUDY, CONFIG, TIMINGS):
            (folder / name).unlink(missing_ok=True)
        shutil.rmtree(folder / "confirm", ignore_errors=True)


def _comparable(cfg: BalanceConfig) -> dict:
    """The configuration as stored in config.json, without the file's path (a copy may move)."""
    d = json.loads(json.dumps(cfg.to_dict(), default=str))
    d["experiment"].pop("file", None)
    return d


def balance(target: str | Path | BalanceConfig, out_dir: str | Path | None = None, *,
            threads: int | None = None, force: bool = False, resume: bool = False, log: Log = _quiet,
            progress: Progress | None = None, single_file: bool = False) -> BalanceResult:
    """Search the ``[balance]`` options of an experiment file for the fairest rules, confirm the
    best on fresh deals, and write the balance report in ``out_dir`` (default
    ``reports/<name>``). ``target``: the file's path, or a checked ``BalanceConfig``."""
    from simcards.outputs import holding_locks, write_text
    cfg = target if isinstance(target, BalanceConfig) else load_balance(target)
    if out_dir is None:
        from simcards.report.run import default_out_dir
        out_dir = default_out_dir(cfg.exp)
    folder = Path(out_dir)
    with holding_locks():
        _check_folder(folder, cfg, force, resume)
        write_text(folder / CONFIG, json.dumps({"balance": _comparable(cfg), "source": cfg.exp.source},
                                               indent=1, default=str) + "\n")
        t0 = time.perf_counter()
        log(f"{cfg.exp.title}: {cfg.trials} trials of {', '.join(a.name for a in cfg.axes)}, "
            f"{cfg.games:,} deals a mirror and player count, on {', '.join(cfg.mirrors)} mirrors")
        try:
            trials = run_search(cfg, folder, threads, progress)
            t_search = time.perf_counter() - t0
            chosen = ranked(trials)[: cfg.confirm]
            log(f"search done in {t_search:.0f} s; confirming the default rules and {len(chosen)} candidate(s) "
                f"on fresh deals (seed {cfg.confirm_seed})")
            default = confirm(cfg, cfg.default_values(), "default rules", folder, None, threads, log, progress)
            candidates = []
            for i, t in enumerate(chosen, start=1):
                if t.values == cfg.default_values():
                    c = Confirmed.from_dict(default.to_dict())
                    c.label = f"candidate {i} (the default rules)"
                else:
                    c = confirm(cfg, t.values, f"candidate {i}", folder, default, threads, log, progress)
                candidates.append(c)
                log(f"candidate {i} ({_values_text(t.values)}): "
                    + ("meets every target" if c.meets else "; ".join(c.misses)))
        except KeyboardInterrupt:
            from simcards.run.run_folder import Interrupted
            raise Interrupted(f"the finished trials are saved in {str(folder / STUDY)}; add --resume to "
                              "finish the search") from None
        t_total = time.perf_counter() - t0
        recommended = next((c for c in candidates if c.meets), None)
        # closest: the fairest of those within the time and skill targets (a designer's limits);
        # only when none is, the fairest of all
        closest = recommended or min(candidates, key=lambda c: (len(c.misses) - (not c.fair), c.bound))
        result = BalanceResult(cfg, trials, default, candidates, recommended, closest,
                               _timings(folder, t_search, t_total - t_search), folder)
        from simcards.balancing.page import write_page
        write_page(result, folder, single_file=single_file)
        write_text(folder / RECOMMENDED, recommended_text(result))
    return result


def _timings(folder: Path, search: float, confirm: float) -> dict:
    """This process's wall times added to those of earlier ones (an interrupted search resumed):
    the page shows what the whole search took."""
    from simcards.outputs import write_text
    path = Path(folder) / TIMINGS
    runs = json.loads(path.read_text(encoding="utf-8"))["runs"] if path.is_file() else []
    runs.append({"search": search, "confirm": confirm})
    write_text(path, json.dumps({"runs": runs}, indent=1) + "\n")
    total = {k: sum(r[k] for r in runs) for k in ("search", "confirm")}
    return {**total, "total": total["search"] + total["confirm"], "processes": len(runs)}


def _values_text(values: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in values.items())


def recommended_text(result: BalanceResult) -> str:
    """The recommended rules (or the closest) as an experiment that ``simcards report`` plays."""
    cfg, best = result.config, result.closest
    status = ("meets every target" if result.found else
              "NOTHING within the ranges met every target: these are the closest rules (" +
              "; ".join(best.misses) + ")")
    header = (f"# {cfg.exp.title}: the rules simcards balance recommends ({status}).\n"
              f"# Found by: simcards balance {cfg.exp.path}\n"
              f"# Regenerate its report: simcards report <this file>")
    return experiment_text(cfg, best.values, title=f"{cfg.exp.title}: recommended rules",
                           description=f"The rules found by simcards balance from {cfg.exp.path.name}: "
                                       f"{_values_text(best.values)}.", header=header)
