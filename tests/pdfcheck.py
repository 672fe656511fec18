"""Reading PDFs back as a print shop's preflight would: the fonts a page uses."""

from __future__ import annotations

from typing import Any


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
