"""Exports from the same content and renderers as the kit: per-card PNGs for print shops
(png), Tabletop Simulator sheets and a saved object (tts), and a browsable gallery with the
validator's findings (gallery). Each writes into output/<game>/export/<format>/."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from pnp.content.loader import LoadedGame
from pnp.export.png import ExportReport
from pnp.export.profiles import PROFILES, ShopProfile, profile_named

FORMATS = ("png", "tts", "gallery")
"""What `pnp build --exports` writes; `pnp export` also writes csv (the collections as tables)."""

__all__ = [
    "FORMATS",
    "PROFILES",
    "ExportReport",
    "ShopProfile",
    "export_dir",
    "export_game",
    "export_up_to_date",
    "record_export",
]


def export_dir(game_dir: Path, fmt: str, profile: str | None = None) -> Path:
    """`<game_dir>/export/<format>/` (and `/<profile>` for png): game_dir is the kit's folder."""
    folder = game_dir / "export" / fmt
    return folder / profile if fmt == "png" and profile else folder


def export_up_to_date(snapshot_digest: str, folder: Path, options: object) -> list[str] | None:
    """The warnings of the last export into ``folder`` when it was made from exactly these
    bytes (the game's snapshot: content and templates), pnp and its libraries and
    ``options``, and its files are as it wrote them; None when it must be made again.
    Checked before the content is parsed, as a kit's no-op rebuild is: an unchanged export
    costs a few hashes."""
    from pnp.output import files_unchanged, input_digest, read_manifest

    record = read_manifest(folder)
    if record.get("inputs") != input_digest(snapshot_digest, options):
        return None
    warnings = record.get("warnings")
    if not isinstance(warnings, list) or not files_unchanged(folder, record):
        return None
    return [str(warning) for warning in warnings]


def record_export(report: ExportReport, snapshot_digest: str, options: object) -> None:
    """Record what an export wrote (see :func:`export_up_to_date`), when all of it lies in its
    folder; an export that writes elsewhere too (the gallery's index) is never skipped."""
    from pnp.output import MANIFEST, input_digest, sha256_of, write_manifest

    folder = report.out_dir
    if not all(path.is_relative_to(folder) for path in report.files):
        (folder / MANIFEST).unlink(missing_ok=True)
        return
    files = {path.relative_to(folder).as_posix(): sha256_of(path) for path in report.files}
    inputs = input_digest(snapshot_digest, options)
    write_manifest(
        folder,
        {"game": report.game, "files": files, "inputs": inputs, "warnings": report.warnings},
    )


def export_game(
    game: LoadedGame,
    fmt: str,
    game_dir: Path,
    templates_root: Path,
    *,
    profile: str = "default",
    base_url: str | None = None,
    products: Iterable[str] | None = None,
    before_writing: Callable[[], None] | None = None,
) -> ExportReport:
    """Export one game in one format into `game_dir/export/<format>/` (game_dir is the
    game's kit folder, output/<game>/ by default).

    PNGs go one folder deeper, by shop profile (`png/<profile>/`), so profiles coexist. The
    gallery also refreshes `index.html` beside the game folders, linking every gallery.
    ``before_writing`` (the static checks of content loaded for this export) runs before
    anything is written; the png export runs it while its images are being made.
    """
    with game.reading():
        return _export_game(
            game,
            fmt,
            game_dir,
            templates_root,
            profile=profile,
            base_url=base_url,
            products=products,
            before_writing=before_writing,
        )


def _export_game(
    game: LoadedGame,
    fmt: str,
    game_dir: Path,
    templates_root: Path,
    *,
    profile: str,
    base_url: str | None,
    products: Iterable[str] | None,
    before_writing: Callable[[], None] | None,
) -> ExportReport:
    if fmt == "png":
        from pnp.export.png import export_png

        shop = profile_named(profile)
        return export_png(
            game,
            export_dir(game_dir, fmt, shop.name),
            templates_root,
            shop,
            products=products,
            before_writing=before_writing,
        )
    if before_writing is not None:
        before_writing()
    if fmt == "tts":
        from pnp.export.tts import export_tts

        return export_tts(
            game,
            export_dir(game_dir, fmt),
            templates_root,
            base_url=base_url,
            products=products,
        )
    if fmt == "gallery":
        from pnp.export.gallery import export_gallery, write_index

        # The index of all games lives in the output root, the parent of output/<game>/;
        # a kit written elsewhere (--out DIR for one game) gets no index beside it.
        in_root = game_dir.name == game.slug
        report = export_gallery(
            game,
            export_dir(game_dir, fmt),
            templates_root,
            products=products,
            link_index=in_root,
        )
        if in_root:
            page = report.out_dir / "index.html"
            report.files.extend(
                write_index(game_dir.parent, [(game.slug, game.model.info.title, page)])
            )
        return report
    if fmt == "csv":
        from pnp.export.tables import export_csv

        return export_csv(game, export_dir(game_dir, fmt))
    raise ValueError(f"unknown export format {fmt!r} (expected one of {', '.join(FORMATS)})")
