"""A designer's own picture, art/<name>.png in the game's folder, replaces the sprite or icon
of that name wherever a face draws it in a box of its own."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

from PIL import Image
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas

from pnp.content.loader import load_game
from pnp.layout.primitives import IconShape, ImageShape, RectShape
from pnp.layout.products import layout_product
from pnp.render.draw import DrawReport, draw_face
from pnp.render.fonts import prepare_cjk_fonts
from tests.conftest import CONTENT, TEMPLATES


def _png(colour: str) -> bytes:
    data = io.BytesIO()
    Image.new("RGB", (8, 8), colour).save(data, format="PNG")
    return data.getvalue()


def test_a_picture_in_art_replaces_the_sprite_and_the_icon_of_its_name(tmp_path: Path) -> None:
    game_folder = tmp_path / "mineventure"
    shutil.copytree(CONTENT / "mineventure", game_folder)
    (game_folder / "art").mkdir()
    (game_folder / "art" / "steve.png").write_bytes(_png("#3366cc"))
    (game_folder / "art" / "mark.jpg").write_bytes(_png("#cc3333"))  # any image suffix
    game = load_game(tmp_path, "mineventure", templates_root=TEMPLATES)
    characters = next(p for p in game.model.products if p.id == "character-cards")
    with game.reading():
        laid = layout_product(game, characters, TEMPLATES, 0.0)
    fronts = {item.id: front for item, (front, _, _) in zip(laid.items, laid.runs, strict=True)}
    face, other = fronts.pop("steve"), next(iter(fronts.values()))
    # Steve's face shows the picture where the pixel head was; the others keep their sprites.
    assert [s.path for s in face.shapes if isinstance(s, ImageShape)] == ["art/steve.png"]
    assert not [s for s in other.shapes if isinstance(s, ImageShape)]
    assert len([s for s in other.shapes if isinstance(s, RectShape)]) > len(
        [s for s in face.shapes if isinstance(s, RectShape)]
    )
    # The back's mark is the picture; its pattern of tiles stays the game's vector icon.
    back = laid.runs[0][1]
    assert back is not None
    assert [s.path for s in back.shapes if isinstance(s, ImageShape)] == ["art/mark.jpg"]
    assert "mark" not in {s.icon.name for s in back.shapes if isinstance(s, IconShape)}
    # The picture is drawn into the PDF from the game's folder.
    pdf = io.BytesIO()
    canvas = Canvas(pdf, pagesize=(face.width, face.height))
    with game.reading():
        draw_face(canvas, face, prepare_cjk_fonts(), DrawReport(), content_root=game_folder)
    canvas.save()
    images = [
        x
        for x in (PdfReader(pdf).pages[0]["/Resources"].get("/XObject") or {}).values()
        if x.get_object()["/Subtype"] == "/Image"
    ]
    assert len(images) == 1
