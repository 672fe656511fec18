"""The physical checks (pnp.validate.fit): slots, tracks, ranges and trackable state.

Built on a copy of MineVenture's content with the new sections added by the test (content/
belongs to the game developers), and on MineVenture's model and engine with a ``physical:``
section and a ``public_state`` hook added here, as a game adds them in its own package.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from pnp import registry
from pnp.content.loader import load_game
from pnp.errors import Problem
from pnp.registry import Range
from pnp.validate.checks import Findings
from pnp.validate.fit import check_fit, check_observed
from tests.conftest import TEMPLATES
from tests.validate.seeding import Seeding, only

GAME = "mineventure"
SEEDING = Seeding(GAME)


def public_state(model: Any) -> Mapping[str, Range]:
    """The ranges MineVenture's engine would declare (issue 15): HP 0..max, the day, buffs."""
    settings = model.settings
    return {
        "hp": Range(0, settings.max_hp),
        "day": Range(1, None),
        "buff-rounds": Range(0, 3),
    }


@pytest.fixture
def physical_game(monkeypatch: pytest.MonkeyPatch) -> Iterator[registry.Game]:
    """MineVenture registered with a public_state hook (every game's model has a physical
    section)."""
    game = dataclasses.replace(registry.game_for(GAME), public_state=public_state)
    monkeypatch.setitem(registry.games(), GAME, game)
    yield game


# A player board with its slots and tracks, and a physical section, as a game would write them;
# each test breaks one thing.
PLAYER_BOARD = """    face: mineventure/player-board.yaml
    slots:
      - {id: character, x: 4mm, y: 15mm, w: 63mm, h: 88mm, holds: character-cards}
      - {id: equipment-1, x: 72mm, y: 36mm, w: 90mm, h: 65mm, holds: equipment-cards}
    tracks:
      - {id: hp, cells: 21, start: 0, cell: 15mm, marker: markers}
"""
GAME_BOARD = """    face: mineventure/game-board.yaml
    tracks:
      - {id: day, cells: 20, start: 1, cell: 15mm, marker: markers}
"""
PHYSICAL = """physical:
  bring:
    - {id: d6, name: 六面骰, count: 1, note: 掷骰决定移动}
  state:
    - {name: hp, track: hp, per: seat}
    - {name: day, track: day}
    - {name: buff-rounds, bring: d6}
"""


def strip_declarations(content: Path) -> None:
    """MineVenture's own slots, tracks and physical section, taken out of the copy so that each
    test declares exactly what it checks (the game's own are tested in its package)."""
    kit = content / GAME / "kit.yaml"
    text = kit.read_text(encoding="utf-8")
    kit.write_text(
        re.sub(r"(?m)^    (?:slots|tracks):\n(?:^      .*\n)+", "", text), encoding="utf-8"
    )
    (content / GAME / "physical.yaml").unlink(missing_ok=True)


def seed(content: Path, board: str = PLAYER_BOARD, physical: str = PHYSICAL) -> None:
    strip_declarations(content)
    SEEDING.edit(content, "kit.yaml", "    face: mineventure/player-board.yaml\n", board)
    SEEDING.edit(content, "kit.yaml", "    face: mineventure/game-board.yaml\n", GAME_BOARD)
    (content / GAME / "physical.yaml").write_text(physical, encoding="utf-8")


def fit_problems(content: Path, game: registry.Game) -> list[Problem]:
    findings = Findings(load_game(content, GAME))
    check_fit(findings, game)
    return findings.problems


def test_the_declared_kit_passes(content_copy: Path, physical_game: registry.Game) -> None:
    seed(content_copy)
    assert fit_problems(content_copy, physical_game) == []


def test_a_slot_too_small_for_its_card_is_an_error_at_the_slot(
    content_copy: Path, physical_game: registry.Game
) -> None:
    # MineVenture's board draws 42x48 mm equipment slots; the field cards are 88x63 landscape.
    seed(content_copy, PLAYER_BOARD.replace("w: 90mm, h: 65mm", "w: 42mm, h: 48mm"))
    problem = only(fit_problems(content_copy, physical_game), "equipment-1")
    assert problem.message == (
        "slot 'equipment-1' on 'player-boards' is 42x48 mm, an item of 'equipment-cards' "
        "is 88x63 mm: it overhangs by more than the 1 mm tolerance"
    )
    assert problem.location.path.endswith("mineventure/kit.yaml")
    assert problem.location.line == SEEDING.line_of(content_copy, "kit.yaml", "id: equipment-1")


def test_a_card_fits_a_slot_turned_only_when_the_slot_allows_it(
    content_copy: Path, physical_game: registry.Game
) -> None:
    portrait = PLAYER_BOARD.replace("w: 90mm, h: 65mm", "w: 65mm, h: 90mm")
    seed(content_copy, portrait)
    only(fit_problems(content_copy, physical_game), "is 65x90 mm, an item of 'equipment-cards'")
    turned = portrait.replace("holds: equipment-cards}", "holds: equipment-cards, turn: true}")
    (content_copy / GAME / "kit.yaml").write_text(
        (content_copy / GAME / "kit.yaml").read_text().replace(portrait, turned)
    )
    assert fit_problems(content_copy, physical_game) == []


def test_a_slot_within_its_tolerance_fits(content_copy: Path, physical_game: registry.Game) -> None:
    seed(content_copy, PLAYER_BOARD.replace("w: 90mm, h: 65mm", "w: 87.5mm, h: 62.5mm"))
    assert fit_problems(content_copy, physical_game) == []


def test_a_slot_off_its_board_is_an_error(content_copy: Path, physical_game: registry.Game) -> None:
    seed(content_copy, PLAYER_BOARD.replace("x: 72mm, y: 36mm", "x: 200mm, y: 36mm"))
    problem = only(fit_problems(content_copy, physical_game), "off the")
    assert "reaches 290x101 mm from the corner, off the 256x128 mm item" in problem.message


def test_a_track_too_short_for_the_engines_range_is_an_error_at_the_track(
    content_copy: Path, physical_game: registry.Game
) -> None:
    # The printed HP track: ten hearts, one per 2 HP, so odd HP and 0 cannot be shown.
    seed(
        content_copy, PLAYER_BOARD.replace("cells: 21, start: 0,", "cells: 10, start: 2, step: 2,")
    )
    problem = only(fit_problems(content_copy, physical_game), "track 'hp'")
    assert problem.message == (
        "track 'hp' on 'player-boards' shows 2, 4, 6, …, 18, 20, but the engine's 'hp' "
        "takes 0..20: no cell shows 0, 1, 3, …, 17, 19"
    )
    assert problem.location.path.endswith("mineventure/kit.yaml")
    assert problem.location.line == SEEDING.line_of(content_copy, "kit.yaml", "id: hp,")


def test_a_value_off_the_track_counts_as_shown(
    content_copy: Path, physical_game: registry.Game
) -> None:
    seed(
        content_copy,
        PLAYER_BOARD.replace("cells: 21, start: 0,", "cells: 20, start: 1, off_track: 0,"),
    )
    assert fit_problems(content_copy, physical_game) == []


def test_a_marker_larger_than_its_cell_is_an_error(
    content_copy: Path, physical_game: registry.Game
) -> None:
    seed(content_copy, PLAYER_BOARD.replace("cell: 15mm", "cell: 16x8mm"))
    problem = only(fit_problems(content_copy, physical_game), "marker")
    assert problem.message == (
        "track 'hp' on 'player-boards': a cell is 16x8 mm, its marker 'markers' is 10x10 mm: "
        "it overhangs by more than the 1 mm tolerance"
    )


def test_public_state_with_no_component_is_an_error_at_the_physical_section(
    content_copy: Path, physical_game: registry.Game
) -> None:
    # Nine timed buffs and nothing on the table counts their rounds.
    seed(content_copy, physical=PHYSICAL.replace("    - {name: buff-rounds, bring: d6}\n", ""))
    problem = only(fit_problems(content_copy, physical_game), "buff-rounds")
    assert problem.message == (
        "public state 'buff-rounds' (0..3) has no component or convention: add it to physical.state"
    )
    assert problem.location.path.endswith("mineventure/physical.yaml")
    # Located at the state list, where the missing entry belongs.
    assert problem.location.line == SEEDING.line_of(content_copy, "physical.yaml", "state:") + 1


def test_state_the_engine_does_not_keep_is_an_error(
    content_copy: Path, physical_game: registry.Game
) -> None:
    seed(content_copy, physical=PHYSICAL + "    - {name: hunger, convention: pile}\n")
    problem = only(fit_problems(content_copy, physical_game), "hunger")
    assert problem.message == "public state 'hunger': the engine keeps no such public state"
    assert problem.location.line == SEEDING.line_of(content_copy, "physical.yaml", "hunger")


def test_state_shown_by_an_unknown_track_or_unlisted_die_is_an_error(
    content_copy: Path, physical_game: registry.Game
) -> None:
    broken = PHYSICAL.replace("track: day}", "track: days}").replace("bring: d6}", "bring: timer}")
    seed(content_copy, physical=broken)
    problems = fit_problems(content_copy, physical_game)
    assert only(problems, "days").message == (
        "public state 'day' names unknown track 'days' (did you mean 'day'?)"
    )
    assert only(problems, "timer").message == (
        "public state 'buff-rounds' names 'timer', which physical.bring does not list"
    )


def test_state_shown_by_two_things_is_an_error(
    content_copy: Path, physical_game: registry.Game
) -> None:
    seed(content_copy, physical=PHYSICAL.replace("track: day}", "track: day, convention: pile}"))
    problem = only(fit_problems(content_copy, physical_game), "shown by")
    assert problem.message == (
        "public state 'day' is shown by track and convention: "
        "name one product, track, slot, bring or convention"
    )


def test_a_board_needed_per_seat_printed_too_few_times_is_an_error(
    content_copy: Path, physical_game: registry.Game
) -> None:
    # Arena Tales printed one player board for up to six players.
    seed(content_copy)
    SEEDING.edit(
        content_copy,
        "kit.yaml",
        "{id: player-status, name: 玩家状态栏, copies: 6}",
        "{id: player-status, name: 玩家状态栏, copies: 1}",
    )
    problem = only(fit_problems(content_copy, physical_game), "per seat")
    assert problem.message == (
        "public state 'hp' needs 1 of 'player-boards' per seat: 6 players need 6, the kit prints 1"
    )
    assert problem.location.line == SEEDING.line_of(content_copy, "kit.yaml", "player-status")


def test_the_days_simulated_games_reach_past_the_day_track_is_an_error(
    content_copy: Path, physical_game: registry.Game
) -> None:
    # The day track stops at 15 while simulated games go past day 15.
    seed(content_copy)
    SEEDING.edit(content_copy, "kit.yaml", "{id: day, cells: 20,", "{id: day, cells: 15,")
    observing = dataclasses.replace(physical_game, observed_state=lambda report: report["max"])
    findings = Findings(load_game(content_copy, GAME))
    check_observed(findings, observing, {"max": {"day": 17}})
    problem = only(findings.problems, "day")
    assert problem.message == (
        "track 'day' on 'game-board' stops at 15, but simulated games reached day 17: "
        "lengthen it or print a rule for beyond (beyond:)"
    )
    assert problem.location.line == SEEDING.line_of(content_copy, "kit.yaml", "id: day,")
    # A printed rule for beyond the track settles it.
    SEEDING.edit(
        content_copy, "kit.yaml", "{id: day, cells: 15,", "{id: day, beyond: 翻面, cells: 15,"
    )
    findings = Findings(load_game(content_copy, GAME))
    check_observed(findings, observing, {"max": {"day": 17}})
    assert findings.problems == []


def test_pnp_validate_runs_the_fit_checks(content_copy: Path, physical_game: registry.Game) -> None:
    seed(content_copy, PLAYER_BOARD.replace("w: 90mm, h: 65mm", "w: 42mm, h: 48mm"))
    problem = only(SEEDING.validate(content_copy), "slot 'equipment-1'")
    assert problem.location.path.endswith("mineventure/kit.yaml")


def test_a_slot_the_face_does_not_draw_is_an_error(
    content_copy: Path, physical_game: registry.Game
) -> None:
    # The café's waiting box was declared but never drawn: content and the board must agree.
    # (the first buff slot's box: too small for a card, but drawn there)
    drawn = PLAYER_BOARD.replace(
        "x: 72mm, y: 36mm, w: 90mm, h: 65mm", "x: 72mm, y: 47mm, w: 58mm, h: 45mm"
    )
    waiting = "      - {id: waiting, x: 200mm, y: 10mm, w: 20mm, h: 20mm, holds: markers}\n"
    seed(content_copy, drawn.replace("    tracks:\n", waiting + "    tracks:\n"))
    findings = Findings(load_game(content_copy, GAME))
    check_fit(findings, physical_game, TEMPLATES)
    problem = only(findings.problems, "not drawn")
    assert problem.message == (
        "slot 'waiting' on 'player-boards' is not drawn: its face "
        "'mineventure/player-board.yaml' has no box at 200,10 mm of 20x20 mm"
    )
    assert problem.location.line == SEEDING.line_of(content_copy, "kit.yaml", "id: waiting")
    # The character and equipment slots are drawn where content says (too small is another
    # message).
    assert [p for p in findings.problems if "not drawn" in p.message] == [problem]


def test_supported_player_counts_print_as_the_post_gives_them(
    content_copy: Path, physical_game: registry.Game
) -> None:
    # Arena Tales' cover said "2-6 人" where the post says 2/4/6.
    seed(content_copy)
    SEEDING.edit(
        content_copy,
        "game.yaml",
        "players: {min: 3, max: 6}",
        "players: {min: 3, max: 6, only: [3, 4, 6, 8]}",
    )
    game = load_game(content_copy, GAME)
    assert str(game.model.info.players) == "3/4/6/8" and list(game.model.info.players) == [3, 4, 6]
    problem = only(fit_problems(content_copy, physical_game), "only")
    assert problem.message == "info.players.only: 8 outside 3..6"


def test_a_state_with_many_values_is_named_by_a_few_of_them() -> None:
    from pnp.registry import Range

    hexes = Range.of(*(f"{q},{r}" for q in range(-4, 5) for r in range(-4, 5)))
    assert str(hexes).startswith("{-1,-1, -1,-2, ") and str(hexes).endswith(", 81 values}")
    assert str(Range.of("fire", "ice")) == "{fire, ice}"
