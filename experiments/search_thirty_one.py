"""Measure ``search`` against three copies of a heuristic (default suit_chaser) in 4-player
Thirty-One.

Every deal is played four times, the search seat rotated over the four seats (common
deals: a deal's stream depends on (seed, game index) only, simcards.rng). Reported per
setting: the search seat's win rate with a 95% interval over deals (each deal's mean over
its four seatings; the fair share is 25%), and CPU milliseconds per search decision (turns
and votes alike).

The games are played by a compiled loop rather than ``simcards.simulate`` only to count the
search seat's decisions exactly; it seeds and drives the engine as the generated kernel does
(simcards.kernels): ``--check`` compares a few deals with ``simcards.simulate``.

Usage::

    python experiments/search_thirty_one.py --deals 200 --settings budget=300 budget=600:rollout=1
"""
from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

import simcards
from simcards.batch import prepare
from simcards.config import NJIT_OPTIONS
from simcards.games.thirty_one import fast as E
from simcards.games.thirty_one.rules import TURN
from simcards.rng import STREAM_DEAL, STREAM_STRATEGY, seed_game
from simcards_strategies.thirty_one import search, suit_chaser, threshold

N_PLAYERS = 4
#: the opponents this script knows: name -> (turn, vote) of a strategy taking params
OPPONENTS = {"suit_chaser": 0, "threshold_tuned": 1}


@njit(**NJIT_OPTIONS)
def _other(s, k, srng, which, oparams):
    if which == 1:
        if k == TURN:
            return np.int64(threshold.turn(E.view_turn(s), srng, oparams))
        return np.int64(threshold.vote(E.view_vote(s), srng, oparams))
    if k == TURN:
        return np.int64(suit_chaser.turn(E.view_turn(s), srng, oparams))
    return np.int64(suit_chaser.vote(E.view_vote(s), srng, oparams))


@njit(**NJIT_OPTIONS)
def play_rotated(seed, first, deals, params, search_params, which, oparams, wins, decisions):
    """Deals first..first+deals-1, each with search in seat 0..3: wins[d, i] is search's win
    share in seat i, decisions[d, i] how many decisions it made."""
    s = E.new_state(N_PLAYERS, params)
    grng = np.zeros(1, np.uint64)
    srng = np.zeros(1, np.uint64)
    seat_out = np.zeros((N_PLAYERS, 6), np.int64)
    game_out = np.zeros(10, np.int64)
    for d in range(deals):
        g = first + d
        for i in range(N_PLAYERS):
            seed_game(grng, seed, g, STREAM_DEAL)
            seed_game(srng, seed, g, STREAM_STRATEGY)
            E.start_game(s, grng)
            c = 0
            while True:
                k = E.advance(s, grng)
                if k < 0:
                    break
                if E.decider(s) == i:
                    if k == TURN:
                        m = np.int64(search.turn(E.view_turn(s), srng, search_params))
                    else:
                        m = np.int64(search.vote(E.view_vote(s), srng, search_params))
                    c += 1
                else:
                    m = _other(s, k, srng, which, oparams)
                E.apply(s, grng, k, m)
            E.write_result(s, seat_out, game_out)
            winners = 0
            for p in range(N_PLAYERS):
                winners += seat_out[p, 0]
            wins[d, i] = seat_out[i, 0] / winners if winners > 0 else 0.0
            decisions[d, i] = c


def _batch(setting: str, opponent: str, seed: int):
    name = f"search:{setting}" if setting else "search"
    return name, prepare("thirty-one", [name] + [opponent] * (N_PLAYERS - 1), seed)


def measure(setting: str, deals: int, seed: int, opponent: str) -> dict:
    """Win rate (with a 95% interval over deals) and CPU ms per decision of ``search:<setting>``."""
    name, batch = _batch(setting, opponent, seed)
    sparams, oparams = batch.strategy_params[0], batch.strategy_params[1]
    which = OPPONENTS[opponent]
    wins = np.zeros((deals, N_PLAYERS))
    decisions = np.zeros((deals, N_PLAYERS), np.int64)
    play_rotated(seed, 0, 1, batch.params, sparams, which, oparams, wins[:1], decisions[:1])  # compile
    t = time.process_time()
    play_rotated(seed, 0, deals, batch.params, sparams, which, oparams, wins, decisions)
    cpu = time.process_time() - t
    per_deal = wins.mean(axis=1)
    mean = per_deal.mean()
    half = 1.96 * per_deal.std(ddof=1) / np.sqrt(deals)
    return {"setting": name, "deals": deals, "win": mean, "lo": mean - half, "hi": mean + half,
            "by_seat": wins.mean(axis=0), "ms_per_decision": 1000 * cpu / decisions.sum(),
            "decisions": int(decisions.sum()), "cpu_s": cpu}


def check(setting: str, seed: int, opponent: str, deals: int = 3) -> None:
    """The loop's games are the kernel's: compare win shares with simcards.simulate."""
    name, batch = _batch(setting, opponent, seed)
    wins = np.zeros((deals, N_PLAYERS))
    decisions = np.zeros((deals, N_PLAYERS), np.int64)
    play_rotated(seed, 0, deals, batch.params, batch.strategy_params[0], OPPONENTS[opponent],
                 batch.strategy_params[1], wins, decisions)
    for i in range(N_PLAYERS):
        lineup = [opponent] * N_PLAYERS
        lineup[i] = name
        frame = simcards.simulate("thirty-one", lineup, deals, seed=seed, threads=1)
        got = frame[frame.seat == i].sort_values("game").win_share.to_numpy()
        assert np.allclose(got, wins[:, i]), (i, got, wins[:, i])
    print(f"check: {deals} deals x {N_PLAYERS} seats agree with simcards.simulate")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--opponent", default="suit_chaser", choices=sorted(OPPONENTS))
    ap.add_argument("--settings", nargs="*", default=[""])
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    if args.check:
        check(args.settings[0], args.seed, args.opponent)
    for setting in args.settings:
        r = measure(setting, args.deals, args.seed, args.opponent)
        seats = " ".join(f"{x:.2f}" for x in r["by_seat"])
        print(f"{r['setting']:40s} deals {r['deals']:5d}  win {100 * r['win']:5.1f}% "
              f"[{100 * r['lo']:5.1f}, {100 * r['hi']:5.1f}]  by seat {seats}  "
              f"{r['ms_per_decision']:.3f} ms/decision ({r['decisions']} decisions, "
              f"{r['cpu_s']:.0f} s CPU)", flush=True)


if __name__ == "__main__":
    main()
