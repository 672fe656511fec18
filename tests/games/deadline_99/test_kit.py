"""The built Deadline 99 kit, read back as a print shop and a player would read it."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path

import pdfplumber
import pypdf
import pytest
from PIL import ImageStat

from pnp.content.loader import LoadedGame
from pnp.units import POINTS_PER_MM
from tests.conftest import build
from tests.pdfcheck import page_fonts, pdf_texts

A4 = (210.0, 297.0)
LETTER = (215.9, 279.4)
PRODUCTS = ["playing-cards", "identity-cards", "variant-cards", "reference-cards", "count-tracker"]


def pdf_path(kit: Path, product: str) -> Path:
    return kit / f"deadline-99-{product}.pdf"


def to_mm(points: float) -> float:
    return points / POINTS_PER_MM


def test_the_kit_holds_every_product_and_a_cover(kit_a4: Path) -> None:
    names = sorted(path.name for path in kit_a4.glob("*.pdf"))
    assert names == sorted(
        [f"deadline-99-{p}.pdf" for p in PRODUCTS]
        + ["deadline-99-00-read-me-first.pdf", "deadline-99-01-duplex-calibration.pdf"]
    )
    assert not list(kit_a4.glob(".*")), "a temporary file was left behind"


@pytest.mark.parametrize(("fixture", "paper"), [("kit_a4", A4), ("kit_letter", LETTER)])
def test_card_pages_have_the_paper_size(
    request: pytest.FixtureRequest, fixture: str, paper: tuple[float, float]
) -> None:
    reader = pypdf.PdfReader(pdf_path(request.getfixturevalue(fixture), "playing-cards"))
    for page in reader.pages:
        box = page.mediabox
        assert (to_mm(float(box.width)), to_mm(float(box.height))) == pytest.approx(paper, abs=0.01)


@pytest.mark.parametrize("fixture", ["kit_a4", "kit_letter"])
def test_crop_marks_cut_poker_cards_of_63_by_88_mm(
    request: pytest.FixtureRequest, fixture: str
) -> None:
    with pdfplumber.open(pdf_path(request.getfixturevalue(fixture), "playing-cards")) as pdf:
        lines = pdf.pages[0].lines
    xs = sorted({round(to_mm(line["x0"]), 2) for line in lines if line["x0"] == line["x1"]})
    ys = sorted({round(to_mm(line["top"]), 2) for line in lines if line["top"] == line["bottom"]})
    widths = {round(b - a, 1) for a, b in itertools.pairwise(xs)}
    heights = {round(b - a, 1) for a, b in itertools.pairwise(ys)}
    assert 63.0 in widths and widths <= {63.0, 6.0}  # a 6 mm gutter of two bleeds, or none
    assert 88.0 in heights and heights <= {88.0, 6.0}
    cuts_x = [x for x in xs]
    # 3 columns: the trims span 3 x 63 mm plus any gutters.
    assert round(cuts_x[-1] - cuts_x[0], 1) in (189.0, 201.0)


def test_ninety_six_playing_cards_are_printed(kit_a4: Path, deadline_99: LoadedGame) -> None:
    fronts = "".join(pdf_texts(pdf_path(kit_a4, "playing-cards"))[0::2])
    names = Counter()
    for rank in deadline_99.model.ranks:
        names[rank.name] = fronts.count(rank.name)
    assert sum(names.values()) == 96
    # Every rank in every suit, twice (two decks): 8 of each.
    assert set(names.values()) == {8}


def test_fonts_are_embedded_subset_truetype(kit_a4: Path) -> None:
    for path in kit_a4.glob("*.pdf"):
        fonts: dict[str, object] = {}
        for page in pypdf.PdfReader(path).pages:
            page_fonts(page.get("/Resources"), fonts)
        assert fonts, path.name
        for name, font in fonts.items():
            assert "+" in name, f"{path.name}: font {name} is not subset"
            descriptor = font.get("/FontDescriptor")  # type: ignore[attr-defined]
            if descriptor is None:  # a Type0 font keeps it on its descendant
                descriptor = font["/DescendantFonts"][0].get_object()["/FontDescriptor"]  # type: ignore[index]
            assert "/FontFile2" in descriptor.get_object(), f"{path.name}: {name} not embedded"


def test_the_chinese_text_extracts(kit_a4: Path) -> None:
    with pdfplumber.open(pdf_path(kit_a4, "reference-cards")) as pdf:
        text = pdf.pages[0].extract_text()
    assert "功能牌速查" in text
    assert "轮转方向反转" in text and "指定另一名玩家" in text


def test_the_same_content_builds_byte_identical_pdfs(
    deadline_99: LoadedGame, kit_a4: Path, tmp_path: Path
) -> None:
    again = build(deadline_99, tmp_path / "again")
    for path in kit_a4.glob("*.pdf"):
        assert (again / path.name).read_bytes() == path.read_bytes(), path.name


def test_the_tracker_page_has_its_trim_box_at_true_size(kit_a4: Path) -> None:
    page = pypdf.PdfReader(pdf_path(kit_a4, "count-tracker")).pages[0]
    trim = page.trimbox
    assert (to_mm(float(trim.width)), to_mm(float(trim.height))) == pytest.approx(
        (260, 180), abs=0.01
    )
    text = page.extract_text()
    assert "99" in text and "计数轨" in text


def _darkness(image, box_mm: tuple[float, float, float, float], scale: float) -> float:
    x0, y0, x1, y1 = (int(v * scale) for v in box_mm)
    region = image.crop((x0, y0, x1, y1)).convert("L")
    return 1 - ImageStat.Stat(region).mean[0] / 255


def test_each_back_lands_behind_its_face_on_long_edge_duplex(kit_a4: Path) -> None:
    pdfium = pytest.importorskip("pypdfium2")
    document = pdfium.PdfDocument(str(pdf_path(kit_a4, "variant-cards")))
    scale = 2.0  # pixels per mm
    front = document[0].render(scale=scale / POINTS_PER_MM).to_pil()
    back = document[1].render(scale=scale / POINTS_PER_MM).to_pil()
    # Two cards: the fronts fill columns 1 and 2 of the top row, counted from the left...
    left, middle, right = (12, 20, 70, 90), (76, 20, 133, 90), (139, 20, 196, 90)
    assert _darkness(front, right, scale) < 0.05  # no third card
    # ...and seen from the printed side of the back page, the backs fill columns 3 and 2.
    assert _darkness(back, right, scale) > 0.5
    assert _darkness(back, middle, scale) > 0.5
    assert _darkness(back, left, scale) < 0.05


def test_the_identity_back_hides_the_camp_colour_through_thin_paper(kit_a4: Path) -> None:
    """Held to the light, a thin card shows its face through the back wherever the back is
    light: the identity back is dark over the whole card (pattern included), not a pale
    ground around a dark badge."""
    pdfium = pytest.importorskip("pypdfium2")
    document = pdfium.PdfDocument(str(pdf_path(kit_a4, "identity-cards")))
    scale = 2.0
    back = document[1].render(scale=scale / POINTS_PER_MM).to_pil().convert("L")
    card = back.crop(tuple(int(v * scale) for v in (139, 20, 196, 90)))
    light = sum(card.histogram()[161:]) / (card.width * card.height)
    assert 1 - ImageStat.Stat(card).mean[0] / 255 > 0.7
    assert light < 0.08  # the frame, the badge's letters and the title only


def test_reference_cards_have_a_back_of_their_own(deadline_99: LoadedGame) -> None:
    backs = {product.id: product.back for product in deadline_99.model.products}
    assert backs["reference-cards"] != backs["playing-cards"]
    assert backs["variant-cards"] == backs["playing-cards"]  # shuffled into the deck


def test_the_bottom_index_is_turned_half_a_turn(kit_a4: Path) -> None:
    with pdfplumber.open(str(pdf_path(kit_a4, "playing-cards"))) as pdf:
        page = pdf.pages[0]
        spades = [c for c in page.chars if c["text"] == "♠"]
    upright = [c for c in spades if c["matrix"][0] > 0]
    turned = [c for c in spades if c["matrix"][0] < 0 and c["matrix"][3] < 0]
    assert upright and len(turned) == len(upright)
    # Each card's turned index sits below and to the right of its upright one.
    assert min(c["top"] for c in turned) > min(c["top"] for c in upright)
