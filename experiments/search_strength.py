"""Measure a game's ``search`` player against copies of a heuristic, the way issue 14 states its targets.

Per setting: one seat plays ``search:<setting>``, every other seat the opponent heuristic; every
deal is played with the search seat in each position (``simcards.simulate(rotate=True)``: common
deals, the same games as ``simcards run GAME --strategies search:...,X,X,X``). Reported: the search
seat's win rate with a 95% interval over deals (simcards.stats.mean_interval, the deal as the
unit; the fair share is 1 / players), CPU seconds of those games on one thread, and with
``--timing-games`` the CPU milliseconds per decision as ``simcards bench GAME --strategy
search:<setting>`` measures it (search in every seat, decisions counted by replay).

The measured tables are in each game's strategies/<game>/search.py docstring. Usage::

    python experiments/search_strength.py five-alive --deals 1000 --seed 2027 --settings budget=800
    python experiments/search_strength.py thirty-one --against threshold_tuned --settings budget=1000
"""
from __future__ import annotations

import argparse
import time

import simcards
from simcards.bench import bench
from simcards.stats import mean_interval

#: each game's strongest heuristic (how it was chosen: the game's search.py docstring)
STRONGEST = {"five-alive": "expert", "thirty-one": "suit_chaser", "bombs-away": "duelist",
             "vzhukh": "cheap_beat_tuned"}


def measure(game: str, setting: str, against: str, players: int, deals: int, seed: int) -> dict:
    """Win rate of ``search:<setting>`` against ``players - 1`` copies of ``against``, by deal."""
    name = f"search:{setting}" if setting else "search"
    t = time.process_time()
    frame = simcards.simulate(game, [name] + [against] * (players - 1), deals * players, seed=seed,
                              threads=1, rotate=True)
    cpu = time.process_time() - t
    mine = frame[frame["strategy"].astype(str) != against]
    iv = mean_interval(mine.groupby("game")["win_share"].mean(), share=True).iloc[0]
    return {"setting": name, "deals": int(iv["deals"]), "win": float(iv["mean"]),
            "lo": float(iv["ci_low"]), "hi": float(iv["ci_high"]), "cpu_s": cpu}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", choices=sorted(STRONGEST))
    ap.add_argument("--against", help="the opponents' strategy (default: the game's strongest heuristic)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--settings", nargs="*", default=[""], help="search parameters, e.g. budget=800:eval=1")
    ap.add_argument("--timing-games", type=int, default=0,
                    help="also time this many all-search games (simcards bench) for ms per decision")
    args = ap.parse_args()
    against = args.against or STRONGEST[args.game]
    for setting in args.settings:
        r = measure(args.game, setting, against, args.players, args.deals, args.seed)
        line = (f"{r['setting']:36s} vs {against}  deals {r['deals']:5d}  win {100 * r['win']:5.1f}% "
                f"[{100 * r['lo']:5.1f}, {100 * r['hi']:5.1f}]  ({r['cpu_s']:.0f} s CPU)")
        if args.timing_games:
            b = bench(args.game, games=args.timing_games, reference_games=1, players=args.players,
                      strategy=r["setting"], seed=args.seed)
            line += f"  {b['cpu_ms_per_decision']:.2f} ms/decision"
        print(line, flush=True)


if __name__ == "__main__":
    main()
