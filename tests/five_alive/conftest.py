import pytest

from simcards.games.five_alive import SPEC
from simcards.games.five_alive.reference import Game
from simcards.games.five_alive.rules import N_KINDS, deck_counts


def counts(cards):
    c = [0] * N_KINDS
    for k in cards:
        c[k] += 1
    return c


def build(n=3, hands=(), total=0, current=0, direction=1, lives=None, pile=(), stock=None, **rules):
    """A hand-made position: given hands and pile; the rest of the deck in the stock
    (kinds ascending, so the top card is the highest kind) unless a stock is given."""
    game = Game(n, SPEC.resolve_rules(rules), seed=0, game_index=0)
    game.log.clear()
    game.hands = [counts(h) for h in hands] + [[0] * N_KINDS for _ in range(n - len(hands))]
    game.pile = list(pile)
    if stock is None:
        left = list(deck_counts(game.rules))
        for k in [k for h in hands for k in h] + list(pile):
            left[k] -= 1
        stock = [k for k in range(N_KINDS) for _ in range(left[k])]
    game.stock = list(stock)
    game.total, game.current, game.direction = total, current, direction
    if lives is not None:
        game.lives = list(lives)
    return game


@pytest.fixture
def position():
    return build
