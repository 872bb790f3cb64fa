"""Combine the heuristics: go out when possible, attack a near-empty opponent, keep a 0 against the Killer, shed high numbers, leave the total high.

Order of concerns: (1) if my last card is legal, play it and win the round;
(2) if an opponent holds two cards or fewer, make them draw or take their
lives; (3) play the highest number that fits, but keep the last 0 while the
Killer is unseen; (4) otherwise an action that leaves the total high for the
next player (hold_actions' order).
"""
import numpy as np
from numba import njit

from simcards.config import NJIT_OPTIONS
from simcards.games.five_alive.rules import CARD_KEYS, KILLER
from simcards.games.five_alive.view import held, legal_move, on_pile
from simcards.params import slot
from ._kit import cards_held, first_held, first_held_by_priority, highest_number, opponent_near_out
from .hold_actions import ACTION_ORDER
from .pressure_draw import ATTACKS

#: Run-time parameters (simcards.params), literal values so that listing needs no import:
#: ``expert:danger=3:keep_zeros=0`` on the command line. The ``first_*`` priorities reorder
#: the action cards when one must be played: a higher priority goes first, and equal ones keep
#: hold_actions' ACTION_ORDER (all equal by default, so the default is that order).
PARAMS = {
    "danger": (2, 0, 9, "attack when an opponent holds this many cards or fewer (pressure_draw: 2)"),
    "keep_zeros": (1, 0, 3, "zeros kept back while the Killer has not been played"),
    "first_set21": (0, 0, 9, "priority of =21 when an action card must be played"),
    "first_skip": (0, 0, 9, "priority of Skip"),
    "first_pass": (0, 0, 9, "priority of Pass"),
    "first_reverse": (0, 0, 9, "priority of Reverse"),
    "first_draw2": (0, 0, 9, "priority of Draw 2"),
    "first_draw1": (0, 0, 9, "priority of Draw 1"),
    "first_life": (0, 0, 9, "priority of Life"),
    "first_killer": (0, 0, 9, "priority of Killer"),
    "first_redeal": (0, 0, 9, "priority of Redeal"),
    "first_set10": (0, 0, 9, "priority of =10"),
    "first_set0": (0, 0, 9, "priority of =0"),
}
_DANGER = slot(PARAMS, "danger")
_KEEP = slot(PARAMS, "keep_zeros")
#: the parameter slot of each card kind's priority (-1: none; number cards are never ordered here)
_PRIORITY_SLOT = np.array([list(PARAMS).index(f"first_{key}") if f"first_{key}" in PARAMS else -1
                           for key in CARD_KEYS], np.int64)


@njit(**NJIT_OPTIONS)
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
    a = first_held_by_priority(view, ACTION_ORDER, params, _PRIORITY_SLOT)
    if a >= 0:
        return a
    return 0
