"""Bombs Away (Aviad Shani): seed 003, rules in docs/rules/bombs-away.md."""
from simcards.games.bombs_away import rules
from simcards.registry import Decision, GameSpec, register

SPEC = register(GameSpec(
    name=rules.GAME,
    title="Bombs Away",
    package=__name__,
    min_players=rules.MIN_PLAYERS,
    max_players=rules.MAX_PLAYERS,
    options=rules.OPTIONS,
    decisions=(
        Decision("play", "play", "the turn's card (kind 0..13: 2..10, J, Q, K, A, joker)"),
        Decision("extra", "extra", "the card played after an ace (kind 0..13)"),
        Decision("name", "name_rank", "the rank an 8 names or a joker is (kind 7..12: 9..A)"),
        Decision("target", "target", "the opponent (seat) a 5 takes from, a 9 swaps with, or "
                                     "who loses a duel's points (duel_victim=chosen)"),
        Decision("answer", "answer", "the card that answers a duel (kind 0..13)"),
    ),
    seat_columns=("points", "dealt_mask"),
    game_columns=("turns", "duels", "points_lost"),
    encode_params=rules.encode_params,
    bench_strategy="random",
    summary="every card has an effect; 10s and faces start duels that cost points; "
            "the last player with points wins",
    check_rules=rules.check_rules,
    describe_move=rules.describe_move,
    card_names=rules.CARD_NAMES,
))
