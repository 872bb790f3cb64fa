"""Input checks shared by the API and the CLI: each bad value is one SimcardsError line
naming the value and what is accepted, raised before any game is played."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from simcards.errors import SimcardsError

MAX_GAME_INDEX = (1 << 63) - 1          # game indices are int64 in the kernels
_ROW_COPIES = 3                         # the frame (built once, in place) + a summary's grouping
                                        # (measured: 1.7 frames for a rotated summary)


def is_int(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def check_count(value: Any, what: str, minimum: int = 1) -> int:
    """``value`` must be an integer >= minimum (a count of threads, games per chunk ...)."""
    if not is_int(value) or value < minimum:
        accepted = "a positive integer" if minimum == 1 else f"an integer {minimum} or more"
        raise SimcardsError(f"bad {what} {value!r}: expected {accepted}")
    return int(value)


def check_optional_counts(**counts: Any) -> None:
    """``threads=None`` means the default; ``threads=0`` is an error, never silently the default."""
    for name, value in counts.items():
        if value is not None:
            check_count(value, name.replace("_", " "))


def strategy_names(strategies: Any) -> tuple[str, ...]:
    """One strategy name per seat, from a list of names or one comma-separated string."""
    if isinstance(strategies, str):
        strategies = [s.strip() for s in strategies.split(",")]
    if not isinstance(strategies, Sequence) or not all(isinstance(s, str) for s in strategies):
        raise SimcardsError(f"bad strategies {strategies!r}: expected a list of strategy names, "
                            "one per seat, e.g. ['expert', 'random']")
    return tuple(strategies)


def check_game_range(start: Any, n_games: Any) -> None:
    """Game indices start..start+n_games-1 must be int64 (the kernels' game index)."""
    if is_int(start) and is_int(n_games) and start + n_games - 1 > MAX_GAME_INDEX:
        raise SimcardsError(f"bad number of games {n_games!r} from game index {start}: expected "
                            f"game indices up to {MAX_GAME_INDEX}")


def check_game_index(index: Any) -> int:
    if not is_int(index) or not 0 <= index <= MAX_GAME_INDEX:
        raise SimcardsError(f"bad game index {index!r}: expected an integer 0 or more, "
                            f"at most {MAX_GAME_INDEX}")
    return int(index)


def row_bytes(spec, n_players: int, rules=None) -> int:
    """Memory one game takes: its frame rows (simcards.frame: each column in its own type, under
    these rules, the defaults if None), and what a summary's grouping adds."""
    from simcards.frame import row_bytes as frame_row_bytes
    rules = rules or spec.resolve_rules({})
    return _ROW_COPIES * n_players * frame_row_bytes(spec, rules, n_players)


def available_memory() -> int:
    try:
        import psutil
        return int(psutil.virtual_memory().available)
    except ImportError:   # pragma: no cover - psutil comes with dask; /proc is Linux's
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    return 1 << 62   # pragma: no cover - unknown: do not refuse


def _gb(n: float) -> str:
    return f"{n / 1e9:,.1f} GB"


#: Rows this small are not checked against the free memory: any machine that runs Python has
#: them free, and asking the system (psutil reads and parses /proc/meminfo) was about 75 us of
#: a one-game ``simulate``'s 570 (docs/performance.md; search and tuning make many small calls).
SURELY_FREE = 64 << 20


def check_memory(spec, n_players: int, n_games: int, available: int | None = None, rules=None) -> None:
    """Refuse a run whose rows cannot fit in memory, before it starts (not a MemoryError later)."""
    need = n_games * row_bytes(spec, n_players, rules)
    if available is None and need <= SURELY_FREE:
        return
    free = available_memory() if available is None else available
    if need > free:
        raise SimcardsError(
            f"bad number of games {n_games:,}: their rows need about {_gb(need)} of memory and "
            f"{_gb(free)} are free, expected fewer games, or running totals instead of rows "
            "(--summary-only, with --run-dir to resume; summary_only=True in simcards.runner)")


def check_frame(frame: Any) -> None:
    """``summarize`` needs a non-empty simcards frame: one row per (game, seat)."""
    import pandas as pd
    needed = ("game", "seat", "strategy", "win_share")
    if not isinstance(frame, pd.DataFrame):
        raise SimcardsError(f"bad frame of type {type(frame).__name__}: expected the pandas "
                            "DataFrame of simcards.simulate")
    missing = [c for c in needed if c not in frame.columns]
    if missing:
        raise SimcardsError(f"bad frame without column(s) {', '.join(missing)}: expected the frame "
                            f"of simcards.simulate (columns {', '.join(needed)}, ...)")
    if frame.empty:
        raise SimcardsError("bad frame with no rows: expected at least one game of simcards.simulate")


def check_run_size(spec, n_players: int, start: int, n_games: int, summary_only: bool,
                   rules=None) -> None:
    """Game indices that fit the kernels and, unless only totals are kept, rows that fit in memory."""
    check_game_range(start, n_games)
    if not summary_only:
        check_memory(spec, n_players, n_games, rules=rules)
