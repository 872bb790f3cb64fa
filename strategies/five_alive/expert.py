"""Combine the heuristics: go out when possible, attack a near-empty opponent, keep a 0 against the Killer, shed high numbers, leave the total high.

Order of concerns: (1) if my last card is legal, play it and win the round;
(2) if an opponent holds two cards or fewer, make them draw or take their
lives; (3) play the highest number that fits, but keep the last 0 while the
Killer is unseen; (4) otherwise an action that leaves the total high for the
next player (hold_actions' order).
"""
import numpy as np
from numba import njit

from simcards.config import INLINED_STRATEGY_NJIT_OPTIONS
from simcards.games.five_alive.rules import KILLER
from simcards.games.five_alive.view import held, legal_move, on_pile
from simcards.params import slot
from ._kit import cards_held, first_held, highest_number, opponent_near_out
from .hold_actions import ACTION_ORDER
from .pressure_draw import ATTACKS

#: Run-time parameters (simcards.params), literal values so that listing needs no import:
#: ``expert:danger=3:keep_zeros=0`` on the command line. (The order of the action cards is
#: hold_actions', whose parameters reorder it.)
PARAMS = {
    "danger": (2, 0, 9, "attack when an opponent holds this many cards or fewer (pressure_draw: 2)"),
    "keep_zeros": (1, 0, 3, "zeros kept back while the Killer has not been played"),
}
_DANGER = slot(PARAMS, "danger")
_KEEP = slot(PARAMS, "keep_zeros")


@njit(**INLINED_STRATEGY_NJIT_OPTIONS)
def decide(view, rng, params):
    if cards_held(view) == 1:
        k = legal_move(view, 0)
        if k >= 0:
            return k
    if opponent_near_out(view, np.int64(params[_DANGER])):
        a = first_held(view, ATTACKS)
        if a >= 0:
            return a
    keep = np.int64(params[_KEEP]) if on_pile(view, KILLER) == 0 else 0
    k = highest_number(view, 1)
    if k >= 0:
        return k
    if held(view, 0) > keep:
        return 0
    a = first_held(view, ACTION_ORDER)
    if a >= 0:
        return a
    return 0
