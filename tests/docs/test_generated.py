"""The generated parts of the reference pages (docs/gen_reference.py, run when the manual is
built by docs/hooks.py): the API blocks (``simcards.__all__``), every game's frame columns and
every game's decisions and view accessors. They are never committed, so a new game appears in
the manual with no edit of a shared page; these tests render each page and check it."""
from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _generator():
    spec = importlib.util.spec_from_file_location("gen_reference", ROOT / "docs" / "gen_reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _page(gen, page: str) -> str:
    return gen.render(page, (ROOT / "docs" / page).read_text(encoding="utf-8"))


def test_the_committed_pages_hold_only_the_markers():
    # the generated parts are written at build time (docs/hooks.py): a committed copy would go
    # stale, and a new game would have to edit these shared pages
    gen = _generator()
    for page in gen.PAGES:
        text = (ROOT / "docs" / page).read_text(encoding="utf-8")
        assert f"{gen.BEGIN}\n{gen.END}" in text, f"docs/{page}: the generated part is committed"


def test_every_game_is_in_the_generated_pages():
    import simcards
    gen = _generator()
    for page in ("reference/frame-columns.md", "reference/strategy-contract.md"):
        text = _page(gen, page)
        missing = [g for g in simcards.list_games() if f"`{g}`" not in text and g not in text]
        assert not missing, f"docs/{page} as built lacks {missing}"


def test_every_public_name_has_an_api_block():
    import simcards
    text = _page(_generator(), "reference/api.md")
    missing = [name for name in simcards.__all__ if f"::: simcards.{name}\n" not in text]
    assert not missing, f"docs/reference/api.md as built lacks {missing}"


def test_every_experiment_key_is_documented():
    """docs/reference/experiment-format.md holds the file format: every key the parser accepts."""
    from simcards.report import experiment
    text = (ROOT / "docs" / "reference" / "experiment-format.md").read_text(encoding="utf-8")
    keys = [*experiment.TOP_KEYS, *experiment.LINEUP_KEYS, *experiment.SWEEP_KEYS]
    missing = [k for k in keys if f"`{k}`" not in text and f"`[{k}]`" not in text]
    assert not missing, f"docs/reference/experiment-format.md does not document {missing}"
