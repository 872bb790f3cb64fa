"""simcards: a Monte-Carlo strategy simulator for card games."""
__version__ = "0.1.0"
