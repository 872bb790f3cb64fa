"""Combine the heuristics: attack a near-empty opponent, keep a 0 against the Killer, shed high numbers, hold actions and leave the total high.

Order of concerns: (1) if I can go out with a legal last card, do; (2) if an
opponent holds two cards or fewer, make them draw or take their lives; (3) play
the highest number that fits, but keep the last 0 while the Killer is unseen;
(4) otherwise an action that leaves the total high for the next player.
"""
from numba import njit

from simcards.config import NJIT_OPTIONS
from simcards.games.five_alive.rules import KILLER, LIMIT, N_KINDS, N_NUMBERS
from strategies.five_alive._kit import first_held, playable
from strategies.five_alive.hold_actions import ACTION_ORDER
from strategies.five_alive.pressure_draw import ATTACKS, DANGER


@njit(**NJIT_OPTIONS)
def decide(view, rng):
    held = 0
    for k in range(N_KINDS):
        held += view.hand[k]
    if held == 1:
        for k in range(N_KINDS):
            if playable(view, k):
                return k
    for q in range(view.n_players):
        if q != view.seat and view.lives[q] > 0 and view.hand_sizes[q] <= DANGER:
            a = first_held(view, ATTACKS)
            if a >= 0:
                return a
            break
    keep = 1 if view.pile_counts[KILLER] == 0 else 0
    for k in range(min(N_NUMBERS - 1, LIMIT - view.total), 0, -1):
        if view.hand[k] > 0:
            return k
    if view.hand[0] > keep:
        return 0
    a = first_held(view, ACTION_ORDER)
    if a >= 0:
        return a
    return 0
