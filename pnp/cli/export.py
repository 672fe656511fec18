"""`pnp export`: per-card PNGs, Tabletop Simulator sheets, the gallery and CSV tables."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

import click

from pnp.cli.app import Context, Failures, content_option, fail, main
from pnp.errors import ContentError, PnpError
from pnp.paths import (
    default_output_root,
)

if TYPE_CHECKING:
    from pnp.content.loader import LoadedGame
    from pnp.content.sources import Snapshot
    from pnp.export import ExportReport


def export_formats(
    obj: Context,
    game: LoadedGame | str,
    formats: tuple[str, ...],
    game_dir: Path,
    profile: str,
    base_url: str | None,
) -> None:
    """Every export of `formats` into `game_dir/export/`, beside the game's kit. `game` is the
    loaded game, or its slug: then it is loaded (and checked) only if an export is not up to
    date with the content."""
    from pnp.export import export_dir, export_up_to_date, record_export
    from pnp.output import folder_lock

    slug = game if isinstance(game, str) else game.slug
    # One reading of the game's files for every format: checks, images and records agree.
    sources = (game.sources if not isinstance(game, str) else None) or obj.snapshot(slug)
    for fmt in formats:
        started = time.perf_counter()
        folder = export_dir(game_dir, fmt, profile)
        options = ("export", fmt, profile, base_url)
        with folder_lock(folder):
            warnings = export_up_to_date(sources.digest, folder, options)
            if warnings is not None:
                click.echo(
                    f"{slug}: export {fmt}: up to date -> {folder} "
                    f"({time.perf_counter() - started:.2f} s)"
                )
            else:
                game, report = _exported(obj, game, fmt, game_dir, profile, base_url, sources)
                record_export(report, sources.digest, options)
                size = sum(path.stat().st_size for path in report.files if path.is_file())
                click.echo(
                    f"{slug}: export {fmt}: {len(report.files)} files, {size / 1e6:.1f} MB "
                    f"-> {report.out_dir} ({time.perf_counter() - started:.2f} s)"
                )
                warnings = report.warnings
        for warning in warnings:
            click.echo(f"  warning: {warning}", err=True)


def _exported(
    obj: Context,
    game: LoadedGame | str,
    fmt: str,
    game_dir: Path,
    profile: str,
    base_url: str | None,
    sources: Snapshot,
) -> tuple[LoadedGame, ExportReport]:
    """The game and its export in ``fmt``. A game given by its slug is loaded here and its
    static checks run while the export makes its images (before it writes anything): errors
    they find stop the export with nothing written, as checking first did."""
    from pnp.export import export_game

    if not isinstance(game, str):
        report = export_game(
            game, fmt, game_dir, obj.templates_root, profile=profile, base_url=base_url
        )
        return game, report
    from pnp.validate.runner import require_clean

    loaded = obj.load(game, sources)

    def check() -> None:
        require_clean(loaded, obj.templates_root)

    try:
        report = export_game(
            loaded,
            fmt,
            game_dir,
            obj.templates_root,
            profile=profile,
            base_url=base_url,
            before_writing=check,
        )
    except ContentError:
        raise
    except PnpError:
        # Content the checks refuse can stop the export before they run (a template naming
        # a missing field): then the checks say what is wrong, every error of it.
        check()
        raise
    return loaded, report


@main.command()
@content_option
@click.argument("games", nargs=-1, required=True)
@click.option(
    "--format",
    "formats",
    type=click.Choice(["png", "tts", "gallery", "csv"]),
    multiple=True,
    required=True,
    help="What to export (repeat for several): png for print shops, tts for Tabletop "
    "Simulator, gallery for review in a browser, csv for every collection as a table "
    "(which content can name instead of a list: cards: cards.csv).",
)
@click.option(
    "--profile",
    type=click.Choice(["default", "makeplayingcards", "thegamecrafter"]),
    default="default",
    show_default=True,
    help="Print-shop profile for png.",
)
@click.option(
    "--base-url",
    default=None,
    help="Where the tts images will be hosted (default: paths relative to the saved object; "
    "see HOW-TO-LOAD.txt).",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path, file_okay=False),
    help="Output root (default: output/); files go to <root>/<game>/export/<format>/.",
)
@click.pass_obj
def export(
    obj: Context,
    games: tuple[str, ...],
    formats: tuple[str, ...],
    profile: str,
    base_url: str | None,
    out: Path | None,
) -> None:
    """Export GAMES as per-card PNGs, Tabletop Simulator sheets, a gallery or CSV tables."""
    from pnp.export import PROFILES

    if profile not in PROFILES:
        fail(f"--profile: unknown shop profile {profile!r} (expected one of {', '.join(PROFILES)})")
    failures = Failures()
    for slug in games:
        with failures.for_game(slug):
            root = out or default_output_root()
            export_formats(obj, slug, formats, root / slug, profile, base_url)
    failures.exit()
