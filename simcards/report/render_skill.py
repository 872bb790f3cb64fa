"""Does skill matter? The skill index and the information ceiling (skill, hidden information and
luck), and the answer's card of their bars."""
from __future__ import annotations

import html
import math

from simcards.report.analysis import Results
from simcards.report.page import Section
from simcards.report.render_format import _ci, _f, _pp
from simcards.report.render_read import _gap_text, _share_text, ceiling_rows, skill_rows


def _split_bar(r: dict) -> str:
    """One horizontal bar, skill | hidden information | luck, as shares of the oracle's headroom
    over a fair share (negative shares, from noise or a search worse than random, drawn as 0)."""
    parts = [("skill", r["skill_share"], "#2da44e"), ("hidden information", r["information_share"], "#8250df"),
             ("luck", r["luck_share"], "#bbb")]
    widths = [max(0.0, v) if v == v else 0.0 for _, v, _ in parts]
    total = sum(widths) or 1.0
    spans = "".join(f'<span title="{name} {100 * v:.0f}%" style="display:inline-block;height:100%;'
                    f'width:{100 * w / total:.1f}%;background:{colour}"></span>'
                    for (name, v, colour), w in zip(parts, widths))
    label = ", ".join(f"{name} {100 * v:.0f}%" for name, v, _ in parts)
    return (f'<span class="split" role="img" aria-label="{html.escape(label)}">{spans}</span>')


def _rs_text(r: dict) -> str:
    if r["relative_skill"] != r["relative_skill"]:
        return ("not defined (the oracle won every deal: its log-odds edge has no upper end)"
                if r["oracle_win_rate"] >= 1 else "not defined (the oracle is no better than random)")
    lo, hi = r["relative_skill_low"], r["relative_skill_high"]
    return f"{r['relative_skill']:.2f}" + (f" [{lo:.2f}, {hi:.2f}]" if lo == lo and hi == hi else "")


def _ceiling_card(res: Results) -> str:
    """The answer card's bars: skill | hidden information | luck per player count."""
    rows = ceiling_rows(res)
    if not rows:
        return ""
    bars = "".join(f'<span class="n">{r["players"]} players</span><span>{_split_bar(r)} <span class="note">'
                   f'skill {_share_text(r, "skill_share")}, hidden information '
                   f'{_share_text(r, "information_share")}, luck {_share_text(r, "luck_share")}</span></span>'
                   for r in rows)
    return ('<p class="note">How much is skill, hidden information and luck: a search against random players, '
            'and the same search seeing every hand (the oracle); the bar splits what the oracle wins above a fair '
            'share, 95% intervals in brackets (<span style="color:#2da44e">■</span> skill, '
            '<span style="color:#8250df">■</span> hidden information, <span style="color:#999">■</span> luck). '
            f'<a href="#skill">Details</a></p><div class="grid">{bars}</div>')


def _ceiling(res: Results, s: Section) -> None:
    """The information ceiling beside the skill index (simcards.report.skill.oracle_table)."""
    rows = ceiling_rows(res)
    if not rows:
        return
    r0 = rows[0]
    s.p(f"Skill, hidden information and luck: {r0['search']} (a search at a small budget) and the same search "
        f"with every hand and the stock open ({r0['oracle']}, the oracle) each play one seat against random "
        "players on the same deals. Of what the oracle could win above a fair share, the bar shows the part the "
        "searching player already wins (skill), the part only seeing the hidden cards adds (hidden information) "
        "and the part not even the oracle wins (luck, which here also holds what so small a search misses); "
        "brackets are 95% bootstrap intervals over deals. The relative skill (Dreef, Borm and van der Genugten) "
        "is the searching player's log-odds edge over the oracle's: 1 when seeing the cards adds nothing, 0 when "
        "only seeing them helps.")
    worse = [r for r in rows if r["information_share_high"] == r["information_share_high"]
             and r["information_share_high"] < 0]
    if worse:
        s.p("At " + ", ".join(str(r["players"]) for r in worse) + " players the oracle won less than the same "
            "search without the open hands (the hidden-information share's interval is below 0). The oracle is an "
            "approximate ceiling: its rollouts play the other seats by a heuristic, not as random players play, "
            "and the true cards make it trust that model more. Read the hidden-information share as what this "
            "search can use of the open hands, not as what a perfect player could.")
    markup = ['<div class="grid">']
    md = []
    for r in rows:
        markup.append(f'<span class="n">{r["players"]} players</span><span>{_split_bar(r)} '
                      f'<span class="note">skill {_share_text(r, "skill_share")}, hidden information '
                      f'{_share_text(r, "information_share")}, luck {_share_text(r, "luck_share")}; '
                      f'relative skill {html.escape(_rs_text(r))}</span></span>')
        md.append(f"- {r['players']} players: skill {_share_text(r, 'skill_share')}, hidden information "
                  f"{_share_text(r, 'information_share')}, luck {_share_text(r, 'luck_share')}; relative skill "
                  f"{_rs_text(r)}")
    markup.append("</div>")
    s.raw("".join(markup), "\n".join(md) + "\n")
    s.table(["players", "deals", "fair share", "search wins", "oracle wins", "learning (log-odds)",
             "information (log-odds)", "relative skill"],
            [[r["players"], f"{r['deals']:,}", _f(r["fair_share"]),
              f"{_f(r['search_win_rate'])} ({_ci(r['search_low'], r['search_high'])})",
              f"{_f(r['oracle_win_rate'])} ({_ci(r['oracle_low'], r['oracle_high'])})",
              _gap_interval(r, "learning"), _gap_interval(r, "information"), _rs_text(r)] for r in rows])
    few = min(r["deals"] for r in rows)
    if few < 1000:
        s.p(f"These are {few:,} deals a player count (a search costs milliseconds a decision): read the shares "
            "to about the width of their intervals, not to the point. A share below 0 or a relative skill above 1 "
            "inside an interval is noise around 'seeing the cards adds nothing'.")


def _gap_interval(r: dict, key: str) -> str:
    v, lo, hi = r[key], r[f"{key}_low"], r[f"{key}_high"]
    if v != v or math.isinf(v):
        return "n/a" if v != v else ("+inf" if v > 0 else "-inf")
    band = f" [{lo:+.2f}, {hi:+.2f}]" if lo == lo and hi == hi else ""
    return f"{v:+.2f}{band}"


def _skill(run, res: Results) -> Section | None:
    rows = skill_rows(res)
    if not rows:
        return None
    strong = rows[0]["strongest"]
    s = Section("Does skill matter?", "skill")
    s.p(f"One seat plays {strong}, every other seat plays random; every deal is played with the strong seat in "
        "each position, so the seat does not matter. The edge is in log-odds over a fair share: 0 means it wins "
        "no more than its fair share, +1 nearly triples its odds, +2 multiplies them by 7.")
    s.table(["players", "strongest", "deals", "its win rate", "95% interval", "fair share", "edge (log-odds)"],
            [[r["players"], r["strongest"], f"{r['deals']:,}", _f(r["win_rate"]), _ci(r["low"], r["high"]),
              _f(r["fair"]), _gap_text(r)] for r in rows])
    _ceiling(res, s)
    table = res.skill
    edges = [c for c in table.columns if c.startswith("first_edge ")]
    more = s.more("How the skill index is measured")
    more.p("The strong player's win rate has a 95% interval over deals (the deal is the unit). The edge is "
           "log(p (n - 1) / (1 - p)) for a win rate p at n players: the log-odds of winning over those of a "
           "fair share, which under the Luce choice model is the strong player's log strength against a random "
           "player, so the same edge means the same gap in play at any player count; its interval is the win "
           "rate's, mapped. The first-seat edges are the verdict's under each mirror: how the seat advantage "
           "changes with the level of play.")
    from simcards.report import skill as skill_module
    if getattr(res, "oracle", None) is None:
        more.p(skill_module.ORACLE_NOTE)
    if edges:
        more.table(["players", "strongest", "edge over fair (points)"]
                   + [f"first-seat edge, {c[len('first_edge '):]} mirrors (points)" for c in edges],
                   [[int(r["players"]), r["strongest"], _pp(100 * (r["win_rate"] - r["fair_share"]))]
                    + [_pp(100 * r[c]) if c in r and r[c] == r[c] else "" for c in edges]
                    for _, r in table.iterrows()])
    return s
