"""A game's kit: every product of its content laid out and rendered into output/<game>/."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pnp.content.loader import LoadedGame
from pnp.content.prose import render_prose
from pnp.errors import ContentError, Problem
from pnp.layout.products import layout_product, text_of
from pnp.layout.sheets import Flip, plan_card_grid, plan_sheet
from pnp.layout.sizes import item_size
from pnp.model.common import Product, ProductKind
from pnp.units import PAPER_SIZES_MM, mm


@dataclass(frozen=True)
class BuildOptions:
    paper: str = "a4"
    bleed_mm: float = 3.0
    crop_marks: bool = True
    duplex: bool = True
    flip: Flip = Flip.LONG_EDGE
    back_offset_mm: tuple[float, float] = (0.0, 0.0)


@dataclass(frozen=True)
class BuiltFile:
    path: Path
    product: str
    title: str
    pages: int
    note: str


@dataclass
class KitReport:
    game: str
    files: list[BuiltFile] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    """Files an earlier build wrote that this one no longer makes, removed."""


def paper_size(name: str) -> tuple[float, float]:
    w, h = PAPER_SIZES_MM[name]
    return mm(w), mm(h)


def build_kit(
    game: LoadedGame,
    out_dir: Path,
    templates_root: Path,
    options: BuildOptions,
    extra_files: Sequence[BuiltFile] = (),
) -> KitReport:
    """Lay out and render every product of the game into `out_dir`."""
    # Imported here so `pnp list` and `pnp validate` never pay for reportlab and fonts.
    from pnp.render.cards import CardRun, CardSheetOptions, render_card_sheets
    from pnp.render.cover import CoverEntry, render_cover
    from pnp.render.draw import DrawReport
    from pnp.render.fonts import prepare_cjk_fonts
    from pnp.render.sheets import render_sheets

    bleed = mm(options.bleed_mm)
    products: Sequence[Product] = game.model.products
    laid_out = [layout_product(game, product, templates_root, bleed) for product in products]
    fonts = prepare_cjk_fonts(text_of(laid_out) + game.model.info.title)
    report = KitReport(game=game.slug)
    draw_report = DrawReport()
    page_w, page_h = paper_size(options.paper)
    sheet_options = CardSheetOptions(
        crop_marks=options.crop_marks,
        duplex=options.duplex,
        flip=options.flip,
        back_offset_x=mm(options.back_offset_mm[0]),
        back_offset_y=mm(options.back_offset_mm[1]),
    )
    for item in laid_out:
        product = item.product
        path = out_dir / f"{game.slug}-{product.id}.pdf"
        title = f"{game.model.info.title} · {product.title}"
        if product.kind is ProductKind.CARDS:
            width, height = item_size(product)
            # Landscape cards sit turned a quarter in a portrait slot: more fit that way.
            slot_w, slot_h = (height, width) if width > height else (width, height)
            try:
                grid = plan_card_grid(
                    slot_w, slot_h, bleed=bleed, page_width=page_w, page_height=page_h
                )
            except ValueError as error:
                raise ContentError(
                    [Problem(product.where, f"product {product.id!r}: {error}", game=game.slug)]
                ) from error
            pages = render_card_sheets(
                path,
                [CardRun(front, back, copies) for front, back, copies in item.runs],
                grid,
                title=title,
                fonts=fonts,
                options=sheet_options,
                report=draw_report,
                content_root=game.folder,
            )
        else:
            width, height = item_size(product)
            size = (
                (max(page_w, page_h), min(page_w, page_h)) if width > height else (page_w, page_h)
            )
            pages = render_sheets(
                path,
                [
                    (front, copies, plan_sheet(front.width, front.height, size))
                    for front, _, copies in item.runs
                ],
                page_size=size,
                title=title,
                fonts=fonts,
                report=draw_report,
                content_root=game.folder,
            )
        note = render_prose(product.note, {"game": game.model}, product.where)
        report.files.append(BuiltFile(path, product.id, product.title, pages, note))
    report.files.extend(extra_files)  # built elsewhere (the rulebook), listed on the cover
    cover = out_dir / f"{game.slug}-00-read-me-first.pdf"
    entries = [CoverEntry(f.path.name, f.title, f.pages, f.note) for f in report.files]
    render_cover(
        cover,
        game.model,
        entries,
        paper=(page_w, page_h),
        paper_name=options.paper,
        bleed_mm=options.bleed_mm,
        fonts=fonts,
    )
    report.files.insert(0, BuiltFile(cover, "read-me-first", "打印说明", 1, ""))
    report.warnings.extend(sorted(draw_report.overflows))
    for origin, chars in sorted(draw_report.missing_glyphs.items()):
        report.warnings.append(f"{origin}: no glyph for {''.join(sorted(chars))!r}")
    return report
