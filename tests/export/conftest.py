"""Exports of Deadline 99 made once per session, read back by the tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.content.loader import LoadedGame
from pnp.export import export_game

from ..conftest import TEMPLATES, made_once

BASE_URL = "https://example.org/dl99"


@pytest.fixture(scope="session")
def exported(deadline_99: LoadedGame, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """output/deadline-99/ with every export of the default profile."""

    def make(folder: Path) -> None:
        for fmt in ("png", "tts", "gallery"):
            export_game(deadline_99, fmt, folder / deadline_99.slug, TEMPLATES, base_url=BASE_URL)

    return made_once(tmp_path_factory, "exports", make) / deadline_99.slug / "export"


def copies_by_card(game: LoadedGame, cards_only: bool = True) -> dict[tuple[str, str], int]:
    """(product, item id) -> copies, for every item of the game's (card) products."""
    found = {}
    for product in game.model.products:
        if cards_only and product.kind.value != "cards":
            continue
        for item in getattr(game.model, product.items):
            found[(product.id, str(item.id))] = int(item.copies)
    return found
