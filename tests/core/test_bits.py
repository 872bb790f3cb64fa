"""The compiled bit helpers against their plain-Python twin."""
import random

from simcards import engine


def test_nth_bit_small_both_ways():
    masks = list(range(1 << 10)) + random.Random(4).sample(range(1 << 10, 1 << 16), 1500)
    for mask in masks:
        for i, bit in enumerate(engine.bits_py(mask)):
            assert engine._nth_bit_search(mask, i) == bit, (mask, i)
            assert engine.nth_bit_small(mask, i) == bit, (mask, i)    # pdep where fast
            assert engine.nth_bit(mask, i) == bit, (mask, i)
