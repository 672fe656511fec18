"""Rulebook figures of positions the engine reaches: drawn through the game's view by the kit's
renderer, so a change to the engine's position changes the picture."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pdfplumber
import pytest

from pnp.content.loader import LoadedGame
from pnp.engines.view import Board
from pnp.games.deadline_99 import examples
from pnp.render.fonts import prepare_cjk_fonts
from pnp.render.pdf import new_canvas
from pnp.rulebook import scenes
from pnp.rulebook.scenes import KitFaces, SceneFigure, positions_of, scene_areas
from pnp.units import mm
from tests.conftest import TEMPLATES


def _drawn(
    game: LoadedGame, name: str, path: Path
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The figure of position `name` alone on a page; the words it prints, read back."""
    pictured = positions_of(game)[name]
    areas = scene_areas(game, pictured)
    fonts = prepare_cjk_fonts("0123456789计数打出超过出局仍为，：")
    faces = KitFaces(game, TEMPLATES)
    figure = SceneFigure(areas, pictured.captions, faces, fonts, 350, 500)
    canvas = new_canvas(path, (400, 600), title="t", font=fonts.regular)
    figure.canv = canvas
    figure.wrap(350, 500)
    figure.drawOn(canvas, 20, 20)
    canvas.save()
    with pdfplumber.open(str(path)) as pdf:
        return list(pdf.pages[0].chars), list(pdf.pages[0].curves)


def _count_disc(curves: list[dict[str, Any]]) -> dict[str, Any]:
    # The coin: a red disc edged in white (card faces' red hearts have no edge).
    red = [
        c
        for c in curves
        if c["fill"]
        and c["stroke"]
        and c["non_stroking_color"] == pytest.approx((0.7529, 0.149, 0.1765), abs=0.01)
        and c["stroking_color"] == pytest.approx((1, 1, 1))
    ]
    assert len(red) == 1, red
    return red[0]


def test_the_setup_figure_is_the_engines_initial_position(
    deadline_99: LoadedGame, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The count tracker's coin stands where the engine's initial state puts the count; start
    the engine elsewhere and the figure moves the coin there."""
    _, curves = _drawn(deadline_99, "setup", tmp_path / "a.pdf")
    at_start = _count_disc(curves)
    start = deadline_99.model.settings.count_start

    rules_type = type(positions_of(deadline_99)["setup"].rules)
    initial = rules_type.initial_state

    def later(self: Any, rng: Any) -> Any:
        return dataclasses.replace(initial(self, rng), count=start + 42)

    monkeypatch.setattr(rules_type, "initial_state", later)
    monkeypatch.setattr(scenes, "_POSITIONS", {})
    pictured = examples.rulebook_positions(deadline_99.model)["setup"]
    assert pictured.states[0].count == start + 42
    _, moved_curves = _drawn(deadline_99, "setup", tmp_path / "b.pdf")
    moved = _count_disc(moved_curves)
    assert (moved["x0"], moved["top"]) != pytest.approx((at_start["x0"], at_start["top"]))
    # 42 later on a tracker of ten to a row: four rows down and two cells across.
    assert moved["top"] > at_start["top"] and moved["x0"] > at_start["x0"]


def test_the_bust_figure_shows_before_and_after_from_the_engine(
    deadline_99: LoadedGame, tmp_path: Path
) -> None:
    pictured = positions_of(deadline_99)["bust"]
    before, after = pictured.states
    assert not before.out[0] and after.out[0]  # the engine put the player out
    areas = scene_areas(deadline_99, pictured)
    boards = [[a for a in state if isinstance(a, Board)] for state in areas]
    # The coin stands at the engine's count in both: the count did not move past the cap.
    assert boards[0][0].pieces[0].anchor == str(before.count) == boards[1][0].pieces[0].anchor
    chars, _ = _drawn(deadline_99, "bust", tmp_path / "bust.pdf")
    text = "".join(c["text"] for c in chars)
    assert f"计数 {before.count}" in text and "出局" in text


def test_a_figure_of_a_position_the_engine_does_not_name_is_a_located_error(
    tmp_path: Path,
) -> None:
    import re
    import shutil

    from click.testing import CliRunner

    from pnp.cli import main
    from tests.conftest import CONTENT

    shutil.copytree(CONTENT / "deadline-99", tmp_path / "content" / "deadline-99")
    shutil.copytree(TEMPLATES, tmp_path / "templates")
    rulebook = tmp_path / "content" / "deadline-99" / "rulebook.yaml"
    rulebook.write_text(
        rulebook.read_text(encoding="utf-8").replace("position: bust", "position: buts"),
        encoding="utf-8",
    )
    result = CliRunner().invoke(
        main, ["--content", str(tmp_path / "content"), "validate", "deadline-99", "--static-only"]
    )
    output = result.stdout + result.stderr
    assert result.exit_code == 1, output
    assert re.search(
        r"rulebook\.yaml:\d+:\d+: deadline-99: rulebook figure: no position 'buts' "
        r"\(did you mean 'bust'\?\)",
        output,
    ), output


def test_the_cover_is_composed_of_the_kits_own_cards_and_mark(deadline_99: LoadedGame) -> None:
    from pnp.content.icons import icon_map
    from pnp.rulebook.scenes import cover_faces

    faces = cover_faces(deadline_99, KitFaces(deadline_99, TEMPLATES))
    card_products = [p for p in deadline_99.model.products if p.kind.value == "cards"]
    assert len(faces) == len(card_products)
    assert faces[0].key.startswith(card_products[0].face)  # the deck's first card, as printed
    assert "mark" in icon_map(deadline_99.model)


def test_a_face_shown_in_two_figures_is_written_once(
    deadline_99: LoadedGame, tmp_path: Path
) -> None:
    """A book shows its board and cards in figure after figure: each face's drawing is one
    form of the document, and a second figure of the same faces only places them."""
    from pypdf import PdfReader

    from tests.pdfcheck import undefined_resources

    fonts = prepare_cjk_fonts("0123456789计数打出超过出局仍为，：")
    faces = KitFaces(deadline_99, TEMPLATES)
    pictured = positions_of(deadline_99)["bust"]
    sizes = []
    for pages in (1, 2):
        path = tmp_path / f"{pages}.pdf"
        canvas = new_canvas(path, (400, 600), title="t", font=fonts.regular)
        for _ in range(pages):
            figure = SceneFigure(
                scene_areas(deadline_99, pictured), pictured.captions, faces, fonts, 350, 500
            )
            figure.canv = canvas
            figure.wrap(350, 500)
            figure.drawOn(canvas, 20, 20)
            canvas.showPage()
        canvas.save()
        assert undefined_resources(path) == []
        reader = PdfReader(path)
        forms = {
            name
            for page in reader.pages
            for name, xobject in (page["/Resources"].get("/XObject") or {}).items()
            if xobject.get_object()["/Subtype"] == "/Form"
        }
        assert forms  # the board and the cards
        content = [len(page.get_contents().get_data()) for page in reader.pages]
        sizes.append((len(forms), content))
    (forms_once, (first,)), (forms_twice, (again, second)) = sizes
    assert forms_twice == forms_once
    assert second == again == first  # the page places the forms; it draws no face itself


def test_a_position_of_three_states_draws_each_as_large_as_two_fit_a_page(
    deadline_99: LoadedGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three states side by side draw the table at a third of the column: each is a figure
    of its own instead, much larger, and the book's flowables keep them in order."""
    from pnp.model.rulebook import BlockKind
    from pnp.rulebook import pdf
    from pnp.rulebook.scenes import StepArrow
    from pnp.rulebook.text import walk_sections

    bust = positions_of(deadline_99)["bust"]
    before, after = bust.states
    three = dataclasses.replace(
        bust, states=(before, after, after), between=(), captions=("一", "二", "三")
    )
    monkeypatch.setattr(pdf, "positions_of", lambda game: {"bust": three})
    block = next(
        block
        for section, _ in walk_sections(deadline_99.model.rulebook.sections)
        for block in section.blocks
        if block.kind is BlockKind.FIGURE and block.position == "bust"
    )
    fonts = prepare_cjk_fonts("一二三")
    builder = pdf.StoryBuilder(deadline_99, TEMPLATES, fonts)
    flowables = builder.position_figure(block)
    figures = [f for f in builder.figures if isinstance(f, SceneFigure)]
    assert [f.captions for f in figures] == [("一",), ("二",), ("三",)]
    together = SceneFigure(
        scene_areas(deadline_99, three),
        three.captions,
        KitFaces(deadline_99, TEMPLATES),
        fonts,
        builder.width,
        mm(125),
    )
    assert all(f.column > 1.4 * together.column for f in figures)
    arrows = [inner for f in flowables for inner in f._content if isinstance(inner, StepArrow)]
    assert len(flowables) == 3 and len(arrows) == 2
