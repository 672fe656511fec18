"""The shared check of printed text against the engine (pnp.validate.claims): a claim whose
probe disagrees is one located error quoting the printed words; a probe that cannot be played
out is a located error too, never a traceback."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from pnp.content.loader import load_game
from pnp.errors import Location
from pnp.registry import Game, game_for
from pnp.validate.checks import Findings
from pnp.validate.claims import Claim, check_claims, phrase_claims, template_line
from tests.conftest import CONTENT, TEMPLATES

HERE = Location("content/x/cards.yaml", 7)


def findings_of(claims: list[Claim]) -> Findings:
    """What check_claims finds for a game whose plugin lists ``claims``."""
    game = load_game(CONTENT, "deadline-99")
    plugin = replace(game_for("deadline-99"), claims=lambda model, templates: claims)
    findings = Findings(game)
    assert check_claims(findings, plugin, TEMPLATES) == len(claims)
    return findings


def test_a_claim_the_engine_keeps_finds_nothing() -> None:
    assert findings_of([Claim(HERE, "card 'k'", "计数直接变为 99", lambda: None)]).problems == []


def test_a_claim_the_engine_breaks_is_an_error_at_the_printed_line_quoting_the_words() -> None:
    claim = Claim(HERE, "card 'k'", "计数直接变为 99", lambda: "the count becomes 98")
    [problem] = findings_of([claim]).problems
    assert problem.location == HERE and problem.severity == "error"
    assert problem.message == "card 'k' prints 「计数直接变为 99」, but the count becomes 98"


def test_a_probe_the_engine_cannot_play_out_is_a_located_error_not_a_crash() -> None:
    def refused() -> str | None:
        raise ValueError("no such card 'x'")

    [problem] = findings_of([Claim(HERE, "card 'x'", "抽 1 张牌", refused)]).problems
    assert problem.location == HERE
    assert "cannot play it out (ValueError: no such card 'x')" in problem.message


def test_a_game_that_cannot_list_its_claims_is_reported_at_its_game_file() -> None:
    game = load_game(CONTENT, "deadline-99")

    def broken(model: object, templates: Path) -> list[Claim]:
        raise ValueError("the engine refuses the content")

    findings = Findings(game)
    check_claims(findings, replace(game_for("deadline-99"), claims=broken), TEMPLATES)
    [problem] = findings.problems
    assert problem.location.path.endswith("game.yaml")
    assert "could not be checked against the engine: the engine refuses the content" in (
        problem.message
    )


def test_a_game_without_claims_is_not_checked() -> None:
    game = load_game(CONTENT, "deadline-99")
    findings = Findings(game)
    assert check_claims(findings, Game(slug="deadline-99", model=object), TEMPLATES) == 0
    assert check_claims(findings, None, TEMPLATES) == 0


def test_phrases_are_claimed_wherever_prose_prints_them_and_only_there() -> None:
    def probe() -> str | None:
        return None

    texts = [
        ("card A", "贴着敌人时不能弃牌移动。", Location("a.yaml", 3)),
        ("card B", "卡牌效果的移动除外。", Location("b.yaml", 9)),
    ]
    found = phrase_claims(texts, {"贴着敌人": probe, "每一名敌人": probe})
    assert [(c.subject, c.says, c.where.line) for c in found] == [("card A", "贴着敌人", 3)]


def test_a_template_phrase_is_located_at_its_line() -> None:
    where = template_line(TEMPLATES, "deadline-99/function-reference.yaml", "count_cap")
    path = TEMPLATES / "deadline-99/function-reference.yaml"
    lines = path.read_text(encoding="utf-8").splitlines()
    assert where.path.endswith("templates/deadline-99/function-reference.yaml")
    assert "count_cap" in lines[where.line - 1]
    assert template_line(TEMPLATES, "deadline-99/function-reference.yaml", "absent").line == 0
