"""`pnp schema`: JSON Schemas of the content files for editors."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from pnp.cli.app import Context, content_option, fail, main
from pnp.errors import PnpError
from pnp.paths import (
    default_output_root,
)

if TYPE_CHECKING:
    pass


@main.command()
@content_option
@click.argument("games", nargs=-1)
@click.option(
    "--out",
    type=click.Path(path_type=Path, file_okay=False),
    help="Output root (default: output/); the schemas go to <root>/schemas/<game>.schema.json.",
)
@click.pass_obj
def schema(obj: Context, games: tuple[str, ...], out: Path | None) -> None:
    """Write the JSON Schema of GAMES' content files (default: every game), for an editor
    that checks YAML as you type: unknown keys, wrong types and values, field descriptions."""
    from pnp.content.jsonschema import write_schemas

    try:
        written = write_schemas((out or default_output_root()) / "schemas", games or None)
    except PnpError as error:
        fail(f"error: {error}")
    for path in written:
        obj.say(f"wrote {path}")
