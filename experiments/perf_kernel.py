"""Profile a kernel with ``perf``, naming numba's compiled functions, down to the instruction.

``perf`` cannot name JIT code. This script compiles the kernel afresh (an empty kernel folder:
a kernel loaded from numba's cache keeps no object code), writes each compiled library's
object file and a perf map (``/tmp/perf-PID.map``) from the functions' run-time addresses,
then records ``perf record -p PID`` over ``--games`` games of ``run_records`` on one thread
(kernel only, no frame). It prints the share of samples per function and, with ``--annotate
NAME``, the disassembly of the object holding NAME with each instruction's share.

Relies on numba internals (``CodeLibrary._get_compiled_object``), so it is an experiment, not
a tool of the package. Used for issue 13 (Five Alive: the engine's functions without reference
counting, the deal, the redeal). Usage::

    SIMCARDS_KERNEL_DIR=$(mktemp -d) python experiments/perf_kernel.py five-alive high_first \\
        --games 400000 --annotate _deal
"""
from __future__ import annotations

import argparse
import collections
import importlib
import os
import re
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from numba.core.registry import CPUDispatcher

from simcards.batch import prepare
from simcards.runner import run_records


def _symbols(path: Path) -> dict[str, tuple[int, int]]:
    """Defined functions of an object file: name -> (offset, size)."""
    out = subprocess.run(["nm", "-S", "--defined-only", str(path)], capture_output=True, text=True).stdout
    syms = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "tTwW":   # W: linked-in (weak) functions
            syms[parts[3]] = (int(parts[0], 16), int(parts[1], 16))
    return syms


def dump_objects(kernel, modules: list[str], folder: Path) -> list[tuple[str, Path, int]]:
    """Write the object code of every compiled overload of the kernel and ``modules``; return
    (dispatcher name, object file, load address of the object's offset 0) for each."""
    found = []
    for module in [kernel] + [importlib.import_module(m) for m in modules]:
        for attr in vars(module).values():
            if isinstance(attr, CPUDispatcher):
                found += [(attr.__name__, cres) for cres in attr.overloads.values()]
    out = []
    for i, (name, cres) in enumerate(found):
        try:
            obj = cres.library._get_compiled_object()
        except RuntimeError:                 # loaded from numba's cache: no object kept
            continue
        path = folder / f"{i}_{name}.o"
        path.write_bytes(obj)
        syms = _symbols(path)
        entry = cres.fndesc.llvm_func_name
        if entry in syms:
            out.append((name, path, cres.library.get_pointer_to_function(entry) - syms[entry][0]))
    return out


def short_name(symbol: str) -> str:
    """``module.function[version]`` from numba's mangled name (``_ZN<len><id>...`` with ``B<len>``
    tags after an identifier); the symbol itself if it is not of that form."""
    m = re.match(r"_ZN(?:\d+cpython)?", symbol)
    if not m:
        return symbol
    i, ids, tag = m.end(), [], ""
    while i < len(symbol) and symbol[i].isdigit():
        j = i
        while symbol[j].isdigit():
            j += 1
        n = int(symbol[i:j])
        ids.append(symbol[j:j + n])
        i = j + n
        tag = ""
        while i < len(symbol) and symbol[i] == "B":
            j = i + 1
            while j < len(symbol) and symbol[j].isdigit():
                j += 1
            n = int(symbol[i + 1:j] or 0)
            tag = tag or symbol[j:j + n]
            i = j + n
    return ".".join(ids[-2:]) + (f"[{tag}]" if tag else "") if ids else symbol


def write_perf_map(objects: list[tuple[str, Path, int]]) -> None:
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as fh:
        for _name, path, base in objects:
            for sym, (off, size) in _symbols(path).items():
                fh.write(f"{base + off:x} {size:x} {short_name(sym)}\n")


def annotate(objects, which: str, data: Path) -> None:
    """The disassembly of the first object whose dispatcher is ``which``, each instruction with
    its share of that object's samples."""
    name, path, base = next(o for o in objects if o[0] == which)
    syms = _symbols(path)
    lo = min(off for off, _ in syms.values())
    hi = max(off + size for off, size in syms.values())
    ips = collections.Counter()
    for field in subprocess.run(["perf", "script", "-i", str(data), "-F", "ip"],
                                capture_output=True, text=True).stdout.split():
        off = int(field, 16) - base
        if lo <= off < hi:
            ips[off] += 1
    total = max(sum(ips.values()), 1)
    dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "-M", "intel", str(path)],
                         capture_output=True, text=True).stdout
    for line in dis.splitlines():
        m = re.match(r"\s*([0-9a-f]+):", line)
        share = 100 * ips.get(int(m.group(1), 16), 0) / total if m else 0.0
        print(f"{share:6.2f} {line}" if m else line)


def kernel_parser(description: str, games: int) -> argparse.ArgumentParser:
    """The arguments of a kernel experiment: a game, one strategy in every seat, the players
    and the games to play (experiments/count_instructions.py has them too)."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("game")
    ap.add_argument("strategy", help="the strategy of every seat")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=games)
    return ap


def main() -> None:
    ap = kernel_parser(__doc__.splitlines()[0], 200_000)
    ap.add_argument("--annotate", help="a dispatcher's name (e.g. play_batch, _deal)")
    args = ap.parse_args()
    batch = prepare(args.game, [args.strategy] * args.players, 0)
    kernel = batch.kernel()
    package = batch.spec.package
    folder = Path(tempfile.mkdtemp(prefix="perf_kernel_"))
    objects = dump_objects(kernel, [f"{package}.fast", "simcards.rng", "simcards.engine"], folder)
    if not objects:
        raise SystemExit("no object code: compile afresh (SIMCARDS_KERNEL_DIR=an empty folder)")
    write_perf_map(objects)
    run_records(batch, 2000, threads=1)                  # warm-up
    data = folder / "perf.data"
    rec = subprocess.Popen(["perf", "record", "-q", "-o", str(data), "-p", str(os.getpid())])
    time.sleep(1.0)                                       # perf attaches
    cpu = time.process_time()
    _, game_out = run_records(batch, args.games, threads=1)
    cpu = time.process_time() - cpu
    rec.send_signal(signal.SIGINT)
    rec.wait()
    steps = game_out[:, list(batch.spec.game_columns).index(batch.spec.step_column)].sum()
    print(f"{args.games} games, {cpu:.2f} s CPU, {cpu / steps * 1e9:.1f} ns per step; objects in {folder}")
    print(subprocess.run(["perf", "report", "-i", str(data), "--stdio", "--sort", "sym"],
                         capture_output=True, text=True).stdout)
    if args.annotate:
        annotate(objects, args.annotate, data)


if __name__ == "__main__":
    main()
