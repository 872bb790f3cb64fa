"""Helpers shared by Vzhukh strategies (see simcards.games.vzhukh.view for the accessors).

What is legal comes from the engine's legal moves (``legal_counts``, ``n_legal``,
``legal_move``), never from a copy of the rules here.
"""
from numba import njit

from simcards.config import NJIT_OPTIONS
from simcards.engine import lowest_bit
from simcards.games.vzhukh.defaults import attack_lowest, lowest_rank  # noqa: F401 (re-exported)
from simcards.games.vzhukh.rules import (ATTACK, BEAT, JOKER, KRABLE, N_NUMBERS, TRANSFER, VOILA,
                                         VZHUKH, encode_move)
from simcards.games.vzhukh.view import held, legal_counts, stack_count, stack_kind


@njit(inline="always", **NJIT_OPTIONS)
def attack_biggest(view):
    """The rank whose cards add up to the most: the largest stack to face."""
    best, best_sum = -1, -1
    for k in range(N_NUMBERS):
        s = (k + 1) * held(view, k)
        if held(view, k) > 0 and s > best_sum:
            best, best_sum = k, s
    return encode_move(ATTACK, best, held(view, best))


@njit(inline="always", **NJIT_OPTIONS)
def can_transfer(view):
    return legal_counts(view, TRANSFER, stack_kind(view)) != 0


@njit(inline="always", **NJIT_OPTIONS)
def transfer(view, count):
    """Transfer with ``count`` cards, or with all of the rank when count exceeds what is held."""
    k = stack_kind(view)
    return encode_move(TRANSFER, k, min(count, held(view, k)))


@njit(inline="always", **NJIT_OPTIONS)
def fewest(counts):
    """The lowest count in a mask of legal counts (legal_counts); 0 when there is none."""
    # one instruction (cttz) instead of a loop whose trip count the hand decides; a count is
    # at least 1 (bit 0 is never set), and the lowest bit of 0 is 64, which & 63 makes 0
    return lowest_bit(counts & -2) & 63


_NO_BEAT = 1 << 40                 # above every key of cheapest_beat


@njit(inline="always", **NJIT_OPTIONS)
def cheapest_beat(view):
    """The legal beat with the fewest points (ties: the higher rank, so fewer cards), or -1."""
    # the least key (points, then 15 - rank, then count) over the ranks that can beat: a min
    # and a select per rank, no branch (which rank wins is data the predictor cannot learn)
    best = _NO_BEAT
    for k in range(N_NUMBERS):
        c = fewest(legal_counts(view, BEAT, k))
        key = ((k + 1) * c) << 9 | (15 - k) << 5 | c
        best = min(best, key if c > 0 else _NO_BEAT)
    if best == _NO_BEAT:
        return -1
    return encode_move(BEAT, 15 - ((best >> 5) & 15), best & 31)


@njit(inline="always", **NJIT_OPTIONS)
def best_joker(view):
    """A free Krable-Bums on a single card, else Vzhukh, Voila, Krable-Bums; or -1."""
    # selects from the last choice up, no branch on the hand: which jokers are held is data
    # (callgrind's predictor, low_attack: 0.81 -> 0.72 mispredicted branches an action, +0.5
    # instructions)
    m = encode_move(JOKER, KRABLE, 1) if held(view, KRABLE) > 0 else -1
    m = encode_move(JOKER, VOILA, 1) if held(view, VOILA) > 0 else m
    m = encode_move(JOKER, VZHUKH, 1) if held(view, VZHUKH) > 0 else m
    return encode_move(JOKER, KRABLE, 1) if (stack_count(view) == 1) & (held(view, KRABLE) > 0) else m
