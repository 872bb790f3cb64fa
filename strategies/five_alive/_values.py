"""What the end of a round is worth to a seat, from everyone's lives: the search's evaluations.

- ``model_value`` (eval 1): exact dynamic programming of a model of the rest of the game,
  in which every round one survivor, uniformly at random, wins and every other survivor
  loses a life.
- the value table (eval 2): the chance that a seat wins the game from the end of a round,
  counted from simulated games with the rollout strategy in every seat (``build_table``),
  each state's count shrunk toward the model by ``PRIOR_GAMES`` pseudo-games. simcards
  builds it once per rule set, player count and rollout strategy, caches it on disk and
  hands it to the compiled search behind the seat's parameter values (simcards.tables).

A table is float64: ``[lives0, n_players, value of state 0, value of state 1, ...]``, a
state being (own lives, the others' lives as a multiset); ``table_index`` numbers them.
``lives0`` is the most lives a seat starts with: the lives option, or more for a seat that
seat compensation (the lives_seat* options) gives extra lives.
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

import numpy as np
from numba import njit, types
from numba.typed import Dict

from simcards.config import NJIT_OPTIONS, default_threads
from simcards.games.five_alive.fast import (advance, apply, most_lives, new_state, start_game,
                                            write_result)
from simcards.games.five_alive.rules import MAX_PLAYERS, P
from simcards.games.five_alive.view import (BLITZ, LIVES, LIVES0, N, OVER, ROUNDS, SEAT_LIVES,
                                            UNFINISHED)
from simcards.rng import STREAM_DEAL, STREAM_STRATEGY, seed_game
from ._rollout import rollout_move

#: The table's games: seed and count. 200,000 four-player games visit the states a search
#: meets at the default rules hundreds to hundreds of thousands of times each (the standard
#: error of a common state's value is well under a point); they take ~2 s of CPU.
TABLE_SEED = 14
TABLE_GAMES = 200_000
#: Weight of the model in a state's value, in games: value = (wins + PRIOR_GAMES * model) /
#: (visits + PRIOR_GAMES). A Beta prior centred on the model, so a rarely visited state
#: keeps close to the model and a common one is the count's alone; see build_table.
#: Chosen by measurement (default rules, 4 and 6 players): against a table of 1,000,000
#: games, a 200,000-game table's visit-weighted RMS error was 0.0032 / 0.0031 / 0.0031 /
#: 0.0030 at 2 / 8 / 32 / 128 pseudo-games with 4 players, 0.0049 / 0.0047 / 0.0047 / 0.0052
#: with 6 (the model alone: 0.028 and 0.030). 32 is best or next to best at both.
PRIOR_GAMES = 32.0
#: Values before the states: the table's lives and player count (a table for other rules
#: is never read: the search falls back to the model)
HEADER = 2
#: Largest table built (entries); above it eval 2 is eval 1. Four players: up to 27 lives;
#: seven players: up to 10.
MAX_ENTRIES = 1 << 17
#: Win shares are counted in 1/420ths: 420 is divisible by every number of tied winners 1..7,
#: so the counts are integers, exact and independent of the order they are summed in.
SHARE_UNIT = 420
_CHUNK = 10_000


# ------------------------------------------------------------------ the lives model (eval 1)
@njit(**NJIT_OPTIONS)
def _others_lives(x, seat, scratch):
    """The lives of every seat but ``seat``, in seat order, written into ``scratch``'s upper
    half (2 * MAX_PLAYERS int64s: a rollout's end allocates nothing); returns that half."""
    others = scratch[MAX_PLAYERS:]
    c = 0
    for q in range(x[N]):
        if q != seat:
            others[c] = x[LIVES + q]
            c += 1
    return others


@njit(**NJIT_OPTIONS)
def round_value(x, seat, memo, scratch):
    """The model's chance that ``seat`` wins from the lives in ``x`` (a round just ended).
    ``scratch``: 2 * MAX_PLAYERS int64s, so that a rollout's end allocates nothing."""
    others = _others_lives(x, seat, scratch)
    return model_value(x[LIVES + seat], others, x[N] - 1, x[BLITZ] != 0, memo, scratch[:MAX_PLAYERS])


@njit(**NJIT_OPTIONS)
def _sort_into(others, k, srt):
    """``others[:k]`` sorted ascending into ``srt`` (an insertion sort of at most 6 values,
    no allocation)."""
    for i in range(k):
        v = others[i]
        j = i
        while j > 0 and srt[j - 1] > v:
            srt[j] = srt[j - 1]
            j -= 1
        srt[j] = v


@njit(**NJIT_OPTIONS)
def _key(m, others, k, srt):
    """Memo key of a state: own lives, then the others' lives sorted (the model is symmetric
    among the others). Lives are at most 99 (rules: the lives option), so base 100 fits."""
    _sort_into(others, k, srt)
    key = m
    for i in range(k):
        key = key * 100 + srt[i]
    return key


@njit(**NJIT_OPTIONS)
def _end_value(m, others, k, blitz):
    """The model's value of a state where its game is over (own ``m`` lives, the others'
    ``others[:k]``), or -1.0 while it goes on. Blitz: the game ends when anyone is out; the
    most lives win, ties shared."""
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
    return -1.0


@njit(**NJIT_OPTIONS)
def _next_state(m, others, k, c, out):
    """The state after the round that survivor ``c`` wins, into ``out`` (own lives, then the
    others'): ``c == 0`` is the seat itself, so every other survivor loses a life; ``c >= 1``
    is the other ``c - 1``, so the seat and every other survivor but it lose one. False when
    ``c - 1`` is out (no such winner)."""
    if c > 0 and others[c - 1] == 0:
        return False
    out[0] = m if c == 0 else m - 1
    for j in range(k):
        out[1 + j] = others[j] if j == c - 1 else max(others[j] - 1, 0)
    return True


@njit(**NJIT_OPTIONS)
def model_value(m, others, k, blitz, memo, srt):
    """Chance that a seat with ``m`` lives wins against ``k`` others with ``others[:k]`` lives
    if every round one survivor, uniformly at random, wins and every other survivor loses a
    life (rules 9-11: the round winner costs the others a life; busts and Killers, which
    cost one player a life, are what the rollout itself played out). Blitz: the game ends
    when anyone is out; the most lives win, ties shared.

    Dynamic programming on an explicit stack, memoized in ``memo`` (keyed by ``_key``). Not a
    recursive function: numba 0.68 refuses to compile a self-recursive function called from
    Python ("compiler re-entrant to the same function signature"). The stack visits the
    states in the order a recursion would (a state's next states one after the other, each
    finished before the next is begun) and sums them in that order: a memoized state's value
    depends, in its last bits, on the seat order it was first met in, so another order would
    give other bits."""
    v = _end_value(m, others, k, blitz)
    if v >= 0.0:
        return v
    key = _key(m, others, k, srt)
    if key in memo:
        return memo[key]
    # a row: own lives, the others' lives (MAX_PLAYERS - 1), the next state to visit
    nc = MAX_PLAYERS
    total = m
    for i in range(k):
        total += others[i]
    # every round costs a life: a path is at most `total` rounds deep
    stack = np.empty((total + 2, MAX_PLAYERS + 1), np.int64)
    stack[0, 0] = m
    stack[0, 1:1 + k] = others[:k]
    stack[0, nc] = 0
    sp = 1
    nxt = np.empty(MAX_PLAYERS + 1, np.int64)
    while sp > 0:
        cur = stack[sp - 1]
        pushed = False
        while cur[nc] <= k:
            c = cur[nc]
            cur[nc] += 1
            if (_next_state(cur[0], cur[1:], k, c, nxt) and _end_value(nxt[0], nxt[1:], k, blitz) < 0.0
                    and _key(nxt[0], nxt[1:], k, srt) not in memo):
                stack[sp, :k + 1] = nxt[:k + 1]
                stack[sp, nc] = 0
                sp += 1
                pushed = True
                break
        if pushed:
            continue
        # every next state is known: the value, summed in the recursion's order
        v = 0.0
        a = 0
        for c in range(k + 1):
            if _next_state(cur[0], cur[1:], k, c, nxt):
                a += 1
                w = _end_value(nxt[0], nxt[1:], k, blitz)
                v += w if w >= 0.0 else memo[_key(nxt[0], nxt[1:], k, srt)]
        memo[_key(cur[0], cur[1:], k, srt)] = v / a
        sp -= 1
    return memo[key]


# ------------------------------------------------------------------ the value table (eval 2)
@njit(**NJIT_OPTIONS)
def _binom(a, r):
    """C(a, r), exact in int64 for the sizes here (each step's product divides exactly)."""
    if r < 0 or a < r:
        return 0
    out = 1
    for i in range(r):
        out = out * (a - i) // (i + 1)
    return out


def table_entries(n: int, lives0: int) -> int:
    """States of a table: own lives 0..lives0 times multisets of n - 1 lives 0..lives0."""
    return (lives0 + 1) * _binom(lives0 + n - 1, n - 1)


@njit(**NJIT_OPTIONS)
def table_index(m, others, k, lives0, srt):
    """Position of the state (own ``m`` lives, others ``others[:k]``) among the table's
    values: own lives major, then the others' sorted lives a_0 <= .. <= a_{k-1} ranked in
    the combinatorial number system (b_i = a_i + i is a k-subset of 0..lives0+k-1)."""
    _sort_into(others, k, srt)
    rank = 0
    for i in range(k):
        rank += _binom(srt[i] + i, i + 1)
    return m * _binom(lives0 + k, k) + rank


@njit(**NJIT_OPTIONS)
def table_value(x, seat, table, scratch):
    """The table's chance that ``seat`` wins from the lives in ``x`` (a round just ended)."""
    others = _others_lives(x, seat, scratch)
    return table[HEADER + table_index(x[LIVES + seat], others, x[N] - 1, _most_lives_in(x),
                                      scratch[:MAX_PLAYERS])]


@njit(**NJIT_OPTIONS)
def _most_lives_in(s):
    """The most lives a seat of the state's game started with (fast.most_lives from the
    state's copy of the rules: the lives option and the seats' extra lives)."""
    top = s[LIVES0]
    for p in range(1, s[N]):
        top = max(top, s[LIVES0] + s[SEAT_LIVES + p - 1])
    return top


@njit(**NJIT_OPTIONS)
def table_fits(s, table):
    """Whether ``table`` was built for the rules in ``s`` (its lives and player count)."""
    return table.shape[0] > HEADER and table[0] == _most_lives_in(s) and table[1] == s[N]


@njit(**NJIT_OPTIONS)
def count_round_ends(n, game_params, rollout, seed, first, count, wins, visits):
    """Play games first..first+count-1 of ``seed`` with the rollout strategy in every seat,
    seeded as the kernel seeds them (simcards.kernels), and count, for every state a seat is
    in at the end of a round (where the search's rollouts stop: the first turn boundary
    after the round counter moved, the game not over), a visit and, at the game's end, the
    seat's win share in SHARE_UNITs (ties shared; an unfinished game is no one's)."""
    s = new_state(n, game_params)
    grng = np.zeros(1, np.uint64)
    srng = np.zeros(1, np.uint64)
    seat_out = np.zeros((MAX_PLAYERS, 4), np.int64)
    game_out = np.zeros(4, np.int64)
    lives0 = most_lives(n, game_params)
    # every round end costs someone a life: at most n * lives0 of them; room to spare
    seen = np.empty((n * lives0 + 16, n), np.int64)
    others = np.empty(MAX_PLAYERS, np.int64)
    srt = np.empty(MAX_PLAYERS, np.int64)
    for g in range(first, first + count):
        seed_game(grng, seed, g, STREAM_DEAL)
        seed_game(srng, seed, g, STREAM_STRATEGY)
        start_game(s, grng)
        rounds = s[ROUNDS]
        r = 0
        while True:
            if s[ROUNDS] != rounds and s[OVER] == 0:
                rounds = s[ROUNDS]
                if r < seen.shape[0]:
                    for p in range(n):
                        c = 0
                        for q in range(n):
                            if q != p:
                                others[c] = s[LIVES + q]
                                c += 1
                        seen[r, p] = table_index(s[LIVES + p], others, n - 1, lives0, srt)
                    r += 1
            k = advance(s, grng)
            if k < 0:
                break
            apply(s, grng, k, rollout_move(s, srng, rollout))
        write_result(s, seat_out[:n], game_out)
        winners = 0
        for p in range(n):
            winners += seat_out[p, 0]
        for i in range(r):
            for p in range(n):
                visits[seen[i, p]] += 1
                if seat_out[p, 0] != 0 and s[UNFINISHED] == 0:
                    wins[seen[i, p]] += SHARE_UNIT // winners


@njit(**NJIT_OPTIONS)
def model_table(n, lives0, blitz, out):
    """The model's value of every state, in table order, into ``out``."""
    k = n - 1
    memo = Dict.empty(key_type=types.int64, value_type=types.float64)
    srt = np.empty(MAX_PLAYERS, np.int64)
    a = np.zeros(MAX_PLAYERS, np.int64)
    b = np.empty(MAX_PLAYERS, np.int64)
    while True:       # every nondecreasing a[:k] in 0..lives0, as an odometer
        for m in range(lives0 + 1):
            b[:] = a
            out[table_index(m, b, k, lives0, srt)] = model_value(m, a, k, blitz != 0, memo, srt)
        i = k - 1
        while i >= 0 and a[i] == lives0:
            i -= 1
        if i < 0:
            return
        a[i] += 1
        for j in range(i + 1, k):
            a[j] = a[i]


def count_table(n: int, game_params: np.ndarray, rollout: int, games: int = TABLE_GAMES,
                seed: int = TABLE_SEED, threads: int | None = None, chunk: int = _CHUNK,
                count=count_round_ends) -> tuple[np.ndarray, np.ndarray]:
    """(win shares in SHARE_UNITs, visits) of every state over ``games`` simulated games, on
    threads in chunks; integer counts, so the same whatever the threads, the chunks or the
    order they finish in. ``count``: count_round_ends, or a cached entry point calling it
    (simcards.tables.compiled_entries)."""
    size = table_entries(n, int(most_lives(n, game_params)))
    chunks = [(lo, min(chunk, games - lo)) for lo in range(0, games, chunk)]

    def work(chunk):
        wins = np.zeros(size, np.int64)
        visits = np.zeros(size, np.int64)
        count(n, game_params, rollout, seed, chunk[0], chunk[1], wins, visits)
        return wins, visits

    wins = np.zeros(size, np.int64)
    visits = np.zeros(size, np.int64)
    with ThreadPoolExecutor(max_workers=threads or default_threads()) as pool:
        for w, v in pool.map(work, chunks):
            wins += w
            visits += v
    return wins, visits


def build_table(n: int, game_params: np.ndarray, rollout: int, games: int = TABLE_GAMES,
                seed: int = TABLE_SEED, prior_games: float = PRIOR_GAMES,
                threads: int | None = None, compiled=None) -> np.ndarray:
    """The value table (module docstring) for ``n`` players and the engine's rule row
    ``game_params``, from ``games`` games with rollout strategy ``rollout`` in every seat.

    A state's value is its observed win share shrunk toward the lives model:
    ``(wins + prior_games * model) / (visits + prior_games)``, the mean of a Beta prior
    centred on the model and worth ``prior_games`` games, updated by the counts. A state
    the games never reach is the model's; one visited thousands of times is the games'.
    Deterministic: a fixed seed, integer counts, then one float expression per state.
    ``compiled``: cached entry points of ``ENTRIES`` (simcards.tables), else these functions.
    """
    fns = compiled or SimpleNamespace(count_round_ends=count_round_ends, model_table=model_table)
    lives0 = int(most_lives(n, game_params))
    wins, visits = count_table(n, game_params, rollout, games, seed, threads,
                               count=fns.count_round_ends)
    model = np.empty(wins.shape[0], np.float64)
    fns.model_table(n, lives0, int(game_params[P.blitz]), model)
    values = (wins / SHARE_UNIT + prior_games * model) / (visits + prior_games)
    return np.concatenate([np.array([lives0, n], np.float64), values])


#: The compiled functions build_table calls: simcards.tables caches them on disk.
ENTRIES = (count_round_ends, model_table)
