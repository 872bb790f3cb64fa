"""The run path: from ``simulate()`` to frames, run folders and backends (batch, runner,
rotation, simulation), with the twin engine's replay, seat designs, frames and totals.

Kept light on purpose: a package's ``__init__`` enters every kernel's key and the command
line's start (docs/explanation/layers.md)."""
