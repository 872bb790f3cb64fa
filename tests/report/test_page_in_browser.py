"""The report page in a real browser: Debian's headless Chromium opens the tiny report at 1400 and
390 px and checks that it renders with no horizontal overflow outside the scrolling table boxes,
no console error, and no image missing; the one-file page (``--single-file``) stands alone.

Headless Chromium will not make a window narrower than 500 px, so every page is opened inside an
iframe of the width under test; a probe script injected into a copy of the page opens every
collapsed block, measures it after it has loaded and posts the result to the frame around it,
which --dump-dom prints. Chromium is required, not optional: CI installs it
(``apt-get install -y chromium``); without it these tests fail and say so.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

BROWSERS = ("chromium", "chromium-browser", "google-chrome")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--enable-logging=stderr", "--v=0"]
WIDTHS = [(1400, 900), (390, 844)]

#: Injected first into the page's <head>: records script errors, failed loads and console.error;
#: on load opens every <details>, then measures and posts the result to the frame around it.
PROBE = """<script>
window.__problems = [];
addEventListener('error', e => window.__problems.push(e.message ? 'error: ' + e.message
    : 'failed to load: ' + (e.target && (e.target.src || e.target.href))), true);
const __error = console.error;
console.error = (...a) => { window.__problems.push('console.error: ' + a.join(' ')); __error(...a); };
addEventListener('load', () => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  requestAnimationFrame(() => setTimeout(() => {
    const width = document.documentElement.clientWidth;
    const over = [];
    for (const el of document.body.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      if (r.width && r.right > width + 0.5 && !el.closest('.scroll'))
        over.push(el.tagName.toLowerCase() + (el.className ? '.' + el.className : '') + ' ' + Math.round(r.right));
    }
    const broken = [...document.images].filter(i => !i.complete || !i.naturalWidth).map(i => i.src.slice(0, 80));
    parent.postMessage(JSON.stringify({width, scrollWidth: document.documentElement.scrollWidth,
                                       overflowing: over.slice(0, 10), broken, problems: window.__problems,
                                       images: document.images.length}), '*');
  }, 0));
});
</script>"""

FRAME = """<!DOCTYPE html><html><head><meta charset="utf-8"><style>body {{ margin: 0 }}
iframe {{ border: 0; display: block }}</style></head><body>
<iframe src="{src}" style="width: {width}px; height: {height}px"></iframe><pre id="probe-result"></pre>
<script>addEventListener('message', e => {{ document.getElementById('probe-result').textContent = e.data; }});
</script></body></html>"""


def browser() -> str:
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    pytest.fail("no headless browser: these tests need Debian's chromium; install it with "
                "`apt-get install -y chromium` (CI's .ci/run does)", pytrace=False)


def run_browser(args: list[str], profile: Path) -> subprocess.CompletedProcess:
    return subprocess.run([browser(), *FLAGS, f"--user-data-dir={profile}", *args], capture_output=True,
                          text=True, timeout=90)


def framed(folder: Path, page: str, width: int, height: int) -> Path:
    """A page holding ``page`` in an iframe ``width`` px wide."""
    path = folder / f"frame-{Path(page).stem}-{width}.html"
    path.write_text(FRAME.format(src=page, width=width, height=height))
    return path


def probed(folder: Path, page: str) -> str:
    """A copy of ``page`` beside it with the probe script injected; returns its name."""
    text = (folder / page).read_text()
    name = f"probe-{page}"
    (folder / name).write_text(text.replace("<head>", "<head>" + PROBE, 1))
    return name


def measure(folder: Path, page: str, width: int, height: int, profile: Path) -> tuple[dict, str]:
    """(the probe's result, the browser's console errors) for ``page`` at ``width`` px."""
    frame = framed(folder, probed(folder, page), width, height)
    done = run_browser([f"--window-size={max(width, 500) + 20},{height}", "--virtual-time-budget=10000",
                        "--dump-dom", frame.as_uri()], profile)
    found = re.search(r'<pre id="probe-result">(.*?)</pre>', done.stdout, re.S)
    assert found and found.group(1), f"the probe never reported; browser said:\n{done.stderr[-2000:]}"
    import html
    console = "\n".join(line for line in done.stderr.splitlines()
                        if "CONSOLE" in line and ("Uncaught" in line or "rror" in line))
    return json.loads(html.unescape(found.group(1))), console


@pytest.fixture(scope="module")
def page_folder(tiny_report, tmp_path_factory) -> Path:
    """A copy of the tiny report's folder to add probe pages to."""
    _, out, _ = tiny_report
    folder = tmp_path_factory.mktemp("browser") / "report"
    shutil.copytree(out, folder)
    return folder


# slow: it needs Debian's chromium, which .ci/run installs and a fresh machine has not; the
# README's test command (the default set) must pass on a fresh machine
@pytest.mark.slow
@pytest.mark.parametrize("width,height", WIDTHS)
def test_page_renders_without_overflow_or_errors(page_folder, tmp_path, width, height):
    result, console = measure(page_folder, "index.html", width, height, tmp_path / "profile")
    assert result["width"] == width
    assert result["scrollWidth"] <= width, f"the page scrolls sideways at {width} px: {result['overflowing']}"
    assert result["overflowing"] == [], f"wider than {width} px outside a scrolling box: {result['overflowing']}"
    assert result["broken"] == [] and result["images"] >= 5
    assert result["problems"] == [] and console == "", (result["problems"], console)
    # and a picture of the first screen, as a phone or a desktop shows it
    shot = tmp_path / f"page-{width}.png"
    frame = framed(page_folder, "index.html", width, height)
    run_browser([f"--window-size={width},{height}", f"--screenshot={shot}", frame.as_uri()], tmp_path / "p2")
    from PIL import Image
    image = Image.open(shot)
    assert image.size == (width, height)
    assert len(image.convert("L").histogram()) and sum(1 for n in image.convert("L").histogram() if n) > 20
    # (more than 20 grey levels: text and colour, not a blank page)


class _Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.images: list[str] = []
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.viewport = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "img":
            self.images.append(attrs.get("src", ""))
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("href", "").startswith("#"):
            self.links.append(attrs["href"][1:])
        if tag == "meta" and attrs.get("name") == "viewport":
            self.viewport = True


def test_every_image_exists_and_every_anchor_has_a_name(tiny_report):
    _, out, _ = tiny_report
    page = _Page()
    page.feed((out / "index.html").read_text())
    assert page.images and all((out / src).is_file() for src in page.images), page.images
    assert page.viewport
    assert page.links and set(page.links) <= page.ids
    assert {"answer", "fairness", "skill", "game-length", "strategies", "methods", "glossary"} <= page.ids
    assert not [i for i in page.ids if re.fullmatch(r"s\d+", i)]        # meaningful names, not #s0


@pytest.mark.slow      # Debian's chromium, as above
def test_single_file_page_stands_alone(page_folder, tmp_path, cli_app):
    """--single-file's page embeds every image: opened alone, far from its folder, nothing is missing."""
    from typer.testing import CliRunner

    from simcards.report.render import embed_images
    assert "--single-file" in CliRunner().invoke(cli_app, ["report", "--help"]).output
    alone = tmp_path / "alone"
    alone.mkdir()
    (alone / "index.html").write_text(embed_images((page_folder / "index.html").read_text(), page_folder))
    page = _Page()
    page.feed((alone / "index.html").read_text())
    assert page.images and all(src.startswith("data:image/png;base64,") for src in page.images)
    result, console = measure(alone, "index.html", 1400, 900, tmp_path / "profile")
    assert result["broken"] == [] and result["images"] == len(page.images)
    assert result["problems"] == [] and console == ""
