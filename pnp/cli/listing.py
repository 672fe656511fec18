"""`pnp list`: the games and the components of their kits."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from pnp.cli.app import Context, Failures, content_option, main

if TYPE_CHECKING:
    pass


@main.command("list")
@content_option
@click.pass_obj
def list_command(obj: Context) -> None:
    """Show the games and the components of their kits, with counts."""
    failures = Failures()
    for slug in obj.slugs(()):
        with failures.for_game(slug):
            game = obj.load(slug)
            info = game.model.info
            click.echo(f"{slug}  {info.title}  ({info.players} players, ~{info.minutes} min)")
            for product in game.model.products:
                items = list(getattr(game.model, product.items, ()))
                count = sum(int(item.copies) for item in items)
                click.echo(
                    f"  {product.id:<18} {count:>4}  {product.title}"
                    f"  [{product.kind.value}, {product.size}]"
                )
    failures.exit()
