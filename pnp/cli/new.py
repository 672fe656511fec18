"""`pnp new`: a data-only game that builds at once."""

from __future__ import annotations

from pathlib import Path

import click

from pnp.cli.app import Context, content_option, fail, main
from pnp.errors import PnpError


@main.command()
@content_option
@click.argument("slug")
@click.option("--title", default=None, help="The game's title (default: the slug).")
@click.pass_obj
def new(obj: Context, slug: str, title: str | None) -> None:
    """Start a new game: content and templates that build a kit (cards, tokens, a board and a
    rulebook) with no Python. A rules engine can be added later as a package of its own."""
    from pnp.paths import templates_root_for
    from pnp.scaffold import scaffold_game

    # A new game goes where the designer is (./content and ./templates), unless --content or
    # $PNP_CONTENT names another tree: never into pnp's own installation.
    content = obj.content_root if obj.explicit_content else Path.cwd() / "content"
    templates = (
        templates_root_for(content) if content.is_dir() else content.resolve().parent / "templates"
    )
    try:
        written = scaffold_game(content, templates, slug, title or slug)
    except PnpError as error:
        fail(f"error: {error}")
    for path in written:
        obj.say(f"wrote {_shown(path)}")
    command = (
        "pnp build"
        if content.resolve() == (Path.cwd() / "content").resolve()
        else (f"pnp --content {_shown(content)} build")
    )
    obj.say(
        f"next: {command} {slug}  (edit {_shown(content / slug)}/*.yaml and "
        f"{_shown(templates / slug)}/*.yaml)"
    )


def _shown(path: Path) -> str:
    """``path`` relative to the current folder when it lies inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
