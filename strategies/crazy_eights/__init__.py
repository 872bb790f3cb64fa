"""Crazy Eights strategies: each file defines ``play(view, rng)`` and, unless the game's
default will do (simcards.games.crazy_eights.defaults: the suit held most),
``name_suit(view, rng)``.

``play`` returns a card id (rules.py: ``suit * 13 + rank``), DRAW (52) or PASS (53);
``name_suit`` a suit 0..3. The view is simcards.games.crazy_eights.view.View, read only
through that module's accessors (``from ._kit import V``: ``V.hand(view)``,
``V.playable_cards(view)``, ``V.legal_move(view, i)``...).
"""
