"""Generated kernels: their source written per game and strategy set (kernels), the key that
follows every source they reach (sources), strategies' tables (tables) and the waits announced
while numba compiles (kernel_waits).

Kept light on purpose: a package's ``__init__`` enters every kernel's key and the command
line's start (docs/explanation/layers.md)."""
