"""The Maquis rulebook: its worked patrol example is the engine's, its numbers are content's."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.content.loader import LoadedGame, load_game
from pnp.games.maquis.examples import rulebook_examples
from pnp.rulebook.build import RulebookFiles, build_rulebook
from tests.conftest import TEMPLATES, rulebook_once
from tests.pdfcheck import pdf_texts
from tests.rulebook.reading import flat

CONTENT = TEMPLATES.parent / "content"


@pytest.fixture(scope="module")
def maquis() -> LoadedGame:
    return load_game(CONTENT, "maquis")


@pytest.fixture(scope="module")
def book(maquis: LoadedGame, tmp_path_factory: pytest.TempPathFactory) -> RulebookFiles:
    return rulebook_once(tmp_path_factory, maquis)


def text_of(path: Path) -> str:
    return "\n".join(pdf_texts(path))


def test_the_patrol_example_is_the_engines_placement(
    book: RulebookFiles, maquis: LoadedGame
) -> None:
    patrol = rulebook_examples(maquis.model)["patrol"]
    # The engine's verdict on the first patrol card: lands on its third space, then arrests
    # the worker on its second, then is not placed at all.
    card = maquis.model.patrol_cards[0]
    names = [maquis.model.location[x].name for x in card.locations]
    assert patrol["lands"] == names[2] and patrol["arrest_at"] == names[1]
    assert patrol["arrested"] is True and patrol["blocked_placed"] is False
    text = flat(text_of(book.reading))
    assert flat(f"翻开「{patrol['card']}」，依次查看{'、'.join(names)}。") in text
    assert flat(f"巡逻放在{patrol['lands']}。") in text
    assert flat(f"第一个有工人的是{patrol['arrest_at']}，那里的工人被捕") in text
    assert flat("这名巡逻不放置") in text


def test_the_patrol_count_example_is_the_engines(book: RulebookFiles, maquis: LoadedGame) -> None:
    count = rulebook_examples(maquis.model)["count"]
    assert count["low_patrols"] == max(count["home"], count["low_red"])
    text = flat(text_of(book.reading))
    assert flat(f"所以本回合有{count['high_patrols']}名巡逻") in text


def test_the_difficulty_table_comes_from_content(maquis: LoadedGame) -> None:
    from pnp.model.rulebook import BlockKind
    from pnp.rulebook.text import context_for, render

    section = next(s for s in maquis.model.rulebook.sections if s.id == "difficulty")
    table = next(b for b in section.blocks if b.kind is BlockKind.TABLE)
    context = context_for(maquis)
    rows = [[render(cell, context, table.where) for cell in row] for row in table.rows[1:]]
    assert len(rows) == len(maquis.model.difficulties)
    for row, level in zip(rows, maquis.model.difficulties, strict=True):
        assert row[0] == level.name
        assert row[1] == f"{level.workers} + {level.cafe}"
        assert row[2] == maquis.model.airdrop_text(level)
        assert ("星号格" in row[4]) == (level.morale_drop.value == "star")
        assert (str(level.arrest_morale) in row[4]) == bool(level.arrest_morale)


def test_every_section_is_in_the_reading_edition(book: RulebookFiles, maquis: LoadedGame) -> None:
    text = text_of(book.reading)
    lines = {line.strip() for line in text.splitlines()}
    for section in maquis.model.rulebook.sections:
        assert section.title in lines
    assert book.pages % 4 == 0 or book.sheets * 4 >= book.pages


def test_a_changed_patrol_card_changes_the_example(content_copy: Path, tmp_path: Path) -> None:
    path = content_copy / "maquis" / "cards.yaml"
    text = path.read_text(encoding="utf-8")
    old = "locations: [square, radio, black-market]"
    assert old in text
    path.write_text(text.replace(old, "locations: [farm, tavern, church]"), encoding="utf-8")
    game = load_game(content_copy, "maquis")
    patrol = rulebook_examples(game.model)["patrol"]
    assert (patrol["lands"], patrol["arrest_at"]) == ("教堂", "酒馆")
    book = flat(text_of(build_rulebook(game, tmp_path, TEMPLATES).reading))
    assert flat("巡逻放在教堂。") in book
    assert flat("巡逻放在黑市。") not in book


def test_a_changed_content_value_changes_the_text(content_copy: Path, tmp_path: Path) -> None:
    path = content_copy / "maquis" / "game.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("kills_per_round: 1", "kills_per_round: 2"), encoding="utf-8")
    game = load_game(content_copy, "maquis")
    book = flat(text_of(build_rulebook(game, tmp_path, TEMPLATES).reading))
    assert flat("每回合最多 2 次") in book
    assert flat("每回合最多 1 次") not in book


def test_the_rulebook_says_what_the_engine_does_on_issue_13(book: RulebookFiles) -> None:
    # The setup puts the day marker on the start space beside day 1; patrol cards skip the
    # second safe house; a weapon gained this round kills before the worker walks home; the
    # last day of a harder level still costs its morale (issue 28: the post's orange day).
    text = flat(text_of(book.reading))
    assert flat("日期标记放在日期轨第一天旁边的「起点」格") in text
    assert flat("牌上列出的空屋已经改造成第二安全屋时，跳过这一项") in text
    assert flat("回家之前，这次行动得到的武器已经在他手里") in text
    assert flat("那一格照常结算，是本级别扣士气的格子（橙色格或星号格）就先降一格士气") in text
    assert flat("也不扣士气") not in text
