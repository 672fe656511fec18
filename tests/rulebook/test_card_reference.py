"""The rulebook's card appendix shows each card as printed: its face drawn from the kit's
own layout, and beside it every text the card prints, repeats kept."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from reportlab.platypus import Flowable, KeepTogether, Paragraph, SimpleDocTemplate, Table

from pnp.content.icons import icon_map
from pnp.content.loader import LoadedGame, load_game
from pnp.render.fonts import prepare_cjk_fonts
from pnp.render.icons import prepare_canvas
from pnp.render.text import inline_icons
from pnp.rulebook.pdf import A5, FaceFigure, StoryBuilder, all_text
from pnp.units import mm
from tests.conftest import CONTENT, TEMPLATES
from tests.pdfcheck import undefined_resources


@pytest.fixture(scope="module")
def maquis() -> LoadedGame:
    return load_game(CONTENT, "maquis")


def _appendix(game: LoadedGame, path: Path) -> list[Flowable]:
    """The appendix alone, typeset as the book sets it."""
    with inline_icons(icon_map(game.model)):
        builder = StoryBuilder(game, TEMPLATES, prepare_cjk_fonts())
        story = builder.card_reference()
        fonts = prepare_cjk_fonts(all_text(story))
        for figure in builder.figures:
            figure.fonts = fonts

        def on_page(canvas: Any, _: Any) -> None:
            prepare_canvas(canvas)

        document = SimpleDocTemplate(str(path), pagesize=A5, invariant=1)
        document.build(list(story), onFirstPage=on_page, onLaterPages=on_page)
    return story


def _flat(flowables: list[Any]) -> list[Any]:
    """The appendix's flowables with what each KeepTogether holds in its place."""
    found: list[Any] = []
    for flowable in flowables:
        found += _flat(flowable._content) if isinstance(flowable, KeepTogether) else [flowable]
    return found


def _decks(flowables: list[Any]) -> dict[str, list[Table]]:
    """Each deck's rows of entries, by the heading above them."""
    decks: dict[str, list[Table]] = {}
    for flowable in _flat(flowables):
        if isinstance(flowable, Paragraph):
            title = re.sub(r"<[^>]*>", "", flowable.text)
            decks[title] = []
        elif isinstance(flowable, Table):
            decks[title].append(flowable)
    return decks


def _entries(flowables: list[Any]) -> dict[str, tuple[FaceFigure, list[str]]]:
    """Each card of the appendix by the name it is listed under: its drawing and the lines
    printed beside it."""
    found: dict[str, tuple[FaceFigure, list[str]]] = {}
    for flowable in _flat(flowables):
        if not isinstance(flowable, Table):
            continue
        for row in flowable._cellvalues:
            for cell in row:
                # reportlab keeps a cell's flowables as a tuple of them
                for entry in cell if isinstance(cell, tuple | list) else [cell]:
                    if not isinstance(entry, Table):
                        continue
                    (drawing,), words = entry._cellvalues[0]
                    assert isinstance(drawing, FaceFigure)
                    lines = [
                        re.sub(r"<[^>]*>", "", p.text) for p in words if isinstance(p, Paragraph)
                    ]
                    found[lines[0].split(" ×")[0]] = (drawing, lines[1:])
    return found


def test_the_appendix_draws_each_card_and_keeps_a_repeated_task(
    maquis: LoadedGame, tmp_path: Path
) -> None:
    path = tmp_path / "appendix.pdf"
    entries = _entries(_appendix(maquis, path))
    # Every card of MAQUIS (patrols, missions, tiles, tokens) is listed with its drawing...
    assert len(entries) == 33
    # ...and each drawing is a form of the document, placed on the appendix's pages.
    assert undefined_resources(path) == []
    forms = {
        name
        for page in PdfReader(path).pages
        for name, xobject in (page["/Resources"].get("/XObject") or {}).items()
        if xobject.get_object()["/Subtype"] == "/Form"
    }
    assert len(forms) == 33
    # 破坏兵工厂 prints 砸毁机器 in two task boxes, 刺杀军官 跟踪 in two: both listed.
    _, sabotage = entries["破坏兵工厂"]
    assert sum("砸毁机器" in line for line in sabotage) == 2
    _, assassination = entries["刺杀军官"]
    assert sum(line.startswith("跟踪") for line in assassination) == 2
    # The drawing beside the words is that card's own face.
    drawing, _ = entries["破坏兵工厂"]
    assert "破坏兵工厂" in drawing.text_drawn()


def test_a_deck_of_short_cards_is_set_in_three_columns_in_fewer_pages() -> None:
    # Arena Tales' fighters' cards say a few words each: two columns of 30 mm drawings set
    # them on eleven pages, mostly white; three narrower columns keep every card and its
    # words on about seven. Whichever setting is shorter is taken, deck by deck.
    game = load_game(CONTENT, "arena-tales")
    builder = StoryBuilder(game, TEMPLATES, prepare_cjk_fonts())
    story = builder.card_reference()
    entries = _entries(story)
    assert {card.name for card in game.model.cards} <= set(entries)
    deck = max(_decks(story).values(), key=len)
    assert all(len(row._cellvalues[0]) == 3 for row in deck)
    page = A5[1] - 2 * mm(15)
    assert sum(row.wrap(builder.width, 1e6)[1] for row in deck) < 6.5 * page
