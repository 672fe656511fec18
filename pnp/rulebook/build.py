"""`pnp rulebook`: the reading edition and the print-ready booklet of a game."""

from __future__ import annotations

import difflib
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pnp.content.loader import LoadedGame
from pnp.errors import PnpError
from pnp.kit import BuiltFile, KitReport, add_cover, build_kit, paper_size
from pnp.layout.products import LaidOutProduct
from pnp.options import BuildOptions
from pnp.output import (
    input_digest,
    read_manifest,
    remove_leftovers,
    remove_stale,
    sha256_of,
    write_manifest,
)
from pnp.units import mm

if TYPE_CHECKING:
    from pnp.render.cover import CoverEntry


@dataclass(frozen=True)
class RulebookFiles:
    reading: Path
    booklet: Path
    pages: int
    sheets: int
    problems: tuple[str, ...] = ()
    """What the typesetting checks found in the reading edition (pnp.render.typeset)."""


def build_rulebook(
    game: LoadedGame,
    out_dir: Path,
    templates_root: Path,
    paper: str = "a4",
    printer_margin_mm: float = 5.0,
) -> RulebookFiles:
    from pnp.rulebook.impose import impose_booklet
    from pnp.rulebook.pdf import render_reading_edition

    if getattr(game.model, "rulebook", None) is None:
        raise PnpError(
            f"{game.display_folder}: game {game.slug!r} has no rulebook content "
            "(a 'rulebook:' key in its YAML)"
        )
    remove_leftovers(out_dir, f"{game.slug}-rulebook")
    reading = out_dir / reading_name(game.slug)
    booklet = out_dir / booklet_name(game.slug)
    from pnp.render.typeset import SetBlock, typeset_problems

    typeset: list[SetBlock] = []
    with game.reading():
        pages = render_reading_edition(game, reading, templates_root, typeset)
    from pnp.kit import paper_size

    sides = impose_booklet(reading, booklet, paper_size(paper), mm(printer_margin_mm))
    problems = tuple(typeset_problems(reading.name, typeset))
    return RulebookFiles(reading, booklet, pages, sides // 2, problems)


def booklet_note(paper: str) -> str:
    """How to print the booklet on the kit's paper, the scale said where pages shrink."""
    # Not from pnp.rulebook.impose: its pypdf is a third of a second to import.
    from pnp.layout.sheets import booklet_scale
    from pnp.units import PAPER_SIZES_MM

    label = "Letter" if paper == "letter" else paper.upper()
    scale = booklet_scale(
        (mm(PAPER_SIZES_MM["a5"][0]), mm(PAPER_SIZES_MM["a5"][1])), paper_size(paper)
    )
    shrink = f"（每页按 {scale:.0%} 缩小排在 {label} 纸上）" if scale < 1 else ""
    return f"{label} 双面打印，选「短边翻转」{shrink}；对折后在折线处装订。"


def reading_name(slug: str) -> str:
    return f"{slug}-rulebook.pdf"


def booklet_name(slug: str) -> str:
    return f"{slug}-rulebook-booklet.pdf"


def readme_entries(
    game: LoadedGame, laid_out: Sequence[LaidOutProduct], options: BuildOptions
) -> list[CoverEntry]:
    """The files a full build with `options` lists on its read-me, in that order, found
    without drawing any (for validate's typesetting checks). Their page counts are 0: a
    count is a short number in a column of its own, which breaks no line and moves no page
    break."""
    from pnp.kit import (
        CALIBRATION_NOTE,
        CALIBRATION_TITLE,
        calibration_name,
        group_file_name,
        group_note,
        plan_product_files,
        token_groups,
    )
    from pnp.render.cover import CoverEntry

    shared = token_groups(
        laid_out,
        duplex=options.duplex,
        bleed=mm(options.bleed_mm),
        page=paper_size(options.paper),
        margin=mm(options.printer_margin_mm),
    )
    entries = [CoverEntry(calibration_name(game.slug), CALIBRATION_TITLE, 0, CALIBRATION_NOTE)]
    entries += [
        CoverEntry(planned.name, planned.item.product.title, 0, planned.note)
        for planned in plan_product_files(game, laid_out, options, shared)
    ]
    entries += [
        CoverEntry(
            group_file_name(game.slug, group), group.title, 0, group_note(game, group, options)
        )
        for group in shared
    ]
    if getattr(game.model, "rulebook", None) is not None:
        entries += [
            CoverEntry(reading_name(game.slug), READING_TITLE, 0, READING_NOTE),
            CoverEntry(booklet_name(game.slug), BOOKLET_TITLE, 0, booklet_note(options.paper)),
        ]
    return entries


READING_TITLE = "规则书（阅读版）"
READING_NOTE = "A5 单面或双面打印，也可直接在屏幕上阅读。"
BOOKLET_TITLE = "规则书（骑马钉小册子）"

RULEBOOK = "rulebook"
"""The name ``only`` takes for the two rulebook editions."""


def build_game(
    game: LoadedGame,
    out_dir: Path,
    templates_root: Path,
    options: BuildOptions,
    *,
    only: Collection[str] | None = None,
) -> KitReport:
    """The whole kit of a game: every product, its rulebook (if it has one) and a cover page
    that lists them all. What an earlier build left behind — temporary files of a killed
    build, products since renamed or dropped — is removed (see ``pnp.output``).

    Products whose drawing did not change since the last build into `out_dir` are kept as
    they are. `only` names the products to build (``rulebook`` for both rulebook editions);
    the rest of the folder, cover included, is left as it is."""
    known = [p.id for p in game.model.products]
    has_rulebook = getattr(game.model, "rulebook", None) is not None
    if only is not None:
        choices = known + ([RULEBOOK] if has_rulebook else [])
        for name in only:
            if name not in choices:
                near = difflib.get_close_matches(name, choices, n=1)
                hint = f" (did you mean {near[0]!r}?)" if near else ""
                raise PnpError(
                    f"--only: game {game.slug!r} has no product {name!r}{hint}; "
                    f"products: {', '.join(choices)}"
                )
    remove_leftovers(out_dir, f"{game.slug}-")
    previous = read_manifest(out_dir)
    with game.reading():
        report = build_kit(
            game, out_dir, templates_root, options, only=only, previous=previous, cover=False
        )
    extras: list[BuiltFile] = []
    if has_rulebook and (only is None or RULEBOOK in only):
        book = build_rulebook(
            game, out_dir, templates_root, options.paper, options.printer_margin_mm
        )
        extras = [
            BuiltFile(book.reading, "rulebook", READING_TITLE, book.pages, READING_NOTE),
            BuiltFile(
                book.booklet,
                "rulebook-booklet",
                BOOKLET_TITLE,
                book.sheets * 2,
                booklet_note(options.paper),
            ),
        ]
        report.rendered.extend(file.path.name for file in extras)
        report.warnings.extend(book.problems)
    if only is not None:
        report.files.extend(extras)
        _record(out_dir, game, previous, report, inputs=None)
        return report
    with game.reading():
        add_cover(game, out_dir, options, report, extras)
    _designer_report(game, out_dir, options, report)
    written = [file.path.name for file in report.files]
    report.removed.extend(remove_stale(out_dir, written))
    _record(
        out_dir,
        game,
        previous,
        report,
        inputs=input_digest(game.digest, options),
        replace=True,
    )
    return report


def _designer_report(
    game: LoadedGame, out_dir: Path, options: BuildOptions, report: KitReport
) -> None:
    """What the player edition drops, for the designer: into the kit folder's report/ (pnp's
    own folder there, beside simulate's reports), not among the files a player prints."""
    from pnp.kit import paper_size
    from pnp.output import GENERATED_FOLDERS
    from pnp.render.designer import render_designer_report

    folder = out_dir / GENERATED_FOLDERS[2]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "designer.pdf"
    with game.reading():
        render_designer_report(
            path, game.model, paper=paper_size(options.paper), fonts=report.fonts
        )
    report.rendered.append(f"{folder.name}/{path.name}")


def _record(
    out_dir: Path,
    game: LoadedGame,
    previous: dict[str, object],
    report: KitReport,
    *,
    inputs: str | None,
    replace: bool = False,
) -> None:
    """Write the build's record: every file with its digest, each product's drawing digest
    and pages, and the inputs' digest of a full build (a partial one clears it, since the
    folder no longer holds one build of one set of inputs)."""
    old_files = previous.get("files") if not replace else None
    old_products = previous.get("products") if not replace else None
    files: dict[str, object] = dict(old_files) if isinstance(old_files, dict) else {}
    products: dict[str, object] = dict(old_products) if isinstance(old_products, dict) else {}
    for built in report.files:
        files[built.path.name] = sha256_of(built.path)
    for name, digest in report.digests.items():
        pages = next(f.pages for f in report.files if f.path.name == name)
        products[name] = {"digest": digest, "pages": pages}
    record: dict[str, object] = {"game": game.slug, "files": files, "products": products}
    if inputs is not None:
        record["inputs"] = inputs
    write_manifest(out_dir, record)
