"""A Deadline 99 table served on the loopback, shared by the play stage's tests."""

from __future__ import annotations

import functools
from typing import Any

from pnp.content.loader import load_game
from pnp.play.faces import FaceStore
from pnp.registry import game_for
from pnp.validate.play import game_tables, make_policy
from tests.conftest import CONTENT, TEMPLATES


@functools.cache
def loaded(slug: str) -> Any:
    return load_game(CONTENT, slug)


@functools.cache
def faces(slug: str) -> FaceStore:
    """A game's faces (drawn once a test session: a second or two a game)."""
    return FaceStore(loaded(slug), TEMPLATES)


def table(slug: str, name: str | None = None, players: int | None = None) -> Any:
    """A fresh table of ``slug``: the one named, else the first for ``players``."""
    for found in game_tables(game_for(slug), loaded(slug).model):
        if name is not None and found.name != name:
            continue
        if players is not None and found.rules.num_players != players:
            continue
        return found
    raise LookupError(f"{slug}: no table {name or players}")


def policies(slug: str, seats: tuple[str, ...]) -> dict[int, Any]:
    game = game_for(slug)
    return {seat: make_policy(game, name) for seat, name in enumerate(seats) if name != "human"}
