"""The gallery: every item with its data and findings, and every image loads in Chromium."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest

from pnp.content.loader import LoadedGame
from pnp.errors import Location, Problem
from pnp.export.gallery import export_gallery

from ..conftest import TEMPLATES
from .conftest import copies_by_card

CHROMIUM = Path("/usr/bin/chromium")


class _Items(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.items: list[dict[str, str]] = []
        self.sources: list[str] = []
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        if tag == "article":
            self.items.append(values)
        elif tag == "img":
            self.sources.append(values["src"])
        elif tag == "link" or tag == "a":
            self.links.append(values.get("href", ""))


def _parse(page: Path) -> _Items:
    parser = _Items()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser


def test_every_item_is_shown_with_its_copies(exported: Path, deadline_99: LoadedGame) -> None:
    items = _parse(exported / "gallery" / "index.html").items
    found = {(i["data-product"], i["data-id"]): int(i["data-copies"]) for i in items}
    assert len(found) == len(items)  # each item once, with its count
    assert found == copies_by_card(deadline_99, cards_only=False)


def test_links_and_images_are_relative_and_exist(exported: Path) -> None:
    gallery = exported / "gallery"
    parsed = _parse(gallery / "index.html")
    for source in parsed.sources:
        assert not re.match(r"^[a-z]+:|^/", source), source
        assert (gallery / source).is_file(), source
    index = gallery.parent.parent.parent / "index.html"
    assert any(
        link.endswith("deadline-99/export/gallery/index.html") for link in _parse(index).links
    )


def test_findings_appear_beside_the_item_they_point_at(
    deadline_99: LoadedGame, tmp_path: Path
) -> None:
    card = deadline_99.model.identity_cards[0]
    where = Location(card.where.path, card.where.line)
    problems = [
        Problem(where, "seeded finding for the gallery", game="deadline-99", severity="warning"),
        Problem(
            Location("content/deadline-99/game.yaml", 1), "a game-wide finding", game="deadline-99"
        ),
    ]
    export_gallery(deadline_99, tmp_path, TEMPLATES, problems=problems, products=["identity-cards"])
    html = (tmp_path / "index.html").read_text(encoding="utf-8")
    article = re.search(rf'<article[^>]*data-id="{card.id}".*?</article>', html, re.S)
    assert article and "seeded finding for the gallery" in article.group(0)
    others = html.split("<h2>Other findings</h2>")[1].split("<section")[0]
    assert "a game-wide finding" in others


_CHECK = """<script>
window.addEventListener("load", function () {
  var images = Array.prototype.slice.call(document.images);
  var broken = images.filter(function (i) { return !(i.complete && i.naturalWidth > 0); });
  var out = document.createElement("pre");
  out.id = "image-check";
  out.textContent = JSON.stringify({total: images.length,
    broken: broken.map(function (i) { return i.getAttribute("src"); })});
  document.body.appendChild(out);
});
</script>"""


def test_every_image_loads_in_headless_chromium(exported: Path, tmp_path: Path) -> None:
    if not CHROMIUM.exists():
        pytest.skip("needs Debian's chromium at /usr/bin/chromium (apt-get install chromium)")
    gallery = exported / "gallery"
    # A copy of the page beside it (so its relative links hold) with a check added.
    page = gallery / "_image-check.html"
    html = (gallery / "index.html").read_text(encoding="utf-8")
    page.write_text(html.replace("</body>", _CHECK + "\n</body>"), encoding="utf-8")
    try:
        result = subprocess.run(
            [
                str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}",
                "--virtual-time-budget=10000", "--dump-dom", page.as_uri(),
            ],
            capture_output=True, text=True, timeout=90, check=False,
        )  # fmt: skip
    finally:
        page.unlink()
        shutil.rmtree(tmp_path / "profile", ignore_errors=True)
    match = re.search(r'<pre id="image-check">(.*?)</pre>', result.stdout, re.S)
    assert match, f"no check result from chromium: {result.stderr[-2000:]}"
    report = json.loads(match.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    expected = Counter(_parse(gallery / "index.html").sources)
    assert report["total"] == sum(expected.values()) > 50
    assert report["broken"] == []


_FONT_CHECK = """<script>
window.addEventListener("load", function () {
  document.fonts.ready.then(function () {
    var faces = [];
    document.fonts.forEach(function (f) { faces.push(f.family + ":" + f.status); });
    var out = document.createElement("pre");
    out.id = "font-check";
    out.textContent = JSON.stringify({faces: faces, titles: Array.prototype.map.call(
      document.querySelectorAll("li a"), function (a) { return a.textContent; })});
    document.body.appendChild(out);
  });
});
</script>"""


def test_the_index_shows_every_games_title_in_a_font_that_loads(tmp_path: Path) -> None:
    from click.testing import CliRunner
    from fontTools.ttLib import TTFont

    from pnp.cli import main

    if not CHROMIUM.exists():
        pytest.skip("needs Debian's chromium at /usr/bin/chromium (apt-get install chromium)")
    content, out = tmp_path / "content", tmp_path / "output"
    content.mkdir()
    (tmp_path / "templates").mkdir()
    titles = {"star-race": "星辰竞速", "moon-shadow": "月影奇谈"}
    runner = CliRunner()
    for slug, title in titles.items():
        assert (
            runner.invoke(
                main, ["--content", str(content), "new", slug, "--title", title]
            ).exit_code
            == 0
        )
    for slug in titles:  # one export per run: the index keeps the earlier game's title
        result = runner.invoke(
            main,
            ["--content", str(content), "export", slug, "--format", "gallery", "--out", str(out)],
        )
        assert result.exit_code == 0, result.output
    index = out / "index.html"
    font = TTFont(out / "font" / "PnpSans.ttf")
    missing = {ch for ch in "".join(titles.values()) if ord(ch) not in font.getBestCmap()}
    assert not missing
    page = out / "_font-check.html"
    page.write_text(
        index.read_text(encoding="utf-8").replace("</body>", _FONT_CHECK + "\n</body>"),
        encoding="utf-8",
    )
    result = subprocess.run(
        [
            str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu",
            "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}",
            "--virtual-time-budget=10000", "--dump-dom", page.as_uri(),
        ],
        capture_output=True, text=True, timeout=90, check=False,
    )  # fmt: skip
    match = re.search(r'<pre id="font-check">(.*?)</pre>', result.stdout, re.S)
    assert match, f"no check result from chromium: {result.stderr[-2000:]}"
    report = json.loads(match.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    assert report["faces"] == ["PnpSans:loaded"]
    assert sorted(report["titles"]) == sorted(titles.values())
