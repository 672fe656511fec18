"""Reading PDFs back as a print shop's preflight would: the fonts a page uses, and every
resource its content streams name."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pypdf import PdfReader
from pypdf.generic import DictionaryObject, NameObject


def pdf_texts(path: Path) -> list[str]:
    """The text of every page in the order it is drawn, lines as they were set (pdfium, in C:
    pdfplumber's layout order took 46 s of CPU for MineVenture's rulebook, this 0.3 s)."""
    import pypdfium2

    document = pypdfium2.PdfDocument(path)
    try:
        texts = []
        for page in document:
            text_page = page.get_textpage()
            texts.append(text_page.get_text_range().replace("\r\n", "\n").replace("\r", "\n"))
            text_page.close()
            page.close()
        return texts
    finally:
        document.close()


def page_fonts(resources: Any, found: dict[str, Any] | None = None) -> dict[str, Any]:
    """Every font a page's resources use, including those inside its form XObjects."""
    found = {} if found is None else found
    resources = resources.get_object() if resources is not None else None
    if resources:
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            found[font["/BaseFont"]] = font
        for xobject in (resources.get("/XObject") or {}).values():
            page_fonts(xobject.get_object().get("/Resources"), found)
    return found


_RESOURCE_OF_OPERATOR = {
    b"Tf": "/Font",
    b"Do": "/XObject",
    b"gs": "/ExtGState",
    b"sh": "/Shading",
    b"cs": "/ColorSpace",
    b"CS": "/ColorSpace",
}
_BUILT_IN_COLOUR_SPACES = {"/DeviceRGB", "/DeviceGray", "/DeviceCMYK", "/Pattern"}


# A literal string (skipped: reportlab escapes every parenthesis inside one, and a string may
# hold any text), or a name with the numbers after it and an operator that takes a resource
# (ISO 32000-1, 7.2 and 8.1). The regex engine scans the stream; Python sees only the matches.
_RESOURCE_USE = re.compile(
    rb"""\((?:[^()\\]|\\.)*\)"""
    rb"|/([^\s/\[\]()<>{}%]*)\s+(?:[+-]?(?:\d+\.?\d*|\.\d+)\s+)*(Tf|Do|gs|sh|cs|CS)(?![^\s/\[\]()<>{}%])",
    re.DOTALL,
)


def _name(raw: bytes) -> str:
    unescaped = re.sub(rb"#([0-9A-Fa-f]{2})", lambda m: bytes([int(m[1], 16)]), raw)
    return str(NameObject("/" + unescaped.decode("latin-1")))


def resource_uses(data: bytes) -> Iterator[tuple[str, bytes]]:
    """(resource name, operator) for each use in a decoded content stream. pypdf's own parser
    reads a whole kit's pages in about a minute; this in about a second."""
    for match in _RESOURCE_USE.finditer(data):
        if match[2] is not None:
            yield _name(match[1]), match[2]


def undefined_resources(path: Path) -> list[str]:
    """Every resource name a content stream uses that its resources do not define, as
    ``page N: /Font /F1`` — what a preflight flags as a broken reference. Form XObjects are
    walked too, with their own resources (or the page's when they have none)."""
    reader = PdfReader(path)
    problems: list[str] = []
    walked: set[tuple[int, int]] = set()
    alive: list[Any] = []  # what `walked` names by id stays alive, so no id is reused

    def walk(stream: Any, resources: Any, where: str, depth: int) -> None:
        resources = resources.get_object() if resources is not None else DictionaryObject()
        for name, operator in resource_uses(stream.get_data()):
            category = _RESOURCE_OF_OPERATOR[operator]
            if category == "/ColorSpace" and name in _BUILT_IN_COLOUR_SPACES:
                continue
            defined = (resources.get(category) or DictionaryObject()).get_object()
            if name not in defined:
                problems.append(f"{where}: {category} {name}")
                continue
            target = defined[name].get_object()
            form = (id(target), id(resources))  # a form used again has nothing new to show
            if category == "/XObject" and target.get("/Subtype") == "/Form" and depth < 8:
                if form in walked:
                    continue
                walked.add(form)
                alive.append((target, resources))
                walk(target, target.get("/Resources") or resources, f"{where} {name}", depth + 1)

    for number, page in enumerate(reader.pages, start=1):
        contents = page.get_contents()
        if contents is not None:
            walk(contents, page.get("/Resources"), f"page {number}", 0)
    return problems
