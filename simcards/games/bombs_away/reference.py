"""Bombs Away, the reference engine: plain Python written to be read beside the rules.

Every rule lives here once, with its number from docs/rules/bombs-away.md. A
turn can ask several questions (a card; another card after an ace; a rank to
name for an 8 or a joker; an opponent for a 5, a 9 or, in the pagat duel, the
duel's victim; a duel answer), so the game is written as one generator,
``play_game``: where a rule asks a question it says ``yield from self.ask(...)``,
which hands the question to the caller and receives the answer. A question
with a single possible answer is not asked: that answer is taken at once.

The fast engine (fast.py) must reach the same state after every move; the
tests replay its recorded games through this class. So both draw random
numbers in the same order for the same purposes and lay cards out in the same
order (a new deck and a hand: kinds ascending; pile cards: pile order, bottom
first). A shuffle draws no number: the stock's shuffled cards are left where they
lie, and each card taken from the stock is chosen at random among them then
(``shuffle_stock``, ``take_top``), which deals the same game.

Cards are kind ids (rules.CARD_NAMES); a hand is a list of counts per kind; the
stock is a list with the bottom card first and the top card last; the pile is
a list of [kind, counts as] pairs, bottom first: a joker counts as the rank it
was named, a 6 as the card it was played on.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simcards.compiled.engine import (MEMORY_SLOTS, hand_to_bottom_py, kinds_mask_py, load_memory,
                             next_living_py, ranks_py, take_top_py)
from simcards.games.bombs_away.rules import (
    ACE, ANSWER, CARD_NAMES, DECISION_NAMES, DECK, DUEL_VALUE, EIGHT, EXTRA, FIRST_DUEL,
    FIRST_NAME, FIVE, FOUR, GAME_COLUMNS, JOKER, KIND_COUNTS, LAST_DUEL, LAST_NAME, N_DECISIONS,
    N_KINDS, NAME, NINE, PARAM_ROW, PLAY, SEAT_COLUMNS, SEVEN, SEVEN_MIN_PILE,
    SEVEN_TAKES, SIX, TARGET, TEN, THREE, TWO, VALUE, dealt_hands, describe_move, full_hands,
    starting_points)
from simcards.games.bombs_away.view import (
    A_ANSWERS, A_DEALT, A_EFF, A_FREE, A_HAND_N, A_HANDS, A_KNOWN, A_OUT, A_VOID, KNOWN_ROW, A_OUT_TURN, A_PILE, A_PILE_COUNTS,
    A_POINTS, LAYOUT, MEMORY, S_ALIVE_N, S_ANSWERER, S_ASKING, S_CUR, S_DAMAGE, S_DECIDER,
    S_DIRECTION, S_DUEL_CARD, S_DUEL_FROM, S_DUELS, S_KIND, S_LEGAL, S_MUST,
    S_N, S_N_LEGAL, S_OUTS, S_OVER, S_PILE_N, S_POINTS_LOST, S_SKIP, S_STOCK_N,
    S_TURNS, S_UNFINISHED, S_VICTIM, STATE_SIZE, View)
from simcards.errors import IllegalMove  # noqa: F401  (raised by apply; tests import it from here)
from simcards.compiled.rng import STREAM_DEAL, PyRandom

NAMEABLE = list(range(FIRST_NAME, LAST_NAME + 1))   # 9, 10, J, Q, K, A


@dataclass
class Question:
    kind: int            # PLAY, EXTRA, NAME, TARGET or ANSWER
    seat: int            # who answers
    options: list[int]   # the allowed answers (two or more)
    card: int            # the card that asks (-1 for a turn's first card)


class Game:
    """One game of Bombs Away from its deal to its end."""

    def __init__(self, n_players: int, rules: dict, seed: int, game_index: int):
        self.n = n_players
        self.rules = rules
        self.params = PARAM_ROW.encode(rules, n_players)        # the rule row, as the fast engine's
        self.hand_size = rules["hand_size"]
        self.full = full_hands(rules, n_players)             # rule 1, seat compensation
        self.deal_sizes = dealt_hands(rules, n_players)      # and the deal's own compensation
        self.rng = PyRandom(seed, game_index, STREAM_DEAL)
        self.points = starting_points(rules, n_players)      # rule 1, seat compensation
        self.out_order = [-1] * n_players                    # 0 for the first player out, ...
        self.out_turn = [0] * n_players                      # the turn each went out in
        self.outs = 0
        self.hands = [[0] * N_KINDS for _ in range(n_players)]
        self.stock: list[int] = []
        self.stock_fixed = 0                                 # bottom cards in a known order
        self.pile: list[list[int]] = []
        self.direction = 1                                   # rule 1: clockwise = seat + 1
        self.current = 0                                     # rule 1: seat 0 leads
        self.must = -1                                       # rank named by an 8 (rule 13)
        self.skip_next = False                               # a 2 was played (rule 7)
        self.duel_from = self.duel_card = self.victim = -1   # the duel under way (rule 16)
        self.answerer = -1
        self.damage = 0
        self.turns = self.duels = self.points_lost = 0
        self.over = self.unfinished = False
        self.question: Question | None = None
        # what the table saw: each seat's last answer to each kind of question (-1: none, a pass)
        self.answers = [[-1] * N_DECISIONS for _ in range(n_players)]
        # what the table saw a hand lack (rule 13): void[p] the kinds' bit mask, free[p] the
        # cards p gained since (p holds at most free[p] cards of those kinds); 0, 0: nothing
        self.void = [0] * n_players
        self.free = [0] * n_players
        # known[o][q][k]: cards of kind k seat o knows seat q holds (o moved them by a 5 or a 9)
        self.known = [[[0] * N_KINDS for _ in range(n_players)] for _ in range(n_players)]
        # each seat's strategy memory (simcards.engine): copied into and out of its views
        self.memory = [[0] * MEMORY_SLOTS for _ in range(n_players)]
        self.log: list[str] = []
        self.deal()
        self.dealt = [kinds_mask_py(hand) for hand in self.hands]
        self._flow = self.play_game()
        self._started = self._finished = False

    # ------------------------------------------------------------ seats
    def alive(self, p: int) -> bool:
        return self.points[p] > 0

    def survivors(self) -> int:
        return sum(1 for p in range(self.n) if self.alive(p))

    def next_player(self, p: int) -> int:
        """The next player still in after p, in the direction of play."""
        return next_living_py([self.alive(q) for q in range(self.n)], p, self.direction)

    def opponents(self, p: int) -> list[int]:
        return [q for q in range(self.n) if q != p and self.alive(q)]

    def hand_size_of(self, p: int) -> int:
        return sum(self.hands[p])

    def held(self, p: int) -> list[int]:
        return [k for k in range(N_KINDS) if self.hands[p][k] > 0]

    def cards(self) -> list[int]:
        """Every card in play, wherever it is (hands, stock, pile): always the deck."""
        return ([k for hand in self.hands for k in range(N_KINDS) for _ in range(hand[k])]
                + self.stock + [k for k, _ in self.pile])

    @staticmethod
    def deck() -> list[int]:
        """The deck (rule 1): four of each rank and one joker."""
        return [kind for kind in range(N_KINDS) for _ in range(KIND_COUNTS[kind])]

    def top(self) -> int:
        """What the top card of the pile counts as, or -1 for an empty pile."""
        return self.pile[-1][1] if self.pile else -1

    # ------------------------------------------------------------ cards
    def deal(self) -> None:
        """Rule 1: seat n-1 deals one card at a time, starting with seat 0; then rule 4."""
        self.stock = self.deck()
        self.shuffle_stock()
        for r in range(max(self.deal_sizes)):
            for p in range(self.n):
                if r < self.deal_sizes[p]:  # a seat dealt fewer is passed over once it has them
                    self.hands[p][self.take_top()] += 1
        for p in range(self.n):
            self.tens_rule(p)
        sizes = (f"{self.hand_size} cards each" if len(set(self.deal_sizes)) == 1 else
                 "cards (" + ", ".join(f"seat {p}: {c}" for p, c in enumerate(self.deal_sizes)) + ")")
        self.log.append(f"Seat {self.n - 1} deals {sizes}; seat 0 leads.")

    def draw(self, p: int) -> bool:
        """Rule 5: an empty stock is rebuilt from the pile less its top card."""
        if not self.stock and len(self.pile) > 1:
            self.stock = [kind for kind, _ in self.pile[:-1]]
            self.pile = self.pile[-1:]
            self.shuffle_stock()
            self.log.append(f"  The stock is empty: the pile under its top card is shuffled "
                            f"into a new stock of {len(self.stock)}.")
        if not self.stock:
            return False
        self.gain(p, self.take_top())
        return True

    def shuffle_stock(self) -> None:
        """Rules 1, 5, 9, 12: the stock is shuffled. Nobody looks into it before its top card
        is taken, so its cards are left where they lie and ``take_top`` picks each at random
        when it is taken: the same game, with one random number per card taken instead of one
        per card shuffled (docs/rules/bombs-away.md, "Engine notes")."""
        self.stock_fixed = 0

    def take_top(self) -> int:
        """The top card of the stock (not empty), taken off. Its bottom ``stock_fixed`` cards lie
        in a known order (a hand or a 10 put under it); the top one of the shuffled cards above
        them is any of them with equal chance, so one is chosen now (simcards.engine.take_top)."""
        card, self.stock_fixed = take_top_py(self.stock, self.stock_fixed, self.rng)
        return card

    def gain(self, p: int, kind: int) -> None:
        """A card into p's hand: one more card the table's void inference leaves free."""
        self.hands[p][kind] += 1
        if self.void[p]:
            self.free[p] += 1

    def lose(self, p: int, kind: int) -> None:
        """A card out of p's hand: every seat knows one card of that kind less in it."""
        self.hands[p][kind] -= 1
        for o in range(self.n):
            self.known[o][p][kind] = max(0, self.known[o][p][kind] - 1)

    def forget(self, q: int, keep: tuple[int, int]) -> None:
        """A card taken at random from q: seats not in ``keep`` (who saw which card it was)
        know one card less of each kind in q's hand."""
        for o in range(self.n):
            if o not in keep:
                self.known[o][q] = [max(0, c - 1) for c in self.known[o][q]]

    def clear_knowledge(self, q: int) -> None:
        """q's hand is gone (a 4, going out): nothing is known of it any more."""
        for o in range(self.n):
            self.known[o][q] = [0] * N_KINDS
        self.void[q] = self.free[q] = 0

    def draw_up(self, p: int) -> None:
        """Rule 3: draw back up to a full hand."""
        while self.hand_size_of(p) < self.full[p] and self.draw(p):
            pass

    def tens_rule(self, p: int) -> None:
        """Rule 4: each extra 10 goes under the stock and is replaced from its top;
        give up after as many tries as the stock has cards."""
        if not self.rules["tens_rule"] or self.hands[p][TEN] < 2:
            return
        tries = len(self.stock)
        swapped = 0
        while self.hands[p][TEN] > 1 and tries > 0:
            self.lose(p, TEN)
            self.stock.insert(0, TEN)
            self.stock_fixed += 1
            self.gain(p, self.take_top())
            tries -= 1
            swapped += 1
        self.log.append(f"  Tens rule: seat {p} swaps a 10 for the top card of the stock "
                        f"{swapped} time(s); now holds {self.hands[p][TEN]} 10(s).")

    def random_card(self, q: int) -> int:
        """A card of q's hand taken at random: uniform over cards, counted kinds ascending."""
        size = self.hand_size_of(q)
        if size == 0:
            return -1
        r = self.rng.below(size)
        for kind in range(N_KINDS):
            r -= self.hands[q][kind]
            if r < 0:
                return kind
        raise AssertionError("unreachable")

    def playable(self, kind: int) -> bool:
        """Rule 12: a 7 (or a 6 that would copy a 7) needs 4 cards on the pile."""
        if kind == SEVEN or (kind == SIX and self.top() == SEVEN):
            return len(self.pile) >= SEVEN_MIN_PILE
        return True

    def legal_cards(self, p: int, must: int) -> list[int]:
        """Rules 3 and 13: any playable card; under an 8's name, that rank or the joker if held."""
        hand = self.hands[p]
        if must >= 0 and (hand[must] or hand[JOKER]):
            return [k for k in (must, JOKER) if hand[k]]
        return [k for k in self.held(p) if self.playable(k)]

    # ------------------------------------------------------------ questions
    def ask(self, kind: int, seat: int, options: list[int], card: int):
        """Ask ``seat`` to choose among ``options``: None if there is none, the one if only one.
        Every question's allowed answers are worked out by the rule that asks it; this is
        the only place they are kept (``legal_moves``)."""
        if len(options) <= 1:
            move = options[0] if options else None
        else:
            self.question = Question(kind, seat, list(options), card)
            move = yield
            self.question = None
        self.answers[seat][kind] = -1 if move is None else move
        return move

    # ------------------------------------------------------------ the game
    def play_game(self):
        while not self.over:
            yield from self.turn(self.current)

    def turn(self, p: int):
        """Rule 3: one card (or a pass), its effect, then draw back up; rule 18: the cap."""
        if self.turns >= self.rules["turn_cap"]:
            self.over = self.unfinished = True
            self.log.append(f"Stopped after {self.turns} turns: unfinished.")
            return
        self.turns += 1
        must = self.must
        card = yield from self.ask(PLAY, p, self.legal_cards(p, must), -1)
        self.must = -1                         # rule 13: the name binds the first card only
        if must >= 0 and card not in (must, JOKER):
            # p held neither the rank named nor the joker (kept with an earlier such mask
            # when p has gained no card since)
            self.void[p] = (1 << must) | (1 << JOKER) | (self.void[p] if self.free[p] == 0 else 0)
            self.free[p] = 0
        if card is None:
            self.log.append(f"Turn {self.turns}: seat {p} has no card to play and passes.")
        else:
            self.log.append(f"Turn {self.turns}: seat {p} plays {CARD_NAMES[card]}.")
            yield from self.play_card(p, card, must)
            if self.over:
                return
        self.end_turn(p)

    def play_card(self, p: int, card: int, must: int):
        """The card goes onto the pile first; rule 11: a 6 counts as the card it is played on."""
        self.lose(p, card)
        if card == JOKER:                                   # rule 15
            self.pile.append([JOKER, JOKER])
            named = yield from self.ask(NAME, p, [must] if must >= 0 else NAMEABLE, JOKER)
            self.pile[-1][1] = named
            self.log.append(f"  The joker is named {CARD_NAMES[named]}.")
            counts_as = named
        elif card == SIX and self.pile:
            counts_as = self.top()
            self.pile.append([SIX, counts_as])
            self.log.append(f"  The 6 counts as {CARD_NAMES[counts_as]}.")
        else:                                               # a 6 on an empty pile does nothing
            counts_as = card
            self.pile.append([card, card])
        yield from self.effect(p, counts_as)

    def effect(self, p: int, card: int):
        """Rules 6-16, by the rank the played card counts as."""
        if card == ACE:
            yield from self.ace(p)
        elif card == TWO:
            self.two(p)
        elif card == THREE:
            self.three(p)
        elif card == FOUR:
            self.four(p)
        elif card == FIVE:
            yield from self.five(p)
        elif card == SEVEN:
            self.seven(p)
        elif card == EIGHT:
            yield from self.eight(p)
        elif card == NINE:
            yield from self.nine(p)
        elif FIRST_DUEL <= card <= LAST_DUEL:
            yield from self.duel(p, card)
        # a 6 that copies nothing has no effect

    def ace(self, p: int):
        """Rule 6: one more card at once, free of any 8's name; its effect applies too."""
        card = yield from self.ask(EXTRA, p, self.legal_cards(p, -1), ACE)
        if card is None:
            self.log.append(f"  Seat {p} has no further card to play.")
            return
        self.log.append(f"  Seat {p} plays {CARD_NAMES[card]} after the ace.")
        yield from self.play_card(p, card, -1)

    def two(self, p: int) -> None:
        """Rule 7: the next player misses a turn."""
        self.skip_next = True
        self.log.append(f"  Seat {self.next_player(p)} misses a turn.")

    def three(self, p: int) -> None:
        """Rule 8: the direction reverses (not with 2 players)."""
        if self.survivors() > 2:
            self.direction = -self.direction
            self.log.append("  Play reverses.")

    def four(self, p: int) -> None:
        """Rule 9: the hand (kinds ascending) goes onto the stock, which is shuffled; draw a full hand."""
        cards = [kind for kind in range(N_KINDS) for _ in range(self.hands[p][kind])]
        self.hands[p] = [0] * N_KINDS
        self.clear_knowledge(p)
        self.stock += cards
        self.shuffle_stock()
        for _ in range(self.full[p]):
            if not self.draw(p):
                break
        self.log.append(f"  Seat {p} shuffles {len(cards)} card(s) into the stock and draws a new hand.")
        self.tens_rule(p)

    def five(self, p: int):
        """Rule 10: take a random card from an opponent, who draws one at once."""
        q = yield from self.ask(TARGET, p, self.opponents(p), FIVE)
        card = self.random_card(q)
        if card < 0:
            return
        self.lose(q, card)
        self.gain(p, card)
        self.forget(q, (p, q))
        self.known[q][p][card] += 1            # q knows which card p took
        self.log.append(f"  Seat {p} takes a card from seat {q}.")
        self.tens_rule(p)
        self.draw(q)
        self.tens_rule(q)

    def seven(self, p: int) -> None:
        """Rule 12: the pile's top five cards (the 7 included) are shuffled into the stock."""
        taken = self.pile[-SEVEN_TAKES:]
        del self.pile[-SEVEN_TAKES:]
        self.stock += [kind for kind, _ in taken]
        self.shuffle_stock()
        self.log.append("  The pile's top five cards are shuffled into the stock.")

    def eight(self, p: int):
        """Rule 13: name a rank 9..A that the next player's first card must be, if held."""
        named = yield from self.ask(NAME, p, NAMEABLE, EIGHT)
        self.must = named
        self.log.append(f"  Seat {p} names {CARD_NAMES[named]}.")

    def nine(self, p: int):
        """Rule 14: with an opponent, each takes a random card from the other (q's first)."""
        q = yield from self.ask(TARGET, p, self.opponents(p), NINE)
        from_q = self.random_card(q)
        from_p = self.random_card(p)
        if from_q >= 0:
            self.lose(q, from_q)
            self.gain(p, from_q)
        if from_p >= 0:
            self.lose(p, from_p)
            self.gain(q, from_p)
        if from_q >= 0:
            self.forget(q, (p, q))
        if from_p >= 0:
            self.forget(p, (p, q))
        if from_q >= 0:                        # each knows the card it lost to the other
            self.known[q][p][from_q] += 1
        if from_p >= 0:
            self.known[p][q][from_p] += 1
        self.log.append(f"  Seats {p} and {q} each take a card from the other.")
        self.tens_rule(p)
        self.tens_rule(q)

    def duel(self, p: int, card: int):
        """Rule 16: the next player answers with any card (no effect); if the duel card is
        higher, C (after the answerer; with 2 players the answerer) loses the difference."""
        self.duels += 1
        b = self.next_player(p)
        self.duel_from, self.duel_card = p, card
        if self.rules["duel_victim"] == "chosen":
            self.victim = -1                                   # variant: chosen below
        elif self.survivors() == 2:
            self.victim = b
        else:
            self.victim = self.next_player(b)
        self.answerer = b
        answer = yield from self.ask(ANSWER, b, self.held(b), card)
        if answer is None:
            value = 0
            self.log.append(f"  Seat {b} has no card to answer with.")
        else:
            self.lose(b, answer)
            if answer == JOKER:
                self.pile.append([JOKER, JOKER])
                named = yield from self.ask(NAME, b, NAMEABLE, JOKER)
                self.pile[-1][1] = named
            else:
                self.pile.append([answer, self.top() if answer == SIX else answer])
            value = VALUE[self.top()]
            self.log.append(f"  Seat {b} answers with {CARD_NAMES[answer]} (worth {value}).")
        self.draw_up(b)
        self.tens_rule(b)
        damage = DUEL_VALUE - value
        if damage > 0:
            if self.rules["duel_victim"] == "chosen":
                self.damage = damage
                self.victim = yield from self.ask(TARGET, p, self.opponents(p), card)
            self.lose_points(self.victim, damage)
        self.duel_from = self.duel_card = self.victim = self.answerer = -1
        self.damage = 0

    def lose_points(self, c: int, amount: int) -> None:
        """Rule 17: at 0 points or below a player is out; the last one left wins."""
        self.points[c] -= amount
        self.points_lost += amount
        self.log.append(f"  Seat {c} loses {amount} point(s): {self.points[c]} left.")
        if self.points[c] <= 0:
            self.eliminate(c)
            if self.survivors() == 1:
                self.over = True
                self.log.append("The game is over.")

    def eliminate(self, c: int) -> None:
        """Rule 17: the hand goes under the stock, kinds ascending."""
        self.out_order[c] = self.outs
        self.out_turn[c] = self.turns
        self.outs += 1
        self.stock_fixed += sum(self.hands[c])
        hand_to_bottom_py(self.stock, self.hands[c])
        self.clear_knowledge(c)
        self.log.append(f"  Seat {c} is out.")

    def end_turn(self, p: int) -> None:
        """Rule 3: draw back up; the next player plays (after a 2, the one after; rule 7)."""
        self.draw_up(p)
        self.tens_rule(p)
        q = self.next_player(p)
        if self.skip_next:
            self.skip_next = False
            q = self.next_player(q)
        self.current = q

    # ------------------------------------------------------------ protocol
    def _resume(self, move) -> None:
        try:
            if self._started:
                self._flow.send(move)
            else:
                self._started = True
                next(self._flow)
        except StopIteration:
            self._finished = True
            self.question = None

    def next_decision(self) -> tuple[int, int] | None:
        """Play forced steps; then (decision kind, seat), or None when the game is over."""
        if not self._started:
            self._resume(None)
        if self.question is None:
            return None
        return self.question.kind, self.question.seat

    def legal_moves(self) -> list[int]:
        """The pending question's allowed answers (empty when the game is over)."""
        q = self.next_decision() and self.question
        return list(q.options) if q else []

    def view(self, kind: int | None = None) -> View:
        """What the deciding seat may see (rule file, "What a strategy sees"): the fast
        engine's state layout (view.py) with every public field and the seat's own rows
        filled, every other field (other hands, the stock, the engine's phase) left at zero."""
        q = self.question
        seat = q.seat
        n = self.n
        public = {
            S_N: n,
            # the game
            S_DIRECTION: self.direction, S_CUR: self.current, S_MUST: self.must,
            S_TURNS: self.turns, S_DUELS: self.duels, S_POINTS_LOST: self.points_lost,
            S_OVER: int(self.over), S_UNFINISHED: int(self.unfinished), S_OUTS: self.outs,
            S_ALIVE_N: self.survivors(), S_SKIP: int(self.skip_next),
            S_STOCK_N: len(self.stock), S_PILE_N: len(self.pile),
            # the question and the duel
            S_KIND: q.kind, S_DECIDER: seat, S_ASKING: q.card,
            S_N_LEGAL: len(q.options), S_LEGAL: sum(1 << m for m in q.options),
            S_DUEL_FROM: self.duel_from, S_DUEL_CARD: self.duel_card, S_ANSWERER: self.answerer,
            S_VICTIM: self.victim, S_DAMAGE: self.damage,
        }
        s = np.zeros(STATE_SIZE, np.int64)
        s[list(public)] = list(public.values())
        LAYOUT.write_params(s, self.params)      # the rule settings: hand size, points, ...
        s[A_POINTS:A_POINTS + n] = self.points
        s[A_OUT:A_OUT + n] = self.out_order
        s[A_OUT_TURN:A_OUT_TURN + n] = self.out_turn
        s[A_HAND_N:A_HAND_N + n] = [self.hand_size_of(p) for p in range(n)]
        s[A_ANSWERS:A_ANSWERS + n * N_DECISIONS] = [a for row in self.answers for a in row]
        if self.pile:
            kinds = [k for k, _ in self.pile]
            s[A_PILE:A_PILE + len(kinds)] = kinds
            s[A_EFF:A_EFF + len(kinds)] = [counts_as for _, counts_as in self.pile]
            s[A_PILE_COUNTS:A_PILE_COUNTS + N_KINDS] = np.bincount(kinds, minlength=N_KINDS)
        s[A_VOID:A_VOID + n] = self.void
        s[A_FREE:A_FREE + n] = self.free
        row = A_KNOWN + seat * KNOWN_ROW
        s[row:row + n * N_KINDS] = [c for q in range(n) for c in self.known[seat][q]]
        s[A_DEALT + seat] = self.dealt[seat]
        s[A_HANDS + seat * N_KINDS:A_HANDS + (seat + 1) * N_KINDS] = self.hands[seat]
        load_memory(s, MEMORY, seat, self.memory[seat])
        return View(s, seat)

    def apply(self, kind: int, move: int) -> None:
        """Answer the pending question; IllegalMove (saying why) if ``move`` is not allowed."""
        def name(k: int) -> str:
            return DECISION_NAMES[k] if 0 <= k < len(DECISION_NAMES) else f"decision {k}"
        if self.next_decision() is None:
            raise IllegalMove(f"the game is over: no {name(kind)} is asked")
        q = self.question
        if kind != q.kind:
            raise IllegalMove(f"seat {q.seat} is asked for {name(q.kind)}, not {name(kind)}")
        allowed = self.legal_moves()
        if move not in allowed:
            raise IllegalMove(f"seat {q.seat} may not answer {describe_move(kind, move)} to "
                              f"{name(kind)}: allowed are "
                              f"{', '.join(describe_move(kind, m) for m in allowed)}")
        self._resume(int(move))

    # ------------------------------------------------------------ outcome
    def result(self) -> tuple[list[list[int]], list[int]]:
        """Per seat (win, rank, points, dealt mask) and (turns, duels, points lost, unfinished)."""
        def key(p: int) -> int:   # still in: above everyone out, by points; out: later is better
            return (1 << 40) + self.points[p] if self.alive(p) else self.out_order[p]
        ranks = ranks_py([key(p) for p in range(self.n)])
        seats = []
        for p in range(self.n):
            win = int(ranks[p] == 1 and not self.unfinished and self.alive(p))
            columns = {"points": self.points[p], "dealt_mask": self.dealt[p]}
            seats.append([win, ranks[p]] + [columns[c] for c in SEAT_COLUMNS])
        game = {"turns": self.turns, "duels": self.duels, "points_lost": self.points_lost}
        return seats, [game[c] for c in GAME_COLUMNS] + [int(self.unfinished)]

    def snapshot(self) -> list[int]:
        """The state in the layout of fast.snapshot."""
        q = self.question
        head = [self.current, self.direction, self.must, self.turns, self.duels,
                self.points_lost, int(self.over), int(self.unfinished), self.outs,
                len(self.stock), len(self.pile),
                q.kind if q else -1, q.seat if q else -1,
                sum(1 << m for m in q.options) if q else 0, q.card if q else -1,
                self.duel_from, self.victim, self.damage, self.stock_fixed]
        hands = [c for hand in self.hands for c in hand]
        stock = self.stock + [-1] * (DECK - len(self.stock))
        pad = [-1] * (DECK - len(self.pile))
        kinds = [k for k, _ in self.pile] + pad
        counts_as = [e for _, e in self.pile] + pad
        return head + self.points + self.out_order + hands + stock + kinds + counts_as
