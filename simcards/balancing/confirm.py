"""The best candidates confirmed on fresh deals by the balance report's own verdict.

The search's numbers are the best of many noisy trials on the same deals, biased toward
luck (the winner's curse). So each candidate, and the experiment's own rules beside them,
is played again on deals the search never saw (``confirm_seed``), as ``simcards report``
would play the experiment with those rules: mirror line-ups, the sequential verdict
(simcards.report.sequential: power-planned looks until every verdict is decided or
``max_games``/``max_minutes`` is reached), every seat's equivalence test at the experiment's
``alpha`` with Holm across seats, player counts and mirrors (simcards.report.inference). A
rule set is *fair* only when every verdict row reads "balanced within tolerance", and it
*meets the targets* when its game time and skill on those deals also meet the constraints.
"""
from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from simcards.balancing.config import BalanceConfig
from simcards.balancing.measure import skill_games

CONFIRM = "confirm"


@dataclass
class Confirmed:
    values: dict[str, Any]
    label: str                             # "default rules" or "candidate 1" ...
    verdicts: list[dict]                   # per player count and mirror: the report's verdict row
    minutes: dict[int, dict]               # players -> mean, median, p10, p90, low, high
    skill: dict[int, dict] = field(default_factory=dict)
    deals: int = 0                         # deals of the verdict, all player counts and mirrors
    seconds: float = 0.0
    fair: bool = False
    meets: bool = False                    # fair, and the time and skill targets met
    misses: list[str] = field(default_factory=list)

    @property
    def worst(self) -> dict:
        return max(self.verdicts, key=lambda v: abs(v["worst_edge"]))

    @property
    def bound(self) -> float:
        return max(max(abs(v["worst_low"]), abs(v["worst_high"])) for v in self.verdicts)

    def to_dict(self) -> dict:
        return {"values": self.values, "label": self.label, "verdicts": self.verdicts,
                "minutes": {str(n): m for n, m in self.minutes.items()},
                "skill": {str(n): s for n, s in self.skill.items()}, "deals": self.deals,
                "seconds": self.seconds, "fair": self.fair, "meets": self.meets, "misses": self.misses}

    @classmethod
    def from_dict(cls, d: dict) -> "Confirmed":
        return cls(values=d["values"], label=d["label"], verdicts=d["verdicts"],
                   minutes={int(n): m for n, m in d["minutes"].items()},
                   skill={int(n): s for n, s in d["skill"].items()}, deals=d["deals"], seconds=d["seconds"],
                   fair=d["fair"], meets=d["meets"], misses=d["misses"])


def toml_value(value: Any) -> str:
    """A TOML literal of a str, bool, int, float or list of them (JSON's string escapes are TOML's)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    raise TypeError(f"no TOML literal for {type(value).__name__}")


def experiment_text(cfg: BalanceConfig, values: dict[str, Any], *, seed: int | None = None,
                    title: str | None = None, description: str | None = None, header: str = "") -> str:
    """The balance file's experiment with the searched options set to ``values`` and no
    ``[balance]``: a plain balance report of those rules (``simcards report`` plays it)."""
    exp = cfg.exp
    top = {"game": exp.spec.name, "title": title or exp.title,
           "description": exp.description if description is None else description,
           "seed": exp.seed if seed is None else seed, "players": list(exp.players), "games": exp.games,
           "tolerance": exp.tolerance, "alpha": exp.alpha, "power": exp.power, "looks": exp.looks,
           "max_games": exp.max_games}
    if exp.max_minutes is not None:
        top["max_minutes"] = exp.max_minutes
    if exp.spec.step_column not in exp.seconds:
        top["seconds_per_turn"] = exp.seconds_per_turn
    lines = [header] if header else []
    lines += [f"{k} = {toml_value(v)}" for k, v in top.items()]
    if exp.seconds:
        lines += ["", "[seconds]"] + [f"{k} = {toml_value(v)}" for k, v in exp.seconds.items()]
    rules = cfg.rules(values)
    if rules:
        lines += ["", "[rules]"] + [f"{k} = {toml_value(v)}" for k, v in rules.items()]
    lines += ["", "[lineups]", f"mirror = {toml_value(list(exp.mirror))}"]
    return "\n".join(lines) + "\n"


def _key(cfg: BalanceConfig, values: dict) -> str:
    text = experiment_text(cfg, values, seed=cfg.confirm_seed) + json.dumps(
        {"skill_games": cfg.skill_games, "strong": cfg.strong})
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def confirm(cfg: BalanceConfig, values: dict[str, Any], label: str, folder: Path, base: "Confirmed | None",
            threads: int | None = None, log: Callable[[str], None] = lambda _: None,
            progress: Callable[[int, int, str], None] | None = None) -> Confirmed:
    """Play ``values`` on fresh deals with the report's verdict; kept in ``folder/confirm/`` so
    that a resumed search does not play it twice (the same rules and seed give the same games)."""
    from simcards.outputs import write_file
    from simcards.report.analysis import seat_rates, verdicts
    from simcards.report.designer import game_minutes
    from simcards.report.experiment import parse_experiment
    from simcards.report.run import play
    record = Path(folder) / CONFIRM / f"{_key(cfg, values)}.json"
    if record.is_file():
        done = Confirmed.from_dict(json.loads(record.read_text(encoding="utf-8")))
        done.label = label
        return _judge(cfg, done, base)
    t0 = time.perf_counter()
    text = experiment_text(cfg, values, seed=cfg.confirm_seed)
    exp = parse_experiment(cfg.exp.path, text)
    exp.skill = False            # the skill games are the balance's own (below), on the same seed

    def advance(done: int, total: int, where: str) -> None:
        if progress:
            progress(done, total, f"{label}: {where}")

    run = play(exp, threads=threads, log=log, progress=advance)
    seats = seat_rates(run.frame, exp, run.verdict_extra)
    found, _ = verdicts(run.frame, exp, seats, run.verdict_extra, run.sampling)
    rows = [{"players": v.players, "mirror": v.basis, "verdict": v.verdict, "deals": v.deals,
             "worst_seat": v.worst_seat, "worst_edge": v.worst_edge, "worst_low": v.worst_low,
             "worst_high": v.worst_high, "decided_by": v.decided_by, "reason": v.reason,
             "unfinished": v.unfinished} for v in found]
    _, table = game_minutes(run.frame, exp)
    minutes = {int(r.players): {"mean": float(r.mean), "low": float(r.ci_low), "high": float(r.ci_high),
                                "median": float(r.median), "p10": float(r.p10), "p90": float(r.p90)}
               for r in table.itertuples()}
    skill = skill_games(cfg, cfg.rules(values), cfg.confirm_seed, cfg.skill_games, threads)
    done = Confirmed(values=dict(values), label=label, verdicts=rows, minutes=minutes, skill=skill,
                     deals=int(sum(run.verdict_deals.values())), seconds=time.perf_counter() - t0)
    write_file(record, lambda tmp: tmp.write_text(json.dumps(done.to_dict(), indent=1) + "\n", encoding="utf-8"))
    return _judge(cfg, done, base)


def _judge(cfg: BalanceConfig, c: Confirmed, base: "Confirmed | None") -> Confirmed:
    """Fair: every verdict balanced. Meets the targets: fair, and time and skill within them
    (on the confirmation's deals; the time against the default rules' confirmed time)."""
    from simcards.report.inference import BALANCED
    c.misses = []
    c.fair = all(v["verdict"] == BALANCED for v in c.verdicts)
    if not c.fair:
        bad = [v for v in c.verdicts if v["verdict"] != BALANCED]
        c.misses.append("not every seat decided fair: " + "; ".join(
            f"{v['players']} players, {v['mirror']}: {v['verdict']}" for v in bad))
    ref = c if base is None else base
    if cfg.time_change is not None:
        change = max(abs(c.minutes[n]["mean"] / ref.minutes[n]["mean"] - 1) for n in c.minutes
                     if ref.minutes[n]["mean"] > 0) if c.minutes else 0.0
        if change > cfg.time_change:
            c.misses.append(f"game time {100 * change:.0f}% from the default rules' (target ±"
                            f"{100 * cfg.time_change:.0f}%)")
    if cfg.minutes is not None:
        lo, hi = cfg.minutes
        out = [n for n, m in c.minutes.items() if not lo <= m["mean"] <= hi]
        if out:
            c.misses.append(f"mean game time outside {lo:g}-{hi:g} minutes at {', '.join(map(str, out))} players")
    if cfg.skill_floor is not None and c.skill:
        low = min(s["logodds"] for s in c.skill.values())
        if low < cfg.skill_floor:
            c.misses.append(f"skill gap {low:.2f} below the floor {cfg.skill_floor:g}")
    c.meets = not c.misses
    return c
