"""Which cards help: the win rate of a seat dealt a card against one not dealt it, an OLS with
standard errors clustered by deal, Benjamini-Hochberg over the cards."""
from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import norm

from simcards.report import inference
from simcards.report.experiment import MAIN, Experiment
from simcards.report.tidy import Z, lineup_offsets, mirror_lineups
from simcards.statistics.intervals import share_interval


def card_balance(frame: pd.DataFrame, exp: Experiment) -> pd.DataFrame | None:
    """For every card kind: win rate of seats dealt it against seats not dealt it.

    Rows: main cells, the mirror line-ups where the experiment has some (the
    seat's strategy then does not differ between the groups), else all. The
    effect is the coefficient of "dealt" in an OLS of the seat's win share on it
    and one constant per player count (the fair share differs), with standard
    errors clustered by deal (game index: a deal's hands repeat in every
    line-up, and its seats share one winner); the rates dealt and not dealt are
    clustered means. p-values are corrected over the cards by Benjamini-Hochberg.
    """
    names = exp.spec.card_names
    if "dealt_mask" not in exp.spec.seat_columns or not names:
        return None
    offsets = lineup_offsets(exp)
    mirrors = mirror_lineups(exp, offsets)
    main = [c.id for c in exp.cells if c.part == MAIN]
    rows = frame[frame["cell"].isin(main)]
    basis = "all line-ups"
    if rows["lineup"].isin(mirrors).any():
        rows = rows[rows["lineup"].isin(mirrors)]
        basis = "mirror line-ups"
    return card_effects(rows["dealt_mask"].to_numpy(np.int64), rows["win_share"].to_numpy(float),
                        rows["players"].to_numpy(), rows["game"].to_numpy(), names, basis)


def card_effects(masks: np.ndarray, share: np.ndarray, players: np.ndarray, deals: np.ndarray,
                 names, basis: str = "") -> pd.DataFrame:
    """The card table from seat rows: dealt masks, win shares, player counts, deal ids."""
    records = []
    for kind, card in enumerate(names):
        dealt = ((masks >> kind) & 1).astype(bool)
        if dealt.all() or not dealt.any():
            continue  # never or always dealt: nothing to compare
        diff, se, p = inference.card_effect(share, dealt, players, deals)
        r1, s1 = inference.clustered_mean(share[dealt], deals[dealt])
        r0, s0 = inference.clustered_mean(share[~dealt], deals[~dealt])
        n1, n0 = len(np.unique(deals[dealt])), len(np.unique(deals[~dealt]))
        (d_low, d_high), (n_low, n_high) = share_interval(r1, s1, n1), share_interval(r0, s0, n0)
        records.append({"kind": kind, "card": card, "dealt_seats": int(dealt.sum()),
                        "not_dealt_seats": int((~dealt).sum()), "rate_dealt": r1,
                        "dealt_low": float(d_low), "dealt_high": float(d_high), "rate_not": r0,
                        "not_low": float(n_low), "not_high": float(n_high), "diff_pp": 100 * diff,
                        "se_pp": 100 * se, "ci_low_pp": 100 * (diff - Z * se),
                        "ci_high_pp": 100 * (diff + Z * se), "p_value": p, "deals": int(len(np.unique(deals)))})
    out = pd.DataFrame(records)
    if out.empty:
        return out
    out["p_bh"], out["significant"] = inference.correct(out["p_value"], inference.CARD_CORRECTION)
    # beside BH's p-values, the false-coverage-rate intervals (Benjamini-Yekutieli): at this
    # level an interval excludes 0 exactly where BH rejects
    level = inference.adjusted_confidence(out["p_value"], inference.CARD_CORRECTION)
    z = float(norm.ppf(0.5 + level / 2))
    out["bh_level"] = level
    out["bh_low_pp"] = out["diff_pp"] - z * out["se_pp"]
    out["bh_high_pp"] = out["diff_pp"] + z * out["se_pp"]
    out["basis"] = basis
    return out.sort_values("diff_pp", ascending=False, ignore_index=True)
