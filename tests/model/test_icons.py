"""An icon's path: SVG path data read command by command, or a clear message."""

from __future__ import annotations

import pytest

from pnp.model.icons import PathError, inline_icons, parse_path


def test_relative_and_shorthand_commands_become_absolute() -> None:
    commands = parse_path("m2 3 h4 v5 l-1 1 q2 2 4 0 t4 0 c1 1 2 2 3 3 s1 1 2 2 z")
    letters = [letter for letter, _ in commands]
    assert letters == ["M", "L", "L", "L", "C", "C", "C", "C", "Z"]
    assert commands[0][1] == (2, 3)
    assert commands[1][1] == (6, 3)
    assert commands[2][1] == (6, 8)
    assert commands[3][1] == (5, 9)
    assert commands[4][1][-2:] == (9, 9)  # q ends where it says, relative to (5, 9)
    assert commands[5][1][-2:] == (13, 9)
    # s's first control point is the reflection of c's second about c's end point.
    c_second, c_end = commands[6][1][2:4], commands[6][1][4:6]
    assert commands[7][1][:2] == (2 * c_end[0] - c_second[0], 2 * c_end[1] - c_second[1])


def test_pairs_after_a_move_are_lines() -> None:
    assert [letter for letter, _ in parse_path("M0 0 10 0 10 10Z")] == ["M", "L", "L", "Z"]


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("", "empty"),
        ("L1 1", "begins with M"),
        ("M1 1 L2", "L needs 2 numbers"),
        ("M0 0 A5 5 0 0 1 10 10", "arcs"),
        ("M0 0 L1 1 <script>", "no path command or number"),
        ("M0 0 Z 4", "follows no command"),
    ],
)
def test_a_path_that_cannot_be_drawn_says_why(path: str, message: str) -> None:
    with pytest.raises(PathError, match=message):
        parse_path(path)


def test_inline_syntax_finds_names_in_order() -> None:
    assert inline_icons("造成 2 [[damage]]，获得 [[coin]][[coin]]；[x] [[Bad]]") == [
        "damage",
        "coin",
        "coin",
    ]
