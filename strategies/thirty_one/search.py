"""Determinized Monte Carlo: re-deal the unseen cards as the table's signals allow, try every legal move on the same deals, play on with threshold_tuned to the end of the round, keep its move unless another wins clearly more.

Per decision (a turn or a vote; everything compiled, no Python):

1. ``default`` = the rollout strategy's move on the real view (threshold_tuned by default:
   threshold at the shipped alias's values; suit_chaser and greedy are the other choices).
2. ``samples = max(1, budget // n_legal)`` determinizations (simcards.games.thirty_one.redeal):
   the unseen cards dealt consistently with every public fact and with what the seat saw the
   others do -- cards seen taken and still held stay in their hands, no hand holds a
   combination, a rebuilt stock is the pile it came from, and (soft, by rejection) a seat
   whose proposal stands holds at least ``propose_min`` and one that accepted the proposal
   under way at least ``accept_min`` (a proposer signals a strong hand: a uniform re-deal
   believes every proposal is a bluff and accepts into showdowns it loses).
   On each, every legal move is played on a copy with the *same* game generator (common
   samples, simcards.search), then the rollout strategy plays every seat to the
   evaluation point.
3. The move with the best mean replaces ``default`` only if its mean lead over ``default``,
   paired over the same samples, exceeds ``margin`` standard errors (``paired_choice``).

Evaluation (``eval``): 0 plays to the end of the game and scores the seat's win share; 1
stops at the end of the round (or the game) and scores the keys by a model of the rounds
to come (``keys_value``: every round one player, uniformly, loses a key, the game ends when
anyone has none and the most keys win, ties shared), exact dynamic programming memoized per
decision. A round is a few dozen turns, a game many rounds: round rollouts are far cheaper.

Random numbers come only from the strategy stream ``rng`` handed in: one draw seeds a
private generator for the deals and the rollouts; the game's deal stream is never touched.

The strongest heuristic, the opponent of the target: suit_chaser. In a rotated four-way
pool (48,000 games, seed 5) suit_chaser won 28.4%, threshold_tuned 26.7%, threshold 23.5%,
discard_reader 21.4%; head to head suit_chaser won 27.1% against three threshold_tuned and
threshold_tuned 22.9% against three suit_chaser (24,000 games each).

The opponent model of the soft bounds holds for the heuristics: on 40 games each, every
standing proposal and acceptance of suit_chaser and of threshold_tuned came from a hand at
the bounds (100%), 94.7% in a greedy/discard_reader/threshold/suit_chaser table
(discard_reader proposes by risk, not by score).

Measured 2026-12-01 (``python experiments/search_strength.py thirty-one --seed 2027``; 4 players, search against
three suit_chaser, every deal played with search in each of the four seats; win rate of the
search seat with a 95% interval over deals, fair share 25%; CPU time per decision, turns and
votes, on one core of a shared machine)::

    setting                                  deals  win    95% interval   ms/decision
    budget=2000 rollout=1 eval=1 (default)     400  51.9%  [49.7, 54.1]   2.05
    budget=1000                                400  50.4%  [48.3, 52.6]   1.03
    propose_min=0 accept_min=0 (no signals)    400  43.7%  [41.6, 45.8]   1.98
    rollout=2 (greedy)                         400  46.2%  [44.1, 48.2]   1.75
    budget=300 rollout=0 (suit_chaser)         150  40.5%  [37.1, 43.9]   3.10
    eval=0 (whole-game rollouts)               150  48.4%  [45.0, 51.8]   4.73
    propose_min=25 accept_min=22               400  52.0%  [49.8, 54.1]   2.03

Again 2026-12-03, once suit_chaser's count of outs read a table (about nine times cheaper; the
same command, an Intel Xeon, milliseconds by ``--timing-games 60``)::

    budget=2000 rollout=1 eval=1 (default)     400  51.6%  [49.4, 53.7]   1.02
    budget=2000 rollout=0 (suit_chaser)        400  48.4%  [46.3, 50.6]   1.35

Cross-checks at the defaults: ``simcards run thirty-one --players 4 --strategies
search,suit_chaser,suit_chaser,suit_chaser --games 960 --threads 1 --seed 3`` (240 deals x 4
seat orders) 51.2% [48.4, 53.9]; ``simcards bench thirty-one --strategy search --games 200``
1.909 ms of CPU per decision (four search seats, 129 decisions a game).
(earlier probes, 100 deals, seed 2026: budget=300 rollout=0 41.3% [37.5, 45.0] at 3.4 ms;
budget=4000 52.2% [48.3, 56.1] at 4.1 ms.) Reading: the rollout policy matters most
(threshold_tuned rollouts were then ten times cheaper than suit_chaser's, so they bought ten
times the samples, and won more); the signals of the re-deal are worth eight points; the budget
beyond 1000 and whole-game rollouts add little. With suit_chaser's rollouts nearly as cheap
(the 2026-12-03 rows), threshold_tuned's still win more on the same deals and budget (51.6%
against 48.4%): it is what the rollouts play, not only their cost, that makes the default the
stronger.
"""
import numpy as np
from numba import njit, types
from numba.typed import Dict

from simcards.config import INTERNAL_NJIT_FLAGS, NJIT_OPTIONS
from simcards.games.thirty_one.fast import advance, apply, view_turn, view_vote, write_result
from simcards.games.thirty_one.redeal import redeal_with
from simcards.games.thirty_one.rules import MAX_PLAYERS, TURN, VOTE
from simcards.games.thirty_one.view import KEYS, N, OVER, ROUNDS, UNFINISHED, View
from simcards.params import default_row, slot
from simcards.search import (AT_EVAL, END, HOOK_NJIT_OPTIONS, NO_RACE, PREPARE_NJIT_OPTIONS,
                             ROLLOUT_HOOK_NJIT_OPTIONS, legal_candidates, make_search,
                             policy_default, result_buffers, result_share)

from ._kit import V
from . import suit_chaser as _suit_chaser
from . import threshold as _threshold
from .greedy import turn as greedy_turn, vote as greedy_vote
from .suit_chaser import turn as chaser_turn, vote as chaser_vote
from .threshold import turn as threshold_turn, vote as threshold_vote
from .threshold_tuned import ALIAS as _TUNED_ALIAS

#: Run-time parameters (simcards.params): ``search:budget=800:eval=0`` on the command line.
#: The defaults are the measured best (table above): 51.9% against three suit_chaser at 2 ms.
#: The contract suite plays search at a small budget (tests/contract/conftest.py).
PARAMS = {
    "budget": (2000, 1, 100_000, "rollouts per decision, shared by the legal moves"),
    "margin": (1.0, 0.0, 5.0, "standard errors another move must beat the rollout strategy's by"),
    "eval": (1, 0, 1, "0: roll out to the end of the game; 1: to the end of the round, scored by a keys model"),
    "rollout": (1, 0, 2, "the strategy every seat plays in rollouts: 0 suit_chaser, 1 threshold_tuned, 2 greedy"),
    "propose_min": (23, 0, 34, "re-deal a seat whose proposal stands a hand worth at least this (0: off)"),
    "accept_min": (21, 0, 34, "re-deal a seat that accepted the proposal under way at least this (0: off)"),
    "oracle": (0, 0, 1, "1: roll out on a copy of the true state, every hand and the stock open, "
                        "not on re-deals of the unseen cards (the skill index's information ceiling; "
                        "it reads hidden cards, so only the compiled kernel plays it)"),
}
_BUDGET = slot(PARAMS, "budget")
_MARGIN = slot(PARAMS, "margin")
_EVAL = slot(PARAMS, "eval")
_ROLLOUT = slot(PARAMS, "rollout")
_PROPOSE_MIN = slot(PARAMS, "propose_min")
_ACCEPT_MIN = slot(PARAMS, "accept_min")
_ORACLE = slot(PARAMS, "oracle")

#: suit_chaser's parameters at their defaults, and threshold's at the values of the shipped
#: threshold_tuned alias, in their declared order (constants to numba)
CHASER_ROW = default_row(_suit_chaser.PARAMS)


def _alias_row(alias, params):
    _, *pairs = alias.split(":")
    row = default_row(params).copy()
    for pair in pairs:
        k, v = pair.split("=")
        row[slot(params, k)] = float(v)
    return row


TUNED_ROW = _alias_row(_TUNED_ALIAS, _threshold.PARAMS)
#: draws of a constrained seat's unknown cards before the redeal keeps the best one
REDEAL_TRIES = 64
#: the keys model is exact up to this many keys in all (else eval 1 plays whole games)
MODEL_KEYS_CAP = 60
#: the decision kinds typed int64: with literal kinds numba compiled the whole search twice
#: (simcards.config, "Literal arguments")
_TURN, _VOTE = np.int64(TURN), np.int64(VOTE)


@njit(inline="always", **NJIT_OPTIONS)
def turn(view, rng, params):
    # thin wrappers: the reference engine's twin test calls these functions' py_func, which
    # then run the compiled search below on the view's array, as the kernel does; inlined by
    # numba (simcards.config, "Compiled functions")
    return _search(view.s, view.seat, rng, params, _TURN)


@njit(inline="always", **NJIT_OPTIONS)
def vote(view, rng, params):
    return _search(view.s, view.seat, rng, params, _VOTE)


@njit(inline="always", **NJIT_OPTIONS)
def _search(s, seat, rng, params, kind):
    return search_move(s, seat, rng, kind, np.int64(params[_BUDGET]), params[_MARGIN],
                       np.int64(params[_EVAL]), np.int64(params[_ROLLOUT]),
                       np.int64(params[_PROPOSE_MIN]), np.int64(params[_ACCEPT_MIN]),
                       np.int64(params[_ORACLE]))


@njit(**NJIT_OPTIONS, **INTERNAL_NJIT_FLAGS)
def _policy(v, kind, rng, rollout):
    """The rollout strategy's move on view ``v`` (a turn or a vote)."""
    if kind == VOTE:
        if rollout == 1:
            return np.int64(threshold_vote(v, rng, TUNED_ROW))
        if rollout == 2:
            return np.int64(greedy_vote(v, rng))
        return np.int64(chaser_vote(v, rng, CHASER_ROW))
    if rollout == 1:
        return np.int64(threshold_turn(v, rng, TUNED_ROW))
    if rollout == 2:
        return np.int64(greedy_turn(v, rng))
    return np.int64(chaser_turn(v, rng, CHASER_ROW))


@njit(**NJIT_OPTIONS, **INTERNAL_NJIT_FLAGS)
def _strategy_move(x, kind, srng, rollout):
    """The rollout strategy's move for the seat to decide in state ``x``."""
    return _policy(view_vote(x) if kind == VOTE else view_turn(x), kind, srng, rollout)


@njit(inline="always", **NJIT_OPTIONS)
def search_move(s, seat, rng, kind, budget, margin, ev, rollout, propose_min, accept_min, oracle):
    """The move ``seat`` makes at its decision in state ``s`` (read only where it may look).

    Parameters
    ----------
    s : int64 array
        The engine's state or a view of it with hidden fields zero; not modified.
    seat : int
        The deciding seat.
    rng : uint64[1]
        The strategy stream; one number is drawn from it per decision with two moves or more.
    kind : int
        TURN or VOTE (rules.py).
    budget, margin, ev, rollout, propose_min, accept_min, oracle
        The PARAMS above.

    Returns
    -------
    int
        A legal move.
    """
    # the loop is simcards.search's template (make_search), with this game's hooks below;
    # inlined by numba into the decisions, and compiled with a wrapper when Python calls it
    return _loop(s, seat, rng, kind, budget, margin, NO_RACE, oracle,
                 (ev, rollout, propose_min, accept_min))


# ------------------------------------------------------------------ the hooks of the template
#: the rollout strategy's move on the real view
_default_move = policy_default(View, _policy, 1)
#: the legal moves: every one is a candidate
_n_candidates, _candidate = legal_candidates(View, V.n_legal, V.legal_move)


@njit(**HOOK_NJIT_OPTIONS)
def _redeal(s, seat, w, drng, args):
    """The re-deal with the table's signals (``propose_min``, ``accept_min``)."""
    redeal_with(s, seat, w, drng, args[2], args[3], REDEAL_TRIES)


@njit(**PREPARE_NJIT_OPTIONS)
def _prepare(s, seat, kind, args):
    """The decision's evaluation and buffers: eval 1 plays whole games above MODEL_KEYS_CAP
    keys in all (the model's size); round rollouts stop at the end of the round under way."""
    ev, rollout = args[0], args[1]
    if ev == 1:
        left = 0
        for q in range(s[N]):
            left += s[KEYS + q]
        if left > MODEL_KEYS_CAP:
            ev = 0
    owners, seat_out, game_out = result_buffers(MAX_PLAYERS, 6, 10)
    memo = Dict.empty(key_type=types.int64, value_type=types.float64)
    return (ev, rollout, s[ROUNDS]), (seat_out, game_out, memo), owners


@njit(**ROLLOUT_HOOK_NJIT_OPTIONS)
def _step(x, grng, k, m, rctx):
    """Make move ``m``; the evaluation point is the end of the round under way (eval 1) if the
    game goes on; else on to the next decision."""
    ev, _, rounds0 = rctx
    apply(x, grng, k, m)
    if x[OVER] != 0:
        return END
    if ev == 1 and x[ROUNDS] != rounds0:
        return AT_EVAL
    return advance(x, grng)


@njit(**ROLLOUT_HOOK_NJIT_OPTIONS)
def _rollout_move(x, k, srng, rctx):
    return _strategy_move(x, k, srng, rctx[1])


#: the seat's share of the win (ties shared; 0 when the round cap stopped the game)
_win_share = result_share(write_result, UNFINISHED, N)


@njit(**NJIT_OPTIONS)
def _value(x, seat, at_eval, vctx):
    """The value of the played-on ``x`` for ``seat``: the keys model's value at the end of a
    round (``at_eval``), else its win share at the end of the game."""
    seat_out, game_out, memo = vctx
    if at_eval:
        return _round_value(x, seat, memo)
    return _win_share(x, seat, seat_out, game_out)


_loop = make_search(default_move=_default_move, n_candidates=_n_candidates, candidate=_candidate,
                    prepare=_prepare, redeal=_redeal, step=_step, rollout_move=_rollout_move,
                    value=_value)


# ------------------------------------------------------------------ the keys model (eval 1)
@njit(**NJIT_OPTIONS)
def _round_value(x, seat, memo):
    n = x[N]
    keys = np.empty(MAX_PLAYERS, np.int64)
    keys[0] = x[KEYS + seat]
    c = 1
    for q in range(n):
        if q != seat:
            keys[c] = x[KEYS + q]
            c += 1
    return keys_value(keys, n, memo)


@njit(**NJIT_OPTIONS)
def _keys_end(keys, n):
    """The keys model's value for ``keys[0]`` of a state where its game is over (someone has
    no key: the most keys win, ties share), or -1.0 while it goes on."""
    low = keys[0]
    top = keys[0]
    for i in range(1, n):
        low = min(low, keys[i])
        top = max(top, keys[i])
    if low > 0:
        return -1.0
    if keys[0] != top:
        return 0.0
    ties = 0
    for i in range(n):
        if keys[i] == top:
            ties += 1
    return 1.0 / ties


@njit(**NJIT_OPTIONS)
def _keys_key(keys, n, srt):
    """Memo key of a state: own keys, then the others' sorted (the model is symmetric among
    them), then the player count."""
    for i in range(1, n):
        v = keys[i]
        j = i - 1
        while j > 0 and srt[j - 1] > v:
            srt[j] = srt[j - 1]
            j -= 1
        srt[j] = v
    key = keys[0]
    for i in range(n - 1):
        key = key * 64 + srt[i]
    return key * 8 + n


@njit(**NJIT_OPTIONS)
def keys_value(keys, n, memo):
    """Chance that the player with ``keys[0]`` keys wins against ``keys[1:n]`` if every round
    one player, uniformly at random, loses a key; the game ends when anyone has none, the
    most keys win and ties share (rule 18). ``keys`` is not modified.

    Dynamic programming on an explicit stack, memoized in ``memo``. Not a recursive function:
    numba 0.68 refuses to compile a self-recursive function called from Python ("compiler
    re-entrant to the same function signature"). The stack visits the states in the order a
    recursion would (a state's next states one after the other, each finished before the
    next is begun) and sums them in that order: a memoized state's value depends, in its last
    bits, on the seat order it was first met in, so another order would give other bits."""
    v = _keys_end(keys, n)
    if v >= 0.0:
        return v
    srt = np.empty(MAX_PLAYERS, np.int64)
    key = _keys_key(keys, n, srt)
    if key in memo:
        return memo[key]
    # a row: the keys (MAX_PLAYERS), then the next state to visit
    nc = MAX_PLAYERS
    total = 0
    for i in range(n):
        total += keys[i]
    # every round costs a key: a path is at most `total` rounds deep
    stack = np.empty((total + 2, MAX_PLAYERS + 1), np.int64)
    stack[0, :n] = keys[:n]
    stack[0, nc] = 0
    sp = 1
    nxt = np.empty(MAX_PLAYERS, np.int64)
    while sp > 0:
        cur = stack[sp - 1]
        pushed = False
        while cur[nc] < n:
            i = cur[nc]
            cur[nc] += 1
            nxt[:n] = cur[:n]
            nxt[i] -= 1
            if _keys_end(nxt, n) < 0.0 and _keys_key(nxt, n, srt) not in memo:
                stack[sp, :n] = nxt[:n]
                stack[sp, nc] = 0
                sp += 1
                pushed = True
                break
        if pushed:
            continue
        # every next state is known: the value, summed in the recursion's order
        v = 0.0
        for i in range(n):
            nxt[:n] = cur[:n]
            nxt[i] -= 1
            w = _keys_end(nxt, n)
            v += w if w >= 0.0 else memo[_keys_key(nxt, n, srt)]
        memo[_keys_key(cur, n, srt)] = v / n
        sp -= 1
    return memo[key]
