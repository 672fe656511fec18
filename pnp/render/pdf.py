"""Opening and finishing PDFs: deterministic, fonts embedded, never half-written."""

from __future__ import annotations

from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

import pnp.render.reportlab_adapter  # noqa: F401  (its process-wide settings)


def new_canvas(path: Path, page_size: tuple[float, float], *, title: str, font: str) -> Canvas:
    """A canvas whose output is byte-identical for identical drawing (invariant=1).

    Its initial font is the embedded CJK face, so no unembedded Helvetica sneaks in.
    """
    canvas = Canvas(
        str(path),
        pagesize=page_size,
        invariant=1,
        pageCompression=1,
        initialFontName=font,
    )
    canvas.setTitle(title)
    canvas.setAuthor("pnp")
    canvas.setCreator("pnp")
    canvas.setSubject(title)
    return canvas
