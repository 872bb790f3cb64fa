"""What ``simcards balance`` returns, and what its page reads: a module of its own, so that the
page (simcards.balancing.page) and the job that writes it (simcards.balancing.run) both depend
on it and not on each other."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from simcards.balancing.config import BalanceConfig
from simcards.balancing.confirm import Confirmed
from simcards.balancing.search import Trial


@dataclass
class BalanceResult:
    config: BalanceConfig
    trials: list[Trial]
    default: Confirmed
    candidates: list[Confirmed]
    recommended: Confirmed | None          # the first candidate that meets every target
    closest: Confirmed                     # the recommended one, or the nearest miss
    seconds: dict = field(default_factory=dict)    # search, confirm, total
    folder: Path | None = None

    @property
    def found(self) -> bool:
        return self.recommended is not None
