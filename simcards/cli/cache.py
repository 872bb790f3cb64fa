"""``simcards cache``: what the kernel folder holds, and clearing it."""
from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from simcards.cli.base import command, out


@command("cache")
def cache_cmd(
    clear: Annotated[bool, typer.Option(
        "--clear", help="Remove every kernel, table and yardstick simcards made there; the next run of "
                        "each line-up compiles again.")] = False,
) -> None:
    """Show what the kernel folder holds: compiled kernels, strategies' tables and the C
    yardsticks, with the room they take; --clear removes them.

    Names carry a hash of their sources, so old code is never loaded after an edit, but old files
    stay until they are cleared. Only files with the names simcards gives them are removed, and
    an item another process is building now is left alone. The folder is $SIMCARDS_KERNEL_DIR, else
    simcards/kernels in $XDG_CACHE_HOME or ~/.cache."""
    from simcards.compiled import cache_folder
    folder = cache_folder.kernel_dir()
    if clear:
        done = cache_folder.clear(folder)
        out.print(f"removed {done.removed:,} items ({_megabytes(done.freed)}) from {folder}",
                  markup=False, highlight=False)
        if done.busy:
            out.print(f"left {len(done.busy):,} that another process is building now: "
                      f"{', '.join(done.busy)}", markup=False, highlight=False)
        return
    table = Table("", "items", "on disk", title=str(folder))
    found = cache_folder.items(folder)
    for kind, _, _ in cache_folder.KINDS:
        mine = [i for i in found if i.kind == kind]
        table.add_row(kind, f"{len(mine):,}", _megabytes(sum(i.size for i in mine)))
    out.print(table)
    if found:
        out.print("simcards cache --clear removes them.", markup=False, highlight=False)

def _megabytes(size: int) -> str:
    return f"{size / 1e6:,.1f} MB"
