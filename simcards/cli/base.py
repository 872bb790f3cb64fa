"""The command line's frame: the typer app, every bad input and interruption as one line, and
the ``command`` decorator that each command group (the other modules of ``simcards.cli``)
registers its commands with."""
from __future__ import annotations

import functools
import inspect
import os
import re
import sys

import typer
import typer.core
from rich.console import Console
from rich.text import Text

from simcards.errors import IllegalMoveError, SimcardsError


class OneLineErrors(typer.core.TyperGroup):
    """Usage errors (an unknown option, ``--games 1.5``, ``--seed abc``) as one line on stderr
    and exit code 2, like every other bad input, instead of a framed box.

    typer vendors click (``typer._click``), so its exceptions are matched by what they
    provide (``format_message``, ``exit_code``), not by importing a private module."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except typer.Abort:
            if not standalone_mode:
                raise
            err.print("Aborted.", markup=False)
            code = 1
        except typer.TyperException as exc:
            if not standalone_mode or not hasattr(exc, "format_message"):
                raise
            if type(exc).__name__ == "NoArgsIsHelpError":
                exc.show()      # `simcards` alone: the help, as before
            else:
                err.print(error_line(usage_message(exc)), highlight=False, soft_wrap=True)
            code = exc.exit_code
        if not standalone_mode:
            return code
        sys.exit(code if isinstance(code, int) else 0)

def usage_message(exc) -> str:
    """click's message, plus what is accepted where click does not say it."""
    message = exc.format_message()
    ctx = getattr(exc, "ctx", None)
    if getattr(exc, "option_name", None) and getattr(exc, "possibilities", None) is not None and ctx:
        accepted = sorted(o for p in ctx.command.params for o in p.opts if o.startswith("--"))
        message = (f"unknown option {exc.option_name!r} for `{ctx.command_path}`: "
                   f"accepted are {', '.join(accepted)}")
    elif getattr(exc, "param", None) is not None and hasattr(exc.__cause__, "errors"):
        # typer checks values with pydantic: its error holds the value the user gave
        first = exc.__cause__.errors()[0]
        expected = first["msg"].split(",")[0].replace("Input should be", "expected")
        name = max(getattr(exc.param, "opts", None) or [exc.param.name], key=len)
        message = f"bad value {first['input']!r} for {name}: {expected}"
    elif getattr(exc, "param", None) is not None and (
            found := re.search(r"'([^']*)' is not a valid (int|integer|float)\b", message)):
        # typer before it checked values with pydantic: click's own words, said as above
        expected = "an integer" if found.group(2) != "float" else "a number"
        name = max(getattr(exc.param, "opts", None) or [exc.param.name], key=len)
        message = f"bad value {found.group(1)!r} for {name}: expected {expected}"
    elif type(exc).__name__ == "UsageError" and ctx is not None and "command" in message:
        message = (message.rstrip(".") + ": accepted are "
                   + ", ".join(sorted(ctx.command.list_commands(ctx))))
    return message[:1].lower() + message[1:]


app = typer.Typer(cls=OneLineErrors, add_completion=False, no_args_is_help=True,
                  help="Monte-Carlo strategy simulator for card games.")
out = Console()
err = Console(stderr=True)


def program() -> None:
    """The ``simcards`` command as a process (the console script and ``python -m simcards``).

    When the command is done, its output flushed and the exit handlers run, the process leaves
    without tearing the interpreter down: freeing numba's and LLVM's objects one by one took
    0.7-0.8 s after every command, more than a 10,000-game run (measured on Five Alive), and
    the operating system frees the memory at once. ``app`` itself (CliRunner tests, a caller's
    own process) exits as usual."""
    import atexit
    import signal
    signal.signal(signal.SIGTERM, _on_sigterm)
    signal.signal(signal.SIGINT, _on_sigint)
    sys.unraisablehook = _quiet_interrupts
    try:
        app(prog_name="simcards")
        code = 0
    except SystemExit as exc:
        code = exc.code
    if not isinstance(code, int):       # sys.exit("message") or sys.exit(None)
        if code is not None:
            print(code, file=sys.stderr)
        code = 0 if code is None else 1
    sys.stdout.flush()
    sys.stderr.flush()
    atexit._run_exitfuncs()
    os._exit(code)

def error_line(message: str) -> Text:
    # a Text, not markup: "pip install 'simcards[dask]'" must keep its brackets
    return Text.assemble(("error:", "bold red"), " ", message)

def fail(message: str, code: int = 2) -> None:
    err.print(error_line(message), highlight=False, soft_wrap=True)
    raise typer.Exit(code)


#: the signals that stopped the command (SIGTERM, recorded by program()'s handler)
_signals: list[int] = []

def interrupted(exc: KeyboardInterrupt) -> None:
    """A command stopped by SIGINT or SIGTERM: one line (what a run folder keeps, how to
    finish), and exit code 128 + the signal, as a shell reports a process the signal killed."""
    import signal
    note = str(exc)
    err.print(f"interrupted: {note}" if note else "interrupted", highlight=False, markup=False,
              soft_wrap=True)
    raise typer.Exit(128 + (_signals[-1] if _signals else signal.SIGINT))

def _on_sigterm(signum, frame) -> None:
    """SIGTERM takes SIGINT's path (whatever handles SIGINT now), instead of Python's default,
    which ends the process at once: saved chunks are kept and the command says so."""
    import signal
    _signals.append(signum)
    handler = signal.getsignal(signal.SIGINT)
    if callable(handler) and handler is not _on_sigint:
        handler(signal.SIGINT, frame)
    else:
        raise KeyboardInterrupt

def _on_sigint(signum, frame) -> None:
    """Python's own SIGINT (a KeyboardInterrupt), remembered: a signal that lands inside numba's
    compiler is swallowed there (a ctypes callback) and comes out as another error, which the
    command then still reports as the interruption it was."""
    _signals.append(signum)
    raise KeyboardInterrupt

def _quiet_interrupts(unraisable) -> None:
    """An interruption swallowed where Python cannot raise it (numba's ctypes callbacks while it
    compiles) is not printed as a traceback: the command reports it in one line (``command``)."""
    if isinstance(unraisable.exc_value, KeyboardInterrupt):
        return
    sys.__unraisablehook__(unraisable)

def command_help(doc: str | None) -> tuple[str, str]:
    """A command's help with each paragraph of its docstring on one line, and the first
    paragraph (its line in ``simcards --help``). typer keeps a docstring's line breaks, so an
    80-column terminal showed them as ragged lines; rich wraps a paragraph to any width."""
    paragraphs = [" ".join(p.split()) for p in inspect.cleandoc(doc or "").split("\n\n")]
    return "\n\n".join(paragraphs), paragraphs[0]

def command(name: str):
    """Register a command whose bad input ends in one line on stderr and exit code 2,
    and whose waits for a compiling kernel are shown on a terminal."""
    def wrap(func):
        text, first = command_help(func.__doc__)
        @functools.wraps(func)
        def run(*args, **kwargs):
            from simcards.outputs import holding_locks
            from simcards.run.waits import kernel_notes
            try:
                with holding_locks(), kernel_notes(err):    # the outputs' locks: the whole command
                    return func(*args, **kwargs)
            except (SimcardsError, IllegalMoveError) as exc:
                fail(str(exc))
            except KeyboardInterrupt as exc:
                interrupted(exc)
            except Exception:
                if _signals:          # the signal became another error on its way (_on_sigint)
                    interrupted(KeyboardInterrupt())
                raise
        return app.command(name, help=text, short_help=first)(run)
    return wrap
