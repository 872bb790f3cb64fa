"""Vzhukh strategies: each file defines ``attack(view, rng) -> move`` and ``defend(view, rng) -> move``.

A move is ``simcards.games.vzhukh.rules.encode_move(action, kind, count)``; a
view is read only through the accessors of ``simcards.games.vzhukh.view``.
"""
