"""The MineVenture validator: each seeded mistake in a copy of the content is caught, in the
right file, and the shipped content is clean."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.validate.seeding import Seeding, only

GAME = "mineventure"


SEEDING = Seeding("mineventure", games=3)
validate, edit, line_of = SEEDING.validate, SEEDING.edit, SEEDING.line_of


def test_a_missing_tile_leaves_a_gap_in_the_24_map(content_copy: Path) -> None:
    edit(
        content_copy,
        "map.yaml",
        "      - {tile: dune-sea, x: 16, y: 8}\n      - {tile: oak",
        "      - {tile: oak",
    )
    problem = only(validate(content_copy), r"'map-24' leaves 64 cells of its 24x24 map uncovered")
    assert problem.location.path.endswith("mineventure/map.yaml")


def test_overlapping_tiles_are_caught(content_copy: Path) -> None:
    edit(
        content_copy,
        "map.yaml",
        "{tile: lake-shore, x: 0, y: 24}",
        "{tile: lake-shore, x: 0, y: 20}",
    )
    problems = validate(content_copy)
    only(problems, r"'map-32': tile 'lake-shore' overlaps 'birch-woods'")
    only(problems, r"'map-32' leaves 32 cells")


def test_a_tile_that_draws_from_an_unknown_deck_gets_a_suggestion(content_copy: Path) -> None:
    edit(content_copy, "map.yaml", "draws: food}", "draws: fod}")
    problem = only(
        validate(content_copy), r"'plains' draws from unknown deck 'fod' \(did you mean 'food'\?\)"
    )
    assert problem.location.path.endswith("map.yaml") and problem.location.line == 9


def test_legendary_cards_cannot_be_drawn_from_the_map(content_copy: Path) -> None:
    edit(content_copy, "map.yaml", "draws: item}", "draws: legendary}")
    only(validate(content_copy), r"'forest' draws legendary cards; they come only through events")


def test_field_cards_printed_portrait_are_caught_in_kit_yaml(content_copy: Path) -> None:
    edit(
        content_copy,
        "kit.yaml",
        "    landscape: true\n    face: mineventure/partner.yaml",
        "    face: mineventure/partner.yaml",
    )
    problem = only(
        validate(content_copy), r"'partner-cards' prints field cards; they are landscape"
    )
    assert problem.location.path.endswith("kit.yaml")


def test_an_enchant_book_for_an_unknown_weapon_kind(content_copy: Path) -> None:
    edit(
        content_copy,
        "cards.yaml",
        "name: 冲击, kind: enchant, weapon_kind: bow",
        "name: 冲击, kind: enchant, weapon_kind: bows",
    )
    problem = only(
        validate(content_copy),
        r"enchant book 'punch' names unknown weapon kind 'bows' \(did you mean 'bow'\?\)",
    )
    assert problem.location.path.endswith("cards.yaml")


def test_a_buff_class_no_slot_takes(content_copy: Path) -> None:
    edit(
        content_copy,
        "cards.yaml",
        "name: 增益 / 中性, accepts: [positive, neutral]",
        "name: 增益 / 中性, accepts: [neutral]",
    )
    only(validate(content_copy), r"buffs: 'strength' is positive, which no buff slot takes")


def test_true_damage_on_a_card_with_a_source(content_copy: Path) -> None:
    edit(
        content_copy,
        "cards.yaml",
        "{kind: damage, amount: 6, types: [physical, area], target: other}",
        '{kind: damage, amount: 6, types: ["true"], target: other}',
    )
    only(validate(content_copy), r"consumable 'tnt': true damage has no source")


def test_a_weapon_with_both_physical_and_piercing(content_copy: Path) -> None:
    edit(
        content_copy,
        "cards.yaml",
        "damage: 4, types: [piercing], durability: 4, copies: 2}",
        "damage: 4, types: [piercing, physical], durability: 4, copies: 2}",
    )
    only(validate(content_copy), r"'crossbow': needs exactly one of physical or piercing")


def test_a_halving_effect_needs_a_rounding_mark(content_copy: Path) -> None:
    edit(content_copy, "cards.yaml", "{kind: halve_dealt, rounding: down}", "{kind: halve_dealt}")
    problem = only(
        validate(content_copy), r"buff 'weakness': a halving effect needs a rounding mark"
    )
    assert problem.location.path.endswith("cards.yaml")


def test_an_invalid_rounding_mark_is_a_schema_error(content_copy: Path) -> None:
    edit(
        content_copy,
        "cards.yaml",
        "{kind: halve_dealt, rounding: down}",
        "{kind: halve_dealt, rounding: sideways}",
    )
    only(validate(content_copy), r"expected one of up / down, got 'sideways'")


def test_too_few_spawn_points_for_the_32_map(content_copy: Path) -> None:
    edit(
        content_copy, "map.yaml", "    players: {min: 4, max: 6}", "    players: {min: 4, max: 14}"
    )
    only(validate(content_copy), r"'map-32' has 12 spawn points for up to 14 players")


def test_an_armour_with_weapon_values_fits_no_slot(content_copy: Path) -> None:
    edit(
        content_copy,
        "cards.yaml",
        "slot: armour, defence: 2, copies: 2}",
        "slot: armour, defence: 2, range: 2, copies: 2}",
    )
    only(validate(content_copy), r"armour 'chainmail' has weapon values; it fits no slot")


@pytest.mark.parametrize("drop", ["  - {id: ancient-city", "  - {id: stronghold"])
def test_legendary_cards_stay_reachable_only_through_events(content_copy: Path, drop: str) -> None:
    # Dropping both legendary events leaves the legendary deck unreachable.
    for line in ("  - {id: ancient-city", "  - {id: stronghold"):
        path = content_copy / GAME / "cards.yaml"
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        path.write_text("".join(x for x in lines if not x.startswith(line)), encoding="utf-8")
    problems = validate(content_copy)
    only(problems, r"no event draws legendary cards")
    only(problems, r"the engine implements effect 'legendary' but no card uses it")


# -- the rulebook ---------------------------------------------------------------------------


def test_a_rulebook_variable_that_does_not_exist(content_copy: Path) -> None:
    edit(
        content_copy,
        "rulebook.yaml",
        "{{ game.settings.combat_rounds }} 个回合。",
        "{{ game.settings.combat_round }} 个回合。",
    )
    problem = only(
        validate(content_copy),
        r"rulebook combat\.blocks\[0\]\.text: .*"
        r"has no attribute 'combat_round'",
    )
    assert problem.location.path.endswith("mineventure/rulebook.yaml")


def test_a_literal_number_in_rulebook_prose(content_copy: Path) -> None:
    edit(
        content_copy,
        "rulebook.yaml",
        "手牌上限 {{ game.settings.hand_limit }} 张（",
        "手牌上限 4 张（",
    )
    problem = only(
        validate(content_copy),
        r"literal number 4 in the rules; take it from "
        r"content \(e\.g\. \{\{ game\.settings\.hand_limit",
    )
    assert problem.location.path.endswith("mineventure/rulebook.yaml")


def test_a_literal_number_in_a_worked_example_is_allowed(content_copy: Path) -> None:
    # Example boxes illustrate with numbers; they are not rules.
    edit(content_copy, "rulebook.yaml", "title: 实例：剧情伤害", "title: 实例：剧情伤害（第 3 天）")
    assert validate(content_copy) == []


def test_a_terrain_the_rulebook_never_explains(content_copy: Path) -> None:
    # Without the list of terrains, the river and the sand of the map are never explained.
    path = content_copy / GAME / "rulebook.yaml"
    text = path.read_text(encoding="utf-8")
    terrains = "          text: |-\n            {% for t in game.terrains %}"
    start = text.index("        - kind: list\n" + terrains)
    end = text.index("        - kind: p\n          text: 摸到的牌按种类处理")
    path.write_text(text[:start] + text[end:], encoding="utf-8")
    problem = only(validate(content_copy), r"term '河流' appears on cards but the rulebook")
    assert problem.location.path.endswith("mineventure/map.yaml")


def test_rulebook_terms_cover_what_the_cards_print(content_copy: Path) -> None:
    from pnp.content.loader import load_game
    from pnp.games.mineventure.checks import rulebook_terms

    terms = {term for term, _ in rulebook_terms(load_game(content_copy, GAME).model)}
    # Damage types, rounding marks, traits, item kinds, slots, buff classes and names.
    assert {"物理", "穿透", "真实", "范围", "↑", "↓", "爆炸保护"} <= terms
    assert {"消耗品", "附魔书", "药水", "主武器", "副武器", "防具"} <= terms
    assert {"增益", "中性", "负面", "中毒", "饥饿", "剧情事件", "末影龙", "水源"} <= terms


def test_rulebook_examples_need_their_cards(content_copy: Path) -> None:
    # Without a blast-proof armour the area example cannot be played: the prose that quotes
    # it is reported, not a traceback.
    edit(
        content_copy,
        "cards.yaml",
        "defence: 1, traits: [blast_proof], copies: 2,",
        "defence: 1, copies: 2,",
    )
    edit(
        content_copy,
        "cards.yaml",
        "defence: 5, traits: [blast_proof], copies: 1,",
        "defence: 5, copies: 1,",
    )
    only(validate(content_copy), r"rulebook damage\.blocks\[\d+\]\.text: .*no attribute 'area'")


def test_a_ragged_map_tile_is_one_located_error_not_a_crash(content_copy: Path) -> None:
    SEEDING.edit(content_copy, "map.yaml", "VRSFGFFS", "针叶林村")
    problem = only(SEEDING.validate(content_copy), "rows have different lengths")
    assert problem.location.path.endswith("map.yaml") and problem.location.line > 0


def test_an_engine_that_forbids_what_a_footer_allows_is_caught(
    content_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 13: TNT's footer said "playable in the decision phase" while the engine forbade it.
    # Seed that old engine back: damage cards only in combat, the validator names the card.
    from pnp.games.mineventure.model import EffectKind
    from pnp.games.mineventure.rules import MineventureRules

    playable = MineventureRules.playable

    def old_playable(
        self: MineventureRules, state: Any, seat: int, code: int, in_combat: bool
    ) -> list[str]:
        effect = getattr(self.cards[code], "effect", None)
        if not in_combat and effect is not None and effect.kind is EffectKind.DAMAGE:
            return []
        return playable(self, state, seat, code, in_combat)

    monkeypatch.setattr(MineventureRules, "playable", old_playable)
    problem = only(
        validate(content_copy), r"card 'tnt' prints 「footer 'anytime'」, but the engine"
    )
    assert problem.location.path.endswith("cards.yaml")


def test_a_final_day_before_the_story_day_is_caught(content_copy: Path) -> None:
    edit(content_copy, "game.yaml", "final_day: 20 ", "final_day: 5 ")
    problem = only(validate(content_copy), r"final_day 5 must come after story_day 6")
    assert problem.location.path.endswith("game.yaml")
