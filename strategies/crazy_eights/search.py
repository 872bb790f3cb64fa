"""Determinized Monte Carlo: deal the unseen cards many ways (respecting what passes showed), try every legal move on each deal, play on with eights_last, keep its move unless another wins clearly more.

Per decision, a play or a suit (everything compiled, no Python):

1. ``default`` = the rollout strategy's move on the real view (``rollout`` 0: eights_last;
   1: suit_switcher; 2: random).
2. ``samples = max(1, budget // n_legal)`` determinizations
   (simcards.games.crazy_eights.redeal: the unseen cards dealt in the public hand sizes, no
   seat given a card the table knows it lacks). On each, every legal move is played on a copy
   with the *same* game generator (common samples), then the rollout strategy plays every
   seat to the end of the game, which scores the seat's win share (ties shared; an
   unfinished game 0).
3. The move with the best mean replaces ``default`` only if its mean lead, paired over the
   same samples, exceeds ``margin`` standard errors (simcards.search.paired_choice).

Random numbers come only from the strategy stream ``rng`` handed in: one draw seeds a private
generator for the deals and the rollouts (simcards.search.private_stream); the game's deal
stream is never touched.

What the game provides to this loop is its re-deal, its rollout policy (``_policy``) and its
value (``_win_share``); the rest is simcards.search's, and the loop's shape is that of the other
games' search.py.

Strongest heuristic, the opponent of the check: ``eights_last``, by a little (Crazy Eights is
mostly luck): 51.1% [51.0, 51.2] against suit_switcher at 2 players (``simcards run crazy-eights
--strategies eights_last,suit_switcher --games 100000 --threads 1``, seats rotated).

Measured (search's win rate with its 95% interval; seats rotated, so every deal is played with
search in every seat; ``simcards run crazy-eights --strategies LINEUP --games G --threads 1
--seed S``)::

    line-up                                               games  seed  win     95% interval
    search,eights_last                                    4,000     7  57.05%  [55.68, 58.41]
    search,eights_last                                      400     1  57.00%  [52.95, 60.96]
    search,eights_last,eights_last,eights_last            4,000     8  25.30%  [24.36, 26.26]
    search:budget=2400,eights_last,eights_last,eights_last 2,000    8  27.95%  [26.50, 29.44]

(fair shares 50% and 25%). At two players the default budget beats eights_last clearly; at four,
where every rollout's outcome is noisier, it takes a larger budget. CPU per decision at the
default, ``simcards bench crazy-eights --strategy search --players 2 --games 100
--reference-games 2 --repeat 1``: 0.81 ms (32.9 decisions a game), on one core of a shared
2-core machine.
"""
import numpy as np
from numba import njit

from simcards.borrow import keep_alive
from simcards.config import INTERNAL_NJIT_FLAGS, NJIT_OPTIONS
from simcards.engine import copy_into
from simcards.link_only import linked
from simcards.games.crazy_eights.fast import advance, apply, view_play, write_result
from simcards.games.crazy_eights.redeal import redeal
from simcards.games.crazy_eights.rules import (GAME_COLUMNS, MAX_PLAYERS, NAME_SUIT, PLAY,
                                               SEAT_COLUMNS)
from simcards.games.crazy_eights.view import N, UNFINISHED, View, legal_move, n_legal
from simcards.games.crazy_eights.defaults import name_suit as default_name_suit
from simcards.params import slot
from simcards.rng import next_u64
from simcards.search import (VALS, accumulate, index_of, new_tally, paired_choice, private_stream,
                             rollout_buffers, seed_rollout, win_share)
from .eights_last import play as eights_last_play
from .random import name_suit as random_name_suit, play as random_play
from .suit_switcher import name_suit as switcher_name_suit, play as switcher_play

#: Run-time parameters (simcards.params): ``search:budget=400:rollout=1`` on the command line.
#: The contract suite plays search at a small budget (tests/contract/conftest.py).
PARAMS = {
    "budget": (600, 1, 100_000, "rollouts per decision, shared by the legal moves"),
    "margin": (1.0, 0.0, 5.0, "standard errors another move must beat the rollout strategy's by"),
    "rollout": (0, 0, 2, "the strategy every seat plays in rollouts: 0 eights_last, "
                         "1 suit_switcher, 2 random"),
    "oracle": (0, 0, 1, "1: roll out on a copy of the true state, every hand and the stock open, "
                        "not on re-deals of the unseen cards (the skill index's information ceiling; "
                        "it reads hidden cards, so only the compiled kernel plays it)"),
}
_BUDGET = slot(PARAMS, "budget")
_MARGIN = slot(PARAMS, "margin")
_ROLLOUT = slot(PARAMS, "rollout")
_ORACLE = slot(PARAMS, "oracle")
#: the decision kinds typed int64: with literal kinds numba would compile the search twice
#: (simcards.config, "Literal arguments")
_PLAY, _NAME_SUIT = np.int64(PLAY), np.int64(NAME_SUIT)
_SEAT_WIDTH = 2 + len(SEAT_COLUMNS)
_GAME_WIDTH = len(GAME_COLUMNS) + 1


@njit(inline="always", **NJIT_OPTIONS)
def play(view, rng, params):
    # thin wrappers: the reference engine's twin test calls their py_func, which then runs
    # the compiled search below on the view's array, as the kernel does; inlined by numba
    # (simcards.config, "Compiled functions")
    return search_move(view.s, view.seat, rng, _PLAY, np.int64(params[_BUDGET]),
                       params[_MARGIN], np.int64(params[_ROLLOUT]),
                       np.int64(params[_ORACLE]))


@njit(inline="always", **NJIT_OPTIONS)
def name_suit(view, rng, params):
    return search_move(view.s, view.seat, rng, _NAME_SUIT, np.int64(params[_BUDGET]),
                       params[_MARGIN], np.int64(params[_ROLLOUT]),
                       np.int64(params[_ORACLE]))


@njit(**NJIT_OPTIONS, **INTERNAL_NJIT_FLAGS)
def _policy(v, kind, rng, rollout):
    """The rollout strategy's move on view ``v`` (a play or a suit)."""
    if kind == NAME_SUIT:
        if rollout == 1:
            return np.int64(switcher_name_suit(v, rng))
        if rollout == 2:
            return np.int64(random_name_suit(v, rng))
        return np.int64(default_name_suit(v, rng))
    if rollout == 1:
        return np.int64(switcher_play(v, rng))
    if rollout == 2:
        return np.int64(random_play(v, rng))
    return np.int64(eights_last_play(v, rng))


@linked(**NJIT_OPTIONS)     # kernels link it; Python calls a twin (simcards.link_only)
def search_move(s, seat, rng, kind, budget, margin, rollout, oracle):
    """The move ``seat`` makes at its decision in state ``s`` (read only where it may look).

    Parameters
    ----------
    s : int64 array
        The engine's state or a view of it with hidden fields zero; not modified.
    seat : int
        The deciding seat.
    rng : uint64[1]
        The strategy stream; one number is drawn from it per decision with two moves or more
        (and whatever the rollout strategy draws for the default move).
    kind : int
        PLAY or NAME_SUIT (rules.py).
    budget, margin, rollout, oracle
        The PARAMS above.

    Returns
    -------
    int
        A legal move.
    """
    v = View(s, seat)
    default = _policy(v, kind, rng, rollout)
    nk = n_legal(v)
    if nk <= 1:
        return default
    moves = np.empty(nk, np.int64)
    for j in range(nk):
        moves[j] = legal_move(v, j)
    jdef = index_of(moves, default)
    samples = max(np.int64(1), budget // nk)
    local = private_stream(rng)           # one draw from the strategy stream seeds the rest
    owner, drng, grng, srng, w, x = rollout_buffers(s.shape[0])
    seat_out = np.zeros((MAX_PLAYERS, _SEAT_WIDTH), np.int64)
    game_out = np.zeros(_GAME_WIDTH, np.int64)
    tally = new_tally(nk)
    for _ in range(samples):
        drng[0] = next_u64(local)
        if oracle != 0:
            # the information ceiling: the true deal itself (drng was still drawn, so
            # oracle=0 draws exactly what it drew before the parameter existed)
            copy_into(w, s)
        else:
            redeal(s, seat, w, drng)
        g0 = next_u64(local)
        for j in range(nk):
            copy_into(x, w)
            seed_rollout(g0, grng, srng)    # common samples: the same draws for every move
            apply(x, grng, kind, moves[j])
            _play_on(x, grng, srng, rollout)
            tally[VALS, j] = _win_share(x, seat, seat_out, game_out)
        accumulate(tally, jdef)
    choice = moves[paired_choice(tally, samples, jdef, margin)]
    keep_alive(owner)               # the rollout buffers' views are borrowed
    return choice


@njit(**NJIT_OPTIONS, **INTERNAL_NJIT_FLAGS)
def _play_on(x, grng, srng, rollout):
    """Play ``x`` on with the rollout strategy in every seat to the end of the game.

    Compiled without reference counting, on borrowed buffers (simcards.search says why);
    ``_win_share``, which may allocate, scores where it stopped."""
    while True:
        k = advance(x, grng)
        if k < 0:
            return
        apply(x, grng, k, _policy(view_play(x), k, srng, rollout))


@njit(**NJIT_OPTIONS)
def _win_share(x, seat, seat_out, game_out):
    """The seat's share of the win from the engine's own ranking (ties shared; 0 when the
    turn cap stopped the game)."""
    if x[UNFINISHED] != 0:
        return 0.0
    n = x[N]
    write_result(x, seat_out[:n], game_out)
    return win_share(seat_out, n, seat)
