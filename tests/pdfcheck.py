"""Reading PDFs back as a print shop's preflight would: the fonts a page uses, and every
resource its content streams name."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pypdf import PdfReader
from pypdf.generic import ContentStream, DictionaryObject


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


def undefined_resources(path: Path) -> list[str]:
    """Every resource name a content stream uses that its resources do not define, as
    ``page N: /Font /F1`` — what a preflight flags as a broken reference. Form XObjects are
    walked too, with their own resources (or the page's when they have none)."""
    reader = PdfReader(path)
    problems: list[str] = []

    def walk(stream: Any, resources: Any, where: str, depth: int) -> None:
        resources = resources.get_object() if resources is not None else DictionaryObject()
        for operands, operator in ContentStream(stream, reader).operations:
            category = _RESOURCE_OF_OPERATOR.get(operator)
            if category is None or not operands:
                continue
            name = operands[0]
            if category == "/ColorSpace" and name in _BUILT_IN_COLOUR_SPACES:
                continue
            defined = (resources.get(category) or DictionaryObject()).get_object()
            if name not in defined:
                problems.append(f"{where}: {category} {name}")
                continue
            target = defined[name].get_object()
            if category == "/XObject" and target.get("/Subtype") == "/Form" and depth < 8:
                walk(target, target.get("/Resources") or resources, f"{where} {name}", depth + 1)

    for number, page in enumerate(reader.pages, start=1):
        contents = page.get_contents()
        if contents is not None:
            walk(contents, page.get("/Resources"), f"page {number}", 0)
    return problems
