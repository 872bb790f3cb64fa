"""Vzhukh strategies: each file defines ``defend(view, rng) -> move`` and, unless the game's
default will do (simcards.games.vzhukh.defaults: every card of the lowest rank),
``attack(view, rng) -> move``.

A move is ``simcards.games.vzhukh.rules.encode_move(action, kind, count)``; a
view is read only through the accessors of ``simcards.games.vzhukh.view``, the
legal moves through ``n_legal`` / ``legal_move`` / ``is_legal_move``.

These files are compiled with ``FORCEINLINE_NJIT_OPTIONS``: LLVM inlines a decision into
the kernel, so a turn passes no view (an array and a seat) on the stack to a call. A
strategy of your own may use plain ``NJIT_OPTIONS``; it is called instead.
"""
