"""The Maquis validator: each seeded mistake in a copy of the content is caught in the right
file, and the shipped content is clean."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import TEMPLATES
from tests.validate.seeding import Seeding, only

SEEDING = Seeding("maquis", games=10)
validate, edit, line_of = SEEDING.validate, SEEDING.edit, SEEDING.line_of


def test_the_shipped_content_is_clean(content_copy: Path) -> None:
    assert validate(content_copy) == []


def test_a_dropped_patrol_card_breaks_the_deck(content_copy: Path) -> None:
    edit(
        content_copy,
        "cards.yaml",
        "  - {id: patrol-10, name: 巡逻 十, locations: [doctor, bakery, vacant-west]}\n",
        "",
    )
    problem = only(validate(content_copy), r"the deck has 10 cards, got 9")
    assert problem.location.path.endswith("maquis/cards.yaml")


def test_a_patrol_card_naming_the_safe_house(content_copy: Path) -> None:
    edit(content_copy, "cards.yaml", "[bakery, doctor, church]", "[bakery, doctor, safe-house]")
    problem = only(validate(content_copy), r"patrol card 'patrol-03' names 'safe-house', a safe")
    assert problem.location.path.endswith("cards.yaml")


def test_a_misspelt_location_gets_a_suggestion(content_copy: Path) -> None:
    edit(content_copy, "cards.yaml", "[tavern, farm, mission-west]", "[tavern, farn, mission-west]")
    problem = only(validate(content_copy), r"unknown location 'farn' \(did you mean 'farm'\?\)")
    assert problem.location.path.endswith("cards.yaml")


def test_a_repeated_location_on_a_patrol_card(content_copy: Path) -> None:
    edit(content_copy, "cards.yaml", "[square, radio, cafe]", "[square, radio, square]")
    only(validate(content_copy), r"patrol card 'patrol-08' must name 3 distinct")


def test_a_cut_off_location(content_copy: Path) -> None:
    edit(content_copy, "board.yaml", "  - {a: mission-east, b: town-hall}\n", "")
    problem = only(validate(content_copy), r"'mission-east' has no path to a safe house")
    assert problem.location.path.endswith("board.yaml")


def test_a_fifth_resource_token(content_copy: Path) -> None:
    edit(content_copy, "board.yaml", 'hex: "#c0262d", count: 4', 'hex: "#c0262d", count: 5')
    problem = only(validate(content_copy), r"'weapons' must have 4 tokens, got 5")
    assert problem.location.path.endswith("board.yaml")


def test_red_numbers_must_match_the_post(content_copy: Path) -> None:
    edit(content_copy, "game.yaml", "red: [5, 5, 4, 4, 4, 4, 2,", "red: [5, 5, 4, 3, 4, 4, 2,")
    problem = only(validate(content_copy), r"morale 4 must show red 4")
    assert problem.location.path.endswith("game.yaml")


def test_the_day_track_has_fifteen_days(content_copy: Path) -> None:
    edit(content_copy, "game.yaml", "  days: 15", "  days: 14")
    only(validate(content_copy), r"the day track has 15 days, got 14")


def test_an_impossible_mission_box(content_copy: Path) -> None:
    edit(content_copy, "cards.yaml", "name: 送粮, pay: [{food: 2}]", "name: 送粮, pay: [{food: 5}]")
    problem = only(validate(content_copy), r"costs 5 food, only 4 exist: it can never be done")
    assert problem.location.path.endswith("cards.yaml")


def test_a_mission_naming_an_unknown_place(content_copy: Path) -> None:
    edit(content_copy, "cards.yaml", "at: town-hall", "at: town-hal")
    only(validate(content_copy), r"mission 'officer' names unknown location 'town-hal'")


def test_an_unused_engine_handler(content_copy: Path) -> None:
    edit(
        content_copy,
        "board.yaml",
        "    action: {gain: [{recruit: 1}]}\n",
        "    action: {gain: [{morale: 1}]}\n",
    )
    only(validate(content_copy), r"the engine implements effect 'recruit' but no card uses it")


def test_a_harder_level_that_is_not_harder_fails_the_simulation(content_copy: Path) -> None:
    # Seed one mistake: "hard" loses its star-space morale drops and gains a worker. The
    # level check is called alone: through validate_games, 100 games would also be played at
    # every table by every policy, twice this test's cost for a check it does not look at.
    # The ladder compares neighbours only, so the levels around the step are all it needs.
    from pnp.content.loader import load_game
    from pnp.games.maquis.checks import LADDER_MIN_GAMES, check_simulated
    from pnp.validate.checks import Findings

    game_file = content_copy / "maquis" / "game.yaml"
    levels = game_file.read_text(encoding="utf-8")
    levels = cut(levels, "  - id: very-easy\n", "  - id: harder\n")
    levels = cut(levels, "  - id: very-hard\n", "\ndecisions:")
    game_file.write_text(levels, encoding="utf-8")
    edit(content_copy, "game.yaml", "    morale_drop: star\n", "")
    edit(
        content_copy,
        "game.yaml",
        "  - id: hard\n    name: 困难\n    workers: 2",
        "  - id: hard\n    name: 困难\n    workers: 3",
    )
    findings = Findings(load_game(content_copy, "maquis"))
    assert [level.id for level in findings.game.model.difficulties] == ["harder", "hard"]
    check_simulated(findings, LADDER_MIN_GAMES, 1)
    problem = only(findings.problems, r"hard is not harder than harder: .* on the same 100 ")
    assert problem.severity == "error"
    assert "seed 1" in problem.message and "sign test p = " in problem.message
    assert problem.location.path.endswith("game.yaml")


def cut(text: str, start: str, end: str) -> str:
    """`text` without the part from `start` up to (not including) the next `end`."""
    begin = text.index(start)
    return text[:begin] + text[text.index(end, begin) :]


# -- the ladder's statistics -------------------------------------------------------------


def test_the_paired_sign_test_counts_only_seeds_won_at_one_level() -> None:
    from pnp.games.maquis.checks import ladder_step
    from pnp.games.maquis.state import Result

    win, loss = Result.WIN, Result.LOSS
    easier = ((1, win), (2, win), (3, win), (4, loss), (5, win), (6, None))
    harder = ((1, win), (2, loss), (3, loss), (4, loss), (5, loss), (6, win))
    step = ladder_step("normal", "harder", easier, harder)
    # Seed 6 was stopped by the cap at the easier level: left out of the pairing.
    assert (step.games, step.only_easier, step.only_harder) == (5, 3, 0)
    assert step.p_value == 1 / 8  # three fair coins all landing on the easier level
    assert step.is_lower and not step.is_significant


# -- the rulebook ---------------------------------------------------------------------------


def test_a_rulebook_variable_that_does_not_exist(content_copy: Path) -> None:
    edit(
        content_copy,
        "rulebook.yaml",
        "{{ game.settings.missions_in_play }} 张",
        "{{ game.settings.missions_in_plays }} 张",
    )
    problem = only(
        validate(content_copy),
        r"setup\.blocks\[0\]\.items\[2\]: .*"
        r"has no attribute 'missions_in_plays'",
    )
    assert problem.location.path.endswith("rulebook.yaml")


def test_a_literal_number_in_rulebook_prose(content_copy: Path) -> None:
    edit(
        content_copy,
        "rulebook.yaml",
        "每回合最多 {{ game.settings.kills_per_round }} 次",
        "每回合最多 1 次",
    )
    problem = only(
        validate(content_copy),
        r"specials\.blocks\[0\]\.text: literal number 1 in "
        r"the rules; take it from content",
    )
    assert problem.location.path.endswith("rulebook.yaml")


def test_a_board_space_the_rulebook_never_names(content_copy: Path) -> None:
    # The rulebook lists the special spaces from content; drop the airdrop zones from that
    # list and their names are explained nowhere.
    edit(
        content_copy,
        "rulebook.yaml",
        "{% for loc in game.kind_spaces('airdrop') %}{{ loc.name }}{{ '、' if not loop.last }}"
        "{% endfor %}，",
        "两个空投点，",
    )
    problem = only(validate(content_copy), r"term '空投点（西）' appears on cards but the rulebook")
    assert problem.location.path.endswith("board.yaml")


def test_the_rulebook_terms_are_the_printed_names() -> None:
    from pnp.content.loader import load_game
    from pnp.games.maquis.checks import rulebook_terms

    model = load_game(TEMPLATES.parent / "content", "maquis").model
    terms = {term for term, _ in rulebook_terms(model)}
    assert {r.name for r in model.resources} <= terms
    assert {"反抗军", "警察", "士兵", "安全屋", "第二安全屋"} <= terms


def test_a_short_run_records_the_ladder_without_warning_that_it_cannot_judge_it() -> None:
    # The shipped ladder: each step goes the right way, by a few points. A plain validate
    # (60 games a level) cannot make that significant, and warned so on every run.
    from pnp.content.loader import load_game
    from pnp.games.maquis.checks import LADDER_MIN_GAMES, check_simulated
    from pnp.validate.checks import Findings
    from tests.conftest import CONTENT

    games = 20
    assert games < LADDER_MIN_GAMES
    findings = Findings(load_game(CONTENT, "maquis"))
    report = check_simulated(findings, games, 1)
    assert [str(p) for p in findings.problems if "not clearly" in p.message] == []
    assert len(report["ladder"]) == len(findings.game.model.difficulties) - 1
