"""The card appendix closes each rulebook without a page a player turns to for almost nothing:
the last page holds at least two entries or is at least half full, and no deck's heading is
left at a page foot with its first entry on the next page."""

from __future__ import annotations

from pathlib import Path

import pypdfium2
import pytest

from pnp.content.loader import load_game
from pnp.model.common import ProductKind
from pnp.rulebook.pdf import MARGIN_BOTTOM, MARGIN_TOP
from tests.conftest import CONTENT, rulebook_once

GAMES = ["arena-tales", "deadline-99", "dragon-hoard", "maquis", "mineventure"]


def page_feet(path: Path) -> list[tuple[float, str, str]]:
    """Each page's lowest line of text above the footer: its bottom (points from the page
    foot) and its text; and the page's whole text."""
    document = pypdfium2.PdfDocument(path)
    try:
        feet = []
        for page in document:
            text = page.get_textpage()
            width = page.get_width()
            # pdfium's text runs: far fewer to read than characters
            runs = [text.get_rect(n) for n in range(text.count_rects())]
            body = [run for run in runs if run[1] > MARGIN_BOTTOM]  # the footer: in the margin
            if body:
                lowest = min(body, key=lambda run: run[1])
                bottom, top = lowest[1], lowest[3]
                line = text.get_text_bounded(0, bottom - 1, width, top + 1)
                feet.append((bottom, "".join(line.split()), text.get_text_range()))
            else:
                feet.append((page.get_height(), "", text.get_text_range()))
            text.close()
            page.close()
        return feet
    finally:
        document.close()


@pytest.mark.parametrize("slug", GAMES)
def test_the_last_page_is_not_a_near_empty_one(
    slug: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    game = load_game(CONTENT, slug)
    book = rulebook_once(tmp_path_factory, game)
    feet = page_feet(book.reading)
    bottom, _, text = feet[-1]
    entries = text.count("×")
    document = pypdfium2.PdfDocument(book.reading)
    try:
        height = document[0].get_height()
    finally:
        document.close()
    filled = (height - MARGIN_TOP - bottom) / (height - MARGIN_TOP - MARGIN_BOTTOM)
    assert entries >= 2 or filled >= 0.5, (
        f"{slug}: the last page holds {entries} entry and is {filled:.0%} full: {text!r}"
    )
    # and no deck's heading waits alone at a page foot
    titles = {p.title for p in game.model.products if p.kind is ProductKind.CARDS}
    for number, (_, line, _) in enumerate(feet, 1):
        assert line not in titles, f"{slug}: page {number} ends on the heading {line!r}"
