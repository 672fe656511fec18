"""The reading edition is laid out twice, not three times, and only the written pass draws;
what it writes is what reportlab's own passes until the contents settle would write."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.content.loader import LoadedGame, load_game
from pnp.rulebook import pdf
from pnp.rulebook.pdf import render_reading_edition

from ..conftest import CONTENT, TEMPLATES


@pytest.fixture(scope="module")
def mineventure() -> LoadedGame:
    # Its contents run over a page: unseeded, reportlab needs three passes.
    return load_game(CONTENT, "mineventure")


@pytest.mark.long
def test_two_passes_and_the_same_bytes_as_unseeded_passes(
    mineventure: LoadedGame, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    passes: list[bool] = []
    build = pdf.RulebookDocument.build

    def counted(self: pdf.RulebookDocument, *args: object, **kwargs: object) -> None:
        build(self, *args, **kwargs)  # type: ignore[arg-type]
        passes.append(self._seeded)

    monkeypatch.setattr(pdf.RulebookDocument, "build", counted)
    seeded = tmp_path / "seeded.pdf"
    render_reading_edition(mineventure, seeded, TEMPLATES)
    assert passes == [True, True]

    passes.clear()
    monkeypatch.setattr(pdf.RulebookDocument, "seed_contents", lambda self, story: None)
    plain = tmp_path / "plain.pdf"
    render_reading_edition(mineventure, plain, TEMPLATES)
    assert len(passes) >= 2 and not any(passes)
    assert seeded.read_bytes() == plain.read_bytes()


def test_the_first_pass_draws_nothing(
    mineventure: LoadedGame, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[int] = []
    draw = pdf.CJKParagraph.draw

    def counted(self: pdf.CJKParagraph) -> None:
        drawn.append(self._pnp_pass)  # type: ignore[attr-defined]
        draw(self)

    build = pdf.RulebookDocument.build

    def numbered(self: pdf.RulebookDocument, *args: object, **kwargs: object) -> None:
        pdf.CJKParagraph._pnp_pass = self._passes + 1  # type: ignore[attr-defined]
        build(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pdf.CJKParagraph, "draw", counted)
    monkeypatch.setattr(pdf.RulebookDocument, "build", numbered)
    render_reading_edition(mineventure, tmp_path / "book.pdf", TEMPLATES)
    assert drawn and set(drawn) == {2}


def _contents_height(entries: int) -> tuple[float, float, bool]:
    """The height of a contents list of `entries` lines (every third a subsection), the
    room its page has for it, and whether it was set closer to fit."""
    import io

    from reportlab.pdfgen.canvas import Canvas
    from reportlab.platypus.tableofcontents import TableOfContents

    from pnp.render.fonts import prepare_cjk_fonts

    styles = pdf.Styles(prepare_cjk_fonts())
    contents = TableOfContents(levelStyles=styles.toc, dotsMinLevel=0)
    levels = [1 if n % 3 == 2 else 0 for n in range(entries)]
    contents.addEntries([(level, f"第 {n} 节", n, f"s{n}") for n, level in enumerate(levels)])
    pdf._fit_contents(contents, levels, styles)
    contents.beforeBuild()  # what multiBuild does: the entries become the ones shown
    contents.canv = Canvas(io.BytesIO())  # its lines' dots are drawn through one
    width = pdf.A5[0] - 2 * pdf.MARGIN_X
    room = pdf.A5[1] - pdf.MARGIN_TOP - pdf.MARGIN_BOTTOM
    room -= styles.h1.spaceBefore + styles.h1.leading + styles.h1.spaceAfter
    return contents.wrap(width, 1e6)[1], room, contents.levelStyles is not styles.toc


def test_a_long_contents_is_set_closer_to_keep_to_its_page_and_a_short_one_is_not() -> None:
    height, room, fitted = _contents_height(29)  # MineVenture's
    assert fitted and height <= room
    height, room, fitted = _contents_height(20)
    assert not fitted and height <= room
    # Too many to fit readably: set as usual, over two pages.
    height, room, fitted = _contents_height(60)
    assert not fitted and height > room


def _pages_of(after_figure: str) -> dict[str, int]:
    """Where a page of text, a figure too tall for the rest of that page and `after_figure`
    (a short paragraph, a heading, or a heading and its paragraph) land in the reading edition."""
    import io

    from reportlab.platypus import CondPageBreak, Spacer, Table

    from pnp.render.fonts import prepare_cjk_fonts

    fonts = prepare_cjk_fonts("正文后文标题图")
    styles = pdf.Styles(fonts)
    document = pdf.RulebookDocument(io.BytesIO(), title="t", fonts=fonts, footer="f")
    figure = Table([[pdf.para("图", styles.small)]], rowHeights=[pdf.mm(80)])
    following = {
        "heading": [pdf.Heading("标题", styles.h1, "next", 0)],
        "paragraph": [pdf.para("后文", styles.body)],
        "section": [
            CondPageBreak(pdf.mm(30)),
            pdf.Heading("标题", styles.h1, "next", 0),
            pdf.para("后文" * 30, styles.body),  # two lines and more
        ],
        "one line": [pdf.Heading("标题", styles.h1, "next", 0), pdf.para("后文", styles.body)],
    }[after_figure]
    story = [
        Spacer(1, document.height - pdf.mm(60)),
        pdf.para("正文", styles.body),
        pdf.FloatingFigure([figure]),
        *following,
    ]
    document.build(story)
    found = {"".join(b.lines) or "figure": b.page for b in document.blocks if b.lines or b.cells}
    return {text[:2]: page for text, page in found.items()}


def test_a_figure_too_tall_for_the_rest_of_the_page_lets_the_text_after_it_go_first() -> None:
    assert _pages_of("paragraph") == {"正文": 1, "后文": 1, "fi": 2}
    # The next section's heading and its paragraph go first too, filling the page...
    assert _pages_of("section") == {"正文": 1, "标题": 1, "后文": 1, "fi": 2}
    # ...but never a heading alone at the foot of the page, nor with one line under it.
    assert _pages_of("heading") == {"正文": 1, "fi": 2, "标题": 2}
    assert _pages_of("one line") == {"正文": 1, "fi": 2, "标题": 2, "后文": 2}
