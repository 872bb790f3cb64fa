"""Every error a user can cause, as one hierarchy under ``SimcardsError``.

The CLI prints such an error's message alone, one line on stderr, and exits with
2; the API raises it. Each message names the bad value and what is accepted.
"""
from __future__ import annotations


class SimcardsError(Exception):
    """Bad input from a user, or a user's code (a strategy) breaking a rule."""


class IllegalMove(SimcardsError):
    """A move the rules do not allow in this position; the message says why.
    Reference engines raise it from ``apply``."""


class IllegalMoveError(IllegalMove):
    """A strategy returned an illegal move during a run: which strategy, where, and why."""

    def __init__(self, game: str, strategy: str, game_index: int, seed: int, seat: int, move: str,
                 why: str = ""):
        self.game, self.strategy, self.game_index, self.seed, self.seat, self.move, self.why = (
            game, strategy, game_index, seed, seat, move, why)
        super().__init__(
            f"strategy {strategy!r} returned an illegal move {move} in {game} "
            f"(seat {seat}, game index {game_index}, seed {seed})" + (f": {why}" if why else ""))


class StrategyError(SimcardsError):
    """A strategy file that cannot be used: the message names the file, the line and the fault."""


class ContractError(SimcardsError):
    """A game package that does not meet the engine contract (simcards.registry)."""


class StaleCodeError(SimcardsError):
    """A source file changed after this Python process compiled or imported it."""


def choices(values) -> str:
    return ", ".join(str(v) for v in values)
