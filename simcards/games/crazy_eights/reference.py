"""Crazy Eights, the reference engine: plain Python written to be read beside the rules.

Every rule lives here once; the rule numbers are those of docs/rules/crazy-eights.md. The
fast engine (fast.py) must reach the same state after every move; the tests replay its
recorded games through this class. So both engines draw random numbers for the same
purposes in the same order (a card taken from the stock is chosen at random when it is
taken, ``take_top``: the stock is never shuffled as a whole) and lay cards out the same way:
a new deck in card-id order, a discard pile in id order when it becomes the stock.

Cards are ids 0..51 (rules.CARD_NAMES); a hand is a sorted list of ids; the stock and the
discard pile are lists with the bottom card first and the top card last.
"""
from __future__ import annotations

from bisect import insort

import numpy as np

from simcards.compiled.engine import MEMORY_SLOTS, load_memory, ranks_py, take_top_py
from simcards.errors import IllegalMove
from simcards.games.crazy_eights import view as V
from simcards.games.crazy_eights.rules import (
    CARD_NAMES, DRAW, EIGHT, N_CARDS, N_SUITS, NAME_SUIT, PARAM_ROW, PASS, PH_DREW, PH_PLAY, PH_SUIT,
    PLAY, SUIT_WORDS, dealt, playable, points, rank, rank_mask, suit, suit_mask, EIGHTS)
from simcards.compiled.rng import STREAM_DEAL, PyRandom

#: rule 11: a rank key is the score, then the fewer points held
KEY_SCALE = 1 << 12


def names(cards) -> str:
    return " ".join(CARD_NAMES[c] for c in cards) or "(none)"


def mask(cards) -> int:
    return sum(1 << c for c in cards)


class Game:
    """One game of Crazy Eights from its first deal to its end."""

    def __init__(self, n_players: int, rules: dict, seed: int, game_index: int):
        self.n = n_players
        self.rules = rules
        self.params = PARAM_ROW.encode(rules, n_players)            # the rule row, as the fast engine's
        self.hand_size = dealt(rules, n_players)                     # rule 2
        self.draw_one = rules["draw"] == "one"                      # rule 6
        self.reshuffle = rules["empty_stock"] == "reshuffle"        # rule 6
        self.target = rules["target"]                               # rule 11
        self.turn_cap = rules["turn_cap"]                           # rule 12
        self.rng = PyRandom(seed, game_index, STREAM_DEAL)
        self.hands: list[list[int]] = [[] for _ in range(n_players)]
        self.stock: list[int] = []
        self.stock_fixed = 0           # the stock's bottom cards in a known order (take_top)
        self.pile: list[int] = []
        self.top = self.suit = 0       # the top card, the suit to follow
        self.phase = PH_PLAY
        self.current = 0
        self.dealer = n_players - 1                                 # rule 2: seat 0 starts
        self.score = [0] * n_players
        self.eights = [0] * n_players                               # eights played
        self.drawn = [0] * n_players                                # cards drawn
        self.lacks = [0] * n_players                                # rule 7: known not held
        self.turns = self.hands_dealt = self.draws = self.passes = 0
        self.reshuffles = self.blocked = 0
        self.stuck = 0                 # passes in a row by seats that could neither play nor draw
        self.drew = 0                  # cards drawn by the player to move this turn
        self.over = self.unfinished = False
        self.memory = [[0] * MEMORY_SLOTS for _ in range(n_players)]   # the strategies' own
        self.log: list[str] = []
        self.deal()

    # ------------------------------------------------------------ seats and cards
    def next_seat(self, p: int) -> int:
        return (p + 1) % self.n                                      # clockwise

    def cards(self) -> list[int]:
        """Every card wherever it is (hands, stock, discard pile): always the deck."""
        return [c for hand in self.hands for c in hand] + self.stock + self.pile

    @staticmethod
    def deck() -> list[int]:
        return list(range(N_CARDS))

    def hand_points(self, p: int) -> int:
        return sum(points(c) for c in self.hands[p])                 # rule 9

    def take_top(self) -> int:
        """The stock's top card, taken off: chosen at random among the stock's cards when it
        is taken, which deals what a shuffle would (simcards.engine.take_top)."""
        card, self.stock_fixed = take_top_py(self.stock, self.stock_fixed, self.rng)
        return card

    # ------------------------------------------------------------ the deal (rules 2-3)
    def deal(self) -> None:
        """All 52 cards in id order are the stock; one card at a time goes to each player from
        the dealer's left, ``hand_size`` times round; then the starter is turned up. An eight
        goes back into the stock at a random place and the next card is turned, unless the
        stock holds nothing but eights."""
        self.hands_dealt += 1
        self.stock, self.stock_fixed, self.pile = list(range(N_CARDS)), 0, []
        self.hands = [[] for _ in range(self.n)]
        self.lacks = [0] * self.n
        for _ in range(self.hand_size):
            p = self.dealer
            for _ in range(self.n):
                p = self.next_seat(p)
                insort(self.hands[p], self.take_top())
        starter = self.turn_starter()
        self.push_pile(starter)
        self.current = self.next_seat(self.dealer)
        self.phase, self.stuck, self.drew = PH_PLAY, 0, 0
        self.log.append(f"Hand {self.hands_dealt}: seat {self.dealer} deals; starter "
                        f"{CARD_NAMES[starter]}; "
                        + "; ".join(f"seat {p} {names(h)}" for p, h in enumerate(self.hands)))

    def turn_starter(self) -> int:
        """Rule 3: the stock's top card; an eight goes back into the stock at a random place
        (its random part: the deal's stock is all random) and the next is turned, unless the
        stock holds nothing but eights."""
        starter = self.take_top()
        while rank(starter) == EIGHT and any(rank(c) != EIGHT for c in self.stock):
            self.log.append(f"  The starter {CARD_NAMES[starter]} goes back into the stock.")
            self.stock.append(starter)
            starter = self.take_top()
        return starter

    def push_pile(self, card: int) -> None:
        self.pile.append(card)
        self.top, self.suit = card, suit(card)

    # ------------------------------------------------------------ rules 4-7: the moves
    def playable_cards(self, p: int) -> list[int]:
        """Rule 4: the cards of seat p that may be played now."""
        return [c for c in self.hands[p] if playable(c, self.top, self.suit)]

    def can_draw(self) -> bool:
        """Rule 6: the stock has a card, or (reshuffle) the discard pile has cards under its top."""
        return bool(self.stock) or (self.reshuffle and len(self.pile) > 1)

    def legal_moves(self) -> list[int]:
        """The legal moves of the decision under way, in code order: at a turn's start the
        playable cards and DRAW while a card can be drawn, PASS when neither; after a draw the
        playable cards and PASS (draw=one, or no card to play); after an eight the suits."""
        if self.phase == PH_SUIT:
            return list(range(N_SUITS))
        cards = self.playable_cards(self.current)
        if self.phase == PH_PLAY:
            if self.can_draw():
                return cards + [DRAW]
            return cards or [PASS]
        return cards + [PASS] if (self.draw_one or not cards) else cards

    def next_decision(self) -> tuple[int, int] | None:
        """Make the forced moves (rule 10: a decision with one legal move); then (decision,
        seat), or None when the game is over."""
        while True:
            if self.over:
                return None
            if self.phase != PH_SUIT and self.turns >= self.turn_cap:      # rule 12
                self.over = self.unfinished = True
                self.log.append(f"Stopped after {self.turns} turns: unfinished.")
                return None
            moves = self.legal_moves()
            if len(moves) > 1:
                return (NAME_SUIT if self.phase == PH_SUIT else PLAY), self.current
            self.move(self.current, moves[0], forced=True)

    def apply(self, kind: int, move: int) -> None:
        p = self.current
        want = NAME_SUIT if self.phase == PH_SUIT else PLAY
        if self.over or kind != want:
            raise IllegalMove(f"seat {p} is not asked decision {kind} now")
        if move not in self.legal_moves():
            raise IllegalMove(f"seat {p} may not {self.why_not(kind, move)}")
        if kind == NAME_SUIT:
            self.name_suit(p, move)
        else:
            self.move(p, move)

    def why_not(self, kind: int, move: int) -> str:
        """Why ``move`` is not legal now, in words."""
        if kind == NAME_SUIT:
            return f"name suit {move}: a suit is 0..3"
        if move == DRAW:
            return ("draw again this turn" if self.phase == PH_DREW
                    else "draw: the stock is empty and cannot be rebuilt")
        if move == PASS:
            return "pass while it can " + ("draw" if self.phase == PH_PLAY else "play a card")
        if not 0 <= move < N_CARDS:
            return f"play {move}: no such card"
        if move not in self.hands[self.current]:
            return f"play {CARD_NAMES[move]}: not in its hand"
        return (f"play {CARD_NAMES[move]} on {CARD_NAMES[self.top]} with "
                f"{SUIT_WORDS[self.suit]} to follow")

    def move(self, p: int, move: int, forced: bool = False) -> None:
        if move == DRAW:
            self.draw_turn(p, forced)
        elif move == PASS:
            self.pass_turn(p)
        else:
            self.play(p, move)

    def play(self, p: int, card: int) -> None:
        """Rules 4-5: the card goes onto the pile; the last card wins the hand (rule 8); after
        an eight its player names a suit."""
        self.hands[p].remove(card)
        self.push_pile(card)
        self.turns += 1
        self.stuck = self.drew = 0
        self.log.append(f"Turn {self.turns}: seat {p} plays {CARD_NAMES[card]}.")
        if rank(card) == EIGHT:
            self.eights[p] += 1
        if not self.hands[p]:
            self.log.append(f"  Seat {p} has played its last card.")
            self.end_hand(p)
            return
        if rank(card) == EIGHT:
            self.phase = PH_SUIT
            return
        self.phase = PH_PLAY
        self.current = self.next_seat(p)

    def name_suit(self, p: int, s: int) -> None:
        """Rule 5: the next player follows the named suit (or plays an eight)."""
        self.suit = s
        self.log.append(f"  Seat {p} names {SUIT_WORDS[s]}.")
        self.phase = PH_PLAY
        self.current = self.next_seat(p)

    def draw_card(self, p: int) -> int | None:
        """Rule 6: one card from the stock; an empty stock is first rebuilt from the discard
        pile under its top card (reshuffle), or nothing is drawn."""
        if not self.stock:
            if not (self.reshuffle and len(self.pile) > 1):
                return None
            self.stock, self.stock_fixed = sorted(self.pile[:-1]), 0
            self.pile = self.pile[-1:]
            self.reshuffles += 1
            self.log.append(f"  The stock is empty: the discard pile under its top card becomes "
                            f"a stock of {len(self.stock)}.")
        card = self.take_top()
        insort(self.hands[p], card)
        self.draws += 1
        self.drawn[p] += 1
        self.drew += 1
        self.lacks[p] = 0
        return card

    def draw_turn(self, p: int, forced: bool) -> None:
        """Rule 6: draw=one, one card; draw=until_playable, cards until one can be played or
        none can be drawn. Then the player may play, or pass (rule 7)."""
        self.stuck = 0
        got = []
        while True:
            card = self.draw_card(p)
            if card is None:
                break
            got.append(card)
            if self.draw_one or playable(card, self.top, self.suit):
                break
        self.phase = PH_DREW
        self.log.append(f"  Seat {p} draws {len(got)} ({names(got)})"
                        + ("." if forced else " by choice."))

    def pass_turn(self, p: int) -> None:
        """Rule 7: the turn ends without a card. A pass without a choice (nothing drawn this
        turn, or draw=until_playable) shows the seat holds none of the cards it could have
        played; n such passes in a row without a draw block the hand (rule 8)."""
        self.turns += 1
        self.passes += 1
        if not self.draw_one or self.drew == 0:
            self.lacks[p] |= suit_mask(self.suit) | rank_mask(rank(self.top)) | EIGHTS
        if self.drew == 0:
            self.stuck += 1
        self.drew = 0
        self.phase = PH_PLAY
        self.log.append(f"Turn {self.turns}: seat {p} passes.")
        if self.stuck >= self.n:
            self.log.append("  Nobody can play or draw: the hand is blocked.")
            self.end_hand(-1)
        else:
            self.current = self.next_seat(p)

    # ------------------------------------------------------------ rules 9, 11: the end of a hand
    def end_hand(self, winner: int) -> None:
        values = [self.hand_points(q) for q in range(self.n)]
        if winner >= 0:
            self.score[winner] += sum(values)
            self.log.append(f"  Seat {winner} scores {sum(values)} (points left {values}).")
        else:
            self.blocked += 1
            low = min(values)
            gain = sum(v - low for v in values)
            for q in range(self.n):
                if values[q] == low:
                    self.score[q] += gain
                    self.log.append(f"  Seat {q} holds the fewest points ({low}) and scores {gain}.")
        self.phase = PH_PLAY
        if self.target == 0 or max(self.score) >= self.target:
            self.over = True
            self.log.append(f"The game is over: scores {self.score}.")
            return
        self.dealer = self.next_seat(self.dealer)
        self.deal()

    # ------------------------------------------------------------ what a strategy sees
    def view(self, kind: int = PLAY) -> V.View:
        """What the deciding seat may see (view.py): a state array of the fast engine's layout
        with every public field and the seat's own rows filled, every other field zero."""
        p, n = self.current, self.n
        s = np.zeros(V.SIZE, np.int64)
        scalars = {V.N: n, V.PHASE: self.phase, V.CUR: p, V.DEALER: self.dealer, V.TOP: self.top,
                   V.SUIT: self.suit, V.STOCK_N: len(self.stock), V.PILE_N: len(self.pile),
                   V.PILE_MASK: mask(self.pile), V.TURNS: self.turns,
                   V.HANDS_DEALT: self.hands_dealt, V.DRAWS: self.draws, V.PASSES: self.passes,
                   V.RESHUFFLES: self.reshuffles, V.BLOCKED: self.blocked, V.STUCK: self.stuck,
                   V.DREW: self.drew, V.OVER: int(self.over), V.UNFINISHED: int(self.unfinished)}
        for at, value in scalars.items():
            s[at] = value
        V.LAYOUT.write_params(s, self.params)        # the rule settings: hand size, draw, ...
        for q in range(n):
            s[V.HAND_N + q] = len(self.hands[q])
            s[V.SCORE + q] = self.score[q]
            s[V.EIGHTS_PLAYED + q] = self.eights[q]
            s[V.DRAWN + q] = self.drawn[q]
            s[V.LACKS + q] = self.lacks[q]
        for i, c in enumerate(self.pile):
            s[V.PILE + i] = c
        s[V.HANDS + p] = mask(self.hands[p])
        s[V.LEGAL + p] = mask(self.legal_moves())
        load_memory(s, V.MEMORY, p, self.memory[p])
        return V.View(s, p)

    # ------------------------------------------------------------ outcome
    def result(self) -> tuple[list[list[int]], list[int]]:
        """Per seat (win, rank, score, cards left, points left, eights, drawn) and the game
        columns (hands, turns, draws, passes, reshuffles, blocked, unfinished)."""
        keys = [self.score[p] * KEY_SCALE - self.hand_points(p) for p in range(self.n)]
        seats = []
        for p, r in enumerate(ranks_py(keys)):                       # rule 11
            win = int(r == 1 and not self.unfinished)
            seats.append([win, r, self.score[p], len(self.hands[p]), self.hand_points(p),
                          self.eights[p], self.drawn[p]])
        return seats, [self.hands_dealt, self.turns, self.draws, self.passes, self.reshuffles,
                       self.blocked, int(self.unfinished)]

    def snapshot(self) -> list[int]:
        """The state in the layout of fast.snapshot (the strategies' memory left out)."""
        head = [self.phase, self.current, self.dealer, self.top, self.suit, len(self.stock),
                len(self.pile), self.turns, self.hands_dealt, self.draws, self.passes,
                self.reshuffles, self.blocked, self.stuck, self.drew, int(self.over),
                int(self.unfinished), self.stock_fixed]
        assert len(head) == len(V.SNAPSHOT_HEAD)
        pad = lambda cards: cards + [-1] * (N_CARDS - len(cards))  # noqa: E731
        return (head + self.hands_sizes() + self.score + self.eights + self.drawn + self.lacks
                + [mask(h) for h in self.hands] + pad(self.stock) + pad(self.pile))

    def hands_sizes(self) -> list[int]:
        return [len(h) for h in self.hands]
