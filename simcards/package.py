"""The package's version and folder, for the modules that name them (a run folder's manifest,
the roots a kernel's key follows): a leaf, so that no module of simcards imports ``simcards``
itself, whose ``__init__`` brings the registry (an import circle, issue 51)."""
from __future__ import annotations

from pathlib import Path

__version__ = "0.1.0"

#: The folder of the package ``simcards``: its own sources, which a kernel's key and a
#: strategy's trusted code are measured against.
FOLDER = Path(__file__).resolve().parent
