"""The validator itself: each seeded mistake in a copy of the content is caught, in the right
file, and the shipped content is clean."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.validate.seeding import Seeding, only

SEEDING = Seeding("deadline-99", games=20)
validate, edit, line_of = SEEDING.validate, SEEDING.edit, SEEDING.line_of


def test_a_dropped_rank_is_caught_in_cards_yaml(content_copy: Path) -> None:
    edit(
        content_copy,
        "cards.yaml",
        '  - {id: "9", label: "9", name: 加九, effect: {kind: add, amount: 9}}\n',
        "",
    )
    problem = only(validate(content_copy), r"needs rank '9'")
    assert problem.location.path.endswith("deadline-99/cards.yaml")
    assert problem.game == "deadline-99"


def test_a_dropped_function_card_leaves_an_engine_handler_unused(content_copy: Path) -> None:
    edit(
        content_copy,
        "cards.yaml",
        '  - {id: "8", label: "8", name: 掉头, effect: {kind: reverse}}\n',
        "",
    )
    problems = validate(content_copy)
    only(problems, r"the engine implements effect 'reverse' but no card uses it")
    assert only(problems, r"needs rank '8'").location.path.endswith("cards.yaml")


def test_a_duplicated_id_names_both_places(content_copy: Path) -> None:
    edit(content_copy, "cards.yaml", "{id: club, name: 梅花", "{id: spade, name: 梅花")
    problem = only(validate(content_copy), r"duplicate id 'spade'")
    assert problem.location.path.endswith("cards.yaml")
    assert problem.location.line == line_of(content_copy, "cards.yaml", "name: 梅花")
    assert f"cards.yaml:{line_of(content_copy, 'cards.yaml', 'name: 黑桃')}" in problem.message


def test_a_misspelt_key_gets_its_line_and_a_suggestion(content_copy: Path) -> None:
    edit(content_copy, "game.yaml", "  hand_size: 5", "  hand_sise: 5")
    problems = validate(content_copy)
    problem = only(problems, r"unknown key 'hand_sise' \(did you mean 'hand_size'\?\)")
    assert problem.location.path.endswith("deadline-99/game.yaml")
    assert problem.location.line == line_of(content_copy, "game.yaml", "hand_sise")


def test_a_broken_identity_reference_is_caught_in_camp_yaml(content_copy: Path) -> None:
    edit(
        content_copy,
        "camp.yaml",
        "{players: 6, identities: {red-king: 1, black-king: 1, red-minister: 2",
        "{players: 6, identities: {red-king: 1, black-king: 1, red-ministr: 2",
    )
    problem = only(
        validate(content_copy), r"unknown identity 'red-ministr' \(did you mean 'red-minister'\?\)"
    )
    assert problem.location.path.endswith("camp.yaml")
    assert problem.location.line == line_of(content_copy, "camp.yaml", "red-ministr")


def test_an_unknown_effect_kind_lists_the_known_ones(content_copy: Path) -> None:
    edit(content_copy, "cards.yaml", "effect: {kind: reverse}", "effect: {kind: reverse_all}")
    problem = only(validate(content_copy), r"expected one of .*reverse.*got 'reverse_all'")
    assert problem.location.path.endswith("cards.yaml")


def test_an_inconsistent_deck_count_is_caught(content_copy: Path) -> None:
    edit(content_copy, "game.yaml", "kit_decks: 2", "kit_decks: 3")
    problems = validate(content_copy)
    problem = only(problems, r"the kit prints 144 playing cards .* call for 96")
    assert problem.location.path.endswith("game.yaml")


def test_a_number_card_that_does_not_add_its_value(content_copy: Path) -> None:
    edit(
        content_copy,
        "cards.yaml",
        "effect: {kind: add, amount: 6}",
        "effect: {kind: add, amount: 7}",
    )
    problem = only(validate(content_copy), r"number card '6' must add its value, adds 7")
    assert problem.location.line == line_of(content_copy, "cards.yaml", "amount: 7")


def test_a_camp_deal_that_does_not_add_up(content_copy: Path) -> None:
    edit(
        content_copy,
        "camp.yaml",
        "{players: 8, identities: {red-king: 1, black-king: 1, red-minister: 3",
        "{players: 8, identities: {red-king: 1, black-king: 1, red-minister: 2",
    )
    problem = only(validate(content_copy), r"setup for 8 players deals 7 identity cards")
    assert problem.location.path.endswith("camp.yaml")


def test_too_few_decks_to_deal_every_hand(content_copy: Path) -> None:
    # Two decks (96 cards) for up to five players: 5 x 20 = 100 cards leave no draw pile.
    edit(content_copy, "game.yaml", "  hand_size: 5", "  hand_size: 20")
    only(validate(content_copy), r"cannot deal 20 to 5 players")


def test_a_missing_template_is_named_with_a_suggestion(content_copy: Path) -> None:
    edit(
        content_copy,
        "kit.yaml",
        "face: deadline-99/playing-card.yaml",
        "face: deadline-99/playing-cards.yaml",
    )
    problem = only(
        validate(content_copy),
        r"face template 'deadline-99/playing-cards.yaml' "
        r"not found .*did you mean",
    )
    assert problem.location.path.endswith("kit.yaml")


def test_a_yaml_syntax_error_is_located_and_nothing_else_is_checked(content_copy: Path) -> None:
    edit(content_copy, "variants.yaml", "    copies: 1\n", "    copies: [1\n")
    (problem,) = validate(content_copy)
    assert problem.location.path.endswith("variants.yaml")
    assert problem.message.startswith("yaml syntax error")


@pytest.mark.parametrize("removed", ["hand_size", "count_cap"])
def test_a_missing_setting_is_reported_with_what_it_means(content_copy: Path, removed: str) -> None:
    text = (content_copy / "deadline-99" / "game.yaml").read_text(encoding="utf-8")
    line = next(line for line in text.splitlines() if line.strip().startswith(removed))
    edit(content_copy, "game.yaml", line + "\n", "")
    only(validate(content_copy), rf"missing required key '{removed}'")


def test_a_rulebook_variable_that_does_not_exist(content_copy: Path) -> None:
    edit(
        content_copy,
        "rulebook.yaml",
        "{{ game.settings.hand_size }} 张牌作为手牌",
        "{{ game.settings.hand_sizes }} 张牌作为手牌",
    )
    problem = only(
        validate(content_copy),
        r"setup\.blocks\[0\]\.items\[1\]: .*"
        r"has no attribute 'hand_sizes'",
    )
    assert problem.location.path.endswith("rulebook.yaml")
    # The block that holds the item: a few lines above the item itself.
    item_line = line_of(content_copy, "rulebook.yaml", "hand_sizes")
    assert item_line - 5 < problem.location.line < item_line


def test_a_literal_number_in_rulebook_prose(content_copy: Path) -> None:
    edit(
        content_copy,
        "rulebook.yaml",
        "{{ game.settings.hand_size }} 张牌作为手牌",
        "5 张牌作为手牌",
    )
    problem = only(
        validate(content_copy),
        r"literal number 5 in the rules; take it from "
        r"content \(e\.g\. \{\{ game\.settings\.hand_size",
    )
    assert problem.location.path.endswith("rulebook.yaml")


def test_a_card_term_the_rulebook_never_explains(content_copy: Path) -> None:
    edit(content_copy, "cards.yaml", "name: 掉头", "name: 回马枪")
    problem = only(validate(content_copy), r"term '回马枪' appears on cards but the rulebook")
    assert problem.location.path.endswith("cards.yaml")


def test_a_king_card_that_forgets_the_free_agents(content_copy: Path) -> None:
    # Issue 13: camp mode pays the living free agents when a king falls; the king's card must
    # say so, and the validator holds every king card to it.
    edit(
        content_copy,
        "camp.yaml",
        "text: 立即亮出身份。你出局时游戏结束：黑方全体（包括已出局的）与仍在场上的自由人获胜。",
        "text: 立即亮出身份。你倒下，黑方全体获胜。",
    )
    problem = only(
        validate(content_copy),
        r"king card 'red-king' must say that living free agents \('自由人'\) also win",
    )
    assert problem.location.path.endswith("camp.yaml")
    assert problem.location.line == line_of(content_copy, "camp.yaml", "id: red-king")
