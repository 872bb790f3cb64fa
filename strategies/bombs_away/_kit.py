"""Helpers shared by Bombs Away strategies (a view is simcards.games.bombs_away.view.View, read through its accessors).

``allowed(view, m)`` marks every allowed answer, so a strategy never has to know the
legality rules: it ranks the allowed answers and returns the best one. The game's
default decisions (simcards/games/bombs_away/defaults.py: ``standard_name``,
``opponent_most_points``, ``standard_answer``) are exported here too.
"""
from numba import njit

from simcards.config import NJIT_OPTIONS
from simcards.games.bombs_away.defaults import (  # noqa: F401  (the strategies' kit)
    answer_high, answer_low, answer_value, opponent_most_points, standard_answer, standard_name)
from simcards.games.bombs_away.view import (
    allowed, direction, held, legal_move, n_allowed, n_players, on_pile, points, top)
from simcards.games.bombs_away.rules import FIRST_DUEL, FIRST_NAME, JOKER, LAST_DUEL, LAST_NAME, SIX
from simcards.rng import rand_below


@njit(**NJIT_OPTIONS)
def uniform(view, rng):
    """A uniform choice among the allowed answers."""
    return legal_move(view, rand_below(rng, n_allowed(view)))


@njit(**NJIT_OPTIONS)
def first_legal(view, order):
    """The first allowed answer of ``order``, else the lowest allowed answer at all."""
    for m in order:
        if allowed(view, m):
            return m
    return legal_move(view, 0)


@njit(**NJIT_OPTIONS)
def is_duel(kind):
    return FIRST_DUEL <= kind <= LAST_DUEL


@njit(**NJIT_OPTIONS)
def counts_as(view, kind):
    """What a card would count as if played now (a 6 is the top card; the joker is left as is)."""
    if kind == SIX and top(view) >= 0:
        return top(view)
    return kind


@njit(**NJIT_OPTIONS)
def defenders(view):
    """Cards held that answer a duel at full value (10, J, Q, K, 6, joker)."""
    c = held(view, SIX) + held(view, JOKER)
    for k in range(FIRST_DUEL, LAST_DUEL + 1):
        c += held(view, k)
    return c


@njit(**NJIT_OPTIONS)
def opponent_fewest_points(view):
    best = -1
    for q in range(n_players(view)):
        if allowed(view, q) and (best < 0 or points(view, q) < points(view, best)):
            best = q
    return best


@njit(**NJIT_OPTIONS)
def next_seat(view, p):
    """The next player still in after p in the direction of play."""
    n = n_players(view)
    q = p
    for _ in range(n):
        q += direction(view)
        if q >= n:
            q = 0
        elif q < 0:
            q = n - 1
        if points(view, q) > 0:
            return q
    return p


@njit(**NJIT_OPTIONS)
def alive_count(view):
    c = 0
    for q in range(n_players(view)):
        if points(view, q) > 0:
            c += 1
    return c


@njit(**NJIT_OPTIONS)
def my_duel_victim(view):
    """Who would lose the points if the decider started a duel now (seed rule)."""
    b = next_seat(view, view.seat)
    if alive_count(view) == 2:
        return b
    return next_seat(view, b)


@njit(**NJIT_OPTIONS)
def rarest_name(view):
    """The nameable rank with the most copies in sight (own hand and pile): the least likely elsewhere."""
    best = FIRST_NAME
    bc = -1
    for k in range(FIRST_NAME, LAST_NAME + 1):
        c = held(view, k) + on_pile(view, k)
        if c > bc:
            bc = c
            best = k
    return best
