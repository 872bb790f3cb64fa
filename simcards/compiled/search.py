"""What every game's ``search`` strategy shares: the determinized Monte-Carlo loop itself,
written once (``make_search``), with the common-samples bookkeeping and the choice of a move,
compiled.

A determinized Monte-Carlo search (strategies/<game>/search.py) plays every candidate move
on the same sampled deals with the same game stream, so the candidates differ by the move
alone; their *paired* differences against a default move (the rollout strategy's choice)
have far less variance than their values. A noisy argmax over many moves picks a lucky one
often, so a candidate replaces the default only when its mean lead, paired over the
samples, exceeds ``margin`` standard errors (Five Alive probe: margin 1 beat margin 0 by
two points at the same budget; strategies/five_alive/search.py).

The loop is a template: ``make_search`` takes a game's hooks (its default move, its candidate
moves, its per-decision setup, its re-deal, its rollout step and policy, its value) and returns
that game's compiled search, as simcards.codegen.kernels writes one game loop for every game's
engine. The hooks are closure variables of the compiled functions, not arguments: numba types a
closure variable as a constant, as it does a module global, so each game's loop compiles as a
copy written out in its own module would (the copies it replaced made the same moves, bit for
bit), and the kernel that links it is cached as before (simcards.compiled.engine.memory_accessors makes a
game's accessors the same way). A function taking other functions as arguments, by contrast, is
compiled again in every process (no cache), which the kernels avoid. The kernel's key follows an
edit of the template or of a hook: a game's search.py imports this module, and the key hashes
every file the kernel reaches through imports (simcards.codegen.sources).

A rollout hands its state and generators to the engine and to the rollout strategy at every
turn, so two things the kernels already do matter as much here. The buffers are borrowed
views (``rollout_buffers``), and the rollout loop (``play_on`` in ``make_search``), the game's
step and the function that asks the rollout strategy for a move, and the strategies themselves
are compiled without reference counting (simcards.config: INTERNAL_NJIT_FLAGS,
STRATEGY_NJIT_OPTIONS; ``ROLLOUT_HOOK_NJIT_OPTIONS`` below); the end point is scored in a separate
function that may allocate. With it, numba's atomic NRT_incref/NRT_decref around every call was
about 30% of Five Alive's search CPU (experiments/perf_kernel.py), and once the loop had lost it,
still 12-17% in the move function, which had been compiled first for ``search_move`` (which
allocates) and so kept it (Thirty-One's search 18% faster without). A state is copied for every
candidate of every sample with simcards.engine.copy_into, not a slice assignment (another 20%).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simcards.compiled.borrow import borrow, keep_alive
from simcards.compiled.config import FORCEINLINE_NJIT_OPTIONS, INTERNAL_NJIT_FLAGS, NJIT_OPTIONS
from simcards.compiled.engine import copy_into
from simcards.compiled.link_only import WRAPPERLESS, linked
from simcards.compiled.rng import next_u64

#: salt between a rollout's game generator and its strategy generator
STRATEGY_SALT = np.uint64(0x5DEECE66D)


@njit(**NJIT_OPTIONS)
def private_stream(rng):
    """A private generator for one decision, seeded by one draw from the strategy stream
    ``rng`` (uint64[1]); the game's deal stream is never touched."""
    local = np.empty(1, np.uint64)
    local[0] = next_u64(rng)
    return local


@njit(**NJIT_OPTIONS)
def seed_rollout(g0, grng, srng):
    """Seed a rollout's game and strategy generators from one number ``g0``: common samples
    give every candidate move the same ``g0``."""
    grng[0] = g0
    srng[0] = g0 ^ STRATEGY_SALT


#: rows of a tally (``new_tally``): a sample's values, their sums, the sums of the paired
#: differences against the default and of their squares, and whether a candidate is still
#: played (1) or was dropped by ``race`` (0)
VALS, SUM_V, SUM_D, SUM_D2, ACTIVE = 0, 1, 2, 3, 4
#: samples before ``race`` may drop a candidate: fewer give standard errors too rough to trust
RACE_MIN_SAMPLES = 16


@njit(**NJIT_OPTIONS)
def new_tally(nk):
    """Zeroed running sums for ``nk`` candidates, all of them in play; a sample writes its
    values into row ``VALS``."""
    tally = np.zeros((5, nk), np.float64)
    tally[ACTIVE, :] = 1.0
    return tally


@njit(**NJIT_OPTIONS)
def rollout_buffers(size):
    """A rollout's scratch: ``owner``, then the re-deal's, game's and strategies' generators
    (uint64[1] each), the re-dealt state ``w`` and the state ``x`` a candidate is played on
    (``size`` int64s).

    The five are borrowed views (simcards.borrow) of the arrays in ``owner`` (why: this
    module's docstring). The caller ends with ``keep_alive(owner)``, after the last use of a
    view."""
    states = np.empty(2 * size, np.int64)
    rngs = np.empty(3, np.uint64)
    return ((states, rngs), borrow(rngs[0:1]), borrow(rngs[1:2]), borrow(rngs[2:3]),
            borrow(states[:size]), borrow(states[size:]))


@njit(**NJIT_OPTIONS)
def index_of(moves, move):
    """The position of ``move`` in ``moves`` (0 if absent): where the default candidate sits."""
    for j in range(moves.shape[0]):
        if moves[j] == move:
            return j
    return 0


@njit(**NJIT_OPTIONS)
def accumulate(tally, jdef):
    """Add the sample in row ``VALS`` (a value per candidate in play) to the running sums:
    values, and differences against candidate ``jdef`` (the default) with their squares."""
    vd = tally[VALS, jdef]
    for j in range(tally.shape[1]):
        if tally[ACTIVE, j] != 0.0:
            d = tally[VALS, j] - vd
            tally[SUM_V, j] += tally[VALS, j]
            tally[SUM_D, j] += d
            tally[SUM_D2, j] += d * d


@njit(**NJIT_OPTIONS)
def _paired_se(tally, j, samples):
    """Mean paired lead of candidate ``j`` over the default, and its standard error."""
    mean = tally[SUM_D, j] / samples
    se = 0.0
    if samples > 1:
        var = (tally[SUM_D2, j] - samples * mean * mean) / (samples - 1)
        se = np.sqrt(max(var, 0.0) / samples)
    return mean, se


@njit(**NJIT_OPTIONS)
def race(tally, jdef, samples, z):
    """Drop every candidate whose paired lead over the default is below zero by more than
    ``z`` standard errors (after ``RACE_MIN_SAMPLES`` samples; ``z`` 0: never); returns how
    many candidates are still in play. A dropped candidate could only have replaced the
    default by leading it, so the budget it would have used goes to the close ones (racing,
    as in successive rejects); the default is never dropped."""
    active = 0
    for j in range(tally.shape[1]):
        if tally[ACTIVE, j] == 0.0:
            continue
        if z > 0.0 and j != jdef and samples >= RACE_MIN_SAMPLES:
            mean, se = _paired_se(tally, j, samples)
            if mean + z * se < 0.0:
                tally[ACTIVE, j] = 0.0
                continue
        active += 1
    return active


@njit(**NJIT_OPTIONS)
def keep_sampling(samples, spent, active, budget):
    """Whether to draw another sample: always a first one; then while the ``active``
    candidates still fit in the ``budget`` of rollouts (``spent`` so far), and more than the
    default is in play (once ``race`` has dropped every other one, the answer is fixed)."""
    return samples == 0 or (active > 1 and spent + active <= budget)


@njit(**NJIT_OPTIONS)
def paired_choice(tally, samples, jdef, margin):
    """The candidate to play: the best mean among those in play if it leads the default
    ``jdef`` by more than ``margin`` standard errors of the paired difference, else ``jdef``.
    (Candidates in play have all been played on every one of the ``samples``.)"""
    best = jdef
    for j in range(tally.shape[1]):
        if tally[ACTIVE, j] != 0.0 and tally[SUM_V, j] > tally[SUM_V, best]:
            best = j
    if best == jdef:
        return jdef
    mean, se = _paired_se(tally, best, samples)
    if mean > margin * se:
        return best
    return jdef


@njit(**NJIT_OPTIONS)
def win_share(seat_out, n, seat):
    """``seat``'s share of the win from a game's result rows (column 0: 1 for a winner):
    1 / the number of winners if it is one of them (ties shared), else 0."""
    if seat_out[seat, 0] == 0:
        return 0.0
    winners = 0
    for p in range(n):
        winners += seat_out[p, 0]
    return 1.0 / winners


# ------------------------------------------------------------------ the loop, written once
#: What a game's ``step`` returns instead of a decision: the game is over (the engines' DONE,
#: also a turn cap's stop), or the rollout reached the game's evaluation point (the end of a
#: round, a horizon) with the game going on.
END, AT_EVAL = np.int64(-1), np.int64(-2)
#: ``z`` for a game whose search does not race (it draws ``max(1, budget // n)`` samples:
#: ``make_search``)
NO_RACE = 0.0
#: Options for the hooks the search calls once per decision or per sample (``default_move``,
#: ``n_candidates``, ``candidate``, ``redeal``): inlined by LLVM into the search, so that a hook
#: that only hands over to the game's own functions costs no call, as when the loop called them;
#: and without a wrapper (nothing but the search calls a hook), so that what a hook calls is
#: compiled as when the search called it: a function compiled first for one with a wrapper is
#: flagged as a clone's and optimized on its own besides in its callers (simcards.link_only),
#: which gave Crazy Eights' re-deal other code (a third larger).
HOOK_NJIT_OPTIONS: dict = {**FORCEINLINE_NJIT_OPTIONS, **WRAPPERLESS}
#: ...and for ``step`` and ``rollout_move``, which the rollout loop calls at every turn: inlined
#: as well, and without reference counting, as the loop itself (this module's docstring).
ROLLOUT_HOOK_NJIT_OPTIONS: dict = {**FORCEINLINE_NJIT_OPTIONS, **INTERNAL_NJIT_FLAGS}
#: ...and for ``prepare``, once per decision: it allocates, so reference counting stays on;
#: without a wrapper, as the other hooks.
PREPARE_NJIT_OPTIONS: dict = {**NJIT_OPTIONS, **WRAPPERLESS}


def make_search(*, default_move, n_candidates, candidate, prepare, redeal, step, rollout_move,
                value):
    """A game's determinized Monte-Carlo search, compiled from this template and the game's hooks.

    The returned function, ``search(s, seat, rng, kind, budget, margin, z, oracle, args)``,
    is the move ``seat`` makes at decision ``kind`` of state ``s`` (read only where the seat may
    look; not modified). ``rng`` is the strategy stream (uint64[1]); ``budget`` the rollouts
    per decision, shared by the candidates; ``margin`` the paired standard errors by which a
    candidate must lead the default (``paired_choice``); ``z`` the race's (``race``; 0: never
    drop a candidate); ``oracle`` 1 rolls out on copies of the true state instead of re-deals
    (the skill index's information ceiling); ``args`` a tuple of the game's own parameters,
    handed to the hooks as it is. It is ``@linked``: kernels link it, Python calls a twin
    (simcards.link_only). Per decision:

    1. ``default = default_move(s, seat, kind, rng, args)``: the rollout strategy's move on the
       real view (it may draw on ``rng``, before anything else does). With fewer than two
       candidates (``n_candidates(s, seat, kind, args)``; a game returns 0 for a decision it
       does not search), that is the move.
    2. The candidates ``candidate(s, seat, kind, j, args)``, j < n; one draw from ``rng``
       seeds a private generator (``private_stream``); ``prepare(s, seat, kind, args)`` returns
       ``(rctx, vctx, keep)``: what the rollouts need (an evaluation point fixed at the
       decision: the round under way, a horizon's turn), what the value needs (result buffers,
       a memo, a table), with any fallback of the evaluation decided once here, and the owners
       of the arrays ``vctx`` holds as borrowed views (simcards.compiled.borrow), kept alive to
       the end of the search. The value is called at every rollout, and numba increfs and
       decrefs every array it is handed, or takes out of a tuple, with an atomic operation: a
       borrowed view costs nothing (Crazy Eights' search was 2% slower with owned buffers).
    3. Samples while ``keep_sampling``: the re-deal ``redeal(s, seat, w, drng, args)`` writes a
       state the seat cannot tell from ``s`` into ``w`` (a copy of ``s`` under ``oracle``); then
       every candidate still in the race is played on a copy of it with the same game and
       strategy generators (common samples, ``seed_rollout``): ``step(x, grng, k, m, rctx)``
       applies move ``m`` to decision ``k`` and advances to the next decision, which it returns,
       or returns ``END`` or ``AT_EVAL``; ``rollout_move(x, k, srng, rctx)`` is the rollout
       strategy's move at decision ``k`` of ``x``. ``value(x, seat, at_eval, vctx)`` scores
       where the rollout stopped (``at_eval``: at the evaluation point, else at the end of the
       game) for ``seat``. The sums are ``accumulate``'s, then ``race`` may drop candidates.
    4. The move: ``paired_choice``.

    Samples: with ``z`` > 0 racing spends the budget on the close candidates (Five Alive). With
    ``z`` 0 no candidate is ever dropped, so ``keep_sampling`` draws ``max(1, budget // n)``
    samples of all n candidates, exactly as a fixed count does (n >= 2: it goes on while
    ``(samples + 1) * n <= budget``, and always takes a first): a game with no ``race``
    parameter passes 0 and draws the samples, and the numbers, it drew before there was a
    template (tests/core/test_search_tally.py).

    Compiled as: ``search`` with reference counting (it allocates); the rollout loop without
    it, on borrowed buffers; ``value`` with it, since a value may allocate. The hooks' options:
    ``HOOK_NJIT_OPTIONS`` and ``ROLLOUT_HOOK_NJIT_OPTIONS``; ``prepare`` ``PREPARE_NJIT_OPTIONS``,
    ``value`` ``NJIT_OPTIONS``. Typed values only (``np.int64``): a literal argument compiles a function
    once more (simcards.config, "Literal arguments").
    """

    @njit(**NJIT_OPTIONS, **INTERNAL_NJIT_FLAGS)
    def play_on(x, grng, srng, kind, move, rctx):
        """Play ``move`` at decision ``kind`` of ``x``, then play on with the rollout strategy in
        every seat to the evaluation point or the end of the game; True at the evaluation point.
        ``step`` is called at one place, so that the loop holds the game's inlined turn once
        (as the kernel's loop does, simcards.codegen.kernels)."""
        k, m = kind, move
        while True:
            k = step(x, grng, k, m, rctx)
            if k < 0:
                return k == AT_EVAL
            m = rollout_move(x, k, srng, rctx)

    @linked(**NJIT_OPTIONS)     # kernels link it; Python calls a twin (simcards.link_only)
    def search(s, seat, rng, kind, budget, margin, z, oracle, args):
        default = default_move(s, seat, kind, rng, args)
        nk = n_candidates(s, seat, kind, args)
        if nk <= 1:
            return default
        moves = np.empty(nk, np.int64)
        for j in range(nk):
            moves[j] = candidate(s, seat, kind, j, args)
        jdef = index_of(moves, default)
        # a private generator: one draw from the strategy stream seeds every deal and rollout
        local = private_stream(rng)
        owner, drng, grng, srng, w, x = rollout_buffers(s.shape[0])
        rctx, vctx, keep = prepare(s, seat, kind, args)
        tally = new_tally(nk)
        samples, spent, active = np.int64(0), np.int64(0), nk    # typed: not literals (simcards.config)
        # without a race (z 0) no candidate is ever dropped, and ``race`` would return nk: the
        # searches whose rollouts are cheapest (Thirty-One's, under a microsecond) skip its pass
        # over the candidates after every sample and the check before every rollout
        races = z > 0.0
        while keep_sampling(samples, spent, active, budget):
            drng[0] = next_u64(local)
            if oracle != 0:
                # the information ceiling: the true deal itself (drng was still drawn, so
                # oracle=0 draws exactly what it drew before the parameter existed)
                copy_into(w, s)
            else:
                redeal(s, seat, w, drng, args)
            g0 = next_u64(local)
            for j in range(nk):
                if races and tally[ACTIVE, j] == 0.0:
                    continue                    # dropped by the race
                copy_into(x, w)
                seed_rollout(g0, grng, srng)    # common samples: the same draws for every move
                at_eval = play_on(x, grng, srng, kind, moves[j], rctx)
                tally[VALS, j] = value(x, seat, at_eval, vctx)
            accumulate(tally, jdef)
            samples += 1
            spent += active
            if races:
                active = race(tally, jdef, samples, z)
        choice = moves[paired_choice(tally, samples, jdef, margin)]
        keep_alive(owner)               # the rollout buffers' views are borrowed
        keep_alive(keep)                # and so are the value's buffers
        return choice

    return search


# ------------------------------------------------------------------ hooks many games share
def policy_default(view, policy, rollout_at: int):
    """The ``default_move`` of a game whose rollout policy ``policy(v, kind, rng, rollout)``
    takes a view ``v = view(s, seat)`` and the rollout strategy's number, ``args[rollout_at]``:
    that policy's move on the real view."""

    @njit(**HOOK_NJIT_OPTIONS)
    def default_move(s, seat, kind, rng, args):
        return policy(view(s, seat), kind, rng, args[rollout_at])

    return default_move


def legal_candidates(view, n_legal, legal_move):
    """``n_candidates`` and ``candidate`` for a game whose view lists its legal moves
    (``n_legal(v)``, ``legal_move(v, j)``, ``v = view(s, seat)``): every legal move is a
    candidate, at every decision."""

    @njit(**HOOK_NJIT_OPTIONS)
    def n_candidates(s, seat, kind, args):
        return n_legal(view(s, seat))

    @njit(**HOOK_NJIT_OPTIONS)
    def candidate(s, seat, kind, j, args):
        return legal_move(view(s, seat), j)

    return n_candidates, candidate


def plain_redeal(redeal):
    """The ``redeal`` hook of a game whose re-deal ``redeal(s, seat, w, drng)`` takes nothing
    of the search's parameters."""

    @njit(**HOOK_NJIT_OPTIONS)
    def hook(s, seat, w, drng, args):
        redeal(s, seat, w, drng)

    return hook


@njit(inline="always", **NJIT_OPTIONS)     # called with a game's constants: inlined, no literal compile
def result_buffers(rows, seat_width, game_width):
    """Zeroed result buffers for ``result_share``, for a game's ``prepare``: ``(owners, seat_out,
    game_out)``, ``seat_out`` (``rows`` x ``seat_width``) and ``game_out`` borrowed views of the
    arrays in ``owners``, which ``prepare`` returns in its ``keep`` (``make_search``)."""
    seat_out = np.zeros((rows, seat_width), np.int64)
    game_out = np.zeros(game_width, np.int64)
    return (seat_out, game_out), borrow(seat_out), borrow(game_out)


def result_share(write_result, unfinished: int, n_at: int, shared: bool = True):
    """A game's value at the end of its game, for ``make_search``'s ``value``:
    ``share(x, seat, seat_out, game_out)``, the seat's share of the win from the engine's own
    ranking (``write_result`` into the result buffers ``seat_out`` and ``game_out``, which the
    game's ``prepare`` makes once per decision, ``result_buffers``; ``win_share``: ties shared; with ``shared``
    False, the seat's win column as it is, for a game with no shared wins), or 0 when
    ``x[unfinished]`` says a cap stopped the game; ``x[n_at]`` is the player count."""

    @njit(**NJIT_OPTIONS)
    def share(x, seat, seat_out, game_out):
        if x[unfinished] != 0:
            return 0.0
        n = x[n_at]
        write_result(x, seat_out[:n], game_out)
        if shared:
            return win_share(seat_out, n, seat)
        return float(seat_out[seat, 0])

    return share
