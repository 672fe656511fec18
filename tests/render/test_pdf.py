"""The PDF canvas: reportlab's serialisation made faster writes the same bytes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from reportlab.pdfbase import pdfdoc

from pnp.paths import REPOSITORY
from pnp.render import reportlab_adapter as adapter
from pnp.render.fonts import FontSet
from pnp.render.pdf import new_canvas
from tests.render.test_fonts import cjk_fonts

__all__ = ["cjk_fonts"]

EVERY_CHARACTER = [chr(code) for code in range(0x2FF)]


def _encoded(text: str) -> object:
    try:
        return adapter._pdfdoc_encoded(text)
    except UnicodeEncodeError as error:
        return type(error)


def _encoded_fast(text: str) -> object:
    try:
        return adapter._pdfdoc_encoded_fast(text)
    except UnicodeEncodeError as error:
        return type(error)


@pytest.mark.parametrize(
    "module", ["pnp.render.pdf", "pnp.rulebook.pdf", "pnp.render.cover", "pnp.render.designer"]
)
def test_a_process_that_imports_one_pdf_maker_alone_writes_with_pnp_settings(module: str) -> None:
    # A rulebook built alone in a fresh process once had ASCII85 streams, one built after a
    # kit none: each module that opens a PDF must bring the settings with it.
    probe = (
        f"import {module}\n"
        "from reportlab import rl_config\n"
        "from reportlab.pdfbase import pdfdoc\n"
        "print(rl_config.useA85, pdfdoc.format.__name__)"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=REPOSITORY
    )
    assert result.stdout.split() == ["0", "_formatted_fast"]


def test_serialisation_is_replaced_once_pnp_draws() -> None:
    assert pdfdoc.pdfdocEnc is adapter._pdfdoc_encoded_fast
    assert pdfdoc.PDFName("Face 1") == adapter._pdf_name("Face 1")
    assert pdfdoc.format is adapter._formatted_fast


def test_every_character_encodes_as_reportlab_encodes_it() -> None:
    for character in EVERY_CHARACTER:
        for text in (character, f"1 0 obj {character}\n", character * 3):
            assert _encoded_fast(text) == _encoded(text), f"U+{ord(character):04X}"
            assert pdfdoc.PDFName(text) == adapter._pdf_name(text), f"U+{ord(character):04X}"
    assert adapter._pdfdoc_encoded_fast(b"\x18bytes") == b"\x18bytes"


def _formatted(formatter: object, element: object) -> object:
    try:
        return formatter(element, None)  # type: ignore[operator]
    except UnicodeEncodeError as error:
        return type(error)


def test_every_kind_of_value_formats_as_reportlab_formats_it() -> None:
    values: list[object] = [*EVERY_CHARACTER, "Face 1", "", b"\x00raw", 0, -1, 2**40]
    values += [0.5, -3.14159265, 1 / 3, 1e-7, 1e20, True, None, ("a", 1), 7.0]
    for value in values:
        assert _formatted(adapter._formatted_fast, value) == _formatted(
            adapter._formatted, value
        ), value
    # A PDF object formats itself as it always did.
    assert adapter._formatted_fast(
        pdfdoc.PDFString("牌"), pdfdoc.PDFDocument()
    ) == adapter._formatted(pdfdoc.PDFString("牌"), pdfdoc.PDFDocument())


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
    monkeypatch.setattr(pdfdoc, "pdfdocEnc", adapter._pdfdoc_encoded)
    monkeypatch.setattr(pdfdoc, "PDFName", adapter._pdf_name)
    monkeypatch.setattr(pdfdoc, "format", adapter._formatted)
    assert _sheet(tmp_path / "reportlab.pdf", cjk_fonts) == fast
