"""Count the instructions a kernel runs per step, by compiled function, with callgrind.

Time on this project's machines swings with the hour; instruction counts do not. This script
compiles the kernel of GAME with STRATEGY in every seat for ``x86-64-v3`` (AVX2: valgrind has no
AVX-512) into a fresh kernel folder, then runs ``--games`` games of it under ``valgrind
--tool=callgrind`` in a child process (``play_batch`` into arrays, no frame) and prints the
instructions per step (turn or action) of the kernel's own code, by compiled function, with a
checksum of every record (two versions that play the same games print the same checksums).
With ``--annotate`` it prints the kernel's disassembly with each instruction's executions per
step. Counts on this build are a proxy: the machine's own build uses AVX-512 where it pays.

Relies on numba internals (the object code a library hands to the JIT), so it is an
experiment, not a tool of the package. Used for issue 13 (Thirty-One: 444 -> 411 instructions a
turn). Usage::

    python experiments/count_instructions.py thirty-one greedy --games 2000
"""
from __future__ import annotations

import collections
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from perf_kernel import kernel_parser     # (run as a script: experiments/ is on the path)

#: the child: loads (or compiles) the kernel, keeps its object code, plays the games
_CHILD = """
import json, sys
import numpy as np
from numba.core import codegen
game, strategy, players, games, obj = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
keep = codegen.CPUCodeLibrary._set_compiled_object
def _save(self, value):                  # the object code loaded from numba's cache
    if "play_batch" in self.name:
        open(obj, "wb").write(value)
    return keep(self, value)
codegen.CPUCodeLibrary._set_compiled_object = _save
from simcards.batch import prepare
from simcards.kernels import STATUS_SIZE
b = prepare(game, [strategy] * players, 0)
k = b.kernel(check=False)
seat_out = np.zeros((games, players, b.seat_width), np.int64)
game_out = np.zeros((games, len(b.spec.game_columns)), np.int64)
status = np.zeros(STATUS_SIZE, np.int64)
k.play_batch(b.seed, 0, 10, b.sids, b.params, b.strategy_params, seat_out, game_out, status, np.zeros(1, np.int64))
cres = next(iter(k.play_batch.overloads.values()))
base = cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name)
k.play_batch(b.seed, 100, games, b.sids, b.params, b.strategy_params, seat_out, game_out, status, np.zeros(1, np.int64))
col = list(b.spec.game_columns).index(b.spec.step_column)
print(json.dumps({"base": base, "steps": int(game_out[:, col].sum()),
                  "checksum": [int(game_out.sum()), int(seat_out.sum())]}))
"""


def parse_callgrind(path: Path, column: int = 2) -> collections.Counter:
    """Self cost per instruction address of a ``--dump-instr=yes`` callgrind file: instructions
    (column 2), or with ``--branch-sim=yes`` mispredicted conditional branches (column 4)."""
    cost: collections.Counter = collections.Counter()
    addr = 0
    call_line = False            # the line after ``calls=`` is a call's inclusive cost
    for line in path.open():
        if line.startswith("calls="):
            call_line = True
            continue
        if line[:1] in "0+-*":
            parts = line.split()
            pos = parts[0]
            if pos.startswith("0x"):
                addr = int(pos, 16)
            elif pos[0] == "+":
                addr += int(pos[1:])
            elif pos[0] == "-":
                addr -= int(pos[1:])
            if not call_line and len(parts) > column:
                cost[addr] += int(parts[column])
            call_line = False
    return cost


def functions(asm: str) -> list[tuple[int, str]]:
    """(offset, name) of every function of an objdump listing, in order."""
    return [(int(m.group(1), 16), m.group(2)) for m in re.finditer(r"^([0-9a-f]+) <(.*)>:$", asm, re.M)]


def short_name(symbol: str) -> str:
    """A mangled numba name (``_ZN`` and length-prefixed parts) shortened to module.function."""
    rest = symbol[3:] if symbol.startswith("_ZN") else symbol
    names = []
    while rest[:1].isdigit():
        digits = re.match(r"\d+", rest).group()
        size = int(digits)
        names.append(rest[len(digits):len(digits) + size])
        rest = rest[len(digits) + size:]
    return ".".join(names[-2:]) if names else symbol[:60]


def main() -> None:
    ap = kernel_parser(__doc__.splitlines()[0], 2000)
    ap.add_argument("--annotate", action="store_true", help="print the disassembly with counts")
    ap.add_argument("--branches", action="store_true",
                    help="also count mispredicted conditional branches (callgrind's simple predictor)")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="count_instructions_"))
    env = dict(os.environ, NUMBA_CPU_NAME="x86-64-v3", NUMBA_CPU_FEATURES="")
    env.setdefault("SIMCARDS_KERNEL_DIR", str(work / "kernels"))
    obj = work / "kernel.o"
    child = [sys.executable, "-c", _CHILD, args.game, args.strategy, str(args.players)]
    # compile natively first (under valgrind a compile takes minutes), then count
    subprocess.run(child + ["10", str(obj)], env=env, check=True, capture_output=True)
    out = work / "callgrind.out"
    sim = ["--branch-sim=yes"] if args.branches else []
    done = subprocess.run(["valgrind", "--tool=callgrind", "--dump-instr=yes", *sim,
                           f"--callgrind-out-file={out}"] + child + [str(args.games), str(obj)],
                          env=env, check=True, capture_output=True, text=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    asm = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "-M", "intel", str(obj)],
                         capture_output=True, text=True, check=True).stdout
    funcs = functions(asm)
    end = max(int(m.group(1), 16) for m in re.finditer(r"^\s*([0-9a-f]+):", asm, re.M)) + 16
    steps = result["steps"]
    counts = {a - result["base"]: v for a, v in parse_callgrind(out).items()
              if 0 <= a - result["base"] < end}
    per = collections.Counter()
    for i, (start, name) in enumerate(funcs):
        stop = funcs[i + 1][0] if i + 1 < len(funcs) else end
        per[short_name(name)] += sum(v for a, v in counts.items() if start <= a < stop)
    print(f"{args.game}, {args.players} x {args.strategy}, {args.games:,} games (+10 warm-up), "
          f"{steps:,} steps; checksum {result['checksum']}")
    print(f"{sum(counts.values()) / steps:8.1f} instructions a step in the kernel's code (x86-64-v3 build)")
    for name, v in per.most_common():
        if v:
            print(f"{v / steps:8.1f}  {name}")
    if args.branches:
        missed = {a - result["base"]: v for a, v in parse_callgrind(out, 4).items()
                  if 0 <= a - result["base"] < end}
        print(f"{sum(missed.values()) / steps:8.2f} mispredicted conditional branches a step; "
              "the most missed (offset, per step):")
        for a, v in collections.Counter(missed).most_common(8):
            print(f"{v / steps:8.3f} {a:>6x}")
    if args.annotate:
        for line in asm.splitlines():
            m = re.match(r"\s*([0-9a-f]+):\s*(.*)", line)
            if m:
                print(f"{counts.get(int(m.group(1), 16), 0) / steps:8.3f} {m.group(1):>6} {m.group(2)[:100]}")
            elif line.endswith(">:"):
                print(line[:120])


if __name__ == "__main__":
    main()
