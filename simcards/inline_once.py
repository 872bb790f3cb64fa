"""Moved to ``simcards.compiled.inline_once`` (issue 51: packages by layer, docs/explanation/layers.md). The old name
stays for strategy files, notebooks and older code: it is that very module
(``sys.modules``), so that a patch of one name is seen by both."""
import sys

from simcards.compiled import inline_once as _moved

sys.modules[__name__] = _moved
