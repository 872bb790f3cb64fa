"""Whether a run's rows fit in memory, checked before any game is played.

Apart from ``simcards.contract.validate`` (argument checks that the registries use too), since a
row's size is the frame's (simcards.run.frame), which the contract must not import."""
from __future__ import annotations

from simcards.contract.validate import check_game_range
from simcards.errors import SimcardsError
from simcards.run.frame import row_bytes as frame_row_bytes

_ROW_COPIES = 3                         # the frame (built once, in place) + a summary's grouping
                                        # (measured: 1.7 frames for a rotated summary)


def row_bytes(spec, n_players: int, rules=None) -> int:
    """Memory one game takes: its frame rows (simcards.run.frame: each column in its own type, under
    these rules, the defaults if None), and what a summary's grouping adds."""
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


def check_run_size(spec, n_players: int, start: int, n_games: int, summary_only: bool,
                   rules=None) -> None:
    """Game indices that fit the kernels and, unless only totals are kept, rows that fit in memory."""
    check_game_range(start, n_games)
    if not summary_only:
        check_memory(spec, n_players, n_games, rules=rules)
