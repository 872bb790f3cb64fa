"""simcards/borrow.py builds arrays without an owner from numba internals (``carray`` over a
raw pointer, ``intrinsic``, ``cgutils.voidptr_t``). pyproject.toml bounds numba's version; these
tests fail loudly if a numba release changes what borrow relies on."""
from __future__ import annotations

import re
from pathlib import Path

import numba
import numpy as np
from numba import njit

import simcards
from simcards.borrow import borrow, keep_alive


def test_the_internals_borrow_uses_exist():
    from numba import carray, types  # noqa: F401
    from numba.core import cgutils
    from numba.extending import intrinsic, overload  # noqa: F401
    assert str(cgutils.voidptr_t) == "i8*" or "ptr" in str(cgutils.voidptr_t)


@njit
def _write_through(a):
    b = borrow(a)
    for i in range(b.shape[0]):
        b[i] = 3 * i
    keep_alive(a)
    return b.shape[0]


@njit
def _refcount_of_borrowed(a):
    # numba's NRT reports no meminfo for an array it does not own
    b = borrow(a)
    return b.ctypes.data == a.ctypes.data


def test_a_borrowed_array_aliases_its_owner():
    a = np.zeros(5, np.int64)
    assert _write_through(a) == 5
    assert a.tolist() == [0, 3, 6, 9, 12]
    assert _refcount_of_borrowed(a)


def test_anything_else_passes_through():
    @njit
    def f(x):
        return borrow(x) + 1
    assert f(41) == 42


def test_the_installed_numba_is_inside_the_declared_bound():
    """Why pyproject.toml caps numba (``<0.70``): simcards.borrow, link_only, cached_load and
    inline_once patch numba internals (the table in tests/core/test_numba_internals.py), which any
    release may change. The cap is raised only after a release passes that file and this suite
    (.ci/run's first job installs the newest release the cap admits)."""
    text = (Path(simcards.__file__).parent.parent / "pyproject.toml").read_text()
    low, high = re.search(r'"numba>=([\d.]+),<([\d.]+)"', text).groups()
    version = tuple(int(x) for x in numba.__version__.split(".")[:2])
    assert tuple(int(x) for x in low.split(".")[:2]) <= version < tuple(int(x) for x in high.split(".")[:2])
