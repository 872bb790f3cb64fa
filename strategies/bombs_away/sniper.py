"""Start duels only against the weakest opponent (or one a duel can knock out); aim every 5 and 9 at the leader.

The seed's duel hits the player after the answerer, so a duel card waits until
that seat holds the fewest points among the opponents or at most 9; meanwhile
5s and 9s rob the leader and cheap cards go first. In the pagat duel the
sniper knocks out whoever it can, else hits the leader. An 8 names the duel
rank most likely in the next hand when that duel would hit someone else
(4 or more players): it spends their defender. A duel answer is the game's default
(simcards/games/bombs_away/defaults.py).
"""
import numpy as np
from numba import njit

from simcards.config import INLINED_STRATEGY_NJIT_OPTIONS, NJIT_OPTIONS
from simcards.params import slot
from simcards.games.bombs_away.view import allowed, card, damage, held, n_players, on_pile, points
from simcards.games.bombs_away.rules import (ACE, EIGHT, FIRST_DUEL, FIVE, FOUR, JACK, JOKER, KING,
                                             LAST_DUEL, NINE, QUEEN, SEVEN, SIX, TEN, THREE, TWO)
from ._kit import (alive_count, first_legal, my_duel_victim, opponent_most_points, rarest_name,
                   standard_name)

DUEL_CARDS = (KING, QUEEN, JACK, TEN)
CHEAP = (FIVE, NINE, SEVEN, FOUR, THREE, TWO, EIGHT, ACE)
LAST = (TEN, JACK, QUEEN, KING, SIX, JOKER)

#: Run-time parameters (simcards.params), literal so that listing needs no import.
PARAMS = {
    "knockout": (9, 0, 40, "duel a victim holding this many points or fewer, weakest or not"),
    "weakest": (1, 0, 1, "1: also duel the victim when it holds the fewest points"),
    "spend_from": (4, 2, 6, "name the rarest duel rank with an 8 from this many players in"),
}
_KNOCKOUT = slot(PARAMS, "knockout")
_WEAKEST = slot(PARAMS, "weakest")
_SPEND_FROM = slot(PARAMS, "spend_from")


@njit(**NJIT_OPTIONS)
def _weakest(view, v):
    """Seat v has the fewest points among the decider's opponents still in."""
    for q in range(n_players(view)):
        if q != view.seat and points(view, q) > 0 and points(view, q) < points(view, v):
            return False
    return True


@njit(**INLINED_STRATEGY_NJIT_OPTIONS)
def play(view, rng, params):
    v = my_duel_victim(view)
    if v != view.seat and (points(view, v) <= np.int64(params[_KNOCKOUT])
                           or (params[_WEAKEST] != 0 and _weakest(view, v))):
        for k in DUEL_CARDS:
            if allowed(view, k):
                return k
    for k in CHEAP:
        if allowed(view, k):
            return k
    return first_legal(view, LAST)


@njit(**INLINED_STRATEGY_NJIT_OPTIONS)
def extra(view, rng, params):
    return play(view, rng, params)


@njit(**INLINED_STRATEGY_NJIT_OPTIONS)
def name_rank(view, rng, params):
    if card(view) == EIGHT:
        if alive_count(view) >= np.int64(params[_SPEND_FROM]):
            best = KING
            seen = 99
            for k in range(FIRST_DUEL, LAST_DUEL + 1):
                c = held(view, k) + on_pile(view, k)
                if c < seen:
                    seen = c
                    best = k
            return best
        return rarest_name(view)
    return standard_name(view)


@njit(**INLINED_STRATEGY_NJIT_OPTIONS)
def target(view, rng):
    if damage(view) > 0:   # pagat duel: knock out the strongest opponent the damage can finish
        best = -1
        for q in range(n_players(view)):
            if allowed(view, q) and points(view, q) <= damage(view) and (
                    best < 0 or points(view, q) > points(view, best)):
                best = q
        if best >= 0:
            return best
    return opponent_most_points(view)
