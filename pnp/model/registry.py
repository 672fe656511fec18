"""Which model type holds each game's content. Adding a game starts here."""

from __future__ import annotations

from pnp.model.deadline_99 import Deadline99

GAME_MODELS: dict[str, type] = {
    "deadline-99": Deadline99,
}


def module_name(slug: str) -> str:
    """The code name of a game: `deadline-99` -> `deadline_99`."""
    return slug.replace("-", "_")
