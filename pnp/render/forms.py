"""Faces drawn once per document as form XObjects and placed by reference.

A deck repeats its backs and faces; a rulebook's pictures show the same board, cards and
pieces in figure after figure, and its card appendix shows them again. Drawn out each time,
a face's operators are written into the page once per appearance (a MineVenture board is
thousands of operators); as a form they are written once and each appearance is one
``Do``, at whatever scale it is placed.
"""

from __future__ import annotations

from pathlib import Path
from weakref import WeakKeyDictionary

from reportlab.pdfgen.canvas import Canvas

from pnp.layout.primitives import Face
from pnp.render.draw import DrawReport, draw_face
from pnp.render.fonts import FontSet


class FaceForms:
    """The forms of one document: each distinct face drawn once, named by what it draws.

    With `with_bleed` a form holds the face's bleed too (a sheet cuts it); without, it is
    the trimmed face (a picture in a book), its bounding box clipping whatever a shape draws
    past the trim.
    """

    def __init__(
        self,
        canvas: Canvas,
        fonts: FontSet,
        report: DrawReport,
        content_root: Path | None,
        *,
        with_bleed: bool = True,
        prefix: str = "Face",
    ) -> None:
        self.canvas, self.fonts, self.report = canvas, fonts, report
        self.content_root, self.with_bleed, self.prefix = content_root, with_bleed, prefix
        self.names: dict[tuple[object, ...], str] = {}
        # The copies of an item are one Face object: its shapes are hashed once, not per copy.
        self.named_faces: dict[int, tuple[Face, str]] = {}

    def name_for(self, face: Face) -> str:
        known = self.named_faces.get(id(face))
        if known is not None and known[0] is face:
            return known[1]
        name = self._name_by_content(face)
        self.named_faces[id(face)] = (face, name)
        return name

    def _name_by_content(self, face: Face) -> str:
        # Keyed by what is drawn, not by which item it is: the 96 identical backs of a deck
        # become one form, and so do the two decks' copies of each face.
        content = (face.width, face.height, face.bleed, face.shapes)
        name = self.names.get(content)
        if name is None:
            name = f"{self.prefix}{len(self.names)}"
            self.names[content] = name
            b = face.bleed if self.with_bleed else 0.0
            self.canvas.beginForm(name, -b, -b, face.width + b, face.height + b)
            draw_face(self.canvas, face, self.fonts, self.report, self.content_root)
            self.canvas.endForm()
        return name

    def place(self, face: Face, x: float, y: float, width: float) -> float:
        """Draw `face` scaled to `width` with its trim's bottom-left at (x, y); returns the
        height it takes."""
        canvas = self.canvas
        name = self.name_for(face)
        scale = width / face.width
        canvas.saveState()
        canvas.translate(x, y)
        canvas.scale(scale, scale)
        canvas.doForm(name)
        canvas.restoreState()
        return face.height * scale


_DOCUMENT_FORMS: WeakKeyDictionary[Canvas, FaceForms] = WeakKeyDictionary()


def document_forms(canvas: Canvas, fonts: FontSet, content_root: Path | None) -> FaceForms:
    """The trimmed-face forms of the document `canvas` writes, shared by every flowable that
    draws a face on it (each pass of a multi-pass build is a new canvas: its own forms)."""
    forms = _DOCUMENT_FORMS.get(canvas)
    if forms is None:
        forms = _DOCUMENT_FORMS[canvas] = FaceForms(
            canvas, fonts, DrawReport(), content_root, with_bleed=False, prefix="Figure"
        )
    return forms
