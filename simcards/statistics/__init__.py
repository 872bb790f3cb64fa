"""Statistics shared by the run path, the reports and tune: intervals, summaries and paired
differences.

Kept light on purpose: a package's ``__init__`` enters every kernel's key and the command
line's start (docs/explanation/layers.md)."""
