"""Which model type holds each game's content.

A game's model module `pnp/model/<module>.py` declares `SLUG` and `MODEL` (its root type);
this registry finds it by the game's slug, so adding a game touches no shared file.
"""

from __future__ import annotations

import importlib


def module_name(slug: str) -> str:
    """The code name of a game: `deadline-99` -> `deadline_99`."""
    return slug.replace("-", "_")


def model_for(slug: str) -> type | None:
    """The root model type of game `slug`, or None if no model module declares it."""
    try:
        module = importlib.import_module(f"pnp.model.{module_name(slug)}")
    except ModuleNotFoundError as error:
        if error.name != f"pnp.model.{module_name(slug)}":
            raise
        return None
    if getattr(module, "SLUG", None) != slug:
        return None
    model = getattr(module, "MODEL", None)
    return model if isinstance(model, type) else None
