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
                 why: str = "", path: str = ""):
        self.game, self.strategy, self.game_index, self.seed, self.seat, self.move, self.why = (
            game, strategy, game_index, seed, seat, move, why)
        self.path = path        # the strategy's file, when known
        super().__init__(
            (f"strategy file {path}: " if path else "")
            + f"strategy {strategy!r} returned an illegal move {move} in {game} "
            f"(seat {seat}, game index {game_index}, seed {seed})" + (f": {why}" if why else ""))

    def __reduce__(self):       # a Dask worker's error crosses to the client whole
        return (type(self), (self.game, self.strategy, self.game_index, self.seed, self.seat,
                             self.move, self.why, self.path))


class StrategyError(SimcardsError):
    """A strategy file that cannot be used: the message names the file, the line and the fault."""


class TimeLimitError(SimcardsError):
    """A run or a decision that did not finish within the time limit the user set: the message
    names the strategies that may never return."""


class ContractError(SimcardsError):
    """A game package that does not meet the engine contract (simcards.registry)."""


class StaleCodeError(SimcardsError):
    """A source file changed after this Python process compiled or imported it."""


def choices(values) -> str:
    return ", ".join(str(v) for v in values)


class BadArgument(SimcardsError, TypeError, ValueError):
    """A value of the wrong type or out of range given to the API or the CLI: the message
    names the argument, the value and what is accepted. (Also a TypeError and a ValueError, so
    that code catching those for a bad argument catches it too.)"""
