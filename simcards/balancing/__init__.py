"""``simcards balance``: search rule options for the fairest game (optuna), confirm the best on
fresh deals with the balance report's verdict, and write a report of its own.

Modules: ``config`` (the ``[balance]`` table), ``measure`` (one rule set on common deals),
``search`` (the optuna study), ``confirm`` (fresh deals, the report's verdict), ``run`` (the
command's whole job, resumable), ``page`` (the report), ``cli`` (the command). Kept light: the
package is imported by ``simcards --help``.

(Not ``simcards/balance``: ``simcards.balance`` is the API function, and a submodule of that name
would replace it on the package as soon as it was imported.)
"""
