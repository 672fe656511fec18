"""What the Deadline 99 kit prints, held against its engine (pnp.games.deadline_99.checks,
``claims``): every card face's effect, the function reference card's lines and its count-cap
line; an engine that does otherwise is a located finding."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from pnp.content.loader import load_game
from pnp.games.deadline_99.checks import claims
from pnp.games.deadline_99.model import Deadline99, EffectKind
from pnp.games.deadline_99.rules import Deadline99Rules
from tests.conftest import CONTENT, TEMPLATES
from tests.validate.seeding import Seeding, only

SEEDING = Seeding("deadline-99", games=4)
validate, line_of = SEEDING.validate, SEEDING.line_of


@pytest.fixture(scope="module")
def model() -> Deadline99:
    return load_game(CONTENT, "deadline-99").model


def test_every_face_and_reference_line_is_a_claim_and_the_engine_keeps_them(
    model: Deadline99,
) -> None:
    found = claims(model, TEMPLATES)
    for rank in model.ranks:
        assert any(c.where == rank.where for c in found), rank.id
    reference = [c for c in found if c.where.path.endswith("function-reference.yaml")]
    functions = [rank for rank in model.ranks if rank.is_function]
    # One line per function card, and the count cap, the empty hand and the usual draw.
    assert len(reference) == len(functions) + 3
    assert "出牌后计数超过 99 即出局" in {c.says for c in reference}
    assert [(str(c.where), c.says) for c in found if c.probe() is not None] == []


def seeded(tweak: Callable[[Deadline99Rules], None]) -> Callable[..., None]:
    """Deadline99Rules.__init__, then ``tweak`` of the table: an engine bug seeded back."""
    init = Deadline99Rules.__init__

    def seeded_init(self: Deadline99Rules, *args: object, **kwargs: object) -> None:
        init(self, *args, **kwargs)  # type: ignore[arg-type]
        tweak(self)

    return seeded_init


def below_the_floor(rules: Deadline99Rules) -> None:
    rules.floor -= 10


def no_reverse(rules: Deadline99Rules) -> None:
    rules._kind = [EffectKind.ADD if k is EffectKind.REVERSE else k for k in rules._kind]


def the_jack_draws(rules: Deadline99Rules) -> None:
    rules._draws = [
        1 if k is EffectKind.STEAL_RANDOM else d
        for k, d in zip(rules._kind, rules._draws, strict=True)
    ]


def a_higher_cap(rules: Deadline99Rules) -> None:
    rules.cap += 1


@pytest.mark.parametrize(
    ("tweak", "pattern", "needle"),
    [
        (
            below_the_floor,
            r"card Q 加减二十 prints 「计数 \+20 或 −20，由你选择。计数最低为 0。」, but .*"
            r"from 1, −20 leaves -10",
            "id: q,",
        ),
        (
            no_reverse,
            r"card 8 掉头 prints 「轮转方向反转。」, but after 8s: play goes on to seat 1",
            'id: "8"',
        ),
        (
            the_jack_draws,
            r"card J 钩牌 prints 「[^」]*本回合不抽牌。」, but after js@1: its player draws 1",
            "id: j,",
        ),
    ],
)
def test_a_card_the_engine_plays_otherwise_is_an_error_at_the_card(
    content_copy: Path,
    monkeypatch: pytest.MonkeyPatch,
    tweak: Callable[[Deadline99Rules], None],
    pattern: str,
    needle: str,
) -> None:
    monkeypatch.setattr(Deadline99Rules, "__init__", seeded(tweak))
    problem = only(validate(content_copy), pattern)
    assert problem.location.path.endswith("cards.yaml")
    assert problem.location.line == line_of(content_copy, "cards.yaml", needle)


def test_a_cap_the_engine_does_not_keep_is_an_error_at_the_reference_cards_line(
    content_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Deadline99Rules, "__init__", seeded(a_higher_cap))
    problem = only(
        validate(content_copy),
        r"功能牌速查 card prints 「出牌后计数超过 99 即出局」, but a card taking the count to 100 "
        r"leaves its player in",
    )
    assert problem.location.path.endswith("templates/deadline-99/function-reference.yaml")
    text = (TEMPLATES / "deadline-99/function-reference.yaml").read_text(encoding="utf-8")
    assert "count_cap" in text.splitlines()[problem.location.line - 1]
