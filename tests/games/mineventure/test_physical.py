"""The printed MineVenture kit fits the table (issue 15): the equipment area's frames hold a
landscape field card, the tracks' cells hold their markers and show every value the engine
reaches (odd HP, every rounds-left of a buff, the last day), and every piece of public state has
a component or a convention. Each test seeds one of the gaps the kit had before into a copy of
the content and reads the error back with its file and line."""

from __future__ import annotations

from pathlib import Path

from pnp import registry
from pnp.content.loader import load_game
from pnp.errors import Problem
from pnp.games.mineventure.physical import observed_state, public_state
from pnp.validate.checks import Findings
from pnp.validate.fit import check_observed
from tests.conftest import CONTENT
from tests.validate.seeding import Seeding, only
from tests.validate.seeding import fit_problems as game_fit_problems

GAME = "mineventure"
SEEDING = Seeding(GAME)


def fit_problems(content: Path) -> list[Problem]:
    return game_fit_problems(content, GAME)


def test_todays_kit_fits() -> None:
    assert fit_problems(CONTENT) == []


def test_the_engine_declares_the_ranges_content_gives() -> None:
    model = load_game(CONTENT, GAME).model
    state = public_state(model)
    s = model.settings
    assert str(state["hp"]) == f"0..{s.max_hp}"
    assert str(state["day"]) == "0.."  # no last day unless a table plays the variant
    assert str(state["dragon-hp"]) == f"0..{model.dragon.hp}"
    assert str(state["combat-round"]) == f"1..{s.combat_rounds}"
    assert str(state["roll"]) == f"1..{s.die_sides}"
    # repairs stop at the printed durability (decision repair-cap): the strongest weapon's
    longest = max(c.durability for c in model.equipment if c.slot.value == "main_weapon")
    assert str(state["main-durability"]) == f"0..{longest}"
    # slot 3 takes negative buffs only, the longest of which lasts 3 rounds
    negative = max(b.rounds for b in model.buffs if b.cls.value == "negative")
    assert str(state["buff-3-rounds"]) == f"1..{negative}"


def test_an_equipment_frame_too_small_for_its_card_is_an_error_at_the_slot(
    content_copy: Path,
) -> None:
    # Today's gap: the player board's 42x48 mm equipment slots under 88x63 mm cards.
    SEEDING.edit(
        content_copy,
        "kit.yaml",
        "{id: main-weapon, x: 5mm, y: 16mm, w: 90mm, h: 65mm,",
        "{id: main-weapon, x: 5mm, y: 16mm, w: 42mm, h: 48mm,",
    )
    problems = fit_problems(content_copy)
    problem = only(problems, "overhangs")
    assert problem.message == (
        "slot 'main-weapon' on 'equipment-mats' is 42x48 mm, an item of 'equipment-cards' is "
        "88x63 mm: it overhangs by more than the 1 mm tolerance"
    )
    assert problem.location.path.endswith("mineventure/kit.yaml")
    assert problem.location.line == SEEDING.line_of(content_copy, "kit.yaml", "id: main-weapon,")
    # ... and the equipment area draws no such box either.
    assert only(problems, "is not drawn").location.line == problem.location.line


def test_a_day_track_that_stops_before_the_last_day_is_an_error_at_the_track(
    content_copy: Path,
) -> None:
    # Today's gap as filed: a day track that stops at 15, before the optional last day.
    SEEDING.edit(content_copy, "kit.yaml", "{id: day, cells: 21,", "{id: day, cells: 16,")
    problem = only(SEEDING.validate(content_copy), "track 'day'")
    assert problem.message == (
        "track 'day' on 'game-board' shows 0..15: the optional last day, day 20, has no cell "
        "to end the game on"
    )
    assert problem.location.path.endswith("mineventure/kit.yaml")
    assert problem.location.line == SEEDING.line_of(content_copy, "kit.yaml", "id: day,")


def test_ten_hearts_of_two_hp_cannot_show_odd_hp(content_copy: Path) -> None:
    # Today's gap: ten hearts labelled 1·2 … 19·20 and one marker.
    SEEDING.edit(
        content_copy,
        "kit.yaml",
        "{id: hp, cells: 20, start: 1, off_track: 0, cell: 9x12mm,",
        "{id: hp, cells: 10, start: 2, step: 2, off_track: 0, cell: 17.6x12mm,",
    )
    problem = only(fit_problems(content_copy), "track 'hp'")
    assert problem.message.endswith(
        "the engine's 'hp' takes 0..20: no cell shows 1, 3, 5, …, 17, 19"
    )
    assert problem.location.line == SEEDING.line_of(content_copy, "kit.yaml", "id: hp,")


def test_a_marker_larger_than_the_track_cells_is_an_error_at_the_track(
    content_copy: Path,
) -> None:
    # Today's gap: 14 mm markers on 6 mm cells of the dragon's HP and the day.
    SEEDING.edit(content_copy, "kit.yaml", "    size: 10x10mm\n", "    size: 14x14mm\n")
    problem = only(fit_problems(content_copy), "track 'hp'")
    assert problem.message == (
        "track 'hp' on 'player-boards': a cell is 9x12 mm, its marker 'markers' is 14x14 mm: "
        "it overhangs by more than the 1 mm tolerance"
    )
    assert problem.location.line == SEEDING.line_of(content_copy, "kit.yaml", "id: hp,")


def test_a_buff_timer_with_no_component_is_an_error_at_the_state_list(
    content_copy: Path,
) -> None:
    # Today's gap: nine timed buffs and no way to count their rounds.
    SEEDING.edit(
        content_copy,
        "physical.yaml",
        "    - {name: buff-1-rounds, track: buff-1-rounds, per: seat, "
        "note: 效果标记所在的「剩余轮数」格}\n",
        "",
    )
    problem = only(fit_problems(content_copy), "'buff-1-rounds'")
    assert problem.message == (
        "public state 'buff-1-rounds' (1..4) has no component or convention: "
        "add it to physical.state (did you mean 'buff-3-rounds'?)"
    )
    assert problem.location.path.endswith("mineventure/physical.yaml")
    # A missing entry belongs in the state list: it points at the list's first entry.
    assert problem.location.line == SEEDING.line_of(
        content_copy, "physical.yaml", "name: position,"
    )


def test_a_die_nobody_is_told_to_bring_is_an_error_at_its_entry(content_copy: Path) -> None:
    # Today's gap: the components list never said a d6 is needed.
    path = content_copy / GAME / "physical.yaml"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text(
        "".join(line for line in lines if "{id: d6," not in line).replace(
            "  bring:\n", "  bring: []\n"
        ),
        encoding="utf-8",
    )
    problem = only(fit_problems(content_copy), "'roll'")
    assert problem.message == "public state 'roll' names 'd6', which physical.bring does not list"
    assert problem.location.line == SEEDING.line_of(content_copy, "physical.yaml", "name: roll,")


def test_the_kit_has_a_buff_token_for_every_slot_a_buff_can_fill() -> None:
    model = load_game(CONTENT, GAME).model
    # A player may hold one buff in every slot that takes its class (a new effect replaces an
    # old one only when no slot is free): that many tokens of it per seat of the largest table.
    assert [t.id for t in model.buff_tokens] == [b.id for b in model.buffs]
    for token in model.buff_tokens:
        slots = sum(token.buff.cls in slot.accepts for slot in model.buff_slots)
        assert slots >= 1 and token.copies == slots * model.info.players.max
    assert {t.copies for t in model.buff_tokens} != {model.info.players.max}


def test_simulated_days_past_the_track_need_a_rule_for_beyond(content_copy: Path) -> None:
    # The post has no last day: games run past the day track's last cell (the optional last
    # day's), and the track prints how to count on.
    game = load_game(CONTENT, GAME)
    final = game.model.settings.final_day
    findings = Findings(game)
    report = {"tables": [{"max_day": final + 22}, {"max_day": final - 3}]}
    assert observed_state(report) == {"day": final + 22}
    check_observed(findings, registry.game_for(GAME), report)
    assert findings.problems == []
    # Without that rule, a longer game than the track is caught at the track.
    SEEDING.edit(
        content_copy, "kit.yaml", ", beyond: 走过最后一格时把天数标记翻面，放回 0 格接着数", ""
    )
    findings = Findings(load_game(content_copy, GAME))
    check_observed(findings, registry.game_for(GAME), report)
    problem = only(findings.problems, "track 'day'")
    assert problem.message.startswith(f"track 'day' on 'game-board' stops at {final}, but")
