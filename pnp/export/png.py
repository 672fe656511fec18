"""Per-card PNGs for print-on-demand shops, zipped per deck.

One image per distinct front and its back, at the profile's resolution with its bleed,
named so a shop's bulk upload keeps pairs together (`001-front.png` / `001-back.png`),
with a manifest mapping numbers to card ids and copies.
"""

from __future__ import annotations

import contextlib
import csv
import io
import os
import zipfile
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnp.content.loader import LoadedGame
from pnp.export.faces import (
    SRGB_NOTE,
    ExportItem,
    ExportProduct,
    collect,
    face_key,
)
from pnp.export.files import ZIP_EPOCH, json_text, write_json
from pnp.export.profiles import ShopProfile, UnsupportedSizeError
from pnp.layout.primitives import Face
from pnp.model.common import ProductKind
from pnp.output import atomic_output
from pnp.units import to_mm

_WORKERS = max(1, min(4, os.cpu_count() or 1))
"""Threads encoding PNGs (zlib releases the GIL, so they run on separate cores)."""


@dataclass
class ExportReport:
    game: str
    out_dir: Path
    files: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class CardPair:
    """A distinct (front, back) pair of a deck, numbered in content order."""

    number: int
    front: Face
    back: Face | None
    items: tuple[ExportItem, ...]

    @property
    def stem(self) -> str:
        return f"{self.number:03d}"

    @property
    def quantity(self) -> int:
        return sum(item.copies for item in self.items)


def pair_cards(product: ExportProduct) -> list[CardPair]:
    """Items whose front and back are drawn identically share one pair (and one number)."""
    groups: dict[tuple[object, ...], list[ExportItem]] = {}
    for item in product.items:
        key = (face_key(item.front), face_key(item.back) if item.back else None)
        groups.setdefault(key, []).append(item)
    return [
        CardPair(number, items[0].front, items[0].back, tuple(items))
        for number, items in enumerate(groups.values(), start=1)
    ]


@dataclass
class _DeckPlan:
    """One deck's zip before any image is made: its manifest, its texts, which face each
    image name shows, and its distinct faces in the order the zip needs them."""

    path: Path
    deck: dict[str, Any]
    texts: dict[str, bytes]
    images: dict[str, tuple[object, ...]]  # image name -> the face it shows
    faces: list[Face]  # distinct: fronts first, then backs, as pairs come
    order: list[int]  # the faces in the order the zip first names them
    size: tuple[int, int]


def export_png(
    game: LoadedGame,
    out_dir: Path,
    templates_root: Path,
    profile: ShopProfile,
    *,
    products: Iterable[str] | None = None,
    before_writing: Callable[[], None] | None = None,
) -> ExportReport:
    """Write `<game>-<product>.zip` per card product and `manifest.json` into `out_dir`.

    ``before_writing`` runs once the images are being made and before any file is written:
    the static checks of content loaded for this export run there, beside the workers, and
    an error they raise stops the export with nothing written."""
    # Boards and aids print as PDFs at true size; shops take cards here, so only the card
    # products are laid out (in MineVenture, the boards were half of the layout's time).
    wanted = set(products) if products is not None else None
    cards = [
        product.id
        for product in game.model.products
        if product.kind is ProductKind.CARDS and (wanted is None or product.id in wanted)
    ]
    laid_out, rasteriser = collect(game, templates_root, bleed_mm=profile.bleed_mm, products=cards)
    report = ExportReport(game.slug, out_dir)
    plans: list[_DeckPlan] = []
    for product in laid_out:
        try:
            plans.append(_plan_deck(game, product, profile, out_dir))
        except UnsupportedSizeError as error:
            report.warnings.append(f"{product.product.id}: not exported: {error}")
    # Every deck's images are made in one stream (one set of workers), each distinct image
    # once, in the order the zips need them.
    made = rasteriser.pngs([(plan.faces, plan.size, plan.order) for plan in plans], profile.dpi)
    try:
        if before_writing is not None:
            before_writing()
        for plan in plans:
            _write_deck(plan, made)
            report.files.append(plan.path)
    finally:
        made.close()
    manifest = out_dir / "manifest.json"
    write_json(manifest, {**_header(game, profile), "decks": [plan.deck for plan in plans]})
    report.files.append(manifest)
    report.warnings.extend(sorted(rasteriser.warnings))
    return report


def _plan_deck(
    game: LoadedGame, product: ExportProduct, profile: ShopProfile, out_dir: Path
) -> _DeckPlan:
    size = profile.image_size(to_mm(product.width), to_mm(product.height))
    pairs = pair_cards(product)
    images: dict[str, tuple[object, ...]] = {}
    cards: list[dict[str, Any]] = []
    for pair in pairs:
        front_name = f"{pair.stem}-front.png"
        images[front_name] = face_key(pair.front)
        back_name = ""
        if pair.back is not None:
            back_name = f"{pair.stem}-back.png"
            images[back_name] = face_key(pair.back)
        for item in pair.items:
            cards.append(
                {
                    "number": pair.stem,
                    "id": item.id,
                    "name": item.name,
                    "copies": item.copies,
                    "front": front_name,
                    "back": back_name,
                }
            )
    deck = {
        "product": product.product.id,
        "title": product.product.title,
        "zip": f"{game.slug}-{product.product.id}.zip",
        "trim_mm": [round(to_mm(product.width), 3), round(to_mm(product.height), 3)],
        "bleed_mm": round(profile.bleed_mm, 3),
        "pixels": [size.width_px, size.height_px],
        "shop_product": str(size.product) if size.product else None,
        "images": len(images),
        "cards_total": sum(card["copies"] for card in cards),
        "shared_back": len({face_key(p.back) for p in pairs if p.back}) == 1 and len(pairs) > 1,
        "cards": cards,
    }
    texts = {
        "manifest.csv": _manifest_csv(pairs).encode("utf-8"),
        "manifest.json": json_text({**_header(game, profile), **deck}).encode("utf-8"),
    }
    faces: list[Face] = []
    page_of: dict[tuple[object, ...], int] = {}
    for face in [pair.front for pair in pairs] + [pair.back for pair in pairs if pair.back]:
        page_of.setdefault(face_key(face), len(faces))
        if len(faces) < len(page_of):
            faces.append(face)
    return _DeckPlan(
        path=out_dir / str(deck["zip"]),
        deck=deck,
        texts=texts,
        images=images,
        faces=faces,
        order=list(dict.fromkeys(page_of[images[name]] for name in sorted(images))),
        size=(size.width_px, size.height_px),
    )


def _write_deck(plan: _DeckPlan, made: Iterator[bytes]) -> None:
    """Write the deck's zip, taking its images from ``made`` as the zip first names them:
    each is written and let go, so memory stays flat however many cards a deck has; only an
    image more names show (a back shared by many cards) is kept, encoded, until its last
    use."""
    uses = Counter(plan.images.values())
    kept: dict[tuple[object, ...], bytes] = {}
    with zip_writer(plan.path) as add:
        for name in sorted([*plan.images, *plan.texts]):
            if name in plan.texts:
                add(name, plan.texts[name])
                continue
            key = plan.images[name]
            data = kept.pop(key, None)
            if data is None:
                data = next(made)
            uses[key] -= 1
            if uses[key]:
                kept[key] = data
            add(name, data)


def _header(game: LoadedGame, profile: ShopProfile) -> dict[str, Any]:
    return {
        "game": game.slug,
        "title": game.model.info.title,
        "profile": profile.name,
        "profile_note": profile.description,
        "dpi": profile.dpi,
        "colour": SRGB_NOTE,
        "naming": "NNN-front.png and NNN-back.png are the two sides of card NNN; "
        "print each NNN as many times as its quantity",
    }


def _manifest_csv(pairs: list[CardPair]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["number", "front", "back", "quantity", "card_ids", "names"])
    for pair in pairs:
        writer.writerow(
            [
                pair.stem,
                f"{pair.stem}-front.png",
                f"{pair.stem}-back.png" if pair.back is not None else "",
                pair.quantity,
                " ".join(item.id for item in pair.items),
                " ".join(item.name for item in pair.items),
            ]
        )
    return buffer.getvalue()


@contextlib.contextmanager
def zip_writer(path: Path) -> Iterator[Callable[[str, bytes], None]]:
    """Add entries to a zip one by one, each written at once: the same bytes as
    ``write_zip`` given the same entries in name order (fixed times and permissions, PNGs
    stored, text deflated), without holding them all."""
    with atomic_output(path) as temporary, zipfile.ZipFile(temporary, "w") as archive:

        def add(name: str, data: bytes) -> None:
            info = zipfile.ZipInfo(name, date_time=ZIP_EPOCH)
            info.create_system = 3  # Unix, whatever machine wrote it
            info.external_attr = 0o644 << 16
            info.compress_type = (
                zipfile.ZIP_STORED if name.endswith(".png") else zipfile.ZIP_DEFLATED
            )
            archive.writestr(info, data)

        yield add
