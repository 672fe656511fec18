"""`pnp rulebook`: the reading edition and the print-ready booklet of a game."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pnp.content.loader import LoadedGame
from pnp.errors import PnpError
from pnp.kit import BuildOptions, BuiltFile, KitReport, build_kit
from pnp.output import remove_leftovers, remove_stale, sha256_of, write_manifest


@dataclass(frozen=True)
class RulebookFiles:
    reading: Path
    booklet: Path
    pages: int
    sheets: int


def build_rulebook(game: LoadedGame, out_dir: Path, templates_root: Path) -> RulebookFiles:
    from pnp.rulebook.impose import impose_booklet
    from pnp.rulebook.pdf import render_reading_edition

    if getattr(game.model, "rulebook", None) is None:
        raise PnpError(
            f"{game.display_folder}: game {game.slug!r} has no rulebook content "
            "(a 'rulebook:' key in its YAML)"
        )
    remove_leftovers(out_dir, f"{game.slug}-rulebook")
    reading = out_dir / f"{game.slug}-rulebook.pdf"
    booklet = out_dir / f"{game.slug}-rulebook-booklet.pdf"
    pages = render_reading_edition(game, reading, templates_root)
    sides = impose_booklet(reading, booklet)
    return RulebookFiles(reading, booklet, pages, sides // 2)


def build_game(
    game: LoadedGame, out_dir: Path, templates_root: Path, options: BuildOptions
) -> KitReport:
    """The whole kit of a game: its rulebook (if it has one) and every product, with a cover
    page that lists them all. What an earlier build left behind — temporary files of a killed
    build, products since renamed or dropped — is removed (see ``pnp.output``)."""
    remove_leftovers(out_dir, f"{game.slug}-")
    extras: list[BuiltFile] = []
    if getattr(game.model, "rulebook", None) is not None:
        book = build_rulebook(game, out_dir, templates_root)
        extras = [
            BuiltFile(
                book.reading,
                "rulebook",
                "规则书（阅读版）",
                book.pages,
                "A5 单面或双面打印，也可直接在屏幕上阅读。",
            ),
            BuiltFile(
                book.booklet,
                "rulebook-booklet",
                "规则书（骑马钉小册子）",
                book.sheets * 2,
                "A4 双面打印，选「短边翻转」；对折后在折线处装订。",
            ),
        ]
    report = build_kit(game, out_dir, templates_root, options, extras)
    written = [file.path.name for file in report.files]
    report.removed.extend(remove_stale(out_dir, written))
    write_manifest(
        out_dir,
        {
            "game": game.slug,
            "files": {name: sha256_of(out_dir / name) for name in sorted(written)},
        },
    )
    return report
