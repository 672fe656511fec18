"""The kit fits the table (issue 15): Dragon Hoard's slots, tracks and public state, each seeded
mistake in a copy of the content caught at its file and line."""

from __future__ import annotations

from pathlib import Path

from pnp.content.loader import load_game
from pnp.games.dragon_hoard import GAME as DRAGON_HOARD
from pnp.games.dragon_hoard.physical import dragon_cells, public_state
from pnp.registry import Range
from tests.conftest import CONTENT
from tests.validate.seeding import Seeding, only

SEEDING = Seeding("dragon-hoard")
validate, edit, line_of = SEEDING.validate, SEEDING.edit, SEEDING.line_of


def test_every_piece_of_public_state_is_shown_on_the_printed_kit() -> None:
    model = load_game(CONTENT, "dragon-hoard").model
    shown = {entry.name for entry in model.physical.state}
    assert shown == set(public_state(model))
    assert DRAGON_HOARD.public_state is public_state


def test_the_ranges_come_from_content() -> None:
    model = load_game(CONTENT, "dragon-hoard").model
    state = public_state(model)
    assert state["recalls"] == Range(0, model.settings.recall_limit)
    assert state["placement-seconds"] == Range(0, model.placement_seconds)
    assert state["left-order"] == Range(1, model.info.players.max)
    assert state["trap-colour"] == Range.of("none", "fire", "ice")
    # The body (3x3) never leaves the domain (7x7): its centre stays in the middle 5x5, C = G7.
    assert len(dragon_cells(model)) == 25
    assert "G7" in dragon_cells(model) and "D7" not in dragon_cells(model)


def test_a_slot_too_small_for_its_cards_is_an_error_at_the_slot(content_copy: Path) -> None:
    # The placement zone must hold the 44x68 mm action cards.
    edit(content_copy, "kit.yaml", "w: 260mm, h: 70mm", "w: 260mm, h: 40mm")
    problem = only(validate(content_copy), "slot 'placement'")
    assert problem.message == (
        "slot 'placement' on 'placement-mat' is 260x40 mm, an item of 'action-cards' is "
        "44x68 mm: it overhangs by more than the 1 mm tolerance"
    )
    assert problem.location.path.endswith("dragon-hoard/kit.yaml")
    assert problem.location.line == line_of(content_copy, "kit.yaml", "id: placement,")


def test_a_slot_the_board_does_not_draw_is_an_error(content_copy: Path) -> None:
    edit(content_copy, "kit.yaml", "id: countdown, x: 116mm", "id: countdown, x: 120mm")
    problem = only(validate(content_copy), "slot 'countdown' on 'lair-map' is not drawn")
    assert problem.location.path.endswith("dragon-hoard/kit.yaml")
    assert problem.location.line == line_of(content_copy, "kit.yaml", "id: countdown,")


def test_a_dragon_tile_larger_than_the_body_is_an_error(content_copy: Path) -> None:
    edit(content_copy, "kit.yaml", "size: 70x70mm", "size: 76x76mm")
    problem = only(validate(content_copy), "slot 'dragon'")
    assert "an item of 'dragon-tile' is 76x76 mm" in problem.message
    assert problem.location.line == line_of(content_copy, "kit.yaml", "id: dragon,")


def test_a_recall_track_too_short_is_an_error_at_the_track(content_copy: Path) -> None:
    # The countdown starts at the third recall card: the track must show 0..3.
    edit(content_copy, "kit.yaml", "id: recalls, cells: 4", "id: recalls, cells: 3")
    problem = only(validate(content_copy), "track 'recalls'")
    assert problem.message == (
        "track 'recalls' on 'lair-map' shows 0, 1, 2, but the engine's 'recalls' takes 0..3: "
        "no cell shows 3"
    )
    assert problem.location.path.endswith("dragon-hoard/kit.yaml")
    assert problem.location.line == line_of(content_copy, "kit.yaml", "id: recalls,")


def test_a_longer_time_limit_needs_a_longer_track(content_copy: Path) -> None:
    # The range follows content: a fourth recall card as the limit outruns the printed cells.
    edit(content_copy, "game.yaml", "recall_limit: 3", "recall_limit: 4")
    problem = only(validate(content_copy), "track 'recalls'")
    assert problem.message.endswith("takes 0..4: no cell shows 4")


def test_a_marker_too_large_for_its_cells_is_an_error(content_copy: Path) -> None:
    edit(
        content_copy,
        "kit.yaml",
        "id: recalls, cells: 4, start: 0, cell: 20mm",
        "id: recalls, cells: 4, start: 0, cell: 14mm",
    )
    problem = only(validate(content_copy), "its marker 'markers'")
    assert problem.location.line == line_of(content_copy, "kit.yaml", "id: recalls,")


def test_public_state_with_no_component_is_an_error_in_the_state_list(
    content_copy: Path,
) -> None:
    # The old kit: the dragon drawn at C only, nothing to move.
    edit(content_copy, "physical.yaml", "    - {name: dragon, product: dragon-tile", "    # ")
    problem = only(validate(content_copy), "public state 'dragon'")
    assert problem.message.startswith("public state 'dragon' ({E5, E6, E7, E8, E9, F5, ")
    assert problem.message.endswith("has no component or convention: add it to physical.state")
    assert problem.location.path.endswith("dragon-hoard/physical.yaml")
    assert problem.location.line == line_of(content_copy, "physical.yaml", "- {name: pawns")


def test_the_timer_must_be_listed_as_brought(content_copy: Path) -> None:
    # Issue 15: the 30-second limit needs a timer the kit cannot print.
    edit(content_copy, "physical.yaml", "    - {id: timer,", "    - {id: stopwatch,")
    problem = only(validate(content_copy), "public state 'placement-seconds'")
    assert "names 'timer', which physical.bring does not list" in problem.message
    assert problem.location.line == line_of(
        content_copy, "physical.yaml", "name: placement-seconds"
    )


def test_state_the_engine_does_not_keep_is_an_error(content_copy: Path) -> None:
    edit(content_copy, "physical.yaml", "{name: holder,", "{name: hourglass,")
    problem = only(validate(content_copy), "public state 'hourglass'")
    assert "the engine keeps no such public state" in problem.message
    assert problem.location.line == line_of(content_copy, "physical.yaml", "name: hourglass")
