"""Five Alive strategies: each file defines ``decide(view, rng) -> card kind``."""
