"""Exports of Deadline 99 made once per session, read back by the tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.content.loader import LoadedGame
from pnp.export import export_game

from ..conftest import TEMPLATES

BASE_URL = "https://example.org/dl99"


@pytest.fixture(scope="session")
def exported(deadline_99: LoadedGame, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """output/deadline-99/ with every export of the default profile."""
    game_dir = tmp_path_factory.mktemp("out") / deadline_99.slug
    for fmt in ("png", "tts", "gallery"):
        export_game(deadline_99, fmt, game_dir, TEMPLATES, base_url=BASE_URL)
    return game_dir / "export"


def copies_by_card(game: LoadedGame, cards_only: bool = True) -> dict[tuple[str, str], int]:
    """(product, item id) -> copies, for every item of the game's (card) products."""
    found = {}
    for product in game.model.products:
        if cards_only and product.kind.value != "cards":
            continue
        for item in getattr(game.model, product.items):
            found[(product.id, str(item.id))] = int(item.copies)
    return found
