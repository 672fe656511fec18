"""The Dragon Hoard validator: each seeded mistake in a copy of the content is caught, in the
right file and with the right message, and the shipped content is clean."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.validate.seeding import Seeding, only

GAME = "dragon-hoard"


SEEDING = Seeding("dragon-hoard", games=10)
validate, edit, line_of = SEEDING.validate, SEEDING.edit, SEEDING.line_of


@pytest.mark.parametrize(
    ("speed", "message"),
    [
        ('"9"', r"'9': a number speed is 1\.\.8"),
        ('"☆×2/4"', r"lowest terms \(1/2\)"),
        ('"fast"', r"not one of the four kinds"),
        ('"☆×0"', r"needs N above 0"),
    ],
)
def test_a_bad_speed_marker_is_caught_on_its_card(
    content_copy: Path, speed: str, message: str
) -> None:
    edit(content_copy, "dragon.yaml", 'speed: "3"', f"speed: {speed}")
    problem = only(validate(content_copy), message)
    assert problem.location.path.endswith("dragon-hoard/dragon.yaml")
    assert problem.location.line == line_of(content_copy, "dragon.yaml", "id: fire-lance")
    assert "'fire-lance'" in problem.message


def test_an_ai_colour_without_traps_is_caught(content_copy: Path) -> None:
    edit(content_copy, "dragon.yaml", "    colour: fire\n", "    colour: fyre\n")
    problem = only(validate(content_copy), r"colour 'fyre', not a trap colour \(did you mean")
    assert problem.location.path.endswith("dragon.yaml")


def test_a_trap_colour_no_ai_card_has_is_caught(content_copy: Path) -> None:
    edit(content_copy, "dragon.yaml", "  - {id: ice, name: 冰", "  - {id: ice, name: 冰")
    edit(
        content_copy,
        "dragon.yaml",
        '  - {id: fire, name: 火, hex: "#c8402a"}',
        '  - {id: fire, name: 火, hex: "#c8402a"}\n  - {id: acid, name: 酸, hex: "#6a3"}',
    )
    edit(
        content_copy,
        "lair.yaml",
        "    - {colour: fire, cell: [4, 2]}",
        "    - {colour: acid, cell: [4, 2]}",
    )
    problem = only(validate(content_copy), r"no AI card is 'acid'")
    assert problem.location.path.endswith("lair.yaml")
    assert problem.location.line == line_of(content_copy, "lair.yaml", "colour: acid")


def test_too_few_recall_cards_for_the_time_limit(content_copy: Path) -> None:
    edit(content_copy, "dragon.yaml", "    recall: true\n", "")
    problem = only(validate(content_copy), r"2 recall cards; the time limit .* at least 3")
    assert problem.location.path.endswith("dragon.yaml")


def test_a_missing_entry_teleporter_is_caught(content_copy: Path) -> None:
    edit(content_copy, "lair.yaml", "    - {seat: 3, cell: [12, 6]}\n", "")
    problem = only(validate(content_copy), r"seat 3 needs exactly one entry teleporter, has 0")
    assert problem.location.path.endswith("lair.yaml")


def test_an_unpaired_gate_is_caught(content_copy: Path) -> None:
    edit(content_copy, "lair.yaml", "    - {id: gate-b2, type: b, cell: [10, 10]}\n", "")
    only(validate(content_copy), r"type-B gates come in a pair; the map has 1")


def test_a_feature_under_the_dragon_is_caught(content_copy: Path) -> None:
    edit(content_copy, "lair.yaml", "{colour: ice, cell: [6, 9]}", "{colour: ice, cell: [6, 7]}")
    problem = only(validate(content_copy), r"trap at \[6, 7\] lies under the dragon")
    assert problem.location.line == line_of(content_copy, "lair.yaml", "cell: [6, 7]")


def test_an_unknown_treasure_in_the_setup_guide_gets_a_suggestion(content_copy: Path) -> None:
    edit(
        content_copy,
        "lair.yaml",
        "{treasure: crown, cell: [4, 4]}",
        "{treasure: crwn, cell: [4, 4]}",
    )
    problems = validate(content_copy)
    problem = only(problems, r"unknown treasure 'crwn' \(did you mean 'crown'\?\)")
    assert problem.location.path.endswith("lair.yaml")
    assert problem.location.line == line_of(content_copy, "lair.yaml", "crwn")
    only(problems, r"2 'crown' tokens but the setup guide places 1")


def test_action_sets_that_differ_between_colours_are_caught(content_copy: Path) -> None:
    edit(
        content_copy,
        "players.yaml",
        '    hex: "#2f8f5b"\n    cards: {move-n: 1,',
        '    hex: "#2f8f5b"\n    cards: {move-n: 2,',
    )
    problem = only(validate(content_copy), r"'jade''s set differs from 'amber''s in move-n")
    assert problem.location.path.endswith("players.yaml")


def test_a_retyped_star_rounding_is_caught(content_copy: Path) -> None:
    text = (content_copy / GAME / "game.yaml").read_text(encoding="utf-8")
    start = text.index("{{ {'down'")
    end = text.index("}}", text.index("star_rounding.value", start)) + 2
    (content_copy / GAME / "game.yaml").write_text(
        text[:start] + "一律向下取整" + text[end:], encoding="utf-8"
    )
    problem = only(validate(content_copy), r"'star-rounding' must state the rounding")
    assert problem.location.path.endswith("game.yaml")


def test_an_unknown_effect_kind_lists_the_known_ones(content_copy: Path) -> None:
    edit(content_copy, "dragon.yaml", "{kind: traps}", "{kind: trap}")
    problem = only(validate(content_copy), r"expected one of .*traps.*got 'trap'")
    assert problem.location.path.endswith("dragon.yaml")


def test_a_dropped_ai_effect_leaves_an_engine_handler_unused(content_copy: Path) -> None:
    text = (content_copy / GAME / "dragon.yaml").read_text(encoding="utf-8")
    text = text.replace("      - {kind: advance, steps: 2}\n", "      - {kind: traps}\n")
    text = text.replace("      - {kind: advance, steps: 1}\n", "")
    (content_copy / GAME / "dragon.yaml").write_text(text, encoding="utf-8")
    only(validate(content_copy), r"the engine implements effect 'advance' but no card uses it")


# -- the rulebook ---------------------------------------------------------------------------


def test_a_rulebook_variable_that_does_not_exist(content_copy: Path) -> None:
    edit(
        content_copy,
        "rulebook.yaml",
        "{{ game.settings.cards_per_round }} 张，也可以",
        "{{ game.settings.cards_per_turn }} 张，也可以",
    )
    problem = only(
        validate(content_copy),
        r"placement\.blocks\[2\]\.items\[1\]: .*"
        r"has no attribute 'cards_per_turn'",
    )
    assert problem.location.path.endswith("dragon-hoard/rulebook.yaml")
    item_line = line_of(content_copy, "rulebook.yaml", "cards_per_turn")
    assert item_line - 5 < problem.location.line < item_line


def test_a_literal_number_in_rulebook_prose(content_copy: Path) -> None:
    edit(content_copy, "rulebook.yaml", "限时 {{ game.placement_seconds }} 秒", "限时 30 秒")
    problem = only(
        validate(content_copy),
        r"literal number 30 in the rules; take it from "
        r"content \(e\.g\. \{\{ game\.placement_seconds",
    )
    assert problem.location.path.endswith("dragon-hoard/rulebook.yaml")


def test_a_card_keyword_the_rulebook_never_explains(content_copy: Path) -> None:
    # The AI cards print 践踏 (trampling); a rulebook that never says it fails.
    path = content_copy / GAME / "rulebook.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("践踏", "踩踏"), encoding="utf-8")
    problem = only(validate(content_copy), r"term '践踏' appears on cards but the rulebook")
    assert problem.location.path.endswith("dragon-hoard/dragon.yaml")


def test_a_renamed_treasure_is_still_explained(content_copy: Path) -> None:
    # A treasure with an active effect is printed on its token; the rulebook names each one
    # through content, so renaming it keeps the rulebook right.
    edit(content_copy, "treasures.yaml", "name: 龙鳞", "name: 逆鳞")
    assert validate(content_copy) == []
    from pnp.content.loader import load_game
    from pnp.games.dragon_hoard.checks import rulebook_terms

    terms = [term for term, _ in rulebook_terms(load_game(content_copy, GAME).model)]
    assert "逆鳞" in terms and "龙鳞" not in terms


def test_the_speed_examples_quote_the_rounding_of_content(content_copy: Path) -> None:
    # The ☆ rounding is a setting; the rulebook's example follows it, and content stays valid.
    edit(content_copy, "game.yaml", "star_rounding: down", "star_rounding: nearest")
    assert validate(content_copy) == []


def test_a_seating_naming_an_unprinted_entry_is_caught_at_its_line(content_copy: Path) -> None:
    edit(
        content_copy,
        "lair.yaml",
        "{players: 3, entries: [1, 2, 3]}",
        "{players: 3, entries: [1, 5, 3]}",
    )
    problem = only(validate(content_copy), "seating for 3 players")
    assert problem.message == (
        "lair: seating for 3 players names entry teleporters [5]; the map numbers [1, 2, 3, 4]"
    )
    assert problem.location.line == line_of(content_copy, "lair.yaml", "{players: 3,")


def test_a_seating_with_too_few_entries_is_caught(content_copy: Path) -> None:
    edit(
        content_copy,
        "lair.yaml",
        "{players: 4, entries: [2, 3, 4, 1]}",
        "{players: 4, entries: [2, 3, 4]}",
    )
    problem = only(validate(content_copy), "seating for 4 players")
    assert "names 3 entries, one per seat is needed" in problem.message


def test_a_seating_that_sends_a_player_across_the_table_is_caught(content_copy: Path) -> None:
    # The post: each player enters at the teleporter nearest them. Seats run clockwise, so a
    # seating whose entries run counter-clockwise puts players at entries across the table.
    edit(
        content_copy,
        "lair.yaml",
        "{players: 3, entries: [1, 2, 3]}",
        "{players: 3, entries: [1, 4, 3]}",
    )
    problem = only(validate(content_copy), "seating for 3 players")
    assert problem.message.startswith(
        "lair: seating for 3 players: entries [1, 4, 3] do not go clockwise round the map"
    )
    assert problem.location.line == line_of(content_copy, "lair.yaml", "{players: 3,")
