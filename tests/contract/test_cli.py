"""The command line on every game: listings work, and bad input is one line on stderr, exit 2."""
from __future__ import annotations

import pytest
from typer.testing import CliRunner

import simcards
from simcards.cli import app

runner = CliRunner()


def _run(*args: str):
    return runner.invoke(app, list(args))


def test_listings_name_the_game_its_strategies_and_rules(game, kit):
    spec = simcards.get_game(game)
    assert game in _run("games").output
    listed = _run("strategies", game)
    assert listed.exit_code == 0 and all(s in listed.output for s in kit.all_strategies(game))
    rules = _run("rules", game)
    assert rules.exit_code == 0 and all(o.name in rules.output for o in spec.options)


def _bad_inputs(game: str, kit) -> list[tuple[list[str], str]]:
    spec = simcards.get_game(game)
    one = kit.all_strategies(game)[0]
    option = spec.options[0].name
    return [
        (["run", game, "--strategies", "no_such_strategy", "--games", "5"], "no_such_strategy"),
        (["run", game, "--strategies", one, "--players", str(spec.max_players + 1), "--games", "5"],
         str(spec.max_players + 1)),
        (["run", game, "--strategies", one, "--games", "5", "--rule", "no_such_option=1"], "no_such_option"),
        (["run", game, "--strategies", one, "--games", "5", "--rule", f"{option}=@@bad"], "@@bad"),
        (["run", game, "--strategies", one, "--games", "0"], "0"),
        (["replay", game, "--strategies", "no_such_strategy"], "no_such_strategy"),
    ]


def test_bad_input_is_one_line_naming_the_value(game, kit):
    for args, named in _bad_inputs(game, kit):
        result = _run(*args)
        assert result.exit_code == 2, (args, result.output)
        text = result.stderr.strip() if result.stderr_bytes is not None else result.output.strip()
        assert len(text.splitlines()) == 1 and named in text, (args, text)


def test_an_unknown_game_names_the_games():
    result = _run("run", "no-such-game")
    assert result.exit_code == 2 and all(g in result.stderr for g in simcards.list_games())


def test_replay_prints_a_checked_game(game, kit):
    lineup = kit.lineups(game)[0]
    result = _run("replay", game, "--seed", "3", "--strategies", ",".join(lineup))
    assert result.exit_code == 0, result.output
    assert "agrees with the fast engine" in result.output


def test_every_command_help_is_reflowed_paragraphs():
    """typer keeps a docstring's line breaks, which an 80-column terminal showed as ragged lines
    in ``simcards --help``: every command's help has its paragraphs on one line each, and its
    first paragraph is its line in the command list (simcards.cli.command_help)."""
    for c in app.registered_commands:
        assert c.short_help and "\n" not in c.short_help, c.name
        assert c.help.startswith(c.short_help), c.name
        assert all(para and "\n" not in para for para in c.help.split("\n\n")), c.name
    listing = runner.invoke(app, ["--help"], env={"COLUMNS": "80"}).output
    assert "parameters (a broken file is listed with its fault)." in listing


def test_bracketed_words_in_help_survive_rich_markup():
    """rich reads ``[word]`` in a help text as a style tag and drops it: ``simcards balance
    --help`` once said "an experiment file with a  table" for "[balance] table". Every
    ``[word]`` a command's or an option's help holds (rich's escape ``\\[`` included) must reach
    the rendered help."""
    import re

    import typer.main

    group = typer.main.get_command(app)
    for name, command in group.commands.items():
        texts = [command.help or ""] + [getattr(p, "help", None) or "" for p in command.params]
        words = {w for t in texts for w in re.findall(r"\[[a-z_.]+\]", t.replace("\\[", "["))}
        if not words:
            continue
        shown = runner.invoke(app, [name, "--help"], env={"COLUMNS": "250"}).output
        for word in words:
            assert word in shown, (name, word)
