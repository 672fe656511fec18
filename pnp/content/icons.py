"""A game's icons: the shared set beside the templates, then the game's own (content/<game>/
icons, which may redraw a shared one under its name).

The shared set lives in ``templates/icons.yaml``: the templates folder is the one every game
of a content tree reads (and its bytes are already in every game's snapshot, so an edited
shared icon rebuilds every kit that shows it).
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from dataclasses import dataclass, field
from typing import Any

from pnp.content.schema import convert
from pnp.content.sources import Snapshot
from pnp.content.yamlsource import load_yaml
from pnp.errors import Location, Problem
from pnp.model.common import doc
from pnp.model.icons import ICON_NAME, Icon, PathError, inline_icons, parse_path

SHARED_FILE = "icons.yaml"


@dataclass(frozen=True)
class SharedIcons:
    """The shared set's file."""

    icons: tuple[Icon, ...] = field(default=(), metadata=doc("icons every game may place"))


def with_shared_icons(model: Any, sources: Snapshot) -> Any:
    """`model` with the shared icons before its own (a game's icon of the same name wins)."""
    own: tuple[Icon, ...] | None = getattr(model, "icons", None)
    if own is None or SHARED_FILE not in sources.templates.files:
        return model
    node = load_yaml(sources.templates.root / SHARED_FILE, f"templates/{SHARED_FILE}")
    shared = convert(node, SharedIcons).icons
    names = {icon.name for icon in own}
    merged = tuple(icon for icon in shared if icon.name not in names) + tuple(own)
    return dataclasses.replace(model, icons=merged)


def icon_map(model: Any) -> dict[str, Icon]:
    return {icon.name: icon for icon in getattr(model, "icons", ())}


def unknown_icon(name: str, known: dict[str, Icon]) -> str:
    """The message for an icon no set has, with the nearest name."""
    near = difflib.get_close_matches(name, sorted(known), n=1)
    hint = f" (did you mean [[{near[0]}]]?)" if near else ""
    return f"unknown icon [[{name}]]{hint}; icons are the shared set's and the game's own"


def icons_in(text: str, known: dict[str, Icon]) -> tuple[tuple[Icon, ...], list[str]]:
    """The icons `text` places, each once, and the names it places that no set has."""
    found: dict[str, Icon] = {}
    missing: list[str] = []
    for name in inline_icons(text):
        icon = known.get(name)
        if icon is None:
            missing.append(name)
        else:
            found[name] = icon
    return tuple(found.values()), missing


def icon_problems(model: Any) -> list[Problem]:
    """Icons that cannot be drawn: a bad name or path, a name given twice in one file."""
    problems: list[Problem] = []
    seen: dict[tuple[str, str], Location] = {}
    for icon in getattr(model, "icons", ()):
        if not ICON_NAME.match(icon.name):
            problems.append(
                Problem(
                    icon.where,
                    f"icon name {icon.name!r}: expected lower-case letters, digits, - and _",
                )
            )
        key = (icon.where.path, icon.name)
        if key in seen:
            problems.append(Problem(icon.where, f"icon {icon.name!r} is defined twice"))
        seen[key] = icon.where
        try:
            parse_path(icon.path)
        except PathError as error:
            problems.append(Problem(icon.where, f"icon {icon.name!r}: path: {error}"))
    return problems


_HEX = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")


def sprite_problems(model: Any) -> list[Problem]:
    """Sprites that cannot be drawn: ragged rows, a pixel of no colour, a colour that is
    none."""
    problems: list[Problem] = []
    for sprite in getattr(model, "sprites", ()):
        widths = {len(row) for row in sprite.pixels}
        if len(widths) > 1:
            problems.append(
                Problem(sprite.where, f"sprite {sprite.name!r}: rows of {sorted(widths)} pixels")
            )
        for key, colour in sprite.colours.items():
            if len(key) != 1 or not _HEX.match(colour):
                problems.append(
                    Problem(
                        sprite.where,
                        f"sprite {sprite.name!r}: colours: expected one character: '#rrggbb', "
                        f"got {key!r}: {colour!r}",
                    )
                )
        unknown = sorted({ch for row in sprite.pixels for ch in row} - set(sprite.colours) - {"."})
        if unknown:
            problems.append(
                Problem(
                    sprite.where,
                    f"sprite {sprite.name!r}: pixels {''.join(unknown)!r} have no colour",
                )
            )
    return problems
