"""Time the previous release beside this code on this machine, for ``simcards/bench_release.py``.

``simcards bench`` compares its rows with the release's tries timed on the same processor
(``simcards.bench_release.processor()``: the name numba compiles for). On a processor with no
tries, run this with a checkout of the release (``git worktree add ../release 963dcb8``) and add
what it prints to ``TRIES``: each try is one fresh process of the release after a warm-up,
alternated with one of this code (``simcards.bench_against.side_by_side``), on one core, CPU ns
per step of ``simulate`` (frame included) and of the kernel alone (``run_records``). Usage::

    python experiments/release_tries.py ../release --rounds 5
"""
from __future__ import annotations

import argparse
import json
import os

from simcards.bench import KERNEL_1, SIMULATE_1
from simcards.bench_against import side_by_side
from simcards.bench_release import processor
from simcards.registry import games, get_game


def _tries(rounds: list[dict], who: str) -> dict[str, list[float]]:
    """One version's CPU ns per step in each round, by the bench row they are saved under."""
    return {SIMULATE_1: [round(r[who]["cpu_ns_per_step"], 1) for r in rounds],
            KERNEL_1: [round(r[who]["kernel_cpu_ns_per_step"], 1) for r in rounds]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("release", help="a checkout of the previous release")
    parser.add_argument("games", nargs="*", help="games (default: every game)")
    parser.add_argument("--rounds", type=int, default=5, help="tries of each version, alternated")
    parser.add_argument("--n-games", type=int, default=200_000, help="games per try")
    args = parser.parse_args()
    out = {}
    for game in args.games or sorted(games()):
        spec = get_game(game)
        r = side_by_side(game, [spec.bench_strategy] * 4, args.n_games, 0, spec.step_column,
                         args.release, rounds=args.rounds)
        out[game] = {"strategy": spec.bench_strategy, "release": _tries(r["rounds"], "other"),
                     "this code": _tries(r["rounds"], "this"), "load_average": round(os.getloadavg()[0], 2)}
        print(json.dumps({game: out[game]}), flush=True)
    print(json.dumps({"processor": processor(), "tries": out}))


if __name__ == "__main__":
    main()
