"""The Arena Tales validator: each seeded mistake in a copy of the content is caught, in the
right file, and the shipped content is clean."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pnp.validate.runner import validate_games
from tests.conftest import TEMPLATES
from tests.validate.seeding import Seeding, only

GAME = "arena-tales"


SEEDING = Seeding("arena-tales", games=4)
validate, edit, line_of = SEEDING.validate, SEEDING.edit, SEEDING.line_of


def make_red_damage_free_and_deadly(content: Path) -> list[str]:
    """Every red (赤焰) damage card costs 0 and deals 6: issue 32's unfair edit. Returns the
    ids of the cards edited."""
    path = content / GAME / "cards.yaml"
    lines, edited = [], []
    for line in path.read_text(encoding="utf-8").splitlines(keepends=True):
        if "colour: red, type: damage" in line:
            line = re.sub(r"cost: \d+", "cost: 0", re.sub(r"damage: \d+", "damage: 6", line))
            edited.append(line.split("id: ", 1)[1].split(",", 1)[0])
        lines.append(line)
    path.write_text("".join(lines), encoding="utf-8")
    return edited


@pytest.mark.long
def test_plain_validate_fails_an_edit_that_makes_one_character_win_almost_every_game(
    content_copy: Path,
) -> None:
    # What CI runs: no --balance, each game's own number of games.
    assert len(make_red_damage_free_and_deadly(content_copy)) >= 8
    result = validate_games(content_copy, [GAME], TEMPLATES, simulated_games=None)
    errors = [p for p in result.problems if p.severity == "error"]
    assert errors, "the unfair edit passed plain validate"
    assert {Path(p.location.path) for p in errors} == {content_copy / GAME / "balance.yaml"}
    assert {p.location.line for p in errors} == {
        line_of(content_copy, "balance.yaml", "{factor: character")
    }
    assert all(re.match(r"table '\dp': character chiyan wins: 9\d%", p.message) for p in errors)
    assert all("promised 40%–60%" in p.message for p in errors)


def test_a_range_spec_that_does_not_parse_is_located(content_copy: Path) -> None:
    edit(
        content_copy,
        "cards.yaml",
        'damage: 3, range: ["④", "", "", "", "", ""], effects: [{kind: backlash',
        'damage: 3, range: ["⑨", "", "", "", "", ""], effects: [{kind: backlash',
    )
    problem = only(validate(content_copy), r"card 'flame-rush': range side 0 '⑨' is no range spec")
    assert problem.location.path.endswith("arena-tales/cards.yaml")
    assert problem.location.line == line_of(content_copy, "cards.yaml", "id: flame-rush")


def test_a_dropped_card_breaks_the_deck_of_its_character(content_copy: Path) -> None:
    edit(content_copy, "cards.yaml", "  - {id: petal-rain,", "  # - {id: petal-rain,")
    problems = validate(content_copy)
    only(problems, r"deck of 'taoyao': 11 names in its colour 'pink'; it needs 12")
    only(problems, r"deck of 'taoyao' holds 30 cards, settings.deck_size is 32")
    assert only(problems, r"99 card names; settings.card_names is 100").location.path.endswith(
        "cards.yaml"
    )


def test_the_deck_size_must_match_names_times_copies(content_copy: Path) -> None:
    # The post's "36 cards" against 16 names x 2: the decision is 32, one number in content.
    edit(content_copy, "game.yaml", "  deck_size: 32", "  deck_size: 36")
    problem = only(validate(content_copy), r"deck_size 36 is not 16 names x 2 copies \(32\)")
    assert problem.location.path.endswith("arena-tales/game.yaml")


def test_a_damage_card_without_damage_and_a_non_damage_card_with_one(content_copy: Path) -> None:
    edit(content_copy, "cards.yaml", 'cost: 1, damage: 2, range: ["2"', 'cost: 1, range: ["2"')
    edit(
        content_copy,
        "cards.yaml",
        "{id: rage, name: 怒火, colour: red, type: non_damage, cost: 2,",
        "{id: rage, name: 怒火, colour: red, type: non_damage, cost: 2, damage: 1,",
    )
    problems = validate(content_copy)
    only(problems, r"damage card 'wind-blade' has no damage")
    only(problems, r"non_damage card 'rage' must not have damage")


def test_a_keyword_nobody_uses_is_reported_in_the_glossary(content_copy: Path) -> None:
    # 花影 is the only card with 展示: without it the keyword is defined but unused.
    edit(content_copy, "cards.yaml", "effects: [{kind: display, amount: 2}]", "effects: []")
    problem = only(validate(content_copy), r"keyword 'display' is defined but never used")
    assert problem.location.path.endswith("arena-tales/game.yaml")
    assert problem.location.line == line_of(content_copy, "game.yaml", "keyword: display,")


def test_a_keyword_used_but_not_defined(content_copy: Path) -> None:
    edit(
        content_copy,
        "game.yaml",
        "  - {keyword: backlash, name: 反噬,",
        "  # - {keyword: backlash, name: 反噬,",
    )
    problem = only(validate(content_copy), r"keyword 'backlash' is used but the glossary")
    assert problem.location.path.endswith("arena-tales/cards.yaml")


def test_a_keyword_without_an_engine_handler_is_an_error(
    content_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pnp.games.arena_tales import checks
    from pnp.games.arena_tales import effects as arena_tales
    from pnp.games.arena_tales.model import Keyword

    monkeypatch.setattr(checks, "KEYWORDS", arena_tales.KEYWORDS - {Keyword.KNOCKBACK})
    problem = only(validate(content_copy), r"keyword 'knockback' has no implementation")
    assert problem.location.path.endswith("arena-tales/game.yaml")


def test_an_effect_at_a_timing_the_engine_never_reads(content_copy: Path) -> None:
    edit(
        content_copy,
        "cards.yaml",
        "{kind: knockback, timing: combat, amount: 1}]}",
        "{kind: knockback, timing: after_play, amount: 1}]}",
    )
    only(validate(content_copy), r"knockback with timing 'after_play' never applies")


def test_the_arena_needs_six_orientation_points(content_copy: Path) -> None:
    edit(content_copy, "table.yaml", "      - {id: nw, name: 西北, q: -4, r: 0}\n", "")
    problems = validate(content_copy)
    problem = only(problems, r"arena: 5 orientation points; the rule post has 6")
    assert problem.location.path.endswith("arena-tales/table.yaml")
    only(problems, r"setup for 6 names unknown orientation point 'nw'")


def test_a_free_card_that_draws_is_refused(content_copy: Path) -> None:
    edit(
        content_copy,
        "cards.yaml",
        "{id: catch-breath, name: 调息, colour: none, type: non_damage, cost: 1,",
        "{id: catch-breath, name: 调息, colour: none, type: non_damage, cost: 0,",
    )
    only(validate(content_copy), r"card 'catch-breath' draws 1 but costs 0")


# -- the rulebook -------------------------------------------------------------------------------


def test_a_rulebook_variable_that_does_not_exist(content_copy: Path) -> None:
    edit(
        content_copy,
        "rulebook.yaml",
        "把手牌补到 {{ game.settings.hand_refill }} 张",
        "把手牌补到 {{ game.settings.hand_refills }} 张",
    )
    problem = only(
        validate(content_copy),
        r"turn\.blocks\[1\]\.items\[1\]: .*"
        r"has no attribute 'hand_refills'",
    )
    assert problem.location.path.endswith("arena-tales/rulebook.yaml")


def test_a_literal_number_in_rulebook_prose(content_copy: Path) -> None:
    edit(
        content_copy, "rulebook.yaml", "从顶上发 {{ game.settings.life }} 张牌", "从顶上发 18 张牌"
    )
    problem = only(
        validate(content_copy),
        r"literal number 18 in the rules; take it from "
        r"content \(e\.g\. \{\{ game\.settings\.life",
    )
    assert problem.location.path.endswith("arena-tales/rulebook.yaml")


def test_a_keyword_the_rulebook_never_explains(content_copy: Path) -> None:
    # 连击打出 is printed on cards; drop the one place the rules name it.
    edit(content_copy, "rulebook.yaml", "、{{ game.kw('combo_play') }}（", "（")
    problem = only(validate(content_copy), r"term '连击打出' appears on cards but the rulebook")
    assert problem.location.path.endswith("arena-tales/cards.yaml")


def test_every_keyword_the_cards_use_is_a_rulebook_term(content_copy: Path) -> None:
    from pnp.content.loader import load_game
    from pnp.games.arena_tales.checks import rulebook_terms, used_keywords

    model = load_game(content_copy, GAME).model
    terms = {term for term, _ in rulebook_terms(model)}
    assert {model.kw(keyword.value) for keyword in used_keywords(model)} <= terms
    assert {zone.name for zone in model.boards[0].zones} <= terms
