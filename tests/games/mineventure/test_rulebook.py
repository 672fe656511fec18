"""The MineVenture rulebook: contents that tell the truth, numbers from content, and worked
examples (a duel with an ambush, armour and buffs, area damage, fleeing, story damage) played
out by the rules engine, so the text can never disagree with the cards or the engine."""

from __future__ import annotations

import re
from pathlib import Path

import pypdf
import pytest

from pnp.content.loader import LoadedGame, load_game
from pnp.games.mineventure.examples import rulebook_examples
from pnp.games.mineventure.model import Mineventure
from pnp.rulebook.build import RulebookFiles, build_rulebook
from pnp.rulebook.text import context_for, render, walk_sections
from pnp.units import POINTS_PER_MM
from tests.conftest import CONTENT, TEMPLATES, rulebook_once
from tests.pdfcheck import pdf_texts
from tests.rulebook.reading import flat

GAME = "mineventure"


@pytest.fixture(scope="module")
def game() -> LoadedGame:
    return load_game(CONTENT, GAME)


@pytest.fixture(scope="module")
def book(game: LoadedGame, tmp_path_factory: pytest.TempPathFactory) -> RulebookFiles:
    return rulebook_once(tmp_path_factory, game)


@pytest.fixture(scope="module")
def texts(book: RulebookFiles) -> list[str]:
    return pdf_texts(book.reading)


def titles(game: LoadedGame) -> list[str]:
    """Every section heading as printed (titles are jinja too)."""
    context = context_for(game)
    return [
        render(section.title, context, section.where)
        for section, _ in walk_sections(game.model.rulebook.sections)
    ]


def test_reading_edition_is_a5_and_the_booklet_pads_to_four(book: RulebookFiles) -> None:
    for page in pypdf.PdfReader(book.reading).pages:
        size = (
            float(page.mediabox.width) / POINTS_PER_MM,
            float(page.mediabox.height) / POINTS_PER_MM,
        )
        assert size == pytest.approx((148, 210), abs=0.1)
    sides = pypdf.PdfReader(book.booklet).pages
    assert (len(sides) * 2) % 4 == 0
    assert 0 <= len(sides) * 2 - book.pages < 4


def test_contents_list_every_section_with_the_page_it_starts_on(
    texts: list[str], game: LoadedGame
) -> None:
    # The contents run over more than one page: they end where the first section starts.
    first = re.search(r"游戏概述\s*[.·…\s]*\s(\d+)", texts[1])
    assert first
    contents = "\n".join(texts[1 : int(first.group(1)) - 1])
    for title in titles(game):
        match = re.search(rf"{re.escape(title)}\s*[.·…\s]*\s(\d+)", contents)
        assert match, f"{title} missing from the contents"
        page = int(match.group(1))
        lines = [line.strip() for line in texts[page - 1].splitlines()]
        assert title in lines, f"{title} is not on page {page}"


def test_every_section_is_a_bookmark(book: RulebookFiles, game: LoadedGame) -> None:
    def flatten(outline: list) -> list[str]:  # type: ignore[type-arg]
        out: list[str] = []
        for item in outline:
            out += flatten(item) if isinstance(item, list) else [item.title]
        return out

    outline = flatten(pypdf.PdfReader(book.reading).outline)
    for title in titles(game):
        assert title in outline


def test_numbers_in_the_text_come_from_content(texts: list[str], game: LoadedGame) -> None:
    text = flat("".join(texts))
    model: Mineventure = game.model
    s = model.settings
    assert flat(f"投一次骰子（{s.die_sides} 面）") in text
    assert flat(f"手牌上限 {s.hand_limit} 张") in text
    assert flat(f"每人摸 {s.opening_equipment} 张装备牌并立即装上") in text
    assert flat(f"再摸 {s.opening_items} 张道具牌作为手牌") in text
    assert flat(f"一场战斗最多持续 {s.combat_rounds} 个回合") in text
    assert flat(f"骰点 − {s.flee_penalty}（最低 {s.flee_floor}）") in text
    assert flat(f"所有活着的玩家回复 {s.daily_heal} 点血量") in text
    assert flat(f"（已死亡玩家数 + {s.story_base}）点真实伤害") in text
    assert flat(f"第 {s.story_day} 天") in text
    for assembly in model.assemblies:
        spawns = len(model.assembly_spawns(assembly))
        assert flat(f"{assembly.players} 人：{assembly.name}") in text
        assert flat(f"这张地图上有 {spawns} 个出生点") in text
    for deck in model.decks:
        assert flat(f"{deck.name}（{deck.symbol}，{model.deck_size(deck.id)} 张）") in text


def test_the_duel_is_the_engines(texts: list[str], game: LoadedGame) -> None:
    duel = rulebook_examples(game.model)["duel"]
    # The defender's range does not reach the attacker: the first round is an ambush, and
    # the armour stops physical damage but not piercing.
    assert duel["ambush"] and duel["distance"] > duel["defender_range"]
    assert duel["first_taken"] == duel["attacker_damage"] - duel["defender_defence"]
    assert duel["attacker_taken"] == duel["defender_damage"]
    assert duel["durability_after"] == duel["durability"] - 2
    text = flat("".join(texts))
    assert flat(f"对 {duel['distance']} 格外装着{duel['defender_weapon']}") in text
    assert flat(f"受到 {duel['first_taken']} 点伤害，不能还手") in text
    assert flat(f"你受到 {duel['attacker_taken']} 点") in text
    assert flat(f"你剩 {duel['attacker_hp']} 点血量，他剩 {duel['defender_hp']} 点") in text


def test_the_other_examples_are_the_engines(texts: list[str], game: LoadedGame) -> None:
    examples = rulebook_examples(game.model)
    text = flat("".join(texts))
    hit = examples["modifiers"]
    # Strength adds, armour subtracts, resistance halves with its rounding mark (↑).
    assert hit["taken"] == (hit["after_armour"] + 1) // 2
    assert flat(f"减半{hit['mark']}，最后受到 {hit['taken']} 点伤害") in text
    area = examples["area"]
    assert area["proof_taken"] == 0
    assert area["plain_taken"] == area["amount"] - area["plain_defence"]
    assert flat(f"你受到 {area['plain_taken']} 点；") in text
    flee = examples["flee"]
    assert flee["fail_score"] <= flee["range"] < flee["score"]
    assert flat(f"要是投出 {flee['roll']}，逃跑点数是 {flee['score']}") in text
    story = examples["story"]
    assert story["taken"] == story["dead"] + story["base"] and story["killer_taken"] == 0
    assert flat(f"{story['dead']} + {story['base']} = {story['taken']} 点真实伤害") in text


def test_the_figures_are_cards_drawn_by_the_kit(texts: list[str], game: LoadedGame) -> None:
    sword = game.model.equipment_card("iron-sword")
    page = flat(next(t for t in texts if "一张装备牌（横版场地牌）" in t))
    # The card face's own words, printed by the card renderer inside the rulebook.
    assert sword.name in page
    # The range and the damage beside their icons (drawings), the damage's kind in words.
    assert flat(f"{sword.range} {sword.damage}（物理）") in page.replace("\u3000", "")


def test_glossary_decisions_and_card_appendix(texts: list[str], game: LoadedGame) -> None:
    text = flat("".join(texts))
    for entry in game.model.rulebook.glossary:
        assert flat(entry.term) in text
    for decision in game.model.decisions:
        # A designer's ruling goes to the designer's report, never to the players' book.
        shown = flat(decision.answer.split("{")[0])[:12] in text
        assert shown is not decision.designer, decision.id
    for card in (*game.model.equipment, *game.model.items, *game.model.food):
        assert card.name in text


def test_a_changed_content_value_changes_the_rulebook(content_copy: Path, tmp_path: Path) -> None:
    game_yaml = content_copy / GAME / "game.yaml"
    game_yaml.write_text(
        game_yaml.read_text(encoding="utf-8").replace("hand_limit: 4 ", "hand_limit: 5 "),
        encoding="utf-8",
    )
    cards = content_copy / GAME / "cards.yaml"
    cards.write_text(
        cards.read_text(encoding="utf-8").replace(
            "range: 4, damage: 3, types: [physical]", "range: 4, damage: 5, types: [physical]"
        ),
        encoding="utf-8",
    )
    game = load_game(content_copy, GAME)
    files = build_rulebook(game, tmp_path, TEMPLATES)
    text = flat("".join(pdf_texts(files.reading)))
    assert flat("手牌上限 5 张") in text and flat("手牌上限 4 张") not in text
    # A harder-hitting bow: the engine's duel changes, and so does the example.
    duel = rulebook_examples(game.model)["duel"]
    assert duel["attacker_damage"] == 5
    assert flat(f"受到 {duel['first_taken']} 点伤害，不能还手") in text
    assert duel["first_taken"] == 5 - duel["defender_defence"]
