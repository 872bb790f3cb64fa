"""Win rate and edge per seat, read from the moments of one vector per deal (inference.Moments),
under every basis of a cell: each mirror strategy on its own, else all line-ups; the deals a
sequential verdict adds enter without a frame."""
from __future__ import annotations

import numpy as np
import pandas as pd

from simcards.report import inference
from simcards.report.experiment import Cell, Experiment
from simcards.report.tidy import lineup_offsets
from simcards.statistics.intervals import share_interval


ALL_LINEUPS = "all line-ups"


def seat_bases(frame: pd.DataFrame, exp: Experiment, cell: Cell) -> list[tuple[str, pd.DataFrame]]:
    """(basis, rows) the seats of a cell are read from: each mirror strategy on its own
    (every seat plays it, so seats differ only by seat), else all line-ups."""
    rows = frame[frame["cell"] == cell.id]
    offset = lineup_offsets(exp)[cell.id]
    out = [(cell.lineups[i][0], rows[rows["lineup"] == offset + i])
           for i, m in enumerate(cell.mirror) if m]
    return out or [(ALL_LINEUPS, rows)]


def layouts(exp: Experiment) -> dict[int, inference.Layout]:
    """Every cell's deal vector (inference.Layout): its bases as ``seat_bases`` reads them, each
    mirror strategy on its own, else all line-ups."""
    out = {}
    for cell in exp.cells:
        bases = [(cell.lineups[i][0], (i,)) for i, m in enumerate(cell.mirror) if m]
        if not bases:
            bases = [(ALL_LINEUPS, tuple(range(len(cell.lineups))))]
        out[cell.id] = inference.Layout(cell.players, tuple(b for b, _ in bases), tuple(l for _, l in bases))
    return out


def cell_moments(frame: pd.DataFrame, exp: Experiment, cells: list[int] | None = None
                 ) -> dict[int, inference.Moments]:
    """The moments of every cell's deal vectors (``layouts``) from the frame: per deal, every
    basis's seat win shares (mean over its line-ups) and finished share. One grouping of the frame."""
    lay = layouts(exp)
    offsets = lineup_offsets(exp)
    key_of = np.full(sum(len(c.lineups) for c in exp.cells), -1)
    keys: list[tuple[int, int]] = []                  # (cell, basis index)
    for cell in exp.cells:
        if cells is not None and cell.id not in cells:
            continue
        for b, lineups_b in enumerate(lay[cell.id].lineups):
            for i in lineups_b:
                key_of[offsets[cell.id] + i] = len(keys)
            keys.append((cell.id, b))
    key = key_of[frame["lineup"].to_numpy()]
    held = key >= 0
    unfinished = frame["unfinished"].to_numpy(bool) if "unfinished" in frame else np.zeros(len(frame), bool)
    rows = pd.DataFrame({"key": key[held], "seat": frame["seat"].to_numpy()[held],
                         "game": frame["game"].to_numpy()[held],
                         "win_share": frame["win_share"].to_numpy(float)[held],
                         "finished": (~unfinished[held]).astype(float)})
    shares = rows.groupby(["key", "game", "seat"], sort=True)["win_share"].mean().unstack("seat")
    finished = rows[rows["seat"] == 0].groupby(["key", "game"], sort=True)["finished"].mean()
    # (key, game) rows in the same order in both: split the arrays at each key's first row
    values = shares.to_numpy(float)
    done = finished.reindex(shares.index).to_numpy(float)
    key_rows = shares.index.get_level_values("key").to_numpy()
    bounds = np.flatnonzero(np.diff(key_rows)) + 1
    blocks: dict[int, list[np.ndarray]] = {}
    for start, stop in zip(np.r_[0, bounds], np.r_[bounds, len(key_rows)]):
        if stop <= start:
            continue
        cell, b = keys[int(key_rows[start])]
        n = lay[cell].players
        blocks.setdefault(cell, []).append(np.column_stack([values[start:stop, :n], done[start:stop]]))
    out: dict[int, inference.Moments] = {}
    for cell, parts in blocks.items():
        if len(parts) == len(lay[cell].bases) and len({len(p) for p in parts}) == 1:
            out[cell] = inference.Moments.of(np.hstack(parts))
    return out


def seat_table(moments: dict[int, inference.Moments], exp: Experiment) -> pd.DataFrame:
    """Win rate and edge per seat, cell and basis from the cells' moments (unit: the deal).

    Columns: games (the deals), wins, win_rate with its 95% interval (simcards.stats.
    share_interval) and se, fair_share ((1 - unfinished) / players), unfinished (the share of
    games the cap stopped), edge (win rate - fair share) with edge_se (from the deal's own
    edge, share - finished share / players) and edge_low/edge_high (the share's interval with
    the edge's design effect, less the fair share)."""
    lay = layouts(exp)
    info = {c.id: c for c in exp.cells}
    recs = []
    for cell_id, m in moments.items():
        layout, cell = lay[cell_id], info[cell_id]
        for b, basis in enumerate(layout.bases):
            fin = float(m.mean[layout.finished(b)])
            for s in range(layout.players):
                c = np.zeros(layout.width)
                c[layout.seat(b, s)] = 1.0
                rate, se = m.contrast(c)
                edge, edge_se = m.contrast(layout.edge(b, s))
                recs.append({"cell": cell_id, "part": cell.part, "players": cell.players,
                             "sweep_value": "" if cell.sweep_value is None else str(cell.sweep_value),
                             "seat": s, "basis": basis, "games": m.n, "wins": rate * m.n, "win_rate": rate,
                             "se": se, "fair_share": fin / layout.players, "unfinished": 1.0 - fin,
                             "edge": edge, "edge_se": edge_se})
    cols = ["cell", "part", "players", "sweep_value", "seat", "basis", "games", "wins", "win_rate",
            "ci_low", "ci_high", "se", "fair_share", "unfinished", "edge", "edge_se", "edge_low", "edge_high"]
    out = pd.DataFrame(recs)
    if out.empty:
        return pd.DataFrame(columns=cols)
    args = (out["win_rate"].to_numpy(), out["se"].to_numpy(), out["games"].to_numpy())
    out["ci_low"], out["ci_high"] = share_interval(*args)
    low, high = share_interval(out["win_rate"].to_numpy(), out["edge_se"].to_numpy(), out["games"].to_numpy())
    out["edge_low"], out["edge_high"] = low - out["fair_share"], high - out["fair_share"]
    out["_b"] = [lay[c].bases.index(b) for c, b in zip(out["cell"], out["basis"])]
    return out.sort_values(["cell", "_b", "seat"], ignore_index=True)[cols]


def seat_rates(frame: pd.DataFrame, exp: Experiment,
               extra: dict[int, inference.Moments] | None = None) -> pd.DataFrame:
    """Win rate and edge per seat per cell and basis, 95% intervals over deals (unit: the deal).

    Seat advantage is read from each of the cell's mirror line-ups (every seat
    the same strategy: the basis is that strategy) where it has some, else from
    all its line-ups (basis "all line-ups", balanced by the seat-order design).
    ``extra``: moments of deals beyond the frame's (a sequential verdict's), per cell."""
    moments = cell_moments(frame, exp)
    for cell, m in (extra or {}).items():
        moments[cell] = moments[cell] + m if cell in moments else m
    return seat_table(moments, exp)
