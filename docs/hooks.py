"""MkDocs hooks: what the manual says of every game is found when it is built, so that a new
game appears in it with no edit of a shared file (issue 51: a game's diff stays in its folders).

- The Rules section of the nav lists every page in docs/rules/.
- The generated parts of docs/reference/ (the API blocks, every game's frame columns, every
  game's decisions and view accessors) are written into the pages as they are built, by
  docs/gen_reference.py from the registry; the committed pages hold only their markers.

Each entry is titled by its page's first heading, up to the dash (``# Five Alive — the rules
simcards plays`` gives "Five Alive"), and the pages are in file-name order.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

SECTION = "Rules"


def _title(page: Path) -> str:
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].split(" — ", 1)[0].strip()
    return page.stem


def _fill(items: list) -> bool:
    """Replace the entries of every nav section named SECTION; True if one was found."""
    found = False
    for item in items:
        if not isinstance(item, dict):
            continue
        for key, value in item.items():
            if key == SECTION and isinstance(value, list):
                item[key] = [{_title(p): f"rules/{p.name}"} for p in sorted(_rules_dir.glob("*.md"))]
                found = True
            elif isinstance(value, list):
                found = _fill(value) or found
    return found


_rules_dir = Path()


def on_config(config):
    global _rules_dir
    _rules_dir = Path(config["docs_dir"]) / "rules"
    if not _fill(config["nav"] or []):
        raise ValueError(f"mkdocs.yml: the nav has no section {SECTION!r} for docs/rules/")
    return config


_generator = None


def _gen(config):
    global _generator
    if _generator is None:
        path = Path(config["docs_dir"]) / "gen_reference.py"
        spec = importlib.util.spec_from_file_location("gen_reference", path)
        _generator = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(_generator)
    return _generator


def on_page_markdown(markdown, page, config, files):
    gen = _gen(config)
    if page.file.src_uri in gen.PAGES:
        return gen.render(page.file.src_uri, markdown)
    return markdown
