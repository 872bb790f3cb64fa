"""Input checks shared by the API and the CLI: each bad value is one SimcardsError line
naming the value and what is accepted, raised before any game is played."""
from __future__ import annotations

import os
from typing import Any, Mapping, Sequence

import numpy as np

from simcards.errors import BadArgument, SimcardsError

MAX_GAME_INDEX = (1 << 63) - 1          # game indices are int64 in the kernels
#: Games per chunk, at most: a chunk is played, held and saved whole (a summary-only chunk's
#: kernel records, a Dask task's result), so a chunk past this is memory a run need not risk.
MAX_CHUNK = 1_000_000
#: Threads (or local Dask workers) per core, at most: more only share the cores and multiply
#: the chunks held in memory at once.
THREADS_PER_CORE = 4


def is_int(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def max_threads() -> int:
    """Threads (and local Dask workers) a run may ask for: 4 per core of this machine, at least 8."""
    from simcards.compiled.config import default_threads
    return max(8, THREADS_PER_CORE * default_threads())


def check_count(value: Any, what: str, minimum: int = 1, maximum: int | None = None,
                why: str = "") -> int:
    """``value`` must be an integer >= minimum, and <= maximum when given (a count of threads,
    games per chunk ...); ``why`` says where the maximum comes from."""
    if not is_int(value) or value < minimum or (maximum is not None and value > maximum):
        accepted = "a positive integer" if minimum == 1 else f"an integer {minimum} or more"
        if maximum is not None:
            accepted += f", at most {maximum:,}" + (f" ({why})" if why else "")
        raise BadArgument(f"bad {what} {value!r}: expected {accepted}")
    return int(value)


def _count_bound(name: str) -> tuple[int | None, str]:
    if "thread" in name or "worker" in name:
        from simcards.compiled.config import default_threads
        return max_threads(), f"{THREADS_PER_CORE} per core of this machine's {default_threads()}, at least 8"
    if "chunk" in name:
        return MAX_CHUNK, "a chunk is held in memory whole"
    return None, ""


def check_optional_counts(**counts: Any) -> None:
    """``threads=None`` means the default; ``threads=0`` is an error, never silently the default.
    Threads and workers are bounded by ``max_threads()``, a chunk size by ``MAX_CHUNK``."""
    for name, value in counts.items():
        if value is not None:
            check_count(value, name.replace("_", " "), 1, *_count_bound(name))


def strategy_names(strategies: Any, what: str = "strategies") -> tuple[str, ...]:
    """One strategy name per seat, from a list (or tuple) of names. A str is refused, not
    split: ``"random"`` would be six seats of one letter each."""
    if (isinstance(strategies, (str, bytes)) or not isinstance(strategies, Sequence)
            or not all(isinstance(s, str) and s.strip() for s in strategies)):
        hint = " (a str is not split: give a list)" if isinstance(strategies, str) else ""
        raise BadArgument(f"bad {what} {strategies!r}: expected a list of strategy names, "
                          f"one per seat, e.g. ['expert', 'random']{hint}")
    return tuple(strategies)


# ------------------------------------------------------------------ the API's arguments
def check_game_name(game: Any, what: str = "game") -> str:
    """A game's name is a str (``simcards.list_games()`` lists them)."""
    if not isinstance(game, str):
        raise BadArgument(f"bad {what} {game!r}: expected a game name (a str), e.g. 'five-alive'; "
                          "simcards.list_games() lists them")
    return game


def check_flag(value: Any, what: str) -> bool:
    """True or False, nothing else: ``rotate="no"`` is a truthy str, never a yes."""
    if not isinstance(value, (bool, np.bool_)):
        raise BadArgument(f"bad {what} {value!r}: expected True or False")
    return bool(value)


def check_int(value: Any, what: str, minimum: int, maximum: int) -> int:
    """An integer minimum..maximum (not a bool, a float or a str)."""
    if not is_int(value) or not minimum <= value <= maximum:
        raise BadArgument(f"bad {what} {value!r}: expected an integer {minimum}..{maximum}")
    return int(value)


def check_names(value: Any, what: str) -> tuple[str, ...]:
    """A list (or tuple) of names, possibly empty; a str is refused, not split into letters."""
    if (isinstance(value, (str, bytes)) or not isinstance(value, Sequence)
            or not all(isinstance(v, str) and v.strip() for v in value)):
        hint = " (a str is not split: give a list)" if isinstance(value, str) else ""
        raise BadArgument(f"bad {what} {value!r}: expected a list of strategy names, "
                          f"e.g. ['expert', 'random']{hint}")
    return tuple(value)


def check_folders(value: Any, what: str = "strategy_dirs") -> tuple[str, ...]:
    """A list (or tuple) of folders, each a str or a path; one folder alone is refused, not
    split into letters (``"mine"``) or mistaken for a list."""
    if isinstance(value, (str, bytes, os.PathLike)) or not isinstance(value, Sequence) or not all(
            isinstance(v, (str, os.PathLike)) and str(v).strip() for v in value):
        hint = f", e.g. [{str(value)!r}]" if isinstance(value, (str, os.PathLike)) else \
            ", e.g. ['my_strategies']"
        raise BadArgument(f"bad {what} {value!r}: expected a list of folders (str or Path){hint}")
    return tuple(os.fspath(v) for v in value)


def check_rules(rules: Any, what: str = "rules") -> dict:
    """Rule options as a mapping of option name to value (``{'lives': 3}``), or None for the
    defaults. A ``"lives=3"`` string is refused: only the CLI's ``-r`` parses key=value."""
    if rules is None:
        return {}
    if not isinstance(rules, Mapping) or not all(isinstance(k, str) for k in rules):
        hint = " (key=value text is the CLI's -r: give a dict)" if isinstance(rules, str) else ""
        raise BadArgument(f"bad {what} {rules!r}: expected a mapping of rule option to value, "
                          f"e.g. {{'lives': 3}}, or None for the defaults{hint}")
    return dict(rules)


def check_callback(value: Any, what: str) -> None:
    if value is not None and not callable(value):
        raise BadArgument(f"bad {what} {value!r}: expected a function, or None")


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


