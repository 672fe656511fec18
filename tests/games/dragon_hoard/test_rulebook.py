"""The Dragon Hoard rulebook: contents that tell the truth, numbers from content, and the speed
order examples computed by the rules engine (so the ☆ rounding decision shows in the text)."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pypdf
import pytest

from pnp.content.loader import LoadedGame, load_game
from pnp.games.dragon_hoard.examples import rulebook_examples
from pnp.games.dragon_hoard.model import AI, Rounding, resolution_order
from pnp.rulebook.build import RulebookFiles, build_rulebook
from pnp.rulebook.text import walk_sections
from tests.conftest import CONTENT, TEMPLATES, rulebook_once
from tests.rulebook.reading import book_text, flat, page_texts

GAME = "dragon-hoard"


@pytest.fixture(scope="module")
def game() -> LoadedGame:
    return load_game(CONTENT, GAME)


@pytest.fixture(scope="module")
def book(game: LoadedGame, tmp_path_factory: pytest.TempPathFactory) -> RulebookFiles:
    return rulebook_once(tmp_path_factory, game)


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


def test_numbers_in_the_text_come_from_content(book: RulebookFiles, game: LoadedGame) -> None:
    text = book_text(book.reading)
    model = game.model
    assert flat(f"每人每回合最多放 {model.settings.cards_per_round} 张") in text
    assert flat(f"{model.placement_seconds} 秒的放置阶段开始") in text
    assert flat(f"第 {model.settings.recall_limit} 次从牌库摸到归位牌") in text
    assert flat(f"共 {model.ai_deck_size} 张，其中归位牌 {model.recall_cards} 张") in text


def test_the_figure_is_an_ai_card_drawn_by_the_kit(book: RulebookFiles, game: LoadedGame) -> None:
    card = game.model.ai_card("ice-breath")
    page = next(t for t in page_texts(book.reading) if "一张 AI 牌" in t)
    # The card face's own words, printed by the card renderer inside the rulebook.
    assert card.name in page and flat(card.text) in flat(page)


def test_every_glyph_is_in_the_font(game: LoadedGame) -> None:
    from pnp.render.fonts import prepare_cjk_fonts
    from pnp.rulebook.pdf import StoryBuilder, all_text

    story = StoryBuilder(game, TEMPLATES, prepare_cjk_fonts()).story(game.model.rulebook)
    chars = all_text(story)
    fonts = prepare_cjk_fonts(chars)
    assert not set(chars) & fonts.lacking
    assert not fonts.missing(chars)


# -- the speed order ------------------------------------------------------------------------


def test_the_speed_examples_are_the_model_resolution_order(game: LoadedGame) -> None:
    model = game.model
    speed = rulebook_examples(model)["speed"]
    players, labels = speed["players"], speed["placed"]
    rounding = model.settings.star_rounding
    examples = [speed["zero"], speed["infinity"], speed["number"], speed["fewer"], *speed["stars"]]
    for example in examples:
        card = next(c for c in model.ai_cards if c.name == example["card"])
        cards = labels[: example["placed"]]
        order = resolution_order(card.speed, cards, players, rounding)
        shown = [f"【{card.name}】" if item == AI else item for item in order]
        assert example["order"] == " → ".join(shown)
        assert example["after"] == order.index(AI)


def test_each_marker_kind_falls_where_the_rules_say(game: LoadedGame) -> None:
    speed = rulebook_examples(game.model)["speed"]
    count = speed["count"]
    # 0: before every player card. ∞: after every one of them.
    assert speed["zero"]["after"] == 0
    assert speed["infinity"]["after"] == count
    # N: after N cards, the cancelled one counted; fewer cards than N: after all of them.
    assert speed["number"]["after"] == speed["number"]["wanted"] < count
    fewer = speed["fewer"]
    assert fewer["placed"] < fewer["wanted"] and fewer["after"] == fewer["placed"]
    # ☆×N: players at the start × N, rounded down in this edition (3 × 1/2 = 1.5 → 1).
    half = next(s for s in speed["stars"] if s["n"] == "1/2")
    assert speed["players"] == 3 and half["exact"] == "1.5" and half["after"] == 1
    # The leaver's second card is cancelled, played out by the engine, and still counted.
    assert speed["left"] is True
    whole = next(s for s in speed["stars"] if s["n"] == "1")
    assert whole["after"] == speed["cancelled_at"] == 3


def test_the_rulebook_shows_the_engines_order(book: RulebookFiles, game: LoadedGame) -> None:
    text = book_text(book.reading)
    speed = rulebook_examples(game.model)["speed"]
    for example in [speed["zero"], speed["infinity"], speed["number"], speed["fewer"]]:
        assert flat(example["order"]) in text, example["card"]
    for star in speed["stars"]:
        assert flat(f"{speed['players']} × {star['n']} = {star['exact']}") in text
        assert flat(star["order"]) in text, star["card"]
    assert flat(f"全部的第 {speed['cancelled_at']} 张 {speed['cancelled']} 被取消") in text


def test_changing_the_star_rounding_changes_the_rulebook(
    content_copy: Path, tmp_path: Path, book: RulebookFiles
) -> None:
    path = content_copy / GAME / "game.yaml"
    text = path.read_text(encoding="utf-8")
    assert "star_rounding: down" in text
    path.write_text(text.replace("star_rounding: down", "star_rounding: up"), encoding="utf-8")
    game = load_game(content_copy, GAME)
    assert game.model.settings.star_rounding is Rounding.UP
    speed = rulebook_examples(game.model)["speed"]
    half = next(s for s in speed["stars"] if s["n"] == "1/2")
    assert half["wanted"] == 2 == Rounding.UP.apply(Fraction(3, 2))

    before = book_text(book.reading)
    after = book_text(build_rulebook(game, tmp_path, TEMPLATES).reading)
    down_line = flat("3 × 1/2 = 1.5，向下取整为 1，在第 1 张之后")
    up_line = flat("3 × 1/2 = 1.5，向上取整为 2，在第 2 张之后")
    assert down_line in before and up_line not in before
    assert up_line in after and down_line not in after
    assert flat(half["order"]) in after
    # The speed rules and the decision say so too.
    assert flat("乘出来不是整数时一律向上取整") in after
    assert flat("3 人局：☆×1/2 = 2 张") in after


def test_no_page_of_the_reading_edition_is_blank(book: RulebookFiles, game: LoadedGame) -> None:
    # The card appendix ends on a table that can fill its page to the bottom; the space
    # after it must not spill onto a page of its own, which would print only the footer.
    for number, text in enumerate(page_texts(book.reading), start=1):
        assert flat(text) not in ("", flat(f"— {number} —{game.model.info.title}")), number
