"""How far each seat-compensation lever of Bombs Away moves every seat, under skilled and random play.

    python experiments/bombs_away_levers.py --players 5 --games 40000 [--seed 9] [RULE=VALUE ...]

Plays the rules given (default: the printed rules) with every seat ``duelist`` and with every seat
``random``, then the same deals with one lever changed at a time (``points_seatk``, ``hand_seatk``
and ``deal_seatk`` by ±1, ``hand_size`` by ±1), and prints each seat's edge (win rate less the
fair share, in points) and its change. Common deals: every rule set plays deals 0.. of the seed,
so a change is the lever's, not the luck of the deal. docs/rules/bombs-away.md ("Seat
compensation") quotes its figures; ``simcards balance`` searches the same levers.
"""
from __future__ import annotations

import argparse

import numpy as np

import simcards

MIRRORS = ("duelist", "random")


def edges(players: int, games: int, seed: int, rules: dict) -> np.ndarray:
    """Every seat's edge in points under each mirror: shape (mirrors, players)."""
    out = []
    for mirror in MIRRORS:
        frame = simcards.simulate("bombs-away", [mirror] * players, games, seed=seed, rules=rules)
        share = frame["win_share"].to_numpy(float).reshape(games, players).mean(axis=0)
        out.append(100 * (share - 1 / players))
    return np.array(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--games", type=int, default=40_000)
    ap.add_argument("--seed", type=int, default=9)
    ap.add_argument("rules", nargs="*", help="RULE=VALUE: the rules the levers are moved from")
    args = ap.parse_args()
    spec = simcards.get_game("bombs-away")
    base = spec.resolve_rules(dict(r.split("=", 1) for r in args.rules))
    e0 = edges(args.players, args.games, args.seed, base)
    fmt = lambda a: "  ".join(f"{x:+6.2f}" for x in a)
    print(f"{'rules':<22} {'duelist, seat 0..':<{8 * args.players}} random, seat 0..")
    print(f"{'as given':<22} {fmt(e0[0])}   {fmt(e0[1])}")
    levers = [f"{kind}_seat{k}" for kind in ("points", "hand", "deal") for k in range(1, args.players)]
    for lever in levers + ["hand_size"]:
        for step in (+1, -1):
            rules = dict(base, **{lever: base[lever] + step})
            try:
                spec.encode_params(spec.resolve_rules(rules), args.players)
            except simcards.SimcardsError:
                continue            # beyond the option's range or the deck
            change = edges(args.players, args.games, args.seed, rules) - e0
            print(f"{lever} {step:+d}".ljust(22) + f" {fmt(change[0])}   {fmt(change[1])}")


if __name__ == "__main__":
    main()
