"""A kit's files: which products share a token sheet, and what the read-me says of it."""

from __future__ import annotations

from pnp.content.loader import load_game
from pnp.kit import _shared_note, paper_size, token_groups
from pnp.layout.products import layout_product
from pnp.units import mm
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
