"""Vzhukh, compiled: the whole game as numba functions over one StructRef.

The generated kernel (simcards.kernels) drives a game with ``start_game``,
``advance`` (forced passes and takes until a strategy must decide),
``view_attack`` / ``view_defend``, ``is_legal``, ``apply`` and ``write_result``.
Random draws happen in exactly the order of the reference engine
(reference.py: one shuffle per round), which tests replay against.

The stack in play always holds cards of one rank: it is (stack_kind, stack_n).
The discard pile is never reshuffled, so it is kept as counts per kind.
The state is allocated once per batch and reset per game: the game loop
allocates nothing.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit, types
from numba.experimental import structref

from simcards.config import NJIT_OPTIONS
from simcards.games.vzhukh.rules import (
    ATTACK, BEAT, JOKER, KRABLE, N_KINDS, N_NUMBERS, P_ACTION_CAP, P_COUNTS, P_DECK, P_HAND,
    P_JOKER_PENALTY, ROUNDS, TRANSFER, VOILA, VZHUKH)
from simcards.rng import shuffle

# ---- decision kinds (GameSpec.decisions order) and result columns
ATTACK_DECISION = 0
DEFEND_DECISION = 1
DONE = -1
SEAT_COLS = 2 + 1 + ROUNDS + 3   # win, rank, penalty, penalty per round, takes, jokers_left, dealt_mask
GAME_COLS = 6                    # rounds, actions, passes, takes, jokers_left, unfinished
HEAD = 14                        # scalars at the start of a snapshot


@structref.register
class StateType(types.StructRef):
    def preprocess_fields(self, fields):
        return tuple((name, types.unliteral(t)) for name, t in fields)


class State(structref.StructRefProxy):
    """One game's whole state; a StructRef so that calls pass one pointer, not many arrays."""


_FIELDS = (
    "n", "cur", "phase", "direction", "stack_kind", "stack_n", "round", "actions", "passes",
    "takes", "round_steps", "passes_in_row", "over", "unfinished", "stock_n",
    "hand_size", "cap", "joker_penalty", "deck",                          # scalars
    "params", "hands", "hand_n", "discard", "stock", "penalty", "round_pen", "takes_by",
    "jokers_left", "dealt")                                              # arrays
structref.define_proxy(State, StateType, list(_FIELDS))

#: What a strategy sees (rule file, "What a strategy sees"), for both decisions.
#: ``stack_kind`` is -1 and ``stack_count`` 0 when attacking. Arrays are the
#: engine's own: a strategy reads them and must not write them.
View = namedtuple("View", ["seat", "hand", "stack_kind", "stack_count", "discard", "hand_sizes",
                           "penalties", "stock_size", "direction", "round", "n_players"])


@njit(**NJIT_OPTIONS)
def new_state(n, params):
    d = params[P_DECK]
    z = np.int64(0)
    return State(n, z, z, z, z, z, z, z, z, z, z, z, z, z, z,
                 params[P_HAND], params[P_ACTION_CAP], params[P_JOKER_PENALTY], d,
                 params, np.zeros((n, N_KINDS), np.int64), np.zeros(n, np.int64),
                 np.zeros(N_KINDS, np.int64), np.zeros(d, np.int64), np.zeros(n, np.int64),
                 np.zeros((n, ROUNDS), np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64),
                 np.zeros(n, np.int64))


@njit(**NJIT_OPTIONS)
def next_player(st, p):
    # a compare beats the integer division of `%` on the hot path
    q = p + st.direction
    if q >= st.n:
        return 0
    if q < 0:
        return st.n - 1
    return q


@njit(**NJIT_OPTIONS)
def start_game(st, rng):
    n = st.n
    st.penalty[:] = 0
    st.round_pen[:, :] = 0
    st.takes_by[:] = 0
    st.jokers_left[:] = 0
    st.round = 0
    st.actions = 0
    st.passes = 0
    st.takes = 0
    st.over = 0
    st.unfinished = 0
    start_round(st, rng)
    for p in range(n):
        mask = 0
        for k in range(N_KINDS):
            if st.hands[p, k] > 0:
                mask |= 1 << k
        st.dealt[p] = mask


@njit(**NJIT_OPTIONS)
def start_round(st, rng):
    """Rule 2: every card in canonical order (kinds ascending), shuffled, dealt one at a time
    from the round's first attacker (seat round mod n) clockwise."""
    pos = 0
    for k in range(N_KINDS):
        for _ in range(st.params[P_COUNTS + k]):
            st.stock[pos] = k
            pos += 1
    st.hands[:, :] = 0
    st.hand_n[:] = 0
    st.discard[:] = 0
    st.stack_kind = -1
    st.stack_n = 0
    shuffle(st.stock, pos, rng)
    n = st.n
    first = st.round
    while first >= n:
        first -= n
    top = pos
    for _ in range(st.hand_size):
        p = first
        for _ in range(n):
            top -= 1
            st.hands[p, st.stock[top]] += 1
            st.hand_n[p] += 1
            p += 1
            if p == n:
                p = 0
    st.stock_n = top
    st.direction = 1
    st.cur = first
    st.phase = ATTACK_DECISION
    st.round_steps = 0
    st.passes_in_row = 0


@njit(**NJIT_OPTIONS)
def _add_penalty(st, p, points):
    st.penalty[p] += points
    st.round_pen[p, st.round] += points


@njit(**NJIT_OPTIONS)
def _stack_to_discard(st):
    if st.stack_n > 0:
        st.discard[st.stack_kind] += st.stack_n
    st.stack_kind = -1
    st.stack_n = 0


@njit(**NJIT_OPTIONS)
def _end_round(st, rng):
    """Rule 12: the stack is discarded without penalty; jokers in hand cost joker_penalty each.
    Rule 13: three rounds make the game."""
    _stack_to_discard(st)
    for p in range(st.n):
        j = st.hands[p, VOILA] + st.hands[p, KRABLE] + st.hands[p, VZHUKH]
        if j > 0:
            st.jokers_left[p] += j
            _add_penalty(st, p, j * st.joker_penalty)
    st.round += 1
    if st.round == ROUNDS:
        st.over = 1
    else:
        start_round(st, rng)


@njit(**NJIT_OPTIONS)
def _finish_action(st, rng, p):
    """Rules 11-12: count the action, draw back up to hand_size, end the round on an empty stock."""
    st.actions += 1
    st.round_steps += 1
    hs = st.hand_size
    while st.hand_n[p] < hs and st.stock_n > 0:
        st.stock_n -= 1
        st.hands[p, st.stock[st.stock_n]] += 1
        st.hand_n[p] += 1
    if st.stock_n == 0:
        _end_round(st, rng)


@njit(**NJIT_OPTIONS)
def has_number(st, p):
    for k in range(N_NUMBERS):
        if st.hands[p, k] > 0:
            return True
    return False


@njit(**NJIT_OPTIONS)
def can_defend(st, p):
    """Rules 4-8: a joker, a card of the stack's rank, or a rank worth more than the stack."""
    if st.hands[p, VOILA] + st.hands[p, KRABLE] + st.hands[p, VZHUKH] > 0:
        return True
    sk = st.stack_kind
    if st.hands[p, sk] > 0:
        return True
    s = (sk + 1) * st.stack_n
    for k in range(N_NUMBERS - 1, -1, -1):
        if (k + 1) * st.hands[p, k] > s:
            return True
    return False


@njit(**NJIT_OPTIONS)
def _take(st, rng, p):
    """Rule 10: the stack's sum is p's penalty, its cards are discarded, the next player attacks."""
    _add_penalty(st, p, (st.stack_kind + 1) * st.stack_n)
    _stack_to_discard(st)
    st.takes += 1
    st.takes_by[p] += 1
    st.cur = next_player(st, p)
    st.phase = ATTACK_DECISION
    _finish_action(st, rng, p)


@njit(**NJIT_OPTIONS)
def advance(st, rng):
    """Play forced steps (passes, takes) until a strategy must decide; DONE when the game ends."""
    while True:
        if st.over != 0:
            return DONE
        if st.round_steps >= st.cap:                      # rule 14
            st.over = 1
            st.unfinished = 1
            return DONE
        p = st.cur
        if st.phase == ATTACK_DECISION:
            if has_number(st, p):
                return ATTACK_DECISION
            # rule 3: no number card: pass the attack on
            st.passes += 1
            st.round_steps += 1
            st.passes_in_row += 1
            if st.passes_in_row >= st.n:
                _end_round(st, rng)
            else:
                st.cur = next_player(st, p)
        else:
            if can_defend(st, p):
                return DEFEND_DECISION
            _take(st, rng, p)


@njit(**NJIT_OPTIONS)
def decider(st):
    return st.cur


@njit(**NJIT_OPTIONS)
def _view(st):
    p = st.cur
    return View(p, st.hands[p], st.stack_kind, st.stack_n, st.discard, st.hand_n, st.penalty,
                st.stock_n, st.direction, st.round, st.n)


@njit(**NJIT_OPTIONS)
def view_attack(st):
    return _view(st)


@njit(**NJIT_OPTIONS)
def view_defend(st):
    return _view(st)


@njit(**NJIT_OPTIONS)
def is_legal(st, kind, move):
    if kind != st.phase or move < 0:
        return False
    action = move >> 9
    card = (move >> 5) & 15
    count = move & 31
    p = st.cur
    if kind == ATTACK_DECISION:
        return action == ATTACK and card < N_NUMBERS and 1 <= count <= st.hands[p, card]
    if action == TRANSFER:
        return card == st.stack_kind and 1 <= count <= st.hands[p, card]
    if action == BEAT:
        return (card < N_NUMBERS and 1 <= count <= st.hands[p, card]
                and (card + 1) * count > (st.stack_kind + 1) * st.stack_n)
    if action == JOKER:
        return (card == VOILA or card == KRABLE or card == VZHUKH) and count == 1 \
            and st.hands[p, card] > 0
    return False


@njit(**NJIT_OPTIONS)
def apply(st, rng, kind, move):
    p = st.cur
    action = move >> 9
    card = (move >> 5) & 15
    count = move & 31
    if action == ATTACK:                                  # rule 3
        st.hands[p, card] -= count
        st.hand_n[p] -= count
        st.stack_kind = card
        st.stack_n = count
        st.passes_in_row = 0
        st.cur = next_player(st, p)
        st.phase = DEFEND_DECISION
    elif action == TRANSFER:                              # rule 4
        st.hands[p, card] -= count
        st.hand_n[p] -= count
        st.stack_n += count
        st.cur = next_player(st, p)
    elif action == BEAT:                                  # rule 5
        st.hands[p, card] -= count
        st.hand_n[p] -= count
        st.discard[card] += count
        _stack_to_discard(st)
        st.phase = ATTACK_DECISION
    else:                                                 # rules 6-9: a joker
        st.hands[p, card] -= 1
        st.hand_n[p] -= 1
        st.discard[card] += 1
        if card == VOILA:                                 # rule 6
            st.direction = -st.direction
        elif card == KRABLE:                              # rule 7
            half = st.stack_n >> 1
            _add_penalty(st, p, half * (st.stack_kind + 1))
            st.discard[st.stack_kind] += half
            st.stack_n -= half
        else:                                             # rule 8
            sk = st.stack_kind
            if st.discard[sk] > 0:
                st.discard[sk] -= 1
                st.stack_n += 1
        st.cur = next_player(st, p)
    _finish_action(st, rng, p)


@njit(**NJIT_OPTIONS)
def write_result(st, seat_out, game_out):
    """seat_out[p] = (win, rank, penalty, penalty per round x3, takes, jokers_left, dealt_mask);
    game_out = (rounds, actions, passes, takes, jokers_left, unfinished)."""
    n = st.n
    unfinished = st.unfinished != 0
    jokers = 0
    for p in range(n):
        better = 0
        for q in range(n):
            if st.penalty[q] < st.penalty[p]:
                better += 1
        seat_out[p, 0] = 1 if (better == 0 and not unfinished) else 0
        seat_out[p, 1] = better + 1
        seat_out[p, 2] = st.penalty[p]
        for r in range(ROUNDS):
            seat_out[p, 3 + r] = st.round_pen[p, r]
        seat_out[p, 3 + ROUNDS] = st.takes_by[p]
        seat_out[p, 4 + ROUNDS] = st.jokers_left[p]
        seat_out[p, 5 + ROUNDS] = st.dealt[p]
        jokers += st.jokers_left[p]
    game_out[0] = st.round
    game_out[1] = st.actions
    game_out[2] = st.passes
    game_out[3] = st.takes
    game_out[4] = jokers
    game_out[5] = st.unfinished


@njit(**NJIT_OPTIONS)
def snapshot_size(n, params):
    return HEAD + n * (3 + ROUNDS) + n * N_KINDS + N_KINDS + params[P_DECK]


@njit(**NJIT_OPTIONS)
def snapshot(st, out):
    """Everything that defines the state, in the layout reference.Game.snapshot() uses."""
    head = (st.cur, st.phase, st.direction, st.stack_kind, st.stack_n, st.round, st.actions,
            st.passes, st.takes, st.round_steps, st.passes_in_row, st.over, st.unfinished,
            st.stock_n)
    i = 0
    for x in head:
        out[i] = x
        i += 1
    n = st.n
    for p in range(n):
        out[i] = st.penalty[p]
        i += 1
    for p in range(n):
        for r in range(ROUNDS):
            out[i] = st.round_pen[p, r]
            i += 1
    for p in range(n):
        out[i] = st.takes_by[p]
        i += 1
    for p in range(n):
        out[i] = st.jokers_left[p]
        i += 1
    for p in range(n):
        for k in range(N_KINDS):
            out[i] = st.hands[p, k]
            i += 1
    for k in range(N_KINDS):
        out[i] = st.discard[k]
        i += 1
    for j in range(st.deck):
        out[i + j] = st.stock[j] if j < st.stock_n else -1
