"""The printed Arena Tales kit fits the table (issue 15): pawns show where each character stands
and which way it faces, each player board has a pending-draw track with a marker, the display
holds a card, the kit prints a board per seat, the cover gives the table sizes the arena
supports and the card appendix reads damage and range. Each test breaks one thing in a copy of
the content and reads the error back with its file and line."""

from __future__ import annotations

import shutil
from pathlib import Path

from pnp.content.loader import load_game
from pnp.errors import Problem
from pnp.games.arena_tales import checks
from pnp.games.arena_tales.model import SIDES, ArenaTales, Card, CardType
from pnp.games.arena_tales.physical import FACINGS, pending_high, public_state
from pnp.layout.primitives import TextShape
from pnp.layout.products import layout_product
from pnp.validate.checks import Findings
from tests.conftest import CONTENT, TEMPLATES
from tests.validate.seeding import Seeding, only
from tests.validate.seeding import fit_problems as game_fit_problems

GAME = "arena-tales"
SEEDING = Seeding(GAME)


def fit_problems(content: Path) -> list[Problem]:
    return game_fit_problems(content, GAME)


def game_problems(content: Path) -> list[Problem]:
    findings = Findings(load_game(content, GAME))
    checks.check_static(findings)
    return findings.problems


def test_todays_kit_fits() -> None:
    assert fit_problems(CONTENT) == []
    assert game_problems(CONTENT) == []


def test_the_engine_declares_the_printed_ranges() -> None:
    model: ArenaTales = load_game(CONTENT, GAME).model
    state = public_state(model)
    # The card that reaches the forced end still adds its cost: 5 + the dearest card (3).
    dearest = max(card.cost for card in model.cards)
    assert pending_high(model) == model.settings.forced_end - 1 + dearest
    assert str(state["pending"]) == f"0..{pending_high(model)}"
    assert state["facing"].values == frozenset(FACINGS)
    floor = [cell for cell in model.arena.cells if cell[2] != "obstacle"]
    assert len(state["position"].values) == len(floor)
    # The printed track shows every pending draw, 0 first.
    assert model.track("pending").values() == tuple(range(pending_high(model) + 1))


def test_a_display_too_low_for_a_card_is_an_error_at_the_slot(content_copy: Path) -> None:
    # Today's gap: an 86 mm display under 88 mm cards.
    SEEDING.edit(
        content_copy,
        "kit.yaml",
        "{id: display, x: 6mm, y: 23mm, w: 338mm, h: 92mm,",
        "{id: display, x: 6mm, y: 23mm, w: 338mm, h: 86mm,",
    )
    problems = fit_problems(content_copy)
    problem = only(problems, "overhangs")
    assert problem.message == (
        "slot 'display' on 'player-boards' is 338x86 mm, an item of 'character-decks' is "
        "63x88 mm: it overhangs by more than the 1 mm tolerance"
    )
    assert problem.location.path.endswith("arena-tales/kit.yaml")
    assert problem.location.line == SEEDING.line_of(content_copy, "kit.yaml", "{id: display,")
    # ... and the board draws no such box either.
    assert only(problems, "is not drawn").location.line == problem.location.line


def test_a_pawn_too_large_for_its_start_box_is_an_error_at_the_slot(content_copy: Path) -> None:
    SEEDING.edit(content_copy, "kit.yaml", "    size: 20x20mm\n", "    size: 26x26mm\n")
    problem = only(fit_problems(content_copy), "start-n")
    assert problem.message == (
        "slot 'start-n' on 'arena-map' is 22x22 mm, an item of 'pawns' is 26x26 mm: "
        "it overhangs by more than the 1 mm tolerance"
    )
    assert problem.location.line == SEEDING.line_of(content_copy, "kit.yaml", "{id: start-n,")


def test_a_pending_track_too_short_is_an_error_at_the_track(content_copy: Path) -> None:
    # A track that stops at the forced end cannot show the cost of the card that reached it.
    SEEDING.edit(content_copy, "kit.yaml", "{id: pending, cells: 9,", "{id: pending, cells: 6,")
    problem = only(fit_problems(content_copy), "track 'pending'")
    assert problem.message == (
        "track 'pending' on 'player-boards' shows 0, 1, 2, 3, 4, 5, but the engine's "
        "'pending' takes 0..8: no cell shows 6, 7, 8"
    )
    assert problem.location.path.endswith("arena-tales/kit.yaml")
    assert problem.location.line == SEEDING.line_of(content_copy, "kit.yaml", "{id: pending,")


def test_a_marker_larger_than_the_track_cells_is_an_error_at_the_track(
    content_copy: Path,
) -> None:
    SEEDING.edit(content_copy, "kit.yaml", "    size: 14x14mm\n", "    size: 20x20mm\n")
    problem = only(fit_problems(content_copy), "track 'pending'")
    assert problem.message == (
        "track 'pending' on 'player-boards': a cell is 16x16 mm, its marker 'markers' is "
        "20x20 mm: it overhangs by more than the 1 mm tolerance"
    )
    assert problem.location.line == SEEDING.line_of(content_copy, "kit.yaml", "{id: pending,")


def test_public_state_with_no_component_is_an_error_at_the_state_list(
    content_copy: Path,
) -> None:
    # Today's gaps: nothing tracked the pending draw, and no pawn showed facing.
    text = (content_copy / GAME / "physical.yaml").read_text(encoding="utf-8")
    kept = [line for line in text.splitlines(keepends=True) if "name: pending" not in line]
    kept = [line for line in kept if "name: facing" not in line]
    (content_copy / GAME / "physical.yaml").write_text("".join(kept), encoding="utf-8")
    problems = fit_problems(content_copy)
    # The error points at the first entry of the state list, where the missing one belongs.
    state_line = SEEDING.line_of(content_copy, "physical.yaml", "- {name:")
    pending = only(problems, "'pending'")
    assert pending.message == (
        "public state 'pending' (0..8) has no component or convention: add it to physical.state"
    )
    assert pending.location.path.endswith("arena-tales/physical.yaml")
    assert pending.location.line == state_line
    facing = only(problems, "'facing'")
    assert facing.message.endswith("has no component or convention: add it to physical.state")
    assert facing.location.line == state_line


def test_one_player_board_for_six_players_is_an_error_at_the_board(content_copy: Path) -> None:
    # Today's gap: one player board printed for up to six players.
    SEEDING.edit(
        content_copy, "table.yaml", "    copies: 6           #", "    copies: 1           #"
    )
    problem = only(fit_problems(content_copy), "'display' needs")
    assert problem.message == (
        "public state 'display' needs 1 of 'player-boards' per seat: 6 players need 6, "
        "the kit prints 1"
    )
    assert problem.location.path.endswith("arena-tales/table.yaml")
    assert problem.location.line == SEEDING.line_of(content_copy, "table.yaml", "id: player-board")


def test_a_cover_giving_every_count_from_two_to_six_is_an_error_at_info(
    content_copy: Path,
) -> None:
    # Today's gap: the cover said "2-6 人" where the post says 2/4/6.
    SEEDING.edit(content_copy, "game.yaml", ", only: [2, 4, 6]}", "}")
    problem = only(game_problems(content_copy), "info.players")
    assert problem.message == (
        "info.players: the cover prints '2-6' players, but the arena has a setup for 2/4/6 "
        "only: give players.only [2, 4, 6]"
    )
    assert problem.location.path.endswith("arena-tales/game.yaml")
    assert problem.location.line == SEEDING.line_of(content_copy, "game.yaml", "slug: arena-tales")


def appendix_text(words: list[str]) -> str:
    """A face's words as the rulebook's card appendix lists them beside its drawing
    (pnp.rulebook.pdf), one after another; the damage icon is the glossary's sign for 伤害,
    so it reads as the word."""
    return " / ".join(word.replace("\n", " ") for word in words).replace("[[damage]]", "伤害")


def unlabelled(card: Card, text: str) -> list[str]:
    """What of a damage card's damage and range ``text`` does not say in words: its base
    damage as '伤害 N' and each side's range as '<side> <spec>' ('正前 ③')."""
    if card.type is not CardType.DAMAGE:
        return []
    wanted = [f"伤害 {card.damage}"]
    wanted += [f"{side} {spec}" for side, spec in zip(SIDES, card.range, strict=True) if spec]
    return [label for label in wanted if label not in text]


def appendix_gaps(content: Path, templates: Path) -> list[tuple[Card, list[str]]]:
    """Each damage card whose appendix row (its face's text) does not give its damage and the
    range of each side in words, with what is missing: a bare '0 / 1 / 直拳' cannot be read back
    into cost, damage and the side each range number belongs to."""
    game = load_game(content, GAME)
    product = next(p for p in game.model.products if p.items == "deck_cards")
    laid = layout_product(game, product, templates, 0.0)
    gaps: dict[str, tuple[Card, list[str]]] = {}
    for item, (front, _, _) in zip(laid.items, laid.runs, strict=True):
        words = [shape.text for shape in front.shapes if isinstance(shape, TextShape)]
        missing = unlabelled(item.card, appendix_text(words))
        if missing and item.card.id not in gaps:
            gaps[item.card.id] = (item.card, missing)
    return list(gaps.values())


def test_the_card_appendix_gives_every_damage_and_range_in_words() -> None:
    assert appendix_gaps(CONTENT, TEMPLATES) == []


def test_a_card_face_without_damage_and_range_in_words_fails_at_the_card(
    content_copy: Path,
) -> None:
    # Today's gap: the appendix read "0 / 1 / 直拳": which number is the damage, which side?
    templates = content_copy.parent / "templates"
    shutil.copytree(TEMPLATES, templates)
    card = templates / GAME / "card.yaml"
    text = card.read_text(encoding="utf-8")
    start = text.index("  # the damage and each side's range in words")
    end = text.index("  # name and who it belongs to")
    card.write_text(text[:start] + text[end:], encoding="utf-8")
    gaps = appendix_gaps(content_copy, templates)
    model: ArenaTales = load_game(CONTENT, GAME).model
    assert len(gaps) == sum(1 for c in model.cards if c.type is CardType.DAMAGE)
    jab, missing = gaps[0]
    assert (jab.id, missing) == ("jab", ["伤害 1", "正前 1"])
    assert jab.where.path.endswith("arena-tales/cards.yaml")
    assert jab.where.line == SEEDING.line_of(content_copy, "cards.yaml", "{id: jab,")


def test_what_the_appendix_must_say_of_a_damage_card() -> None:
    model: ArenaTales = load_game(CONTENT, GAME).model
    jab = model.card("jab")
    assert unlabelled(jab, "0 / 1 / 直拳") == ["伤害 1", "正前 1"]
    assert unlabelled(jab, "0 / 1 / 伤害 1 正前 1 / 直拳") == []
    # A word printed twice is listed twice; the damage icon reads as 伤害.
    assert appendix_text(["1", "1", "[[damage]] 1\n正前 1"]) == "1 / 1 / 伤害 1 正前 1"
