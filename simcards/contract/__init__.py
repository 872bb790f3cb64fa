"""The game contract and the registries: what a game and a strategy must provide
(registry, options, strategy_registry) and the checks of a caller's arguments (validate).

Kept light on purpose: a package's ``__init__`` enters every kernel's key and the command
line's start (docs/explanation/layers.md)."""
