"""Crazy Eights' own invariants and outcome columns, on fast games replayed through the
reference engine.

The replay itself (states, legal lists, views, card conservation, every rule option one at a
time), the plain-Python twin, determinism over threads and chunks and the frame's declared
columns are the contract suite's (tests/contract/). Here: scores never fall, the suit to
follow is the top card's unless an eight named it, a forced move is never asked, the rarer
paths (blocked hands, reshuffles, points games) are reached, over combinations of options the
contract does not pair."""
from simcards.games.crazy_eights.rules import EIGHT, N_SUITS, NAME_SUIT, PLAY, rank, suit
from simcards.replay import record, replay

SEED = 20_240_601
VARIANTS = (None, {"empty_stock": "pass"}, {"draw": "one", "target": 100},
            {"draw": "one", "empty_stock": "pass", "hand_size": 7},
            {"empty_stock": "pass", "target": 60, "hand_size": 3})


def lineup(strategies, n, g):
    """A mixed line-up of n seats, rotating through every strategy with the game index."""
    k = len(strategies)
    return [strategies[(g * 7 + 3 * s + s * s) % k] for s in range(n)]


def _invariants():
    last = {}

    def check(game) -> None:
        assert game.suit == suit(game.top) or rank(game.top) == EIGHT, "a suit from nowhere"
        assert 0 <= game.suit < N_SUITS
        if "score" in last:
            assert all(a >= b for a, b in zip(game.score, last["score"])), "a score fell"
        last["score"] = list(game.score)
    return check


def test_scores_never_fall_and_every_path_is_reached(shared):
    from simcards import list_strategies
    strategies = sorted(list_strategies("crazy-eights"))
    totals = {"blocked": 0, "reshuffles": 0, "hands": 0, "suits": 0, "choices": 0}
    for n in range(2, 8):
        for g in range(40):
            rules = VARIANTS[g % len(VARIANTS)]
            seats = [x + ":budget=10" if x == "search" else x for x in lineup(strategies, n, g)]
            rec = record("crazy-eights", seats, SEED, g, rules,
                         batch=shared.prepare("crazy-eights", seats, SEED, rules))
            ref = replay(rec, check=_invariants())
            totals["blocked"] += ref.blocked
            totals["reshuffles"] += ref.reshuffles
            totals["hands"] += ref.hands_dealt
            totals["suits"] += int((rec.moves[:, 0] == NAME_SUIT).sum())
            totals["choices"] += int((rec.moves[:, 0] == PLAY).sum())
    assert all(v > 0 for v in totals.values()), totals
    assert totals["hands"] > 6 * 40                 # the points games dealt again


def test_a_turn_cap_leaves_games_unfinished_without_a_winner(shared):
    frame = shared.simulate("crazy-eights", ["random", "eights_last", "suit_switcher"], 30,
                            seed=SEED, rules={"turn_cap": 5})
    assert frame["unfinished"].all() and (frame["win_share"] == 0).all()
    assert (frame["turns"] == 5).all()


def test_outcome_columns_add_up(shared):
    frame = shared.simulate("crazy-eights", ["eights_last"] * 4, 500, seed=SEED)
    by_game = frame.groupby("game")
    assert (by_game["drawn"].sum() == by_game["draws"].first()).all()
    assert (by_game["cards_left"].min() == 0).all() or (frame["blocked"] > 0).any()
    winners = frame[frame["win_share"] > 0]
    assert (winners["rank"] == 1).all() and (winners["score"] > 0).all()
    assert (frame["hands"] == 1).all()
