"""The search over rule options: an optuna study with two objectives and two constraints.

- **Objectives** (both minimized): ``bound``, the largest end of any seat's edge interval under
  any mirror at any player count (simcards.balancing.measure: the tolerance an equivalence test
  would need), and the game time's largest relative change against the experiment's own rules.
  Two objectives rather than one weighted sum: a designer chooses on the trade-off (the Pareto
  front, ``study.best_trials``), and the page draws it.
- **Constraints** (optuna's ``constraints_func``: a value <= 0 is met): game time within
  ``time_change`` of the rules' own and within ``minutes``; skill at or above ``skill_floor``.
  TPE then samples near rule sets that meet them.
- **Sampler.** TPE (multivariate, seeded): integer and named options together, no gradient, few
  trials. The first trial is the experiment's own rules (enqueued), the baseline of every figure.
- **Pruning.** optuna's pruners judge one objective's intermediate values and are not offered
  for studies of several objectives, so the rule is ours: after the first quarter of the deals, a
  trial whose worst seat is, three standard errors down, still beyond the best bound found so
  far (a trial that met the constraints) is stopped (measure.lower_worst). It cannot be the
  best: its worst seat alone is further from fair than the best trial's whole interval.
- **Same seed, same search; resumable.** The study lives in an SQLite file in the output folder
  (optuna's RDB storage). Every trial is asked with a sampler seeded by the seed and the trial's
  number, so the trials do not depend on how many were asked in this process: a search stopped
  and resumed asks the same rule sets as one that ran through. A trial that was running when the
  process stopped is measured again (its rule set is in the storage) and told.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from simcards.balancing.config import BalanceConfig
from simcards.balancing.measure import Measure, lower_worst, measure

STUDY = "study.db"
STUDY_NAME = "balance"
#: seeds of the per-trial samplers: seed * SPREAD + trial number
SPREAD = 100_003


@dataclass
class Trial:
    number: int
    measure: Measure
    time_change: float
    feasible: bool
    seconds: float

    @property
    def values(self) -> dict[str, Any]:
        return self.measure.values


def constraints(cfg: BalanceConfig, m: Measure, base: Measure | None) -> list[float]:
    """optuna's constraint values (<= 0: met): time change, minutes range, skill floor."""
    out = []
    if cfg.time_change is not None and base is not None:
        out.append(m.time_change(base.minutes) - cfg.time_change)
    if cfg.minutes is not None:
        lo, hi = cfg.minutes
        out.append(max(max(lo - t["mean"], t["mean"] - hi) for t in m.minutes.values()))
    if cfg.skill_floor is not None and m.skill:
        out.append(cfg.skill_floor - m.skill_min)
    return out or [0.0]


def _sampler(cfg: BalanceConfig, number: int):
    import optuna
    kwargs = {}
    if not _SET_CONSTRAINT():
        # optuna before 5.0: the sampler reads the constraints through a function of the trial
        kwargs["constraints_func"] = lambda trial: trial.user_attrs.get("constraints", [0.0])
    return optuna.samplers.TPESampler(seed=cfg.exp.seed * SPREAD + number, multivariate=True,
                                      n_startup_trials=min(10, max(2, cfg.trials // 4)), **kwargs)


def _SET_CONSTRAINT() -> bool:
    """optuna 5's ``Trial.set_constraint`` (its ``constraints_func`` is deprecated there)."""
    import optuna
    return hasattr(optuna.trial.Trial, "set_constraint")


def _suggest(cfg: BalanceConfig, trial) -> dict[str, Any]:
    return {a.name: (trial.suggest_int(a.name, a.low, a.high) if a.integer
                     else trial.suggest_categorical(a.name, list(a.values))) for a in cfg.axes}


def storage_url(folder: Path) -> str:
    return f"sqlite:///{(Path(folder) / STUDY).resolve()}"


def open_study(cfg: BalanceConfig, folder: Path, number: int = 0):
    import optuna
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    return optuna.create_study(study_name=STUDY_NAME, storage=storage_url(folder), load_if_exists=True,
                               directions=["minimize", "minimize"], sampler=_sampler(cfg, number))


def run_search(cfg: BalanceConfig, folder: Path, threads: int | None = None,
               progress: Callable[[int, int, str], None] | None = None) -> list[Trial]:
    """Every trial of the study in ``folder``, asking new ones until ``cfg.trials`` are done."""
    import optuna
    from optuna.trial import TrialState
    study = open_study(cfg, folder)
    if not study.trials:
        study.enqueue_trial(cfg.default_values())
    done: list[Trial] = []
    base: Measure | None = None

    def record(t) -> Trial:
        m = Measure.from_dict(json.loads(t.user_attrs["measure"]))
        return Trial(t.number, m, float(t.user_attrs["time_change"]), bool(t.user_attrs["feasible"]),
                     float(t.user_attrs["seconds"]))

    for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE, TrialState.PRUNED)):
        done.append(record(t))
    if done:
        base = done[0].measure

    def best_bound() -> float:
        ok = [d.measure.bound for d in done if d.feasible and not d.measure.pruned]
        return min(ok) if ok else float("inf")

    def evaluate(number: int, values: dict) -> tuple[Measure, float]:
        # TPE asks an integer point again once it has settled near it: the same rules on the
        # same deals give the same numbers, so a rule set measured in full is not played twice
        key = json.dumps(values, sort_keys=True)
        again = next((d.measure for d in done if not d.measure.pruned
                      and json.dumps(d.values, sort_keys=True) == key), None)
        if again is not None:
            return again, 0.0
        t0 = time.perf_counter()
        limit = best_bound()
        m = measure(cfg, values, threads, hopeless=lambda part: lower_worst(part) > limit)
        return m, time.perf_counter() - t0

    def tell(study, trial, m: Measure, seconds: float) -> None:
        nonlocal base
        if base is None:
            base = m
        change = m.time_change(base.minutes) if not m.pruned else float("nan")
        if m.invalid:
            trial.set_user_attr("invalid", m.invalid)
        cons = constraints(cfg, m, base) if not m.pruned else [1.0]
        feasible = (not m.pruned) and all(c <= 0 for c in cons)
        attrs = {"measure": json.dumps(m.to_dict()), "time_change": change, "feasible": feasible,
                 "seconds": seconds, "constraints": cons}
        for k, v in attrs.items():        # before tell: a finished trial's attributes are frozen
            trial.set_user_attr(k, v)
        if _SET_CONSTRAINT():
            for i, c in enumerate(cons):
                trial.set_constraint(f"c{i}", c)
        if m.pruned:
            study.tell(trial, state=TrialState.PRUNED)
        else:
            study.tell(trial, [100 * m.bound, 100 * change])
        done.append(Trial(trial.number, m, change, feasible, seconds))
        done.sort(key=lambda d: d.number)

    # a trial left running by an interrupted process: its rule set is stored, measure it again
    for t in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
        values = {a.name: t.params[a.name] for a in cfg.axes}
        m, seconds = evaluate(t.number, values)
        tell(study, optuna.trial.Trial(study, t._trial_id), m, seconds)
    while len(done) < cfg.trials:
        number = len(study.trials)
        study = open_study(cfg, folder, number)      # a sampler seeded by the trial's number
        trial = study.ask()
        values = _suggest(cfg, trial)
        if progress:
            progress(len(done), cfg.trials, f"trial {len(done) + 1}/{cfg.trials}: "
                     + ", ".join(f"{k}={v}" for k, v in values.items()))
        m, seconds = evaluate(trial.number, values)
        tell(study, trial, m, seconds)
    if progress:
        progress(len(done), cfg.trials, "search done")
    return done


def ranked(trials: list[Trial]) -> list[Trial]:
    """Completed trials, the ones meeting the constraints first, then by bound and time change;
    one trial per distinct rule set (TPE may ask one twice)."""
    seen, out = set(), []
    for t in sorted((t for t in trials if not t.measure.pruned),
                    key=lambda t: (not t.feasible, t.measure.bound, t.time_change, t.number)):
        key = json.dumps(t.values, sort_keys=True)
        if key not in seen:
            seen.add(key)
            out.append(t)
    return out


def pareto(trials: list[Trial]) -> list[Trial]:
    """The completed trials no other beats on both objectives (bound, time change)."""
    live = [t for t in trials if not t.measure.pruned]
    return [t for t in live if not any(
        (o.measure.bound <= t.measure.bound and o.time_change <= t.time_change)
        and (o.measure.bound < t.measure.bound or o.time_change < t.time_change) for o in live)]
