"""The printed Maquis kit fits the table (issue 15): the board's slots hold a mission card and
the café's recruits, the tracks' cells hold their markers and show every value the engine
reaches, and every piece of public state has a component. Each test breaks one thing in a
copy of the content and reads the error back with its file and line."""

from __future__ import annotations

from pathlib import Path

from pnp.content.loader import load_game
from pnp.errors import Problem
from pnp.games.maquis.physical import public_state
from tests.conftest import CONTENT
from tests.validate.seeding import Seeding, only
from tests.validate.seeding import fit_problems as game_fit_problems

GAME = "maquis"
SEEDING = Seeding(GAME)


def fit_problems(content: Path) -> list[Problem]:
    return game_fit_problems(content, GAME)


def test_todays_kit_fits() -> None:
    assert fit_problems(CONTENT) == []


def test_the_engine_declares_the_printed_ranges() -> None:
    model = load_game(CONTENT, GAME).model
    state = public_state(model)
    assert str(state["day"]) == f"0..{model.days.days + 1}"  # the start space, days, End
    assert str(state["morale"]) == f"0..{model.morale.top}"
    assert str(state["soldiers"]) == f"{model.soldiers.start}..{model.soldiers.spaces}"
    assert str(state["cafe"]) == f"0..{max(d.cafe for d in model.difficulties)}"


def test_a_mission_exit_too_small_for_its_card_is_an_error_at_the_slot(
    content_copy: Path,
) -> None:
    # Today's gap: a 63x88 mm mission card on a 58x22 mm exit.
    SEEDING.edit(
        content_copy,
        "kit.yaml",
        "{id: mission-west, x: 60mm, y: 5mm, w: 92mm, h: 70mm,",
        "{id: mission-west, x: 60mm, y: 5mm, w: 58mm, h: 22mm,",
    )
    problems = fit_problems(content_copy)
    problem = only(problems, "overhangs")
    assert problem.message == (
        "slot 'mission-west' on 'board' is 58x22 mm, an item of 'mission-cards' is 63x88 mm "
        "(or turned): it overhangs by more than the 1 mm tolerance"
    )
    assert problem.location.path.endswith("maquis/kit.yaml")
    assert problem.location.line == SEEDING.line_of(content_copy, "kit.yaml", "id: mission-west")
    # ... and the board draws no such box either.
    only(problems, "is not drawn")


def test_a_slot_the_board_does_not_draw_is_an_error(content_copy: Path) -> None:
    # Today's gap: the café's waiting box was never drawn.
    SEEDING.edit(
        content_copy, "kit.yaml", "id: cafe-waiting, x: 290mm,", "id: cafe-waiting, x: 20mm,"
    )
    problem = only(fit_problems(content_copy), "cafe-waiting")
    assert problem.message.startswith("slot 'cafe-waiting' on 'board' is not drawn")
    assert problem.location.line == SEEDING.line_of(content_copy, "kit.yaml", "id: cafe-waiting")


def test_a_marker_larger_than_the_track_cells_is_an_error_at_the_track(
    content_copy: Path,
) -> None:
    # Today's gap: 20 mm markers on 16 mm cells.
    SEEDING.edit(content_copy, "kit.yaml", "    size: 14x14mm\n", "    size: 20x20mm\n")
    problem = only(fit_problems(content_copy), "track 'soldiers'")
    assert problem.message == (
        "track 'soldiers' on 'board': a cell is 26x16 mm, its marker 'marker-tokens' is "
        "20x20 mm: it overhangs by more than the 1 mm tolerance"
    )
    assert problem.location.path.endswith("maquis/kit.yaml")
    assert problem.location.line == SEEDING.line_of(content_copy, "kit.yaml", "id: soldiers,")


def test_a_track_too_short_for_the_engines_range_is_an_error_at_the_track(
    content_copy: Path,
) -> None:
    # A day track without its End space cannot show the day the game ends on.
    SEEDING.edit(content_copy, "kit.yaml", "{id: day, cells: 17,", "{id: day, cells: 16,")
    problem = only(fit_problems(content_copy), "track 'day'")
    assert problem.message.endswith("but the engine's 'day' takes 0..16: no cell shows 16")
    assert problem.location.line == SEEDING.line_of(content_copy, "kit.yaml", "id: day,")


def test_public_state_with_no_component_is_an_error_at_the_state_list(
    content_copy: Path,
) -> None:
    SEEDING.edit(
        content_copy,
        "physical.yaml",
        "    - {name: cafe, slot: cafe-waiting, note: 咖啡馆旁等候框里待招募的反抗军人物}\n",
        "",
    )
    problem = only(fit_problems(content_copy), "'cafe'")
    assert problem.message == (
        "public state 'cafe' (0..2) has no component or convention: add it to physical.state"
    )
    assert problem.location.path.endswith("maquis/physical.yaml")
    assert problem.location.line == SEEDING.line_of(content_copy, "physical.yaml", "state:") + 1


def test_a_success_box_smaller_than_its_marker_is_an_error(content_copy: Path) -> None:
    # The mission cards' boxes were 11 mm, the success markers 20 mm (now 14 and 14).
    SEEDING.edit(
        content_copy, "kit.yaml", "y: 29mm, w: 14mm, h: 14mm,", "y: 29mm, w: 11mm, h: 11mm,"
    )
    problems = fit_problems(content_copy)
    problem = only(problems, "overhangs")
    assert problem.message == (
        "slot 'success-box' on 'mission-cards' is 11x11 mm, an item of 'marker-tokens' is "
        "14x14 mm: it overhangs by more than the 1 mm tolerance"
    )
    assert problem.location.line == SEEDING.line_of(content_copy, "kit.yaml", "id: success-box")
    only(problems, "'success-box' on 'mission-cards' is not drawn")
