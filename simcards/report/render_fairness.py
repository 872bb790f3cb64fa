"""The sections on seats: is the game fair to every seat (the verdicts, the deciding seats, the
levels of play compared), and every seat's win rate."""
from __future__ import annotations

import pandas as pd

from simcards.report.analysis import Results
from simcards.report.experiment import MAIN
from simcards.report.page import Section
from simcards.report.render_format import _ci, _f, _p, _pp
from simcards.report.render_read import _kind, _reason, _worst


def _verdict(run, res: Results, figs: dict) -> Section | None:
    from simcards.report.inference import verdict_text
    if not res.verdicts:
        return None
    exp = run.exp
    s = Section("Is it fair to every seat?", "fairness")
    from simcards.report.analysis import ALL_LINEUPS
    mirrors = [v.basis for v in res.verdicts if v.basis != ALL_LINEUPS]
    s.p(f"A seat is fair when its win rate is within ±{100 * exp.tolerance:.1f} points of its fair share (the "
        "experiment's `tolerance`). "
        + ("Each mirror line-up seats one strategy everywhere, so its seats differ only by their place at the "
           "table" + (f" ({exp.mirror_note})" if exp.mirror_note else "") + ". " if mirrors else "")
        + ("'All line-ups': the tournament's line-ups together, every strategy in every seat equally often."
           if len(mirrors) < len(res.verdicts) else ""))
    s.fig(figs.get("seat_edges"), "Every seat's edge over its fair share against the player count, 95% "
          "intervals; grey band: the tolerance.")
    rows = []
    for v in res.verdicts:
        seat, edge, low, high = _worst(v, res, exp.tolerance)
        kind = _kind(v)
        note = _reason(v, exp.tolerance) if kind == "undecided" else ""
        rows.append([v.players, v.basis, f"{v.deals:,}", kind, "" if seat is None else seat, _pp(100 * edge),
                     f"{_pp(100 * low)} to {_pp(100 * high)}", note])
    headers = ["players", "played by", "deals", "verdict", "deciding seat", "its edge (points)",
               "95% interval", "why undecided"]
    if not any(r[-1] for r in rows):
        headers, rows = headers[:-1], [r[:-1] for r in rows]
    s.table(headers, rows)
    dis = getattr(res, "disagreements", None)
    by_count: dict[int, set] = {}
    for v in res.verdicts:
        by_count.setdefault(v.players, set()).add(_kind(v))
    split = [n for n, kinds in by_count.items() if {"fair", "unfair"} <= kinds]
    if isinstance(dis, pd.DataFrame) and "disagree" in dis:
        differ = dis[dis["disagree"].astype(bool)]
        if len(differ):
            s.p("The levels of play differ, tested on the same deals: "
                + "; ".join(f"at {r.players} players, seat {r.seat}'s edge under {r.a} less under {r.b} is "
                            f"{100 * r.diff:+.1f} points [{100 * r.ci_low:+.1f}, {100 * r.ci_high:+.1f}]"
                            for r in differ.itertuples())
                + ". The seat advantage depends on how well the game is played.")
        if len(dis) and differ.empty:
            s.p("The levels of play agree: no seat's edge differs between them on the same deals.")
    elif split:
        s.p("The levels of play disagree at " + ", ".join(f"{n} players" for n in split) + ": one finds a seat "
            "unfair, another finds every seat fair, so the seat advantage depends on how well the game is played.")
    more = s.more("How the verdict is decided, and every seat")
    more.p("Fair within tolerance: every seat's 95% interval lies inside the tolerance; unfair: some seat's "
           "interval lies wholly outside it; otherwise undecided, with the reason. The p-value tests that every "
           "seat wins equally often (Hotelling's T² on the per-deal seat win shares, the deal as the unit). "
           "The first player's edge is listed beside the deciding seat's.")
    more.table(["players", "played by", "deals", "p (all seats equal)", "first-player edge (points)",
                "95% interval", "largest seat edge (points)", "verdict"],
               [[v.players, v.basis, f"{v.deals:,}", _p(v.p_equal), _pp(100 * v.first_edge),
                 f"{_pp(100 * v.first_low)} to {_pp(100 * v.first_high)}", _pp(100 * v.max_edge),
                 verdict_text(v, exp.tolerance)] for v in res.verdicts])
    _seat_table(res, figs, more)
    return s


def _seat_table(res: Results, figs: dict, s: Section) -> None:
    df = res.seats[res.seats["part"] == MAIN]
    s.fig(figs.get("seat_advantage"), "Every seat's edge over its fair share per player count, 95% intervals, "
          "one colour per strategy played in every seat; grey band: the tolerance.")
    s.p("Win rate by seat (seat 0 plays first), side by side for every strategy that played all seats "
        "('all line-ups': the tournament's seat-balanced line-ups); t intervals over deals.")
    bases = list(dict.fromkeys(df["basis"]))
    rows = []
    for (n, seat), g in df.groupby(["players", "seat"], sort=True):
        cells = []
        for b in bases:
            r = g[g["basis"] == b]
            cells += ([f"{_f(r['win_rate'].iloc[0])} ({_ci(r['ci_low'].iloc[0], r['ci_high'].iloc[0])})",
                       _pp(100 * (r["win_rate"].iloc[0] - r["fair_share"].iloc[0]))] if len(r) else ["", ""])
        rows.append([n, seat, f"{g['games'].iloc[0]:,}", _f(g["fair_share"].iloc[0])] + cells)
    s.table(["players", "seat", "deals", "fair share"]
            + [h for b in bases for h in (f"win rate, {b} (95% interval)", f"edge, {b} (points)")], rows)


def _seats(res: Results, figs: dict) -> Section | None:
    """Seat win rates where there is no verdict (a tournament without mirrors)."""
    if res.verdicts:
        return None
    s = Section("Seats", "seats")
    _seat_table(res, figs, s)
    return s
