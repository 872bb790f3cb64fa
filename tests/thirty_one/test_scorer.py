"""The public hand scorer (rules.score), its table in the fast engine, and the distribution of
scores over all 7,140 three-card hands checked against an independent count."""
from collections import Counter
from itertools import combinations, permutations
from math import comb

import pytest

from simcards.games.thirty_one import fast, rules
from simcards.games.thirty_one.rules import (ACE, ACE_OF_CLUBS, C31, C33, C678, CLUBS, DIAMONDS,
                                             EIGHT, HEARTS, JACK, KING, NONE, QUEEN, SEVEN, SIX,
                                             SPADES, TEN, score)


def card(rank, suit):
    return suit * 9 + rank


def test_card_ids_and_names():
    assert card(ACE, CLUBS) == ACE_OF_CLUBS
    assert rules.CARD_NAMES[card(SIX, CLUBS)] == "6♣"
    assert rules.CARD_NAMES[card(ACE, SPADES)] == "A♠"
    assert [rules.points(card(r, HEARTS)) for r in range(9)] == [6, 7, 8, 9, 10, 10, 10, 10, 11]


def test_rule_file_examples():
    # rule 2: A♣ + K♥ + Q♥ = 31 and A♣ + A♥ + 10♥ = 32
    assert score(ACE_OF_CLUBS, card(KING, HEARTS), card(QUEEN, HEARTS)) == (31, C31)
    assert score(ACE_OF_CLUBS, card(ACE, HEARTS), card(TEN, HEARTS)) == (32, NONE)


def test_ace_of_clubs_joins_the_best_suit_and_counts_once_in_clubs():
    # as a club it counts once: A♣ K♣ 6♦ = 21, not 32
    assert score(ACE_OF_CLUBS, card(KING, CLUBS), card(SIX, DIAMONDS)) == (21, NONE)
    # it joins diamonds (11 + 9 + 8 = 28) rather than clubs alone
    assert score(ACE_OF_CLUBS, card(EIGHT + 1, DIAMONDS), card(EIGHT, DIAMONDS)) == (28, NONE)
    # A♣ + two aces of other suits is three aces
    assert score(ACE_OF_CLUBS, card(ACE, DIAMONDS), card(ACE, SPADES)) == (33, C33)


def test_three_aces_without_the_ace_of_clubs():
    assert score(card(ACE, DIAMONDS), card(ACE, HEARTS), card(ACE, SPADES)) == (33, C33)


def test_six_seven_eight():
    for s in range(4):
        assert score(card(SIX, s), card(SEVEN, s), card(EIGHT, s)) == (21, C678)
    # the ace of clubs never stands in for a 6, 7 or 8
    assert score(ACE_OF_CLUBS, card(SEVEN, HEARTS), card(EIGHT, HEARTS))[1] == NONE
    # mixed suits are no combination
    assert score(card(SIX, HEARTS), card(SEVEN, HEARTS), card(EIGHT, SPADES))[1] == NONE


def test_31_in_one_suit_and_other_suits_do_not_add():
    assert score(card(ACE, SPADES), card(TEN, SPADES), card(JACK, SPADES)) == (31, C31)
    assert score(card(ACE, SPADES), card(TEN, HEARTS), card(JACK, DIAMONDS)) == (11, NONE)


def test_bad_hands_are_refused():
    with pytest.raises(ValueError):
        score(1, 1, 2)
    with pytest.raises(ValueError):
        score(0, 1, 36)


def _independent_score(hand):
    """A second reading of rules 2-4: try the ace of clubs as each suit in turn."""
    ranks = [c % 9 for c in hand]
    if ranks.count(8) == 3:
        return 33
    best = 0
    for wild_suit in range(4):
        suits = [wild_suit if c == 8 else c // 9 for c in hand]
        for s in range(4):
            best = max(best, sum(rules.RANK_POINTS[r] for r, t in zip(ranks, suits) if t == s))
    return best


def test_distribution_over_all_hands_matches_an_independent_count():
    hands = list(combinations(range(36), 3))
    assert len(hands) == comb(36, 3)
    expected = Counter(_independent_score(h) for h in hands)
    assert rules.score_distribution() == dict(sorted(expected.items()))
    dist = rules.score_distribution()
    assert sum(dist.values()) == comb(36, 3)
    assert min(dist) == 6                      # the seed: scores run from 6 ...
    assert dist[33] == comb(4, 3)              # three of the four aces
    # 32: the ace of clubs, another ace and one of the four 10-pointers of that ace's suit
    assert dist[32] == 3 * 4
    # 31: an ace and two 10-pointers of its suit; the ace of clubs and two 10-pointers of
    # another suit; the ace of clubs, another ace and the 9 of that ace's suit (11 + 11 + 9)
    assert dist[31] == 4 * comb(4, 2) + 3 * comb(4, 2) + 3 * 1


def test_combination_counts():
    combos = Counter(score(*h)[1] for h in combinations(range(36), 3))
    assert combos[C678] == 4
    assert combos[C33] == comb(4, 3)
    assert combos[C31] == rules.score_distribution()[31]


def test_fast_table_agrees_with_the_scorer_for_every_ordered_triple():
    for hand in combinations(range(36), 3):
        s, c = score(*hand)
        for a, b, d in permutations(hand):
            code = fast.hand_code(a, b, d)
            assert code == s + 64 * c


def test_one_suit_rule_with_and_without_the_ace_of_clubs():
    assert rules.one_suit([card(SIX, HEARTS), card(KING, HEARTS), card(ACE, HEARTS)])
    assert rules.one_suit([card(SIX, HEARTS), ACE_OF_CLUBS, card(ACE, HEARTS)])
    assert not rules.one_suit([card(SIX, HEARTS), ACE_OF_CLUBS, card(ACE, SPADES)])
    assert not rules.one_suit([card(SIX, HEARTS), card(SIX, CLUBS), card(ACE, HEARTS)])
    for hand in combinations(range(36), 3):
        assert fast.is_one_suit(*hand) == rules.one_suit(hand)
