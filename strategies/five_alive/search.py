"""Determinized Monte Carlo: deal the unseen cards many ways, try every legal card on each deal, play on with expert, keep expert's card unless another wins clearly more.

Per decision (everything compiled, no Python):
1. ``default`` = expert's card on the real view.
2. Determinizations while the budget of rollouts lasts: ``max(1, budget // n_legal)`` of them
   (simcards.games.five_alive.redeal: the unseen cards dealt in the public hand sizes, from
   public facts only). On each, every legal kind is played on a copy with the *same* game
   generator (common samples: the kinds differ by the card alone, so their difference has far
   less variance than their values), then the rollout strategy plays every seat to the
   evaluation point. With ``race`` > 0, a kind that trails the default by more than ``race``
   paired standard errors (after 16 samples) is played no more, so the budget buys more
   samples of the close kinds, and sampling stops once only the default is left
   (simcards.search.race).
3. The kind with the best mean replaces ``default`` only if its mean lead over ``default``,
   paired over the same samples, exceeds ``margin`` standard errors (a probe found that
   keeping a strong default unless another card is clearly better helps: a noisy argmax
   over up to ten kinds otherwise picks a lucky card often).

Evaluation (``eval``): 0 plays to the end of the game and scores the seat's win share;
1 stops at the end of the current round (or the game) and scores the lives left by a model
of the rest of the game (``_values.model_value``: every round one survivor, uniformly, wins
it and every other survivor loses a life); the model is exact dynamic programming, computed
per decision on demand (a dict memo) from the lives at hand, so it needs no cache, is
deterministic and fits every player count and rule setting. Round rollouts are about five
times shorter than game rollouts. Where the model would be large (lives left above 40 in
all), eval 1 plays to the end of the game instead. 2 stops where 1 does and scores the
lives by a value table: the chance to win from them, counted from 200,000 simulated games
with the rollout strategy in every seat and shrunk toward the model where the games are few
(_values.build_table). ``table_for`` asks simcards for it (simcards.tables): it is built
once per rule set, player count and rollout strategy, cached on disk, and arrives after the
seat's parameter values in its row, so a table is data, never compiled in. Where the table
would be too large (_values.MAX_ENTRIES: many lives and players), or in a direct call with
no table in the row, eval 2 scores by the model, as eval 1.

Random numbers come only from the strategy stream ``rng`` handed in: one draw seeds a
private generator for the deals and the rollouts; the game's deal stream is never touched.
The design carries to the other games: the loop is simcards.search's template (``make_search``), and a
game gives it its hooks (a re-deal, a rollout strategy, a value; the hooks below).

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
    budget=800  eval=2 (value table) 1,000  2027  36.0%  [34.6, 37.4]   2.73 (loaded machine)

(margin 1 unless said; every row but the last two was measured before the re-deal used the public
LACKS inferences. The last two were measured with experiments/search_five_alive.py, the loop
search_strength.py replaced, whose games its --check held equal to the kernel's.) Eval 2 against
eval 1, paired on the same 1,000 deals (seed 2027), chunks of 50 deals alternated so that both met
the same machine load: eval 2 wins 0.45 points more, 95% interval [-0.85, +1.75] (eval 1's games
reproduced the row above exactly: 35.6%), at 2.73 against 2.85 ms per decision on a machine loaded
by other work (hence both above 1.74). The table is nine times closer than the model to the chance
it estimates (_values.PRIOR_GAMES), yet the win rate moves by less than the noise of 1,000 deals:
eval 1 stays the default. A table costs nothing per decision (the same CPU as the model, measured
side by side); its build, about 4 s of CPU per rule set and player count (simcards.tables).

Racing (``race``), measured with /tmp scripts equal to search_strength.py's games (seed 2027 on
deals 0-999, then fresh deals: seeds 2028 and 2029, 500 each), CPU seconds of the same games side
by side under the same load::

    setting                          deals  seeds      win    95% interval   CPU of the games
    budget=800                       1,000  2028+2029  35.2%  [33.8, 36.5]   548 s
    budget=800  race=1.5             1,000  2028+2029  34.6%  [33.2, 36.0]   430 s
    budget=1000 race=1.5             1,000  2028+2029  36.4%  [34.9, 37.8]   525 s
    budget=800  race=1.5             1,000  2027       36.8%  [35.3, 38.2]   397 s (race 0: 500 s)
    budget=1000 race=1.5             2,000  2030       36.2%  [35.2, 37.2]   1,119 s (the default)

Race 1.5 against race 0 at budget 800, paired on all 2,000 deals: +0.3 points [-0.9, +1.5] for
about a fifth less CPU; budget 1000 with race 1.5 against the default, paired on the 1,000 fresh
deals: +1.2 points [-0.6, +3.0] for 4% less CPU. Race 2.5 on the first 1,000 deals: 36.4%. Neither
gain is significant on its own, but budget 1000 with race 1.5 was the strongest setting measured at
the old default's cost, so it was confirmed on 2,000 more fresh deals (seed 2030, chosen after the
setting): 36.2% [35.2, 37.2], the target's 35% below the interval. It is the default since
(budget=800 race=0 before: ``search:budget=800:race=0`` plays the old player).

CPU per decision at the default, ``simcards bench five-alive --strategy search --games 60`` (search
in every seat, one core, load 1.1): 1.40 ms, measured 2026-12-01 once the rollout buffers were
borrowed and a state copied by a vectorized loop (simcards.search.rollout_buffers,
simcards.engine.copy_into); the same moves, bit for bit, at 2.6-2.7 ms before, side by side. The ms
columns of the tables above were measured before that and compare only within their table.
"""
import numpy as np
from numba import njit, types
from numba.typed import Dict

from simcards.config import NJIT_OPTIONS
from simcards.engine import bit_count, nth_bit
from simcards.games.five_alive.fast import advance, apply, most_lives, write_result
from simcards.games.five_alive.redeal import redeal
from simcards.games.five_alive.rules import MAX_PLAYERS, PLAY
from simcards.games.five_alive.view import LEGAL, LIVES, N, OVER, ROUNDS, UNFINISHED, View
from simcards.params import TableRequest, slot
from simcards.borrow import borrow
from simcards.search import (AT_EVAL, HOOK_NJIT_OPTIONS, PREPARE_NJIT_OPTIONS,
                             ROLLOUT_HOOK_NJIT_OPTIONS, make_search, plain_redeal, result_buffers,
                             result_share)
from ._rollout import EXPERT_DEFAULTS, ROLLOUT_NAMES, rollout_move
from ._values import (ENTRIES, MAX_ENTRIES, build_table, round_value, table_entries,
                      table_fits, table_value)
from .expert import decide as expert_decide

#: Run-time parameters (simcards.params): ``search:budget=1600:eval=1`` on the command line.
#: The defaults are the setting that meets the issue's target beyond doubt (4 players against
#: three expert: 36.2% [35.2, 37.2] on 2,000 fresh deals; the racing table above): budget 1000
#: with racing costs about 4% less CPU per decision than budget 800 without.
#: Round rollouts (eval 1) win more per millisecond than whole-game ones (32.7% at budget
#: 400 and 1.0 ms per decision, against 28.4% at 2.3 ms), hence that default. The contract
#: suite plays search at a small budget (tests/contract/conftest.py): it checks rules, not strength.
PARAMS = {
    "budget": (1000, 1, 100_000, "rollouts per decision, shared by the legal kinds"),
    "margin": (1.0, 0.0, 5.0, "standard errors another card must beat expert's card by"),
    "eval": (1, 0, 2, "0: roll out to the end of the game; 1: to the end of the round, scored by a lives model; "
                      "2: to the end of the round, scored by a value table simcards builds by simulation"),
    "rollout": (0, 0, 1, "the strategy every seat plays in rollouts: 0 expert, 1 high_first"),
    "race": (1.5, 0.0, 5.0, "drop a card once it trails expert's by this many standard errors "
                            "(0: never); its share of the budget goes to the close ones"),
    "oracle": (0, 0, 1, "1: roll out on a copy of the true state, every hand and the stock open, "
                        "not on re-deals of the unseen cards (the skill index's information ceiling; "
                        "it reads hidden cards, so only the compiled kernel plays it)"),
}
_BUDGET = slot(PARAMS, "budget")
_MARGIN = slot(PARAMS, "margin")
_EVAL = slot(PARAMS, "eval")
_ROLLOUT = slot(PARAMS, "rollout")
_RACE = slot(PARAMS, "race")
_ORACLE = slot(PARAMS, "oracle")

#: where the value table starts in the seat's row (simcards.tables: after the declared values)
_TABLE = len(PARAMS)
#: eval 1 falls back to whole-game rollouts above this many lives left in all (model size)
MODEL_LIVES_CAP = 40
_NO_MOVE = -1
#: PLAY typed int64: a literal kind compiled the engine's whole turn a second time for the
#: search (simcards.config, "Literal arguments")
_PLAY = np.int64(PLAY)


@njit(inline="always", **NJIT_OPTIONS)
def decide(view, rng, params):
    # a thin wrapper: the reference engine's twin test calls this function's py_func, which
    # then runs the compiled search below on the view's array, as the kernel does; inlined by
    # numba (simcards.config, "Compiled functions")
    return search_move(view.s, view.seat, rng, np.int64(params[_BUDGET]), params[_MARGIN],
                       np.int64(params[_EVAL]), np.int64(params[_ROLLOUT]), params[_RACE],
                       params[_TABLE:],
                       np.int64(params[_ORACLE]))


def table_for(n_players, game_params, row):
    """The value table a seat playing ``row`` needs (simcards.tables): eval 2 only, for these
    rules, player count and rollout strategy; None when the table would be too large (eval 2
    then scores by the model, as eval 1)."""
    if int(row[_EVAL]) != 2:
        return None
    lives0, rollout = int(most_lives(n_players, game_params)), int(row[_ROLLOUT])
    if table_entries(n_players, lives0) > MAX_ENTRIES:
        return None
    return TableRequest("value table", f"rollout={ROLLOUT_NAMES[rollout]}",
                        lambda compiled: build_table(n_players, game_params, rollout,
                                                     compiled=compiled), ENTRIES)


@njit(inline="always", **NJIT_OPTIONS)
def search_move(s, seat, rng, budget, margin, ev, rollout, z, table, oracle):
    """The card ``seat`` plays in state ``s`` (read only where the seat may look).

    Parameters
    ----------
    s : int64 array
        The engine's state or a view of it with hidden fields zero; not modified.
    seat : int
        The deciding seat (the seat to move).
    rng : uint64[1]
        The strategy stream; one number is drawn from it per decision with two kinds or more.
    budget, margin, ev, rollout, z, oracle
        The PARAMS above (``z``: race).
    table : float64 array
        The value table (eval 2; simcards.tables hands it behind the seat's values), or any
        array for eval 0 and 1. A table built for other rules, or none, makes eval 2 eval 1.

    Returns
    -------
    int
        A legal card kind.
    """
    # the loop is simcards.search's template (make_search), with this game's hooks below;
    # inlined by numba into ``decide``, and compiled with a wrapper when Python calls it
    return _loop(s, seat, rng, _PLAY, budget, margin, z, oracle, (ev, rollout, table))


# ------------------------------------------------------------------ the hooks of the template
@njit(**HOOK_NJIT_OPTIONS)
def _default_move(s, seat, kind, rng, args):
    """Expert's card on the real view."""
    return np.int64(expert_decide(View(s, seat, s[LEGAL + seat]), rng, EXPERT_DEFAULTS))


@njit(**HOOK_NJIT_OPTIONS)
def _n_candidates(s, seat, kind, args):
    """The legal card kinds: every one is a candidate."""
    return bit_count(s[LEGAL + seat])


@njit(**HOOK_NJIT_OPTIONS)
def _candidate(s, seat, kind, j, args):
    return nth_bit(s[LEGAL + seat], j)


_redeal = plain_redeal(redeal)


@njit(**PREPARE_NJIT_OPTIONS)
def _prepare(s, seat, kind, args):
    """The decision's evaluation and buffers: eval 2 without a table for these rules scores as
    eval 1, and eval 1 plays whole games above MODEL_LIVES_CAP lives left in all (the model's
    size); round rollouts stop at the end of the round under way."""
    ev, rollout, table = args
    if ev == 2 and not table_fits(s, table):
        ev = 1
    if ev == 1:
        left = 0
        for q in range(s[N]):
            left += s[LIVES + q]
        if left > MODEL_LIVES_CAP:
            ev = 0
    owners, seat_out, game_out = result_buffers(MAX_PLAYERS, 4, 4)
    memo = Dict.empty(key_type=types.int64, value_type=types.float64)
    scratch = np.empty(2 * MAX_PLAYERS, np.int64)   # the lives model's, reused by every rollout
    # borrowed views (the table's owner is the seat's row, which outlives the search)
    return ((ev, rollout, s[ROUNDS]), (ev, seat_out, game_out, memo, borrow(scratch), borrow(table)),
            (owners, scratch))


@njit(**ROLLOUT_HOOK_NJIT_OPTIONS)
def _step(x, grng, k, m, rctx):
    """Play card ``m``; the evaluation point is the end of the round under way (eval 1 and 2)
    if the game goes on; else on to the next turn (the engine plays busts itself)."""
    ev, _, rounds0 = rctx
    apply(x, grng, k, m)
    if ev != 0 and x[ROUNDS] != rounds0 and x[OVER] == 0:
        return AT_EVAL
    return advance(x, grng)


@njit(**ROLLOUT_HOOK_NJIT_OPTIONS)
def _rollout_move(x, k, srng, rctx):
    return rollout_move(x, srng, rctx[1])


#: the seat's share of the win (ties shared, as a blitz game's shared win; 0 when the turn cap
#: stopped the game), from the engine's own ranking
_win_share = result_share(write_result, UNFINISHED, N)


@njit(**NJIT_OPTIONS)
def _value(x, seat, at_eval, vctx):
    """The value of the played-on ``x`` for ``seat``: at the end of a round (``at_eval``) the
    lives model's value (eval 1) or the value table's (eval 2), else its win share."""
    ev, seat_out, game_out, memo, scratch, table = vctx
    if not at_eval:
        return _win_share(x, seat, seat_out, game_out)
    if ev == 2:
        return table_value(x, seat, table, scratch)
    return round_value(x, seat, memo, scratch)


_loop = make_search(default_move=_default_move, n_candidates=_n_candidates, candidate=_candidate,
                    prepare=_prepare, redeal=_redeal, step=_step, rollout_move=_rollout_move,
                    value=_value)
