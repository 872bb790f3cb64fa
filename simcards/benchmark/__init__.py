"""``simcards bench``: speed of the kernels against a release and the tight C yardsticks.

Kept light on purpose: a package's ``__init__`` enters every kernel's key and the command
line's start (docs/explanation/layers.md)."""
