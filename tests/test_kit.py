"""A kit's files: which products share a token sheet, and what the read-me says of it."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest

from pnp.content.loader import load_game
from pnp.kit import _shared_note, build_kit, paper_size, token_groups
from pnp.layout.products import layout_product
from pnp.options import BuildOptions
from pnp.units import POINTS_PER_MM, mm
from pnp.validate.checks import Findings
from pnp.validate.preflight import check_sheets
from tests.conftest import CONTENT, TEMPLATES


def test_a_shared_sheet_s_note_says_the_print_mode_once_and_each_product_s_own_words() -> None:
    note = _shared_note(
        [
            ("人物指示物", "双面打印（长边翻转），两面相同。可贴在厚纸板上。"),
            ("标记物", "双面打印（长边翻转），两面相同。"),
        ]
    )
    assert (
        note == "双面打印（长边翻转）。 人物指示物：两面相同。可贴在厚纸板上。 标记物：两面相同。"
    )
    mixed = _shared_note([("A", "单面打印。"), ("B", "用厚卡纸。")])
    assert mixed == "A：单面打印。 B：用厚卡纸。"


def test_dragon_hoard_s_tokens_share_one_sheet_per_print_mode() -> None:
    game = load_game(CONTENT, "dragon-hoard")
    laid_out = [layout_product(game, p, TEMPLATES, mm(3)) for p in game.model.products]
    groups = token_groups(laid_out, duplex=True, bleed=mm(3), page=paper_size("a4"))
    held = {group.id: [m.product.id for m in group.members] for group in groups}
    assert held == {
        "tokens": ["treasure-tokens", "pawns"],
        "tokens-single-sided": ["dragon-tile", "markers"],
    }
    # Printed one-sided, every token product shares the one sheet family.
    single = token_groups(laid_out, duplex=False, bleed=mm(3), page=paper_size("a4"))
    assert [len(group.members) for group in single] == [4]


def _closest_mark_mm(path: Path) -> float:
    """How near, in mm, a crop mark or a footer character comes to the paper's edge."""
    nearest = float("inf")
    with pdfplumber.open(path) as document:
        for page in document.pages:
            width, height = float(page.width), float(page.height)
            for line in page.lines:
                xs, ys = (line["x0"], line["x1"]), (line["top"], line["bottom"])
                nearest = min(
                    nearest, *xs, *(width - x for x in xs), *ys, *(height - y for y in ys)
                )
            for char in page.chars:
                nearest = min(
                    nearest, char["x0"], width - char["x1"], char["top"], height - char["bottom"]
                )
    return nearest / POINTS_PER_MM


def test_a_wider_printer_margin_keeps_marks_and_footers_out_of_it(tmp_path: Path) -> None:
    game = load_game(CONTENT, "arena-tales")
    usual = build_kit(game, tmp_path / "5", TEMPLATES, BuildOptions(), only={"pawns"}, cover=False)
    wide = build_kit(
        game,
        tmp_path / "8",
        TEMPLATES,
        BuildOptions(printer_margin_mm=8.0),
        only={"pawns"},
        cover=False,
    )
    assert _closest_mark_mm(usual.files[0].path) == pytest.approx(5.0, abs=0.05)
    assert _closest_mark_mm(wide.files[0].path) == pytest.approx(8.0, abs=0.05)


def test_the_preflight_says_which_cards_a_wider_printer_margin_leaves_no_room_for() -> None:
    game = load_game(CONTENT, "mineventure")
    tiles = next(p for p in game.model.products if p.id == "map-tiles")
    laid_out = [layout_product(game, tiles, TEMPLATES, mm(3))]
    usual, wide = Findings(game), Findings(game)
    check_sheets(usual, laid_out)
    check_sheets(wide, laid_out, margin=mm(10))
    assert [p.message for p in usual.problems] == []
    first = wide.problems[0]
    assert f"{first.location}: {first.message}" == (
        "content/mineventure/kit.yaml:101:5: product 'map-tiles' on a4: a 192x192 mm card "
        "with 3 mm bleed does not fit on a 210x297 mm page within a 10 mm printer margin"
    )
