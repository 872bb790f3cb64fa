"""Every card and edge case of docs/rules/bombs-away.md on the reference engine, on hand-made positions."""
import pytest

from simcards.games.bombs_away import SPEC
from simcards.games.bombs_away.reference import Game, IllegalMove
from simcards.games.bombs_away.rules import (
    ACE, ANSWER, EIGHT, EXTRA, FIVE, FOUR, JACK, JOKER, KING, NAME, NINE, PLAY, QUEEN, SEVEN, SIX,
    TARGET, TEN, THREE, TWO, N_KINDS, KIND_COUNTS)

FILLER = (TWO, THREE, FOUR, FIVE)   # another player's hand (three fit beside any test hand)


def ask(game):
    """The pending question: (kind, seat, options, card), or None when the game is over."""
    if game.next_decision() is None:
        return None
    q = game.question
    return q.kind, q.seat, sorted(q.options), q.card


def answer(game, move):
    kind, _ = game.next_decision()
    game.apply(kind, move)


# ---------------------------------------------------------------- set-up, turn, rule 3
def test_deal_four_cards_each_and_seat_zero_leads(conserved):
    game = Game(4, SPEC.resolve_rules({}), seed=3, game_index=1)
    assert [sum(h) for h in game.hands] == [4, 4, 4, 4]
    assert len(game.stock) == 53 - 16 and game.pile == []
    assert game.points == [30] * 4 and conserved(game)
    kind, seat = game.next_decision()
    assert (kind, seat) == (PLAY, 0) or seat == 0
    assert game.dealt == [sum(1 << k for k in range(N_KINDS) if h[k]) for h in game.hands]


def test_deal_applies_the_tens_rule():
    for g in range(200):
        game = Game(5, SPEC.resolve_rules({}), seed=1, game_index=g)
        assert all(h[TEN] <= 1 for h in game.hands)
    kept = [max(h[TEN] for h in Game(5, SPEC.resolve_rules({"tens_rule": False}), 1, g).hands)
            for g in range(200)]
    assert max(kept) >= 2   # without the rule some deal gives a player two 10s


def test_the_conservation_check_catches_a_lost_duplicated_or_unnamed_card(position, conserved):
    game = position(3, hands=[FILLER, FILLER, FILLER], pile=[KING, (JOKER, QUEEN)])
    assert conserved(game)
    game.stock.pop()
    assert not conserved(game)                      # a card lost
    game.stock += [ACE, ACE]
    assert not conserved(game)                      # a card duplicated
    game.stock.pop()
    game.pile[-1][1] = JOKER
    with pytest.raises(AssertionError):
        conserved(game)                             # a joker on the pile without a name


def test_play_then_draw_back_up_to_four(position, conserved):
    game = position(3, hands=[(TWO, FOUR, FIVE, NINE), FILLER, FILLER])
    assert ask(game) == (PLAY, 0, [TWO, FOUR, FIVE, NINE], -1)
    answer(game, TWO)
    assert sum(game.hands[0]) == 4 and game.pile == [[TWO, TWO]]
    assert game.current == 2 and game.turns == 2   # seat 1 missed its turn; seat 2's began
    assert conserved(game)


def test_an_illegal_card_is_refused(position):
    game = position(3, hands=[(TWO, FOUR, FIVE, NINE), FILLER, FILLER])
    game.next_decision()
    with pytest.raises(IllegalMove, match="may not answer K to play: allowed are 2, 4, 5, 9"):
        game.apply(PLAY, KING)
    with pytest.raises(IllegalMove, match="asked for play, not name"):
        game.apply(NAME, TWO)
    assert game.legal_moves() == [TWO, FOUR, FIVE, NINE]


def test_every_question_records_the_answer_the_table_saw(position):
    """A 5 on seat 2: the play and the target (asked) are kept, as is a forced pass."""
    game = position(3, hands=[(FIVE, NINE, TWO, THREE), FILLER, FILLER], points=[30, 10, 20])
    answer(game, FIVE)
    assert ask(game)[:3] == (TARGET, 0, [1, 2])
    answer(game, 2)
    assert game.answers[0][PLAY] == FIVE and game.answers[0][TARGET] == 2
    assert game.answers[1] == [-1] * 5


def test_no_legal_card_is_a_pass_that_counts_as_a_turn(position):
    game = position(3, hands=[(SEVEN, SEVEN, SEVEN, SEVEN), FILLER, FILLER], pile=[TWO, THREE])
    assert ask(game) == (PLAY, 1, [TWO, THREE, FOUR, FIVE], -1)
    assert game.turns == 2 and game.hands[0][SEVEN] == 4 and len(game.pile) == 2


# ---------------------------------------------------------------- rule 4: the tens rule
def test_tens_rule_swaps_an_extra_ten_for_the_top_card(position):
    game = position(3, hands=[(TEN, TEN, TWO, THREE)], stock=[FOUR, KING, QUEEN])
    game.tens_rule(0)
    assert game.hands[0][TEN] == 1 and game.hands[0][QUEEN] == 1
    assert game.stock == [TEN, FOUR, KING]


def test_tens_rule_with_a_stock_of_tens_gives_up_after_as_many_tries_as_stock_cards(position):
    game = position(3, hands=[(TEN, TEN, TWO, THREE)], stock=[TEN, TEN])
    game.tens_rule(0)
    assert game.hands[0][TEN] == 2 and game.stock == [TEN, TEN]


def test_tens_rule_counts_rank_ten_only(position):
    game = position(3, hands=[(TEN, JACK, QUEEN, KING)], stock=[FOUR, FIVE])
    game.tens_rule(0)
    assert game.hands[0] == position(3, hands=[(TEN, JACK, QUEEN, KING)]).hands[0]


def test_tens_rule_option_off_keeps_both_tens(position):
    game = position(3, hands=[(TEN, TEN, TWO, THREE)], stock=[FOUR, FIVE], tens_rule=False)
    game.tens_rule(0)
    assert game.hands[0][TEN] == 2 and game.stock == [FOUR, FIVE]


def test_tens_rule_applies_when_drawing_back_up(position):
    game = position(3, hands=[(TEN, TWO, THREE, FOUR), FILLER, FILLER], stock=[FIVE, FIVE, TEN])
    answer(game, TWO)                       # draws the 10 on top of the stock: two 10s
    assert game.hands[0][TEN] == 1 and game.hands[0][FIVE] == 1 and game.stock == [TEN, FIVE]


# ---------------------------------------------------------------- rule 5: empty stock
def test_empty_stock_reshuffles_the_pile_under_its_top_card(position, conserved):
    pile = [NINE, NINE, EIGHT, EIGHT, QUEEN]
    game = position(3, hands=[(TWO, THREE, FOUR, FIVE), FILLER, FILLER], pile=pile, stock=[])
    left = list(KIND_COUNTS)
    for k in pile + [TWO, THREE, FOUR, FIVE] + 2 * list(FILLER):
        left[k] -= 1
    game.hands[1][ACE] += left[ACE]  # park every other card in seat 1's hand
    for k in range(N_KINDS):
        if k != ACE:
            game.hands[2][k] += left[k]
    answer(game, TWO)
    assert game.pile == [[TWO, TWO]]            # the top card stays
    assert len(game.stock) == len(pile) - 1 and sum(game.hands[0]) == 4
    assert conserved(game)


# ---------------------------------------------------------------- rule 6: the ace
def test_ace_plays_one_more_card_whose_effect_applies(position):
    game = position(3, hands=[(ACE, TWO, FOUR, NINE), FILLER, FILLER])
    answer(game, ACE)
    assert ask(game) == (EXTRA, 0, [TWO, FOUR, NINE], ACE)
    answer(game, TWO)
    assert game.current == 2 and game.turns == 2 and sum(game.hands[0]) == 4


def test_ace_extra_card_is_free_of_an_eights_name(position):
    game = position(3, hands=[(ACE, TWO, THREE, FOUR), FILLER, FILLER], must=ACE)
    assert ask(game) == (EXTRA, 0, [TWO, THREE, FOUR], ACE)  # the ace was forced, no question


def test_ace_with_no_card_left_to_play_ends_the_turn(position):
    game = position(3, hands=[(ACE, SEVEN, SEVEN, SEVEN), FILLER, FILLER], pile=[FOUR])
    # the ace is the only legal card (forced); then only 7s are left and the pile is short
    assert ask(game)[:2] == (PLAY, 1) and game.turns == 2 and game.pile[-1] == [ACE, ACE]


def test_aces_chain(position):
    game = position(3, hands=[(ACE, ACE, TWO, FOUR), FILLER, FILLER])
    answer(game, ACE)
    answer(game, ACE)
    assert ask(game) == (EXTRA, 0, [TWO, FOUR], ACE)


# ---------------------------------------------------------------- rules 7, 8: 2 and 3
def test_two_skips_the_next_player(position):
    game = position(4, hands=[(TWO, FOUR, FIVE, NINE), FILLER, FILLER, FILLER])
    answer(game, TWO)
    assert game.current == 2


def test_two_with_two_players_plays_again(position):
    game = position(2, hands=[(TWO, FOUR, FIVE, NINE), FILLER])
    answer(game, TWO)
    assert ask(game)[1] == 0 and game.turns == 2


def test_three_reverses(position):
    game = position(4, hands=[(THREE, FOUR, FIVE, NINE), FILLER, FILLER, FILLER])
    answer(game, THREE)
    assert game.direction == -1 and game.current == 3


def test_three_with_two_players_does_nothing(position):
    game = position(2, hands=[(THREE, FOUR, FIVE, NINE), FILLER])
    answer(game, THREE)
    assert game.direction == 1 and game.current == 1


def test_three_with_two_players_left_of_three_does_nothing(position):
    game = position(3, hands=[(THREE, FOUR, FIVE, NINE), (), FILLER], points=[30, 0, 30])
    answer(game, THREE)
    assert game.direction == 1 and game.current == 2


# ---------------------------------------------------------------- rule 9: the 4
def test_four_shuffles_the_hand_into_the_stock_and_draws_a_new_hand(position, conserved):
    game = position(3, hands=[(FOUR, TWO, THREE, FIVE), FILLER, FILLER])
    before = len(game.stock)
    answer(game, FOUR)
    assert sum(game.hands[0]) == 4 and len(game.stock) == before - 1 and conserved(game)
    assert game.pile == [[FOUR, FOUR]]


# ---------------------------------------------------------------- rule 10: the 5
def test_five_takes_a_random_card_from_a_chosen_opponent_who_draws_one(position, conserved):
    game = position(3, hands=[(FIVE, TWO, THREE, FOUR), FILLER, (QUEEN,) * 4])
    answer(game, FIVE)
    assert ask(game) == (TARGET, 0, [1, 2], FIVE)
    answer(game, 2)
    assert game.hands[0][QUEEN] == 1 and sum(game.hands[0]) == 4
    assert game.hands[2][QUEEN] == 3 and sum(game.hands[2]) == 4 and conserved(game)


def test_five_with_two_players_takes_from_the_opponent_without_asking(position):
    game = position(2, hands=[(FIVE, TWO, THREE, FOUR), (QUEEN,) * 4])
    answer(game, FIVE)
    assert game.hands[0][QUEEN] == 1 and ask(game)[1] == 1


def test_five_skips_players_who_are_out(position):
    game = position(4, hands=[(FIVE, TWO, THREE, FOUR), FILLER, (), FILLER], points=[30, 30, 0, 30])
    answer(game, FIVE)
    assert ask(game) == (TARGET, 0, [1, 3], FIVE)


# ---------------------------------------------------------------- rule 11: the 6
def test_six_on_an_empty_pile_does_nothing(position):
    game = position(3, hands=[(SIX, TWO, THREE, FOUR), FILLER, FILLER])
    answer(game, SIX)
    assert game.pile == [[SIX, SIX]] and game.current == 1 and game.direction == 1


def test_six_on_a_six_that_copied_nothing_does_nothing(position):
    game = position(3, hands=[(SIX, TWO, THREE, FOUR), FILLER, FILLER], pile=[SIX])
    answer(game, SIX)
    assert game.pile[-1] == [SIX, SIX] and game.current == 1


def test_six_copies_the_card_it_is_played_on(position):
    game = position(4, hands=[(SIX, TWO, FOUR, FIVE), FILLER, FILLER, FILLER], pile=[THREE])
    answer(game, SIX)
    assert game.pile[-1] == [SIX, THREE] and game.direction == -1 and game.current == 3


def test_six_on_a_six_copies_what_that_six_copied(position):
    game = position(4, hands=[(SIX, TWO, FOUR, FIVE), FILLER, FILLER, FILLER],
                    pile=[KING, (SIX, TWO)])
    answer(game, SIX)
    assert game.pile[-1] == [SIX, TWO] and game.current == 2     # acts as the 2


def test_six_on_a_joker_copies_the_named_card_an_ace(position):
    game = position(3, hands=[(SIX, TWO, FOUR, NINE), FILLER, FILLER], pile=[(JOKER, ACE)])
    answer(game, SIX)
    assert ask(game) == (EXTRA, 0, [TWO, FOUR, NINE], ACE)


def test_six_on_a_joker_named_king_starts_a_duel(position):
    game = position(3, hands=[(SIX, TWO, FOUR, NINE), (TWO, QUEEN, THREE, FOUR), FILLER],
                    pile=[(JOKER, KING)])
    answer(game, SIX)
    assert ask(game) == (ANSWER, 1, [TWO, THREE, FOUR, QUEEN], KING) and game.duels == 1


def test_six_copying_an_eight_names_a_rank(position):
    game = position(3, hands=[(SIX, TWO, FOUR, NINE), FILLER, FILLER], pile=[EIGHT])
    answer(game, SIX)
    assert ask(game) == (NAME, 0, [NINE, TEN, JACK, QUEEN, KING, ACE], EIGHT)


def test_six_copying_a_seven_needs_four_cards_on_the_pile(position):
    short = position(3, hands=[(SIX, TWO, FOUR, NINE)], pile=[KING, SEVEN])
    assert SIX not in short.legal_cards(0, -1)
    enough = position(3, hands=[(SIX, TWO, FOUR, NINE)], pile=[TWO, THREE, KING, SEVEN])
    assert SIX in enough.legal_cards(0, -1)


# ---------------------------------------------------------------- rule 12: the 7
def test_seven_with_a_short_pile_is_not_playable(position):
    game = position(3, hands=[(SEVEN, TWO, FOUR, NINE), FILLER, FILLER], pile=[TWO, THREE, FOUR])
    assert ask(game) == (PLAY, 0, [TWO, FOUR, NINE], -1)


def test_seven_shuffles_the_top_five_pile_cards_into_the_stock(position, conserved):
    game = position(3, hands=[(SEVEN, TWO, FOUR, NINE), FILLER, FILLER],
                    pile=[NINE, EIGHT, TWO, THREE, FOUR, FIVE])
    before = len(game.stock)
    answer(game, SEVEN)
    assert game.pile == [[NINE, NINE], [EIGHT, EIGHT]]
    assert len(game.stock) == before + 5 - 1 and conserved(game)


def test_seven_on_exactly_four_cards_empties_the_pile(position):
    game = position(3, hands=[(SEVEN, TWO, FOUR, NINE), FILLER, FILLER], pile=[TWO, THREE, FOUR, FIVE])
    answer(game, SEVEN)
    assert game.pile == []


# ---------------------------------------------------------------- rule 13: the 8
def test_eight_names_a_rank_the_next_player_must_play(position):
    game = position(3, hands=[(EIGHT, TWO, FOUR, NINE), (KING, TWO, THREE, JOKER), FILLER],
                    stock=[FIVE] * 10)
    answer(game, EIGHT)
    assert ask(game) == (NAME, 0, [NINE, TEN, JACK, QUEEN, KING, ACE], EIGHT)
    answer(game, KING)
    assert game.must == KING and ask(game) == (PLAY, 1, [KING, JOKER], -1)


def test_eight_whose_rank_the_next_player_lacks_leaves_every_card(position):
    game = position(3, hands=[(EIGHT, TWO, FOUR, NINE), (TWO, THREE, FOUR, FIVE), FILLER])
    answer(game, EIGHT)
    answer(game, ACE)
    assert ask(game) == (PLAY, 1, [TWO, THREE, FOUR, FIVE], -1)
    answer(game, THREE)
    assert game.must == -1


def test_joker_under_an_eights_name_is_that_rank_without_asking(position):
    game = position(3, hands=[(TWO, THREE, FOUR, FIVE), (JOKER, TWO, THREE, FOUR), FILLER],
                    current=1, must=NINE)
    # no 9 in hand but the joker: the joker is the only legal card, and it is a 9
    assert ask(game) == (TARGET, 1, [0, 2], NINE)
    assert game.pile[-1] == [JOKER, NINE]


def test_eights_name_binds_the_first_card_only(position):
    game = position(3, hands=[(NINE, TWO, THREE, FOUR), FILLER, FILLER], must=NINE)
    assert ask(game)[0] == TARGET          # the 9 was forced; its opponent is asked
    answer(game, 1)
    assert game.must == -1


# ---------------------------------------------------------------- rule 14: the 9
def test_nine_swaps_a_random_card_each_way(position, conserved):
    game = position(3, hands=[(NINE, TWO, TWO, TWO), (QUEEN,) * 4, FILLER])
    answer(game, NINE)
    assert ask(game) == (TARGET, 0, [1, 2], NINE)
    answer(game, 1)
    assert game.hands[0][QUEEN] == 1 and game.hands[0][TWO] == 2
    assert game.hands[1][QUEEN] == 3 and game.hands[1][TWO] == 1 and conserved(game)


# ---------------------------------------------------------------- rule 15: the joker
def test_joker_is_the_rank_it_is_named(position):
    game = position(3, hands=[(JOKER, TWO, FOUR, FIVE), (TWO, THREE, FOUR, QUEEN), FILLER])
    answer(game, JOKER)
    assert ask(game) == (NAME, 0, [NINE, TEN, JACK, QUEEN, KING, ACE], JOKER)
    answer(game, JACK)
    assert game.pile[-1] == [JOKER, JACK] and ask(game) == (ANSWER, 1, [TWO, THREE, FOUR, QUEEN], JACK)


# ---------------------------------------------------------------- rule 16: duels
def duel(position, n=3, answer_hand=(TWO, THREE, FOUR, QUEEN), **kw):
    hands = [(KING, TWO, FOUR, FIVE), answer_hand] + [FILLER] * (n - 2)
    game = position(n, hands=hands, **kw)
    answer(game, KING)
    return game


def test_duel_answer_equal_costs_nothing_and_the_answerer_plays_next(position):
    game = duel(position)
    answer(game, QUEEN)
    assert game.points == [30, 30, 30] and game.pile[-1] == [QUEEN, QUEEN]
    assert ask(game)[1] == 1 and sum(game.hands[1]) == 4


def test_duel_answer_lower_costs_the_player_after_the_answerer_the_difference(position):
    game = duel(position, n=4)
    answer(game, THREE)
    assert game.points == [30, 30, 23, 30] and game.points_lost == 7
    assert ask(game)[1] == 1


def test_duel_answer_can_never_be_higher_so_points_never_rise(position):
    game = duel(position, answer_hand=(JOKER, TWO, THREE, FOUR))
    answer(game, JOKER)
    assert ask(game) == (NAME, 1, [NINE, TEN, JACK, QUEEN, KING, ACE], JOKER)
    answer(game, TEN)                      # worth 10, as much as any duel card: nothing lost
    assert game.points == [30, 30, 30] and game.points_lost == 0


def test_duel_answer_with_an_ace_is_worth_one(position):
    game = duel(position, answer_hand=(ACE, TWO, THREE, FOUR))
    answer(game, ACE)
    assert game.points == [30, 30, 21]
    assert ask(game)[:2] == (PLAY, 1)      # the ace's effect does not apply


def test_duel_answer_with_a_six_is_worth_the_duel_card(position):
    game = duel(position, answer_hand=(SIX, TWO, THREE, FOUR))
    answer(game, SIX)
    assert game.pile[-1] == [SIX, KING] and game.points == [30, 30, 30]


def test_duel_answers_effect_does_not_apply(position):
    game = duel(position, n=4, answer_hand=(TWO, THREE, FOUR, QUEEN))
    answer(game, TWO)
    assert ask(game)[:2] == (PLAY, 1) and game.points[2] == 22   # no skip; 10 - 2 lost


def test_two_player_duel_hits_the_answerer(position):
    game = duel(position, n=2, answer_hand=(TWO, THREE, FOUR, QUEEN))
    answer(game, FOUR)
    assert game.points == [30, 24]


def test_duel_follows_the_direction_of_play(position):
    game = duel(position, n=4, direction=-1)
    assert ask(game)[:2] == (ANSWER, 3)
    game.hands[3] = game.hands[1][:]
    answer(game, THREE)
    assert game.points == [30, 30, 23, 30]


def test_duel_victim_skips_players_who_are_out(position):
    game = duel(position, n=4, points=[30, 30, 0, 30])
    game.hands[2] = [0] * N_KINDS
    answer(game, THREE)
    assert game.points == [30, 30, 0, 23]


def test_duel_answer_in_hand_with_one_rank_is_forced(position):
    game = duel(position, answer_hand=(FOUR,) * 4)
    assert ask(game)[:2] == (PLAY, 1) and game.points == [30, 30, 24]


def test_pagat_duel_the_starter_chooses_the_victim(position):
    game = duel(position, n=4, duel_victim="chosen")
    answer(game, THREE)
    assert ask(game) == (TARGET, 0, [1, 2, 3], KING) and game.damage == 7
    answer(game, 3)
    assert game.points == [30, 30, 30, 23]


def test_pagat_duel_without_damage_asks_nothing(position):
    game = duel(position, n=4, duel_victim="chosen")
    answer(game, QUEEN)
    assert ask(game)[:2] == (PLAY, 1) and game.points == [30] * 4


# ---------------------------------------------------------------- rule 17: the end
def test_elimination_sends_the_hand_under_the_stock_and_play_skips_the_player(position, conserved):
    game = duel(position, n=4, points=[30, 30, 5, 30])
    stock_before = list(game.stock)
    hand2 = [k for k in range(N_KINDS) for _ in range(game.hands[2][k])]
    answer(game, THREE)
    assert game.points[2] == -2 and not game.alive(2) and sum(game.hands[2]) == 0
    assert game.stock[:4] == hand2 and game.stock[4:4 + 10] == stock_before[:10]
    assert game.out_order == [-1, -1, 0, -1] and conserved(game)
    assert game.out_turn == [0, 0, 1, 0]          # out in turn 1, the duel's
    assert game.next_player(1) == 3 and not game.over


def test_last_player_standing_wins(position):
    game = duel(position, n=2, points=[12, 3], answer_hand=(TWO, THREE, FOUR, QUEEN))
    answer(game, TWO)
    assert game.over and game.next_decision() is None
    seats, row = game.result()
    assert [s[:3] for s in seats] == [[1, 1, 12], [0, 2, -5]]
    assert row == [1, 1, 8, 0]


def test_ranks_follow_the_order_of_elimination(position):
    game = duel(position, n=3, points=[30, 30, 4])
    answer(game, TWO)                          # seat 2 loses 8: out first
    assert game.out_order == [-1, -1, 0] and ask(game)[:2] == (PLAY, 1)
    game.points[0] = 1
    answer(game, QUEEN)                        # two players left: the answerer is the victim
    assert ask(game)[:2] == (ANSWER, 0)
    answer(game, TWO)
    assert game.over and game.out_order == [1, -1, 0]
    seats, row = game.result()
    assert [s[:2] for s in seats] == [[0, 2], [1, 1], [0, 3]]
    assert row[:3] == [2, 2, 16]


# ---------------------------------------------------------------- rule 18: the turn cap
def test_turn_cap_stops_the_game_unfinished(position):
    game = position(3, hands=[FILLER, FILLER, FILLER], stock=[FIVE] * 20, turn_cap=4,
                    points=[30, 12, 20])
    for _ in range(4):
        kind, seat = game.next_decision()
        game.apply(kind, TWO if game.hands[seat][TWO] else THREE)
    assert game.next_decision() is None and game.unfinished and game.turns == 4
    seats, row = game.result()
    assert [s[0] for s in seats] == [0, 0, 0] and [s[1] for s in seats] == [1, 3, 2]
    assert row[-1] == 1


def test_the_view_carries_the_public_facts(position):
    """The pile in order, who is out and when, the last answers, the duel under way."""
    from simcards.games.bombs_away import view as V
    game = duel(position, n=4, points=[30, 30, 5, 30])
    v = game.view()
    assert (V.duel_from(v), V.duel_card(v), V.answerer(v), V.victim(v)) == (0, KING, 1, 2)
    answer(game, THREE)                                    # seat 2 is out
    game.next_decision()
    v = game.view()
    assert [V.out_order(v, p) for p in range(4)] == [-1, -1, 0, -1]
    assert [V.out_turn(v, p) for p in range(4)] == [0, 0, 1, 0] and V.turns(v) == 2
    assert V.n_out(v) == 1 and V.n_alive(v) == 3 and V.points_lost(v) == 7
    assert [V.pile_card(v, i) for i in range(V.pile_size(v))] == [k for k, _ in game.pile]
    assert [V.pile_counts_as(v, i) for i in range(V.pile_size(v))] == [e for _, e in game.pile]
    assert V.last_answer(v, 1, ANSWER) == THREE and V.last_answer(v, 0, PLAY) == game.pile[-2][0]
    assert V.duel_from(v) == -1 and V.duel_card(v) == -1 and V.answerer(v) == -1
    assert V.start_points(v) == 30 and V.full_hand(v) == 4 and V.deck_size(v) == 53


# ---------------------------------------------------------------- seat compensation
@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_points_seat_k_gives_the_seat_k_places_after_the_first_player_more_or_fewer_points(k):
    from simcards.games.bombs_away import view as V
    game = Game(5, SPEC.resolve_rules({f"points_seat{k}": 6}), seed=3, game_index=1)
    assert game.next_decision()[1] == 0                   # seat 0 is the first player
    assert game.points == [30 + 6 * (p == k) for p in range(5)]
    v = game.view()                                       # public: every seat sees it
    assert [V.extra_points(v, p) for p in range(5)] == [6 * (p == k) for p in range(5)]
    assert V.start_points(v) == 30
    game = Game(5, SPEC.resolve_rules({f"points_seat{k}": -10}), seed=3, game_index=1)
    assert game.points == [30 - 10 * (p == k) for p in range(5)]
    if k >= 2:                 # with k players there is no seat k: the option changes nothing
        assert Game(k, SPEC.resolve_rules({f"points_seat{k}": 6}), 3, 1).points == [30] * k


def test_a_duel_costs_a_compensated_seat_from_its_own_points(position):
    game = duel(position, n=4, points_seat2=5)
    assert game.points == [30, 30, 35, 30]
    answer(game, THREE)                        # 10 - 3: the player after the answerer loses 7
    assert game.points == [30, 30, 28, 30]


def test_compensation_keeps_every_seat_within_1_to_1000_points():
    from simcards.errors import SimcardsError
    with pytest.raises(SimcardsError, match="points_seat3=-10"):
        SPEC.resolve_rules({"points": 10, "points_seat3": -10})
    with pytest.raises(SimcardsError, match="1..1000"):
        SPEC.resolve_rules({"points": 1000, "points_seat1": 1})


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_hand_seat_k_gives_the_seat_k_places_after_the_first_player_a_larger_or_smaller_hand(k):
    from simcards.games.bombs_away import view as V
    for extra in (2, -1):
        game = Game(5, SPEC.resolve_rules({f"hand_seat{k}": extra}), seed=3, game_index=1)
        game.next_decision()
        sizes = [4 + extra * (p == k) for p in range(5)]
        assert game.full == sizes
        dealt = [sum(game.hands[p]) for p in range(5)]
        # the tens rule swaps a card for a card: the dealt sizes stand
        assert dealt == sizes, (extra, dealt)
        v = game.view()
        assert [V.extra_cards(v, p) for p in range(5)] == [extra * (p == k) for p in range(5)]
        assert V.full_hand(v) == 4
    if k >= 2:                 # with k players there is no seat k: the option changes nothing
        assert Game(k, SPEC.resolve_rules({f"hand_seat{k}": 2}), 3, 1).full == [4] * k


def test_a_compensated_hand_is_drawn_back_up_to_its_own_size():
    game = Game(3, SPEC.resolve_rules({"hand_seat1": -1, "hand_seat2": 1}), seed=5, game_index=2)
    game.next_decision()
    for p, size in enumerate([4, 3, 5]):
        game.hands[p] = [0] * len(game.hands[p])
        game.draw_up(p)
        assert sum(game.hands[p]) == size


def test_compensated_hands_stay_within_1_to_10_cards():
    from simcards.errors import SimcardsError
    with pytest.raises(SimcardsError, match="hand_seat2=-2 gives a seat a full hand of 0 cards"):
        SPEC.resolve_rules({"hand_size": 2, "hand_seat2": -2})
    with pytest.raises(SimcardsError, match="1..10"):
        SPEC.resolve_rules({"hand_size": 10, "hand_seat1": 1})


@pytest.mark.parametrize("k", [1, 4])
def test_deal_seat_k_deals_the_seat_more_or_fewer_cards_once_and_keeps_its_full_hand(k):
    from simcards.games.bombs_away import view as V
    for extra in (2, -2):
        game = Game(5, SPEC.resolve_rules({f"deal_seat{k}": extra}), seed=3, game_index=1)
        game.next_decision()
        dealt = [4 + extra * (p == k) for p in range(5)]
        assert game.deal_sizes == dealt and game.full == [4] * 5
        assert [sum(game.hands[p]) for p in range(5)] == dealt, extra
        v = game.view()
        assert [V.extra_dealt(v, p) for p in range(5)] == [extra * (p == k) for p in range(5)]
        assert [V.extra_cards(v, p) for p in range(5)] == [0] * 5


def test_a_seat_dealt_beyond_its_full_hand_draws_nothing_until_it_is_below_it():
    game = Game(3, SPEC.resolve_rules({"deal_seat1": 2}), seed=5, game_index=2)
    game.next_decision()
    assert sum(game.hands[1]) == 6
    stock = len(game.stock)
    game.draw_up(1)                       # rule 3 draws up to the full hand, never down
    assert sum(game.hands[1]) == 6 and len(game.stock) == stock
    game.hands[1] = [0] * len(game.hands[1])
    game.draw_up(1)
    assert sum(game.hands[1]) == 4


def test_a_seat_is_dealt_at_least_one_card_and_the_deal_fits_the_deck():
    from simcards.errors import SimcardsError
    with pytest.raises(SimcardsError, match="deal_seat2=-2 deals seat 2 0 cards: accepted is at least 1"):
        SPEC.resolve_rules({"hand_size": 3, "hand_seat2": -1, "deal_seat2": -2})
    with pytest.raises(SimcardsError, match="at most 52 may be dealt"):
        SPEC.encode_params(SPEC.resolve_rules({"hand_size": 10, **{f"deal_seat{k}": 2 for k in range(1, 5)}}), 5)
