"""Every rule of Vzhukh on the reference engine, from positions built by hand.

Rule numbers are those of the binding rule file (shared/rules/vzhukh.md), as in
docs/rules/vzhukh.md. Card kinds: the number card v is kind v - 1.
"""
import pytest

from simcards.games.vzhukh import view as V
from simcards.games.vzhukh.reference import ATTACK_DECISION, DEFEND_DECISION, Game, IllegalMove
from simcards.games.vzhukh.rules import (ATTACK, BEAT, CARD_NAMES, JOKER, KRABLE, N_KINDS, TRANSFER,
                                         VOILA, VZHUKH, describe_move, encode_move, move_action,
                                         move_count, move_kind)
from simcards.registry import get_game

SPEC = get_game("vzhukh")
JOKER_BY_NAME = {"V": VOILA, "K": KRABLE, "Z": VZHUKH}


def kind(card) -> int:
    return JOKER_BY_NAME[card] if isinstance(card, str) else card - 1


def hand(*cards) -> list[int]:
    counts = [0] * N_KINDS
    for c in cards:
        counts[kind(c)] += 1
    return counts


def new_game(n=4, **rules) -> Game:
    return Game(n, SPEC.resolve_rules(rules), seed=11, game_index=0)


def position(g: Game, hands, *, stock=None, discard=(), stack=None, current=0,
             phase=ATTACK_DECISION, direction=1) -> Game:
    """Set a position by hand. The stock is given bottom first; by default 30 cards of 1."""
    g.hands = [hand(*h) for h in hands]
    g.stock = [kind(c) for c in (stock if stock is not None else [1] * 30)]
    g.discard = hand(*discard)
    g.stack_kind, g.stack_count = (-1, 0) if stack is None else (kind(stack[0]), stack[1])
    g.current, g.phase, g.direction = current, phase, direction
    return g


def attack(card, count):
    return encode_move(ATTACK, kind(card), count)


def beat(card, count):
    return encode_move(BEAT, kind(card), count)


def transfer(card, count):
    return encode_move(TRANSFER, kind(card), count)


def joker(name):
    return encode_move(JOKER, JOKER_BY_NAME[name], 1)


def full_hand(g: Game, p: int) -> bool:
    return g.hand_size_of(p) == g.hand_size


# ------------------------------------------------------------------ moves and set-up
def test_move_encoding_round_trips_and_reads():
    m = encode_move(BEAT, 9, 3)
    assert (move_action(m), move_kind(m), move_count(m)) == (BEAT, 9, 3)
    assert describe_move(1, m) == "beat with 3 x 10"
    assert describe_move(1, joker("K")) == "play Krable-Bums"
    assert describe_move(0, -1) == "no move (-1)"


def test_deck_deal_and_first_attacker_rules_1_2():
    for n in range(2, 7):
        g = new_game(n)
        assert [g.hand_size_of(p) for p in range(n)] == [5] * n
        assert len(g.stock) == 92 - 5 * n
        assert (g.current, g.phase, g.direction, g.round) == (0, ATTACK_DECISION, 1, 0)
    g = new_game(2)
    g.round = 2                               # the third round of a two-player game
    g.start_round()
    assert g.current == 2 % 2
    g = new_game(4)
    g.round = 1
    g.start_round()
    assert g.current == 1


def test_counts_are_rule_options():
    g = new_game(3, count_voila=0, count_1=2, hand_size=4)
    total = sum(g.counts)
    assert total == 92 - 4 - 6
    assert len(g.stock) + sum(g.hand_size_of(p) for p in range(3)) == total
    assert all(g.hand_size_of(p) == 4 for p in range(3))


# ------------------------------------------------------------------ rule 3: attack
def test_attack_with_equal_cards_puts_the_stack_on_the_next_player():
    g = position(new_game(4), [(4, 4, 9, 2, "V"), (1,) * 5, (1,) * 5, (1,) * 5])
    assert g.next_decision() == (ATTACK_DECISION, 0)
    assert attack(4, 1) in g.legal_moves() and attack(4, 2) in g.legal_moves()
    assert attack(4, 3) not in g.legal_moves()
    g.apply(ATTACK_DECISION, attack(4, 2))
    assert (g.stack_kind, g.stack_count) == (kind(4), 2)
    assert (g.current, g.phase) == (1, DEFEND_DECISION)
    assert full_hand(g, 0) and g.actions == 1           # rule 11: drew back up to 5
    with pytest.raises(IllegalMove):
        g.apply(ATTACK_DECISION, attack(1, 1))           # a defence is due, not an attack


def test_attacker_holding_only_jokers_passes_the_attack():
    g = position(new_game(3), [("V", "K", "Z", "V", "K"), (5, 5, 6, 7, 8), (1,) * 5])
    stock = len(g.stock)
    assert g.next_decision() == (ATTACK_DECISION, 1)    # seat 0 passed: no action, no draw
    assert (g.passes, g.actions, g.round_steps, len(g.stock)) == (1, 0, 1, stock)
    assert g.hands[0] == hand("V", "K", "Z", "V", "K")


def test_every_player_passing_ends_the_round_with_joker_penalties():
    g = position(new_game(2), [("V", "K", "Z", "V", "K"), ("Z", "Z", "V", "K", "K")])
    assert g.next_decision() == (ATTACK_DECISION, 1)    # round 2 has started with seat 1
    assert g.round == 1 and g.passes == 2
    assert g.penalty == [300, 300] and g.jokers_left == [5, 5]
    assert g.round_penalty == [[300, 0, 0], [300, 0, 0]]


# ------------------------------------------------------------------ rule 4: transfer
def test_transfer_chain_goes_around_the_table():
    g = position(new_game(4), [(3, 9, 9, 9, 9), (3, 3, 1, 1, 1), (3, 1, 1, 1, 1),
                               (3, 2, 2, 2, 2)])
    g.next_decision()
    g.apply(ATTACK_DECISION, attack(3, 1))
    assert g.next_decision() == (DEFEND_DECISION, 1)
    assert transfer(3, 1) in g.legal_moves() and transfer(3, 2) in g.legal_moves()
    g.apply(DEFEND_DECISION, transfer(3, 2))
    assert g.next_decision() == (DEFEND_DECISION, 2)
    g.apply(DEFEND_DECISION, transfer(3, 1))
    assert g.next_decision() == (DEFEND_DECISION, 3)
    g.apply(DEFEND_DECISION, transfer(3, 1))
    # the stack of five 3s has gone round to the attacker, who now defends
    assert g.next_decision() == (DEFEND_DECISION, 0)
    assert (g.stack_kind, g.stack_count) == (kind(3), 5)
    assert all(full_hand(g, p) for p in range(4))
    with pytest.raises(IllegalMove):
        g.apply(DEFEND_DECISION, transfer(9, 1))         # a transfer adds the stack's rank


# ------------------------------------------------------------------ rule 5: beat
def test_beat_by_several_cards_must_exceed_the_sum():
    g = position(new_game(3), [(1,) * 5, (3, 3, 3, 4, 4), (1,) * 5], stack=(4, 2),
                 current=1, phase=DEFEND_DECISION)
    legal = g.legal_moves()
    assert beat(3, 3) in legal                           # 9 > 8
    assert beat(4, 2) not in legal and beat(3, 2) not in legal   # 8 and 6 do not beat 8
    with pytest.raises(IllegalMove):
        g.apply(DEFEND_DECISION, beat(4, 2))
    g.apply(DEFEND_DECISION, beat(3, 3))
    assert (g.stack_kind, g.stack_count) == (-1, 0)
    assert g.discard[kind(3)] == 3 and g.discard[kind(4)] == 2
    assert g.next_decision() == (ATTACK_DECISION, 1)    # the defender attacks
    assert full_hand(g, 1)


def test_a_defender_who_can_defend_must_not_take():
    g = position(new_game(3), [(1,) * 5, (10, 2, 2, 2, 2), (1,) * 5], stack=(9, 1),
                 current=1, phase=DEFEND_DECISION)
    assert g.next_decision() == (DEFEND_DECISION, 1)
    assert g.legal_moves() == [beat(10, 1)]


# ------------------------------------------------------------------ rule 10: take
def test_a_defender_who_cannot_defend_takes_the_stack():
    g = position(new_game(3), [(1,) * 5, (1, 2, 2, 3, 3), (1,) * 5], stack=(7, 2),
                 current=1, phase=DEFEND_DECISION)
    assert g.next_decision() == (ATTACK_DECISION, 2)    # forced: seat 1 takes, seat 2 attacks
    assert g.penalty[1] == 14 and g.round_penalty[1][0] == 14
    assert (g.takes, g.takes_by[1], g.actions) == (1, 1, 1)
    assert g.discard[kind(7)] == 2 and g.stack_count == 0
    assert g.hands[1] == hand(1, 2, 2, 3, 3)


# ------------------------------------------------------------------ rules 6-9: jokers
def test_voila_returns_the_stack_and_reverses_direction():
    g = position(new_game(4), [(5, 5, 1, 1, 1), ("V", 2, 2, 2, 2), (1,) * 5, (5, 2, 2, 2, 2)])
    g.next_decision()
    g.apply(ATTACK_DECISION, attack(5, 1))
    g.next_decision()
    g.apply(DEFEND_DECISION, joker("V"))
    assert g.direction == -1 and g.discard[VOILA] == 1
    assert g.next_decision() == (DEFEND_DECISION, 0)    # back to who put it on seat 1
    assert (g.stack_kind, g.stack_count) == (kind(5), 1)
    g.apply(DEFEND_DECISION, transfer(5, 1))
    assert g.next_decision() == (DEFEND_DECISION, 3)    # the direction is reversed for everyone


def test_krable_bums_on_one_card_costs_nothing():
    g = position(new_game(3), [(1,) * 5, ("K", 2, 2, 2, 2), (1,) * 5], stack=(9, 1),
                 current=1, phase=DEFEND_DECISION)
    g.apply(DEFEND_DECISION, joker("K"))
    assert g.penalty[1] == 0
    assert (g.stack_kind, g.stack_count, g.current) == (kind(9), 1, 2)
    assert g.discard[KRABLE] == 1 and g.discard[kind(9)] == 0


def test_krable_bums_on_an_odd_stack_keeps_the_smaller_half():
    g = position(new_game(3), [(1,) * 5, ("K", 2, 2, 2, 2), (1,) * 5], stack=(6, 3),
                 current=1, phase=DEFEND_DECISION)
    g.apply(DEFEND_DECISION, joker("K"))
    assert g.penalty[1] == 6                             # 3 // 2 = 1 card of 6
    assert (g.stack_count, g.current) == (2, 2)
    assert g.discard[kind(6)] == 1


def test_vzhukh_adds_a_matching_card_from_the_discard_pile():
    g = position(new_game(3), [(1,) * 5, ("Z", 2, 2, 2, 2), (1,) * 5], stack=(8, 2),
                 discard=(8, 8, 3), current=1, phase=DEFEND_DECISION)
    g.apply(DEFEND_DECISION, joker("Z"))
    assert (g.stack_kind, g.stack_count, g.current) == (kind(8), 3, 2)
    assert g.discard[kind(8)] == 1 and g.discard[VZHUKH] == 1


def test_vzhukh_without_a_matching_card_just_passes_the_stack_on():
    g = position(new_game(3), [(1,) * 5, ("Z", 2, 2, 2, 2), (1,) * 5], stack=(8, 2),
                 discard=(3, 3), current=1, phase=DEFEND_DECISION)
    g.apply(DEFEND_DECISION, joker("Z"))
    assert (g.stack_kind, g.stack_count, g.current) == (kind(8), 2, 2)
    assert g.discard == hand(3, 3, "Z")


def test_joker_moves_are_one_per_kind_held():
    g = position(new_game(3), [(1,) * 5, ("Z", "Z", "V", 2, 2), (1,) * 5], stack=(8, 2),
                 current=1, phase=DEFEND_DECISION)
    assert g.legal_moves() == [joker("V"), joker("Z")]
    with pytest.raises(IllegalMove):
        g.apply(DEFEND_DECISION, joker("K"))


# ------------------------------------------------------------------ rules 11-13: stock, rounds, game
def test_stock_running_out_in_a_transfer_chain_ends_the_round():
    g = position(new_game(3), [(1,) * 5, (4, 2, 2, 2, "V"), (4, 9, 9, 9, 9)], stock=[6],
                 stack=(4, 1), current=1, phase=DEFEND_DECISION)
    g.apply(DEFEND_DECISION, transfer(4, 1))             # draws the last card
    assert g.stock == [] and g.ending and g.round == 0
    assert g.next_decision() == (ATTACK_DECISION, 1)    # round 2 begins with seat 1
    assert g.round == 1
    # the stack in play was discarded without penalty; seat 1's Voila cost 60
    assert g.penalty == [0, 60, 0] and g.jokers_left == [0, 1, 0]
    assert g.round_penalty[1] == [60, 0, 0]


def test_jokers_left_at_the_end_cost_the_joker_penalty_option():
    g = position(new_game(2, joker_penalty=25), [(5, "V", "V", "K", 1), (5, 2, 2, 2, 2)],
                 stock=[3])
    g.apply(ATTACK_DECISION, attack(1, 1))
    g.next_decision()
    assert g.penalty == [75, 0] and g.jokers_left == [3, 0]


def test_three_rounds_then_the_lowest_total_wins_and_ties_share():
    g = new_game(3)
    for r in range(3):
        assert g.round == r
        # end each round with the same penalty for seats 0 and 1: seat 2 holds a joker
        position(g, [(2, 2, 2, 2, 2), (3, 3, 3, 3, 3), ("V", 4, 4, 4, 4)], stock=[5],
                 current=0)
        g.apply(ATTACK_DECISION, attack(2, 1))
        g.next_decision()
    assert g.over and g.round == 3 and g.next_decision() is None
    seats, row = g.result()
    assert [s[0] for s in seats] == [1, 1, 0]           # a shared win
    assert [s[1] for s in seats] == [1, 1, 3]
    assert seats[2][2:6] == [180, 60, 60, 60] and seats[2][7] == 3
    assert row == [3, 3, 0, 0, 3, 0]                    # rounds, actions, passes, takes, jokers


def test_the_action_cap_stops_a_round_as_unfinished():
    g = position(new_game(3, action_cap=2), [(2, 2, 9, 9, 9), (2, 1, 1, 1, 1), (1, 3, 3, 3, 3)])
    g.apply(ATTACK_DECISION, attack(2, 1))
    assert g.next_decision() == (DEFEND_DECISION, 1)
    g.apply(DEFEND_DECISION, transfer(2, 1))
    assert g.next_decision() is None
    assert g.unfinished and g.over
    seats, row = g.result()
    assert all(s[0] == 0 for s in seats) and row[-1] == 1 and row[0] == 0


def test_view_shows_what_the_rule_file_lists_and_nothing_else():
    g = position(new_game(3), [(1,) * 5, ("Z", 2, 2, 2, 2), (4, 4, 4, 4, 4)], stack=(8, 2),
                 discard=(8, 3), current=1, phase=DEFEND_DECISION)
    g.penalty = [4, 5, 6]
    v = g.view(DEFEND_DECISION)
    assert v.seat == 1
    assert [V.held(v, k) for k in range(N_KINDS)] == hand("Z", 2, 2, 2, 2)
    assert (V.stack_kind(v), V.stack_count(v), V.stack_sum(v)) == (kind(8), 2, 16)
    assert (V.stock_size(v), V.direction(v), V.round_index(v), V.n_players(v)) == (30, 1, 0, 3)
    assert [V.on_discard(v, k) for k in range(N_KINDS)] == hand(8, 3)
    assert [V.hand_size(v, p) for p in range(3)] == [5, 5, 5]
    assert [V.penalty(v, p) for p in range(3)] == [4, 5, 6]
    assert V.defending(v) and V.dealt_mask(v) == g.dealt[1]
    # the rule settings
    assert [V.deck_count(v, k) for k in range(N_KINDS)] == list(g.counts)
    assert (V.deck_size(v), V.hand_limit(v), V.joker_cost(v), V.action_cap(v)) == (92, 5, 60, 10_000)
    # the legal moves, in the engine's order
    assert [V.legal_move(v, i) for i in range(V.n_legal(v))] == g.legal_moves()
    assert V.is_legal_move(v, beat(10, 2)) is False and V.is_legal_move(v, joker("Z")) is True
    # other hands and the stock are not in the view: every field the seat may not see is zero
    assert len(v.s) == V.state_size.py_func(sum(g.counts))
    assert not v.s[~V.LAYOUT.visible_to(1, len(v.s))].any()
    assert not v.s[V.HANDS + 2 * V.HAND_STRIDE:V.HANDS + 2 * V.HAND_STRIDE + N_KINDS].any()
    assert len(CARD_NAMES) == N_KINDS


def test_view_counts_what_every_seat_did():
    g = position(new_game(3), [(2, 9, 9, 9, 9), (3, 1, 1, 1, 1), (4, 4, 4, 4, 4)], current=0)
    g.apply(ATTACK_DECISION, attack(9, 2))              # seat 1 can do nothing: takes 18
    assert g.next_decision() == (ATTACK_DECISION, 2)
    v = g.view(ATTACK_DECISION)
    assert (V.takes(v, 1), V.takes_total(v), V.actions(v), V.passes(v)) == (1, 1, 2, 0)
    assert (V.last_take_kind(v, 1), V.last_take_count(v, 1), V.last_take_action(v, 1)) == (kind(9), 2, 2)
    assert V.last_take_count(v, 0) == 0
    assert [V.round_penalty(v, 1, r) for r in range(3)] == [18, 0, 0]
    assert (V.round_steps(v), V.passes_in_row(v), V.jokers_left(v, 0)) == (2, 0, 0)
    assert not V.defending(v)
    assert [V.legal_move(v, i) for i in range(V.n_legal(v))] == [attack(4, c) for c in range(1, 6)]


def test_illegal_moves_raise_with_the_reason():
    g = position(new_game(3), [(1,) * 5, (3, 3, 3, 4, "V"), (1,) * 5], stack=(4, 2),
                 current=1, phase=DEFEND_DECISION)
    for move, why in [(beat(4, 1), "worth more than the stack's 8 points"),
                      (transfer(3, 1), "stack's rank, 4"),
                      (beat(3, 4), "holds 3 x 3"),
                      (attack(3, 3), "not a defence"),
                      (-1, "no move")]:
        with pytest.raises(IllegalMove, match=why):
            g.apply(DEFEND_DECISION, move)
    with pytest.raises(IllegalMove, match="a defence is due"):
        g.apply(ATTACK_DECISION, attack(3, 1))


# ------------------------------------------------------------------ seat compensation
@pytest.mark.parametrize("k", [1, 2, 3, 4, 5])
def test_penalty_seat_k_starts_the_seat_k_places_after_the_first_player_with_penalty_points(k):
    g = new_game(6, **{f"penalty_seat{k}": -12})
    assert g.next_decision() == (ATTACK_DECISION, 0)        # seat 0 is the first player
    assert g.penalty == [-12 * (p == k) for p in range(6)]  # a head start below 0
    assert g.round_penalty == [[0, 0, 0]] * 6               # the rounds' own penalties
    v = g.view()                                            # public: every seat sees it
    assert [V.starting_penalty(v, p) for p in range(6)] == [-12 * (p == k) for p in range(6)]
    assert [V.penalty(v, p) for p in range(6)] == g.penalty
    assert new_game(6, **{f"penalty_seat{k}": 30}).penalty == [30 * (p == k) for p in range(6)]
    if k >= 2:                  # with k players there is no seat k: the option changes nothing
        assert new_game(k, **{f"penalty_seat{k}": 30}).penalty == [0] * k


def test_the_starting_penalty_counts_in_the_total_that_decides_the_game():
    g = new_game(3, penalty_seat1=-1)
    for r in range(3):          # as above: seats 0 and 1 end every round with the same penalty
        position(g, [(2, 2, 2, 2, 2), (3, 3, 3, 3, 3), ("V", 4, 4, 4, 4)], stock=[5], current=0)
        g.apply(ATTACK_DECISION, attack(2, 1))
        g.next_decision()
    seats, _ = g.result()
    assert [s[0] for s in seats] == [0, 1, 0] and [s[1] for s in seats] == [2, 1, 3]
    assert seats[1][2:6] == [-1, 0, 0, 0] and seats[0][2:6] == [0, 0, 0, 0]
