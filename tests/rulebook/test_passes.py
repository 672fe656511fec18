"""The reading edition is laid out twice, not three times, and only the written pass draws;
what it writes is what reportlab's own passes until the contents settle would write."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.content.loader import LoadedGame, load_game
from pnp.rulebook import pdf
from pnp.rulebook.pdf import render_reading_edition

from ..conftest import CONTENT, TEMPLATES


@pytest.fixture(scope="module")
def mineventure() -> LoadedGame:
    # Its contents run over a page: unseeded, reportlab needs three passes.
    return load_game(CONTENT, "mineventure")


def test_two_passes_and_the_same_bytes_as_unseeded_passes(
    mineventure: LoadedGame, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    passes: list[bool] = []
    build = pdf.RulebookDocument.build

    def counted(self: pdf.RulebookDocument, *args: object, **kwargs: object) -> None:
        build(self, *args, **kwargs)  # type: ignore[arg-type]
        passes.append(self._seeded)

    monkeypatch.setattr(pdf.RulebookDocument, "build", counted)
    seeded = tmp_path / "seeded.pdf"
    render_reading_edition(mineventure, seeded, TEMPLATES)
    assert passes == [True, True]

    passes.clear()
    monkeypatch.setattr(pdf.RulebookDocument, "seed_contents", lambda self, story: None)
    plain = tmp_path / "plain.pdf"
    render_reading_edition(mineventure, plain, TEMPLATES)
    assert len(passes) >= 2 and not any(passes)
    assert seeded.read_bytes() == plain.read_bytes()


def test_the_first_pass_draws_nothing(
    mineventure: LoadedGame, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[int] = []
    draw = pdf.CJKParagraph.draw

    def counted(self: pdf.CJKParagraph) -> None:
        drawn.append(self._pnp_pass)  # type: ignore[attr-defined]
        draw(self)

    build = pdf.RulebookDocument.build

    def numbered(self: pdf.RulebookDocument, *args: object, **kwargs: object) -> None:
        pdf.CJKParagraph._pnp_pass = self._passes + 1  # type: ignore[attr-defined]
        build(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pdf.CJKParagraph, "draw", counted)
    monkeypatch.setattr(pdf.RulebookDocument, "build", numbered)
    render_reading_edition(mineventure, tmp_path / "book.pdf", TEMPLATES)
    assert drawn and set(drawn) == {2}
