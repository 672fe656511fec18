"""`pnp schema`: JSON Schemas of the content files and of the face templates, for editors,
and the templates' reference page."""

from __future__ import annotations

from pathlib import Path

import click

from pnp.cli.app import Context, content_option, fail, main
from pnp.errors import PnpError
from pnp.paths import default_output_root


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
    """Write the JSON Schema of GAMES' content files (default: every game, the data-only games
    of the content folder too) and of face templates, for an editor that checks YAML as you
    type: unknown keys, wrong types and values, field descriptions. Also writes
    templates.md, the reference of template boxes, keys, units and the values a face sees."""
    from pnp.content.jsonschema import write_schemas
    from pnp.layout.reference import template_reference, template_schema_text
    from pnp.output import atomic_output
    from pnp.paths import discover_games
    from pnp.registry import games as registered

    folder = obj.content_root
    in_content = set(discover_games(folder)) if folder.is_dir() else set()
    chosen = list(games) or sorted(set(registered()) | in_content)
    data_only = [slug for slug in chosen if slug not in registered() and slug in in_content]
    target = (out or default_output_root()) / "schemas"
    try:
        written = write_schemas(target, chosen, data_only)
    except PnpError as error:
        fail(f"error: {error}")
    for name, text in (
        ("templates.schema.json", template_schema_text()),
        ("templates.md", template_reference()),
    ):
        with atomic_output(target / name) as temporary:
            temporary.write_text(text, encoding="utf-8")
        written.append(target / name)
    for path in written:
        obj.say(f"wrote {path}")
