"""Hex geometry for flat-topped hex maps in axial coordinates (q, r), r growing south.

Directions are numbered clockwise from north: 0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW. A piece faces
one of them; a card's range side ``k`` (clockwise from the facing side) points in direction
``(facing + k) % 6``. Cube coordinates are (q, r, -q-r); the distance is the cube distance.
"""

from __future__ import annotations

from collections.abc import Iterator

Hex = tuple[int, int]

DIRECTIONS: tuple[Hex, ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
"""Axial offsets of the six neighbours, clockwise from north."""

DIRECTION_NAMES = ("N", "NE", "SE", "S", "SW", "NW")


def distance(a: Hex, b: Hex) -> int:
    """Steps between two hexes (cube distance)."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def neighbour(h: Hex, direction: int, steps: int = 1) -> Hex:
    dq, dr = DIRECTIONS[direction % 6]
    return (h[0] + dq * steps, h[1] + dr * steps)


def ray(h: Hex, direction: int, length: int) -> list[Hex]:
    """The hexes 1..length steps from ``h`` in a straight line."""
    dq, dr = DIRECTIONS[direction % 6]
    return [(h[0] + dq * k, h[1] + dr * k) for k in range(1, length + 1)]


def rotate(direction: int, sides: int) -> int:
    """The direction ``sides`` steps clockwise (negative: counter-clockwise)."""
    return (direction + sides) % 6


def opposite(direction: int) -> int:
    return (direction + 3) % 6


def line_direction(a: Hex, b: Hex) -> int | None:
    """The direction in which ``b`` lies on a straight line from ``a``; None if not on one."""
    d = distance(a, b)
    if d == 0:
        return None
    for index, (dq, dr) in enumerate(DIRECTIONS):
        if (a[0] + dq * d, a[1] + dr * d) == b:
            return index
    return None


def in_map(h: Hex, radius: int) -> bool:
    """Whether ``h`` lies on a hexagon-shaped map of ``radius`` around (0, 0)."""
    return distance(h, (0, 0)) <= radius


def cells(radius: int) -> Iterator[Hex]:
    """Every hex of a hexagon-shaped map, q then r ascending."""
    for q in range(-radius, radius + 1):
        for r in range(max(-radius, -q - radius), min(radius, -q + radius) + 1):
            yield (q, r)


def facing_towards(h: Hex, target: Hex) -> int:
    """The direction from ``h`` whose neighbour is closest to ``target`` (first on ties)."""
    return min(range(6), key=lambda d: (distance(neighbour(h, d), target), d))
