"""Checks every game's content gets, whatever the game: ids, references, assets, products,
and the engine's declaration against what content uses."""

from __future__ import annotations

import dataclasses
import difflib
import re
from collections.abc import Collection, Iterable, Iterator
from pathlib import Path
from typing import Any

import jinja2

from pnp.content.assets import read_asset
from pnp.content.expressions import undeclared_names
from pnp.content.loader import LoadedGame
from pnp.content.prose import render_prose
from pnp.content.sandbox import ENVIRONMENT
from pnp.engines.base import Declaration, field_paths
from pnp.errors import Location, Problem, TemplateError
from pnp.layout.primitives import ImageShape
from pnp.layout.products import DEFAULT_BLEED, LaidOutProduct, layout_product
from pnp.layout.sheets import card_slot, plan_card_grid
from pnp.layout.sizes import SizeError, item_size
from pnp.layout.template import template_path
from pnp.model.common import NOWHERE, ProductKind, field_names
from pnp.units import PAPER_SIZES_MM, mm

SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
MAX_ID_LENGTH = 64
"""Ids become parts of file names (exports, tiles): keep them well under any file system's
limit."""
PRINT_PAPERS = ("a4", "letter")
"""The papers ``pnp build --paper`` prints on."""
ASSET_SUFFIXES = (".png", ".jpg", ".jpeg", ".svg", ".gif", ".webp")


class Findings:
    """Problems of one game, each with the location that reproduces it."""

    def __init__(self, game: LoadedGame) -> None:
        self.game = game
        self.problems: list[Problem] = []
        self.laid_out: list[LaidOutProduct] = []
        """Every product's faces as check_layout laid them out, for the preflight."""

    def error(self, where: Location | None, message: str) -> None:
        self.problems.append(Problem(self._where(where), message, game=self.game.slug))

    def warning(self, where: Location | None, message: str) -> None:
        self.problems.append(
            Problem(self._where(where), message, game=self.game.slug, severity="warning")
        )

    def _where(self, where: Location | None) -> Location:
        if where is not None and where != NOWHERE:
            return where
        # A finding about the game as a whole points at its game file.
        info = getattr(self.game.model, "info", None)
        if info is not None and getattr(info, "where", NOWHERE) != NOWHERE:
            return Location(info.where.path, info.where.line)
        return Location(self.game.files[0] if self.game.files else self.game.display_folder)


def suggest(name: str, known: Iterable[str]) -> str:
    near = difflib.get_close_matches(name, sorted(known), n=1)
    return f" (did you mean {near[0]!r}?)" if near else ""


def collections(model: Any, path: str = "") -> Iterator[tuple[str, tuple[Any, ...]]]:
    """Every tuple of dataclass objects in the model, with its dotted path: a field's, or a
    named one in a mapping (a data-only game keeps its items in ``collections: {cards: …}``,
    which the checks once skipped, so a duplicate id there passed)."""
    names = field_names(type(model))
    if names is None:
        return
    for field_name in names:
        value = getattr(model, field_name)
        here = f"{path}{field_name}"
        named = value.items() if isinstance(value, dict) else ()
        for name, items in [("", value), *((f".{key}", v) for key, v in named)]:
            if isinstance(items, tuple) and items and field_names(type(items[0])) is not None:
                yield here + name, items
                for element in items:
                    yield from collections(element, f"{here}{name}[].")
        if field_names(type(value)) is not None:
            yield from collections(value, f"{here}.")


def check_ids(findings: Findings) -> None:
    """Ids unique within each collection, and slug-like so they stay stable in file names."""
    for path, items in collections(findings.game.model):
        seen: dict[str, Location] = {}
        for item in items:
            item_id = getattr(item, "id", None)
            if item_id is None:
                continue
            where = getattr(item, "where", None)
            if len(str(item_id)) > MAX_ID_LENGTH:
                findings.error(
                    where,
                    f"{path}: id {str(item_id)[:20]!r}… is {len(str(item_id))} characters long "
                    f"(at most {MAX_ID_LENGTH})",
                )
            elif not SLUG.match(str(item_id)):
                findings.error(
                    where,
                    f"{path}: id {item_id!r} is not a lowercase slug "
                    "(letters, digits and single hyphens)",
                )
            if item_id in seen:
                findings.error(
                    where, f"{path}: duplicate id {item_id!r} (first defined at {seen[item_id]})"
                )
            else:
                seen[item_id] = where or NOWHERE


def check_products(findings: Findings, templates_root: Path) -> None:
    model = findings.game.model
    for product in getattr(model, "products", ()):
        items = getattr(model, product.items, None)
        if items is None or not isinstance(items, tuple):
            names = [f.name for f in dataclasses.fields(model)] + [
                name for name in dir(type(model)) if not name.startswith("_")
            ]
            findings.error(
                product.where,
                f"product {product.id!r} prints unknown collection "
                f"{product.items!r}{suggest(product.items, names)}",
            )
        elif not items:
            findings.error(
                product.where, f"product {product.id!r} prints nothing: {product.items!r} is empty"
            )
        if product.kind is ProductKind.CARDS:
            check_card_fits_paper(findings, product)
        for role, name in (("face", product.face), ("back", product.back)):
            if not name:
                continue
            try:
                path = template_path(templates_root, name)
            except TemplateError as error:
                findings.error(product.where, f"product {product.id!r}: {role} {error}")
                continue
            if not path.is_file():
                known = [str(p.relative_to(templates_root)) for p in templates_root.rglob("*.yaml")]
                findings.error(
                    product.where,
                    f"product {product.id!r}: {role} template {name!r} "
                    f"not found in templates/{suggest(name, known)}",
                )


def check_card_fits_paper(findings: Findings, product: Any) -> None:
    """A card product fits at least one card on every paper pnp prints on, with the default
    bleed (boards are tiled, cards are not)."""
    try:
        width, height = item_size(product)
    except SizeError:
        return  # the size itself is reported where it is read
    slot_w, slot_h = card_slot(width, height)
    for paper in PRINT_PAPERS:
        page_w, page_h = (mm(side) for side in PAPER_SIZES_MM[paper])
        try:
            plan_card_grid(
                slot_w, slot_h, bleed=DEFAULT_BLEED, page_width=page_w, page_height=page_h
            )
        except ValueError as error:
            findings.error(product.where, f"product {product.id!r} on {paper}: {error}")
            return


def _strings(value: Any) -> Iterator[tuple[str, Location | None]]:
    if isinstance(value, str):
        yield value, None
    elif isinstance(value, tuple):
        for element in value:
            yield from _strings(element)
    elif isinstance(value, dict):
        for element in value.values():
            yield from _strings(element)
    elif (names := field_names(type(value))) is not None:
        where = getattr(value, "where", None)
        for name in names:
            if name != "where":
                for text, inner in _strings(getattr(value, name)):
                    yield text, inner or where


def check_assets(findings: Findings) -> None:
    """Every file content refers to exists inside the game's own folder."""
    folder = findings.game.folder.resolve()
    for text, where in _strings(findings.game.model):
        if not text.lower().endswith(ASSET_SUFFIXES):
            continue
        target = (folder / text).resolve()
        if not target.is_relative_to(folder):
            findings.error(where, f"asset {text!r} lies outside the game's content folder")
        elif not target.is_file():
            findings.error(where, f"asset {text!r} not found in {findings.game.display_folder}")


def check_declaration(
    findings: Findings,
    declaration: Declaration,
    used_effects: dict[Any, Location],
    model_type: type,
    cards_where: Location | None = None,
) -> None:
    """What content uses and what the engine implements, compared both ways, exactly.

    `used_effects` maps each effect kind content uses to the first place using it;
    `cards_where` is where the cards of an unused effect would go.
    """
    for kind in sorted(set(used_effects) - set(declaration.effects), key=lambda k: k.value):
        findings.error(
            used_effects[kind],
            f"effect {kind.value!r} is used by content but the engine has no handler for it",
        )
    for kind in sorted(set(declaration.effects) - set(used_effects), key=lambda k: k.value):
        findings.error(
            cards_where, f"the engine implements effect {kind.value!r} but no card uses it"
        )
    offered = field_paths(model_type)
    for path in sorted(declaration.settings - offered):
        findings.error(None, f"the engine reads {path!r}, which the content model does not have")
    settings = {path for path in offered if path.startswith("settings.")}
    for path in sorted(settings - declaration.settings):
        findings.error(None, f"content sets {path!r} but the engine never reads it")


def check_prose(findings: Findings) -> None:
    """Every piece of prose that names only model values (``{{ game.… }}``) renders in the
    sandbox: an unknown name, a syntax error or an attempt to reach Python is a finding at the
    line that wrote it. Prose that names a face's ``item`` is checked when faces are laid out,
    and rulebook prose by the rulebook check."""
    model = findings.game.model
    context = {"game": model}
    seen: set[tuple[str, Location | None]] = set()
    for name in (f.name for f in dataclasses.fields(model)):
        if name == "rulebook":
            continue
        for text, where in _strings(getattr(model, name)):
            if ("{{" not in text and "{%" not in text) or (text, where) in seen:
                continue
            seen.add((text, where))
            try:
                names = undeclared_names(text, ENVIRONMENT)
            except jinja2.TemplateSyntaxError as error:
                findings.error(where, f"jinja syntax error: {error.message}")
                continue
            if "item" in names:
                continue  # a face's own prose: laid out with its face
            try:
                render_prose(text, context)
            except TemplateError as error:
                findings.error(where, str(error).removeprefix(": "))


LOCATED = re.compile(
    r"^(?P<path>[^:\n]+?):(?P<line>\d+)(?::(?P<column>\d+))?: (?P<message>.*)$", re.S
)
"""A layout message that starts with its place: ``templates/x.yaml:10: text: …``."""


def _located(error: Exception) -> tuple[Location | None, str]:
    match = LOCATED.match(str(error))
    if match is None:
        return None, str(error)
    where = Location(match["path"], int(match["line"]), int(match["column"] or 0))
    return where, match["message"]


def check_layout(
    findings: Findings,
    templates_root: Path,
    *,
    skip: Collection[str] = (),
    reported: Collection[Location] = (),
) -> None:
    """Every face of every item laid out as the build will lay it out, and every image it
    shows resolved inside the game's folder: a template naming a missing field or file is
    found here, not by a build that has already written half a kit. Products in ``skip`` are
    not laid out; an error at a place in ``reported`` is not repeated."""
    from pnp.validate.lettering import check_lettering

    game = findings.game
    laid_out_products = []
    for product in game.model.products:
        if product.id in skip:
            continue
        try:
            laid_out = layout_product(game, product, templates_root, DEFAULT_BLEED)
        except (TemplateError, SizeError) as error:
            where, message = _located(error)
            if (where or product.where) not in reported:
                findings.error(where or product.where, f"product {product.id!r}: {message}")
            continue
        laid_out_products.append(laid_out)
        seen: set[tuple[str, str]] = set()
        for front, back, _ in laid_out.runs:
            for face in (front, back):
                for shape in face.shapes if face is not None else ():
                    if not isinstance(shape, ImageShape) or (shape.path, shape.origin) in seen:
                        continue
                    seen.add((shape.path, shape.origin))
                    try:
                        _check_image(read_asset(game.folder, shape.path, shape.origin), shape)
                    except TemplateError as error:
                        where, message = _located(error)
                        if (where or product.where) not in reported:
                            findings.error(
                                where or product.where, f"product {product.id!r}: {message}"
                            )
    check_lettering(findings, laid_out_products)
    # The preflight runs last (pnp.validate.runner), over the faces laid out here.
    findings.laid_out = laid_out_products


def _check_image(data: bytes, shape: ImageShape) -> None:
    """The file decodes as the image it claims to be, within the pixels a print needs (a
    corrupt file, or a decompression bomb, would stop a build half-way through the kit or
    take gigabytes). Its size is read from the header before anything is decoded."""
    import io
    import warnings
    import zlib

    from PIL import Image, UnidentifiedImageError

    def refuse(reason: str) -> TemplateError:
        return TemplateError(f"{shape.origin}: image {shape.path!r} {reason}")

    limit = Image.MAX_IMAGE_PIXELS
    # pnp's own limit decides, with its own message: Pillow's is switched off for the header
    # read only (nothing is decoded until the size has been judged).
    Image.MAX_IMAGE_PIXELS = None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as image:
                width, height = image.size
                if width * height > MAX_IMAGE_PIXELS:
                    raise refuse(
                        f"is {width}x{height} pixels; images may have at most "
                        f"{MAX_IMAGE_PIXELS // 1_000_000} million (a 63x88 mm card at 600 dpi "
                        "has 3.1 million)"
                    )
                image.load()  # decodes every pixel: a corrupt stream fails here, not mid-build
    except TemplateError:
        raise
    except (
        OSError,
        UnidentifiedImageError,
        ValueError,
        SyntaxError,
        EOFError,
        zlib.error,
        Image.DecompressionBombError,
    ) as error:
        raise refuse(f"is not a readable image ({error})") from None
    finally:
        Image.MAX_IMAGE_PIXELS = limit


MAX_IMAGE_PIXELS = 60_000_000
"""Most pixels an image on a face may have: a whole A4 page at 600 dpi is 35 million, a card
a few million; decoded, an image of the limit takes about 240 MB."""


def check_common(findings: Findings, templates_root: Path) -> None:
    check_ids(findings)
    check_products(findings, templates_root)
    check_assets(findings)
    check_prose(findings)
    # Every kind of mistake at once: a duplicate id or a broken prose reference does not
    # stop the faces from being checked. Only a product already refused (an unknown
    # collection, a missing template) is not laid out, and a layout error at a place already
    # reported is not said twice.
    reported = {p.location for p in findings.problems if p.severity == "error"}
    refused = {product.id for product in game_products(findings) if product.where in reported}
    check_layout(findings, templates_root, skip=refused, reported=reported)


def game_products(findings: Findings) -> tuple[Any, ...]:
    return tuple(getattr(findings.game.model, "products", ()))
