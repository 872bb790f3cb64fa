"""Moved to ``simcards.run.batch`` (issue 51: packages by layer, docs/explanation/layers.md). The old name
stays for strategy files, notebooks and older code; the names that left it for
simcards.run.play, simcards.run.replay are here too."""
from simcards.run import batch as _moved
from simcards.run.play import run_range  # noqa: F401
from simcards.run.replay import strategy_raised  # noqa: F401

# every name, private ones too (tests and strategies use a few)
globals().update({k: v for k, v in vars(_moved).items() if not k.startswith("__")})
