"""Determinized Monte Carlo: deal the unseen cards many ways, try every legal card on each deal, play on with expert, keep expert's card unless another wins clearly more.

Per decision (everything compiled, no Python):
1. ``default`` = expert's card on the real view.
2. ``samples = max(1, budget // n_legal)`` determinizations (simcards.games.five_alive.redeal:
   the unseen cards dealt in the public hand sizes, from public facts only). On each, every
   legal kind is played on a copy with the *same* game generator (common samples: the kinds
   differ by the card alone, so their difference has far less variance than their values),
   then the rollout strategy plays every seat to the evaluation point.
3. The kind with the best mean replaces ``default`` only if its mean lead over ``default``,
   paired over the same samples, exceeds ``margin`` standard errors (a probe found that
   keeping a strong default unless another card is clearly better helps: a noisy argmax
   over up to ten kinds otherwise picks a lucky card often).

Evaluation (``eval``): 0 plays to the end of the game and scores the seat's win share;
1 stops at the end of the current round (or the game) and scores the lives left by a model
of the rest of the game (``_model_value``: every round one survivor, uniformly, wins it and
every other survivor loses a life); the model is exact dynamic programming, computed per
decision on demand (a dict memo) from the lives at hand, so it needs no cache, is
deterministic and fits every player count and rule setting. Round rollouts are about five
times shorter than game rollouts. Where the model would be large (lives left above 40 in
all), eval 1 plays to the end of the game instead.

Random numbers come only from the strategy stream ``rng`` handed in: one draw seeds a
private generator for the deals and the rollouts; the game's deal stream is never touched.
The design carries to the other games: a game needs ``redeal`` and a rollout strategy.

Measured 2026-12-01 (``python experiments/search_strength.py five-alive --deals D --seed S
--settings ...``; 4 players, search against three expert, every deal played with search in each
seat; win rate of the search seat, 95% interval over deals, fair share 25%; CPU time per search
decision on one core of a shared machine)::

    setting                          deals  seed  win    95% interval   ms/decision
    budget=100  eval=0                 300  2026  23.6%  [21.3, 25.9]   0.56
    budget=400  eval=0                 300  2026  28.4%  [26.0, 30.9]   2.31
    budget=1600 eval=0                 100  2026  35.2%  [31.2, 39.3]   9.18
    budget=100  eval=1                 300  2026  30.8%  [28.3, 33.2]   0.27
    budget=400  eval=1                 300  2026  32.7%  [30.0, 35.4]   0.98
    budget=400  eval=1 margin=0        300  2026  30.5%  [28.0, 33.0]   1.04
    budget=800  eval=1                 300  2026  36.6%  [34.1, 39.1]   1.88
    budget=800  eval=1 margin=2        300  2026  35.9%  [33.5, 38.4]   1.89
    budget=1600 eval=1                 300  2026  38.7%  [36.0, 41.3]   3.92
    budget=800  eval=1, with LACKS   1,000  2027  35.6%  [34.2, 37.0]   1.74

(margin 1 unless said; every row but the last was measured before the re-deal used the public LACKS
inferences.)
"""
import numpy as np
from numba import njit, types
from numba.typed import Dict

from simcards.config import NJIT_OPTIONS
from simcards.engine import bit_count, nth_bit
from simcards.games.five_alive.fast import advance, apply, view_play, write_result
from simcards.games.five_alive.redeal import redeal
from simcards.games.five_alive.rules import MAX_PLAYERS, PLAY
from simcards.games.five_alive.view import (BLITZ, LEGAL, LIVES, N, OVER, ROUNDS, UNFINISHED,
                                            View)
from simcards.params import slot
from simcards.rng import next_u64
from simcards.search import (ACTIVE, VALS, accumulate, index_of, keep_sampling, new_tally,
                             paired_choice, private_stream, race, rollout_buffers, seed_rollout,
                             win_share)
from . import expert as _expert
from .expert import decide as expert_decide
from .high_first import decide as high_first_decide

#: Run-time parameters (simcards.params): ``search:budget=1600:eval=1`` on the command line.
#: The default budget is the one that meets the issue's target (4 players against three
#: expert: 35.6% [34.2, 37.0] on 1,000 deals at 1.74 ms of CPU per decision; the table above).
#: Round rollouts (eval 1) win more per millisecond than whole-game ones (32.7% at budget
#: 400 and 1.0 ms per decision, against 28.4% at 2.3 ms), hence that default. The contract
#: suite plays search at a small budget (tests/contract/conftest.py): it checks rules, not strength.
PARAMS = {
    "budget": (800, 1, 100_000, "rollouts per decision, shared by the legal kinds"),
    "margin": (1.0, 0.0, 5.0, "standard errors another card must beat expert's card by"),
    "eval": (1, 0, 1, "0: roll out to the end of the game; 1: to the end of the round, scored by a lives model"),
    "rollout": (0, 0, 1, "the strategy every seat plays in rollouts: 0 expert, 1 high_first"),
    "race": (0.0, 0.0, 5.0, "drop a card once it trails expert's by this many standard errors "
                            "(0: never); its share of the budget goes to the close ones"),
}
_BUDGET = slot(PARAMS, "budget")
_MARGIN = slot(PARAMS, "margin")
_EVAL = slot(PARAMS, "eval")
_ROLLOUT = slot(PARAMS, "rollout")
_RACE = slot(PARAMS, "race")

#: expert's parameters at their defaults, in its declared order (a constant to numba)
EXPERT_DEFAULTS = np.array([float(v[0]) for v in _expert.PARAMS.values()], np.float64)
#: eval 1 falls back to whole-game rollouts above this many lives left in all (model size)
MODEL_LIVES_CAP = 40
_NO_MOVE = -1


@njit(**NJIT_OPTIONS)
def decide(view, rng, params):
    # a thin wrapper: the reference engine's twin test calls this function's py_func, which
    # then runs the compiled search below on the view's array, as the kernel does
    return search_move(view.s, view.seat, rng, np.int64(params[_BUDGET]), params[_MARGIN],
                       np.int64(params[_EVAL]), np.int64(params[_ROLLOUT]), params[_RACE])


@njit(**NJIT_OPTIONS)
def _strategy_move(x, srng, rollout):
    """The rollout strategy's card for the seat to move in state ``x``."""
    if rollout == 1:
        return np.int64(high_first_decide(view_play(x), srng))
    return np.int64(expert_decide(view_play(x), srng, EXPERT_DEFAULTS))


@njit(**NJIT_OPTIONS)
def search_move(s, seat, rng, budget, margin, ev, rollout, z):
    """The card ``seat`` plays in state ``s`` (read only where the seat may look).

    Parameters
    ----------
    s : int64 array
        The engine's state or a view of it with hidden fields zero; not modified.
    seat : int
        The deciding seat (the seat to move).
    rng : uint64[1]
        The strategy stream; one number is drawn from it per decision with two kinds or more.
    budget, margin, ev, rollout, z
        The PARAMS above (``z``: race).

    Returns
    -------
    int
        A legal card kind.
    """
    default = np.int64(expert_decide(View(s, seat, s[LEGAL + seat]), rng, EXPERT_DEFAULTS))
    legal = s[LEGAL + seat]
    nk = bit_count(legal)
    if nk <= 1:
        return default
    kinds = np.empty(nk, np.int64)
    for j in range(nk):
        kinds[j] = nth_bit(legal, j)
    jdef = index_of(kinds, default)
    # a private generator: one draw from the strategy stream seeds every deal and rollout
    local = private_stream(rng)
    drng, grng, srng, w, x = rollout_buffers(s.shape[0])
    seat_out = np.zeros((MAX_PLAYERS, 4), np.int64)
    game_out = np.zeros(4, np.int64)
    memo = Dict.empty(key_type=types.int64, value_type=types.float64)
    scratch = np.empty(2 * MAX_PLAYERS, np.int64)   # the lives model's, reused by every rollout
    if ev == 1:
        left = 0
        for q in range(s[N]):
            left += s[LIVES + q]
        if left > MODEL_LIVES_CAP:
            ev = 0
    rounds0 = s[ROUNDS]
    tally = new_tally(nk)
    samples, spent, active = 0, 0, nk
    while keep_sampling(samples, spent, active, budget):
        drng[0] = next_u64(local)
        redeal(s, seat, w, drng)
        g0 = next_u64(local)
        for j in range(nk):
            if tally[ACTIVE, j] == 0.0:
                continue                    # dropped by the race
            x[:] = w
            seed_rollout(g0, grng, srng)    # common samples: the same draws for every kind
            apply(x, grng, PLAY, kinds[j])
            tally[VALS, j] = _play_on(x, grng, srng, seat, ev, rollout, rounds0, seat_out, game_out, memo,
                               scratch)
        accumulate(tally, jdef)
        samples += 1
        spent += active
        active = race(tally, jdef, samples, z)
    return kinds[paired_choice(tally, samples, jdef, margin)]


@njit(**NJIT_OPTIONS)
def _play_on(x, grng, srng, seat, ev, rollout, rounds0, seat_out, game_out, memo, scratch):
    """Play ``x`` on with the rollout strategy in every seat to the evaluation point; the
    value for ``seat``: its win share at the end of the game, or the lives model's value at
    the end of the round (eval 1)."""
    while True:
        if ev == 1 and x[ROUNDS] != rounds0 and x[OVER] == 0:
            return _round_value(x, seat, memo, scratch)
        k = advance(x, grng)
        if k < 0:
            return _win_share(x, seat, seat_out, game_out)
        apply(x, grng, k, _strategy_move(x, srng, rollout))


@njit(**NJIT_OPTIONS)
def _win_share(x, seat, seat_out, game_out):
    """The seat's share of the win (ties shared, as a blitz game's shared win; 0 when the
    turn cap stopped the game), from the engine's own ranking."""
    if x[UNFINISHED] != 0:
        return 0.0
    n = x[N]
    write_result(x, seat_out[:n], game_out)
    return win_share(seat_out, n, seat)


# ------------------------------------------------------------------ the lives model (eval 1)
@njit(**NJIT_OPTIONS)
def _round_value(x, seat, memo, scratch):
    """The model's chance that ``seat`` wins from the lives in ``x`` (a round just ended).
    ``scratch``: 2 * MAX_PLAYERS int64s, so that a rollout's end allocates nothing."""
    n = x[N]
    others = scratch[MAX_PLAYERS:]
    c = 0
    for q in range(n):
        if q != seat:
            others[c] = x[LIVES + q]
            c += 1
    return _model_value(x[LIVES + seat], others, n - 1, x[BLITZ] != 0, memo, scratch[:MAX_PLAYERS])


@njit(**NJIT_OPTIONS)
def _key(m, others, k, srt):
    """Memo key of a state: own lives, then the others' lives sorted (the model is symmetric
    among the others). Lives are at most 99 (rules: the lives option), so base 100 fits.
    ``srt``: room for k int64s (an insertion sort of at most 6 values, no allocation)."""
    for i in range(k):
        v = others[i]
        j = i
        while j > 0 and srt[j - 1] > v:
            srt[j] = srt[j - 1]
            j -= 1
        srt[j] = v
    key = m
    for i in range(k):
        key = key * 100 + srt[i]
    return key


@njit(**NJIT_OPTIONS)
def _model_value(m, others, k, blitz, memo, srt):
    """Chance that a seat with ``m`` lives wins against ``k`` others with ``others[:k]`` lives
    if every round one survivor, uniformly at random, wins and every other survivor loses a
    life (rules 9-11: the round winner costs the others a life; busts and Killers, which
    cost one player a life, are what the rollout itself played out). Blitz: the game ends
    when anyone is out; the most lives win, ties shared."""
    alive_o = 0
    top = m
    for i in range(k):
        if others[i] > 0:
            alive_o += 1
        top = max(top, others[i])
    if m == 0:
        return 0.0
    if alive_o == 0:
        return 1.0
    if blitz and alive_o < k:
        ties = 1
        for i in range(k):
            if others[i] == top:
                ties += 1
        return 1.0 / ties if m == top else 0.0
    key = _key(m, others, k, srt)
    if key in memo:
        return memo[key]
    a = alive_o + 1
    nxt = np.empty(MAX_PLAYERS, np.int64)
    # I win the round: every other survivor loses a life
    for i in range(k):
        nxt[i] = max(others[i] - 1, 0)
    v = _model_value(m, nxt, k, blitz, memo, srt)
    # survivor i wins it: I lose a life, and so does every other survivor but i
    for i in range(k):
        if others[i] > 0:
            for j in range(k):
                nxt[j] = others[j] if j == i else max(others[j] - 1, 0)
            v += _model_value(m - 1, nxt, k, blitz, memo, srt)
    v /= a
    memo[key] = v
    return v
