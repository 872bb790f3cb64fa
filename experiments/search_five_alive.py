"""Measure ``search`` against three ``expert`` seats in 4-player Five Alive.

Every deal is played four times, the search seat rotated over the four seats (common
deals: a deal's stream depends on (seed, game index) only, simcards.rng). Reported per
setting: the search seat's win rate with a 95% interval over deals (each deal's mean over
its four seatings; the fair share is 25%), and CPU milliseconds per search decision.

The games are played by a compiled loop here rather than ``simcards.simulate`` only to
count the search seat's decisions exactly (the frame has no per-seat decision count);
it seeds and drives the engine exactly as the generated kernel does (simcards.kernels),
so its games are the kernel's: ``--check`` compares a few deals with ``simcards.simulate``.

Measured 2026-12-01 (seed 2026, common deals, CPU time on one core of a shared machine;
win rate of the search seat, 95% interval over deals; fair share 25%)::

    setting                          deals  win    95% interval   ms/decision
    budget=100  eval=0                 300  23.6%  [21.3, 25.9]   0.56
    budget=400  eval=0                 300  28.4%  [26.0, 30.9]   2.31
    budget=1600 eval=0                 100  35.2%  [31.2, 39.3]   9.18
    budget=100  eval=1                 300  30.8%  [28.3, 33.2]   0.27
    budget=400  eval=1                 300  32.7%  [30.0, 35.4]   0.98
    budget=400  eval=1 margin=0        300  30.5%  [28.0, 33.0]   1.04
    budget=800  eval=1                 300  36.6%  [34.1, 39.1]   1.88
    budget=800  eval=1 margin=2        300  35.9%  [33.5, 38.4]   1.89
    budget=1600 eval=1                 300  38.7%  [36.0, 41.3]   3.92

(margin 1 unless said; budget=1600 eval=0 on 100 deals only, for time.)

Usage::

    python experiments/search_five_alive.py --deals 300 --settings budget=100 budget=400:eval=1
"""
from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

import simcards
from simcards.batch import prepare
from simcards.config import NJIT_OPTIONS
from simcards.games.five_alive import fast as E
from simcards.rng import STREAM_DEAL, STREAM_STRATEGY, seed_game
from simcards_strategies.five_alive import search
from simcards_strategies.five_alive.expert import decide as expert_decide

N_PLAYERS = 4


@njit(**NJIT_OPTIONS)
def play_rotated(seed, first, deals, params, search_params, expert_params, wins, decisions):
    """Deals first..first+deals-1, each with search in seat 0..3: wins[d, i] is search's win
    share in seat i, decisions[d, i] how many decisions it made."""
    s = E.new_state(N_PLAYERS, params)
    grng = np.zeros(1, np.uint64)
    srng = np.zeros(1, np.uint64)
    seat_out = np.zeros((N_PLAYERS, 4), np.int64)
    game_out = np.zeros(4, np.int64)
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
                p = E.decider(s)
                if p == i:
                    m = np.int64(search.decide(E.view_play(s), srng, search_params))
                    c += 1
                else:
                    m = np.int64(expert_decide(E.view_play(s), srng, expert_params))
                E.apply(s, grng, k, m)
            E.write_result(s, seat_out, game_out)
            winners = 0
            for p in range(N_PLAYERS):
                winners += seat_out[p, 0]
            wins[d, i] = seat_out[i, 0] / winners if winners > 0 else 0.0
            decisions[d, i] = c


def measure(setting: str, deals: int, seed: int) -> dict:
    """Win rate (with a 95% interval over deals) and CPU ms per decision of ``search:<setting>``."""
    name = f"search:{setting}" if setting else "search"
    batch = prepare("five-alive", [name] + ["expert"] * (N_PLAYERS - 1), seed)
    sparams, eparams = batch.strategy_params[0], batch.strategy_params[1]
    wins = np.zeros((deals, N_PLAYERS))
    decisions = np.zeros((deals, N_PLAYERS), np.int64)
    play_rotated(seed, 0, 1, batch.params, sparams, eparams, wins[:1], decisions[:1])  # compile
    t = time.process_time()
    play_rotated(seed, 0, deals, batch.params, sparams, eparams, wins, decisions)
    cpu = time.process_time() - t
    per_deal = wins.mean(axis=1)
    mean = per_deal.mean()
    half = 1.96 * per_deal.std(ddof=1) / np.sqrt(deals)
    return {"setting": name, "deals": deals, "win": mean, "lo": mean - half, "hi": mean + half,
            "by_seat": wins.mean(axis=0), "ms_per_decision": 1000 * cpu / decisions.sum(),
            "decisions": int(decisions.sum()), "cpu_s": cpu}


def check(setting: str, seed: int, deals: int = 3) -> None:
    """The loop's games are the kernel's: compare win shares with simcards.simulate."""
    name = f"search:{setting}" if setting else "search"
    batch = prepare("five-alive", [name] + ["expert"] * 3, seed)
    wins = np.zeros((deals, N_PLAYERS))
    decisions = np.zeros((deals, N_PLAYERS), np.int64)
    play_rotated(seed, 0, deals, batch.params, batch.strategy_params[0], batch.strategy_params[1],
                 wins, decisions)
    for i in range(N_PLAYERS):
        lineup = ["expert"] * N_PLAYERS
        lineup[i] = name
        frame = simcards.simulate("five-alive", lineup, deals, seed=seed, threads=1)
        got = frame[frame.seat == i].sort_values("game").win_share.to_numpy()
        assert np.allclose(got, wins[:, i]), (i, got, wins[:, i])
    print(f"check: {deals} deals x {N_PLAYERS} seats agree with simcards.simulate")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--settings", nargs="*", default=["budget=100", "budget=400", "budget=1600",
                                                     "budget=100:eval=1", "budget=400:eval=1",
                                                     "budget=1600:eval=1"])
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    if args.check:
        check(args.settings[0], args.seed)
    for setting in args.settings:
        r = measure(setting, args.deals, args.seed)
        seats = " ".join(f"{x:.2f}" for x in r["by_seat"])
        print(f"{r['setting']:32s} deals {r['deals']:5d}  win {100 * r['win']:5.1f}% "
              f"[{100 * r['lo']:5.1f}, {100 * r['hi']:5.1f}]  by seat {seats}  "
              f"{r['ms_per_decision']:.3f} ms/decision ({r['decisions']} decisions, "
              f"{r['cpu_s']:.0f} s CPU)", flush=True)


if __name__ == "__main__":
    main()
