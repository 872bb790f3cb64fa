"""Every rule of docs/rules/five-alive.md on the reference engine, position by position."""
import pytest

from simcards.games.five_alive.reference import PLAY, Game, IllegalMove
from simcards.games.five_alive.rules import (
    DRAW1, DRAW2, EDITION_COUNTS, KILLER, LIFE, PASS, REDEAL, REVERSE, SET0, SET10, SET21, SKIP,
    deck_counts)
from simcards.games.five_alive import SPEC


def hand_cards(game, p):
    return [k for k, c in enumerate(game.hands[p]) for _ in range(c)]


# ---------------------------------------------------------------- cards and set-up
@pytest.mark.parametrize("edition", ["standard", "russian"])
def test_both_editions_have_77_cards_with_their_own_action_cards(edition):
    counts = deck_counts(SPEC.resolve_rules({"edition": edition}))
    assert sum(counts) == 77
    assert sum(counts[:8]) == 47
    if edition == "russian":
        assert counts[LIFE] == 2 and counts[REDEAL] == counts[SET21] == 0
        assert (counts[PASS], counts[SKIP], counts[REVERSE]) == (7, 9, 7)
    else:
        assert counts[LIFE] == 0 and counts[REDEAL] == 1 and counts[SET21] == 5


def test_every_card_count_is_a_rule_option():
    rules = SPEC.resolve_rules({"edition": "russian", "count_killer": 3, "count_7": 0})
    counts = deck_counts(rules)
    assert counts[KILLER] == 3 and counts[7] == 0 and counts[LIFE] == EDITION_COUNTS["russian"][LIFE]


@pytest.mark.parametrize("n", [2, 5, 7])
def test_deal_gives_ten_cards_each_and_seat_zero_starts(n):
    game = Game(n, SPEC.resolve_rules({}), seed=11, game_index=3)
    assert [game.hand_size(p) for p in range(n)] == [10] * n
    assert len(game.stock) == 77 - 10 * n and game.pile == []
    assert game.dealer == n - 1 and game.current == 0 and game.total == 0
    assert game.lives == [5] * n


# ---------------------------------------------------------------- a turn
def test_number_card_adds_to_total_and_must_fit(position):
    game = position(hands=[[7, 2, 0], [1], [1]], total=15)
    assert game.legal_moves() == [0, 2]
    with pytest.raises(IllegalMove):
        game.apply(PLAY, 7)
    game.apply(PLAY, 2)
    assert game.total == 17 and game.current == 1 and game.pile == [2]


def test_bust_costs_a_life_keeps_the_hand_and_resets_the_total(position):
    game = position(hands=[[7, 6], [3, 3], [1]], total=20, current=0)
    assert game.next_decision() == (PLAY, 1)
    assert game.lives[0] == 4 and hand_cards(game, 0) == [6, 7]
    assert game.total == 0 and game.busts == 1 and game.turns == 1


def test_action_cards_are_always_legal(position):
    game = position(hands=[[PASS, 5], [1], [1]], total=21)
    assert game.legal_moves() == [PASS]


def test_set_cards(position):
    game = position(hands=[[SET21, 1], [SET10, 1], [SET0, 1]], total=21)
    game.apply(PLAY, SET21)
    assert game.total == 21
    game.apply(PLAY, SET10)
    assert game.total == 10
    game.apply(PLAY, SET0)
    assert game.total == 0


def test_draw_cards_make_every_other_player_draw_in_turn_order(position):
    game = position(n=4, hands=[[DRAW2, 1], [1], [1], [1]], stock=[4, 5, 6, 7, 2, 3], current=0)
    game.apply(PLAY, DRAW2)
    # seat 1 draws the two top cards (3 then 2), then seat 2, then seat 3
    assert sorted(hand_cards(game, 1)) == [1, 2, 3]
    assert sorted(hand_cards(game, 2)) == [1, 6, 7]
    assert sorted(hand_cards(game, 3)) == [1, 4, 5]
    assert game.current == 1


def test_draw_with_an_empty_stock_reshuffles_the_pile_under_its_top_card(position):
    game = position(n=3, hands=[[DRAW1, 1], [1], [1]], stock=[], pile=[4, 5, 6])
    game.apply(PLAY, DRAW1)
    assert game.pile == [DRAW1]                       # the Draw 1 stays on top
    assert game.hand_size(1) == 2 and game.hand_size(2) == 2
    assert sorted(game.stock + hand_cards(game, 1) + hand_cards(game, 2)) == [1, 1, 4, 5, 6]


def test_draw_with_nothing_left_to_draw_draws_what_there_is(position):
    game = position(n=3, hands=[[DRAW2, 1], [1], [1]], stock=[], pile=[4])
    game.apply(PLAY, DRAW2)
    assert game.hand_size(1) == 2 and game.hand_size(2) == 1
    assert game.stock == [] and game.pile == [DRAW2]


def test_skip_and_reverse_with_three_players(position):
    game = position(hands=[[SKIP, 1], [REVERSE, 1], [1, 1]])
    game.apply(PLAY, SKIP)
    assert game.current == 2
    game.apply(PLAY, 1)
    assert game.current == 0
    game = position(hands=[[REVERSE, 1], [1], [1]])
    game.apply(PLAY, REVERSE)
    assert game.direction == -1 and game.current == 2


def test_two_player_skip_plays_again_and_reverse_is_a_pass(position):
    game = position(n=2, hands=[[SKIP, REVERSE, 1], [1, 1]])
    game.apply(PLAY, SKIP)
    assert game.current == 0
    game.apply(PLAY, REVERSE)
    assert game.direction == 1 and game.current == 1


def test_killer_makes_others_discard_a_zero_or_lose_a_life(position):
    game = position(n=4, hands=[[KILLER, 1], [0, 0, 3], [5], [0, 2]], total=12)
    game.apply(PLAY, KILLER)
    assert game.total == 0
    assert game.hands[1][0] == 1 and game.hands[3][0] == 0
    assert game.lives == [5, 5, 4, 5]
    assert game.pile == [KILLER, 0, 0] and game.current == 1


def test_life_card_costs_every_other_player_a_life(position):
    game = position(n=3, hands=[[LIFE, 1], [2], [3]], total=9, edition="russian")
    game.apply(PLAY, LIFE)
    assert game.lives == [5, 4, 4] and game.total == 9 and game.current == 1


def test_redeal_with_an_uneven_number_of_cards(position):
    game = position(n=3, hands=[[REDEAL, 1, 2], [3, 4, 5], [6, 7]], total=14)
    game.apply(PLAY, REDEAL)
    # 7 cards (the Redeal stays on the pile), dealt from seat 1: seats 1 and 2 get 2, seat 0 gets 2... 7 = 3+2+2
    assert [game.hand_size(p) for p in (1, 2, 0)] == [3, 2, 2]
    assert sorted(hand_cards(game, 0) + hand_cards(game, 1) + hand_cards(game, 2)) == [1, 2, 3, 4, 5, 6, 7]
    assert game.total == 0 and game.current == 1 and game.pile == [REDEAL]


def test_redeal_that_leaves_a_player_without_cards_ends_the_round(position):
    game = position(n=4, hands=[[REDEAL, 1], [2], [3], [4]], total=5)
    game.apply(PLAY, REDEAL)
    # 4 cards for 4 players: everyone gets one, nobody is empty, play goes on
    assert all(game.hand_size(p) == 1 for p in range(4)) and game.rounds == 1
    game = position(n=4, hands=[[REDEAL, 1], [2], [3], []], total=5)
    rounds = game.rounds
    game.apply(PLAY, REDEAL)
    # 3 cards for 4 players: the last in dealing order (seat 0) gets none: rule 9a
    assert game.rounds == rounds + 1
    assert game.lives == [5, 4, 4, 4]


# ---------------------------------------------------------------- end of a round
def test_last_card_wins_the_round_without_its_effect(position):
    for last in (KILLER, REDEAL, DRAW2, 7):
        game = position(n=3, hands=[[last], [0, 1], [2]], total=10)
        game.apply(PLAY, last)
        assert game.lives == [5, 4, 4], last
        assert game.rounds == 2 and game.dealer == 0 and game.current == 1   # the next round
        assert all(game.hand_size(p) == 10 for p in range(3))


def test_killer_that_takes_a_last_zero_ends_the_round(position):
    game = position(n=3, hands=[[KILLER, 5], [0], [4]], total=3)
    game.apply(PLAY, KILLER)
    # seat 1 discarded its only card; seat 2 had no 0 (a life) and still holds cards (a life);
    # seat 0 still holds cards (a life)
    assert game.lives == [4, 5, 3]
    assert game.rounds == 2


# ---------------------------------------------------------------- eliminations and the dealer
def test_elimination_mid_round_sends_the_hand_to_the_bottom_of_the_stock(position):
    game = position(n=3, hands=[[KILLER, 1], [6, 5], [0, 2, 3]], lives=[5, 1, 5], stock=[3, 4])
    game.apply(PLAY, KILLER)
    assert game.lives == [5, 0, 5] and game.stock == [5, 6, 3, 4]
    assert game.current == 2                    # seat 1 is skipped
    game.apply(PLAY, 2)
    assert game.current == 0


def test_last_player_with_lives_wins(position):
    game = position(n=3, hands=[[LIFE, 1], [2], [3]], lives=[2, 1, 1], edition="russian")
    game.apply(PLAY, LIFE)
    assert game.over and game.next_decision() is None
    seats, row = game.result()
    assert [s[0] for s in seats] == [1, 0, 0] and [s[1] for s in seats] == [1, 2, 2]


def test_dealer_moves_past_eliminated_players(position):
    game = position(n=4, hands=[[1], [2, 2], [3, 3], [4, 4]], lives=[5, 5, 1, 5])
    game.dealer = 1
    game.apply(PLAY, 1)          # seat 0 goes out: everyone else loses a life, seat 2 is out
    assert game.lives == [5, 4, 0, 4]
    assert game.dealer == 3 and game.current == 0
    assert game.hand_size(2) == 0 and game.hand_size(0) == 10


def test_dealer_is_the_next_survivor_when_the_old_dealer_is_out(position):
    game = position(n=4, hands=[[2], [2, 2], [3, 3], [4, 4]], lives=[5, 1, 5, 5])
    game.dealer = 1
    game.apply(PLAY, 2)          # seat 1, the dealer, is eliminated; the deal passes to seat 2
    assert game.lives[1] == 0 and game.dealer == 2 and game.current == 3


# ---------------------------------------------------------------- blitz
def test_blitz_ends_at_the_first_elimination_and_most_lives_win(position):
    game = position(n=3, hands=[[1, 5], [6, 7], [3, 3]], total=21, lives=[1, 3, 2], blitz=True)
    game.current = 0
    assert game.next_decision() is None        # seat 0 cannot play: bust, 0 lives, game over
    seats, _ = game.result()
    assert [s[0] for s in seats] == [0, 1, 0] and [s[1] for s in seats] == [3, 1, 2]


def test_blitz_tie_on_lives_goes_to_the_lowest_number_cards(position):
    game = position(n=3, hands=[[7, 1], [6, 7, PASS], [2, 2, 1, KILLER]], total=21,
                    lives=[1, 2, 2], blitz=True)
    assert game.next_decision() is None
    seats, _ = game.result()
    assert [s[0] for s in seats] == [0, 0, 1]      # 5 points beat 13 (action cards count 0)
    assert [s[1] for s in seats] == [3, 2, 1]


def test_blitz_exact_tie_is_a_shared_win(position):
    game = position(n=3, hands=[[7, 1], [3, 2], [4, 1, PASS]], total=21, lives=[1, 2, 2], blitz=True)
    assert game.next_decision() is None
    seats, _ = game.result()
    assert [s[0] for s in seats] == [0, 1, 1] and [s[1] for s in seats] == [3, 1, 1]


def test_blitz_is_checked_before_a_round_end_caused_by_the_same_killer(position):
    game = position(n=3, hands=[[KILLER, 3], [0], [4]], lives=[3, 3, 1], blitz=True)
    game.apply(PLAY, KILLER)
    # seat 2 had no 0: out, the game ends before rule 9a would cost seats 0 and 2 a life
    assert game.over and game.lives == [3, 3, 0] and game.rounds == 1


# ---------------------------------------------------------------- the cap
def test_turn_cap_stops_the_game_as_unfinished():
    rules = {"turn_cap": 25}
    game = Game(4, SPEC.resolve_rules(rules), seed=1, game_index=0)
    while game.next_decision() is not None:
        game.apply(PLAY, game.legal_moves()[0])
    assert game.unfinished and game.turns == 25
    seats, row = game.result()
    assert sum(s[0] for s in seats) == 0 and row[3] == 1


# ---------------------------------------------------------------- seat compensation
@pytest.mark.parametrize("k", range(1, 7))
def test_lives_seat_k_gives_the_seat_k_places_after_the_first_player_more_or_fewer_lives(k):
    from simcards.games.five_alive.view import extra_lives
    more = Game(7, SPEC.resolve_rules({"lives": 4, f"lives_seat{k}": 2}), seed=2, game_index=0)
    assert more.current == 0                               # seat 0 is the first player
    assert more.lives == [4 + 2 * (p == k) for p in range(7)]
    view = more.view()                                     # public: every seat sees it
    assert [extra_lives.py_func(view, p) for p in range(7)] == [2 * (p == k) for p in range(7)]
    fewer = Game(7, SPEC.resolve_rules({f"lives_seat{k}": -3}), seed=2, game_index=0)
    assert fewer.lives == [5 - 3 * (p == k) for p in range(7)]
    # with k players or fewer there is no seat k: the option changes nothing
    assert Game(k, SPEC.resolve_rules({f"lives_seat{k}": 3}), seed=2, game_index=0).lives == [5] * k


def test_compensation_may_not_leave_a_seat_without_lives_or_above_99():
    from simcards.errors import SimcardsError
    with pytest.raises(SimcardsError, match="lives_seat2=-3"):
        SPEC.resolve_rules({"lives": 3, "lives_seat2": -3})
    with pytest.raises(SimcardsError, match="1..99"):
        SPEC.resolve_rules({"lives": 98, "lives_seat6": 2})
    assert SPEC.resolve_rules({"lives": 4, "lives_seat2": -3})["lives_seat2"] == -3
