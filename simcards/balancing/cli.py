"""The ``simcards balance`` command; ``simcards.cli`` calls ``register(command)``.

A thin skin over ``simcards.balancing.run.balance``: an experiment file with a ``[balance]``
table, or a game name with the same settings as options (written into the output folder as
``balance.toml``, so that the search is one file to read and to run again).
"""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from simcards.errors import SimcardsError


def _range(text: str, what: str) -> tuple[str, str]:
    """``LOW..HIGH`` split in two, or one line saying what is accepted."""
    if ".." not in text:
        raise SimcardsError(f"bad {what} {text!r}: expected LOW..HIGH")
    lo, hi = text.split("..", 1)
    return lo.strip(), hi.strip()


def balance_file(game: str, players: str, mirror: Optional[str], vary: list[str], tolerance: float,
                 trials: int, games: int, confirm: int, seed: int, time_change: Optional[float],
                 minutes: Optional[str], skill_floor: Optional[float], rules: list[str]) -> str:
    """The experiment text the command line describes (the same checks as a file's)."""
    from simcards.balancing.confirm import toml_value
    from simcards.contract.options import parse_assignments
    from simcards.contract.registry import get_game
    spec = get_game(game)
    try:
        counts = [int(p) for p in players.split(",")]
    except ValueError:
        raise SimcardsError(f"bad --players {players!r}: expected player counts separated by commas, "
                            f"each {spec.min_players}..{spec.max_players}") from None
    lines = [f"game = {toml_value(game)}", f"title = {toml_value(spec.title + ': balance')}", f"seed = {seed}",
             f"players = {toml_value(counts)}", f"tolerance = {tolerance!r}", ""]
    options = {o.name: o for o in spec.options}
    fixed = {}
    for name, value in parse_assignments(rules).items():
        if name not in options:
            raise SimcardsError(f"bad --rule {name}={value}: unknown rule option of {game} "
                                f"(`simcards rules {game}` lists them)")
        fixed[name] = options[name].convert(game, value)
    if fixed:
        lines += ["[rules]"] + [f"{k} = {toml_value(v)}" for k, v in fixed.items()] + [""]
    names = "auto" if mirror is None else [m.strip() for m in mirror.split(",") if m.strip()]
    lines += ["[lineups]", f"mirror = {toml_value(names)}", "", "[balance]", f"trials = {trials}",
              f"games = {games}", f"confirm = {confirm}"]
    if time_change is not None:
        lines.append(f"time_change = {time_change!r}")
    if minutes is not None:
        lo, hi = _range(minutes, "--minutes")
        try:
            lines.append(f"minutes = [{float(lo)!r}, {float(hi)!r}]")
        except ValueError:
            raise SimcardsError(f"bad --minutes {minutes!r}: expected LOW..HIGH minutes, e.g. 10..30") from None
    if skill_floor is not None:
        lines.append(f"skill_floor = {skill_floor!r}")
    lines += ["", "[balance.vary]"]
    for item in vary:
        name, _, text = item.partition("=")
        name = name.strip()
        if name not in options or not text:
            raise SimcardsError(f"bad --vary {item!r}: expected OPTION=LOW..HIGH or OPTION=A,B with a rule option "
                                f"of {game} (`simcards rules {game}` lists them)")
        if options[name].kind is int:
            lo, hi = _range(text, f"--vary {name}")
            try:
                lines.append(f"{name} = [{int(lo)}, {int(hi)}]")
            except ValueError:
                raise SimcardsError(f"bad --vary {item!r}: expected {name}=LOW..HIGH, two integers") from None
        else:
            values = [options[name].convert(game, v) for v in text.split(",")]
            lines.append(f"{name} = {toml_value(values)}")
    return "\n".join(lines) + "\n"


def register(command) -> None:
    """Define ``balance`` with ``command`` (simcards.cli.command: one-line errors, exit code 2)."""

    @command("balance")
    def balance_cmd(
        target: Annotated[str, typer.Argument(
            help="An experiment file with a \\[balance] table (experiments/NAME.toml), or a game name "
                 "with the search described by the options below.")],
        out_dir: Annotated[Optional[Path], typer.Option(
            "--out-dir", help="The search's folder: its study, its confirmations and its report "
                              "(default: reports/NAME beside experiments/, or balance-GAME).")] = None,
        players: Annotated[str, typer.Option(help="With a game name: player counts, comma-separated.")] = "4",
        mirror: Annotated[Optional[str], typer.Option(
            help="With a game name: mirror strategies, comma-separated (default: the strongest heuristic "
                 "and random).")] = None,
        vary: Annotated[Optional[list[str]], typer.Option(
            help="With a game name: a rule option to search, OPTION=LOW..HIGH or OPTION=A,B (repeat).")] = None,
        tolerance: Annotated[float, typer.Option(
            help="With a game name: every seat within this of its fair share (0.01: one point).")] = 0.01,
        trials: Annotated[int, typer.Option(help="With a game name: rule sets to try.")] = 40,
        games: Annotated[int, typer.Option(
            help="With a game name: deals of every mirror at every player count per trial.")] = 20_000,
        confirm: Annotated[int, typer.Option(help="With a game name: candidates confirmed on fresh deals.")] = 3,
        seed: Annotated[int, typer.Option(help="With a game name: the search's seed.")] = 0,
        time_change: Annotated[Optional[float], typer.Option(
            help="With a game name: game time within this fraction of the default rules' (default 0.2).")] = None,
        minutes: Annotated[Optional[str], typer.Option(
            help="With a game name: mean game time within LOW..HIGH minutes.")] = None,
        skill_floor: Annotated[Optional[float], typer.Option(
            help="With a game name: the strongest mirror's log-odds gap over random at least this.")] = None,
        rule: Annotated[Optional[list[str]], typer.Option(
            help="With a game name: a fixed rule option NAME=VALUE (repeat).")] = None,
        threads: Annotated[Optional[int], typer.Option(help="Threads (default: all cores).")] = None,
        resume: Annotated[bool, typer.Option(help="Finish the search whose folder is --out-dir.")] = False,
        force: Annotated[bool, typer.Option("--force", help="Start the search in --out-dir again.")] = False,
        single_file: Annotated[bool, typer.Option(
            "--single-file", help="Embed the plot in index.html (one file to e-mail).")] = False,
    ) -> None:
        """Search rule options for the fairest game: every seat within the tolerance under every mirror,
        at the game time and skill asked for; confirm the best on fresh deals; write a balance report
        and the recommended rules as an experiment file (recommended.toml).

        An interrupted search resumes with --resume: optuna's study is kept in the folder."""
        from rich.console import Console

        from simcards.balancing.config import balance_config
        from simcards.balancing.run import balance
        from simcards.report.experiment import parse_experiment
        from simcards.contract.validate import check_optional_counts
        from simcards.run.waits import progress_bar
        check_optional_counts(thread_count=threads)
        err = Console(stderr=True)
        if target.endswith(".toml") or Path(target).exists():
            from simcards.balancing.config import load_balance
            cfg = load_balance(target)
            folder = out_dir
        else:
            from simcards.contract.registry import games as known_games
            if target not in known_games():
                from simcards.errors import choices
                raise SimcardsError(f"unknown game or experiment file {target!r}: expected an experiment file "
                                    f"(.toml) or a game: {choices(known_games())}")
            if not vary:
                raise SimcardsError("missing --vary: with a game name, name at least one rule option to search, "
                                    "e.g. --vary points_seat1=-5..5")
            folder = out_dir or Path(f"balance-{target}")
            text = balance_file(target, players, mirror, vary, tolerance, trials, games, confirm, seed,
                                time_change, minutes, skill_floor, list(rule or ()))
            cfg = balance_config(parse_experiment(Path(folder) / "balance.toml", text))
        with progress_bar(err, cfg.trials) as bar:
            def progress(done: int, total: int, where: str) -> None:
                # the search counts trials, the confirmations games (simcards report's bar)
                searching = where.startswith("trial") or where == "search done"
                bar.update(done, total, where, unit="trials" if searching else "games")

            result = balance(cfg, folder, threads=threads, force=force, resume=resume,
                             log=lambda msg: err.print(msg, highlight=False, markup=False),
                             progress=progress, single_file=single_file)
        if not target.endswith(".toml") and not Path(target).exists():
            from simcards.outputs import write_text
            write_text(Path(result.folder) / "balance.toml", cfg.exp.source)
        best = result.closest
        verdict = "recommended" if result.found else "nothing met every target; closest"
        typer.echo(f"{verdict}: " + (", ".join(f"{k}={v}" for k, v in best.values.items())))
        typer.echo(f"report written to {Path(result.folder) / 'index.html'}; rules in "
                   f"{Path(result.folder) / 'recommended.toml'}")
