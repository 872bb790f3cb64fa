"""The counts Thirty-One's strategies rest on (strategies/thirty_one/_kit.py), held to a count made
here from the public scorer (rules.score) over the unseen cards' hands, one by one: the kit
computes them from tables, and a wrong row or bit would change the decisions silently."""
from itertools import combinations

import numpy as np
import pytest
from numba import njit

from simcards.games.thirty_one import view as V
from simcards.games.thirty_one.rules import HAND, N_CARDS, NONE, score
from simcards_strategies.thirty_one._kit import outs, share_below

SEAT = 1


def _state(rng: np.random.Generator, seen: int) -> tuple[np.ndarray, list[int], list[int], int]:
    """A state whose seat SEAT holds three cards, with three in the middle and ``seen`` more in
    the discard pile, all drawn at random."""
    cards = rng.permutation(N_CARDS)
    hand, middle, pile = sorted(cards[:3]), sorted(cards[3:6]), cards[6:6 + seen]
    s = np.zeros(V.SIZE, np.int64)
    s[V.HANDS + SEAT * HAND:V.HANDS + SEAT * HAND + 3] = hand
    s[V.MID:V.MID + 3] = middle
    s[V.DISCARD_MASK] = sum(1 << int(c) for c in pile)
    unseen = [c for c in range(N_CARDS) if c not in set(cards[:6 + seen].tolist())]
    return s, [int(c) for c in hand], [int(c) for c in middle], unseen


def _share_below_by_hand(unseen: list[int], v: int) -> float:
    """The definition: of the plain hands (no combination) of three unseen cards, the share whose
    showdown value is below v, a 32 counting below all."""
    plain = [score(*h)[0] for h in combinations(unseen, 3) if score(*h)[1] == NONE]
    if not plain:
        return 1.0
    return sum(1 for p in plain if p == 32 or p < v) / len(plain)


@njit
def _share(s, seat, v):
    return share_below(V.View(s, seat), v)


@njit
def _outs(s, seat, a, b, c):
    return outs(V.View(s, seat), a, b, c)


@pytest.mark.parametrize("seen", [0, 5, 14, 24, 28, 29, 30])
def test_share_below_counts_the_hands_the_scorer_counts(seen):
    rng = np.random.default_rng(seen)
    for _ in range(3):
        s, _, _, unseen = _state(rng, seen)
        # every threshold a strategy can ask (a value less 3, up to 33), and past both ends
        for v in (-5, -3, 0, 1, 6, 17, 21, 25, 28, 29, 30, 31, 32, 33, 40):
            assert _share(s, SEAT, v) == _share_below_by_hand(unseen, v), (unseen, v)


def _value(x: int, y: int, z: int) -> int:
    p = score(x, y, z)[0]
    return 0 if p == 32 else p


def test_outs_counts_the_unseen_cards_that_raise_a_hand():
    rng = np.random.default_rng(7)
    for seen in (0, 4, 10, 18, 25, 29):
        for _ in range(2):
            s, hand, middle, unseen = _state(rng, seen)
            # every hand a swap or "Кручу" can make of hand and middle, in a random order
            for cards in combinations(hand + middle, 3):
                a, b, c = (int(x) for x in rng.permutation(cards))
                free = [x for x in unseen if x not in (a, b, c)]
                v0 = _value(a, b, c)
                want = sum(1 for x in free
                           if max(_value(x, b, c), _value(a, x, c), _value(a, b, x)) > v0)
                assert _outs(s, SEAT, a, b, c) == want, (a, b, c, unseen)
