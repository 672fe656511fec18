"""`pnp rulebook`: the rulebook alone."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from pnp.cli.app import Context, content_option, fail, main, report_content_error
from pnp.errors import ContentError, PnpError
from pnp.paths import (
    default_output_root,
)

if TYPE_CHECKING:
    pass


@main.command()
@content_option
@click.argument("game")
@click.option(
    "--out",
    type=click.Path(path_type=Path, file_okay=False),
    help="Output root (default: output/); the rulebook goes to <root>/<game>/.",
)
@click.pass_obj
def rulebook(obj: Context, game: str, out: Path | None) -> None:
    """Build GAME's rulebook alone: an A5 reading edition and an A4 saddle-stitch booklet."""
    from pnp.output import folder_lock
    from pnp.rulebook.build import build_rulebook

    folder = (out or default_output_root()) / game
    try:
        with folder_lock(folder):
            loaded = obj.checked(game)
            files = build_rulebook(loaded, folder, obj.templates_root)
    except ContentError as error:
        report_content_error(error)
    except PnpError as error:
        fail(f"error: {error}")
    click.echo(
        f"{game}: rulebook {files.pages} pages -> {files.reading}; booklet "
        f"{files.sheets} sheets (duplex, short-edge flip) -> {files.booklet}"
    )
