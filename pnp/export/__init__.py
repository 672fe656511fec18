"""Exports from the same content and renderers as the kit: per-card PNGs for print shops
(png), Tabletop Simulator sheets and a saved object (tts), and a browsable gallery with the
validator's findings (gallery). Each writes into output/<game>/export/<format>/."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from pnp.content.loader import LoadedGame
from pnp.export.png import ExportReport
from pnp.export.profiles import PROFILES, ShopProfile, profile_named

FORMATS = ("png", "tts", "gallery")

__all__ = ["FORMATS", "PROFILES", "ExportReport", "ShopProfile", "export_dir", "export_game"]


def export_dir(game_dir: Path, fmt: str, profile: str | None = None) -> Path:
    """`<game_dir>/export/<format>/` (and `/<profile>` for png): game_dir is the kit's folder."""
    folder = game_dir / "export" / fmt
    return folder / profile if fmt == "png" and profile else folder


def export_game(
    game: LoadedGame,
    fmt: str,
    game_dir: Path,
    templates_root: Path,
    *,
    profile: str = "default",
    base_url: str | None = None,
    products: Iterable[str] | None = None,
) -> ExportReport:
    """Export one game in one format into `game_dir/export/<format>/` (game_dir is the
    game's kit folder, output/<game>/ by default).

    PNGs go one folder deeper, by shop profile (`png/<profile>/`), so profiles coexist. The
    gallery also refreshes `index.html` beside the game folders, linking every gallery.
    """
    if fmt == "png":
        from pnp.export.png import export_png

        shop = profile_named(profile)
        return export_png(
            game,
            export_dir(game_dir, fmt, shop.name),
            templates_root,
            shop,
            products=products,
        )
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
            report.files.append(
                write_index(game_dir.parent, [(game.slug, game.model.info.title, page)])
            )
        return report
    raise ValueError(f"unknown export format {fmt!r} (expected one of {', '.join(FORMATS)})")
