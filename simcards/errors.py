"""User-facing errors: one line that names the bad value and what is accepted."""
from __future__ import annotations


class SimcardsError(ValueError):
    """Bad input from a user: the CLI prints the message alone and exits with 2."""


class IllegalMoveError(RuntimeError):
    """A strategy returned a move the rules do not allow."""

    def __init__(self, game: str, strategy: str, game_index: int, seed: int, seat: int, move: str):
        self.game, self.strategy, self.game_index, self.seed, self.seat, self.move = (
            game, strategy, game_index, seed, seat, move)
        super().__init__(
            f"strategy {strategy!r} returned an illegal move {move} in {game} "
            f"(seat {seat}, game index {game_index}, seed {seed})")


def choices(values) -> str:
    return ", ".join(str(v) for v in values)
