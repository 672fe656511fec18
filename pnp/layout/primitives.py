"""What layout hands to render: positioned shapes in points, origin at the trim's bottom-left,
y up (PDF convention). Nothing here knows about reportlab."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from pnp.model.icons import Icon

Align = Literal["left", "center", "right", "justify"]
VAlign = Literal["top", "middle", "bottom"]
ALIGNS: tuple[str, ...] = get_args(Align)
VALIGNS: tuple[str, ...] = get_args(VAlign)


@dataclass(frozen=True)
class Style:
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.5
    dash: tuple[float, ...] = ()


@dataclass(frozen=True)
class RectShape:
    x: float
    y: float
    width: float
    height: float
    style: Style
    radius: float = 0.0


@dataclass(frozen=True)
class LineShape:
    x1: float
    y1: float
    x2: float
    y2: float
    style: Style


@dataclass(frozen=True)
class CircleShape:
    cx: float
    cy: float
    r: float
    style: Style


@dataclass(frozen=True)
class PolygonShape:
    points: tuple[tuple[float, float], ...]
    style: Style


@dataclass(frozen=True)
class TextShape:
    """Text to wrap and fit inside a box; render shrinks it down to `min_size` if it must."""

    x: float
    y: float
    width: float
    height: float
    text: str
    font: str  # "regular" or "bold": render maps these to the embedded CJK faces
    size: float
    min_size: float
    color: str
    align: Align
    valign: VAlign
    leading: float  # line height as a multiple of the size
    origin: str = ""  # template:line of the box, for the "text does not fit" warning
    icons: tuple[Icon, ...] = ()
    """The icons the text places inline ([[name]]), resolved when it was laid out."""
    upside_down: bool = False
    """Turned 180° about the box's centre: a card's bottom index reads from the other end."""


@dataclass(frozen=True)
class ImageShape:
    x: float
    y: float
    width: float
    height: float
    path: str
    origin: str = ""
    """The template line that placed it, for messages."""
    digest: str = ""
    """SHA-256 of the image's bytes as layout read them (empty when unknown): a face whose
    picture was replaced under the same name is another face, and renders again."""


@dataclass(frozen=True)
class IconShape:
    """A named icon drawn in a box (kept square, centred), in one colour."""

    x: float
    y: float
    width: float
    height: float
    icon: Icon
    color: str
    tile: float = 0.0
    """When more than 0, the icon repeats over the box as a pattern, one per `tile` points
    across and `tile_h` down (the box is the pattern's clip)."""
    tile_h: float = 0.0
    stagger: bool = False
    """Every other row of tiles shifted half a tile across (a brick or lattice bond)."""


Shape = IconShape | RectShape | LineShape | CircleShape | PolygonShape | TextShape | ImageShape


@dataclass(frozen=True)
class Face:
    """One side of one item, laid out: its size, bleed and shapes (drawn in order)."""

    key: str  # identifies identical faces so render can draw each once and reuse it
    width: float
    height: float
    bleed: float
    shapes: tuple[Shape, ...]
