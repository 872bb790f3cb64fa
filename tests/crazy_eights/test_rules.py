"""Every rule of Crazy Eights on the reference engine, from positions built by hand.

Rule numbers are those of docs/rules/crazy-eights.md. A card is written as in
rules.CARD_NAMES ("8♠", "10♥"); ``c("8♠")`` is its id. Stocks set by hand are laid out in a
known order (``stock_fixed`` = all of it), so draws take them from the top, no random number
drawn.
"""
import pytest

from simcards.errors import SimcardsError
from simcards.games.crazy_eights.reference import Game, IllegalMove, KEY_SCALE
from simcards.games.crazy_eights.rules import (
    CARD_NAMES, CLUBS, DECK_POINTS, DRAW, EIGHT, EIGHTS, HEARTS, N_CARDS, NAME_SUIT, PASS,
    PH_DREW, PH_PLAY, PH_SUIT, PLAY, SPADES, column_bounds, describe_move, points,
    rank, rank_mask, suit, suit_mask)
from simcards.registry import get_game
from simcards.rng import STREAM_DEAL, PyRandom
from simcards.engine import take_top_py

SPEC = get_game("crazy-eights")
ID = {name: i for i, name in enumerate(CARD_NAMES)}


def c(name: str) -> int:
    return ID[name]


def cards(*names: str) -> list[int]:
    return sorted(c(n) for n in names)


def new_game(n=3, seed=11, game_index=0, **rules) -> Game:
    return Game(n, SPEC.resolve_rules(rules), seed=seed, game_index=game_index)


def position(g: Game, hands, *, top: str, suit_to_follow=None, stock=(), pile=(), current=0,
             phase=PH_PLAY) -> Game:
    """Set a position by hand: the hands, the stock (bottom first, taken in this order from its
    end), the discard pile under the top card, the seat to move."""
    g.hands = [cards(*h) for h in hands]
    g.stock = [c(x) for x in stock]
    g.stock_fixed = len(g.stock)
    g.pile = [c(x) for x in pile] + [c(top)]
    g.top = c(top)
    g.suit = suit(c(top)) if suit_to_follow is None else suit_to_follow
    g.current, g.phase, g.drew, g.stuck = current, phase, 0, 0
    g.lacks = [0] * g.n
    return g


def conserved(g: Game) -> bool:
    return sorted(g.cards()) == list(range(N_CARDS))


# ------------------------------------------------------------------ cards [1]
def test_card_ids_names_and_points_rules_1_9():
    assert CARD_NAMES[0] == "A♣" and CARD_NAMES[7] == "8♣" and CARD_NAMES[51] == "K♠"
    assert (suit(c("10♥")), rank(c("10♥"))) == (HEARTS, 9)
    assert [points(c(x)) for x in ("A♠", "2♠", "7♦", "8♦", "9♣", "10♣", "J♥", "Q♥", "K♥")] == \
        [1, 2, 7, 50, 9, 10, 10, 10, 10]
    assert DECK_POINTS == 4 * (1 + 2 + 3 + 4 + 5 + 6 + 7 + 50 + 9 + 10 + 10 + 10 + 10)
    assert bin(EIGHTS).count("1") == 4 and all(rank(k) == EIGHT for k in range(52) if EIGHTS >> k & 1)
    assert suit_mask(SPADES) >> c("A♠") & 1 and rank_mask(EIGHT) == EIGHTS


# ------------------------------------------------------------------ the deal [2, 3]
@pytest.mark.parametrize("n, dealt", [(2, 7), (3, 5), (4, 5), (7, 5)])
def test_seven_cards_for_two_players_five_for_more_rule_2(n, dealt):
    g = new_game(n)
    assert [len(h) for h in g.hands] == [dealt] * n
    assert len(g.pile) == 1 and len(g.stock) == 52 - n * dealt - 1
    assert (g.dealer, g.current, g.phase, g.hands_dealt) == (n - 1, 0, PH_PLAY, 1)
    assert conserved(g)


def test_the_hand_size_option_and_its_limit_rule_2():
    assert [len(h) for h in new_game(2, hand_size=3).hands] == [3, 3]
    assert [len(h) for h in new_game(7, hand_size=7).hands] == [7] * 7      # 49 + starter
    with pytest.raises(SimcardsError, match="hand_size=8 for 7 players"):
        SPEC.encode_params(SPEC.resolve_rules({"hand_size": 8}), 7)


def test_cards_go_one_at_a_time_from_the_dealers_left_rule_2():
    """The deal takes cards from a stock in id order, each chosen when it is taken
    (take_top), one to each seat from the dealer's left, round after round."""
    g = new_game(3, seed=5, game_index=2)
    rng = PyRandom(5, 2, STREAM_DEAL)
    stock, fixed, hands = list(range(52)), 0, [[], [], []]
    for _ in range(5):
        for p in (0, 1, 2):                     # the dealer is seat 2
            card, fixed = take_top_py(stock, fixed, rng)
            hands[p].append(card)
    assert g.hands == [sorted(h) for h in hands]


def test_the_starter_is_turned_and_an_eight_goes_back_into_the_stock_rule_3():
    """Over many deals: the starter is never an eight while the stock holds other cards, and
    an eight turned first went back into the stock (the log says so)."""
    buried = 0
    for index in range(400):
        g = new_game(4, seed=3, game_index=index)
        assert rank(g.top) != EIGHT and g.suit == suit(g.top) and g.pile == [g.top]
        if any("goes back into the stock" in line for line in g.log):
            buried += 1
        assert conserved(g)
    assert 10 < buried < 80                     # about 4 deals in 52


def test_an_eight_stays_the_starter_when_the_stock_holds_only_eights_rule_3():
    g = new_game(2)
    g.stock, g.stock_fixed = [c("8♣"), c("8♦")], 0
    assert rank(g.turn_starter()) == EIGHT and len(g.stock) == 1
    g.stock, g.stock_fixed = [c("5♣"), c("8♦")], 0
    assert g.turn_starter() == c("5♣") and g.stock == [c("8♦")]


# ------------------------------------------------------------------ a turn [4-7]
def test_a_card_matches_the_rank_or_the_suit_or_is_an_eight_rule_4():
    g = position(new_game(2), [("5♣", "9♥", "8♠", "K♣", "2♦"), ("A♣",)], top="5♥", stock=["3♣"])
    assert g.next_decision() == (PLAY, 0)
    assert g.legal_moves() == cards("5♣", "8♠", "9♥") + [DRAW]


def test_a_named_suit_is_followed_or_an_eight_played_rule_5():
    g = position(new_game(2), [("3♥", "3♠", "8♣", "K♠"), ("A♣",)], top="8♠",
                 suit_to_follow=HEARTS, stock=["3♣"])
    assert g.legal_moves() == cards("8♣", "3♥") + [DRAW]       # not 3♠: hearts are named


def test_an_eight_names_a_suit_and_the_next_player_follows_it_rule_5():
    g = position(new_game(3), [("8♣", "K♠"), ("A♥", "A♠"), ("2♣",)], top="5♥", stock=["3♣"])
    g.apply(PLAY, c("8♣"))
    assert g.next_decision() == (NAME_SUIT, 0) and g.legal_moves() == [0, 1, 2, 3]
    g.apply(NAME_SUIT, SPADES)
    assert (g.suit, g.current, g.phase, g.eights[0]) == (SPADES, 1, PH_PLAY, 1)
    assert g.legal_moves() == [c("A♠"), DRAW]


def test_an_eight_as_the_last_card_names_nothing_and_wins_rules_5_8():
    g = position(new_game(3), [("8♣",), ("A♥", "K♠"), ("2♣",)], top="5♥", stock=["3♣"])
    g.apply(PLAY, c("8♣"))
    assert g.over and g.next_decision() is None
    seats, game = g.result()
    assert seats[0][:3] == [1, 1, 1 + 10 + 2] and seats[1][0] == 0


def test_drawing_until_a_card_can_be_played_rules_6_10():
    """No playable card: the engine draws for the player (rule 10) until the 5♦ comes, and
    plays it, the one card it may play."""
    g = position(new_game(2), [("K♣", "Q♣"), ("5♥", "6♦")], top="9♦",
                 stock=["A♣", "5♦", "3♠", "2♠"])
    assert g.next_decision() == (PLAY, 1)             # seat 0 drew 2♠, 3♠, 5♦, played 5♦
    assert g.hands[0] == cards("K♣", "Q♣", "2♠", "3♠") and g.top == c("5♦")
    assert (g.draws, g.drawn[0], g.turns, g.stock) == (3, 3, 1, [c("A♣")])


def test_a_player_may_draw_with_a_playable_card_and_then_must_play_rules_6_7():
    g = position(new_game(2), [("5♦", "K♣"), ("A♥", "4♠")], top="9♦", stock=["7♦", "2♠"])
    assert g.next_decision() == (PLAY, 0) and DRAW in g.legal_moves()
    g.apply(PLAY, DRAW)
    assert g.drew == 2 and g.phase == PH_DREW             # 2♠ could not be played, 7♦ can
    assert g.legal_moves() == cards("5♦", "7♦")            # no pass, no second draw
    with pytest.raises(IllegalMove, match="draw again"):
        g.apply(PLAY, DRAW)
    with pytest.raises(IllegalMove, match="pass while it can play"):
        g.apply(PLAY, PASS)


def test_draw_one_then_play_or_pass_rules_6_7():
    g = position(new_game(2, draw="one"), [("K♣",), ("A♥", "4♠")], top="9♦",
                 stock=["2♠", "4♦"])
    assert g.next_decision() == (PLAY, 0)                 # drew 4♦ for the player (forced)
    assert g.legal_moves() == [c("4♦"), PASS] and g.drew == 1
    g.apply(PLAY, PASS)
    assert (g.current, g.turns, g.passes, g.lacks[0]) == (1, 1, 1, 0)   # a pass by choice
    # a card drawn that cannot be played: the pass is the only move, made by the engine
    g = position(new_game(2, draw="one"), [("K♣",), ("A♥", "4♠")], top="9♦", stock=["4♦", "2♠"])
    assert g.next_decision() == (PLAY, 1) and g.hands[0] == cards("K♣", "2♠")


def test_an_empty_stock_is_rebuilt_from_the_pile_under_its_top_card_rule_6():
    g = position(new_game(2), [("K♣",), ("3♥", "5♦")], top="9♦",
                 pile=["3♦", "Q♠", "2♥"], stock=[])
    # seat 0 draws from a stock rebuilt of 3♦, Q♠ and 2♥ until the 3♦ comes, and plays it
    assert g.next_decision() == (PLAY, 1)
    assert g.reshuffles == 1 and g.pile == [c("9♦"), c("3♦")] and g.stock_fixed == 0
    assert sorted(g.cards()) == cards("K♣", "3♥", "5♦", "9♦", "3♦", "Q♠", "2♥")


def test_empty_stock_pass_draws_nothing_and_the_player_passes_rules_6_7():
    g = position(new_game(2, empty_stock="pass"), [("K♣",), ("9♥", "2♦")], top="9♦",
                 pile=["3♦", "Q♠"], stock=[])
    assert g.next_decision() == (PLAY, 1)              # seat 0 could neither play nor draw
    assert (g.passes, g.stuck, g.reshuffles, g.draws, g.turns) == (1, 1, 0, 0, 1)
    assert g.legal_moves() == cards("2♦", "9♥")        # no draw: the stock is empty


def test_a_pass_without_a_choice_shows_what_the_seat_lacks_until_it_draws_rule_7():
    g = position(new_game(2, empty_stock="pass"), [("K♣", "Q♣"), ("9♥", "9♠", "5♠")],
                 top="9♦", stock=[])
    g.next_decision()
    known = suit_mask(suit(c("9♦"))) | rank_mask(rank(c("9♦"))) | EIGHTS
    assert g.lacks[0] == known and not any(known >> k & 1 for k in g.hands[0])
    g.stock, g.stock_fixed = [c("2♣")], 1
    g.draw_card(0)
    assert g.lacks[0] == 0


def test_a_blocked_hand_scores_the_others_excess_over_the_fewest_points_rules_8_9():
    g = position(new_game(3, empty_stock="pass"), [("K♣",), ("2♣", "3♣"), ("Q♣", "J♣")],
                 top="9♦", stock=[])
    assert g.next_decision() is None                   # three passes in a row: blocked
    assert (g.blocked, g.passes, g.score) == (1, 3, [0, (10 - 5) + (20 - 5), 0])
    seats, game = g.result()
    assert [s[0] for s in seats] == [0, 1, 0] and [s[1] for s in seats] == [2, 1, 3]
    assert game[5] == 1                                # the blocked column


def test_a_blocked_hand_with_equal_points_is_a_shared_win_rules_8_11():
    g = position(new_game(2, empty_stock="pass"), [("K♣",), ("Q♣",)], top="9♦", stock=[])
    assert g.next_decision() is None
    seats, _ = g.result()
    assert g.score == [0, 0] and [s[:2] for s in seats] == [[1, 1], [1, 1]]


def test_the_player_out_scores_the_points_left_in_the_other_hands_rule_9():
    g = position(new_game(3), [("5♦",), ("8♥", "K♠"), ("A♣", "2♣")], top="9♦", stock=["3♣"])
    g.apply(PLAY, c("5♦"))
    assert g.score == [50 + 10 + 1 + 2, 0, 0] and g.over
    seats, game = g.result()
    assert [s[1] for s in seats] == [1, 3, 2]          # then the fewer points held
    assert seats[1][3:5] == [2, 60]                    # cards and points left


def test_a_decision_with_one_legal_move_is_made_by_the_engine_rule_10():
    g = position(new_game(2, empty_stock="pass"), [("5♦", "K♣"), ("5♥", "2♦")], top="9♦",
                 stock=[])
    assert g.next_decision() == (PLAY, 1)              # 5♦ was seat 0's only move
    assert g.hands[0] == [c("K♣")] and g.top == c("5♦")


# ------------------------------------------------------------------ the game [11, 12]
def test_a_single_hand_is_the_default_game_rule_11():
    g = new_game(4, seed=2)
    while (d := g.next_decision()) is not None:
        g.apply(d[0], g.legal_moves()[0])
    seats, game = g.result()
    assert game[0] == 1 and sum(s[0] for s in seats) >= 1 and g.over and not g.unfinished


def test_a_points_game_deals_again_moving_the_deal_until_the_target_rule_11():
    g = new_game(3, seed=4, target=150)
    dealers = [g.dealer]
    while (d := g.next_decision()) is not None:
        if g.dealer != dealers[-1]:
            dealers.append(g.dealer)
        g.apply(d[0], g.legal_moves()[0])
    assert g.hands_dealt >= 2 and dealers[:3] == [2, 0, 1][:len(dealers[:3])]
    assert max(g.score) >= 150 and conserved(g)
    seats, game = g.result()
    best = max(g.score)
    assert all((s[0] == 1) == (g.score[p] == best) for p, s in enumerate(seats)) or \
        len([x for x in g.score if x == best]) > 1


def test_ranks_are_the_score_then_the_fewer_points_held_rule_11():
    g = position(new_game(3), [("K♣",), ("2♣",), ("Q♣", "J♣")], top="9♦", stock=["3♣"])
    g.score = [30, 30, 10]
    g.over = True
    seats, _ = g.result()
    assert [s[1] for s in seats] == [2, 1, 3] and [s[0] for s in seats] == [0, 1, 0]
    assert KEY_SCALE > DECK_POINTS


def test_the_turn_cap_leaves_the_game_unfinished_without_a_winner_rule_12():
    g = new_game(4, seed=1, turn_cap=3)
    while (d := g.next_decision()) is not None:
        g.apply(d[0], g.legal_moves()[0])
    seats, game = g.result()
    assert g.unfinished and game[1] == 3 and game[-1] == 1
    assert all(s[0] == 0 for s in seats)


# ------------------------------------------------------------------ moves and words
def test_illegal_moves_say_why():
    g = position(new_game(2), [("5♦", "K♣"), ("A♥",)], top="9♦", stock=["2♠"])
    with pytest.raises(IllegalMove, match="not in its hand"):
        g.apply(PLAY, c("5♥"))
    with pytest.raises(IllegalMove, match="K♣ on 9♦"):
        g.apply(PLAY, c("K♣"))
    with pytest.raises(IllegalMove, match="not asked"):
        g.apply(NAME_SUIT, 0)
    g.apply(PLAY, c("5♦"))
    assert g.phase == PH_PLAY and g.current == 1


def test_moves_in_words():
    assert describe_move(PLAY, c("10♥")) == "play 10♥"
    assert (describe_move(PLAY, DRAW), describe_move(PLAY, PASS)) == ("draw", "pass")
    assert describe_move(NAME_SUIT, CLUBS) == "name clubs"
    assert describe_move(PLAY, 99) == "move 99"


def test_column_bounds_follow_the_rules():
    b = column_bounds(SPEC.resolve_rules({}), 4)
    assert b["score"] == (0, DECK_POINTS) and b["turns"] == (0, 10_000)
    assert column_bounds(SPEC.resolve_rules({"target": 200}), 4)["score"] == (0, 199 + DECK_POINTS)
