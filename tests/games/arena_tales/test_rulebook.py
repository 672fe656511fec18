"""The Arena Tales rulebook: contents that tell the truth, numbers from content, the glossary
taken from the game's keyword glossary, and the charge falloff example computed by the engine."""

from __future__ import annotations

import re
from pathlib import Path

import pypdf
import pytest

from pnp.content.loader import LoadedGame, load_game
from pnp.games.arena_tales.examples import rulebook_examples
from pnp.games.arena_tales.model import ArenaTales
from pnp.rulebook.build import RulebookFiles, build_rulebook
from pnp.rulebook.text import context_for, render, walk_sections
from tests.conftest import CONTENT, TEMPLATES, rulebook_once
from tests.rulebook.reading import book_text, flat, page_texts

GAME = "arena-tales"


@pytest.fixture(scope="module")
def game() -> LoadedGame:
    return load_game(CONTENT, GAME)


@pytest.fixture(scope="module")
def book(game: LoadedGame, tmp_path_factory: pytest.TempPathFactory) -> RulebookFiles:
    return rulebook_once(tmp_path_factory, game)


def body_lines(path: Path) -> list[str]:
    """The lines after the cover and the contents."""
    return [line.strip() for text in page_texts(path)[2:] for line in text.splitlines()]


def between(lines: list[str], start: str | None, end: str) -> str:
    """Flat text from the heading ``start`` (None: the beginning) up to the heading ``end``."""
    first = 0 if start is None else lines.index(start)
    return flat("".join(lines[first : lines.index(end)]))


def test_booklet_pads_to_a_multiple_of_four(book: RulebookFiles) -> None:
    sides = pypdf.PdfReader(book.booklet).pages
    assert (len(sides) * 2) % 4 == 0
    assert len(sides) * 2 - book.pages < 4


def test_contents_list_every_section_with_the_page_it_starts_on(
    book: RulebookFiles, game: LoadedGame
) -> None:
    texts = page_texts(book.reading)
    contents = texts[1]
    for section, _ in walk_sections(game.model.rulebook.sections):
        match = re.search(rf"{re.escape(section.title)}\s*[.·…\s]*\s(\d+)", contents)
        assert match, f"{section.title} missing from the contents"
        page = int(match.group(1))
        lines = [line.strip() for line in texts[page - 1].splitlines()]
        assert section.title in lines, f"{section.title} is not on page {page}"


def test_every_section_is_a_bookmark(book: RulebookFiles, game: LoadedGame) -> None:
    outline = [
        item.title for item in pypdf.PdfReader(book.reading).outline if not isinstance(item, list)
    ]
    for section, _ in walk_sections(game.model.rulebook.sections):
        assert section.title in outline


def test_numbers_in_the_text_come_from_content(book: RulebookFiles, game: LoadedGame) -> None:
    text = book_text(book.reading)
    settings = game.model.settings
    assert f"从顶上发{settings.life}张牌" in text
    assert f"把手牌补到{settings.hand_refill}张" in text
    assert f"达到{settings.forced_end}张或更多" in text
    assert f"直到剩{settings.hand_limit}张" in text
    assert f"专属卡组：{settings.shared_names}种" in text


def test_the_charge_example_shows_the_engines_numbers(
    book: RulebookFiles, game: LoadedGame
) -> None:
    charge = rulebook_examples(game.model)["charge"]
    text = book_text(book.reading)
    assert f"打出「{charge['card']}」" in text
    for row in charge["rows"]:
        assert f"距离{row['distance']}，{row['damage']}点" in text
    # The engine's numbers follow the rule the text states: full damage at the maximum
    # distance, -1 per hex closer, never below 1.
    rows = charge["rows"]
    assert rows[0]["distance"] == charge["reach"] and rows[0]["damage"] == charge["full"]
    for row in rows:
        expected = max(1, charge["full"] - (charge["reach"] - row["distance"]))
        assert row["damage"] == expected
    assert any(row["damage"] == 1 for row in rows[:-1]), "the example should show the floor"
    # Only the nearest character on the line is hit.
    assert charge["near_damage"] > 0 and charge["far_damage"] == 0
    assert f"冲击只打到近的那名（{charge['near_damage']}点）" in text


def test_a_changed_card_changes_the_worked_example(content_copy: Path, tmp_path: Path) -> None:
    path = content_copy / GAME / "cards.yaml"
    old = "name: 滚石, colour: brown, type: damage, cost: 1, damage: 2,"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, old.replace("damage: 2,", "damage: 1,")), encoding="utf-8")
    game = load_game(content_copy, GAME)
    rows = rulebook_examples(game.model)["charge"]["rows"]
    assert [row["damage"] for row in rows] == [2, 1, 1, 1]  # 1, and 磐石's damage +1
    book = book_text(build_rulebook(game, tmp_path, TEMPLATES).reading)
    assert "距离4，2点；距离3，1点；距离2，1点；距离1，1点。" in book


def test_a_changed_content_value_changes_the_rulebook(content_copy: Path, tmp_path: Path) -> None:
    path = content_copy / GAME / "game.yaml"
    text = path.read_text(encoding="utf-8")
    assert "  hand_refill: 3 " in text
    path.write_text(text.replace("  hand_refill: 3 ", "  hand_refill: 4 "), encoding="utf-8")
    game = load_game(content_copy, GAME)
    book = book_text(build_rulebook(game, tmp_path, TEMPLATES).reading)
    assert "把手牌补到4张" in book
    assert "把手牌补到3张" not in book


def test_the_glossary_is_the_games_keyword_glossary(book: RulebookFiles, game: LoadedGame) -> None:
    model: ArenaTales = game.model
    assert model.rulebook is not None and model.rulebook.glossary == ()
    glossary = between(body_lines(book.reading), "术语表", "本版规则裁定")
    context = context_for(game)
    for entry in model.glossary:
        assert flat(entry.name) in glossary
        meaning = flat(render(entry.text, context, entry.where))
        assert meaning[:12] in glossary, f"{entry.name}: meaning missing"
    # Meanings are rendered against the model: a crystal's boost is its content value.
    wind = model.element("wind")
    assert f"范围数字+{wind.range}" in glossary


def test_the_card_figure_shows_its_range_hexagon(book: RulebookFiles, game: LoadedGame) -> None:
    figure = next(
        block
        for section, _ in walk_sections(game.model.rulebook.sections)
        for block in section.blocks
        if block.kind.value == "figure"
    )
    deck_card = next(c for c in game.model.deck_cards if c.id == figure.item)
    page = next(t for t in page_texts(book.reading)[2:] if "认识卡牌" in t.splitlines())
    assert deck_card.card.name in page
    specs = [spec for spec in deck_card.card.range if spec]
    assert specs and all(spec in page for spec in specs)


def test_every_keyword_and_zone_is_explained_in_the_rules(
    book: RulebookFiles, game: LoadedGame
) -> None:
    from pnp.games.arena_tales.checks import rulebook_terms

    # Outside the generated glossary: the rules themselves name every printed term.
    rules = between(body_lines(book.reading), None, "术语表")
    for term, _ in rulebook_terms(game.model):
        assert flat(term) in rules, term


def test_decisions_and_every_card_are_in_the_book(book: RulebookFiles, game: LoadedGame) -> None:
    text = book_text(book.reading)
    for decision in game.model.decisions:
        # A designer's ruling goes to the designer's report, never to the players' book.
        assert (flat(decision.question)[:15] in text) is not decision.designer, decision.id
    for card in game.model.cards:
        assert card.name in text
