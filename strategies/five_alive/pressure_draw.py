"""Attack the leader: when an opponent is close to emptying their hand, make everyone draw or take lives.

A player with one or two cards left is about to win the round and cost
everyone else a life. Draw 2 / Draw 1 refill that hand; Life and Killer take
lives directly. Otherwise play like high_first and keep those cards for the
moment they matter.
"""
import numpy as np
from numba import njit

from simcards.config import STRATEGY_NJIT_OPTIONS
from simcards.params import slot
from simcards.games.five_alive.rules import DRAW1, DRAW2, KILLER, LIFE
from ._kit import first_held, highest_number, opponent_near_out
from .high_first import ACTION_ORDER

ATTACKS = (DRAW2, DRAW1, LIFE, KILLER)
#: Run-time parameters (simcards.params), literal so that listing needs no import.
PARAMS = {"danger": (2, 0, 9, "attack when an opponent holds this many cards or fewer")}
_DANGER = slot(PARAMS, "danger")


@njit(**STRATEGY_NJIT_OPTIONS)
def decide(view, rng, params):
    if opponent_near_out(view, np.int64(params[_DANGER])):
        a = first_held(view, ATTACKS)
        if a >= 0:
            return a
    k = highest_number(view)
    if k >= 0:
        return k
    return first_held(view, ACTION_ORDER)
