"""The preflight finds what a print shop or a player would notice, located, and today's five
kits pass it."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from pnp.content.loader import load_game
from pnp.errors import Location
from pnp.layout.sheets import plan_card_grid
from pnp.units import mm
from pnp.validate.checks import Findings
from pnp.validate.preflight import (
    PlayerText,
    _check_grid,
    check_player_words,
    check_quotes,
    check_spellings,
)
from pnp.validate.runner import check_static
from tests.conftest import CONTENT, TEMPLATES

HERE = Location("content/x/game.yaml", 7)


@pytest.fixture(scope="module")
def findings() -> Findings:
    return Findings(load_game(CONTENT, "deadline-99"))


def _messages(findings: Findings) -> list[str]:
    return [f"{p.location}: {p.message}" for p in findings.problems]


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("用 pnp validate --balance 检查", "a command"),
        ("见 --back-offset 参数", "a command option"),
        ("（issue 15）", "an issue number"),
        ("与规则引擎一致", "the software"),
        ("按 95 % Wilson 区间", "a statistics term"),
        ("看 95 % 置信区间", "a statistics term"),
        ("模拟中后手多赢", "a simulation"),
        ("版图中心 96 mm 处", "a measurement in mm"),
    ],
)
def test_developer_words_in_a_player_document_are_found_where_written(text: str, kind: str) -> None:
    findings = Findings(load_game(CONTENT, "deadline-99"))
    check_player_words(findings, [PlayerText(HERE, "ruling 'x' answer", text)], set())
    assert any(m.startswith("content/x/game.yaml:7") and kind in m for m in _messages(findings))


def test_a_decision_id_used_as_a_reference_is_found() -> None:
    findings = Findings(load_game(CONTENT, "deadline-99"))
    texts = [PlayerText(HERE, "ruling 'a' answer", "走几格见「move-distance」。")]
    check_player_words(findings, texts, {"move-distance", "death"})
    assert any("decision id 'move-distance'" in m for m in _messages(findings))


def test_plain_words_pass() -> None:
    findings = Findings(load_game(CONTENT, "deadline-99"))
    texts = [PlayerText(HERE, "ruling", "卡牌 63×88 毫米，四周 3 毫米出血。先打出一张牌。")]
    check_player_words(findings, texts, {"move-distance"})
    assert findings.problems == []


def test_an_icon_named_like_a_ruling_is_not_a_reference_to_it() -> None:
    # [[facing]] draws the facing arrow; Arena Tales also has a ruling with the id 'facing'.
    findings = Findings(load_game(CONTENT, "deadline-99"))
    texts = [PlayerText(HERE, "rulebook text", "沿 [[facing]] [[move]] 走。")]
    check_player_words(findings, texts, {"facing"})
    assert findings.problems == []


def test_a_term_spelt_two_ways_is_found_at_the_term() -> None:
    findings = Findings(load_game(CONTENT, "deadline-99"))
    texts = [PlayerText(HERE, "rulebook setup.text", "每回合翻开一张巡逻牌。")]
    check_spellings(findings, [("巡逻卡", Location("content/x/rulebook.yaml", 3))], texts)
    assert _messages(findings) == [
        "content/x/rulebook.yaml:3: the term '巡逻卡' is also spelt '巡逻牌' (rulebook "
        "setup.text, content/x/game.yaml:7): one term, one spelling"
    ]


@pytest.mark.parametrize(
    ("term", "written", "variant"),
    [
        ("资源标记物", "拿一个资源标记。", "资源标记"),
        ("准备回合", "准备轮结束后", "准备轮"),
        ("星形盾牌", "站在星形盾上", "星形盾"),
    ],
)
def test_a_term_spelt_another_known_way_is_found(term: str, written: str, variant: str) -> None:
    findings = Findings(load_game(CONTENT, "deadline-99"))
    texts = [PlayerText(HERE, "rulebook setup.text", written)]
    check_spellings(findings, [(term, Location("content/x/rulebook.yaml", 3))], texts)
    assert _messages(findings) == [
        f"content/x/rulebook.yaml:3: the term {term!r} is also spelt {variant!r} (rulebook "
        "setup.text, content/x/game.yaml:7): one term, one spelling"
    ]


def test_the_term_itself_and_a_variant_that_is_another_term_pass() -> None:
    findings = Findings(load_game(CONTENT, "deadline-99"))
    texts = [PlayerText(HERE, "rulebook", "拿一个资源标记物，翻开一张行动牌。")]
    terms = [("资源标记物", HERE), ("行动卡", HERE), ("行动牌", HERE)]
    check_spellings(findings, terms, texts)
    assert findings.problems == []


def test_curly_quotes_beside_corner_brackets_are_found_where_written() -> None:
    findings = Findings(load_game(CONTENT, "deadline-99"))
    texts = [
        PlayerText(HERE, "glossary '弃牌'", "“弃牌 X”：弃 X 张手牌。"),
        PlayerText(HERE, "glossary '回收'", "「回收 X」：把 X 张牌回收。"),
    ]
    check_quotes(findings, texts)
    assert _messages(findings) == [
        "content/x/game.yaml:7: glossary '弃牌': '“' in a Chinese player document, which "
        "quotes with 「…」: one quotation style"
    ]


def test_butted_cards_without_a_border_and_marks_in_the_margin_are_found() -> None:
    findings = Findings(load_game(CONTENT, "deadline-99"))
    grid = plan_card_grid(mm(63), mm(88), bleed=mm(3), page_width=mm(210), page_height=mm(297))
    bare = dataclasses.replace(grid, neutral_border=0.0, margin=0.0)  # today's old geometry
    _check_grid(findings, "cards", HERE, "a4", bare, margin=mm(5))
    messages = " ".join(_messages(findings))
    assert "cards butt side by side with no bleed and no neutral border" in messages
    assert "crop marks run into the outer 5 mm" in messages


def test_the_planned_grid_passes() -> None:
    findings = Findings(load_game(CONTENT, "deadline-99"))
    grid = plan_card_grid(mm(63), mm(88), bleed=mm(3), page_width=mm(210), page_height=mm(297))
    _check_grid(findings, "cards", HERE, "a4", grid, margin=mm(5))
    assert findings.problems == []


def test_a_developer_word_seeded_into_a_ruling_fails_validate(content_copy: Path) -> None:
    game_file = content_copy / "deadline-99" / "game.yaml"
    text = game_file.read_text(encoding="utf-8")
    seeded = text.replace("不能。计数最低为", "不能（见 pnp simulate 的统计）。计数最低为", 1)
    assert seeded != text
    game_file.write_text(seeded, encoding="utf-8")
    problems = check_static(load_game(content_copy, "deadline-99"), TEMPLATES).problems
    assert any(
        "count-floor" in p.message and "a command in a player document" in p.message
        for p in problems
    )
