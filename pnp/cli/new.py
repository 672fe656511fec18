"""`pnp new`: a data-only game that builds at once."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from pnp.cli.app import Context, content_option, fail, main
from pnp.errors import PnpError

if TYPE_CHECKING:
    pass


@main.command()
@content_option
@click.argument("slug")
@click.option("--title", default=None, help="The game's title (default: the slug).")
@click.pass_obj
def new(obj: Context, slug: str, title: str | None) -> None:
    """Start a new game: content and templates that build a kit (cards, tokens, a board and a
    rulebook) with no Python. A rules engine can be added later as a package of its own."""
    from pnp.scaffold import scaffold_game

    try:
        written = scaffold_game(obj.content_root, obj.templates_root, slug, title or slug)
    except PnpError as error:
        fail(f"error: {error}")
    for path in written:
        obj.say(f"wrote {path}")
    obj.say(f"next: pnp build {slug}  (edit content/{slug}/*.yaml and templates/{slug}/*.yaml)")
