"""The kit's faces as the table shows them: drawn by the kit's renderer, rasterised by the
export's rasteriser (:mod:`pnp.export.faces`), kept in memory as PNG bytes.

Faces are drawn without bleed (a table shows the trimmed card) at a resolution that gives a
card some 370 pixels on its long side and a board at most 1,800: sharp on a screen, small on
the wire. pdfium is not thread-safe, so one lock serialises every rasterising; the server
warms the store in a worker thread as it starts, so a page's first load finds its faces made.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterable
from pathlib import Path

from pnp.content.loader import LoadedGame
from pnp.engines.view import FaceRef
from pnp.export.faces import Rasteriser, collect, face_key, png_bytes
from pnp.layout.primitives import Face, TextShape
from pnp.model.common import Track
from pnp.units import POINTS_PER_INCH

CARD_DPI = 150.0
LONGEST_PIXELS = 1800.0
"""The long side of a large face (a board) at most, in pixels."""


class FaceStore:
    """Every face of a game's kit by (product, item, side), rasterised on demand."""

    def __init__(self, game: LoadedGame, templates_root: Path) -> None:
        products, self._rasteriser = collect(game, templates_root, bleed_mm=0)
        # The page writes the content's names (a card's, a space's) in the kit's own font:
        # give it every character of the model, not only those the faces print.
        from pnp.render.fonts import prepare_cjk_fonts

        self.fonts = prepare_cjk_fonts(model_text(game.model))
        self._faces: dict[FaceRef, Face] = {}
        self.tracks: dict[tuple[str, str], Track] = {}
        self.first_item: dict[str, str] = {}
        for product in products:
            for track in product.product.tracks:
                self.tracks[(product.product.id, track.id)] = track
            for item in product.items:
                ref = FaceRef(product.product.id, item.id)
                self.first_item.setdefault(ref.product, ref.item)
                self._faces[ref] = item.front
                if item.back is not None:
                    self._faces[ref.back_of] = item.back
        self._png: dict[tuple[object, ...], bytes] = {}
        self._lock = threading.Lock()
        self._anchors: dict[tuple[FaceRef, str], tuple[float, float, float, float] | None] = {}

    @property
    def rasteriser(self) -> Rasteriser:
        return self._rasteriser

    def __contains__(self, ref: object) -> bool:
        return ref in self._faces

    def refs(self) -> list[FaceRef]:
        return list(self._faces)

    def size_mm(self, ref: FaceRef) -> tuple[float, float]:
        face = self._faces[ref]
        return face.width / 72 * 25.4, face.height / 72 * 25.4

    def anchor(self, ref: FaceRef, text: str) -> tuple[float, float, float, float] | None:
        """The box of the first text ``text`` printed on a face, as fractions of the face from
        its top left corner (left, top, width, height); None when the face prints no such
        text. Layout places shapes in PDF space, from the bottom left."""
        key = (ref, text)
        if key not in self._anchors:
            face = self._faces.get(ref)
            found = None
            if face is not None:
                for shape in face.shapes:
                    if isinstance(shape, TextShape) and shape.text.strip() == text:
                        found = (
                            shape.x / face.width,
                            1 - (shape.y + shape.height) / face.height,
                            shape.width / face.width,
                            shape.height / face.height,
                        )
                        break
            self._anchors[key] = found
        return self._anchors[key]

    def png(self, ref: FaceRef) -> bytes:
        """The PNG of one face (KeyError when the kit has no such face)."""
        face = self._faces[ref]
        key = face_key(face)
        found = self._png.get(key)
        if found is None:
            self.warm([ref])
            found = self._png[key]
        return found

    def warm(self, refs: Iterable[FaceRef]) -> None:
        """Rasterise the faces of ``refs`` not made yet, one document per resolution."""
        with self._lock:
            wanted: dict[float, dict[tuple[object, ...], Face]] = {}
            for ref in refs:
                face = self._faces[ref]
                key = face_key(face)
                if key not in self._png:
                    wanted.setdefault(_dpi(face), {})[key] = face
            for dpi, faces in wanted.items():
                # `pages` keeps no image: the store keeps the PNG bytes alone.
                with self._rasteriser.pages(list(faces.values()), dpi) as image_of:
                    for index, key in enumerate(faces):
                        self._png[key] = png_bytes(image_of(index), dpi)


def model_text(model: object) -> str:
    """Every character of the model's text fields, once each."""
    found: set[str] = set()
    seen: set[int] = set()

    def walk(value: object) -> None:
        if isinstance(value, str):
            found.update(value)
        elif isinstance(value, (tuple, list, frozenset, set)):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            for key, item in value.items():
                walk(key)
                walk(item)
        elif dataclasses.is_dataclass(value) and not isinstance(value, type):
            if id(value) in seen:
                return
            seen.add(id(value))
            for f in dataclasses.fields(value):
                walk(getattr(value, f.name))

    walk(model)
    return "".join(sorted(found))


def _dpi(face: Face) -> float:
    longest = max(face.width, face.height) / POINTS_PER_INCH
    return round(min(CARD_DPI, LONGEST_PIXELS / longest), 1)
