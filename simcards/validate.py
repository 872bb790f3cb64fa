"""Moved to ``simcards.contract.validate`` (issue 51: packages by layer, docs/explanation/layers.md). The old name
stays for strategy files, notebooks and older code; the names that left it for
simcards.run.memory are here too."""
from simcards.contract import validate as _moved
from simcards.run.memory import *  # noqa: F401,F403

# every name, private ones too (tests and strategies use a few)
globals().update({k: v for k, v in vars(_moved).items() if not k.startswith("__")})
