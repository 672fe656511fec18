"""Every PDF a build writes passes the preflight check a print shop runs first: each resource a
content stream names (fonts, images, forms, graphics states) is defined where it is used."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.content.loader import load_game
from pnp.registry import games
from tests.conftest import CONTENT, kit_once, rulebook_once
from tests.pdfcheck import undefined_resources


@pytest.mark.parametrize("slug", sorted(games()))
def test_every_pdf_of_a_kit_defines_every_resource_it_uses(
    slug: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    # The kit and the rulebook the other tests read, built once: the same drawing code.
    game = load_game(CONTENT, slug)
    book = rulebook_once(tmp_path_factory, game)
    pdfs = [*sorted(kit_once(tmp_path_factory, game).glob("*.pdf")), book.reading, book.booklet]
    assert any(pdf.name.endswith("-rulebook-booklet.pdf") for pdf in pdfs)
    assert any(pdf.name.endswith("-00-read-me-first.pdf") for pdf in pdfs)
    problems = {pdf.name: undefined_resources(pdf) for pdf in pdfs}
    assert {name: found for name, found in problems.items() if found} == {}


def test_the_check_finds_a_font_a_page_does_not_define(tmp_path: Path) -> None:
    from reportlab.pdfgen.canvas import Canvas

    path = tmp_path / "broken.pdf"
    canvas = Canvas(str(path), invariant=1, pageCompression=0)
    canvas.setFont("Helvetica", 10)
    canvas.drawString(10, 10, "x")
    canvas.save()
    assert undefined_resources(path) == []
    # Same length, so the cross-reference table stays right: only the name is broken.
    path.write_bytes(path.read_bytes().replace(b"/F1 10 Tf", b"/F9 10 Tf"))
    assert undefined_resources(path) == ["page 1: /Font /F9"]


def test_the_check_walks_into_forms_and_skips_what_strings_say(tmp_path: Path) -> None:
    from reportlab.pdfgen.canvas import Canvas

    path = tmp_path / "form.pdf"
    canvas = Canvas(str(path), invariant=1, pageCompression=0)
    canvas.beginForm("card")
    canvas.setFont("Helvetica", 10)
    canvas.drawString(10, 10, "/F7 10 Tf and /X9 Do are only words here")
    canvas.endForm()
    for _ in range(3):
        canvas.doForm("card")
    canvas.save()
    assert undefined_resources(path) == []
    path.write_bytes(path.read_bytes().replace(b"/F1 10 Tf", b"/F9 10 Tf"))
    assert undefined_resources(path) == ["page 1 /FormXob.card: /Font /F9"]
