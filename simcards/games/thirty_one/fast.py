"""Thirty-One with keys, compiled: the whole game as numba functions over one StructRef.

The generated kernel (simcards.kernels) drives a game with ``start_game``,
``advance`` (forced steps until a strategy must decide), ``view_turn`` /
``view_vote``, ``is_legal``, ``apply`` and ``write_result``. Random draws happen
in exactly the order of the reference engine (reference.py), which the tests
replay against; hands and the middle are kept sorted by card id in both.

Hands are scored by one load from ``rules.SCORE_TABLE`` (the public scorer's
answer for every ordered triple), so a strategy weighing nine swaps does nine
loads. The state is allocated once per batch and reset per game: the game loop
allocates nothing.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit, types
from numba.experimental import structref

from simcards.config import NJIT_OPTIONS
from simcards.games.thirty_one.rules import (
    ACE_OF_CLUBS, C31, C33, KNOCK, N_CARDS, N_RANKS, P_AS_IT_LIES, P_BANK, P_KEYS,
    P_ROUND_CAP, P_TURN_CAP, PASS, PROPOSE, SCORE_TABLE)
from simcards.rng import shuffle

# ---- decision kinds (GameSpec.decisions order), phases and result columns
TURN = 0
VOTE = 1
DONE = -1
PH_TURN, PH_VOTE, PH_DEAL = 0, 1, 2     # PH_DEAL: dealt, combinations not yet checked (rule 13)
SEAT_COLS = 6   # win, rank, keys, dealt_mask, declared, proposals
GAME_COLS = 10  # rounds, turns, ends_31, ends_33, ends_678, ends_proposal, ends_cap,
#                 refreshes, rebuilds, unfinished
HEAD = 21       # scalars at the start of a snapshot

_TABLE = SCORE_TABLE


@structref.register
class StateType(types.StructRef):
    def preprocess_fields(self, fields):
        return tuple((name, types.unliteral(t)) for name, t in fields)


class State(structref.StructRefProxy):
    """One game's whole state; a StructRef so that calls pass one pointer, not many arrays."""


_FIELDS = (
    "n", "phase", "cur", "dealer", "round_turns", "turns", "rounds", "quiet", "proposer", "voter",
    "over", "unfinished", "bank", "stock_n", "discard_n", "e31", "e33", "e678", "eprop", "ecap",
    "refreshes", "rebuilds",                                     # scalars (n, then the HEAD)
    "turn_cap", "round_cap", "as_it_lies",                       # parameters as scalars
    "params", "keys", "hands", "middle", "stock", "discard", "in_discard", "votes", "dealt",
    "declared", "proposals", "vals")
structref.define_proxy(State, StateType, list(_FIELDS))

#: What a deciding seat sees (rule file, "What a strategy sees"); the same for both decisions.
#: ``hand`` and ``middle`` are sorted by card id; ``discard[:discard_n]`` is the discard pile
#: bottom first; ``in_discard[c]`` is 1 when card c lies in it; ``votes[q]`` is -1 (not asked
#: yet), 0 (refused) or 1 (accepted); ``proposer`` is -1 when no proposal is under way.
#: Arrays are the engine's own: a strategy reads them and must not write them.
View = namedtuple("View", ["seat", "n_players", "hand", "middle", "discard", "discard_n",
                           "in_discard", "stock_n", "keys", "bank", "proposer", "votes",
                           "round_turns", "quiet", "dealer", "turn_cap"])


@njit(**NJIT_OPTIONS)
def hand_code(a, b, c):
    """score + 64 * combination of three distinct cards (rules.score, precomputed)."""
    return np.int64(_TABLE[(a * N_CARDS + b) * N_CARDS + c])


@njit(**NJIT_OPTIONS)
def hand_score(a, b, c):
    return hand_code(a, b, c) & 63


@njit(**NJIT_OPTIONS)
def is_one_suit(a, b, c):
    """Rules 8-9: three cards of one suit, the ace of clubs counting as any suit."""
    s = -1
    for x in (a, b, c):
        if x != ACE_OF_CLUBS:
            t = x // N_RANKS
            if s < 0:
                s = t
            elif t != s:
                return False
    return True


@njit(**NJIT_OPTIONS)
def new_state(n, params):
    z = np.int64(0)
    return State(n, z, z, z, z, z, z, z, z, z, z, z, z, z, z, z, z, z, z, z, z, z,
                 params[P_TURN_CAP], params[P_ROUND_CAP], params[P_AS_IT_LIES], params,
                 np.zeros(n, np.int64), np.zeros((n, 3), np.int64), np.zeros(3, np.int64),
                 np.zeros(N_CARDS, np.int64), np.zeros(N_CARDS, np.int64),
                 np.zeros(N_CARDS, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64),
                 np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64))


@njit(**NJIT_OPTIONS)
def _next(st, p):
    # a compare beats the integer division of `%` on the hot path
    q = p + 1
    if q >= st.n:
        q = 0
    return q


@njit(**NJIT_OPTIONS)
def _sort3(a):
    if a[0] > a[1]:
        a[0], a[1] = a[1], a[0]
    if a[1] > a[2]:
        a[1], a[2] = a[2], a[1]
        if a[0] > a[1]:
            a[0], a[1] = a[1], a[0]


@njit(**NJIT_OPTIONS)
def start_game(st, rng):
    n = st.n
    st.keys[:] = st.params[P_KEYS]
    st.bank = st.params[P_BANK]
    st.turns = 0
    st.rounds = 0
    st.over = 0
    st.unfinished = 0
    st.e31 = 0
    st.e33 = 0
    st.e678 = 0
    st.eprop = 0
    st.ecap = 0
    st.refreshes = 0
    st.rebuilds = 0
    st.declared[:] = 0
    st.proposals[:] = 0
    st.dealer = n - 1                                      # rule 7
    _deal(st, rng)
    for p in range(n):
        mask = 0
        for i in range(3):
            mask |= 1 << st.hands[p, i]
        st.dealt[p] = mask


@njit(**NJIT_OPTIONS)
def _deal(st, rng):
    """Rule 7: all 36 cards in id order, shuffled; one card at a time from the dealer's left,
    three times round; then three cards face up in the middle; the rest is the stock."""
    stock = st.stock
    for k in range(N_CARDS):
        stock[k] = k
    shuffle(stock, N_CARDS, rng)
    top = N_CARDS
    n = st.n
    for i in range(3):
        p = st.dealer
        for _ in range(n):
            p = _next(st, p)
            top -= 1
            st.hands[p, i] = stock[top]
    for i in range(3):
        top -= 1
        st.middle[i] = stock[top]
    for p in range(n):
        _sort3(st.hands[p])
    _sort3(st.middle)
    st.stock_n = top
    st.discard_n = 0
    st.in_discard[:] = 0
    st.votes[:] = -1
    st.round_turns = 0
    st.quiet = 0
    st.proposer = -1
    st.voter = -1
    st.cur = _next(st, st.dealer)
    st.rounds += 1
    st.phase = PH_DEAL


@njit(**NJIT_OPTIONS)
def _rebuild(st, rng):
    """Rule 10: the discard pile becomes the stock, shuffled (cards in id order first) or as it lies."""
    m = st.discard_n
    if st.as_it_lies != 0:
        for i in range(m):
            st.stock[i] = st.discard[i]
    else:
        pos = 0
        for k in range(N_CARDS):
            if st.in_discard[k] != 0:
                st.stock[pos] = k
                pos += 1
        shuffle(st.stock, m, rng)
    st.in_discard[:] = 0
    st.discard_n = 0
    st.stock_n = m
    st.rebuilds += 1


@njit(**NJIT_OPTIONS)
def _draw(st, rng):
    if st.stock_n == 0:
        _rebuild(st, rng)
    st.stock_n -= 1
    return st.stock[st.stock_n]


@njit(**NJIT_OPTIONS)
def _renew_middle(st, rng):
    """Rules 9, 9a: the middle (ids ascending) goes face down; three cards from the stock replace it."""
    mid = st.middle
    for i in range(3):
        c = mid[i]
        st.discard[st.discard_n] = c
        st.discard_n += 1
        st.in_discard[c] = 1
    for i in range(3):
        mid[i] = _draw(st, rng)
    _sort3(mid)


@njit(**NJIT_OPTIONS)
def _showdown_values(st):
    """Each seat's score, a 32 counting below everything (rule 5)."""
    for p in range(st.n):
        h = st.hands[p]
        s = hand_score(h[0], h[1], h[2])
        st.vals[p] = -1 if s == 32 else s


@njit(**NJIT_OPTIONS)
def _showdown(st):
    """Rule 17: the lowest score (all tied lowest) loses one key."""
    _showdown_values(st)
    low = 99
    for p in range(st.n):
        if st.vals[p] < low:
            low = st.vals[p]
    for p in range(st.n):
        if st.vals[p] == low:
            st.keys[p] -= 1


@njit(**NJIT_OPTIONS)
def _combo(st, p):
    h = st.hands[p]
    return hand_code(h[0], h[1], h[2]) >> 6


@njit(**NJIT_OPTIONS)
def _declare(st, rng, p, combo):
    """Rules 14-16, then the end of the round."""
    st.declared[p] += 1
    if combo == C31:
        st.e31 += 1
        _showdown_values(st)
        low = 99
        for q in range(st.n):
            if q != p and st.vals[q] < low:
                low = st.vals[q]
        for q in range(st.n):
            if q != p and st.vals[q] == low:
                st.keys[q] -= 1
    else:
        gain = 3
        if combo == C33:
            st.e33 += 1
        else:
            st.e678 += 1
            gain = 1
        if gain > st.bank:
            gain = st.bank
        st.keys[p] += gain
        st.bank -= gain
        for q in range(st.n):
            if q != p and _combo(st, q) == 0:
                st.keys[q] -= 1
    _end_round(st, rng)


@njit(**NJIT_OPTIONS)
def _end_round(st, rng):
    """Rule 18: over when a player has no keys; rule 19: the round cap; else the next deal."""
    st.phase = PH_TURN
    for p in range(st.n):
        if st.keys[p] <= 0:
            st.over = 1
            return
    if st.rounds >= st.round_cap:
        st.over = 1
        st.unfinished = 1
        return
    st.dealer = _next(st, st.dealer)
    _deal(st, rng)


@njit(**NJIT_OPTIONS)
def _check_deal(st, rng):
    """Rule 13: dealt combinations, in turn order from the dealer's left; the best wins, then the first."""
    best = 0
    who = -1
    p = st.dealer
    for _ in range(st.n):
        p = _next(st, p)
        c = _combo(st, p)
        if c > best:
            best = c
            who = p
    if who >= 0:
        _declare(st, rng, who, best)
    else:
        st.phase = PH_TURN


@njit(**NJIT_OPTIONS)
def advance(st, rng):
    """Forced steps (dealt combinations, the turn cap) until a strategy must decide; DONE at the end."""
    while True:
        if st.over != 0:
            return DONE
        ph = st.phase
        if ph == PH_TURN:
            if st.round_turns >= st.turn_cap:              # rule 12
                st.ecap += 1
                _showdown(st)
                _end_round(st, rng)
                continue
            return TURN
        if ph == PH_VOTE:
            return VOTE
        _check_deal(st, rng)


@njit(**NJIT_OPTIONS)
def decider(st):
    return st.voter if st.phase == PH_VOTE else st.cur


@njit(**NJIT_OPTIONS)
def _view(st, p):
    return View(p, st.n, st.hands[p], st.middle, st.discard, st.discard_n, st.in_discard,
                st.stock_n, st.keys, st.bank, st.proposer, st.votes, st.round_turns, st.quiet,
                st.dealer, st.turn_cap)


@njit(**NJIT_OPTIONS)
def view_turn(st):
    return _view(st, st.cur)


@njit(**NJIT_OPTIONS)
def view_vote(st):
    return _view(st, st.voter)


@njit(**NJIT_OPTIONS)
def is_legal(st, kind, move):
    if st.phase == PH_VOTE:
        return kind == VOTE and (move == 0 or move == 1)
    if kind != TURN:
        return False
    h = st.hands[st.cur]
    if move == PASS or move == PROPOSE:
        return True
    if move == KNOCK:
        return is_one_suit(h[0], h[1], h[2])
    if move < 0 or move >= PASS:
        return False
    give = move >> 6
    take = move & 63
    m = st.middle
    return (h[0] == give or h[1] == give or h[2] == give) and (
        m[0] == take or m[1] == take or m[2] == take)


@njit(**NJIT_OPTIONS)
def _quiet_turn(st, rng):
    """Rule 9a: a full circle with no card changing hands refreshes the middle."""
    st.quiet += 1
    if st.quiet >= st.n:
        st.quiet = 0
        st.refreshes += 1
        _renew_middle(st, rng)


@njit(**NJIT_OPTIONS)
def _after_exchange(st, rng, p, knock):
    """A combination is declared at once (rule 13); else a one-suit middle is renewed and the
    player goes again (rule 9)."""
    c = _combo(st, p)
    if c != 0:
        _declare(st, rng, p, c)
        return
    m = st.middle
    if knock or is_one_suit(m[0], m[1], m[2]):
        _renew_middle(st, rng)
        return
    st.cur = _next(st, p)


@njit(**NJIT_OPTIONS)
def apply(st, rng, kind, move):
    if kind == VOTE:
        _vote(st, rng, move)
        return
    p = st.cur
    st.round_turns += 1
    st.turns += 1
    h = st.hands[p]
    if move < PASS:                                        # rule 8: swap one card
        give = move >> 6
        take = move & 63
        for i in range(3):
            if h[i] == give:
                h[i] = take
        m = st.middle
        for i in range(3):
            if m[i] == take:
                m[i] = give
        _sort3(h)
        _sort3(m)
        st.quiet = 0
        _after_exchange(st, rng, p, False)
    elif move == PASS:
        st.cur = _next(st, p)
        _quiet_turn(st, rng)
    elif move == KNOCK:                                    # "Кручу": both sides stay sorted
        m = st.middle
        for i in range(3):
            t = h[i]
            h[i] = m[i]
            m[i] = t
        st.quiet = 0
        _after_exchange(st, rng, p, True)
    else:                                                  # rule 11: "Выкладываем?"
        st.proposals[p] += 1
        st.proposer = p
        st.voter = _next(st, p)
        st.phase = PH_VOTE


@njit(**NJIT_OPTIONS)
def _vote(st, rng, move):
    """Rule 11: every other player is asked in turn order; all must accept."""
    q = st.voter
    st.votes[q] = move
    nq = _next(st, q)
    p = st.proposer
    if nq != p:
        st.voter = nq
        return
    accepted = True
    for r in range(st.n):
        if r != p and st.votes[r] != 1:
            accepted = False
    st.votes[:] = -1
    st.proposer = -1
    st.voter = -1
    st.phase = PH_TURN
    if accepted:
        st.eprop += 1
        _showdown(st)
        _end_round(st, rng)
        return
    st.cur = _next(st, p)
    _quiet_turn(st, rng)


@njit(**NJIT_OPTIONS)
def write_result(st, seat_out, game_out):
    """seat_out[p] = (win, rank, keys, dealt_mask, declared, proposals); game_out as GAME_COLS."""
    n = st.n
    unfinished = st.unfinished != 0
    for p in range(n):
        better = 0
        for q in range(n):
            if st.keys[q] > st.keys[p]:
                better += 1
        seat_out[p, 0] = 1 if (better == 0 and not unfinished) else 0
        seat_out[p, 1] = better + 1
        seat_out[p, 2] = st.keys[p]
        seat_out[p, 3] = st.dealt[p]
        seat_out[p, 4] = st.declared[p]
        seat_out[p, 5] = st.proposals[p]
    game_out[0] = st.rounds
    game_out[1] = st.turns
    game_out[2] = st.e31
    game_out[3] = st.e33
    game_out[4] = st.e678
    game_out[5] = st.eprop
    game_out[6] = st.ecap
    game_out[7] = st.refreshes
    game_out[8] = st.rebuilds
    game_out[9] = st.unfinished


@njit(**NJIT_OPTIONS)
def snapshot_size(n, params):
    return HEAD + 7 * n + 3 + 2 * N_CARDS


@njit(**NJIT_OPTIONS)
def snapshot(st, out):
    """Everything that defines the state, in the layout reference.Game.snapshot() uses."""
    head = (st.phase, st.cur, st.dealer, st.round_turns, st.turns, st.rounds, st.quiet,
            st.proposer, st.voter, st.over, st.unfinished, st.bank, st.stock_n, st.discard_n,
            st.e31, st.e33, st.e678, st.eprop, st.ecap, st.refreshes, st.rebuilds)
    i = 0
    for x in head:
        out[i] = x
        i += 1
    n = st.n
    for arr in (st.keys, st.declared, st.proposals, st.votes):
        for p in range(n):
            out[i] = arr[p]
            i += 1
    for p in range(n):
        for j in range(3):
            out[i] = st.hands[p, j]
            i += 1
    for j in range(3):
        out[i] = st.middle[j]
        i += 1
    for j in range(N_CARDS):
        out[i + j] = st.stock[j] if j < st.stock_n else -1
    i += N_CARDS
    for j in range(N_CARDS):
        out[i + j] = st.discard[j] if j < st.discard_n else -1
