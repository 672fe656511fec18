"""The seven faces whose text was set larger to fill what stood empty (Deadline 99's reference
and variant cards, Dragon Hoard's speed aid and hourglass card, Arena Tales' card effects,
MAQUIS's round summary and difficulty sheet): their text still fits its box at the larger
size, never falls back to the old small size, and no wide band of the face is left blank."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import pytest

from pnp.content.loader import LoadedGame, load_game
from pnp.layout.primitives import (
    CircleShape,
    Face,
    IconShape,
    ImageShape,
    LineShape,
    PolygonShape,
    RectShape,
    Shape,
    TextShape,
)
from pnp.layout.products import layout_product
from pnp.render.fonts import prepare_cjk_fonts
from pnp.render.text import fit_text_shape
from tests.conftest import CONTENT, TEMPLATES


@dataclass(frozen=True)
class Enlarged:
    game: str
    product: str
    side: int  # 0: the front of each item, 1: its back
    old_size: float  # the body's size before it was enlarged: it must stay above it
    body_fill: float  # the least share of its box the body's printed lines take
    most_blank: float  # the widest blank band across the face allowed, as a share of its height


FACES = [
    Enlarged("deadline-99", "reference-cards", 0, 7.5, 0.8, 0.2),
    Enlarged("deadline-99", "variant-cards", 0, 9.0, 0.5, 0.2),
    Enlarged("dragon-hoard", "round-aid", 1, 7.0, 0.8, 0.2),  # its back is the speed aid
    Enlarged("dragon-hoard", "timer-card", 0, 7.0, 0.8, 0.2),
    Enlarged("arena-tales", "character-decks", 0, 8.5, 0.15, 0.25),
    Enlarged("maquis", "round-summary", 0, 10.5, 0.7, 0.2),
    Enlarged("maquis", "difficulty-reference", 0, 9.5, 0.5, 0.2),
]


@cache
def _game(slug: str) -> LoadedGame:
    return load_game(CONTENT, slug)


def _faces(spec: Enlarged) -> list[Face]:
    game = _game(spec.game)
    product = next(p for p in game.model.products if p.id == spec.product)
    laid = layout_product(game, product, TEMPLATES, 0.0)
    faces = [run[spec.side] for run in laid.runs]
    return [face for face in faces if isinstance(face, Face)]


def _span(shape: Shape, font: str) -> tuple[float, float] | None:
    """The vertical extent (bottom, top, PDF points) of what a shape prints."""
    if isinstance(shape, TextShape):
        if not shape.text.strip():
            return None
        printed = fit_text_shape(shape, font).height
        if shape.valign == "top":
            return shape.y + shape.height - printed, shape.y + shape.height
        if shape.valign == "bottom":
            return shape.y, shape.y + printed
        middle = shape.y + shape.height / 2
        return middle - printed / 2, middle + printed / 2
    if isinstance(shape, RectShape | ImageShape | IconShape):
        return shape.y, shape.y + shape.height
    if isinstance(shape, CircleShape):
        return shape.cy - shape.r, shape.cy + shape.r
    if isinstance(shape, LineShape):
        return min(shape.y1, shape.y2), max(shape.y1, shape.y2)
    if isinstance(shape, PolygonShape):
        ys = [y for _, y in shape.points]
        return min(ys), max(ys)
    return None


def widest_blank_band(face: Face, font: str) -> float:
    """The tallest horizontal band of the face (a share of its height) where nothing prints
    but the paper: backgrounds, frames and panels as large as half the face do not count as
    filling it."""
    half = face.width * face.height / 2
    spans: list[tuple[float, float]] = []
    for shape in face.shapes:
        if isinstance(shape, RectShape) and shape.width * shape.height >= half:
            continue
        span = _span(shape, font)
        if span is not None:
            spans.append((max(span[0], 0.0), min(span[1], face.height)))
    widest, reached = 0.0, 0.0
    for bottom, top in sorted(spans):
        widest = max(widest, bottom - reached)
        reached = max(reached, top)
    return max(widest, face.height - reached) / face.height


@pytest.mark.parametrize("spec", FACES, ids=lambda spec: f"{spec.game}:{spec.product}")
def test_the_enlarged_text_fits_and_leaves_no_wide_blank_band(spec: Enlarged) -> None:
    font = prepare_cjk_fonts().regular
    faces = _faces(spec)
    assert faces
    for face in faces:
        texts = [s for s in face.shapes if isinstance(s, TextShape) and s.text.strip()]
        fitted = {s: fit_text_shape(s, font) for s in texts}
        overflowing = [s.text[:20] for s, f in fitted.items() if f.overflow]
        assert not overflowing, f"{face.key}: text does not fit its box: {overflowing}"
        # the body is the text box with the most room on the face
        body = max(texts, key=lambda s: s.width * s.height)
        printed = fitted[body]
        assert printed.size > spec.old_size, (face.key, printed.size)
        assert printed.height >= spec.body_fill * body.height, (face.key, body.text[:20])
        assert widest_blank_band(face, font) <= spec.most_blank, face.key


def test_a_blank_lower_half_is_found() -> None:
    """The measure itself: a face whose only text sits in its upper half has a blank band of
    about half its height, and one with text down to its foot has none that wide."""
    font = prepare_cjk_fonts().regular
    height = 200.0

    def face_with(y: float, h: float, words: int) -> Face:
        line = TextShape(
            x=10, y=y, width=100, height=h, text="一行字" * words, font=font, size=10,
            min_size=10, color="#000000", align="left", valign="top", leading=1.3,
        )  # fmt: skip
        return Face(key="probe", width=120, height=height, bleed=0, shapes=(line,))

    # ten characters a line, 13 pt a line: 7 lines in the upper half, 14 down to the foot
    assert widest_blank_band(face_with(100, 100, 22), font) == pytest.approx(0.5, abs=0.05)
    assert widest_blank_band(face_with(0, 200, 45), font) < 0.1
