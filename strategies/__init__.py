"""Heuristic strategies, one file each: strategies/<game>/<name>.py (see simcards.strategy_registry)."""
