"""The options of a build (paper, bleed, crop marks, duplex and its flip, the backs' offset):
what the sheets are laid out with, and part of the digest that says a kit is up to date, so
they live apart from the machinery that draws them."""

from __future__ import annotations

from dataclasses import dataclass

from pnp.layout.sheets import DEFAULT_BLEED_MM, Flip


@dataclass(frozen=True)
class BuildOptions:
    paper: str = "a4"
    bleed_mm: float = DEFAULT_BLEED_MM
    crop_marks: bool = True
    duplex: bool = True
    flip: Flip = Flip.LONG_EDGE
    back_offset_mm: tuple[float, float] = (0.0, 0.0)
    printer_margin_mm: float = 5.0
    """The outer strip of the paper the printer cannot reach: crop marks, footers and trims
    stay inside it (only bleed may run into it)."""
