"""Vzhukh strategies: each file defines ``defend(view, rng) -> move`` and, unless the game's
default will do (simcards.games.vzhukh.defaults: every card of the lowest rank),
``attack(view, rng) -> move``.

A move is ``simcards.games.vzhukh.rules.encode_move(action, kind, count)``; a
view is read only through the accessors of ``simcards.games.vzhukh.view``, the
legal moves through ``n_legal`` / ``legal_move`` / ``is_legal_move``.
"""
