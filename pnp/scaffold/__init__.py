"""``pnp new SLUG``: the content and templates of a new data-only game that builds at once.

The example in ``files/`` is small but complete, so a designer edits instead of starting from
a blank page: a deck of cards with a shared back, a sheet of tokens, a score board, a rulebook
whose numbers come from content, and one decision. ``__SLUG__`` and ``__TITLE__`` in the
files become the game's slug and title. Nothing is ever overwritten.
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

from pnp.errors import PnpError
from pnp.output import atomic_output

SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


def scaffold_game(content_root: Path, templates_root: Path, slug: str, title: str) -> list[Path]:
    """Write a new data-only game; the files written. PnpError when the slug is not a slug or
    the game already has content or templates."""
    if not SLUG.match(slug):
        raise PnpError(f"game slug {slug!r}: expected lowercase letters, digits and hyphens")
    if any(mark in title for mark in ("{", "}", "\n", '"', "\\")):
        raise PnpError(f"title {title!r}: braces, quotes and line breaks are not allowed")
    targets = {"content": content_root / slug, "templates": templates_root / slug}
    for folder in targets.values():
        if folder.exists():
            raise PnpError(f"{folder} already exists; pnp new never overwrites a game")
    written = []
    files = resources.files(__package__).joinpath("files")
    for part, folder in targets.items():
        for source in sorted(files.joinpath(part).iterdir(), key=lambda entry: entry.name):
            if not source.name.endswith(".yaml"):
                continue
            text = source.read_text(encoding="utf-8")
            path = folder / source.name
            with atomic_output(path) as temporary:
                temporary.write_text(
                    text.replace("__SLUG__", slug).replace("__TITLE__", title), encoding="utf-8"
                )
            written.append(path)
    return written
