"""Products laid out once per process for every caller: the kit, the checks, the rulebook."""

from __future__ import annotations

from pathlib import Path

from pnp.content.loader import LoadedGame
from pnp.layout.primitives import TextShape
from pnp.layout.products import DEFAULT_BLEED, laid_out_for_pictures, layout_product
from pnp.layout.template import load_template
from pnp.model.common import ProductKind
from pnp.units import mm
from tests.conftest import TEMPLATES


def _texts(laid: object) -> list[list[str]]:
    return [
        [s.text for s in front.shapes if isinstance(s, TextShape)]
        for front, _, _ in laid.runs  # type: ignore[attr-defined]
    ]


def test_a_board_is_laid_out_once_whatever_bleed_is_asked(deadline_99: LoadedGame) -> None:
    # Only cards are laid out with a bleed; the kit (3 mm) and the slot check (none) share
    # the board's one layout.
    board = next(p for p in deadline_99.model.products if p.kind is not ProductKind.CARDS)
    assert layout_product(deadline_99, board, TEMPLATES, mm(3)) is layout_product(
        deadline_99, board, TEMPLATES, 0.0
    )


def test_the_rulebook_pictures_the_kits_default_layout_whatever_was_laid_out_last(
    deadline_99: LoadedGame,
) -> None:
    for product in deadline_99.model.products:
        if product.kind is not ProductKind.CARDS:
            continue
        kit = layout_product(deadline_99, product, TEMPLATES, DEFAULT_BLEED)
        unbled = layout_product(deadline_99, product, TEMPLATES, 0.0)
        assert laid_out_for_pictures(deadline_99, product, TEMPLATES) is kit
        assert unbled is not kit and _texts(unbled) == _texts(kit)


def test_a_text_that_may_read_the_bleed_is_told_apart(tmp_path: Path) -> None:
    (tmp_path / "base.yaml").write_text(
        "boxes:\n  - {type: rect, x: '{{ -bleed_mm }}mm', y: 0, w: 1mm, h: 1mm}\n",
        encoding="utf-8",
    )
    (tmp_path / "plain.yaml").write_text(
        "extends: base.yaml\nboxes:\n  - {type: text, x: 0, y: 0, w: 9mm, h: 9mm, text: hi}\n",
        encoding="utf-8",
    )
    (tmp_path / "via-var.yaml").write_text(
        "extends: base.yaml\nvars: {edge: '{{ bleed_mm * 2 }}'}\n"
        "boxes:\n  - {type: text, x: 0, y: 0, w: 9mm, h: 9mm, text: '{{ edge }}'}\n",
        encoding="utf-8",
    )
    (tmp_path / "when.yaml").write_text(
        "boxes:\n  - {type: text, x: 0, y: 0, w: 9mm, h: 9mm, text: hi, when: '{{ bleed_mm }}'}\n",
        encoding="utf-8",
    )
    assert not load_template(tmp_path, "plain.yaml").text_may_read("bleed_mm")
    assert load_template(tmp_path, "via-var.yaml").text_may_read("bleed_mm")
    assert load_template(tmp_path, "when.yaml").text_may_read("bleed_mm")


def test_a_template_error_names_the_card_and_the_line(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from pnp.cli import main

    content = tmp_path / "content"
    content.mkdir()
    (tmp_path / "templates").mkdir()
    runner = CliRunner()
    assert runner.invoke(main, ["--content", str(content), "new", "duel"]).exit_code == 0
    items = content / "duel" / "items.yaml"
    items.write_text(
        items.read_text(encoding="utf-8").replace("fields: {cost: 1}}", "fields: {price: 1}}", 1),
        encoding="utf-8",
    )
    card = (tmp_path / "templates" / "duel" / "card.yaml").read_text(encoding="utf-8")
    line = next(n for n, ln in enumerate(card.splitlines(), 1) if "item.fields.cost" in ln)
    result = runner.invoke(main, ["--content", str(content), "validate", "--static-only"])
    assert result.exit_code == 1
    assert (
        f"templates/duel/card.yaml:{line}: duel: product 'cards': card 'spark': text: "
        "'dict object' has no attribute 'cost'"
    ) in result.output
