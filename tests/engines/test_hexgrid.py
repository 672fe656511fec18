"""Hex geometry of flat-topped axial maps: directions clockwise from north."""

from __future__ import annotations

import pytest

from pnp.engines import hexgrid


def test_six_neighbours_are_one_step_away_and_clockwise_from_north() -> None:
    centre = (0, 0)
    around = [hexgrid.neighbour(centre, d) for d in range(6)]
    assert around[0] == (0, -1)  # north: r grows south
    assert all(hexgrid.distance(centre, h) == 1 for h in around)
    # Consecutive directions are neighbours of each other (a ring, clockwise).
    for a, b in zip(around, around[1:] + around[:1], strict=True):
        assert hexgrid.distance(a, b) == 1


@pytest.mark.parametrize(
    ("a", "b", "steps"),
    [((0, 0), (0, 4), 4), ((0, 0), (4, -4), 4), ((-4, 0), (4, 0), 8), ((1, -2), (-1, 2), 4)],
)
def test_distance_is_the_cube_distance(a: tuple[int, int], b: tuple[int, int], steps: int) -> None:
    assert hexgrid.distance(a, b) == steps == hexgrid.distance(b, a)


def test_a_ray_runs_straight_and_line_direction_finds_it() -> None:
    assert hexgrid.ray((0, 0), 2, 3) == [(1, 0), (2, 0), (3, 0)]
    assert hexgrid.line_direction((0, 0), (3, 0)) == 2
    assert hexgrid.line_direction((0, 0), (2, -1)) is None  # not on one of the six lines
    assert hexgrid.opposite(0) == 3 and hexgrid.rotate(5, 2) == 1


def test_a_radius_4_map_has_61_hexes_and_corners_face_the_centre() -> None:
    cells = list(hexgrid.cells(4))
    assert len(cells) == 61 and len(set(cells)) == 61
    assert all(hexgrid.in_map(h, 4) for h in cells) and not hexgrid.in_map((5, 0), 4)
    for d in range(6):
        corner = hexgrid.neighbour((0, 0), d, 4)
        assert hexgrid.facing_towards(corner, (0, 0)) == hexgrid.opposite(d)
