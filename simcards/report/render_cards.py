"""Which cards help? A seat dealt a card against one not dealt it, by card and by rank."""
from __future__ import annotations

from simcards.report.analysis import Results
from simcards.report.page import Section
from simcards.report.render_format import _adjusted, _ci, _f, _p, _pp


def _cards(res: Results, figs: dict) -> Section | None:
    c = res.cards
    if c is None:
        return None
    s = Section("Which cards help?", "cards")
    s.fig(figs.get("card_balance"), "Win rate of a seat dealt the card minus one not dealt it, points, 95% "
          "intervals; orange: a real effect after correcting for the many cards.")
    ranks = getattr(res.designer, "ranks", None)
    if ranks is not None and len(ranks):
        s.p("By rank (dealt at least one card of the rank, any suit):")
        s.table(["rank", "difference (points)", "95% interval", "real effect"],
                [[r.card, _pp(r.diff_pp), f"{_pp(r.ci_low_pp)} to {_pp(r.ci_high_pp)}",
                  "yes" if r.significant else "no"] for r in ranks.itertuples()])
    more = s.more("Method and every card")
    more.p(f"For each card kind, the win rate of seats dealt at least one in their first hand against "
           f"seats dealt none ({c['basis'].iloc[0] if len(c) else ''}, main rules). The difference is the "
           "coefficient of an OLS of the seat's win share on 'dealt' with one constant per player count; "
           "every standard error is clustered by deal (a deal's hands repeat in every line-up and its seats "
           "share one winner). p-values are corrected over all the cards at once by Benjamini-Hochberg "
           "(false discovery rate 5%); the 95% intervals are not corrected, so an interval may exclude 0 "
           "where the corrected test finds no effect" + ("; the interval at the corrected level, beside it, "
                                                         "agrees with the test" if "bh_level" in c else "")
           + ". Card kinds that are never or always dealt are left out.")
    head, adj = _adjusted(c, "bh_low_pp", "bh_high_pp", "bh_level")
    more.table(["card", "seats dealt", "win rate dealt", "95% interval", "seats not dealt", "win rate not",
                "95% interval", "difference (points)", "95% interval"] + head + ["p (BH)", "significant"],
               [[r.card, f"{r.dealt_seats:,}", _f(r.rate_dealt), _ci(r.dealt_low, r.dealt_high),
                 f"{r.not_dealt_seats:,}", _f(r.rate_not), _ci(r.not_low, r.not_high), _pp(r.diff_pp),
                 f"{_pp(r.ci_low_pp)} to {_pp(r.ci_high_pp)}"] + adj[i:i + 1]
                + [_p(r.p_bh), "yes" if r.significant else "no"]
                for i, r in enumerate(c.itertuples())])
    return s
