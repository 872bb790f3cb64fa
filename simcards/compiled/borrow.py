"""Arrays without reference counting, for the inside of a kernel.

numba increfs and decrefs every array argument at every call, with an atomic
operation; in a game engine of many small functions those atomics were most of
the run time (measured on Five Alive: 80%). A *borrowed* view of an array has
no owner (a null meminfo), so its reference counting is a no-op. The caller
must keep the owning array alive (``keep_alive`` after the last use of a view).
"""
from __future__ import annotations

from numba import carray, njit, types
from numba.core import cgutils
from numba.extending import intrinsic, overload

from simcards.compiled.config import NJIT_OPTIONS


@intrinsic
def _as_pointer(typingctx, address):
    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], cgutils.voidptr_t)
    return types.voidptr(address), codegen


def borrow(a):
    """A view of the C-contiguous array ``a`` (any number of dimensions) that costs nothing to
    pass around; anything that is not such an array (a StructRef state, a typed dict, an array
    of another layout) comes back as it is."""
    raise NotImplementedError("borrow is only for compiled code")


@overload(borrow)
def _borrow(a):
    if isinstance(a, types.Array) and a.layout == "C":
        dtype = a.dtype

        def impl(a):
            return carray(_as_pointer(a.ctypes.data), a.shape, dtype)
        return impl
    return lambda a: a


@njit(**NJIT_OPTIONS)
def keep_alive(a):
    """A last use of the owner of borrowed views, so that numba frees it only afterwards."""
    return a
