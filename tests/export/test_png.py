"""Per-card PNGs for print shops: sizes from trim and bleed, pairs, manifest, zips."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from pnp.content.loader import LoadedGame
from pnp.export import PROFILES, export_game
from pnp.export.profiles import UnsupportedSizeError
from pnp.layout.sizes import item_size
from pnp.units import to_mm

from ..conftest import TEMPLATES
from .conftest import copies_by_card


def expected_pixels(trim_mm: float, bleed_mm: float, dpi: int = 300) -> int:
    return round((trim_mm + 2 * bleed_mm) / 25.4 * dpi)


def zips(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.zip"))


def test_every_card_product_has_a_zip_and_the_manifest_says_srgb(
    exported: Path, deadline_99: LoadedGame
) -> None:
    folder = exported / "png" / "default"
    cards = [p.id for p in deadline_99.model.products if p.kind.value == "cards"]
    assert [z.name for z in zips(folder)] == sorted(f"deadline-99-{p}.zip" for p in cards)
    manifest = json.loads((folder / "manifest.json").read_text())
    assert "sRGB" in manifest["colour"] and manifest["dpi"] == 300


def _check_sizes(folder: Path, game: LoadedGame, bleed_mm: float) -> int:
    products = {p.id: p for p in game.model.products}
    checked = 0
    for path in zips(folder):
        product = products[path.stem.removeprefix(f"{game.slug}-")]
        width, height = (to_mm(v) for v in item_size(product))
        wanted = (expected_pixels(width, bleed_mm), expected_pixels(height, bleed_mm))
        with zipfile.ZipFile(path) as archive:
            for name in archive.namelist():
                if name.endswith(".png"):
                    image = Image.open(io.BytesIO(archive.read(name)))
                    assert image.size == wanted, (path.name, name)
                    assert image.mode == "RGB" and image.info.get("icc_profile")
                    checked += 1
    return checked


def test_pixel_sizes_come_from_trim_and_the_default_3_mm_bleed(
    exported: Path, deadline_99: LoadedGame
) -> None:
    assert _check_sizes(exported / "png" / "default", deadline_99, 3.0) > 50
    # Poker with 3 mm bleed at 300 dpi, as the print notes give it.
    assert expected_pixels(63, 3) == 815 and expected_pixels(88, 3) == 1110


@pytest.mark.parametrize(
    ("profile", "pixels"), [("makeplayingcards", (822, 1122)), ("thegamecrafter", (825, 1125))]
)
def test_shop_profiles_give_the_shops_published_poker_size(
    deadline_99: LoadedGame, tmp_path: Path, profile: str, pixels: tuple[int, int]
) -> None:
    # Our 63x88 mm cards are the shops' 2.5x3.5 in poker cards: the upload must be the
    # shop's own pixel size, not one computed from our slightly smaller trim.
    export_game(
        deadline_99, "png", tmp_path, TEMPLATES, profile=profile, products=["variant-cards"]
    )
    folder = tmp_path / "export" / "png" / profile
    sizes = set()
    with zipfile.ZipFile(folder / "deadline-99-variant-cards.zip") as archive:
        for name in archive.namelist():
            if name.endswith(".png"):
                sizes.add(Image.open(io.BytesIO(archive.read(name))).size)
    assert sizes == {pixels}
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["decks"][0]["shop_product"].startswith("poker")


@pytest.mark.parametrize(
    ("profile", "trim", "pixels"),
    [
        ("thegamecrafter", (88, 63), (1125, 825)),  # landscape poker keeps its orientation
        ("thegamecrafter", (70, 120), (900, 1500)),  # tarot
        ("makeplayingcards", (70, 120), (897, 1497)),
        ("makeplayingcards", (57, 89), (747, 1122)),  # bridge
    ],
)
def test_a_card_near_a_shop_product_gets_that_product_s_size(
    profile: str, trim: tuple[float, float], pixels: tuple[int, int]
) -> None:
    size = PROFILES[profile].image_size(*trim)
    assert (size.width_px, size.height_px) == pixels


def test_a_size_the_shop_does_not_print_is_refused_naming_the_nearest() -> None:
    with pytest.raises(UnsupportedSizeError) as caught:
        PROFILES["thegamecrafter"].image_size(44, 68)  # mini euro: not the 1.75x2.5 in mini
    assert "44x68 mm" in str(caught.value) and "nearest: mini (1.75x2.5 in)" in str(caught.value)


def test_the_default_profile_sizes_from_our_trim() -> None:
    size = PROFILES["default"].image_size(44, 68)
    assert (size.width_px, size.height_px) == (expected_pixels(44, 3), expected_pixels(68, 3))


def test_an_export_skips_a_product_the_shop_cannot_print_with_a_warning(
    tmp_path: Path,
) -> None:
    from pnp.content.loader import load_game

    from ..conftest import CONTENT

    game = load_game(CONTENT, "dragon-hoard")  # its action cards are mini euro (44x68 mm)
    mini = [p.id for p in game.model.products if p.size == "mini-euro"]
    assert mini
    report = export_game(
        game, "png", tmp_path, TEMPLATES, profile="thegamecrafter", products=mini[:1]
    )
    assert any("not exported" in w and "nearest" in w for w in report.warnings)
    assert not list((tmp_path / "export" / "png" / "thegamecrafter").glob("*.zip"))


def test_each_front_has_its_back_with_the_same_number(exported: Path) -> None:
    for path in zips(exported / "png" / "default"):
        with zipfile.ZipFile(path) as archive:
            names = set(archive.namelist())
        fronts = {n.removesuffix("-front.png") for n in names if n.endswith("-front.png")}
        backs = {n.removesuffix("-back.png") for n in names if n.endswith("-back.png")}
        assert fronts and fronts == backs, path.name
        assert sorted(fronts) == [f"{i:03d}" for i in range(1, len(fronts) + 1)]


def test_every_card_is_in_the_manifest_as_often_as_the_deck_holds_it(
    exported: Path, deadline_99: LoadedGame
) -> None:
    manifest = json.loads((exported / "png" / "default" / "manifest.json").read_text())
    found: dict[tuple[str, str], int] = {}
    for deck in manifest["decks"]:
        for card in deck["cards"]:
            key = (deck["product"], card["id"])
            found[key] = found.get(key, 0) + card["copies"]
    assert found == copies_by_card(deadline_99)
    playing = next(d for d in manifest["decks"] if d["product"] == "playing-cards")
    assert playing["cards_total"] == 96 and playing["shared_back"]


def test_the_csv_in_the_zip_gives_the_quantity_per_number(exported: Path) -> None:
    path = exported / "png" / "default" / "deadline-99-playing-cards.zip"
    with zipfile.ZipFile(path) as archive:
        lines = archive.read("manifest.csv").decode().splitlines()
    assert lines[0] == "number,front,back,quantity,card_ids,names"
    assert lines[1].startswith("001,001-front.png,001-back.png,2,3-spade,")
    assert len(lines) == 1 + 48


def test_two_exports_zip_to_identical_bytes(
    exported: Path, deadline_99: LoadedGame, tmp_path: Path
) -> None:
    export_game(deadline_99, "png", tmp_path, TEMPLATES, products=["identity-cards"])
    name = "deadline-99-identity-cards.zip"
    again = (tmp_path / "export" / "png" / "default" / name).read_bytes()
    assert again == (exported / "png" / "default" / name).read_bytes()
    with zipfile.ZipFile(io.BytesIO(again)) as archive:
        infos = archive.infolist()
    assert [i.filename for i in infos] == sorted(i.filename for i in infos)
    assert {i.date_time for i in infos} == {(1980, 1, 1, 0, 0, 0)}


def test_each_card_image_is_released_once_written(
    deadline_99: LoadedGame, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Streaming: memory stays flat in the card count because a rasterised card lives only
    # until it is encoded (a back many cards share is kept encoded, as bytes, not as an image).
    # In one process, where the images are this process's to hold (forked workers encode each
    # image before they take the next).
    import gc
    import weakref

    from pnp.export import faces

    monkeypatch.setenv("PNP_WORKERS", "1")
    encoded: list[weakref.ref[Image.Image]] = []
    original = faces.png_bytes

    alive: list[int] = []

    def encode(image: Image.Image, dpi: float) -> bytes:
        gc.collect(0)  # the young generation: a full collection per card took the time
        alive.append(sum(1 for ref in encoded if ref() is not None))
        encoded.append(weakref.ref(image))
        return original(image, dpi)

    monkeypatch.setattr(faces, "png_bytes", encode)
    export_game(deadline_99, "png", tmp_path, TEMPLATES, products=["playing-cards"])
    path = tmp_path / "export" / "png" / "default" / "deadline-99-playing-cards.zip"
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
    # 48 distinct fronts and one shared back, each encoded once for 96 image names; no more
    # images alive at once than are in flight, however many cards there are.
    assert len(encoded) == 49 and len([n for n in names if n.endswith(".png")]) == 96
    assert max(alive) <= 4 < 48


def test_worker_processes_write_the_same_zip_as_one_process(
    deadline_99: LoadedGame, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pnp.export.faces import Rasteriser

    forked: list[int] = []
    original = Rasteriser._pngs_forked

    def spy(self: Rasteriser, *args: Any) -> Any:
        forked.append(args[-1])
        return original(self, *args)

    monkeypatch.setattr(Rasteriser, "_pngs_forked", spy)
    zips = []
    for workers in ("1", "2"):
        monkeypatch.setenv("PNP_WORKERS", workers)
        out = tmp_path / workers
        export_game(deadline_99, "png", out, TEMPLATES, products=["playing-cards"])
        zips.append(out / "export" / "png" / "default" / "deadline-99-playing-cards.zip")
    assert forked == [2]  # one process, then two workers
    assert zips[0].read_bytes() == zips[1].read_bytes()


def test_a_png_decodes_to_the_same_pixels_with_its_profile_and_resolution() -> None:
    from pnp.export.faces import png_bytes, srgb_profile

    image = Image.new("RGB", (97, 61), "#fbf8f1")
    for x in range(97):
        for y in range(0, 61, 3):
            image.putpixel((x, y), (x * 2 % 256, y * 4 % 256, (x * y) % 256))
    data = png_bytes(image, 300)
    assert data == png_bytes(image, 300)
    decoded = Image.open(io.BytesIO(data))
    decoded.load()
    assert decoded.mode == "RGB" and decoded.size == (97, 61)
    assert decoded.tobytes() == image.tobytes()
    assert decoded.info["icc_profile"] == srgb_profile()
    assert decoded.info["dpi"] == pytest.approx((300, 300), abs=0.01)
    with_alpha = Image.new("RGBA", (4, 4), (10, 20, 30, 255))
    assert Image.open(io.BytesIO(png_bytes(with_alpha, 150))).getpixel((0, 0)) == (10, 20, 30)


@pytest.mark.long
def test_exports_of_games_built_side_by_side_run_inside_their_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each game builds in a pool's worker, which may not fork workers of its own: its PNGs
    # are made in that process instead.
    from click.testing import CliRunner

    from pnp.cli import main

    monkeypatch.setenv("PNP_WORKERS", "2")
    result = CliRunner().invoke(
        main, ["build", "deadline-99", "maquis", "--exports", "--out", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    for slug in ("deadline-99", "maquis"):
        assert list((tmp_path / slug / "export" / "png" / "default").glob("*.zip"))


def test_a_rendered_page_matches_pdfiums_own_white_page_and_rendering(tmp_path: Path) -> None:
    """The worker's buffer is whitened with a memset instead of pdfium's fill: the pixels of
    a page with bare paper around a shape are pdfium's own."""
    import pypdfium2
    from reportlab.pdfgen.canvas import Canvas

    from pnp.export.faces import _page_png

    path = tmp_path / "page.pdf"
    canvas = Canvas(str(path), pagesize=(90, 60))
    canvas.setFillColorRGB(0.75, 0.15, 0.18)
    canvas.rect(20, 10, 30, 25, stroke=0, fill=1)
    canvas.showPage()
    canvas.showPage()  # a blank page: paper only
    canvas.save()
    document = pypdfium2.PdfDocument(str(path))
    try:
        for index in range(2):
            ours = Image.open(io.BytesIO(_page_png(document[index], 144)))
            theirs = document[index].render(scale=2, rev_byteorder=True).to_pil()
            assert ours.tobytes() == theirs.convert("RGB").tobytes()
        assert ours.getcolors() == [(180 * 120, (255, 255, 255))]  # the blank page
    finally:
        document.close()


def test_the_png_export_draws_the_icons_as_the_kit_does(exported: Path) -> None:
    """The reference cards' back shows the game's mark (a stopwatch icon) in its medallion:
    its ring and hand dark, the face between them the medallion's paper."""
    import io
    import zipfile

    from PIL import Image

    with zipfile.ZipFile(exported / "png" / "default" / "deadline-99-reference-cards.zip") as z:
        back = Image.open(io.BytesIO(z.read("001-back.png"))).convert("L")

    def at(u: float, v: float) -> int:
        """The pixel at (u, v) of the mark's 24-unit box (14 mm at 24.5, 31 mm; 3 mm bleed)."""
        x_mm, y_mm = 24.5 + u * 14 / 24 + 3, 31 + v * 14 / 24 + 3
        value = back.getpixel((round(x_mm * back.width / 69), round(y_mm * back.height / 94)))
        assert isinstance(value, int)
        return value

    assert at(12, 11) < 100  # the hand
    assert at(3.6, 13.5) < 100  # the ring
    assert at(8, 13.5) > 200  # paper between them
