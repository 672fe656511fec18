"""Game slug -> engine factory, filled by each engine module when it is imported.

An engine module ends with ``register("deadline-99", Deadline99Rules)``. :func:`registered` and
:func:`engine_for` first import every module of ``pnp.engines`` so that the registry is always
complete, whatever was imported before (the OpenSpiel way: a registry filled on import).
"""

from __future__ import annotations

import difflib
import importlib
import pkgutil
from collections.abc import Callable
from typing import Any

from pnp.engines.base import Rules
from pnp.errors import UnknownGameError

EngineFactory = Callable[..., Rules[Any, Any]]
"""Builds the rules of one table: ``factory(model, players=..., **options)``."""

_ENGINES: dict[str, EngineFactory] = {}
_NOT_ENGINES = frozenset({"base", "registry"})


def register(slug: str, factory: EngineFactory) -> None:
    """Register the engine of game ``slug``; registering another factory for it is an error."""
    existing = _ENGINES.get(slug)
    if existing is not None and existing is not factory:
        raise ValueError(f"engine for {slug!r} already registered: {existing!r}")
    _ENGINES[slug] = factory


def engine_for(slug: str) -> EngineFactory:
    """The engine factory of game ``slug``; UnknownGameError (with a suggestion) if none."""
    _import_engines()
    try:
        return _ENGINES[slug]
    except KeyError:
        close = difflib.get_close_matches(slug, sorted(_ENGINES), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise UnknownGameError(f"no engine for game {slug!r}{hint}") from None


def registered() -> tuple[str, ...]:
    """Slugs of every registered engine, sorted."""
    _import_engines()
    return tuple(sorted(_ENGINES))


def _import_engines() -> None:
    import pnp.engines as package

    for module in pkgutil.iter_modules(package.__path__):
        if module.name not in _NOT_ENGINES and not module.name.startswith("_"):
            importlib.import_module(f"{package.__name__}.{module.name}")
