"""`pnp preview`: one card or component as PNG."""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import TYPE_CHECKING

import click

from pnp.cli.app import Context, content_option, fail, main, report_content_error
from pnp.errors import ContentError, PnpError
from pnp.output import atomic_output
from pnp.paths import (
    default_output_root,
)

if TYPE_CHECKING:
    pass


@main.command()
@content_option
@click.argument("game")
@click.argument("item_id", metavar="ID")
@click.option(
    "--out",
    type=click.Path(path_type=Path, file_okay=False),
    help="Output root (default: output/); images go to <root>/<game>/preview/.",
)
@click.option(
    "--dpi", type=click.IntRange(36, 600), default=150, show_default=True, help="Resolution."
)
@click.option("--bleed", "bleed_mm", type=click.FloatRange(0, 10), default=0.0, show_default=True)
@click.pass_obj
def preview(
    obj: Context, game: str, item_id: str, out: Path | None, dpi: int, bleed_mm: float
) -> None:
    """Write one card or component of GAME as PNG (front, and back if it has one).

    ID is an item id (a card, a board…) or PRODUCT:ID when several products share it."""
    from pnp.export.faces import collect, png_bytes

    try:
        loaded = obj.checked(game)
        product_id, _, wanted = item_id.rpartition(":")
        products = [
            p
            for p in loaded.model.products
            if (not product_id or p.id == product_id)
            and any(str(i.id) == wanted for i in getattr(loaded.model, p.items, ()))
        ]
        if not products:
            ids = sorted(
                {
                    str(i.id)
                    for p in loaded.model.products
                    for i in getattr(loaded.model, p.items, ())
                }
            )
            near = difflib.get_close_matches(wanted, ids, n=3)
            hint = f" (did you mean {', '.join(map(repr, near))}?)" if near else ""
            fail(f"error: game {game!r} has no item {item_id!r}{hint}")
        if len(products) > 1:
            names = ", ".join(f"{p.id}:{wanted}" for p in products)
            fail(f"error: {wanted!r} is in several products; name one of {names}")
        [product] = products
        laid_out, rasteriser = collect(
            loaded, obj.templates_root, bleed_mm=bleed_mm, products=[product.id]
        )
        item = next(i for i in laid_out[0].items if i.id == wanted)
        faces = [item.front] + ([item.back] if item.back is not None else [])
        folder = (out or default_output_root()) / game / "preview"
        for side, image in zip(("front", "back"), rasteriser.render(faces, dpi), strict=False):
            path = folder / f"{product.id}-{wanted}-{side}.png"
            with atomic_output(path) as temporary:
                temporary.write_bytes(png_bytes(image, dpi))
            obj.say(f"{path} ({image.width}x{image.height} px)")
        for warning in sorted(rasteriser.warnings):
            click.echo(f"  warning: {warning}", err=True)
    except ContentError as error:
        report_content_error(error)
    except PnpError as error:
        fail(f"error: {error}")
