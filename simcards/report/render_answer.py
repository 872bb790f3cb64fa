"""The answer, the page's first section: the findings, a badge per player count and level of
play saying whether every seat is fair, how long a game takes and how much skill matters."""
from __future__ import annotations

import html
import math

from simcards.report.analysis import Results
from simcards.report.page import Section
from simcards.report.render_findings import _findings
from simcards.report.render_format import _minutes
from simcards.report.render_read import (_cost_text, _gap_text, _kind, _reason, _seat_name, _share_text,
                                         _time_rows, _worst, ceiling_rows, skill_rows)
from simcards.report.render_skill import _ceiling_card


_COLOURS = {"fair": "✓", "unfair": "✗", "undecided": "?"}


def _badge(v, res: Results, tolerance: float) -> tuple[str, str]:
    """(kind, words) of one verdict's badge."""
    kind = _kind(v)
    if kind == "fair":
        return kind, f"fair within ±{100 * tolerance:.0f} points"
    if kind == "unfair":
        seat, edge, low, high = _worst(v, res, tolerance)
        word = "favoured" if edge > 0 else "held back"
        lo, hi = sorted((abs(100 * low), abs(100 * high)))
        interval = f" [{lo:.1f}, {hi:.1f}]" if not math.isnan(lo) else ""
        return kind, f"{_seat_name(seat)} {word} by {abs(100 * edge):.1f} points{interval}"
    seat, edge, low, high = _worst(v, res, tolerance)
    more = int(getattr(v, "more_games", 0) or 0)
    capped = getattr(v, "capped", "")
    if seat is None or math.isnan(low):
        return kind, f"undecided: {_reason(v, tolerance)}"
    tol = 100 * tolerance
    beyond = low > tolerance or high < -tolerance
    why = ("cap reached" if capped else
           "no number of deals would decide it" if more >= 10 ** 14 else
           f"about {more:,} more deals needed" if more > 0 else "more deals needed")
    return kind, (f"undecided: {_seat_name(seat)} {100 * edge:+.1f} points [{100 * low:+.1f}, {100 * high:+.1f}]"
                  + (f", beyond ±{tol:.0f} but not once corrected for the many seats tested" if beyond else "")
                  + f"; {why}")


def _answer(run, res: Results, config: dict) -> Section:
    exp = run.exp
    esc = html.escape
    s = Section("The answer", "answer")
    counts = ", ".join(map(str, exp.players))
    verdict = (config.get("sequential") or {}).get("verdict_games") or 0
    extra = [f"{verdict:,} more for the seat verdicts"] if verdict else []
    extra += [f"{config['skill_games']:,} for the skill gauge"] if config.get("skill_games") else []
    s.p(f"{exp.spec.title} at {counts} players: {config['total_games']:,} games simulated"
        + (", " + " and ".join(extra) if extra else "") + ".")
    findings = _findings(run, res)
    parts, md = [], []
    if findings:
        parts.append('<ul class="findings">' + "".join(f"<li>{esc(f)}</li>" for f in findings) + "</ul>")
        md += [f"- {f}" for f in findings] + [""]
    if res.verdicts:
        markup, text = _fairness_card(res, exp)
        parts.append(markup)
        md += text
    cards = []
    for card in (_time_card, _skill_card):
        markup, text = card(res, exp)
        if markup:
            cards.append(markup)
            md += text
    if cards:
        parts.append('<div class="cards">' + "".join(cards) + "</div>")
    markup = "".join(parts)
    s.raw(markup, "\n".join(md))
    return s


def _fairness_card(res: Results, exp) -> tuple[str, list[str]]:
    """Fair to every seat? A badge per player count and level of play: (markup, markdown lines)."""
    esc = html.escape
    vs = res.verdicts
    rows, md_rows = [], []
    for n in sorted({v.players for v in vs}):
        badges, md_badges = [], []
        for v in (v for v in vs if v.players == n):
            kind, words = _badge(v, res, exp.tolerance)
            badges.append(f'<span class="badge {kind}"><b>{_COLOURS[kind]} {esc(v.basis)}:</b> '
                          f'{esc(words)}</span>')
            md_badges.append(f"{v.basis}: {words}")
        rows.append(f'<span class="n">{n} players</span><span class="badges">{"".join(badges)}</span>')
        md_rows.append(f"- **{n} players**: " + "; ".join(md_badges))
    markup = ('<div class="card"><h3>Fair to every seat?</h3>'
              f'<p class="note">A badge per player count and level of play (every seat played by the '
              f'strategy named, or all the line-ups of a tournament); a seat is fair within '
              f'±{100 * exp.tolerance:.0f} points of its fair share. '
              '<a href="#fairness">Details</a></p><div class="grid">' + "".join(rows) + "</div></div>")
    md = ["**Fair to every seat?** (tolerance ±%.0f points; every seat played by the strategy named)" %
          (100 * exp.tolerance), ""] + md_rows + [""]
    return markup, md


def _time_card(res: Results, exp) -> tuple[str, list[str]]:
    """How long is a game? The median minutes and the 10-90% range per player count ("" without)."""
    esc = html.escape
    t = _time_rows(res)
    if not len(t):
        return "", []
    rows = "".join(f"<tr><td>{int(r.players)} players</td><td class=\"big\">{_minutes(r.median)} min</td>"
                   f"<td>{_minutes(r.p10)}–{_minutes(r.p90)}</td></tr>" for r in t.itertuples())
    markup = ('<div class="card"><h3>How long is a game?</h3>'
              f'<p class="note">Minutes at {esc(_cost_text(exp, res))}. <a href="#game-length">Details</a>'
              '</p><table class="plain"><thead><tr><th></th><th>median</th><th>10–90% of games</th></tr>'
              f"</thead><tbody>{rows}</tbody></table></div>")
    md = [f"**How long is a game?** (median minutes, 10–90% of games; at {_cost_text(exp, res)})", ""]
    md += [f"- {int(r.players)} players: {_minutes(r.median)} min ({_minutes(r.p10)}–{_minutes(r.p90)})"
           for r in t.itertuples()] + [""]
    return markup, md


def _skill_card(res: Results, exp) -> tuple[str, list[str]]:
    """Does skill matter? A gauge of the log-odds edge per player count, and the information
    ceiling's bars ("" without a skill index)."""
    esc = html.escape
    skill = skill_rows(res)
    if not skill:
        return "", []
    finite = [abs(r["gap"]) for r in skill if not math.isinf(r["gap"])] + \
             [abs(r["gap_low"]) for r in skill if not math.isinf(r["gap_low"])]
    top = max(3.0, math.ceil(max(finite, default=3.0)))
    gauges = []
    for r in skill:
        value = r["gap_low"] if math.isinf(r["gap"]) else r["gap"]
        width = max(0.0, min(1.0, abs(value) / top)) * 50
        side = f"left:50%;width:{width:.0f}%" if value >= 0 else f"left:{50 - width:.0f}%;width:{width:.0f}%"
        gauges.append(f'<span class="n">{r["players"]} players</span><span>'
                      f'<span class="gauge" role="img" aria-label="log-odds edge {value:+.1f}, scale '
                      f'-{top:g} to +{top:g}"><span class="{"up" if value >= 0 else "down"}" '
                      f'style="{side}"></span></span> '
                      f'<span class="note">wins {100 * r["win_rate"]:.0f}% (fair {100 * r["fair"]:.0f}%); '
                      f'edge {esc(_gap_text(r))}</span></span>')
    markup = ('<div class="card"><h3>Does skill matter?</h3>'
              f'<p class="note">{esc(skill[0]["strongest"])} against random players. The bar: its edge in '
              f'log-odds over a fair share; the middle is luck only, right wins more, left less (ends at '
              f'±{top:g}). <a href="#skill">Details</a></p><div class="grid">' + "".join(gauges)
              + "</div>" + _ceiling_card(res) + "</div>")
    md = [f"**Does skill matter?** ({skill[0]['strongest']} against random players; edge in log-odds over a "
          "fair share, 0 = luck only)", ""]
    md += [f"- {r['players']} players: wins {100 * r['win_rate']:.0f}% (fair {100 * r['fair']:.0f}%), edge "
           f"{_gap_text(r)}" for r in skill] + [""]
    md += [f"Skill | hidden information | luck (search against its open-hand oracle): {r['players']} players: "
           f"skill {_share_text(r, 'skill_share')}, hidden information {_share_text(r, 'information_share')}, "
           f"luck {_share_text(r, 'luck_share')}" for r in ceiling_rows(res)] + ([""] if ceiling_rows(res) else [])
    return markup, md
