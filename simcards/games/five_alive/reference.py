"""Five Alive, the reference engine: plain Python written to be read beside the rules.

Every rule lives here once, in the order of docs/rules/five-alive.md. The fast
engine (fast.py) must reach the same state after every move; the tests replay
its recorded games through this class. To make that possible both engines draw
random numbers in the same order for the same purposes (shuffles only) and lay
cards out in the same canonical order before each shuffle: kinds ascending.

Cards are kind ids (rules.CARD_NAMES); a hand is a list of counts per kind; the
stock and the pile are lists with the bottom card first and the top card last.
"""
from __future__ import annotations

import numpy as np

from simcards.compiled.engine import (MEMORY_SLOTS, hand_to_bottom_py, kinds_mask_py, load_memory,
                             next_living_py, ranks_py)
from simcards.games.five_alive import view as layout
from simcards.games.five_alive.rules import (
    CARD_NAMES, DRAW1, DRAW2, KILLER, LIFE, LIMIT, N_KINDS, N_NUMBERS, PARAM_ROW, PLAY, REDEAL,
    REVERSE, SET0, SET10, SET21, SKIP, deck_counts, starting_lives)
from simcards.errors import IllegalMove
from simcards.compiled.rng import STREAM_DEAL, PyRandom


class Game:
    """One game of Five Alive from its deal to its end."""

    def __init__(self, n_players: int, rules: dict, seed: int, game_index: int):
        self.n = n_players
        self.rules = rules
        self.counts = deck_counts(rules)
        self.params = PARAM_ROW.encode(rules, n_players)        # the rule row, as the fast engine's
        self.rng = PyRandom(seed, game_index, STREAM_DEAL)
        self.lives = starting_lives(rules, n_players)       # rule 1, seat compensation
        self.out_at = [-1] * n_players                       # turn at which a player went out
        self.hands = [[0] * N_KINDS for _ in range(n_players)]
        self.stock: list[int] = []
        self.pile: list[int] = []
        self.total = 0
        self.direction = 1
        self.current = 0
        self.dealer = n_players - 1                          # rule 2
        self.turns = self.rounds = self.busts = 0
        self.over = self.unfinished = False
        self.log: list[str] = []
        #: each seat's strategy memory (simcards.engine.memory_accessors), kept across views
        self.memory = [[0] * MEMORY_SLOTS for _ in range(n_players)]
        self.start_round()
        self.dealt = [kinds_mask_py(hand) for hand in self.hands]

    # ------------------------------------------------------------ seats
    def alive(self, p: int) -> bool:
        return self.lives[p] > 0

    def survivors(self) -> int:
        return sum(1 for p in range(self.n) if self.alive(p))

    def next_player(self, p: int, direction: int) -> int:
        return next_living_py([self.alive(q) for q in range(self.n)], p, direction)

    def others_in_turn_order(self, p: int) -> list[int]:
        """The other survivors, from the next player on in the current direction (rule 3a)."""
        order, q = [], self.next_player(p, self.direction)
        while q != p:
            order.append(q)
            q = self.next_player(q, self.direction)
        return order

    def hand_size(self, p: int) -> int:
        return sum(self.hands[p])

    def cards(self) -> list[int]:
        """Every card in play, wherever it is (hands, stock, pile), as kinds: always the deck."""
        return ([k for hand in self.hands for k in range(N_KINDS) for _ in range(hand[k])]
                + self.stock + self.pile)

    def deck(self) -> list[int]:
        """The whole deck (the edition and the count_* options), as kinds."""
        return [k for k in range(N_KINDS) for _ in range(self.counts[k])]

    # ------------------------------------------------------------ cards
    def start_round(self) -> None:
        """Rules 2-3: gather and shuffle every card, deal one at a time from the dealer's left."""
        deck = [kind for kind in range(N_KINDS) for _ in range(self.counts[kind])]
        self.rng.shuffle(deck)
        self.stock, self.pile = deck, []
        self.hands = [[0] * N_KINDS for _ in range(self.n)]
        #: kinds each seat is known not to hold (view.LACKS): set by a bust or a missing 0
        #: against a Killer, cleared when the seat takes in a card or goes out
        self.lacks = [0] * self.n
        for _ in range(self.rules["hand_size"]):
            p = self.dealer
            for _ in range(self.survivors()):
                p = self.next_player(p, 1)
                self.hands[p][self.stock.pop()] += 1
        self.total, self.direction = 0, 1
        self.current = self.next_player(self.dealer, 1)
        self.rounds += 1
        self.log.append(f"Round {self.rounds}: seat {self.dealer} deals; seat {self.current} starts.")

    def draw(self, p: int) -> None:
        """Rule 8: an empty stock is rebuilt from the pile less its top card."""
        if not self.stock and len(self.pile) > 1:
            self.stock, self.pile = self.pile[:-1], self.pile[-1:]
            self.rng.shuffle(self.stock)
            self.log.append(f"  The stock is empty: the pile under its top card is shuffled "
                            f"into a new stock of {len(self.stock)}.")
        if self.stock:
            self.hands[p][self.stock.pop()] += 1
            self.lacks[p] = 0

    # ------------------------------------------------------------ lives
    def lose_life(self, p: int, why: str) -> None:
        self.lives[p] -= 1
        self.log.append(f"  Seat {p} loses a life ({why}): {self.lives[p]} left.")
        if self.lives[p] == 0:
            self.eliminate(p)

    def eliminate(self, p: int) -> None:
        """Rule 10: out at once; the hand goes to the bottom of the stock, kinds ascending."""
        self.out_at[p] = self.turns
        hand_to_bottom_py(self.stock, self.hands[p])
        self.lacks[p] = 0
        self.log.append(f"  Seat {p} is out.")

    def check_game_over(self) -> bool:
        """Rule 10: one survivor left; rule 11 (blitz): anyone at 0 lives."""
        if self.survivors() == 1 or (self.rules["blitz"] and self.survivors() < self.n):
            self.over = True
            self.log.append("The game is over.")
        return self.over

    def next_round(self) -> None:
        self.dealer = self.next_player(self.dealer, 1)
        self.start_round()

    # ------------------------------------------------------------ turns
    def legal_moves(self) -> list[int]:
        """The kinds the player to move holds and may play (rule 4, ``playable``);
        next_decision, apply and view use it."""
        hand = self.hands[self.current]
        return [k for k in range(N_KINDS) if hand[k] > 0 and self.playable(k)]

    def playable(self, k: int) -> bool:
        """Rule 4, the only copy in this engine: any action card; a number card that keeps
        the total at 21 or under."""
        return k >= N_NUMBERS or self.total + k <= LIMIT

    def next_decision(self) -> tuple[int, int] | None:
        """Play the forced turns (busts, rule 5); then (PLAY, seat) or None when the game is over."""
        while True:
            if self.over:
                return None
            if self.turns >= self.rules["turn_cap"]:                 # rule 12
                self.over = self.unfinished = True
                self.log.append(f"Stopped after {self.turns} turns: unfinished.")
                return None
            if self.legal_moves():
                return PLAY, self.current
            self.bust(self.current)

    def bust(self, p: int) -> None:
        # the table now knows p holds none of the kinds playable at this total
        self.lacks[p] |= sum(1 << k for k in range(N_KINDS) if self.playable(k))
        self.turns += 1
        self.busts += 1
        self.log.append(f"Turn {self.turns}: seat {p} cannot stay at 21 or under "
                        f"(total {self.total}) and plays nothing.")
        self.total = 0
        self.lose_life(p, "bust")
        if not self.check_game_over():
            self.current = self.next_player(p, self.direction)

    def view(self, kind: int = PLAY) -> layout.View:
        """What the player to move may see (rule file, "What a strategy sees"), in the
        fast engine's layout: every public field and the player's own rows as the fast
        engine has them, its memory, every hidden field zero."""
        L, p = layout, self.current
        s = np.zeros(L.state_size.py_func(sum(self.counts)), np.int64)
        s[L.N], s[L.CUR], s[L.TOTAL], s[L.DIR], s[L.DEALER] = (
            self.n, p, self.total, self.direction, self.dealer)
        s[L.TURNS], s[L.ROUNDS], s[L.BUSTS] = self.turns, self.rounds, self.busts
        s[L.STOCK_N], s[L.PILE_N], s[L.ALIVE_N] = len(self.stock), len(self.pile), self.survivors()
        s[L.OVER], s[L.UNFINISHED] = int(self.over), int(self.unfinished)
        L.LAYOUT.write_params(s, self.params)        # the rule settings: lives, counts, ...
        for q in range(self.n):
            s[L.LIVES + q] = self.lives[q]
            s[L.OUT_AT + q] = self.out_at[q]
            s[L.HAND_N + q] = self.hand_size(q)
            s[L.LACKS + q] = self.lacks[q]
        for i, card in enumerate(self.pile):
            s[L.PILE + i] = card
            s[L.PILE_COUNTS + card] += 1
        s[L.HELD + p] = kinds_mask_py(self.hands[p])
        legal = sum(1 << k for k in self.legal_moves())
        s[L.LEGAL + p] = legal
        s[L.DEALT + p] = self.dealt[p]
        s[L.HANDS + p * N_KINDS:L.HANDS + (p + 1) * N_KINDS] = self.hands[p]
        load_memory(s, L.MEMORY, p, self.memory[p])
        return L.View(s, p, legal)

    def apply(self, kind: int, card: int) -> None:
        p = self.current
        if kind != PLAY:
            raise IllegalMove(f"decision {kind} is not a Five Alive decision (only {PLAY}: play)")
        if card not in self.legal_moves():
            if not (0 <= card < N_KINDS):
                why = "there is no such card kind"
            elif self.hands[p][card] == 0:
                why = f"seat {p} holds no {CARD_NAMES[card]}"
            else:
                why = f"{CARD_NAMES[card]} would take the total {self.total} over {LIMIT}"
            raise IllegalMove(f"seat {p} may not play card kind {card}: {why}")
        self.hands[p][card] -= 1
        self.pile.append(card)                                        # rule 3a: pile first
        self.turns += 1
        self.log.append(f"Turn {self.turns}: seat {p} plays {CARD_NAMES[card]}"
                        + (f" (total {self.total} -> {self.total + card})" if card < N_NUMBERS else ""))
        if self.hand_size(p) == 0:                                    # rule 9
            self.log.append(f"  Seat {p} played their last card and wins the round.")
            for q in self.others_in_turn_order(p):
                self.lose_life(q, f"seat {p} went out")
            if not self.check_game_over():
                self.next_round()
            return
        next_player = None
        if card < N_NUMBERS:
            self.total += card
        elif card in (DRAW1, DRAW2):
            for q in self.others_in_turn_order(p):
                for _ in range(1 if card == DRAW1 else 2):
                    self.draw(q)
        elif card == SKIP:
            next_player = self.next_player(self.next_player(p, self.direction), self.direction)
        elif card == REVERSE:
            if self.survivors() > 2:                                  # with 2 it is a Pass
                self.direction = -self.direction
        elif card in (SET21, SET10, SET0):
            self.total = {SET21: 21, SET10: 10, SET0: 0}[card]
        elif card == KILLER:
            self.total = 0
            emptied = False
            for q in self.others_in_turn_order(p):
                if not self.alive(q):
                    continue
                if self.hands[q][0] > 0:
                    self.hands[q][0] -= 1
                    self.pile.append(0)
                    self.log.append(f"  Seat {p}'s Killer: seat {q} discards a 0.")
                    emptied = emptied or self.hand_size(q) == 0
                else:
                    self.lacks[q] |= 1                       # the table knows: no 0
                    self.lose_life(q, "no 0 against the Killer")
            if self.check_game_over():
                return
            if emptied:
                self.round_emptied(p)
                return
        elif card == LIFE:
            for q in self.others_in_turn_order(p):
                self.lose_life(q, "Life card")
            if self.check_game_over():
                return
        elif card == REDEAL:
            self.total = 0
            self.redeal(p)
            if any(self.alive(q) and self.hand_size(q) == 0 for q in range(self.n)):
                self.round_emptied(p)
                return
        # Pass: no effect
        self.current = next_player if next_player is not None else self.next_player(p, self.direction)

    def redeal(self, p: int) -> None:
        """Gather every hand (kinds ascending), shuffle, deal from the top starting after p."""
        cards = [kind for kind in range(N_KINDS) for q in range(self.n) for _ in range(self.hands[q][kind])]
        self.hands = [[0] * N_KINDS for _ in range(self.n)]
        self.lacks = [0] * self.n
        self.rng.shuffle(cards)
        q = p
        while cards:
            q = self.next_player(q, self.direction)
            self.hands[q][cards.pop()] += 1
        self.log.append("  Every hand is gathered, shuffled and dealt out again.")

    def round_emptied(self, p: int) -> None:
        """Rule 9a: a hand emptied without playing ends the round; card holders lose a life."""
        self.log.append("  A hand is empty: the round ends.")
        for q in self.others_in_turn_order(p) + [p]:
            if self.alive(q) and self.hand_size(q) > 0:
                self.lose_life(q, "still holding cards")
        if not self.check_game_over():
            self.next_round()

    # ------------------------------------------------------------ outcome
    def result(self) -> tuple[list[list[int]], list[int]]:
        """Per seat (win, rank, lives, dealt mask) and (rounds, turns, busts, unfinished)."""
        def key(p: int) -> int:
            if self.unfinished:
                return self.lives[p]
            if self.rules["blitz"]:   # rule 11: most lives, then lowest sum of number cards
                return self.lives[p] * (1 << 24) - sum(k * self.hands[p][k] for k in range(N_NUMBERS))
            return (1 << 40) if self.alive(p) else self.out_at[p]
        ranks = ranks_py([key(p) for p in range(self.n)])
        seats = []
        for p in range(self.n):
            win = int(ranks[p] == 1 and not self.unfinished)
            seats.append([win, ranks[p], self.lives[p], self.dealt[p]])
        return seats, [self.rounds, self.turns, self.busts, int(self.unfinished)]

    def snapshot(self) -> list[int]:
        """The state in the layout of fast.snapshot."""
        deck = sum(self.counts)
        head = [self.current, self.direction, self.total, self.dealer, self.turns, self.rounds,
                self.busts, int(self.over), int(self.unfinished), len(self.stock), len(self.pile)]
        hands = [c for hand in self.hands for c in hand]
        pad = lambda cards: cards + [-1] * (deck - len(cards))  # noqa: E731
        return head + list(self.lives) + hands + pad(self.stock) + pad(self.pile)
