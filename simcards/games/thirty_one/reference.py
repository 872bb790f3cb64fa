"""Thirty-One with keys, the reference engine: plain Python written to be read beside the rules.

Every rule lives here once; the rule numbers are those of docs/rules/thirty-one.md
(which follow the binding rule file). The fast engine (fast.py) must reach the
same state after every move; the tests replay its recorded games through this
class. So both engines draw random numbers for the same purposes in the same
order (a card taken from a shuffled stock, the deal's included: a shuffle draws
nothing, each card is chosen when it is taken, ``take_top``) and lay cards out
the same way: a new deck in card-id order, a discard pile in id order before its
shuffle, the middle discarded in id order, hands and the middle kept sorted by
card id.

Cards are ids 0..35 (rules.CARD_NAMES); the stock and the discard pile are lists
with the bottom card first and the top card last.
"""
from __future__ import annotations

import numpy as np

from simcards.compiled.engine import MEMORY_SLOTS, load_memory, ranks_py, take_top_py
from simcards.games.thirty_one import view as V
from simcards.games.thirty_one.rules import (
    ACCEPT, C31, C33, CARD_NAMES, COMBO_NAMES, DECISIONS, HAND, KNOCK, MAX_PLAYERS,
    N_CARDS, NONE, PARAM_ROW, PASS, PH_DEAL, PH_TURN, PH_VOTE, PROPOSE, REFUSE, SWAP_BASE,
    TURN, VOTE, one_suit, score, showdown_value, starting_bank, starting_keys, swap_move)
from simcards.games.thirty_one.view import View
from simcards.errors import IllegalMove  # noqa: F401  (raised by apply; tests import it from here)
from simcards.compiled.rng import STREAM_DEAL, PyRandom

PHASE_TURN, PHASE_VOTE, PHASE_DEAL = PH_TURN, PH_VOTE, PH_DEAL


def names(cards) -> str:
    return " ".join(CARD_NAMES[c] for c in cards)


class Game:
    """One game of Thirty-One with keys from its first deal to its end."""

    def __init__(self, n_players: int, rules: dict, seed: int, game_index: int):
        self.n = n_players
        self.rules = rules
        self.params = PARAM_ROW.encode(rules, n_players)        # the rule row, as the fast engine's
        self.rng = PyRandom(seed, game_index, STREAM_DEAL)
        self.keys = starting_keys(rules, n_players)      # rule 6, seat compensation
        self.bank = starting_bank(rules, n_players)      # rule 6
        self.hands: list[list[int]] = [[] for _ in range(n_players)]
        self.middle: list[int] = []
        self.stock: list[int] = []
        self.stock_fixed = 0           # the stock's bottom cards in a known order (take_top)
        self.discard: list[int] = []
        self.rebuilt: list[int] = []   # the pile as it became the stock this round, [] if none
        self.phase = PHASE_TURN
        self.current = 0
        self.dealer = n_players - 1                                  # rule 7
        self.round_turns = self.turns = self.rounds = 0
        self.quiet = 0                 # turns in a row with no card changing hands (rule 9a)
        self.proposer = self.voter = -1
        self.votes = [-1] * n_players
        self.over = self.unfinished = False
        self.ends = {"31": 0, "33": 0, "6-7-8": 0, "proposal": 0, "cap": 0}
        self.refreshes = self.rebuilds = 0
        self.declared = [0] * n_players
        self.proposals = [0] * n_players
        self.refusals = [0] * n_players
        # what the table saw each seat do this round (reset by every deal)
        self.held = [0] * n_players          # cards taken from the middle and not put back
        self.given = [0] * n_players         # cards put into the middle
        self.last_move = [-1] * n_players    # the last turn move
        self.memory = [[0] * MEMORY_SLOTS for _ in range(n_players)]   # the strategies' own
        self.log: list[str] = []
        self.deal()
        self.dealt = [sum(1 << c for c in hand) for hand in self.hands]

    # ------------------------------------------------------------ seats and hands
    def next_seat(self, p: int) -> int:
        return (p + 1) % self.n                                      # clockwise

    def others_in_turn_order(self, p: int) -> list[int]:
        return [(p + i) % self.n for i in range(1, self.n)]

    def hand_score(self, p: int) -> tuple[int, int]:
        return score(*self.hands[p])

    def cards(self) -> list[int]:
        """Every card of the game wherever it is (hands, middle, stock, discard pile): always
        the deck (the contract suite's conservation check)."""
        return [c for hand in self.hands for c in hand] + self.middle + self.stock + self.discard

    @staticmethod
    def deck() -> list[int]:
        """The 36 cards, each once."""
        return list(range(N_CARDS))

    def cards_everywhere(self) -> list[int]:
        """``cards()`` sorted (card conservation: always 0..35 once each)."""
        return sorted(self.cards())

    # ------------------------------------------------------------ the deal (rule 7)
    def deal(self) -> None:
        """All 36 cards in id order are shuffled; one card at a time goes to each player from the
        dealer's left, three times round; three cards go face up to the middle; the rest is the stock.
        (The shuffle is taken as the cards are: ``take_top``.)"""
        self.stock, self.stock_fixed = list(range(N_CARDS)), 0
        self.hands = [[] for _ in range(self.n)]
        for _ in range(3):
            p = self.dealer
            for _ in range(self.n):
                p = self.next_seat(p)
                self.hands[p].append(self.take_top())
        self.middle = sorted(self.take_top() for _ in range(3))
        self.hands = [sorted(hand) for hand in self.hands]
        self.discard, self.rebuilt = [], []
        self.round_turns = self.quiet = 0
        self.proposer = self.voter = -1
        self.votes = [-1] * self.n
        self.held, self.given, self.last_move = [0] * self.n, [0] * self.n, [-1] * self.n
        self.current = self.next_seat(self.dealer)
        self.rounds += 1
        self.phase = PHASE_DEAL        # dealt combinations are checked next (rule 13)
        self.log.append(f"Round {self.rounds}: seat {self.dealer} deals; middle {names(self.middle)}; "
                        + "; ".join(f"seat {p} {names(h)} ({score(*h)[0]})"
                                    for p, h in enumerate(self.hands)))

    # ------------------------------------------------------------ stock and middle
    def draw(self) -> int:
        """Rule 10: an empty stock is rebuilt from the discard pile, shuffled or as it lies."""
        if not self.stock:
            self.rebuild_stock()
        return self.take_top()

    def take_top(self) -> int:
        """The stock's top card, taken off. A shuffled stock is not laid out: nobody sees into it
        before its top card is taken, so the engine picks that card at random among the shuffled
        ones then, each with equal chance: the same game as shuffling first, one random number
        per card taken (simcards.engine.take_top). A stock turned over as it lies is taken in
        its order (``stock_fixed``: its bottom cards in a known order)."""
        card, self.stock_fixed = take_top_py(self.stock, self.stock_fixed, self.rng)
        return card

    def rebuild_stock(self) -> None:
        self.rebuilt = list(self.discard)          # everyone saw these cards go down
        if self.rules["rebuild"] == "as_it_lies":
            self.stock = self.discard              # turned over whole: its top is the stock's top
            self.stock_fixed = len(self.stock)
        else:
            self.stock = sorted(self.discard)      # canonical order, then shuffled (as taken)
            self.stock_fixed = 0
        self.discard = []
        self.rebuilds += 1
        self.log.append(f"  The stock is empty: the discard pile becomes a stock of "
                        f"{len(self.stock)} ({self.rules['rebuild']}).")

    def renew_middle(self, why: str) -> None:
        """Rules 9 and 9a: the middle goes face down (ids ascending), three stock cards replace it.
        Cards freshly laid out are not tested."""
        self.discard.extend(self.middle)
        self.middle = sorted(self.draw() for _ in range(3))
        self.log.append(f"  {why}: the middle goes to the discard pile; new middle {names(self.middle)}.")

    def one_suit_middle(self) -> bool:
        """Rule 9: three middle cards of one suit (two of a suit and the ace of clubs count)."""
        return one_suit(self.middle)

    # ------------------------------------------------------------ keys and the end of a round
    def lose_key(self, p: int, why: str) -> None:
        self.keys[p] -= 1
        self.log.append(f"  Seat {p} loses a key ({why}): {self.keys[p]} left.")

    def take_keys(self, p: int, count: int) -> None:
        """Rule 6: keys come from the bank; what the bank lacks is not paid."""
        paid = min(count, self.bank)
        self.bank -= paid
        self.keys[p] += paid
        self.log.append(f"  Seat {p} takes {paid} key(s) from the bank (owed {count}): "
                        f"{self.keys[p]} now, {self.bank} left in the bank.")

    def declare(self, p: int, combo: int) -> None:
        """Rules 14-16: what a declared combination pays; the round ends."""
        self.declared[p] += 1
        self.ends[COMBO_NAMES[combo]] += 1
        self.log.append(f"  Seat {p} declares {COMBO_NAMES[combo]} with {names(self.hands[p])}.")
        others = self.others_in_turn_order(p)
        if combo == C31:                                   # rule 14
            values = {q: showdown_value(self.hand_score(q)[0]) for q in others}
            low = min(values.values())
            for q in others:
                if values[q] == low:
                    self.lose_key(q, "lowest against 31")
        else:                                              # rules 15, 16
            self.take_keys(p, 3 if combo == C33 else 1)
            for q in others:
                if self.hand_score(q)[1] == NONE:
                    self.lose_key(q, f"no combination against {COMBO_NAMES[combo]}")
        self.end_round()

    def showdown(self, why: str) -> None:
        """Rule 17: everyone shows; the lowest (a 32 below all, ties all) loses one key."""
        self.log.append(f"  Showdown ({why}): " + "; ".join(
            f"seat {p} {names(self.hands[p])} = {self.hand_score(p)[0]}" for p in range(self.n)))
        values = [showdown_value(self.hand_score(p)[0]) for p in range(self.n)]
        low = min(values)
        for p in range(self.n):
            if values[p] == low:
                self.lose_key(p, "lowest at the showdown")
        self.end_round()

    def end_round(self) -> None:
        """Rule 18: the game ends when a player has no keys; rule 19: the round cap; else rule 7."""
        self.phase = PHASE_TURN
        if any(k <= 0 for k in self.keys):
            self.over = True
            self.log.append(f"The game is over: keys {self.keys}.")
            return
        if self.rounds >= self.rules["round_cap"]:
            self.over = self.unfinished = True
            self.log.append(f"Stopped after {self.rounds} rounds: unfinished.")
            return
        self.dealer = self.next_seat(self.dealer)          # rule 7: the deal moves clockwise
        self.deal()

    def check_dealt_combinations(self) -> None:
        """Rule 13: after the deal, in turn order from the dealer's left; 33, then 6-7-8, then 31;
        between equal combinations the first in turn order."""
        self.phase = PHASE_TURN
        best, who = NONE, -1
        for p in self.others_in_turn_order(self.dealer) + [self.dealer]:
            combo = self.hand_score(p)[1]
            if combo > best:
                best, who = combo, p
        if who >= 0:
            self.log.append(f"  Seat {who} was dealt {COMBO_NAMES[best]}.")
            self.declare(who, best)

    # ------------------------------------------------------------ decisions
    def next_decision(self) -> tuple[int, int] | None:
        """Play the forced steps; then (decision, seat), or None when the game is over."""
        while True:
            if self.over:
                return None
            if self.phase == PHASE_DEAL:
                self.check_dealt_combinations()
            elif self.phase == PHASE_VOTE:
                return VOTE, self.voter
            elif self.round_turns >= self.rules["turn_cap"]:           # rule 12
                self.ends["cap"] += 1
                self.showdown(f"{self.round_turns} turns, the cap")
            else:
                return TURN, self.current

    def legal_moves(self) -> list[int]:
        """Rule 8: any of the nine swaps, pass, "Кручу" with a one-suit hand, propose (in this
        order, swaps by card given then card taken); when a proposal is under way, refuse or
        accept (rule 11)."""
        if self.over or self.phase == PHASE_DEAL:
            return []
        if self.phase == PHASE_VOTE:
            return [REFUSE, ACCEPT]
        hand = self.hands[self.current]
        moves = [swap_move(give, take) for give in hand for take in self.middle]
        moves.append(PASS)
        if one_suit(hand):
            moves.append(KNOCK)
        moves.append(PROPOSE)
        return moves

    def legal_sets(self) -> tuple[int, int, int]:
        """``legal_moves()`` in the fast engine's form (view.py): the cards that may be given
        and taken (bit masks: every swap of one for the other is legal), and the other moves
        as bits above PASS in a turn, above 0 in a vote."""
        give = take = other = 0
        for move in self.legal_moves():
            if self.phase == PHASE_VOTE or move >= PASS:
                other |= 1 << (move - (REFUSE if self.phase == PHASE_VOTE else PASS))
            else:
                give |= 1 << (move // SWAP_BASE)
                take |= 1 << (move % SWAP_BASE)
        return give, take, other

    def view(self, kind: int = TURN) -> View:
        """What the deciding seat may see (view.py): a state array of the fast engine's layout
        with every public field and the seat's own rows filled, every other field zero."""
        p = self.voter if self.phase == PHASE_VOTE else self.current
        n, pad = self.n, MAX_PLAYERS - self.n
        s = np.zeros(V.SIZE, np.int64)
        e = self.ends
        scalars = {V.N: n, V.PHASE: self.phase, V.CUR: self.current, V.DEALER: self.dealer,
                   V.ROUND_TURNS: self.round_turns, V.TURNS: self.turns, V.ROUNDS: self.rounds,
                   V.QUIET: self.quiet, V.PROPOSER: self.proposer, V.VOTER: self.voter,
                   V.OVER: int(self.over), V.UNFINISHED: int(self.unfinished), V.BANK: self.bank,
                   V.STOCK_N: len(self.stock), V.DISCARD_N: len(self.discard), V.E31: e["31"],
                   V.E33: e["33"], V.E678: e["6-7-8"], V.EPROP: e["proposal"], V.ECAP: e["cap"],
                   V.REFRESHES: self.refreshes, V.REBUILDS: self.rebuilds,
                   V.DISCARD_MASK: sum(1 << c for c in self.discard)}
        for at, value in scalars.items():
            s[at] = value
        s[V.MID:V.MID + HAND] = self.middle
        V.LAYOUT.write_params(s, self.params)        # the rule settings: caps, keys, bank, ...
        for at, values, filler in ((V.KEYS, self.keys, 0), (V.VOTES, self.votes, -1),
                                   (V.DECLARED, self.declared, 0), (V.PROPOSALS, self.proposals, 0),
                                   (V.REFUSALS, self.refusals, 0), (V.HELD, self.held, 0),
                                   (V.GIVEN, self.given, 0), (V.LAST_MOVE, self.last_move, -1)):
            s[at:at + MAX_PLAYERS] = list(values) + [filler] * pad
        s[V.DISCARD:V.DISCARD + len(self.discard)] = self.discard
        if self.rebuilt:                           # a stock rebuilt this round: public cards
            s[V.STOCK_KNOWN] = sum(1 << c for c in self.stock)
            if self.rules["rebuild"] == "as_it_lies":
                s[V.STOCK_KNOWN_ORDER:V.STOCK_KNOWN_ORDER + len(self.rebuilt)] = self.rebuilt
        # the seat's own rows
        s[V.DEALT + p] = self.dealt[p]
        s[V.HANDS + HAND * p:V.HANDS + HAND * (p + 1)] = self.hands[p]
        give, take, other = self.legal_sets()
        s[V.LEGAL_GIVE + p], s[V.LEGAL_TAKE + p], s[V.LEGAL_OTHER + p] = give, take, other
        load_memory(s, V.MEMORY, p, self.memory[p])
        return View(s, p)

    def apply(self, kind: int, move: int) -> None:
        if self.over:
            raise IllegalMove("the game is over")
        expected = VOTE if self.phase == PHASE_VOTE else TURN
        if kind != expected:
            raise IllegalMove(f"the decision now is {DECISIONS[expected].name!r}, "
                              f"not {DECISIONS[kind].name if 0 <= kind < len(DECISIONS) else kind!r}")
        if move not in self.legal_moves():
            raise IllegalMove(f"move {move} is not legal now: {self.why_illegal(kind, move)}")
        if kind == VOTE:
            self.vote(self.voter, move == ACCEPT)
            return
        p = self.current
        self.round_turns += 1                                          # rule 12: every action
        self.turns += 1
        self.last_move[p] = move
        if move == PASS:
            self.pass_turn(p)
        elif move == KNOCK:
            self.knock(p)
        elif move == PROPOSE:
            self.propose(p)
        else:
            self.swap(p, move // SWAP_BASE, move % SWAP_BASE)

    def why_illegal(self, kind: int, move: int) -> str:
        if kind == VOTE:
            return "a vote is 0 (refuse) or 1 (accept)"
        hand = self.hands[self.current]
        if move == KNOCK:
            return f"«Кручу» needs a hand of one suit, not {names(hand)}"
        give, take = divmod(move, SWAP_BASE)
        if 0 <= move < PASS and give not in hand:
            return f"a swap gives a card of the hand ({names(hand)})"
        if 0 <= move < PASS and take not in self.middle:
            return f"a swap takes a middle card ({names(self.middle)})"
        return "a turn is a swap (give * 64 + take), PASS, KNOCK or PROPOSE"

    # ------------------------------------------------------------ the four actions (rule 8)
    def swap(self, p: int, give: int, take: int) -> None:
        self.log.append(f"Turn {self.turns}: seat {p} gives {CARD_NAMES[give]} for {CARD_NAMES[take]}.")
        self.hands[p] = sorted([c for c in self.hands[p] if c != give] + [take])
        self.middle = sorted([c for c in self.middle if c != take] + [give])
        self.held[p] = (self.held[p] & ~(1 << give)) | (1 << take)
        self.given[p] |= 1 << give
        self.quiet = 0
        self.after_exchange(p, knocked=False)

    def knock(self, p: int) -> None:
        """"Кручу": all three cards of one suit are swapped for the three middle cards."""
        self.log.append(f"Turn {self.turns}: seat {p} says «Кручу»: {names(self.hands[p])} "
                        f"for {names(self.middle)}.")
        self.hands[p], self.middle = self.middle, self.hands[p]
        self.held[p] = sum(1 << c for c in self.hands[p])
        self.given[p] |= sum(1 << c for c in self.middle)
        self.quiet = 0
        self.after_exchange(p, knocked=True)

    def after_exchange(self, p: int, knocked: bool) -> None:
        """Rule 13: a combination is declared at once. Rule 9: a one-suit middle (always so
        after "Кручу") is renewed and the same player takes another turn."""
        combo = self.hand_score(p)[1]
        if combo != NONE:
            self.declare(p, combo)
            return
        if knocked or self.one_suit_middle():
            self.renew_middle(f"Seat {p} leaves a one-suit middle")
            self.log.append(f"  Seat {p} takes another turn.")
            return
        self.current = self.next_seat(p)

    def pass_turn(self, p: int) -> None:
        self.log.append(f"Turn {self.turns}: seat {p} passes («Не меняю»).")
        self.current = self.next_seat(p)
        self.quiet_turn()

    def quiet_turn(self) -> None:
        """Rule 9a: a full circle of turns with no card changing hands refreshes the middle."""
        self.quiet += 1
        if self.quiet >= self.n:
            self.quiet = 0
            self.refreshes += 1
            self.renew_middle("A full circle without a swap")

    def propose(self, p: int) -> None:
        """Rule 11: «Выкладываем?» uses the turn; the others are asked in turn order."""
        self.log.append(f"Turn {self.turns}: seat {p} proposes a showdown («Выкладываем?»).")
        self.proposals[p] += 1
        self.proposer = p
        self.voter = self.next_seat(p)
        self.phase = PHASE_VOTE

    def vote(self, q: int, accept: bool) -> None:
        """Rule 11: every other player answers, even after a refusal; all must accept."""
        self.votes[q] = int(accept)
        self.refusals[q] += not accept
        self.log.append(f"  Seat {q} {'accepts' if accept else 'refuses'}.")
        nxt = self.next_seat(q)
        if nxt != self.proposer:
            self.voter = nxt
            return
        p = self.proposer
        accepted = all(self.votes[r] == ACCEPT for r in self.others_in_turn_order(p))
        self.votes = [-1] * self.n
        self.proposer = self.voter = -1
        self.phase = PHASE_TURN
        if accepted:
            self.ends["proposal"] += 1
            self.showdown(f"seat {p}'s proposal accepted")
            return
        self.current = self.next_seat(p)
        self.quiet_turn()

    # ------------------------------------------------------------ outcome
    def result(self) -> tuple[list[list[int]], list[int]]:
        """Per seat (win, rank, keys, dealt mask, declared, proposals) and the game columns."""
        seats = []
        for p, rank in enumerate(ranks_py(self.keys)):                  # rule 18
            win = int(rank == 1 and not self.unfinished)
            seats.append([win, rank, self.keys[p], self.dealt[p], self.declared[p],
                          self.proposals[p]])
        e = self.ends
        return seats, [self.rounds, self.turns, e["31"], e["33"], e["6-7-8"], e["proposal"],
                       e["cap"], self.refreshes, self.rebuilds, int(self.unfinished)]

    def snapshot(self) -> list[int]:
        """The state in the layout of fast.snapshot (the strategies' memory left out)."""
        e = self.ends
        head = [self.phase, self.current, self.dealer, self.round_turns, self.turns, self.rounds,
                self.quiet, self.proposer, self.voter, int(self.over), int(self.unfinished),
                self.bank, len(self.stock), len(self.discard), e["31"], e["33"], e["6-7-8"],
                e["proposal"], e["cap"], self.refreshes, self.rebuilds, self.stock_fixed]
        assert len(head) == len(V.SNAPSHOT_HEAD)
        pad = lambda cards: cards + [-1] * (N_CARDS - len(cards))  # noqa: E731
        return (head + self.keys + self.declared + self.proposals + self.votes + self.refusals
                + self.held + self.given + self.last_move
                + [c for hand in self.hands for c in hand] + self.middle
                + pad(self.stock) + pad(self.discard))
