"""The page's frame: a section is a list of blocks (text, tables, figures, lists, markup with its
plain-text twin, collapsed blocks), written to report.md (``to_markdown``) and to one HTML page
with its style inline (``to_html``), its images by file name or embedded (``embed_images``).

The page reads on a phone: a viewport setting, tables in horizontally scrolling boxes, images
at most the page's width, each PNG shown at its figure's size in CSS pixels.
"""
from __future__ import annotations

import base64
import html
import re
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Section:
    title: str
    key: str = ""                       # the anchor: #fairness, #game-length, ...
    blocks: list = field(default_factory=list)
    collapsed: bool = False             # the whole section in a closed <details>

    def p(self, text: str) -> "Section":
        self.blocks.append(("p", text))
        return self

    def table(self, headers: list[str], rows: list[list]) -> "Section":
        self.blocks.append(("table", headers, rows))
        return self

    def fig(self, file: str | None, caption: str) -> "Section":
        if file:
            self.blocks.append(("fig", file, caption))
        return self

    def items(self, texts: list[str]) -> "Section":
        if texts:
            self.blocks.append(("list", list(texts)))
        return self

    def raw(self, markup: str, markdown: str) -> "Section":
        """HTML for the page and its plain-text twin for report.md."""
        self.blocks.append(("html", markup, markdown))
        return self

    def more(self, title: str) -> "Section":
        """A collapsed block of this section (method, long tables): fill the returned section."""
        inner = Section(title)
        self.blocks.append(("details", title, inner.blocks))
        return inner


def _md_blocks(blocks: list, lines: list[str], depth: int) -> None:
    for block in blocks:
        if block[0] == "p":
            lines += [block[1], ""]
        elif block[0] == "fig":
            lines += [f"![{block[2]}]({block[1]})", "", f"*{block[2]}*", ""]
        elif block[0] == "list":
            lines += [f"- {t}" for t in block[1]] + [""]
        elif block[0] == "html":
            lines += [block[2], ""]
        elif block[0] == "details":
            lines += [f"{'#' * (depth + 1)} {block[1]}", ""]
            _md_blocks(block[2], lines, depth + 1)
        else:
            _, headers, rows = block
            lines.append("| " + " | ".join(map(str, headers)) + " |")
            lines.append("|" + "|".join("---" for _ in headers) + "|")
            for row in rows:
                lines.append("| " + " | ".join(str(v).replace("|", "/") for v in row) + " |")
            lines.append("")


def to_markdown(title: str, secs: list[Section]) -> str:
    lines = [f"# {title}", ""]
    for sec in secs:
        lines += [f"## {sec.title}", ""]
        _md_blocks(sec.blocks, lines, 2)
    return "\n".join(lines)


_STYLE = """
*, *::before, *::after { box-sizing: border-box; }
body { font-family: system-ui, sans-serif; max-width: 1100px; margin: 1.5em auto; padding: 0 1em; color: #222;
       line-height: 1.45; overflow-wrap: anywhere; }
h1 { border-bottom: 2px solid #444; font-size: 1.6em; } h2 { margin-top: 1.6em; border-bottom: 1px solid #ccc; }
h3 { margin: 0.2em 0 0.4em; font-size: 1.05em; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.85em; overflow-wrap: normal; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: right; }
th { background: #f0f0f0; text-align: left; vertical-align: bottom; }
td:first-child, th:first-child, td.t { text-align: left; }
figure { margin: 1em 0; } img { max-width: 100%; height: auto; }
figcaption { font-style: italic; font-size: 0.9em; }
nav { display: flex; flex-wrap: wrap; gap: 0.3em 1em; font-size: 0.9em; margin-bottom: 0.5em; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 320px), 1fr)); gap: 0.8em; }
.card { border: 1px solid #ddd; border-radius: 8px; padding: 0.7em 0.9em; background: #fafafa; min-width: 0; }
.row { display: flex; flex-wrap: wrap; align-items: center; gap: 0.3em 0.6em; margin: 0.35em 0; }
.n { font-weight: 600; }
.big { font-size: 1.3em; font-weight: 600; }
.note { color: #555; font-size: 0.85em; margin: 0.2em 0; }
.badge { border-radius: 6px; padding: 0.15em 0.5em; font-size: 0.85em; border: 1px solid; }
.badge.fair { background: #dafbe1; border-color: #4ac26b; color: #0f5323; }
.badge.unfair { background: #ffebe9; border-color: #ff8182; color: #82071e; }
.badge.undecided { background: #fff8c5; border-color: #d4a72c; color: #633c01; }
.card + .card, .card + .cards, .cards + .card { margin-top: 0.8em; }
.grid { display: grid; grid-template-columns: 6em minmax(0, 1fr); gap: 0.45em 0.6em; align-items: baseline; }
.badges { display: flex; flex-wrap: wrap; gap: 0.3em 0.5em; }
table.plain td, table.plain th { border: 0; border-bottom: 1px solid #e5e5e5; background: none; }
.gauge { position: relative; display: inline-block; width: 10em; height: 0.9em; background: #e5e5e5;
         border-radius: 4px; overflow: hidden; vertical-align: middle;
         background-image: linear-gradient(90deg, transparent calc(50% - 1px), #888 calc(50% - 1px),
                                           #888 calc(50% + 1px), transparent calc(50% + 1px)); }
.gauge span { position: absolute; top: 0; height: 100%; }
.gauge .up { background: #2da44e; } .gauge .down { background: #cf222e; }
.split { display: inline-block; width: 12em; height: 0.9em; background: #e5e5e5; border-radius: 4px;
         overflow: hidden; vertical-align: middle; white-space: nowrap; font-size: 1em; line-height: 0; }
.findings li { margin: 0.3em 0; }
details { margin: 0.8em 0; } summary { cursor: pointer; color: #0550ae; }
details.section > summary { color: #222; } details.section > summary h2 { display: inline; border: 0; }
@media (max-width: 600px) {
  body { padding: 0 0.6em; margin-top: 0.8em; } .card { padding: 0.6em; }
  .grid { grid-template-columns: minmax(0, 1fr); gap: 0.15em; } .grid .n { margin-top: 0.5em; }
}
"""


#: A cell that reads as a number (right-aligned): 1,234, +0.12, 0.3 to 0.5, 12%, n/a, < 0.0001.
_NUMBER = re.compile(r"^(?:[-+<>≥≤ ]*[\d.,]+%?(?: \(.*\))?(?: to [-+]?[\d.,]+)?|n/a|)$")


_IMG_SRC = re.compile(r'(<img\b[^>]*?\bsrc=")([^":]+\.(png|svg))(")')


def embed_images(page: str, folder: Path) -> str:
    """The page with every image it names from ``folder`` embedded as a base64 data URI: one file
    that opens anywhere (e-mail it); the images are read from the folder."""
    def data(m: re.Match) -> str:
        kind = "svg+xml" if m.group(3) == "svg" else "png"
        raw = (Path(folder) / html.unescape(m.group(2))).read_bytes()
        return f"{m.group(1)}data:image/{kind};base64,{base64.b64encode(raw).decode('ascii')}{m.group(4)}"
    return _IMG_SRC.sub(data, page)


def _css_width(folder: Path | None, file: str) -> str:
    """' width="W"': the PNG's width at the figures' dpi shown as 100 CSS pixels an inch (a
    200 dpi figure at half its pixels: sharp on a high-resolution screen, text at its point size)."""
    path = None if folder is None else Path(folder) / file
    if path is None or not path.is_file():
        return ""
    head = path.read_bytes()[:24]
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        return ""
    from simcards.report.plots import DPI
    return f' width="{round(int.from_bytes(head[16:20], "big") * 100 / DPI)}"'


def _html_blocks(blocks: list, out: list[str], folder: Path | None = None) -> None:
    esc = html.escape
    for block in blocks:
        if block[0] == "p":
            out.append(f"<p>{esc(block[1])}</p>")
        elif block[0] == "fig":
            out.append(f'<figure><img src="{esc(block[1])}"{_css_width(folder, block[1])} alt="{esc(block[2])}">'
                       f"<figcaption>{esc(block[2])}</figcaption></figure>")
        elif block[0] == "list":
            out.append("<ul>" + "".join(f"<li>{esc(t)}</li>" for t in block[1]) + "</ul>")
        elif block[0] == "html":
            out.append(block[1])
        elif block[0] == "details":
            out.append(f"<details><summary>{esc(block[1])}</summary>")
            _html_blocks(block[2], out, folder)
            out.append("</details>")
        else:
            _, headers, rows = block
            out.append('<div class="scroll"><table><thead><tr>'
                       + "".join(f"<th>{esc(str(h))}</th>" for h in headers) + "</tr></thead><tbody>")
            for row in rows:
                out.append("<tr>" + "".join(f"<td>{esc(str(v))}</td>" if _NUMBER.match(str(v)) else
                                            f'<td class="t">{esc(str(v))}</td>' for v in row) + "</tr>")
            out.append("</tbody></table></div>")


def to_html(title: str, secs: list[Section], folder: Path | None = None) -> str:
    """The page: its style inline, its images by file name (``embed_images`` makes it one file);
    ``folder``: where the images are, to size them for the screen."""
    esc = html.escape
    out = ["<!DOCTYPE html>", "<html lang=\"en\"><head><meta charset=\"utf-8\">",
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>{esc(title)}</title><style>{_STYLE}</style></head><body>", f"<h1>{esc(title)}</h1>",
           "<nav>" + "".join(f'<a href="#{s.key}">{esc(s.title)}</a>' for s in secs if s.key != "answer")
           + "</nav>"]
    for sec in secs:
        if sec.collapsed:
            out.append(f'<details class="section" id="{sec.key}"><summary><h2>{esc(sec.title)}</h2></summary>')
        else:
            out.append(f'<section id="{sec.key}"><h2>{esc(sec.title)}</h2>')
        _html_blocks(sec.blocks, out, folder)
        out.append("</details>" if sec.collapsed else "</section>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
