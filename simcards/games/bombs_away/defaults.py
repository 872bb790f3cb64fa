"""The decisions most Bombs Away strategies answer alike: a strategy that leaves out
``name_rank``, ``target`` or ``answer`` gets these (simcards.registry.Decision.default).

- ``name_rank``: an 8 names A; a joker given as a duel answer is named 10 (full value);
  a played joker is named K (a duel).
- ``target``: the opponent with the most points (the lowest seat among equals).
- ``answer``: the duel answer worth most when the decider would lose the points itself
  (or the duel's starter chooses the victim), else the one worth least (the most damage).

The strategies' kit (strategies/bombs_away/_kit.py) exports the same functions under
the names strategies combine them by.
"""
import numpy as np
from numba import njit

from simcards.compiled.config import NJIT_OPTIONS
from simcards.games.bombs_away.rules import (ACE, EIGHT, JACK, JOKER, KING, N_KINDS, QUEEN, SIX,
                                             TEN, VALUE)
from simcards.games.bombs_away.view import allowed, card, duel_from, n_players, points, victim

_VALUE = np.array(VALUE, np.int64)


# ------------------------------------------------------------------ helpers
@njit(**NJIT_OPTIONS)
def answer_value(kind):
    """A card's worth as a duel answer: a 6 copies the duel card, the joker can be a 10."""
    if kind == SIX or kind == JOKER:
        return 10
    return _VALUE[kind]


@njit(**NJIT_OPTIONS)
def answer_high(view):
    """The allowed answer worth most: a duel card, then a 6 (it copies the duel card), the joker last."""
    for k in (TEN, JACK, QUEEN, KING, SIX, JOKER):
        if allowed(view, k):
            return k
    best = -1
    bv = -1
    for k in range(N_KINDS):
        if allowed(view, k) and answer_value(k) > bv:
            bv = answer_value(k)
            best = k
    return best


@njit(**NJIT_OPTIONS)
def answer_low(view):
    """The allowed answer worth least: the most damage to the victim."""
    best = -1
    bv = 99
    for k in range(N_KINDS):
        if allowed(view, k) and answer_value(k) < bv:
            bv = answer_value(k)
            best = k
    return best


@njit(**NJIT_OPTIONS)
def opponent_most_points(view):
    """The allowed seat with the most points (the lowest seat among equals)."""
    best = -1
    for q in range(n_players(view)):
        if allowed(view, q) and (best < 0 or points(view, q) > points(view, best)):
            best = q
    return best


@njit(**NJIT_OPTIONS)
def standard_name(view):
    """A joker given as an answer is named 10 (full value); a played joker K (a duel); an 8 ACE."""
    if card(view) == EIGHT:
        return ACE
    if duel_from(view) >= 0:
        return TEN
    return KING


@njit(**NJIT_OPTIONS)
def standard_answer(view):
    """Full value when the decider would lose the points (or the starter chooses); else least."""
    if victim(view) == view.seat or victim(view) < 0:
        return answer_high(view)
    return answer_low(view)


# ------------------------------------------------------------------ the defaults
@njit(**NJIT_OPTIONS)
def name_rank(view, rng):
    return standard_name(view)


@njit(**NJIT_OPTIONS)
def target(view, rng):
    return opponent_most_points(view)


@njit(**NJIT_OPTIONS)
def answer(view, rng):
    return standard_answer(view)
