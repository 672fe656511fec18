"""The PDF canvas: reportlab's serialisation made faster writes the same bytes."""

from __future__ import annotations

from pathlib import Path

import pytest
from reportlab.pdfbase import pdfdoc

from pnp.render import pdf
from pnp.render.fonts import FontSet
from pnp.render.pdf import new_canvas
from tests.render.test_fonts import cjk_fonts

__all__ = ["cjk_fonts"]

EVERY_CHARACTER = [chr(code) for code in range(0x2FF)]


def _encoded(text: str) -> object:
    try:
        return pdf._pdfdoc_encoded(text)
    except UnicodeEncodeError as error:
        return type(error)


def _encoded_fast(text: str) -> object:
    try:
        return pdf._pdfdoc_encoded_fast(text)
    except UnicodeEncodeError as error:
        return type(error)


def test_serialisation_is_replaced_once_pnp_draws() -> None:
    assert pdfdoc.pdfdocEnc is pdf._pdfdoc_encoded_fast
    assert pdfdoc.PDFName("Face 1") == pdf._pdf_name("Face 1")
    assert pdfdoc.format is pdf._formatted_fast


def test_every_character_encodes_as_reportlab_encodes_it() -> None:
    for character in EVERY_CHARACTER:
        for text in (character, f"1 0 obj {character}\n", character * 3):
            assert _encoded_fast(text) == _encoded(text), f"U+{ord(character):04X}"
            assert pdfdoc.PDFName(text) == pdf._pdf_name(text), f"U+{ord(character):04X}"
    assert pdf._pdfdoc_encoded_fast(b"\x18bytes") == b"\x18bytes"


def _formatted(formatter: object, element: object) -> object:
    try:
        return formatter(element, None)  # type: ignore[operator]
    except UnicodeEncodeError as error:
        return type(error)


def test_every_kind_of_value_formats_as_reportlab_formats_it() -> None:
    values: list[object] = [*EVERY_CHARACTER, "Face 1", "", b"\x00raw", 0, -1, 2**40]
    values += [0.5, -3.14159265, 1 / 3, 1e-7, 1e20, True, None, ("a", 1), 7.0]
    for value in values:
        assert _formatted(pdf._formatted_fast, value) == _formatted(pdf._formatted, value), value
    # A PDF object formats itself as it always did.
    assert pdf._formatted_fast(pdfdoc.PDFString("牌"), pdfdoc.PDFDocument()) == pdf._formatted(
        pdfdoc.PDFString("牌"), pdfdoc.PDFDocument()
    )


def _sheet(path: Path, fonts: FontSet) -> bytes:
    canvas = new_canvas(path, (200, 200), title="牌 (试印)", font=fonts.regular)
    for number in range(3):
        canvas.beginForm(f"Face{number}", 0, 0, 50, 50)
        canvas.setFont(fonts.bold, 9)
        canvas.drawString(5, 5, f"第{number}张 (#%)")
        canvas.endForm()
        canvas.doForm(f"Face{number}")
        canvas.showPage()
    canvas.save()
    return path.read_bytes()


def test_a_sheet_is_byte_identical_to_reportlabs_own_serialisation(
    cjk_fonts: FontSet, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = _sheet(tmp_path / "fast.pdf", cjk_fonts)
    monkeypatch.setattr(pdfdoc, "pdfdocEnc", pdf._pdfdoc_encoded)
    monkeypatch.setattr(pdfdoc, "PDFName", pdf._pdf_name)
    monkeypatch.setattr(pdfdoc, "format", pdf._formatted)
    assert _sheet(tmp_path / "reportlab.pdf", cjk_fonts) == fast
