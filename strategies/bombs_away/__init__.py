"""Bombs Away strategies: each file defines ``play`` and ``extra``, and ``name_rank``, ``target``
and ``answer`` unless the game's defaults (simcards/games/bombs_away/defaults.py) will do;
each is ``(view, rng) -> int`` (a card kind, a rank kind or a seat)."""
