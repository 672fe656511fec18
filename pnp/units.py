"""Lengths with their unit in the value ("63mm", "0.125in", "9pt") turned into PDF points."""

from __future__ import annotations

import re

POINTS_PER_INCH = 72.0
POINTS_PER_MM = POINTS_PER_INCH / 25.4

_UNITS = {"mm": POINTS_PER_MM, "cm": POINTS_PER_MM * 10, "in": POINTS_PER_INCH, "pt": 1.0}
_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(mm|cm|in|pt|%)?\s*$")


def mm(value: float) -> float:
    return value * POINTS_PER_MM


def to_mm(points: float) -> float:
    return points / POINTS_PER_MM


def parse_length(text: str | float | int, *, relative_to: float | None = None) -> float:
    """Points for a length like '63mm', '9pt', '0.125in', '50%' (of `relative_to`) or a bare
    number (points). Raises ValueError naming the text when it is not a length."""
    if isinstance(text, bool):
        raise ValueError(f"expected a length like '4mm', got {text!r}")
    if isinstance(text, int | float):
        return float(text)
    match = _LENGTH.match(text)
    if not match:
        raise ValueError(f"expected a length like '4mm', '9pt' or '50%', got {text!r}")
    number, unit = float(match.group(1)), match.group(2)
    if unit == "%":
        if relative_to is None:
            raise ValueError(f"a percentage needs a reference length here, got {text!r}")
        return number / 100.0 * relative_to
    return number * _UNITS[unit or "pt"]


# Card sizes in mm (trim), from the print-shop table in the design notes.
CARD_SIZES_MM: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),
    "bridge": (57.0, 89.0),
    "mini-euro": (44.0, 68.0),
    "mini-us": (41.0, 63.0),
    "tarot": (70.0, 120.0),
    "square": (70.0, 70.0),
    "tile": (100.0, 100.0),
}

PAPER_SIZES_MM: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "a5": (148.0, 210.0),
    "a3": (297.0, 420.0),
}
