"""Where a kernel's cold compile goes: CPU seconds per compiled function, and every function
numba compiled more than once (for more than one signature).

The kernel is compiled afresh into an empty kernel folder (a kernel loaded from numba's cache
compiles nothing). A function compiled for several signatures is usually called with a literal
somewhere (simcards.config, "Literal arguments"): each copy costs a whole compile of it and of
all it calls. Usage::

    python experiments/compile_profile.py thirty-one greedy greedy greedy greedy
    python experiments/compile_profile.py five-alive --pool        # every strategy of the game

Relies on numba's event API (``numba.core.event``: one "numba:compile" event per compile), so
it is an experiment, not a tool of the package. Used for issue 13 (cold compiles under 20 s).
"""
from __future__ import annotations

import argparse
import atexit
import gc
import os
import shutil
import tempfile
import time


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("strategies", nargs="*", help="one per seat (default: the game's first, 4 seats)")
    ap.add_argument("--pool", action="store_true", help="one kernel for every strategy of the game")
    ap.add_argument("--top", type=int, default=15, help="functions to list by their own compile time")
    args = ap.parse_args()
    # an empty kernel folder of its own, removed at exit (each compile leaves 1-2 MB in it)
    folder = tempfile.mkdtemp(prefix="simcards-compile-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    os.environ["SIMCARDS_KERNEL_DIR"] = folder

    import simcards
    from numba.core import event
    from numba.core.registry import CPUDispatcher
    from simcards.batch import prepare

    pool = simcards.list_strategies(args.game)
    lineup = args.strategies or [pool[0]] * 4
    batch = prepare(args.game, lineup, 0, kernel_strategies=pool if args.pool else ())

    class Compiles(event.Listener):
        """Each compile's own CPU time: its whole time less the compiles it triggered."""

        def __init__(self):
            self.stack: list[list[float]] = []
            self.done: list[tuple[str, float]] = []

        def on_start(self, ev):
            self.stack.append([time.process_time(), 0.0])

        def on_end(self, ev):
            start, nested = self.stack.pop()
            spent = time.process_time() - start
            if self.stack:
                self.stack[-1][1] += spent
            fn = getattr(ev.data.get("dispatcher"), "py_func", None)
            name = f"{fn.__module__}.{fn.__qualname__}" if fn else "?"
            self.done.append((name, spent - nested))

    compiles = Compiles()
    event.register("numba:compile", compiles)
    t0 = time.process_time()
    batch.kernel()
    total = time.process_time() - t0
    print(f"{args.game} {' '.join(lineup)}{' (pool kernel)' if args.pool else ''}: "
          f"{total:.1f} s CPU, {len(compiles.done)} compiles, load {os.getloadavg()[0]:.1f}")
    print(f"\nby own compile time (top {args.top}):")
    for name, own in sorted(compiles.done, key=lambda x: -x[1])[:args.top]:
        print(f"  {own:6.2f} s  {name}")
    print("\ncompiled more than once:")
    for obj in gc.get_objects():
        if isinstance(obj, CPUDispatcher) and len(obj.signatures) > 1:
            fn = obj.py_func
            print(f"  {fn.__module__}.{fn.__qualname__}")
            for sig in obj.signatures:
                print(f"      {sig}")


if __name__ == "__main__":
    main()
