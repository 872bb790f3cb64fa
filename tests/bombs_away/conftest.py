import pytest

from simcards.games.bombs_away import SPEC
from simcards.games.bombs_away.reference import Game
from simcards.games.bombs_away.rules import (FIRST_NAME, JOKER, KIND_COUNTS, LAST_NAME, N_KINDS,
                                             NAME, SIX)


def counts(cards):
    c = [0] * N_KINDS
    for k in cards:
        c[k] += 1
    return c


def conserved(game: Game) -> bool:
    """Every card is in exactly one place (a hand, the stock, the pile), and every pile
    card counts as something it may count as."""
    assert min(map(min, game.hands)) >= 0
    seen = list(map(sum, zip(*game.hands)))
    for k in game.stock:
        seen[k] += 1
    for k, eff in game.pile:
        seen[k] += 1
        if k != SIX and (k != eff or k == JOKER):
            # a joker counts as a rank 9..A once named (it is still unnamed only while
            # its owner is being asked for the name)
            assert k == JOKER and (FIRST_NAME <= eff <= LAST_NAME or (
                eff == JOKER and game.question is not None and game.question.kind == NAME)), (k, eff)
    for p in range(game.n):
        if not game.alive(p):
            assert sum(game.hands[p]) == 0, "a player who is out holds cards"
    return seen == list(KIND_COUNTS)


def build(n=3, hands=(), pile=(), stock=None, current=0, direction=1, points=None, must=-1,
          **rules):
    """A hand-made position. ``pile`` holds kinds or (kind, counts as) pairs, bottom first;
    the rest of the deck is the stock (kinds ascending, so its top card is the highest
    kind) unless a stock is given. The stock lies in the order given, as if every card had been
    put under it (``stock_fixed``): cards are drawn from its top in that order, and a shuffle
    (rules 5, 9, 12) makes it unordered."""
    game = Game(n, SPEC.resolve_rules(rules), seed=0, game_index=0)
    game.log.clear()
    game.hands = [counts(h) for h in hands] + [[0] * N_KINDS for _ in range(n - len(hands))]
    game.pile = [list(c) if isinstance(c, tuple) else [c, c] for c in pile]
    if stock is None:
        left = list(KIND_COUNTS)
        for k in [k for h in hands for k in h] + [c[0] for c in game.pile]:
            left[k] -= 1
        stock = [k for k in range(N_KINDS) for _ in range(left[k])]
    game.stock = list(stock)
    game.stock_fixed = len(game.stock)
    game.current, game.direction, game.must = current, direction, must
    if points is not None:
        game.points = list(points)
    return game


@pytest.fixture
def position():
    return build


@pytest.fixture(name="conserved")
def conserved_fixture():
    return conserved
