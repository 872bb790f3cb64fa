"""The numba toolchain and the compiled kit that game engines, strategies and kernels share:
njit options and the loaders that patch numba (config, inline_once, link_only, cached_load),
the kernel folder (cache_folder), borrowed views, random streams, engine helpers, state
layouts, strategy parameters and the search kit. Imports nothing of simcards above it.

Kept light on purpose: a package's ``__init__`` enters every kernel's key and the command
line's start (docs/explanation/layers.md)."""
