"""The Deadline 99 rulebook: booklet order, contents that tell the truth, text from content."""

from __future__ import annotations

import re
from pathlib import Path

import pdfplumber
import pypdf
import pytest

from pnp.content.loader import LoadedGame, load_game
from pnp.kit import paper_size
from pnp.layout.products import layout_product
from pnp.layout.sheets import PRINTER_MARGIN
from pnp.rulebook.build import RulebookFiles, booklet_note, build_rulebook
from pnp.rulebook.impose import booklet_order, booklet_scale, impose_booklet
from pnp.units import POINTS_PER_MM, mm

from ..conftest import TEMPLATES, rulebook_once
from .reading import laid_out_texts, page_texts


@pytest.fixture(scope="module")
def book(deadline_99: LoadedGame, tmp_path_factory: pytest.TempPathFactory) -> RulebookFiles:
    return rulebook_once(tmp_path_factory, deadline_99)


def test_saddle_stitch_order_of_twelve_pages() -> None:
    # Sheet 1 front holds the last and the first page, its back the second and the eleventh.
    assert booklet_order(12) == [(12, 1), (2, 11), (10, 3), (4, 9), (8, 5), (6, 7)]


def test_a_page_count_not_divisible_by_four_is_padded_with_blanks() -> None:
    order = booklet_order(10)
    assert len(order) * 2 == 12
    assert order[0] == (0, 1) and order[1] == (2, 0)  # pages 11 and 12 are blank
    shown = sorted(n for side in order for n in side if n)
    assert shown == list(range(1, 11))


def test_reading_edition_is_a5(book: RulebookFiles) -> None:
    for page in pypdf.PdfReader(book.reading).pages:
        size = (
            float(page.mediabox.width) / POINTS_PER_MM,
            float(page.mediabox.height) / POINTS_PER_MM,
        )
        assert size == pytest.approx((148, 210), abs=0.1)


def test_booklet_is_a4_landscape_with_a_multiple_of_four_pages(book: RulebookFiles) -> None:
    sides = pypdf.PdfReader(book.booklet).pages
    assert (len(sides) * 2) % 4 == 0
    assert len(sides) * 2 >= book.pages
    for side in sides:
        size = (
            float(side.mediabox.width) / POINTS_PER_MM,
            float(side.mediabox.height) / POINTS_PER_MM,
        )
        assert size == pytest.approx((297, 210), abs=0.1)


def test_a_letter_booklet_is_letter_with_its_pages_scaled_to_fit_and_marks_printable(
    book: RulebookFiles, tmp_path: Path
) -> None:
    """A Letter build prints on Letter: the A5 pages shrink to fit two-up (the read-me says
    by how much), meet at the fold, and the fold ticks stay out of the printer's margin."""
    target = tmp_path / "letter-booklet.pdf"
    impose_booklet(book.reading, target, paper_size("letter"))
    scale = booklet_scale((mm(148), mm(210)), paper_size("letter"))
    assert scale == pytest.approx(139.7 / 148, abs=1e-3)
    assert "94%" in booklet_note("letter") and "缩小" not in booklet_note("a4")
    with pdfplumber.open(target) as pdf:
        for side in pdf.pages:
            assert (side.width / POINTS_PER_MM, side.height / POINTS_PER_MM) == pytest.approx(
                (279.4, 215.9), abs=0.1
            )
            for char in side.chars:
                assert char["x0"] >= PRINTER_MARGIN and char["x1"] <= side.width - PRINTER_MARGIN
            for line in side.lines:
                assert line["top"] >= PRINTER_MARGIN - 0.01
                assert line["bottom"] <= side.height - PRINTER_MARGIN + 0.01


def test_a_wider_printer_margin_moves_the_fold_ticks_inside_it(
    book: RulebookFiles, tmp_path: Path
) -> None:
    target = tmp_path / "wide-margin-booklet.pdf"
    impose_booklet(book.reading, target, paper_size("a4"), mm(8))
    with pdfplumber.open(target) as pdf:
        ticks = [line for line in pdf.pages[0].lines if line["x0"] == line["x1"]]
        height = pdf.pages[0].height
    assert ticks
    nearest = min(min(t["top"], height - t["bottom"]) for t in ticks) / POINTS_PER_MM
    assert nearest == pytest.approx(8.0, abs=0.01)


def test_first_sheet_holds_the_last_and_the_first_page(book: RulebookFiles) -> None:
    first, final = laid_out_texts(book.reading, (0, -1))
    with pdfplumber.open(book.booklet) as pdf:
        side = pdf.pages[0]
        half = side.width / 2
        left = side.crop((0, 0, half, side.height)).extract_text()
        right = side.crop((half, 0, side.width, side.height)).extract_text()
    padded = (book.pages + 3) // 4 * 4
    last = final if padded == book.pages else ""
    assert right.split() == first.split()
    assert left.split() == last.split()


def test_contents_list_every_section_with_the_page_it_starts_on(
    book: RulebookFiles, deadline_99: LoadedGame
) -> None:
    texts = page_texts(book.reading)
    contents = texts[1]
    for section in deadline_99.model.rulebook.sections:
        match = re.search(rf"{re.escape(section.title)}\s*[.·…\s]*\s(\d+)", contents)
        assert match, f"{section.title} missing from the contents"
        page = int(match.group(1))
        lines = [line.strip() for line in texts[page - 1].splitlines()]
        assert section.title in lines, f"{section.title} is not on page {page}"


def test_every_section_is_a_bookmark(book: RulebookFiles, deadline_99: LoadedGame) -> None:
    outline = [
        item.title for item in pypdf.PdfReader(book.reading).outline if not isinstance(item, list)
    ]
    for section in deadline_99.model.rulebook.sections:
        assert section.title in outline


def test_numbers_in_the_text_come_from_content(
    book: RulebookFiles, deadline_99: LoadedGame
) -> None:
    text = "\n".join(page_texts(book.reading))
    settings = deadline_99.model.settings
    assert f"每人从抽牌堆抽 {settings.hand_size} 张牌" in text
    assert f"最高 {settings.count_cap}" in text


def test_a_changed_content_value_changes_the_rulebook(content_copy: Path, tmp_path: Path) -> None:
    path = content_copy / "deadline-99" / "game.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("hand_size: 5", "hand_size: 6"), encoding="utf-8"
    )
    game = load_game(content_copy, "deadline-99")
    files = build_rulebook(game, tmp_path, TEMPLATES)
    text = "\n".join(page_texts(files.reading))
    assert "每人从抽牌堆抽 6 张牌" in text
    assert "每人从抽牌堆抽 5 张牌" not in text


def test_worked_examples_are_the_engines(book: RulebookFiles) -> None:
    from pnp.games.deadline_99.examples import rulebook_examples

    text = "\n".join(page_texts(book.reading))
    game = load_game(TEMPLATES.parent / "content", "deadline-99")
    bust = rulebook_examples(game.model)["bust"]
    assert f"计数是 {bust['count']}。你打出 {bust['card']}" in text
    assert bust["out"] is True and bust["after"] == bust["count"]


def test_the_pdfs_are_byte_identical_across_builds(deadline_99: LoadedGame, tmp_path: Path) -> None:
    # Two builds back to back: the session's rulebook was built before other tests taught
    # the fonts glyphs, which moves subset codes (a build process prepares its fonts first).
    first = build_rulebook(deadline_99, tmp_path / "first", TEMPLATES)
    again = build_rulebook(deadline_99, tmp_path / "again", TEMPLATES)
    assert again.reading.read_bytes() == first.reading.read_bytes()
    assert again.booklet.read_bytes() == first.booklet.read_bytes()


def test_the_pictures_do_not_depend_on_what_the_process_laid_out_before(
    deadline_99: LoadedGame, tmp_path: Path
) -> None:
    first = build_rulebook(deadline_99, tmp_path / "first", TEMPLATES)
    # A cold cache checks the content (laying every face out) before the rulebook; a warm one
    # does not; a build at another bleed lays the kit out at that bleed. None of it may show.
    for product in deadline_99.model.products:
        for bleed in (0.0, mm(5)):
            layout_product(deadline_99, product, TEMPLATES, bleed)
    again = build_rulebook(deadline_99, tmp_path / "again", TEMPLATES)
    assert again.reading.read_bytes() == first.reading.read_bytes()


def test_every_font_of_both_editions_is_embedded(book: RulebookFiles) -> None:
    from tests.pdfcheck import page_fonts

    for path in (book.reading, book.booklet):
        fonts: dict[str, object] = {}
        for page in pypdf.PdfReader(path).pages:
            page_fonts(page.get("/Resources"), fonts)
        assert fonts
        for name, font in fonts.items():
            descriptor = font.get("/FontDescriptor")  # type: ignore[attr-defined]
            assert descriptor is not None, f"{path.name}: {name} is not embedded"
            assert "/FontFile2" in descriptor.get_object(), f"{path.name}: {name}"


def test_glossary_rows_carry_their_icons(book: RulebookFiles, deadline_99: LoadedGame) -> None:
    """A term an icon stands for (the icon's `term`, or the row's own `icon`) is printed with
    that icon before it, drawn as a path on the term's line; a term without one has none."""
    by_term = {icon.term: icon for icon in deadline_99.model.icons if icon.term}
    assert "出局" in by_term  # the shared skull
    with pdfplumber.open(str(book.reading)) as pdf:
        # the glossary's page that holds the term (the table may run over two pages)
        page, words = next(
            (p, p.extract_words())
            for p in pdf.pages
            if "术语" in (p.extract_text() or "")
            and "含义" in (p.extract_text() or "")
            and any(
                w["text"].startswith("出局") and w["x0"] < p.width / 3 for w in p.extract_words()
            )
        )
        out = next(w for w in words if w["text"].startswith("出局") and w["x0"] < page.width / 3)
        beside = [
            c
            for c in page.curves
            if c["x1"] <= out["x0"] + 0.5
            and out["x0"] - c["x0"] < 20
            and abs(c["bottom"] - out["bottom"]) < 4
        ]
        assert beside, "no icon before the term"  # the skull: its outline, eyes and nose
        bare = [e.term for e in deadline_99.model.rulebook.glossary if e.term not in by_term]
        plain = next(
            w
            for w in words
            if any(w["text"].startswith(term) for term in bare) and w["x0"] < page.width / 3
        )
        assert not [
            c
            for c in page.curves
            if abs(c["bottom"] - plain["bottom"]) < 4 and c["x1"] <= plain["x0"] + 0.5
        ]
