"""Every rule of docs/rules/thirty-one.md on the reference engine, on positions built by hand."""
import copy

import pytest

import numpy as np

from simcards.errors import SimcardsError
from simcards.games.thirty_one import view as V
from simcards.games.thirty_one.reference import (PHASE_DEAL, PHASE_TURN, TURN, VOTE, Game,
                                                 IllegalMove)
from simcards.games.thirty_one.rules import (ACCEPT, CARD_NAMES, KNOCK, PASS, PROPOSE, REFUSE,
                                             score, swap_move)
from simcards.registry import get_game

CARD = {name: i for i, name in enumerate(CARD_NAMES)}


def cards(text):
    return sorted(CARD[name] for name in text.split())


def new_game(n=3, **options):
    rules = get_game("thirty-one").resolve_rules(options)
    return Game(n, rules, seed=0, game_index=0)


def position(g, hands, middle, *, stock=None, discard="", dealer=None, current=None, keys=None):
    """Lay out a position: hands, middle and discard pile by card names; the stock is the rest
    in id order (top = last) unless given, and is taken in that order (``stock_fixed``: as if
    laid out face down card by card, not shuffled)."""
    g.hands = [cards(h) for h in hands]
    g.middle = cards(middle)
    g.discard = cards(discard) if isinstance(discard, str) else list(discard)
    used = {c for h in g.hands for c in h} | set(g.middle) | set(g.discard)
    g.stock = [c for c in range(36) if c not in used] if stock is None else list(stock)
    g.stock_fixed = len(g.stock)
    assert g.cards_everywhere() == list(range(36))
    if dealer is not None:
        g.dealer = dealer
    g.current = (g.dealer + 1) % g.n if current is None else current
    if keys is not None:
        g.keys = list(keys)
    g.phase = PHASE_TURN
    g.round_turns = g.quiet = 0
    return g


def swap(g, give, take):
    g.apply(TURN, swap_move(CARD[give], CARD[take]))


# ------------------------------------------------------------------ set-up (rules 6, 7)
def test_setup_keys_bank_dealer_and_deal():
    g = new_game(4)
    assert g.keys == [3, 3, 3, 3] and g.bank == 18 - 12
    assert g.dealer == 3 and g.current == 0 and g.rounds == 1
    assert all(len(h) == 3 for h in g.hands) and len(g.middle) == 3
    assert len(g.stock) == 36 - 15 and g.discard == []
    assert g.cards_everywhere() == list(range(36))


def test_the_deal_moves_clockwise_whatever_happened():
    g = position(new_game(3), ["6♣ 7♦ 8♥", "9♣ 10♦ J♥", "Q♣ K♦ A♥"], "6♠ 7♠ 9♠", dealer=1)
    g.showdown("test")
    assert g.dealer == 2 and g.current == 0 and g.rounds == 2
    assert g.phase == PHASE_DEAL


# ------------------------------------------------------------------ moves (rule 8)
def test_legal_moves_nine_swaps_pass_propose_and_knock_only_with_one_suit():
    g = position(new_game(3), ["6♥ 9♥ A♣", "9♣ 10♦ J♥", "Q♣ K♦ A♥"], "6♠ 7♠ 9♦", dealer=2)
    moves = g.legal_moves()
    assert len(moves) == 12 and KNOCK in moves and PASS in moves and PROPOSE in moves
    g.current = 1
    moves = g.legal_moves()
    assert len(moves) == 11 and KNOCK not in moves
    with pytest.raises(IllegalMove):
        g.apply(TURN, KNOCK)
    with pytest.raises(IllegalMove):
        g.apply(TURN, swap_move(CARD["6♥"], CARD["6♠"]))     # not seat 1's card
    with pytest.raises(IllegalMove):
        g.apply(VOTE, ACCEPT)                                  # no proposal under way


def test_a_plain_swap_passes_the_turn_on():
    g = position(new_game(3), ["6♣ 7♦ 8♥", "9♣ 10♦ J♥", "Q♣ K♦ A♥"], "6♠ 7♠ 9♦", dealer=2)
    swap(g, "6♣", "9♦")
    assert g.hands[0] == cards("7♦ 8♥ 9♦") and g.middle == cards("6♣ 6♠ 7♠")
    assert g.current == 1 and g.turns == 1 and g.round_turns == 1 and g.quiet == 0


# ------------------------------------------------------------------ rule 9: a one-suit middle
@pytest.mark.parametrize("middle_after", ["three spades", "two spades and the ace of clubs"])
def test_one_suit_middle_after_a_swap_is_renewed_and_the_player_goes_again(middle_after):
    give = "8♠" if middle_after == "three spades" else "A♣"
    g = position(new_game(3), [f"6♦ 7♥ {give}", "9♣ 10♦ J♥", "Q♣ K♦ A♥"], "6♠ 7♠ 9♦",
                 dealer=2)
    top3 = g.stock[-3:]
    swap(g, give, "9♦")
    assert g.discard == sorted(cards(f"6♠ 7♠ {give}"))        # face down, in id order
    assert g.middle == sorted(top3)
    assert g.current == 0                                      # another turn
    assert g.turns == 1


def test_cards_freshly_laid_out_are_not_tested():
    g = position(new_game(3), ["6♦ 7♥ 8♠", "9♣ 10♦ J♥", "Q♣ K♦ A♥"], "6♠ 7♠ 9♦", dealer=2)
    g.stock = [c for c in g.stock if c not in cards("8♥ 9♥ 10♥")] + cards("8♥ 9♥ 10♥")
    swap(g, "8♠", "9♦")
    assert g.middle == cards("8♥ 9♥ 10♥")                     # one suit, and it stays
    assert g.current == 0 and len(g.discard) == 3


def test_knock_swaps_all_three_then_the_middle_is_renewed():
    g = position(new_game(3), ["6♥ 9♥ A♣", "9♣ 10♦ J♥", "Q♣ K♦ A♥"], "6♠ 7♠ 9♦", dealer=2)
    top3 = g.stock[-3:]
    g.apply(TURN, KNOCK)
    assert g.hands[0] == cards("6♠ 7♠ 9♦")
    assert g.discard == cards("6♥ 9♥ A♣") and g.middle == sorted(top3)
    assert g.current == 0 and g.turns == 1


def test_knock_into_a_combination_declares_it_at_once():
    g = position(new_game(3), ["6♥ 9♥ 7♥", "9♣ 10♦ J♥", "Q♣ K♦ A♥"], "A♠ K♠ Q♠", dealer=2)
    g.apply(TURN, KNOCK)
    assert g.ends["31"] == 1 and g.declared[0] == 1
    # the lowest other hand (seat 1: 10 or 9 or 10 -> 10; seat 2: 11) loses a key
    assert g.keys == [3, 2, 3]


# ------------------------------------------------------------------ rule 9a: a quiet circle
def test_a_full_circle_of_passes_and_refused_proposals_refreshes_the_middle():
    g = position(new_game(3), ["6♣ 7♦ 8♥", "9♣ 10♦ J♥", "Q♣ K♦ A♥"], "6♠ 7♠ 9♦", dealer=2)
    top3 = g.stock[-3:]
    g.apply(TURN, PASS)                                        # seat 0
    g.apply(TURN, PROPOSE)                                     # seat 1
    assert g.next_decision() == (VOTE, 2)
    g.apply(VOTE, REFUSE)
    assert g.next_decision() == (VOTE, 0)
    g.apply(VOTE, ACCEPT)
    assert g.middle == cards("6♠ 7♠ 9♦") and g.quiet == 2
    g.apply(TURN, PASS)                                        # seat 2 closes the circle
    assert g.refreshes == 1 and g.middle == sorted(top3) and g.discard == cards("6♠ 7♠ 9♦")
    assert g.turns == 3 and g.next_decision() == (TURN, 0)     # the refresh is not a turn


def test_a_swap_breaks_the_quiet_circle():
    g = position(new_game(3), ["6♣ 7♦ 8♥", "9♣ 10♦ J♥", "Q♣ K♦ A♥"], "6♠ 7♠ 9♦", dealer=2)
    g.apply(TURN, PASS)
    swap(g, "9♣", "9♦")
    g.apply(TURN, PASS)
    g.apply(TURN, PASS)
    assert g.refreshes == 0 and g.quiet == 2


# ------------------------------------------------------------------ rule 10: the stock runs out
def _exhaust(rebuild):
    g = position(new_game(3, rebuild=rebuild), ["6♦ 7♥ 8♠", "9♣ 10♦ J♥", "Q♣ K♦ A♥"],
                 "6♠ 7♠ 9♦", dealer=2)
    rest = g.stock
    g.stock, g.discard = rest[:1], rest[1:]                    # one card left in the stock
    g.stock_fixed = 1
    return g


def test_an_empty_stock_is_the_discard_pile_shuffled():
    g = _exhaust("shuffled")
    last, pile = g.stock[0], list(g.discard)
    twin = copy.deepcopy(g.rng)
    swap(g, "8♠", "9♦")                                        # the middle is three spades
    rebuilt = sorted(pile + cards("6♠ 7♠ 8♠"))
    drawn = []
    for _ in range(2):                  # shuffled as it is taken: each card chosen when drawn
        twin.draw_to_top(rebuilt, 0)
        drawn.append(rebuilt.pop())
    assert g.middle == sorted([last] + drawn)
    assert g.stock == rebuilt and g.discard == [] and g.rebuilds == 1
    assert g.cards_everywhere() == list(range(36))


def test_an_empty_stock_is_the_discard_pile_as_it_lies():
    g = _exhaust("as_it_lies")
    last, pile = g.stock[0], list(g.discard)
    swap(g, "8♠", "9♦")
    # the pile turned over whole: the triple just discarded comes straight back
    assert g.middle == sorted([last, CARD["8♠"], CARD["7♠"]])
    assert g.stock == pile + [CARD["6♠"]] and g.rebuilds == 1
    assert g.cards_everywhere() == list(range(36))


# ------------------------------------------------------------------ rule 11: proposals
def test_a_refused_proposal_asks_everyone_and_play_goes_on():
    g = position(new_game(4), ["6♣ 7♦ 8♥", "9♣ 10♦ J♥", "Q♣ K♦ A♥", "6♠ 7♠ 9♠"], "8♣ 8♦ 9♦",
                 dealer=3)
    g.apply(TURN, PROPOSE)
    assert g.next_decision() == (VOTE, 1)
    g.apply(VOTE, REFUSE)
    assert g.next_decision() == (VOTE, 2)                      # asked even after a refusal
    v = g.view(VOTE)
    assert [V.vote_of(v, q) for q in range(4)] == [-1, 0, -1, -1] and V.proposer(v) == 0
    assert [V.refusals(v, q) for q in range(4)] == [0, 1, 0, 0]
    assert V.n_legal(v) == 2 and [V.legal_move(v, i) for i in range(2)] == [REFUSE, ACCEPT]
    g.apply(VOTE, ACCEPT)
    g.apply(VOTE, ACCEPT)
    assert g.next_decision() == (TURN, 1)
    assert g.keys == [3, 3, 3, 3] and g.proposals[0] == 1 and g.turns == 1
    assert g.ends["proposal"] == 0 and g.proposer == -1


def test_an_accepted_proposal_is_a_showdown():
    g = position(new_game(3), ["6♣ 7♦ 8♥", "9♣ 10♦ J♥", "Q♣ K♦ A♥"], "6♠ 7♠ 9♦", dealer=2)
    g.apply(TURN, PROPOSE)
    g.apply(VOTE, ACCEPT)
    g.apply(VOTE, ACCEPT)
    assert g.ends["proposal"] == 1 and g.keys == [2, 3, 3] and g.rounds == 2


# ------------------------------------------------------------------ rules 5, 17: showdowns
def test_a_32_loses_the_showdown_whatever_the_others_hold():
    g = position(new_game(3), ["A♣ A♥ 10♥", "6♣ 7♦ 8♥", "9♣ 10♦ J♥"], "6♠ 7♠ 9♦", dealer=2)
    assert score(*g.hands[0])[0] == 32
    g.showdown("test")
    assert g.keys == [2, 3, 3]


def test_all_tied_lowest_lose_a_key_and_nobody_gains():
    g = position(new_game(4), ["6♣ 7♦ 8♥", "8♣ 7♥ 6♦", "A♥ K♥ Q♥", "9♣ 10♦ J♥"], "6♠ 7♠ 9♦",
                 dealer=3)
    g.showdown("test")
    assert g.keys == [2, 2, 3, 3] and g.bank == 18 - 12


# ------------------------------------------------------------------ rules 13-16: combinations
def test_31_dealt_the_lowest_other_player_loses_a_key():
    g = position(new_game(3), ["A♠ K♠ Q♠", "9♣ 10♣ J♥", "6♣ 7♦ 8♥"], "6♠ 7♠ 9♦", dealer=2)
    g.phase = PHASE_DEAL
    g.check_dealt_combinations()
    assert g.ends["31"] == 1 and g.keys == [3, 3, 2] and g.declared == [1, 0, 0]
    assert g.bank == 18 - 9 and g.rounds == 2


def test_31_against_tied_lowest_and_a_32():
    g = position(new_game(4), ["A♠ K♠ Q♠", "6♣ 7♦ 8♥", "8♣ 7♥ 6♦", "9♣ 10♦ J♥"], "6♠ 7♠ 9♦",
                 dealer=3)
    g.phase = PHASE_DEAL
    g.check_dealt_combinations()
    assert g.keys == [3, 2, 2, 3]
    g = position(new_game(3), ["A♠ K♠ Q♠", "A♣ A♥ 10♥", "6♣ 7♦ 8♥"], "6♠ 7♠ 9♦", dealer=2)
    g.phase = PHASE_DEAL
    g.check_dealt_combinations()
    assert g.keys == [3, 2, 3]                                 # the 32 is lowest


def test_33_dealt_takes_three_keys_and_others_without_combination_lose_one():
    g = position(new_game(3), ["A♠ A♦ A♥", "9♣ 10♣ J♥", "6♣ 7♦ 8♥"], "6♠ 7♠ 9♦", dealer=2)
    g.phase = PHASE_DEAL
    g.check_dealt_combinations()
    assert g.ends["33"] == 1 and g.keys == [6, 2, 2] and g.bank == 18 - 9 - 3


def test_678_dealt_takes_one_key_and_a_dealt_31_is_spared():
    g = position(new_game(3), ["6♥ 7♥ 8♥", "A♠ K♠ Q♠", "9♣ 10♦ J♦"], "6♠ 7♠ 9♦", dealer=2)
    g.phase = PHASE_DEAL
    g.check_dealt_combinations()
    assert g.ends["6-7-8"] == 1 and g.ends["31"] == 0
    assert g.keys == [4, 3, 2] and g.bank == 18 - 9 - 1


def test_the_best_dealt_combination_wins_33_then_678_then_31():
    g = position(new_game(3), ["A♣ K♣ Q♣", "6♥ 7♥ 8♥", "A♠ A♦ A♥"], "6♠ 7♠ 9♦", dealer=2)
    g.phase = PHASE_DEAL
    g.check_dealt_combinations()
    assert g.ends["33"] == 1 and g.declared == [0, 0, 1]
    assert g.keys == [3, 3, 6]                                 # both others hold combinations
    g = position(new_game(3), ["A♣ K♣ Q♣", "6♥ 7♥ 8♥", "9♣ 10♦ J♥"], "6♠ 7♠ 9♦", dealer=2)
    g.phase = PHASE_DEAL
    g.check_dealt_combinations()
    assert g.ends["6-7-8"] == 1 and g.declared == [0, 1, 0] and g.keys == [3, 4, 2]


def test_equal_dealt_combinations_go_to_the_first_in_turn_order():
    # dealer 0: turn order 1, 2, 0; seats 0 and 2 both hold 6-7-8, seat 2 comes first
    g = position(new_game(3), ["6♥ 7♥ 8♥", "9♣ 10♦ J♥", "6♠ 7♠ 8♠"], "6♦ 7♦ 9♦", dealer=0)
    g.phase = PHASE_DEAL
    g.check_dealt_combinations()
    assert g.declared == [0, 0, 1] and g.keys == [3, 2, 4]


@pytest.mark.parametrize("hand, take, combo, keys", [
    ("A♠ K♠ 6♦", "Q♠", "31", [3, 3, 2]),
    ("A♠ A♦ 6♦", "A♥", "33", [6, 2, 2]),
    ("6♥ 7♥ 9♦", "8♥", "6-7-8", [4, 2, 2]),
])
def test_each_combination_after_a_swap_ends_the_round(hand, take, combo, keys):
    give = "6♦" if combo != "6-7-8" else "9♦"
    g = position(new_game(3), [hand, "9♣ 10♣ J♥", "6♣ 7♦ 8♣"], f"{take} 7♠ 9♠", dealer=2)
    swap(g, give, take)
    assert g.ends[combo] == 1 and g.declared[0] == 1 and g.keys == keys and g.rounds == 2


def test_the_bank_running_out_pays_what_it_holds():
    g = position(new_game(3), ["A♠ A♦ A♥", "9♣ 10♣ J♥", "6♣ 7♦ 8♥"], "6♠ 7♠ 9♦", dealer=2)
    g.bank = 2
    g.phase = PHASE_DEAL
    g.check_dealt_combinations()
    assert g.keys == [5, 2, 2] and g.bank == 0
    g = position(g, ["6♥ 7♥ 8♥", "9♣ 10♣ J♥", "6♣ 7♦ 8♣"], "6♠ 7♠ 9♦", dealer=2)
    g.phase = PHASE_DEAL
    g.check_dealt_combinations()
    assert g.keys == [5, 1, 1] and g.bank == 0


# ------------------------------------------------------------------ rules 12, 18, 19: the end
def test_the_turn_cap_ends_the_round_in_a_showdown():
    g = position(new_game(4, turn_cap=3), ["6♣ 7♦ 8♥", "9♣ 10♦ J♥", "Q♣ K♦ A♥", "6♠ 7♠ 9♠"],
                 "8♣ 8♦ 9♦", dealer=3)
    for _ in range(3):
        assert g.next_decision()[0] == TURN
        g.apply(TURN, PASS)
    assert g.refreshes == 0
    g.next_decision()
    assert g.ends["cap"] == 1 and g.keys == [2, 3, 3, 3] and g.rounds == 2


def test_the_game_ends_when_a_player_has_no_keys_most_keys_win():
    g = position(new_game(3), ["6♣ 7♦ 8♥", "9♣ 10♦ J♥", "Q♣ K♦ A♥"], "6♠ 7♠ 9♦", dealer=2,
                 keys=[1, 2, 2])
    g.showdown("test")
    assert g.over and not g.unfinished and g.next_decision() is None
    seats, row = g.result()
    assert [s[:3] for s in seats] == [[0, 3, 0], [1, 1, 2], [1, 1, 2]]   # a shared win
    assert row[-1] == 0


def test_the_round_cap_leaves_the_game_unfinished():
    g = position(new_game(3, round_cap=1), ["6♣ 7♦ 8♥", "9♣ 10♦ J♥", "Q♣ K♦ A♥"], "6♠ 7♠ 9♦",
                 dealer=2)
    g.showdown("test")
    assert g.over and g.unfinished
    seats, row = g.result()
    assert [s[0] for s in seats] == [0, 0, 0] and [s[1] for s in seats] == [3, 1, 1]
    assert row[0] == 1 and row[-1] == 1


# ------------------------------------------------------------------ what a strategy sees
def test_the_view_shows_own_hand_middle_pile_and_keys_only():
    g = position(new_game(3), ["6♣ 7♦ 8♥", "9♣ 10♦ J♥", "Q♣ K♦ A♥"], "6♠ 7♠ 9♦", dealer=2,
                 discard="A♠ K♠ Q♠")
    v = g.view(TURN)
    assert v.seat == 0 and V.hand(v) == tuple(cards("6♣ 7♦ 8♥"))
    assert V.middle(v) == tuple(cards("6♠ 7♠ 9♦")) and [V.keys(v, q) for q in range(4)] == [3, 3, 3, 0]
    assert V.discard_mask(v) == sum(1 << c for c in cards("A♠ K♠ Q♠")) and V.discard_size(v) == 3
    assert [V.discard_card(v, i) for i in range(3)] == cards("A♠ K♠ Q♠")
    assert V.stock_size(v) == 36 - 15 and V.proposer(v) == -1
    assert [V.vote_of(v, q) for q in range(4)] == [-1, -1, -1, -1]
    assert V.dealer(v) == 2 and V.n_players(v) == 3 and V.turn_cap(v) == 120
    assert V.round_cap(v) == 500 and V.as_it_lies(v) == 0 and V.starting_keys(v) == 3
    assert V.starting_bank(v) == 18 - 9 and V.bank(v) == 9
    # nothing of another seat's hand or of the stock
    hidden = ~V.LAYOUT.visible_to(0, V.SIZE)
    assert not np.any(v.s[hidden])
    assert V.n_legal(v) == 11 and not V.can_knock(v)
    assert [V.legal_move(v, i) for i in range(11)] == g.legal_moves()
    g.current = 1
    g.hands[1] = cards("6♥ 9♥ A♣")
    g.hands[0] = cards("9♣ 10♦ J♥")
    v = g.view(TURN)
    assert V.n_legal(v) == 12 and V.can_knock(v) and V.is_legal_move(v, KNOCK)
    assert [V.legal_move(v, i) for i in range(12)] == g.legal_moves()


def test_the_view_shows_what_each_seat_did_this_round():
    g = position(new_game(3), ["6♣ 7♦ 8♥", "9♣ 10♦ J♥", "Q♣ K♦ A♥"], "6♠ 7♠ 9♦", dealer=2)
    swap(g, "6♣", "6♠")                                      # seat 0
    g.apply(TURN, PASS)                                      # seat 1
    g.apply(TURN, PROPOSE)                                   # seat 2
    g.apply(VOTE, REFUSE)                                    # seat 0
    v = g.view(VOTE)                                         # seat 1
    assert V.held_known(v, 0) == 1 << CARD["6♠"] and V.given(v, 0) == 1 << CARD["6♣"]
    assert V.held_known(v, 1) == 0 and V.given(v, 1) == 0
    assert [V.last_move(v, q) for q in range(4)] == [swap_move(CARD["6♣"], CARD["6♠"]), PASS,
                                                     PROPOSE, -1]
    assert V.refusals(v, 0) == 1 and V.proposals(v, 2) == 1 and V.round_turns(v) == 3
    assert V.turns(v) == 3 and V.round_number(v) == 1 and V.current(v) == 2


def test_a_knock_shows_the_whole_new_hand_and_the_old_one():
    g = position(new_game(3), ["6♥ 9♥ A♣", "9♣ 10♦ J♥", "Q♣ K♦ A♥"], "6♠ 7♠ 9♦", dealer=2)
    g.apply(TURN, KNOCK)
    v = g.view(TURN)
    assert V.held_known(v, 0) == sum(1 << c for c in cards("6♠ 7♠ 9♦"))
    assert V.given(v, 0) == sum(1 << c for c in cards("6♥ 9♥ A♣"))
    assert V.last_move(v, 0) == KNOCK


def test_illegal_moves_raise_a_simcards_error_saying_why():
    g = position(new_game(3), ["6♣ 7♦ 8♥", "9♣ 10♦ J♥", "Q♣ K♦ A♥"], "6♠ 7♠ 9♦", dealer=2)
    with pytest.raises(SimcardsError, match="one suit"):
        g.apply(TURN, KNOCK)
    with pytest.raises(IllegalMove, match="card of the hand"):
        g.apply(TURN, swap_move(CARD["9♣"], CARD["6♠"]))
    with pytest.raises(IllegalMove, match="middle card"):
        g.apply(TURN, swap_move(CARD["6♣"], CARD["9♣"]))
    with pytest.raises(IllegalMove, match="'turn'"):
        g.apply(VOTE, ACCEPT)
    g.apply(TURN, PROPOSE)
    with pytest.raises(IllegalMove, match="0 .refuse. or 1"):
        g.apply(VOTE, 2)


# ------------------------------------------------------------------ seat compensation
@pytest.mark.parametrize("k", [1, 2, 3])
def test_keys_seat_k_gives_the_seat_k_places_after_the_first_player_more_or_fewer_keys(k):
    g = new_game(4, **{f"keys_seat{k}": 2})
    assert g.dealer == 3 and g.current == 0                   # seat 0 is the first player
    assert g.keys == [3 + 2 * (p == k) for p in range(4)] and g.bank == 18 - 14   # from the box
    v = g.view(TURN)                                          # public: every seat sees it
    assert [V.extra_keys.py_func(v, p) for p in range(4)] == [2 * (p == k) for p in range(4)]
    assert V.starting_keys.py_func(v) == 3 and V.starting_bank.py_func(v) == 4
    g = new_game(4, **{f"keys_seat{k}": -2})
    assert g.keys == [3 - 2 * (p == k) for p in range(4)] and g.bank == 18 - 10
    if k >= 2:                     # with k players there is no seat k: the option changes nothing
        g = new_game(k, **{f"keys_seat{k}": 2})
        assert g.keys == [3] * k and g.bank == 18 - 3 * k


def test_an_extra_key_keeps_the_compensated_seat_in_the_game_one_loss_longer():
    g = position(new_game(2, keys=1, keys_seat1=1), ["K♥ Q♥ 9♥", "6♣ 7♦ 8♥"], "6♠ 7♠ 9♦", dealer=1)
    g.showdown("test")
    assert g.keys == [1, 1] and not g.over and g.rounds == 2
    g = position(new_game(2, keys=1), ["K♥ Q♥ 9♥", "6♣ 7♦ 8♥"], "6♠ 7♠ 9♦", dealer=1)
    g.showdown("test")
    assert g.keys == [1, 0] and g.over


def test_compensation_keeps_a_key_for_every_seat_and_fits_the_box():
    with pytest.raises(SimcardsError, match="keys_seat1=-2"):
        new_game(2, keys=2, keys_seat1=-2)
    with pytest.raises(SimcardsError, match="key_cards >= 8"):
        new_game(2, keys=3, key_cards=7, keys_seat1=2)
    with pytest.raises(SimcardsError, match="key_cards >= 11"):
        get_game("thirty-one").encode_params(
            get_game("thirty-one").resolve_rules({"key_cards": 10, "keys_seat2": 2}), 3)
