"""Five Alive, compiled: the whole game as numba functions over a few arrays.

The generated kernel (simcards.kernels) drives a game with ``start_game``,
``advance`` (forced play until a strategy must decide), ``view_play``,
``is_legal``, ``apply`` and ``write_result``. Random draws happen in exactly the
order of the reference engine (reference.py), which tests replay against.

The state is one StructRef allocated per batch and reset per game, so the
game loop allocates nothing.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit, types
from numba.experimental import structref

from simcards.config import NJIT_OPTIONS
from simcards.games.five_alive.rules import (
    DRAW1, DRAW2, KILLER, LIFE, LIMIT, N_KINDS, N_NUMBERS, P_BLITZ, P_COUNTS, P_DECK, P_HAND,
    P_LIVES, P_TURN_CAP, PASS, REDEAL, REVERSE, SET0, SET10, SET21, SKIP)
from simcards.rng import shuffle

# ---- decision kinds (GameSpec.decisions order) and result columns
PLAY = 0
DONE = -1
SEAT_COLS = 4   # win, rank, lives, dealt_mask
GAME_COLS = 4   # rounds, turns, busts, unfinished


@structref.register
class StateType(types.StructRef):
    def preprocess_fields(self, fields):
        return tuple((name, types.unliteral(t)) for name, t in fields)


class State(structref.StructRefProxy):
    """One game's whole state; a StructRef so that calls pass one pointer, not many arrays."""


_FIELDS = (
    "n", "total", "direction", "cur", "dealer", "turns", "rounds", "busts", "stock_n", "pile_n",
    "alive_n", "over", "unfinished",                 # scalars
    "params", "lives", "out_at", "hands", "hand_n",  # arrays: lives[p], hands[p, kind] ...
    "stock", "pile", "pile_counts", "scratch", "dealt")
structref.define_proxy(State, StateType, list(_FIELDS))

#: What a strategy sees when it must play a card (rule file, "What a strategy sees").
#: Arrays are the engine's own: a strategy reads them and must not write them.
View = namedtuple("View", ["seat", "hand", "total", "direction", "lives", "hand_sizes",
                           "pile_counts", "stock_size", "n_players"])


@njit(**NJIT_OPTIONS)
def new_state(n, params):
    d = params[P_DECK]
    z = np.int64(0)
    return State(n, z, z, z, z, z, z, z, z, z, z, z, z, params,
                 np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros((n, N_KINDS), np.int64),
                 np.zeros(n, np.int64), np.zeros(d, np.int64), np.zeros(d, np.int64),
                 np.zeros(N_KINDS, np.int64), np.zeros(d, np.int64), np.zeros(n, np.int64))


@njit(**NJIT_OPTIONS)
def next_alive(st, p, d):
    # a compare beats the integer division of `%` on the hottest path
    n = st.n
    q = p
    while True:
        q += d
        if q >= n:
            q = 0
        elif q < 0:
            q = n - 1
        if st.lives[q] > 0:
            return q


@njit(**NJIT_OPTIONS)
def _push_pile(st, card):
    st.pile[st.pile_n] = card
    st.pile_n += 1
    st.pile_counts[card] += 1


@njit(**NJIT_OPTIONS)
def start_game(st, rng):
    n = st.n
    st.lives[:] = st.params[P_LIVES]
    st.out_at[:] = -1
    st.alive_n = n
    st.turns = 0
    st.rounds = 0
    st.busts = 0
    st.over = 0
    st.unfinished = 0
    st.dealer = n - 1
    start_round(st, rng)
    for p in range(n):
        mask = 0
        for k in range(N_KINDS):
            if st.hands[p, k] > 0:
                mask |= 1 << k
        st.dealt[p] = mask


@njit(**NJIT_OPTIONS)
def start_round(st, rng):
    """Gather every card in canonical order (kinds ascending), shuffle, deal one at a time."""
    pos = 0
    for k in range(N_KINDS):
        for _ in range(st.params[P_COUNTS + k]):
            st.stock[pos] = k
            pos += 1
    st.hands[:, :] = 0
    st.hand_n[:] = 0
    st.pile_counts[:] = 0
    st.pile_n = 0
    shuffle(st.stock, pos, rng)
    top = pos
    dealer = st.dealer
    for _ in range(st.params[P_HAND]):
        p = dealer
        for _ in range(st.alive_n):
            p = next_alive(st, p, 1)
            top -= 1
            st.hands[p, st.stock[top]] += 1
            st.hand_n[p] += 1
    st.stock_n = top
    st.total = 0
    st.direction = 1
    st.cur = next_alive(st, dealer, 1)
    st.rounds += 1


@njit(**NJIT_OPTIONS)
def _refill_stock(st, rng):
    """Rule 8: the pile's top card stays, the rest is shuffled into a new stock."""
    m = st.pile_n - 1
    if m <= 0:
        return
    for i in range(m):
        st.stock[i] = st.pile[i]
    top = st.pile[m]
    st.pile[0] = top
    st.pile_n = 1
    st.pile_counts[:] = 0
    st.pile_counts[top] = 1
    st.stock_n = m
    shuffle(st.stock, m, rng)


@njit(**NJIT_OPTIONS)
def _draw(st, rng, q):
    if st.stock_n == 0:
        _refill_stock(st, rng)
        if st.stock_n == 0:
            return
    st.stock_n -= 1
    st.hands[q, st.stock[st.stock_n]] += 1
    st.hand_n[q] += 1


@njit(**NJIT_OPTIONS)
def _eliminate(st, p):
    """Rule 10: out at once; the hand goes to the bottom of the stock, kinds ascending."""
    st.out_at[p] = st.turns
    st.alive_n -= 1
    c = st.hand_n[p]
    if c > 0:
        for i in range(st.stock_n - 1, -1, -1):
            st.stock[i + c] = st.stock[i]
        pos = 0
        for k in range(N_KINDS):
            for _ in range(st.hands[p, k]):
                st.stock[pos] = k
                pos += 1
            st.hands[p, k] = 0
        st.stock_n += c
        st.hand_n[p] = 0


@njit(**NJIT_OPTIONS)
def _lose_life(st, p):
    st.lives[p] -= 1
    if st.lives[p] == 0:
        _eliminate(st, p)


@njit(**NJIT_OPTIONS)
def _game_over(st):
    """Rule 10 (one player left) and rule 11 (blitz: anyone at 0 lives)."""
    if st.alive_n == 1 or (st.params[P_BLITZ] != 0 and st.alive_n < st.n):
        st.over = 1
        return True
    return False


@njit(**NJIT_OPTIONS)
def _next_round(st, rng):
    st.dealer = next_alive(st, st.dealer, 1)
    start_round(st, rng)


@njit(**NJIT_OPTIONS)
def _others_lose_life(st, p, d):
    q = next_alive(st, p, d)
    while q != p:
        _lose_life(st, q)
        q = next_alive(st, q, d)


@njit(**NJIT_OPTIONS)
def _round_won(st, rng, p):
    """Rule 9: the last card's effect is not resolved; every other survivor loses a life."""
    _others_lose_life(st, p, st.direction)
    if not _game_over(st):
        _next_round(st, rng)


@njit(**NJIT_OPTIONS)
def _round_emptied(st, rng, p):
    """Rule 9a: someone ran out of cards without playing; holders of cards lose a life."""
    d = st.direction
    q = p
    for _ in range(st.alive_n):
        q = next_alive(st, q, d)
        if st.hand_n[q] > 0:
            _lose_life(st, q)
    if not _game_over(st):
        _next_round(st, rng)


@njit(**NJIT_OPTIONS)
def has_legal(st, p):
    h = st.hands[p]
    for k in range(N_NUMBERS, N_KINDS):
        if h[k] > 0:
            return True
    room = LIMIT - st.total
    for k in range(min(room, N_NUMBERS - 1) + 1):
        if h[k] > 0:
            return True
    return False


@njit(**NJIT_OPTIONS)
def _bust(st, p):
    """Rule 5: no legal card: lose a life, keep the hand, total back to 0."""
    st.turns += 1
    st.busts += 1
    st.total = 0
    _lose_life(st, p)
    if not _game_over(st):
        st.cur = next_alive(st, p, st.direction)


@njit(**NJIT_OPTIONS)
def advance(st, rng):
    """Play forced turns (busts) until a strategy must choose a card; DONE when the game ends."""
    while True:
        if st.over != 0:
            return DONE
        if st.turns >= st.params[P_TURN_CAP]:
            st.over = 1
            st.unfinished = 1
            return DONE
        p = st.cur
        if has_legal(st, p):
            return PLAY
        _bust(st, p)


@njit(**NJIT_OPTIONS)
def decider(st):
    return st.cur


@njit(**NJIT_OPTIONS)
def view_play(st):
    p = st.cur
    return View(p, st.hands[p], st.total, st.direction, st.lives, st.hand_n, st.pile_counts,
                st.stock_n, st.n)


@njit(**NJIT_OPTIONS)
def is_legal(st, kind, card):
    if kind != PLAY or card < 0 or card >= N_KINDS:
        return False
    if st.hands[st.cur, card] == 0:
        return False
    return card >= N_NUMBERS or st.total + card <= LIMIT


@njit(**NJIT_OPTIONS)
def apply(st, rng, kind, card):
    p = st.cur
    d = st.direction
    st.hands[p, card] -= 1
    st.hand_n[p] -= 1
    _push_pile(st, card)
    st.turns += 1
    if st.hand_n[p] == 0:
        _round_won(st, rng, p)
        return
    nxt = -1
    if card < N_NUMBERS:
        st.total += card
    elif card == DRAW1 or card == DRAW2:
        k = 1 if card == DRAW1 else 2
        q = next_alive(st, p, d)
        while q != p:
            for _ in range(k):
                _draw(st, rng, q)
            q = next_alive(st, q, d)
    elif card == SKIP:
        nxt = next_alive(st, next_alive(st, p, d), d)
    elif card == REVERSE:
        if st.alive_n > 2:
            d = -d
            st.direction = d
    elif card == SET21:
        st.total = 21
    elif card == SET10:
        st.total = 10
    elif card == SET0:
        st.total = 0
    elif card == KILLER:
        st.total = 0
        emptied = False
        q = next_alive(st, p, d)
        while q != p:
            if st.hands[q, 0] > 0:
                st.hands[q, 0] -= 1
                st.hand_n[q] -= 1
                _push_pile(st, 0)
                if st.hand_n[q] == 0:
                    emptied = True
            else:
                _lose_life(st, q)
            q = next_alive(st, q, d)
        if _game_over(st):
            return
        if emptied:
            _round_emptied(st, rng, p)
            return
    elif card == LIFE:
        _others_lose_life(st, p, d)
        if _game_over(st):
            return
    elif card == REDEAL:
        st.total = 0
        _redeal(st, rng, p, d)
        for q in range(st.n):
            if st.lives[q] > 0 and st.hand_n[q] == 0:
                _round_emptied(st, rng, p)
                return
    # PASS has no effect
    st.cur = next_alive(st, p, d) if nxt < 0 else nxt


@njit(**NJIT_OPTIONS)
def _redeal(st, rng, p, d):
    """Gather all hands (kinds ascending), shuffle, deal from the top starting after p."""
    m = 0
    for k in range(N_KINDS):
        c = 0
        for q in range(st.n):
            c += st.hands[q, k]
            st.hands[q, k] = 0
        for _ in range(c):
            st.scratch[m] = k
            m += 1
    st.hand_n[:] = 0
    shuffle(st.scratch, m, rng)
    q = p
    for i in range(m):
        q = next_alive(st, q, d)
        st.hands[q, st.scratch[m - 1 - i]] += 1
        st.hand_n[q] += 1


@njit(**NJIT_OPTIONS)
def write_result(st, seat_out, game_out):
    """seat_out[p] = (win, rank, lives, dealt_mask); game_out = (rounds, turns, busts, unfinished)."""
    n = st.n
    blitz = st.params[P_BLITZ] != 0
    unfinished = st.unfinished != 0
    key = np.empty(n, np.int64)
    for p in range(n):
        if unfinished:
            key[p] = st.lives[p]
        elif blitz:
            s = 0
            for k in range(N_NUMBERS):
                s += k * st.hands[p, k]
            key[p] = st.lives[p] * (1 << 24) - s
        else:
            key[p] = (1 << 40) if st.lives[p] > 0 else st.out_at[p]
    for p in range(n):
        better = 0
        for q in range(n):
            if key[q] > key[p]:
                better += 1
        seat_out[p, 0] = 1 if (better == 0 and not unfinished) else 0
        seat_out[p, 1] = better + 1
        seat_out[p, 2] = st.lives[p]
        seat_out[p, 3] = st.dealt[p]
    game_out[0] = st.rounds
    game_out[1] = st.turns
    game_out[2] = st.busts
    game_out[3] = st.unfinished


@njit(**NJIT_OPTIONS)
def snapshot_size(n, params):
    return 11 + n + n * N_KINDS + 2 * params[P_DECK]


@njit(**NJIT_OPTIONS)
def snapshot(st, out):
    """Everything that defines the state, in the layout reference.Game.snapshot() uses."""
    head = (st.cur, st.direction, st.total, st.dealer, st.turns, st.rounds, st.busts, st.over,
            st.unfinished, st.stock_n, st.pile_n)
    i = 0
    for x in head:
        out[i] = x
        i += 1
    n = st.n
    for p in range(n):
        out[i] = st.lives[p]
        i += 1
    for p in range(n):
        for k in range(N_KINDS):
            out[i] = st.hands[p, k]
            i += 1
    d = st.params[P_DECK]
    for j in range(d):
        out[i + j] = st.stock[j] if j < st.stock_n else -1
    i += d
    for j in range(d):
        out[i + j] = st.pile[j] if j < st.pile_n else -1
