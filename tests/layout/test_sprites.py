"""Pixel art as content: a sprite box lays its rows out as squares of their colours."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from click.testing import CliRunner

from pnp.cli import main
from pnp.content.loader import load_game
from pnp.layout.primitives import RectShape
from pnp.layout.products import layout_front
from tests.conftest import CONTENT, TEMPLATES


def test_a_character_card_shows_its_pixel_head() -> None:
    game = load_game(CONTENT, "mineventure")
    product = next(p for p in game.model.products if p.id == "character-cards")
    steve = next(c for c in game.model.characters if c.id == "steve")
    sprite = next(s for s in game.model.sprites if s.name == "steve")
    with game.reading():
        face = layout_front(game, product, TEMPLATES, 0.0, steve)
    squares = [s for s in face.shapes if isinstance(s, RectShape) and s.style.fill]
    hair = sprite.colours["H"]
    eyes = sprite.colours["E"]
    # The top row is hair all across: one run, eight pixels wide, above the eyes.
    top_runs = [s for s in squares if s.style.fill == hair]
    eye_runs = [s for s in squares if s.style.fill == eyes]
    assert len(eye_runs) == 2  # one pixel each side of the nose
    pixel = eye_runs[0].height - 0.05
    widest = max(top_runs, key=lambda s: s.width)
    assert round((widest.width - 0.05) / pixel) == len(sprite.pixels[0])
    assert widest.y > max(s.y for s in eye_runs)


def test_a_sprite_that_cannot_be_drawn_is_a_located_error(tmp_path: Path) -> None:
    shutil.copytree(CONTENT / "mineventure", tmp_path / "content" / "mineventure")
    shutil.copytree(TEMPLATES, tmp_path / "templates")
    sprites = tmp_path / "content" / "mineventure" / "sprites.yaml"
    text = sprites.read_text(encoding="utf-8")
    sprites.write_text(text.replace('"SWESSEWS"', '"SWEXSEW"', 1), encoding="utf-8")
    result = CliRunner().invoke(
        main, ["--content", str(tmp_path / "content"), "validate", "mineventure", "--static-only"]
    )
    output = result.stdout + result.stderr
    assert result.exit_code == 1, output
    assert re.search(
        r"sprites\.yaml:\d+:\d+: mineventure: sprite 'steve': rows of \[7, 8\]", output
    )
    assert re.search(r"sprite 'steve': pixels 'X' have no colour", output), output
