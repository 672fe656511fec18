"""Every content or template mistake is a located validate finding (exit 1) before any build
starts: never a pass that the build then refuses, never "a bug in pnp" (exit 3). Each case is a
mistake issue 27 found passing validate or stopping a build with an internal error."""

from __future__ import annotations

import re
import shutil
import struct
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from tests.conftest import CONTENT, TEMPLATES

Edit = Callable[[Path], None]


def _sub(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _content(game: str, name: str, old: str, new: str) -> Edit:
    return lambda root: _sub(root / "content" / game / name, old, new)


def _template(game: str, name: str, old: str, new: str) -> Edit:
    return lambda root: _sub(root / "templates" / game / name, old, new)


def _png(width: int, height: int, pixels: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


def _image(data: bytes) -> Edit:
    """The variant card shows art/x.png, which holds ``data``."""

    def edit(root: Path) -> None:
        art = root / "content" / "deadline-99" / "art" / "x.png"
        art.parent.mkdir()
        art.write_bytes(data)
        face = root / "templates" / "deadline-99" / "variant-card.yaml"
        face.write_text(
            face.read_text(encoding="utf-8")
            + "  - {type: image, x: 1mm, y: 1mm, w: 5mm, h: 5mm, src: art/x.png}\n",
            encoding="utf-8",
        )

    return edit


GOOD_PIXELS = zlib.compress(b"".join(b"\0" + b"\xff\0\0" * 4 for _ in range(4)))
CASES: dict[str, tuple[Edit, str]] = {
    "a size of 0x0mm": (
        _content("deadline-99", "kit.yaml", "size: 260x180mm", "size: 0x0mm"),
        r"kit\.yaml:\d+:\d+: deadline-99: product 'count-tracker': size: '0x0mm': each side "
        r"must be more than 0",
    ),
    "a 99999 mm sheet": (
        _content("deadline-99", "kit.yaml", "size: 260x180mm", "size: 99999x99999mm"),
        r"kit\.yaml:\d+:\d+: .*at most 2000 mm",
    ),
    "a centre of one number": (
        _content("dragon-hoard", "lair.yaml", "centre: [6, 6]", "centre: [6]"),
        r"lair\.yaml:8:\d+: dragon-hoard: lair\.centre: expected 2 values, got 1",
    ),
    "negative copies": (
        _content("deadline-99", "variants.yaml", "copies: 1", "copies: -5"),
        r"variants\.yaml:\d+:\d+: deadline-99: variant_cards\[0\]\.copies: expected at least 0",
    ),
    "a billion copies": (
        _content("deadline-99", "variants.yaml", "copies: 1", "copies: 1000000000"),
        r"variants\.yaml:\d+:\d+: .*copies: expected at most 1000",
    ),
    "an all-zero dash": (
        _template("arena-tales", "arena.yaml", "dash: [2, 1.5]", "dash: [0, 0]"),
        r"arena\.yaml:\d+: arena-tales: product .arena-map.: .*dash: ",
    ),
    "a colour that is no colour": (
        _template(
            "deadline-99",
            "count-tracker.yaml",
            "{type: background, fill: paper}",
            "{type: background, fill: '#zzzzzz'}",
        ),
        r"count-tracker\.yaml:\d+: .*fill: expected '#rrggbb' or a palette name, got '#zzzzzz'",
    ),
    "a zero height": (
        _template("deadline-99", "count-tracker.yaml", "h: 12mm", "h: 0mm"),
        r"count-tracker\.yaml:\d+: .*h: expected a length greater than 0, got '0mm'",
    ),
    "a negative height": (
        _template("deadline-99", "count-tracker.yaml", "h: 12mm", "h: -10mm"),
        r"count-tracker\.yaml:\d+: .*h: expected a length greater than 0",
    ),
    "an infinite height": (
        _template("deadline-99", "count-tracker.yaml", "h: 12mm", "h: .inf"),
        r"count-tracker\.yaml:\d+: .*h: expected a finite length",
    ),
    "a nameless card": (
        _content("deadline-99", "variants.yaml", "name: 天使", "name: ''"),
        r"variants\.yaml:\d+:\d+: deadline-99: variant_cards\[0\]\.name: must not be empty",
    ),
    "an untitled game": (
        _content("deadline-99", "game.yaml", "title: 死线99", "title: ' '"),
        r"game\.yaml:\d+:\d+: deadline-99: info\.title: must not be empty",
    ),
    "a text that does not fit": (
        _content("deadline-99", "variants.yaml", "name: 天使", "name: " + "天使" * 18),
        r"variant-card\.yaml:\d+: deadline-99: product 'variant-cards', item 'angel': .* does "
        r"not fit its box",
    ),
    "a character the font lacks": (
        _content("deadline-99", "variants.yaml", "name: 天使", "name: 天使𓀀"),
        r"variant-card\.yaml:\d+: .*item 'angel': the font has no glyph for '𓀀'",
    ),
    "a PNG whose pixels are broken": (
        _image(_png(4, 4, GOOD_PIXELS[:-6] + b"\0\0\0\0\0\0")),
        r"variant-card\.yaml:\d+: .*image 'art/x\.png' is not a readable image",
    ),
    "a 13000x13000 PNG": (
        _image(_png(13_000, 13_000, zlib.compress(b"\0" * 64))),
        r"variant-card\.yaml:\d+: .*image 'art/x\.png' is 13000x13000 pixels",
    ),
    "a 50000x50000 PNG": (
        _image(_png(50_000, 50_000, zlib.compress(b"\0" * 64))),
        r"variant-card\.yaml:\d+: .*image 'art/x\.png' is 50000x50000 pixels",
    ),
}


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for game in ("deadline-99", "dragon-hoard", "arena-tales"):
        shutil.copytree(CONTENT / game, tmp_path / "content" / game)
        shutil.copytree(TEMPLATES / game, tmp_path / "templates" / game)
    return tmp_path


@pytest.mark.parametrize("mistake", sorted(CASES))
def test_validate_finds_the_mistake_located(tree: Path, mistake: str) -> None:
    edit, expected = CASES[mistake]
    edit(tree)
    game = next(
        (slug for slug in ("dragon-hoard", "arena-tales") if slug in expected), "deadline-99"
    )
    result = CliRunner().invoke(
        main, ["--content", str(tree / "content"), "validate", game, "--static-only"]
    )
    output = result.stdout + result.stderr
    assert result.exit_code == 1, output
    assert re.search(expected, output), output
    assert "Traceback" not in output and "internal error" not in output


def test_build_refuses_what_validate_refuses_and_writes_nothing(tree: Path) -> None:
    CASES["a colour that is no colour"][0](tree)
    out = tree / "out"
    result = CliRunner().invoke(
        main, ["--content", str(tree / "content"), "build", "deadline-99", "--out", str(out)]
    )
    assert result.exit_code == 1, result.stdout + result.stderr
    assert "fill: expected '#rrggbb'" in result.stderr
    assert not (out / "deadline-99").exists() or not any((out / "deadline-99").iterdir())
