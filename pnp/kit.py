"""A game's kit: every product of its content laid out and rendered into output/<game>/."""

from __future__ import annotations

import hashlib
import re
import shutil
import tempfile
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnp.content.loader import LoadedGame
from pnp.content.prose import render_prose
from pnp.errors import ContentError, Problem
from pnp.layout.products import LaidOutProduct, layout_product, text_of
from pnp.layout.sheets import (
    PRINTER_MARGIN,
    CardGrid,
    Shelf,
    card_slot,
    plan_card_grid,
    plan_shared_sheets,
    plan_sheet,
    scale_note,
)
from pnp.layout.sizes import item_size
from pnp.model.common import Product, ProductKind
from pnp.model.kit import Token
from pnp.options import BuildOptions
from pnp.output import atomic_output, code_fingerprint, sha256_of
from pnp.units import PAPER_SIZES_MM, mm


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
    rendered: list[str] = field(default_factory=list)
    """Names of the files this build wrote."""
    unchanged: list[str] = field(default_factory=list)
    """Names of the files the last build wrote that hold what this one would write."""
    digests: dict[str, str] = field(default_factory=dict)
    """Each product file's digest (``product_digest``), for the next build's record."""
    fonts: Any = None
    """The FontSet the kit was drawn with."""
    up_to_date: bool = False
    """Nothing was rebuilt: the inputs hash as the last build's did."""


def paper_size(name: str) -> tuple[float, float]:
    w, h = PAPER_SIZES_MM[name]
    return mm(w), mm(h)


def product_digest(
    product: Product, laid_out: LaidOutProduct, options: BuildOptions, fonts: Any
) -> str:
    """The digest of what a product's PDF will hold: its faces as laid out, the options, the
    fonts and pnp's code. Equal digests give byte-identical files."""
    digest = hashlib.sha256()
    for part in (
        code_fingerprint(),
        repr(options),
        repr((fonts.regular, fonts.bold, fonts.identity)),
        repr(product),
        repr(laid_out.runs),
    ):
        digest.update(part.encode("utf-8"))
        digest.update(b"\0")
    return digest.hexdigest()


def build_kit(
    game: LoadedGame,
    out_dir: Path,
    templates_root: Path,
    options: BuildOptions,
    extra_files: Sequence[BuiltFile] = (),
    *,
    only: Collection[str] | None = None,
    previous: Mapping[str, object] | None = None,
    cover: bool = True,
) -> KitReport:
    """Lay out and render the products of the game into `out_dir` (those named in `only`, or
    all), then the read-me-first page listing them and `extra_files` (unless `cover` is off).

    `previous` is the last build's record (``pnp.output.read_manifest``): a product whose
    digest it holds, with its file unchanged since, is not rendered again."""
    # Imported here so `pnp list` and `pnp validate` never pay for reportlab and fonts.
    from pnp.render.cards import (
        CardRun,
        CardSheetOptions,
        SharedProduct,
        render_card_sheets,
        render_shared_sheets,
    )
    from pnp.render.draw import DrawReport
    from pnp.render.fonts import prepare_cjk_fonts
    from pnp.render.sheets import render_sheets

    bleed = mm(options.bleed_mm)
    products: Sequence[Product] = game.model.products
    # Every product is laid out even for `only`: the font subset is drawn from all of them,
    # so a partial build writes the same bytes as a full one.
    laid_out = [layout_product(game, product, templates_root, bleed) for product in products]
    fonts = prepare_cjk_fonts(text_of(laid_out) + game.model.info.title)
    report = KitReport(game=game.slug, fonts=fonts)
    draw_report = DrawReport()
    page_w, page_h = paper_size(options.paper)
    margin = mm(options.printer_margin_mm)
    sheet_options = CardSheetOptions(
        crop_marks=options.crop_marks,
        duplex=options.duplex,
        flip=options.flip,
        back_offset_x=mm(options.back_offset_mm[0]),
        back_offset_y=mm(options.back_offset_mm[1]),
    )
    recorded = _recorded_products(out_dir, previous or {})
    shared = token_groups(
        laid_out, duplex=options.duplex, bleed=bleed, page=(page_w, page_h), margin=margin
    )
    for plan in plan_product_files(game, laid_out, options, shared):
        item, product, note, grid = plan.item, plan.item.product, plan.note, plan.grid
        if only is not None and product.id not in only:
            continue
        path = out_dir / plan.name
        title = f"{game.model.info.title} · {product.title}"
        digest = product_digest(product, item, options, fonts)
        report.digests[path.name] = digest
        kept = recorded.get(path.name)
        if kept is not None and kept[0] == digest:
            report.files.append(BuiltFile(path, product.id, product.title, kept[1], note))
            report.unchanged.append(path.name)
            continue
        if grid is not None:
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
            size = _sheet_paper(width, height, page_w, page_h)
            plans = [
                (
                    front,
                    copies,
                    plan_sheet(
                        front.width, front.height, size, scalable=_aid(product), margin=margin
                    ),
                )
                for front, _, copies in item.runs
            ]
            pages = render_sheets(
                path,
                plans,
                page_size=size,
                title=title,
                fonts=fonts,
                report=draw_report,
                content_root=game.folder,
            )
        report.files.append(BuiltFile(path, product.id, product.title, pages, note))
        report.rendered.append(path.name)
    for group in shared:
        if only is not None and not any(m.product.id in only for m in group.members):
            continue
        path = out_dir / group_file_name(game.slug, group)
        title = f"{game.model.info.title} · {group.title}"
        note = group_note(game, group, options)
        digest = hashlib.sha256(
            "\0".join(
                [repr(group.pages)]
                + [product_digest(m.product, m, options, fonts) for m in group.members]
            ).encode("utf-8")
        ).hexdigest()
        report.digests[path.name] = digest
        kept = recorded.get(path.name)
        if kept is not None and kept[0] == digest:
            report.files.append(BuiltFile(path, group.id, group.title, kept[1], note))
            report.unchanged.append(path.name)
            continue
        pages = render_shared_sheets(
            path,
            [
                SharedProduct(
                    m.product.title,
                    [CardRun(front, back, copies) for front, back, copies in m.runs],
                )
                for m in group.members
            ],
            group.pages,
            title=title,
            fonts=fonts,
            options=sheet_options,
            report=draw_report,
            content_root=game.folder,
        )
        report.files.append(BuiltFile(path, group.id, group.title, pages, note))
        report.rendered.append(path.name)
    report.warnings.extend(sorted(draw_report.overflows))
    for origin, chars in sorted(draw_report.missing_glyphs.items()):
        report.warnings.append(f"{origin}: no glyph for {''.join(sorted(chars))!r}")
    if cover:
        add_cover(game, out_dir, options, report, extra_files)
    return report


@dataclass(frozen=True)
class ProductFile:
    """A product's own file as the build will write it, before anything is drawn: its name,
    what the read-me says about it, and the card grid it is imposed on (None for a sheet)."""

    item: LaidOutProduct
    name: str
    note: str
    grid: CardGrid | None


def plan_product_files(
    game: LoadedGame,
    laid_out: Sequence[LaidOutProduct],
    options: BuildOptions,
    shared: Sequence[TokenGroup],
) -> list[ProductFile]:
    """The files of the products that keep their own (those not packed in `shared`), in the
    order the read-me lists them; a card too large for the paper is a ContentError."""
    page_w, page_h = paper_size(options.paper)
    margin, bleed = mm(options.printer_margin_mm), mm(options.bleed_mm)
    packed = {member.product.id for group in shared for member in group.members}
    files: list[ProductFile] = []
    for item in laid_out:
        product = item.product
        if product.id in packed:
            continue
        note = render_prose(product.note, {"game": game.model}, product.where)
        grid = None
        width, height = item_size(product)
        if product.kind is ProductKind.CARDS:
            slot_w, slot_h = card_slot(width, height)
            try:
                grid = plan_card_grid(
                    slot_w,
                    slot_h,
                    bleed=bleed,
                    page_width=page_w,
                    page_height=page_h,
                    margin=margin,
                )
            except ValueError as error:
                raise ContentError(
                    [Problem(product.where, f"product {product.id!r}: {error}", game=game.slug)]
                ) from error
            note = " ".join(part for part in (note, _edges_note(grid, options)) if part)
        else:
            probe = plan_sheet(
                width,
                height,
                _sheet_paper(width, height, page_w, page_h),
                scalable=_aid(product),
                margin=margin,
            )
            if probe.scale < 1:
                note = " ".join(part for part in (note, f"（{scale_note(probe.scale)}）") if part)
        files.append(ProductFile(item, f"{game.slug}-{product.id}.pdf", note, grid))
    return files


def group_note(game: LoadedGame, group: TokenGroup, options: BuildOptions) -> str:
    """What the read-me says about a shared token sheet."""
    note = _shared_note(
        [
            (
                member.product.title,
                render_prose(member.product.note, {"game": game.model}, member.product.where),
            )
            for member in group.members
        ]
    )
    edges = dict.fromkeys(
        _edges_note(shelf.grid, options) for page in group.pages for shelf in page
    )
    return " ".join([note, *edges])


def group_file_name(slug: str, group: TokenGroup) -> str:
    return f"{slug}-{group.id}.pdf"


CALIBRATION_TITLE = "双面校准页"
CALIBRATION_NOTE = "打印卡牌之前先用同样的设置双面打印这一张，对着光读出背面偏差。"


def calibration_name(slug: str) -> str:
    return f"{slug}-01-duplex-calibration.pdf"


def add_cover(
    game: LoadedGame,
    out_dir: Path,
    options: BuildOptions,
    report: KitReport,
    extra_files: Sequence[BuiltFile] = (),
) -> None:
    """Render the duplex calibration sheet and the read-me-first page listing the report's
    files and `extra_files` (built elsewhere: the rulebook), and put the two first."""
    from pnp.layout.sheets import Flip
    from pnp.render.calibration import render_calibration
    from pnp.render.cover import CoverEntry, render_cover

    calibration = out_dir / calibration_name(game.slug)
    with tempfile.TemporaryDirectory() as scratch:
        drawn = Path(scratch) / calibration.name
        calibration_pages = render_calibration(
            drawn,
            page_size=paper_size(options.paper),
            fonts=report.fonts,
            title=f"{game.model.info.title} · 双面校准页",
            margin=mm(options.printer_margin_mm),
            flip_long=options.flip is Flip.LONG_EDGE,
        )
        # The same options draw the same page: a file that holds it already is kept as it is.
        kept = calibration.is_file() and calibration.read_bytes() == drawn.read_bytes()
        if not kept:
            with atomic_output(calibration) as temporary:
                shutil.copyfile(drawn, temporary)
    report.files.insert(
        0,
        BuiltFile(
            calibration,
            "duplex-calibration",
            CALIBRATION_TITLE,
            calibration_pages,
            CALIBRATION_NOTE,
        ),
    )
    (report.unchanged if kept else report.rendered).insert(0, calibration.name)
    report.files.extend(extra_files)
    path = out_dir / f"{game.slug}-00-read-me-first.pdf"
    entries = [CoverEntry(f.path.name, f.title, f.pages, f.note) for f in report.files]
    problems = render_cover(
        path,
        game.model,
        entries,
        paper=paper_size(options.paper),
        paper_name=options.paper,
        bleed_mm=options.bleed_mm,
        fonts=report.fonts,
        calibration=calibration.name,
        flip_long=options.flip is Flip.LONG_EDGE,
    )
    report.warnings.extend(problems)
    report.files.insert(0, BuiltFile(path, "read-me-first", "打印说明", 1, ""))
    report.rendered.insert(0, path.name)


TOKEN_SIDE = mm(30)
"""A card product whose pieces are no larger than this on either side is punched out of a
token sheet, like a product of Token items: tokens of one kit share their sheets."""


@dataclass(frozen=True)
class TokenGroup:
    """Token products of one print mode packed onto shared sheets, written as one file."""

    id: str
    title: str
    members: tuple[LaidOutProduct, ...]
    pages: tuple[tuple[Shelf, ...], ...]


def token_groups(
    laid_out: Sequence[LaidOutProduct],
    *,
    duplex: bool,
    bleed: float,
    page: tuple[float, float],
    margin: float = PRINTER_MARGIN,
) -> list[TokenGroup]:
    """The kit's token, marker and pawn products that share sheets: the two-sided ones on
    shared duplex sheets, the one-sided ones on shared one-sided sheets (a one-sided piece on
    a duplex sheet would waste its back, and the reverse would print no back at all). A
    print mode with one such product keeps that product's own file."""
    by_mode: dict[bool, list[LaidOutProduct]] = {True: [], False: []}
    for item in laid_out:
        product = item.product
        if product.kind is not ProductKind.CARDS or not _token_like(item):
            continue
        by_mode[duplex and bool(product.back)].append(item)
    modes = [(two_sided, members) for two_sided, members in by_mode.items() if len(members) > 1]
    names = {item.product.id for item in laid_out}
    groups: list[TokenGroup] = []
    for two_sided, members in modes:
        group_id = "tokens" if len(modes) == 1 or two_sided else "tokens-single-sided"
        title = "指示物" if len(modes) == 1 or two_sided else "单面指示物"
        if group_id in names:  # a product of that name keeps its file: nothing is packed
            continue
        slots = []
        for member in members:
            width, height = item_size(member.product)
            slot_w, slot_h = card_slot(width, height)
            slots.append((slot_w, slot_h, sum(copies for _, _, copies in member.runs)))
        try:
            pages = plan_shared_sheets(
                slots, bleed=bleed, page_width=page[0], page_height=page[1], margin=margin
            )
        except ValueError:  # a piece too large for the paper: its own file says so
            continue
        if not pages:  # nothing to print (every count zero): each product's file says so
            continue
        groups.append(TokenGroup(group_id, title, tuple(members), tuple(pages)))
    return groups


_PRINT_MODE = re.compile(r"^((?:双面|单面)打印(?:（[^）]*）)?)[，。；]\s*")


def _shared_note(notes: Sequence[tuple[str, str]]) -> str:
    """The read-me's note on a shared sheet: each product's note under its title, the way to
    print them said once when they all say it alike."""
    modes = {match[1] if (match := _PRINT_MODE.match(text)) else "" for _, text in notes}
    if len(modes) == 1 and "" not in modes:
        parts = [f"{modes.pop()}。"]
        for title, text in notes:
            rest = _PRINT_MODE.sub("", text, count=1)
            if rest:
                parts.append(f"{title}：{rest}")
        return " ".join(parts)
    return " ".join(f"{title}：{text}" for title, text in notes if text)


def _token_like(item: LaidOutProduct) -> bool:
    width, height = item_size(item.product)
    if max(width, height) <= TOKEN_SIDE + 1e-6:
        return True
    return bool(item.items) and all(isinstance(piece, Token) for piece in item.items)


def _sheet_paper(width: float, height: float, page_w: float, page_h: float) -> tuple[float, float]:
    """The paper a sheet starts on: turned landscape for a landscape sheet."""
    return (max(page_w, page_h), min(page_w, page_h)) if width > height else (page_w, page_h)


def _aid(product: Product) -> bool:
    """A sheet nothing is placed on (no slots, no tracks): its size is no rule, so it may
    shrink to fit one page."""
    return not product.slots and not product.tracks


def _edges_note(grid: Any, options: BuildOptions) -> str:
    """Which finish the read-me promises this card file: white borders or bleed."""
    if grid.neutral_border:
        return f"牌与牌紧挨着：每张牌四周留 {grid.neutral_border / mm(1):g} 毫米白边。"
    return f"牌间留空：每张牌四周 {options.bleed_mm:g} 毫米出血。"


def _recorded_products(out_dir: Path, record: Mapping[str, object]) -> dict[str, tuple[str, int]]:
    """file name -> (digest, pages) of the products the last build wrote whose files still
    hold the bytes it wrote."""
    products, files = record.get("products"), record.get("files")
    if not isinstance(products, dict) or not isinstance(files, dict):
        return {}
    found: dict[str, tuple[str, int]] = {}
    for name, entry in products.items():
        if not isinstance(entry, dict) or "/" in str(name):
            continue
        digest, pages, sha = entry.get("digest"), entry.get("pages"), files.get(name)
        path = out_dir / str(name)
        if (
            isinstance(digest, str)
            and isinstance(pages, int)
            and isinstance(sha, str)
            and path.is_file()
            and sha256_of(path) == sha
        ):
            found[str(name)] = (digest, pages)
    return found
