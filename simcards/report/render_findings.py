"""The answer's findings: the three or four that matter most, in sentences (fairness, skill,
time, strategies, then the early leader, cards and the rule sweep where there is room)."""
from __future__ import annotations

from simcards.report.analysis import Results
from simcards.report.render_format import _minutes
from simcards.report.render_read import (_cost_text, _kind, _seat_name, _time_rows, _worst, ceiling_rows,
                                         skill_rows)



def _findings(run, res: Results) -> list[str]:
    """The findings that matter most, in sentences: fairness, skill, time, strategies, then the
    early leader, cards and the rule sweep where there is room; at most four."""
    exp = run.exp
    out = []
    tol = 100 * exp.tolerance
    vs = res.verdicts or []
    if vs:
        kinds = [_kind(v) for v in vs]
        unfair = [v for v, k in zip(vs, kinds) if k == "unfair"]
        undecided = kinds.count("undecided")
        if unfair:
            worst = max(unfair, key=lambda v: abs(_worst(v, res, exp.tolerance)[1]))
            seat, edge, low, high = _worst(worst, res, exp.tolerance)
            text = (f"Not every seat is fair: {len(unfair)} of {len(vs)} line-ups tested have a seat outside the "
                    f"±{tol:.0f}-point tolerance. The largest: at {worst.players} players, with every seat "
                    f"played by {worst.basis}, {_seat_name(seat)} wins {100 * edge:+.1f} points off its fair share "
                    f"[{100 * low:+.1f}, {100 * high:+.1f}].")
        elif undecided == 0:
            text = (f"Every seat is fair within ±{tol:.0f} points at every player count and level of play "
                    "tested.")
        elif undecided == len(vs):
            deals = min(v.deals for v in vs)
            text = (f"Not decided yet: no seat is found unfair, but no line-up is shown fair either; after "
                    f"{deals:,} deals or more, every one still has a seat whose interval reaches past the "
                    f"±{tol:.0f}-point tolerance.")
            undecided = 0
        else:
            text = (f"No seat is found unfair; {len(vs) - undecided} of {len(vs)} line-ups are fair within "
                    f"±{tol:.0f} points.")
        if undecided:
            text += (f" {undecided} of {len(vs)} are still undecided: more deals are needed to tell a "
                     f"{tol:.0f}-point edge apart.")
        out.append(text)
    skill = skill_rows(res)
    if skill:
        lo = min(skill, key=lambda r: r["gap"])
        hi = max(skill, key=lambda r: r["gap"])
        name = skill[0]["strongest"]
        if hi["gap_low"] > 0:
            text = (f"Skill matters: {name} against random players wins {100 * lo['win_rate']:.0f}% of games at "
                    f"{lo['players']} players (fair share {100 * lo['fair']:.0f}%)"
                    + (f" up to {100 * hi['win_rate']:.0f}% at {hi['players']} (fair share {100 * hi['fair']:.0f}%)."
                       if hi is not lo else "."))
        elif hi["gap_high"] < 0:
            text = (f"{name}, the skill index's player, does worse than random players: it wins "
                    f"{100 * hi['win_rate']:.0f}% at {hi['players']} players, where a fair share is "
                    f"{100 * hi['fair']:.0f}%.")
        else:
            text = (f"Skill hardly shows: {name} against random players wins {100 * hi['win_rate']:.0f}% at "
                    f"{hi['players']} players, where a fair share is {100 * hi['fair']:.0f}%.")
        ceiling = ceiling_rows(res)
        if ceiling:
            def span(key: str) -> str:
                vals = [100 * r[key] for r in ceiling]
                a, b = min(vals), max(vals)
                return f"{a:.0f}%" if round(a) == round(b) else f"{a:.0f}% to {b:.0f}%"
            text += (f" Of what a search that sees every hand wins above a fair share, skill is {span('skill_share')}, "
                     f"hidden information {span('information_share')} and luck {span('luck_share')} across player "
                     "counts (intervals under 'Does skill matter?').")
        out.append(text)
    t = _time_rows(res)
    if len(t):
        short, long = t.loc[t["median"].idxmin()], t.loc[t["median"].idxmax()]
        if len(t) == 1:
            text = (f"A game takes about {_minutes(short['median'])} minutes (10–90% of games: "
                    f"{_minutes(short['p10'])}–{_minutes(short['p90'])}) at {int(short['players'])} players.")
        else:
            text = (f"A game takes a median {_minutes(short['median'])} minutes at {int(short['players'])} players "
                    f"to {_minutes(long['median'])} at {int(long['players'])} (10–90% of games at "
                    f"{int(long['players'])}: {_minutes(long['p10'])}–{_minutes(long['p90'])}), at "
                    f"{_cost_text(exp, res)}.")
        out.append(text)
    out += [s for s in (_strategy_finding(res), _leader_finding(res), _card_finding(res), _sweep_finding(res, exp))
            if s]
    return out[:4]


def _strategy_finding(res: Results) -> str | None:
    if res.rating is not None and len(res.rating.table) > 2:
        t = res.rating.table
        top, nxt = t.iloc[0], t.iloc[1]
        return (f"Strongest strategy: {top['strategy']}; it beats the next best, {nxt['strategy']}, in "
                f"{100 * top['p_beats_next']:.0f}% of two-player meetings.")
    if len(res.pairs):
        p = res.pairs
        for (a, b), g in p.groupby(["a", "b"], sort=False):
            if g["significant"].all() and ((g["diff_pp"] > 0).all() or (g["diff_pp"] < 0).all()):
                win, lose = (a, b) if g["diff_pp"].iloc[0] > 0 else (b, a)
                lo, hi = g["diff_pp"].abs().min(), g["diff_pp"].abs().max()
                span = f"{lo:.0f} to {hi:.0f} points" if len(g) > 1 else f"{lo:.0f} points"
                where = "at every player count" if len(g) > 1 else f"at {g['players'].iloc[0]} players"
                return f"Of the strategies compared, {win} wins more than {lose} by {span} {where}."
    return None


def _leader_finding(res: Results) -> str | None:
    d = getattr(res.designer, "leader", None)
    if d is None or d.empty or "baseline" not in d:
        return None
    last = d[d["after"] == d["after"].iloc[-1]]
    r = last.loc[(last["mean"] - last["baseline"]).idxmax()]
    return (f"The early leader usually holds on: the leader after {r['after']} wins {100 * r['mean']:.0f}% of "
            f"{int(r['players'])}-player games, where a seat picked at random wins {100 * r['baseline']:.0f}%.")


def _card_finding(res: Results) -> str | None:
    c = res.cards
    if c is None or c.empty or not c["significant"].any():
        return None
    r = c.loc[c["diff_pp"].abs().idxmax()]
    return (f"Card with the largest effect: a seat dealt {r['card']} wins {r['diff_pp']:+.1f} points "
            f"[{r['ci_low_pp']:+.1f}, {r['ci_high_pp']:+.1f}] against one not dealt it.")


def _sweep_finding(res: Results, exp) -> str | None:
    s = res.sweep
    if s is None or s.empty or not s["significant"].any():
        return None
    r = s[s["significant"]].assign(_a=lambda d: d["effect"].abs()).sort_values("_a").iloc[-1]
    value = r["value"] if exp.grid_option is None else (r["value"], r["value2"])
    unit = "points" if r["unit"] == "points" else r["unit"]
    return (f"Of the rule changes, {exp.sweep_label(value)} moves {r['measure']} most: {r['effect']:+.1f} {unit} "
            f"at {int(r['players'])} players.")
