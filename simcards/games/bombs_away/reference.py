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
order before each shuffle (a new deck and a hand: kinds ascending; pile cards:
pile order, bottom first).

Cards are kind ids (rules.CARD_NAMES); a hand is a list of counts per kind; the
stock is a list with the bottom card first and the top card last; the pile is
a list of [kind, counts as] pairs, bottom first: a joker counts as the rank it
was named, a 6 as the card it was played on.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simcards.games.bombs_away.rules import (
    ACE, ANSWER, CARD_NAMES, DECK, DUEL_VALUE, EIGHT, EXTRA, FIRST_DUEL, FIRST_NAME, FIVE, FOUR,
    JOKER, KIND_COUNTS, LAST_DUEL, LAST_NAME, N_KINDS, NAME, NINE, PLAY, SEVEN, SEVEN_MIN_PILE,
    SEVEN_TAKES, SIX, TARGET, TEN, THREE, TWO, VALUE)
from simcards.games.bombs_away.view import (
    A_EFF, A_HAND_N, A_HANDS, A_LEGAL, A_PILE, A_PILE_COUNTS, A_POINTS, A_SIZE, S_ASKING, S_CUR,
    S_DAMAGE, S_DECIDER, S_DIRECTION, S_DUEL_FROM, S_KIND, S_MUST, S_N, S_N_LEGAL, S_PILE_N,
    S_STOCK_N, S_VICTIM, View)
from simcards.errors import IllegalMove  # noqa: F401  (raised by apply; tests import it from here)
from simcards.rng import STREAM_DEAL, PyRandom

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
        self.hand_size = rules["hand_size"]
        self.rng = PyRandom(seed, game_index, STREAM_DEAL)
        self.points = [rules["points"]] * n_players          # rule 1
        self.out_order = [-1] * n_players                    # 0 for the first player out, ...
        self.outs = 0
        self.hands = [[0] * N_KINDS for _ in range(n_players)]
        self.stock: list[int] = []
        self.pile: list[list[int]] = []
        self.direction = 1                                   # rule 1: clockwise = seat + 1
        self.current = 0                                     # rule 1: seat 0 leads
        self.must = -1                                       # rank named by an 8 (rule 13)
        self.skip_next = False                               # a 2 was played (rule 7)
        self.duel_from = self.duel_card = self.victim = -1   # the duel under way (rule 16)
        self.damage = 0
        self.turns = self.duels = self.points_lost = 0
        self.over = self.unfinished = False
        self.question: Question | None = None
        self.log: list[str] = []
        self.deal()
        self.dealt = [sum(1 << k for k in range(N_KINDS) if hand[k]) for hand in self.hands]
        self._flow = self.play_game()
        self._started = self._finished = False

    # ------------------------------------------------------------ seats
    def alive(self, p: int) -> bool:
        return self.points[p] > 0

    def survivors(self) -> int:
        return sum(1 for p in range(self.n) if self.alive(p))

    def next_player(self, p: int) -> int:
        q = (p + self.direction) % self.n
        while not self.alive(q):
            q = (q + self.direction) % self.n
        return q

    def opponents(self, p: int) -> list[int]:
        return [q for q in range(self.n) if q != p and self.alive(q)]

    def hand_size_of(self, p: int) -> int:
        return sum(self.hands[p])

    def held(self, p: int) -> list[int]:
        return [k for k in range(N_KINDS) if self.hands[p][k] > 0]

    def top(self) -> int:
        """What the top card of the pile counts as, or -1 for an empty pile."""
        return self.pile[-1][1] if self.pile else -1

    # ------------------------------------------------------------ cards
    def deal(self) -> None:
        """Rule 1: seat n-1 deals one card at a time, starting with seat 0; then rule 4."""
        deck = [kind for kind in range(N_KINDS) for _ in range(KIND_COUNTS[kind])]
        self.rng.shuffle(deck)
        self.stock = deck
        for _ in range(self.hand_size):
            for p in range(self.n):
                self.hands[p][self.stock.pop()] += 1
        for p in range(self.n):
            self.tens_rule(p)
        self.log.append(f"Seat {self.n - 1} deals {self.hand_size} cards each; seat 0 leads.")

    def draw(self, p: int) -> bool:
        """Rule 5: an empty stock is rebuilt from the pile less its top card."""
        if not self.stock and len(self.pile) > 1:
            self.stock = [kind for kind, _ in self.pile[:-1]]
            self.pile = self.pile[-1:]
            self.rng.shuffle(self.stock)
            self.log.append(f"  The stock is empty: the pile under its top card is shuffled "
                            f"into a new stock of {len(self.stock)}.")
        if not self.stock:
            return False
        self.hands[p][self.stock.pop()] += 1
        return True

    def draw_up(self, p: int) -> None:
        """Rule 3: draw back up to a full hand."""
        while self.hand_size_of(p) < self.hand_size and self.draw(p):
            pass

    def tens_rule(self, p: int) -> None:
        """Rule 4: each extra 10 goes under the stock and is replaced from its top;
        give up after as many tries as the stock has cards."""
        if not self.rules["tens_rule"] or self.hands[p][TEN] < 2:
            return
        tries = len(self.stock)
        swapped = 0
        while self.hands[p][TEN] > 1 and tries > 0:
            self.hands[p][TEN] -= 1
            self.stock.insert(0, TEN)
            self.hands[p][self.stock.pop()] += 1
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
        """Ask ``seat`` to choose among ``options``: None if there is none, the one if only one."""
        if len(options) <= 1:
            return options[0] if options else None
        self.question = Question(kind, seat, list(options), card)
        move = yield
        self.question = None
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
        self.hands[p][card] -= 1
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
        self.stock += cards
        self.rng.shuffle(self.stock)
        for _ in range(self.hand_size):
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
        self.hands[q][card] -= 1
        self.hands[p][card] += 1
        self.log.append(f"  Seat {p} takes a card from seat {q}.")
        self.tens_rule(p)
        self.draw(q)
        self.tens_rule(q)

    def seven(self, p: int) -> None:
        """Rule 12: the pile's top five cards (the 7 included) are shuffled into the stock."""
        taken = self.pile[-SEVEN_TAKES:]
        del self.pile[-SEVEN_TAKES:]
        self.stock += [kind for kind, _ in taken]
        self.rng.shuffle(self.stock)
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
            self.hands[q][from_q] -= 1
            self.hands[p][from_q] += 1
        if from_p >= 0:
            self.hands[p][from_p] -= 1
            self.hands[q][from_p] += 1
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
            self.victim = (b + self.direction) % self.n
            while not self.alive(self.victim):
                self.victim = (self.victim + self.direction) % self.n
        answer = yield from self.ask(ANSWER, b, self.held(b), card)
        if answer is None:
            value = 0
            self.log.append(f"  Seat {b} has no card to answer with.")
        else:
            self.hands[b][answer] -= 1
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
        self.duel_from = self.duel_card = self.victim = -1
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
        self.outs += 1
        cards = [kind for kind in range(N_KINDS) for _ in range(self.hands[c][kind])]
        self.stock = cards + self.stock
        self.hands[c] = [0] * N_KINDS
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

    def view(self, kind: int | None = None) -> View:
        """What the deciding seat may see (rule file, "What a strategy sees"): the fast
        engine's state layout (view.py) with every hidden field left at zero."""
        q = self.question
        s = np.zeros(A_SIZE, np.int64)
        s[S_N], s[S_DIRECTION], s[S_CUR], s[S_MUST] = self.n, self.direction, self.current, self.must
        s[S_STOCK_N], s[S_PILE_N] = len(self.stock), len(self.pile)
        s[S_KIND], s[S_DECIDER], s[S_ASKING], s[S_N_LEGAL] = q.kind, q.seat, q.card, len(q.options)
        s[S_DUEL_FROM], s[S_VICTIM], s[S_DAMAGE] = self.duel_from, self.victim, self.damage
        for p in range(self.n):
            s[A_POINTS + p] = self.points[p]
            s[A_HAND_N + p] = self.hand_size_of(p)
        for k in range(N_KINDS):
            s[A_HANDS + q.seat * N_KINDS + k] = self.hands[q.seat][k]
        for i, (k, counts_as) in enumerate(self.pile):
            s[A_PILE + i], s[A_EFF + i] = k, counts_as
            s[A_PILE_COUNTS + k] += 1
        for m in q.options:
            s[A_LEGAL + m] = 1
        return View(s, q.seat)

    def apply(self, kind: int, move: int) -> None:
        q = self.next_decision() and self.question
        if q is None or kind != q.kind or move not in q.options:
            raise IllegalMove(f"move {move} is not an answer to {q}")
        self._resume(int(move))

    # ------------------------------------------------------------ outcome
    def result(self) -> tuple[list[list[int]], list[int]]:
        """Per seat (win, rank, points, dealt mask) and (turns, duels, points lost, unfinished)."""
        def key(p: int) -> int:   # still in: above everyone out, by points; out: later is better
            return (1 << 40) + self.points[p] if self.alive(p) else self.out_order[p]
        keys = [key(p) for p in range(self.n)]
        seats = []
        for p in range(self.n):
            better = sum(1 for q in range(self.n) if keys[q] > keys[p])
            win = int(better == 0 and not self.unfinished and self.alive(p))
            seats.append([win, better + 1, self.points[p], self.dealt[p]])
        return seats, [self.turns, self.duels, self.points_lost, int(self.unfinished)]

    def snapshot(self) -> list[int]:
        """The state in the layout of fast.snapshot."""
        q = self.question
        head = [self.current, self.direction, self.must, self.turns, self.duels,
                self.points_lost, int(self.over), int(self.unfinished), self.outs,
                len(self.stock), len(self.pile),
                q.kind if q else -1, q.seat if q else -1,
                sum(1 << m for m in q.options) if q else 0, q.card if q else -1,
                self.duel_from, self.victim, self.damage]
        hands = [c for hand in self.hands for c in hand]
        stock = self.stock + [-1] * (DECK - len(self.stock))
        pad = [-1] * (DECK - len(self.pile))
        kinds = [k for k, _ in self.pile] + pad
        counts_as = [e for _, e in self.pile] + pad
        return head + self.points + self.out_order + hands + stock + kinds + counts_as
