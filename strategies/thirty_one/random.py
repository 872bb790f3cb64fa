"""Uniform among the distinct legal moves; accepts a proposal with probability 1/2 (the rule file's exact `random`).

The moves in code order: the nine swaps (card given ascending, then card taken ascending), pass,
"Кручу" when the hand is of one suit, propose; one draw of rand_below(count) picks one.
A vote draws rand_below(2) and accepts on 1.
"""
from numba import njit

from simcards.rng import rand_below
from ._kit import INLINE, KNOCK, PASS, PROPOSE, knock_allowed


@njit(**INLINE)
def turn(view, rng):
    knock = knock_allowed(view)
    r = rand_below(rng, 12 if knock else 11)
    if r < 9:
        i = r // 3
        return view.hand[i] * 64 + view.middle[r - 3 * i]
    if r == 9:
        return PASS
    if knock and r == 10:
        return KNOCK
    return PROPOSE


@njit(**INLINE)
def vote(view, rng):
    return 1 if rand_below(rng, 2) == 1 else 0
