"""The ``simcards`` command: thin skins over the library (simcards.simulate, replay, bench), one
module per command group. ``simcards.cli:program`` is the console script, ``simcards.cli:app``
the typer app (tests, the manual's reference).

Importing this package registers every command, in the order ``simcards --help`` lists them:
each group's module imports only typer and rich at its top, the library where a command runs,
so that ``simcards --help`` starts as fast as one module did."""
from simcards.cli.base import app, command, command_help, err, fail, out, program  # noqa: F401
from simcards.cli import listing, play, bench, tune, cache  # noqa: F401,E402  (each registers its commands)
from simcards.cli.bench import _duration, _vs_release  # noqa: F401  (their tests call them here)
from simcards.report.cli import register as _register_report

_register_report(command)     # the report commands come last
from simcards.balancing.cli import register as _register_balance  # noqa: E402

_register_balance(command)    # then balance, which builds on report
