"""`pnp build`: every kit, or the named ones, side by side on the cores."""

from __future__ import annotations

import contextlib
import io
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from pnp.cli.app import Context, Failures, content_option, fail, main, printer_margin_option
from pnp.cli.export import export_formats
from pnp.cli.watch import watch_games
from pnp.paths import (
    content_size,
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
    help="Output root (default: output/); each kit goes to <root>/<game>/.",
)
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True)
@click.option(
    "--bleed",
    "bleed_mm",
    type=click.FloatRange(0, 10),
    default=3.0,
    show_default=True,
    help="Bleed in mm around each card.",
)
@click.option("--crop-marks/--no-crop-marks", default=True, show_default=True)
@click.option(
    "--duplex/--no-duplex",
    default=True,
    show_default=True,
    help="Backs on the page after their fronts, mirrored for duplex.",
)
@click.option(
    "--flip",
    type=click.Choice(["long", "short"]),
    default="long",
    show_default=True,
    help="Edge the duplex printer flips on.",
)
@click.option(
    "--back-offset",
    default="0,0",
    show_default=True,
    metavar="X,Y",
    help="Shift every back by X,Y mm to correct a printer's duplex drift.",
)
@printer_margin_option("crop marks, footers and trims stay out of it.")
@click.option(
    "--exports",
    is_flag=True,
    help="Also write every export (png, tts, gallery) into output/<game>/export/.",
)
@click.option(
    "--only",
    "only",
    multiple=True,
    metavar="PRODUCT",
    help="Build only this product (repeatable; 'rulebook' for both rulebook editions).",
)
@click.option(
    "--force", is_flag=True, help="Render every file again, even those the cache says are current."
)
@click.option(
    "--clean",
    is_flag=True,
    help="First remove everything pnp wrote in the kit's folder (files, exports, previews, "
    "reports), then build it afresh. Without it a build still removes the files it no longer "
    "makes.",
)
@click.option(
    "--watch",
    is_flag=True,
    help="Build, then rebuild whatever changes each time a content or template file is saved.",
)
@click.pass_obj
def build(
    obj: Context,
    games: tuple[str, ...],
    out: Path | None,
    paper: str,
    bleed_mm: float,
    crop_marks: bool,
    duplex: bool,
    flip: str,
    back_offset: str,
    printer_margin_mm: float,
    exports: bool,
    only: tuple[str, ...],
    force: bool,
    clean: bool,
    watch: bool,
) -> None:
    """Build the kits of GAMES (default: every game) into output/<game>/.

    A kit whose content, templates, options and pnp are what its last build used is left as
    it is; otherwise only the products whose drawing changed are rendered again."""
    from pnp.layout.sheets import Flip
    from pnp.options import BuildOptions
    from pnp.output import kit_up_to_date

    try:
        offset_x, offset_y = (float(part) for part in back_offset.split(","))
    except ValueError:
        fail(f"--back-offset: expected X,Y in mm like '0.5,-1', got {back_offset!r}")
    options = BuildOptions(
        paper=paper,
        bleed_mm=bleed_mm,
        crop_marks=crop_marks,
        duplex=duplex,
        flip=Flip(flip),
        back_offset_mm=(offset_x, offset_y),
        printer_margin_mm=printer_margin_mm,
    )
    slugs = obj.slugs(games)
    root = out or default_output_root()
    failures = Failures()

    def rebuild(slug: str) -> None:
        build_one(obj, slug, root / slug, options, only=only, force=False, exports=exports)

    def build_game(slug: str) -> None:
        with failures.for_game(slug):
            build_one(
                obj,
                slug,
                root / slug,
                options,
                only=only,
                force=force or clean,
                exports=exports,
                clean=clean,
            )

    if not (force or clean or only or exports):
        # Every kit up to date: said after a few hashes, without loading the PDF machinery
        # or forking a process a game.
        started = time.perf_counter()
        said = []
        for slug in slugs:
            if not kit_up_to_date(obj.snapshot(slug).digest, root / slug, options):
                break
            said.append(
                f"{slug}: up to date -> {root / slug} ({time.perf_counter() - started:.2f} s)"
            )
            started = time.perf_counter()
        else:
            for line in said:
                obj.say(line)
            if watch:
                watch_games(obj, slugs, rebuild)
            return

    # Imported before the games fork, so every process starts with reportlab and the
    # layout machinery loaded instead of importing them again.
    import pnp.rulebook.build  # noqa: F401

    def cost(slug: str) -> float:
        return content_size(obj.content_root, slug)

    for code in _side_by_side(build_game, slugs, failures, cost):
        failures.code = max(failures.code, code)
    if watch:
        watch_games(obj, slugs, rebuild)
    failures.exit()


def _side_by_side(
    run: Callable[[str], None],
    slugs: list[str],
    failures: Failures,
    cost: Callable[[str], float] | None = None,
) -> list[int]:
    """Run ``run`` for every game, several games at once on every core (one forked process a
    game), printing each game's output in the order of ``slugs``; the failure codes of the
    games run elsewhere (this process's ``failures`` records its own). Games start dearest
    first by ``cost`` (so the last one to start is short and the cores finish together)."""
    from pnp.cores import default_workers
    from pnp.engines.batch import run_seeds

    if len(slugs) < 2 or default_workers() < 2:
        for slug in slugs:
            run(slug)
        return []

    order = list(range(len(slugs)))
    if cost is not None:
        order.sort(key=lambda index: -cost(slugs[index]))

    def captured(index: int) -> tuple[str, str, int]:
        out, err = io.StringIO(), io.StringIO()
        failures.code = 0
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            run(slugs[index])
        return out.getvalue(), err.getvalue(), failures.code

    results = dict(zip(order, run_seeds(captured, order, min_per_worker=1), strict=True))
    codes = []
    for index in range(len(slugs)):
        out, err, code = results[index]
        sys.stdout.write(out)
        sys.stderr.write(err)
        codes.append(code)
    sys.stdout.flush()
    return codes


def build_one(
    obj: Context,
    slug: str,
    out_dir: Path,
    options: Any,
    *,
    only: tuple[str, ...],
    force: bool,
    exports: bool,
    clean: bool = False,
) -> None:
    """Build one game's kit into ``out_dir``, taking turns with any other pnp writing there.
    The game's files are read once, before anything else (see pnp.content.sources): the
    up-to-date check, the checks, the kit and its record all go by those bytes, so a file
    saved meanwhile is built by the next build, never half-seen by this one."""
    from pnp.output import MANIFEST, clean_folder, folder_lock, kit_up_to_date

    started = time.perf_counter()
    with folder_lock(out_dir):
        if clean:
            for name in clean_folder(out_dir, f"{slug}-"):
                obj.say(f"  removed {name}", verbose=True)
        sources = obj.snapshot(slug)
        if (
            not force
            and not only
            and not exports
            and kit_up_to_date(sources.digest, out_dir, options)
        ):
            obj.say(f"{slug}: up to date -> {out_dir} ({time.perf_counter() - started:.2f} s)")
            return
        from pnp.rulebook.build import build_game

        game = obj.checked(slug, sources, printer_margin_mm=options.printer_margin_mm)
        if force:
            (out_dir / MANIFEST).unlink(missing_ok=True)
        report = build_game(game, out_dir, obj.templates_root, options, only=only or None)
    elapsed = time.perf_counter() - started
    pages = sum(f.pages for f in report.files)
    obj.say(
        f"{slug}: {len(report.files)} files, {pages} pages, {len(report.rendered)} rendered "
        f"-> {out_dir} ({elapsed:.2f} s)"
    )
    for name in report.rendered:
        obj.say(f"  wrote {name}", verbose=True)
    for name in report.unchanged:
        obj.say(f"  kept {name} (unchanged)", verbose=True)
    for name in report.removed:
        obj.say(f"  removed {name} (no longer part of the kit)")
    for warning in report.warnings:
        click.echo(f"  warning: {warning}", err=True)
    if exports:
        from pnp.export import FORMATS

        export_formats(obj, game, FORMATS, out_dir, "default", None)
