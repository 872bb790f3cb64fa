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

The loop is simcards.search's template (``make_search``), as for every game's search; what this
game provides are its hooks: the rollout policy's move (``_policy``) as the default and in the
rollouts, the legal moves as candidates, its re-deal, its turn (``apply``, then ``advance``) and
its value (``_win_share`` at the end of the game).

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

from simcards.config import INTERNAL_NJIT_FLAGS, NJIT_OPTIONS
from simcards.games.crazy_eights.fast import advance, apply, view_play, write_result
from simcards.games.crazy_eights.redeal import redeal
from simcards.games.crazy_eights.rules import (GAME_COLUMNS, MAX_PLAYERS, NAME_SUIT, PLAY,
                                               SEAT_COLUMNS)
from simcards.games.crazy_eights.view import N, UNFINISHED, View, legal_move, n_legal
from simcards.games.crazy_eights.defaults import name_suit as default_name_suit
from simcards.params import slot
from simcards.search import (HOOK_NJIT_OPTIONS, NO_RACE, PREPARE_NJIT_OPTIONS,
                             ROLLOUT_HOOK_NJIT_OPTIONS, legal_candidates, make_search,
                             plain_redeal, policy_default, result_buffers, result_share)
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


@njit(inline="always", **NJIT_OPTIONS)
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
    # the loop is simcards.search's template (make_search), with this game's hooks below;
    # inlined by numba into the decisions, and compiled with a wrapper when Python calls it
    return _loop(s, seat, rng, kind, budget, margin, NO_RACE, oracle, (rollout,))


# ------------------------------------------------------------------ the hooks of the template
#: the rollout strategy's move on the real view
_default_move = policy_default(View, _policy, 0)
#: the legal moves: every one is a candidate
_n_candidates, _candidate = legal_candidates(View, n_legal, legal_move)
_redeal = plain_redeal(redeal)


@njit(**PREPARE_NJIT_OPTIONS)
def _prepare(s, seat, kind, args):
    """The rollout policy, and the result buffers of the end of the game (no evaluation point:
    rollouts play every game to its end)."""
    owners, seat_out, game_out = result_buffers(MAX_PLAYERS, _SEAT_WIDTH, _GAME_WIDTH)
    return (args[0],), (seat_out, game_out), owners


@njit(**ROLLOUT_HOOK_NJIT_OPTIONS)
def _step(x, grng, k, m, rctx):
    """Make move ``m`` and go on to the next decision (the end of the game is the only stop)."""
    apply(x, grng, k, m)
    return advance(x, grng)


@njit(**ROLLOUT_HOOK_NJIT_OPTIONS)
def _rollout_move(x, k, srng, rctx):
    return _policy(view_play(x), k, srng, rctx[0])


#: the seat's share of the win from the engine's own ranking (ties shared; 0 when the turn cap
#: stopped the game)
_win_share = result_share(write_result, UNFINISHED, N)


@njit(**HOOK_NJIT_OPTIONS)
def _value(x, seat, at_eval, vctx):
    """The seat's win share at the end of the rollout's game (inlined: it only hands over)."""
    return _win_share(x, seat, vctx[0], vctx[1])


_loop = make_search(default_move=_default_move, n_candidates=_n_candidates, candidate=_candidate,
                    prepare=_prepare, redeal=_redeal, step=_step, rollout_move=_rollout_move,
                    value=_value)
