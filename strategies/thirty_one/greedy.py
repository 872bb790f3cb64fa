"""Best-scoring swap or "Кручу" if it raises the score, else propose at 25+ or pass; accept at 21+ (the rule file's exact `greedy`).

Scores count a 32 as 0 in every comparison. Ties between moves go to the lowest card given,
then the lowest card taken, and a swap goes before "Кручу".
"""
from numba import njit

from simcards.config import FORCEINLINE_NJIT_OPTIONS

from ._kit import PASS, PROPOSE, best_exchange, hand_value


@njit(**FORCEINLINE_NJIT_OPTIONS)
def turn(view, rng):
    now = hand_value(view)
    move, after = best_exchange(view)
    if after > now:
        return move
    return PROPOSE if now >= 25 else PASS


@njit(**FORCEINLINE_NJIT_OPTIONS)
def vote(view, rng):
    return 1 if hand_value(view) >= 21 else 0
