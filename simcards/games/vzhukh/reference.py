"""Vzhukh, the reference engine: plain Python written to be read beside the rules.

Every rule lives here once, in the order of docs/rules/vzhukh.md (rule numbers
are those of the binding rule file). The fast engine (fast.py) must reach the
same state after every move; the tests replay its recorded games through this
class. Both engines draw random numbers only to shuffle, once per round, after
laying the cards out in the same canonical order: kinds ascending.

Cards are kind ids (rules.CARD_NAMES; a number card's value is its kind + 1);
a hand and the discard pile are lists of counts per kind; the stock is a list
with the bottom card first and the top card last. The stack in play always
holds cards of one rank, so it is a kind and a count.
"""
from __future__ import annotations

import numpy as np

from simcards.compiled.engine import MEMORY_SLOTS, kinds_mask_py, load_memory, ranks_py
from simcards.games.vzhukh import view as layout
from simcards.games.vzhukh.rules import (
    ATTACK, ATTACK_DECISION, BEAT, CARD_NAMES, DEFEND_DECISION, JOKER, KRABLE, MAX_STACK_SUM,
    N_KINDS, N_NUMBERS, PARAM_ROW, ROUNDS, TRANSFER, VOILA, VZHUKH, deck_counts,
    describe_move, encode_move, starting_penalty)
from simcards.errors import IllegalMove  # noqa: F401  (raised by apply; tests import it from here)
from simcards.compiled.rng import STREAM_DEAL, PyRandom

JOKERS = (VOILA, KRABLE, VZHUKH)


def value(kind: int) -> int:
    """Points of a number card: kinds 0..9 are the cards 1..10."""
    return kind + 1


class Game:
    """One game of Vzhukh (three rounds) from its first deal to its end."""

    def __init__(self, n_players: int, rules: dict, seed: int, game_index: int):
        self.n = n_players
        self.rules = rules
        self.counts = deck_counts(rules)
        self.params = PARAM_ROW.encode(rules, n_players)        # the rule row, as the fast engine's
        self.hand_size = rules["hand_size"]
        self.rng = PyRandom(seed, game_index, STREAM_DEAL)
        self.hands = [[0] * N_KINDS for _ in range(n_players)]
        self.stock: list[int] = []
        self.discard = [0] * N_KINDS          # the discard pile: only its counts ever matter
        self.stack_kind, self.stack_count = -1, 0
        self.current = 0                      # the seat that acts next
        self.phase = ATTACK_DECISION          # ... and whether it attacks or defends
        self.direction = 1
        self.round = 0                        # rounds finished so far; the one in play
        self.penalty = starting_penalty(rules, n_players)   # seat compensation
        self.round_penalty = [[0] * ROUNDS for _ in range(n_players)]
        self.takes_by = [0] * n_players
        self.last_take = [[0, 0, 0] for _ in range(n_players)]   # kind, count, action counter
        # what the table knows each seat does not hold since its last action (view.BARRED)
        self.barred = [0] * n_players
        self.jokers_left = [0] * n_players
        self.memory = [[0] * MEMORY_SLOTS for _ in range(n_players)]  # each seat's strategy's
        self.actions = self.passes = self.takes = 0
        self.round_steps = 0                  # actions and passes in the round in play (rule 14)
        self.passes_in_row = 0
        self.ending = False                   # rule 12: the stock ran out; the round ends next
        self.over = self.unfinished = False
        self.log: list[str] = []
        self.start_round()
        self.dealt = [kinds_mask_py(hand) for hand in self.hands]

    # ------------------------------------------------------------ seats and cards
    def next_player(self, p: int) -> int:
        """The next player in the current direction (rule 2: clockwise = increasing seat)."""
        return (p + self.direction) % self.n

    def hand_size_of(self, p: int) -> int:
        return sum(self.hands[p])

    def jokers_held(self, p: int) -> int:
        return sum(self.hands[p][j] for j in JOKERS)

    def cards(self) -> list[int]:
        """Every card in play, wherever it is (hands, stock, stack, discard pile), as kinds."""
        out = [k for hand in self.hands for k in range(N_KINDS) for _ in range(hand[k])]
        out += self.stock + [self.stack_kind] * self.stack_count
        return out + [k for k in range(N_KINDS) for _ in range(self.discard[k])]

    def deck(self) -> list[int]:
        """The whole deck (rule 1 and the count_* options), as kinds."""
        return [k for k in range(N_KINDS) for _ in range(self.counts[k])]

    def stack_sum(self) -> int:
        return value(self.stack_kind) * self.stack_count if self.stack_count else 0

    def add_penalty(self, p: int, points: int) -> None:
        self.penalty[p] += points
        self.round_penalty[p][self.round] += points

    def put_stack_on_discard(self) -> None:
        if self.stack_count:
            self.discard[self.stack_kind] += self.stack_count
        self.stack_kind, self.stack_count = -1, 0

    # ------------------------------------------------------------ rule 2: a round's deal
    def start_round(self) -> None:
        """Rule 2: gather every card (kinds ascending), shuffle, deal hand_size cards one at a
        time starting with the round's first attacker, seat round mod n, clockwise."""
        deck = [kind for kind in range(N_KINDS) for _ in range(self.counts[kind])]
        self.rng.shuffle(deck)
        self.stock = deck
        self.discard = [0] * N_KINDS
        self.hands = [[0] * N_KINDS for _ in range(self.n)]
        self.barred = [0] * self.n
        self.stack_kind, self.stack_count = -1, 0
        first = self.round % self.n
        for _ in range(self.hand_size):
            for i in range(self.n):
                self.hands[(first + i) % self.n][self.stock.pop()] += 1
        self.direction = 1
        self.current, self.phase = first, ATTACK_DECISION
        self.round_steps = self.passes_in_row = 0
        self.ending = False
        self.log.append(f"Round {self.round + 1}: seat {first} attacks first; "
                        f"{len(self.stock)} cards in the stock.")

    # ------------------------------------------------------------ rules 11-12: draw, round end
    def draw_up(self, p: int) -> None:
        """Rule 11: the player who acted draws from the top of the stock back up to hand_size."""
        drawn = 0
        while self.hand_size_of(p) < self.hand_size and self.stock:
            self.hands[p][self.stock.pop()] += 1
            drawn += 1
        if drawn:
            self.log.append(f"  Seat {p} draws {drawn}; {len(self.stock)} left in the stock.")

    def finish_action(self, p: int) -> None:
        """Rules 11-12: every action counts, the actor draws, an empty stock ends the round
        (as the next step, before anything else can happen)."""
        self.actions += 1
        self.round_steps += 1
        self.draw_up(p)
        self.barred[p] = 0                    # p played cards and drew: nothing known any more
        if not self.stock:
            self.ending = True

    def end_round(self, why: str) -> None:
        """Rule 12: a stack in play is discarded without penalty; each joker left in a hand
        costs joker_penalty. Rule 13: after the third round the game is over."""
        self.log.append(f"  The round ends: {why}.")
        if self.stack_count:
            self.log.append(f"  The stack ({self.stack_count} x {CARD_NAMES[self.stack_kind]}) "
                            f"is discarded without penalty.")
        self.put_stack_on_discard()
        for p in range(self.n):
            jokers = self.jokers_held(p)
            if jokers:
                self.jokers_left[p] += jokers
                self.add_penalty(p, jokers * self.rules["joker_penalty"])
                self.log.append(f"  Seat {p} holds {jokers} joker(s): "
                                f"+{jokers * self.rules['joker_penalty']} points.")
        self.log.append("  Penalty so far: " + ", ".join(
            f"seat {p} {self.penalty[p]}" for p in range(self.n)))
        self.round += 1
        if self.round == ROUNDS:
            self.over = True
            self.log.append("The game is over.")
        else:
            self.start_round()

    # ------------------------------------------------------------ forced steps
    def next_decision(self) -> tuple[int, int] | None:
        """Play the forced steps (passes, rule 3; taking the stack, rule 10) and the cap
        (rule 14); then (decision, seat), or None when the game is over."""
        while True:
            if self.over:
                return None
            if self.ending:                                              # rule 12
                self.end_round("the stock is empty")
                continue
            if self.round_steps >= self.rules["action_cap"]:            # rule 14
                self.over = self.unfinished = True
                self.log.append(f"Stopped after {self.round_steps} actions in round "
                                f"{self.round + 1}: unfinished.")
                return None
            p = self.current
            if self.legal_moves():
                return self.phase, p
            if self.phase == ATTACK_DECISION:
                self.pass_attack(p)
            else:
                self.take_stack(p)

    def pass_attack(self, p: int) -> None:
        """Rule 3: an attacker with no number card passes the attack on (no action, no draw);
        when every player in turn has passed, the round ends (rule 12)."""
        self.passes += 1
        self.round_steps += 1                                            # rule 14 counts passes
        self.passes_in_row += 1
        self.log.append(f"Seat {p} holds no number card and passes the attack.")
        self.bar(p, [k for k in range(N_NUMBERS)], MAX_STACK_SUM)    # the table saw it
        if self.passes_in_row >= self.n:
            self.end_round("every player in turn passed")
            return
        self.current = self.next_player(p)

    def take_stack(self, p: int) -> None:
        """Rule 10: the stack's sum becomes the defender's penalty; its cards are discarded;
        the next player after the taker attacks."""
        points = self.stack_sum()
        self.log.append(f"Seat {p} cannot defend and takes {self.stack_count} x "
                        f"{CARD_NAMES[self.stack_kind]}: +{points} points.")
        self.add_penalty(p, points)
        taken = [self.stack_kind, self.stack_count]
        self.put_stack_on_discard()
        self.takes += 1
        self.takes_by[p] += 1
        self.current, self.phase = self.next_player(p), ATTACK_DECISION
        held = self.hand_size_of(p)
        barred = self.barred[p]
        self.finish_action(p)
        self.last_take[p] = taken + [self.actions]   # what the table saw p fail to beat
        if self.hand_size_of(p) == held:             # it drew nothing: the hand it could not
            self.barred[p] = barred                  # beat with is the one it holds
            self.bar(p, [taken[0], *JOKERS], points)

    def bar(self, p: int, kinds: list[int], bound: int) -> None:
        """The table has seen that p holds none of ``kinds`` and no number kind k more than
        bound // (k + 1) times (view.BARRED: kinds as bits, the bound above them; combined
        with what was known since p's last action)."""
        mask = sum(1 << k for k in kinds)
        old = self.barred[p]
        if old:
            mask |= old & layout.BARRED_KINDS
            bound = min(bound, old >> layout.BARRED_SHIFT)
        self.barred[p] = mask | (bound << layout.BARRED_SHIFT)

    # ------------------------------------------------------------ legal moves
    def legal_moves(self) -> list[int]:
        """The moves the seat to act may make, in the canonical order both engines and the
        `random` strategy use. Attack (rule 3): number cards of one rank, by (rank, count).
        Defence (rules 4-8): transfers by count, beats by (rank, count), then each joker
        kind held. Empty: the seat passes (rule 3) or takes the stack (rule 10)."""
        hand = self.hands[self.current]
        if self.phase == ATTACK_DECISION:
            return [encode_move(ATTACK, k, c) for k in range(N_NUMBERS)
                    for c in range(1, hand[k] + 1)]
        moves = [encode_move(TRANSFER, self.stack_kind, c)
                 for c in range(1, hand[self.stack_kind] + 1)]                       # rule 4
        moves += [encode_move(BEAT, k, c) for k in range(N_NUMBERS)
                  for c in range(1, hand[k] + 1) if value(k) * c > self.stack_sum()]  # rule 5
        moves += [encode_move(JOKER, j, 1) for j in JOKERS if hand[j]]               # rules 6-8
        return moves

    def why_illegal(self, kind: int, move: int) -> str:
        """Why a move that legal_moves() does not list is illegal, in words."""
        expected = "an attack" if self.phase == ATTACK_DECISION else "a defence"
        if kind != self.phase:
            return f"{expected} is due, not decision {kind}"
        if move < 0:
            return "no move was chosen"
        action, card, count = move >> 9, (move >> 5) & 15, move & 31
        if card >= N_KINDS or action > JOKER:
            return "the move does not name a card kind and an action"
        if count < 1 or count > self.hands[self.current][card]:
            return f"the seat holds {self.hands[self.current][card]} x {CARD_NAMES[card]}"
        if self.phase == ATTACK_DECISION:
            return "an attack plays number cards of one rank (rule 3)"
        if action == TRANSFER:
            return f"a transfer adds cards of the stack's rank, {CARD_NAMES[self.stack_kind]} (rule 4)"
        if action == BEAT:
            return (f"a beat plays number cards worth more than the stack's {self.stack_sum()} "
                    "points (rule 5)")
        return "a joker move plays one joker (rules 6-8); an attack is not a defence"

    # ------------------------------------------------------------ what a strategy sees
    def view(self, kind: int = ATTACK_DECISION) -> layout.View:
        """What the seat to act may see (rule file, "What a strategy sees"): the fast
        engine's state array, same size and layout, with every public field and the seat's
        own rows (hand, first hand, legal moves, memory) as the fast engine has them, and
        every other field (other hands, the stock) zero."""
        L, p, n = layout, self.current, self.n
        s = np.zeros(L.state_size.py_func(sum(self.counts)), np.int64)
        head = {L.N: n, L.CUR: p, L.PHASE: self.phase, L.DIR: self.direction,
                L.STACK_KIND: self.stack_kind, L.STACK_N: self.stack_count, L.ROUND: self.round,
                L.ACTIONS: self.actions, L.PASSES: self.passes, L.TAKES: self.takes,
                L.ROUND_STEPS: self.round_steps, L.IN_ROW: self.passes_in_row,
                L.ENDING: int(self.ending), L.OVER: int(self.over),
                L.UNFINISHED: int(self.unfinished), L.STOCK_N: len(self.stock)}
        for at, x in head.items():
            s[at] = x
        L.LAYOUT.write_params(s, self.params)        # the rule settings: hand size, counts, ...
        s[L.DISCARD:L.DISCARD + N_KINDS] = self.discard
        for q in range(n):
            s[L.HAND_N + q] = self.hand_size_of(q)
            s[L.PENALTY + q] = self.penalty[q]
            s[L.ROUND_PEN + ROUNDS * q:L.ROUND_PEN + ROUNDS * (q + 1)] = self.round_penalty[q]
            s[L.TAKES_BY + q] = self.takes_by[q]
            s[L.JOKERS_LEFT + q] = self.jokers_left[q]
            s[L.LAST_TAKE + 3 * q:L.LAST_TAKE + 3 * (q + 1)] = self.last_take[q]
            s[L.BARRED + q] = self.barred[q]
        s[L.HANDS + L.HAND_STRIDE * p:L.HANDS + L.HAND_STRIDE * p + N_KINDS] = self.hands[p]
        s[L.DEALT + p] = self.dealt[p]
        legal = self.legal_moves()
        for move in legal:                     # a bit mask over move codes (view.LEGAL_STRIDE)
            s[L.LEGAL + L.LEGAL_STRIDE * p + (move >> 5)] |= 1 << (move & 31)
        load_memory(s, L.MEMORY, p, self.memory[p])
        return L.View(s, p)

    # ------------------------------------------------------------ moves
    def apply(self, kind: int, move: int) -> None:
        p = self.current
        if kind != self.phase or move not in self.legal_moves():
            raise IllegalMove(f"seat {p} may not {describe_move(kind, move)}: "
                              f"{self.why_illegal(kind, move)}")
        action, card, count = move >> 9, (move >> 5) & 15, move & 31
        if action == ATTACK:
            self.attack(p, card, count)
        elif action == TRANSFER:
            self.transfer(p, count)
        elif action == BEAT:
            self.beat(p, card, count)
        elif card == VOILA:
            self.voila(p)
        elif card == KRABLE:
            self.krable_bums(p)
        else:
            self.vzhukh(p)

    def attack(self, p: int, card: int, count: int) -> None:
        """Rule 3: the cards form the stack on the next player, who defends."""
        self.hands[p][card] -= count
        self.stack_kind, self.stack_count = card, count
        self.passes_in_row = 0
        self.current, self.phase = self.next_player(p), DEFEND_DECISION
        self.log.append(f"Seat {p} attacks seat {self.current} with {count} x {CARD_NAMES[card]}.")
        self.finish_action(p)

    def transfer(self, p: int, count: int) -> None:
        """Rule 4: add cards of the stack's rank; the whole stack goes on to the next player."""
        self.hands[p][self.stack_kind] -= count
        self.stack_count += count
        self.current = self.next_player(p)
        self.log.append(f"Seat {p} transfers with {count} x {CARD_NAMES[self.stack_kind]}: "
                        f"seat {self.current} faces {self.stack_count} (sum {self.stack_sum()}).")
        self.finish_action(p)

    def beat(self, p: int, card: int, count: int) -> None:
        """Rule 5: cards of one rank worth more than the stack; all go to the discard pile and
        the defender attacks next."""
        self.log.append(f"Seat {p} beats {self.stack_count} x {CARD_NAMES[self.stack_kind]} "
                        f"(sum {self.stack_sum()}) with {count} x {CARD_NAMES[card]}.")
        self.hands[p][card] -= count
        self.discard[card] += count
        self.put_stack_on_discard()
        self.phase = ATTACK_DECISION
        self.finish_action(p)

    def play_joker(self, p: int, joker: int) -> None:
        """Rule 9: a played joker goes to the discard pile."""
        self.hands[p][joker] -= 1
        self.discard[joker] += 1

    def voila(self, p: int) -> None:
        """Rule 6: the stack goes back to the player who put it on p (the previous player in
        the current direction), and the direction reverses for everyone."""
        self.play_joker(p, VOILA)
        self.direction = -self.direction
        self.current = self.next_player(p)
        self.log.append(f"Seat {p} plays Voila: the direction reverses and seat {self.current} "
                        f"faces the stack again.")
        self.finish_action(p)

    def krable_bums(self, p: int) -> None:
        """Rule 7: of k cards, k // 2 become p's penalty (and go to the discard pile); the
        other cards go on to the next player."""
        self.play_joker(p, KRABLE)
        half = self.stack_count // 2
        points = half * value(self.stack_kind)
        self.add_penalty(p, points)
        self.discard[self.stack_kind] += half
        self.stack_count -= half
        self.current = self.next_player(p)
        self.log.append(f"Seat {p} plays Krable-Bums: keeps {half} card(s) as +{points} points; "
                        f"{self.stack_count} go on to seat {self.current}.")
        self.finish_action(p)

    def vzhukh(self, p: int) -> None:
        """Rule 8: a card of the stack's rank from the discard pile joins the stack, if there
        is one; either way the stack goes on to the next player."""
        self.play_joker(p, VZHUKH)
        found = self.discard[self.stack_kind] > 0
        if found:
            self.discard[self.stack_kind] -= 1
            self.stack_count += 1
        self.current = self.next_player(p)
        self.log.append(f"Seat {p} plays Vzhukh" + (f", adds a {CARD_NAMES[self.stack_kind]} from "
                        "the discard pile" if found else " (no card of the rank to add)")
                        + f": seat {self.current} faces {self.stack_count}.")
        self.finish_action(p)

    # ------------------------------------------------------------ outcome
    def result(self) -> tuple[list[list[int]], list[int]]:
        """Rule 13: the lowest total penalty wins; a tie is a shared win; an unfinished game has
        no winner (ranks by penalty so far).
        Per seat: (win, rank, penalty, penalty per round x3, takes, jokers left, dealt mask);
        per game: (rounds, actions, passes, takes, jokers left, unfinished)."""
        seats = []
        ranks = ranks_py([-x for x in self.penalty])          # fewer points rank higher
        for p in range(self.n):
            win = int(ranks[p] == 1 and not self.unfinished)
            seats.append([win, ranks[p], self.penalty[p], *self.round_penalty[p],
                          self.takes_by[p], self.jokers_left[p], self.dealt[p]])
        return seats, [self.round, self.actions, self.passes, self.takes, sum(self.jokers_left),
                       int(self.unfinished)]

    def snapshot(self) -> list[int]:
        """The state in the layout of fast.snapshot."""
        deck = sum(self.counts)
        head = [self.current, self.phase, self.direction, self.stack_kind, self.stack_count,
                self.round, self.actions, self.passes, self.takes, self.round_steps,
                self.passes_in_row, int(self.ending), int(self.over), int(self.unfinished),
                len(self.stock)]
        rows = (self.penalty + [x for row in self.round_penalty for x in row] + self.takes_by
                + self.jokers_left + [c for hand in self.hands for c in hand] + self.discard)
        return head + rows + self.stock + [-1] * (deck - len(self.stock))
