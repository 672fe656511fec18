"""Icons as content: named vector shapes that cards, aids, rulebook prose and the glossary
place inline with ``[[name]]``.

An icon is the ``d`` of an SVG ``<path>`` — the text any vector editor (Inkscape,
Illustrator, Figma's "copy as SVG") writes for a shape — in a square box of ``size`` units,
y down as SVG has it. The project reads that one attribute itself instead of whole SVG
files through a library such as svglib: an icon is one colour by design (the palette gives
it the colour of the text it sits in), so a path is all it needs; content arrives in pull
requests, and an XML parser's entities, external references, scripts and styles are more
than a shape should be able to say; a path of a few hundred characters is checked here
command by command with a located message; and it adds no dependency to the build digest.
Holes are cut by the even-odd rule (a ring is two circles in one path).
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field

from pnp.errors import Location
from pnp.model.common import NOWHERE, doc

INLINE_ICON = re.compile(r"\[\[([a-z0-9][a-z0-9_-]*)\]\]")
"""How a text places an icon: ``[[damage]]`` (a name of the game's or the shared set)."""

MAX_PATH_CHARS = 20_000
"""Longest path an icon may give (a detailed emblem is a few thousand characters)."""

ICON_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


class FillRule(enum.Enum):
    EVENODD = "evenodd"
    NONZERO = "nonzero"


@dataclass(frozen=True)
class Icon:
    """One named vector icon."""

    name: str = field(metadata=doc("what texts write between [[ and ]]", nonempty=True))
    path: str = field(
        metadata=doc("SVG path data (M L H V C S Q T Z, absolute or relative), y down")
    )
    size: float = field(
        default=24.0, metadata=doc("the side of the square box the path is drawn in", at_least=1)
    )
    term: str = field(default="", metadata=doc("the term of the rules it stands for"))
    rule: FillRule = field(
        default=FillRule.EVENODD,
        metadata=doc(
            "evenodd: an inner outline cuts a hole; nonzero: outlines wound alike add up (SVG's)"
        ),
    )
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class Sprite:
    """Pixel art stored as content: rows of characters, each standing for a colour of
    `colours` (``.`` is a clear pixel). A face draws it with a ``sprite`` box, as squares."""

    name: str = field(metadata=doc("what a sprite box names", nonempty=True))
    pixels: tuple[str, ...] = field(
        metadata=doc("rows top to bottom, one character a pixel, '.' clear", nonempty=True)
    )
    colours: dict[str, str] = field(metadata=doc("each character's colour, '#rrggbb'"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


Command = tuple[str, tuple[float, ...]]
"""An absolute path command: ("M", (x, y)), ("L", (x, y)), ("C", (x1, y1, x2, y2, x, y)),
("Z", ())."""

_TOKEN = re.compile(r"[MmLlHhVvCcSsQqTtZzAa]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_ARGUMENTS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "Z": 0}


class PathError(ValueError):
    """An icon's path that cannot be drawn; the message says what and where in the path."""


def parse_path(data: str) -> tuple[Command, ...]:
    """The path as absolute moves, lines, cubic curves and closes (quadratic curves raised to
    cubic, H/V to lines, S/T's reflected control points worked out)."""
    if len(data) > MAX_PATH_CHARS:
        raise PathError(f"the path has more than {MAX_PATH_CHARS:,} characters")
    leftover = _TOKEN.sub(" ", data).replace(",", " ").strip()
    if leftover:
        raise PathError(f"the path has {leftover[:12]!r}, which is no path command or number")
    tokens = _TOKEN.findall(data)
    if not tokens:
        raise PathError("the path is empty")
    if tokens[0] not in "Mm":
        raise PathError("a path begins with M (move to)")
    commands: list[Command] = []
    x = y = start_x = start_y = 0.0
    last_control: tuple[float, float] | None = None
    last_quad: tuple[float, float] | None = None
    letter = ""
    i = 0
    while i < len(tokens):
        if tokens[i][0].isalpha():
            letter = tokens[i]
            i += 1
            if letter.upper() == "A":
                raise PathError("arcs (A) are not drawn: convert them to curves in the editor")
        elif letter.upper() == "Z" or not letter:
            raise PathError(f"the number {tokens[i]} follows no command that takes one")
        kind = letter.upper()
        relative = letter.islower()
        count = _ARGUMENTS[kind]
        values = tokens[i : i + count]
        if len(values) < count or any(v[0].isalpha() for v in values):
            raise PathError(f"{letter} needs {count} numbers")
        numbers = [float(v) for v in values]
        i += count
        control, quad = None, None
        if kind == "Z":
            commands.append(("Z", ()))
            x, y = start_x, start_y
        elif kind == "M":
            x, y = (x + numbers[0], y + numbers[1]) if relative else (numbers[0], numbers[1])
            start_x, start_y = x, y
            commands.append(("M", (x, y)))
            letter = "l" if relative else "L"  # further pairs are lines
        elif kind in "LHV":
            if kind == "L":
                dx, dy = numbers
            elif kind == "H":
                dx, dy = numbers[0], (0.0 if relative else y)
            else:
                dx, dy = (0.0 if relative else x), numbers[0]
            x, y = (x + dx, y + dy) if relative else (dx, dy)
            commands.append(("L", (x, y)))
        else:
            points = [
                (x + numbers[k], y + numbers[k + 1]) if relative else (numbers[k], numbers[k + 1])
                for k in range(0, count, 2)
            ]
            if kind in "ST":
                previous = last_control if kind == "S" else last_quad
                reflected = (2 * x - previous[0], 2 * y - previous[1]) if previous else (x, y)
                points.insert(0, reflected)
            if kind in "QT":
                (qx, qy), end = points
                quad = (qx, qy)
                points = [
                    (x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y)),
                    (end[0] + 2 / 3 * (qx - end[0]), end[1] + 2 / 3 * (qy - end[1])),
                    end,
                ]
            control = points[1]
            (x1, y1), (x2, y2), (x, y) = points
            commands.append(("C", (x1, y1, x2, y2, x, y)))
        last_control, last_quad = control, quad
    return tuple(commands)


def inline_icons(text: str) -> list[str]:
    """The icon names a text places, in order."""
    return INLINE_ICON.findall(text)
