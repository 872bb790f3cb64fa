"""Bombs Away strategies: each file defines ``play``, ``extra``, ``name_rank``, ``target`` and
``answer``, each ``(view, rng) -> int`` (a card kind, a rank kind or a seat)."""
