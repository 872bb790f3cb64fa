"""report.md and index.html from the same sections: text, tables of numbers, figures.

The page opens with the answer (``answer``): a badge per player count and level of
play saying whether every seat is fair, how long a game takes, how much skill
matters, and the three or four findings that matter most, in sentences. Each
section after it shows its figure and a short table; its method and long tables
sit in a collapsed block (``<details>``), as do the experiment, the methods and a
glossary, so the first screen is the answer, not method.

The page is one HTML file with its style inline; the figures are the PNG files in
the same folder (``<img src="NAME.png">``), or with ``single_file`` embedded in the
page as data URIs, so one file can be e-mailed. It reads on a phone: a viewport
setting, tables in horizontally scrolling boxes, images at most the page's width.
Every number of a figure is printed in a table beside it.
"""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from simcards.outputs import write_text
from simcards.report.analysis import Results
# the page's frame and its writers; the sections, one module an idea (render_*.py)
from simcards.report.page import Section, embed_images, to_html, to_markdown
from simcards.report.render_about import GLOSSARY, _glossary, _methods, _overview, _reproduce  # noqa: F401
from simcards.report.render_answer import _answer
from simcards.report.render_cards import _cards
from simcards.report.render_fairness import _seats, _verdict
from simcards.report.render_games import _designer, _elimination, _lengths
from simcards.report.render_read import ceiling_rows, skill_rows  # noqa: F401 (named here before)
from simcards.report.render_skill import _skill
from simcards.report.render_strategies import _strategies
from simcards.report.render_sweep import _sweep


def sections(run, res: Results, figs: dict, config: dict) -> list[Section]:
    exp = run.exp
    out = [_answer(run, res, config), _verdict(run, res, figs), _skill(run, res), _lengths(run, res, figs),
           _elimination(res), _designer(res), _strategies(res, figs), _seats(res, figs), _cards(res, figs), _sweep(res, exp, figs),
           _overview(run, res, config), _methods(), _glossary(), _reproduce(config)]
    return [s for s in out if s is not None]


def write(run, res: Results, figs: dict, config: dict, out_dir: Path, single_file: bool = False) -> None:
    """report.md and index.html; with ``single_file`` the page embeds its images (one file to send)."""
    secs = sections(run, res, figs, config)
    title = run.exp.title
    write_text(out_dir / "report.md", to_markdown(title, secs))
    page = to_html(title, secs, Path(out_dir))
    write_text(out_dir / "index.html", embed_images(page, Path(out_dir)) if single_file else page)


__all__ = ["Section", "sections", "to_markdown", "to_html", "embed_images", "write", "pd"]
