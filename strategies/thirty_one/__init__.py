"""Thirty-One with keys strategies: each file defines ``turn(view, rng)`` and ``vote(view, rng)``.

``turn`` returns a swap ``give * 64 + take`` (card ids), PASS, KNOCK ("Кручу") or PROPOSE
(simcards.games.thirty_one.rules); ``vote`` returns 1 to accept a showdown proposal, 0 to refuse.
The view is simcards.games.thirty_one.view.View, read only through that module's accessors
(``from ._kit import V``: ``V.hand(view)``, ``V.middle(view)``, ``V.keys(view, p)``,
``V.legal_move(view, i)``...).

``greedy`` (the bench line-up) is compiled with ``FORCEINLINE_NJIT_OPTIONS``: LLVM inlines its
decisions into the kernel, so a turn passes no view on the stack to a call (callgrind: 568 ->
503 instructions a turn). ``threshold`` (threshold_tuned is the search's rollout policy) and
``suit_chaser`` are inlined too, without reference counting (``INLINED_STRATEGY_NJIT_OPTIONS``);
the others use ``STRATEGY_NJIT_OPTIONS`` and are called.
"""
