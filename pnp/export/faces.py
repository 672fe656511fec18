"""Every item of a game's kit as laid-out faces, and those faces rasterised to images.

Rasterising goes through the kit's own renderer: each distinct face is drawn with
`draw_face` on its own PDF page the size of trim + bleed (in memory, never on disk),
and pdfium renders the pages at the wanted resolution. So an exported PNG shows exactly
what the printed PDF shows.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import multiprocessing
import struct
import zlib
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Protocol

from PIL import Image
from zlib_ng import zlib_ng

from pnp.content.loader import LoadedGame
from pnp.cores import default_workers, may_fork
from pnp.layout.primitives import Face
from pnp.layout.products import layout_product, text_of
from pnp.layout.sizes import item_size
from pnp.model.common import Product, ProductKind
from pnp.units import POINTS_PER_INCH, POINTS_PER_MM, mm

SRGB_NOTE = "sRGB IEC61966-2.1 (8-bit RGB, ICC profile embedded)"


@dataclass(frozen=True)
class ExportItem:
    """One item of a product with its faces and how many copies the kit holds."""

    product: Product
    item: Any
    front: Face
    back: Face | None
    copies: int

    @property
    def id(self) -> str:
        return str(self.item.id)

    @property
    def name(self) -> str:
        return str(getattr(self.item, "name", "") or self.item.id)


@dataclass(frozen=True)
class ExportProduct:
    product: Product
    items: tuple[ExportItem, ...]
    width: float  # trim, points
    height: float

    @property
    def is_cards(self) -> bool:
        return self.product.kind is ProductKind.CARDS


Sizes = tuple[int, int] | None | list[tuple[int, int] | None]
"""Pixels wide and high of every face, or of each face in turn; None: from trim, bleed and
the resolution."""


Deck = tuple[Sequence[Face], Sizes, Sequence[int]]
"""A deck's distinct faces (its document's pages), their sizes, and the pages in the order
they are wanted."""


@dataclass
class Rasteriser:
    """Draws faces with the kit's renderer and rasterises them with pdfium, each distinct
    face once per resolution. Warnings (text that did not fit, missing glyphs) collect in
    `warnings`."""

    game: LoadedGame
    fonts: Any
    warnings: set[str] = field(default_factory=set)
    _cache: dict[tuple[object, ...], Image.Image] = field(default_factory=dict)

    def render(
        self, faces: Sequence[Face], dpi: float, size: tuple[int, int] | None = None
    ) -> list[Image.Image]:
        """One RGB image per face, each `round(size_in_inches * dpi)` pixels a side, or
        exactly `size` pixels (a shop's published size), the face stretched to fill it."""
        wanted = [(*face_key(face), dpi, size) for face in faces]
        missing: dict[tuple[object, ...], Face] = {}
        for key, face in zip(wanted, faces, strict=True):
            if key not in self._cache and key not in missing:
                missing[key] = face
        if missing:
            images = self._rasterise(list(missing.values()), dpi, size)
            self._cache.update(zip(missing, images, strict=True))
        return [self._cache[key] for key in wanted]

    def _rasterise(
        self, faces: list[Face], dpi: float, size: tuple[int, int] | None
    ) -> list[Image.Image]:
        with self.pages(faces, dpi, size) as image_of:
            return [image_of(index) for index in range(len(faces))]

    @contextlib.contextmanager
    def pages(
        self, faces: Sequence[Face], dpi: float, size: Sizes = None
    ) -> Iterator[Callable[[int], Image.Image]]:
        """A function that rasterises the index-th of `faces` when asked, and keeps nothing:
        an exporter writes each image and lets it go, so memory stays flat in the card count.
        The faces are drawn into one PDF first (fonts embedded once), as `render` does."""
        import pypdfium2

        document = pypdfium2.PdfDocument(self._document(faces, dpi, size))
        scale = dpi / POINTS_PER_INCH

        def image_of(index: int) -> Image.Image:
            page = document[index]
            try:
                # pdfium writes RGB itself (rev_byteorder), so the image is one copy of its
                # buffer rather than a conversion from BGR.
                bitmap = page.render(scale=scale, rev_byteorder=True)
                try:
                    image: Image.Image = bitmap.to_pil()
                    if image.mode != "RGB":
                        raise ValueError(f"pdfium rendered {image.mode}, expected RGB")
                    return image.copy()
                finally:
                    bitmap.close()
            finally:
                page.close()

        try:
            yield image_of
        finally:
            document.close()

    def pngs(self, decks: Sequence[Deck], dpi: float) -> PngStream:
        """PNG bytes (see :func:`png_bytes`) of each deck's faces in the deck's order, deck by
        deck, so memory stays flat in the card count. The work starts now: a caller may do
        something else (check the content) while the images are made, and must ``close()``
        the stream, which stops what is left.

        The faces are drawn :data:`FACES_PER_DOCUMENT` to a document (fonts embedded once
        per document), in each deck's order: a fixed split, so an image never depends on how
        many processes made it. Drawing, rasterising and encoding a document is one task of
        forked worker processes on every core (pdfium is not thread-safe: each worker opens
        its own documents); where processes cannot fork (or this is a worker already), or
        there are few pages, this process does them in turn with the encoding on threads,
        each batch when the one before it is taken."""
        batches = _batches(decks)
        pages = sum(len(batch.faces) for batch in batches)
        workers = min(default_workers(), _MAX_WORKERS, max(1, pages // _PAGES_PER_WORKER))
        if workers > 1 and may_fork():
            return self._pngs_forked(batches, dpi, workers)
        return self._pngs_here(batches, dpi)

    def _pngs_here(self, batches: list[_Batch], dpi: float) -> Generator[bytes, None, None]:
        with ThreadPoolExecutor(max_workers=2) as pool:
            for batch in batches:
                with self.pages(batch.faces, dpi, batch.sizes) as image_of:
                    # zlib releases the GIL: the next page rasterises while this one is encoded.
                    waiting: deque[Future[bytes]] = deque()
                    for index in range(len(batch.faces)):
                        waiting.append(pool.submit(png_bytes, image_of(index), dpi))
                        if len(waiting) > 2:
                            yield waiting.popleft().result()
                    while waiting:
                        yield waiting.popleft().result()

    def _pngs_forked(self, batches: list[_Batch], dpi: float, workers: int) -> _ForkedPngs:
        context = multiprocessing.get_context("fork")
        # The workers share this process's memory copy-on-write (the faces among it): frozen
        # while they fork, a collection in a worker does not touch (and so copy) every object.
        gc.freeze()
        try:
            pool = context.Pool(workers, initializer=_start_worker, initargs=(self, batches, dpi))
        finally:
            gc.unfreeze()
        return _ForkedPngs(pool, pool.imap(_batch_pngs, range(len(batches))), self.warnings)

    def _document(self, faces: Sequence[Face], dpi: float, size: Sizes) -> bytes:
        data, warnings = self.drawn(faces, dpi, size)
        self.warnings.update(warnings)
        return data

    def drawn(self, faces: Sequence[Face], dpi: float, size: Sizes) -> tuple[bytes, set[str]]:
        """One PDF with a page per face, each page the face's size in pixels at ``dpi``
        (``size``, see :data:`Sizes`), and the warnings drawing it gave."""
        from pnp.render.draw import DrawReport, draw_face
        from pnp.render.pdf import new_canvas

        report = DrawReport()
        # One document with a page per face: the fonts are embedded once, not per face.
        # getpdfdata() hands the bytes back without writing the (dummy) file name.
        canvas = new_canvas(
            Path("faces.pdf"), (72.0, 72.0), title=self.game.slug, font=self.fonts.regular
        )
        scale = dpi / POINTS_PER_INCH
        sizes = size if isinstance(size, list) else [size] * len(faces)
        for face, wanted in zip(faces, sizes, strict=True):
            full_w, full_h = face.width + 2 * face.bleed, face.height + 2 * face.bleed
            px_w, px_h = wanted or (pixel_size(full_w, dpi), pixel_size(full_h, dpi))
            # pdfium makes ceil(page size x scale) pixels. A page a hair under the wanted
            # pixel count gives exactly round(), and the face is stretched by at most half
            # a pixel so its bleed still reaches every edge.
            page_w, page_h = (px_w - 0.01) / scale, (px_h - 0.01) / scale
            canvas.setPageSize((page_w, page_h))
            canvas.saveState()
            canvas.scale(page_w / full_w, page_h / full_h)
            canvas.translate(face.bleed, face.bleed)
            draw_face(canvas, face, self.fonts, report, self.game.folder)
            canvas.restoreState()
            canvas.showPage()
        warnings = set(report.overflows)
        for origin, chars in report.missing_glyphs.items():
            warnings.add(f"{origin}: no glyph for {''.join(sorted(chars))!r}")
        data: bytes = canvas.getpdfdata()
        return data, warnings


_MAX_WORKERS = 4
_PAGES_PER_WORKER = 8
"""Below this many pages a process, forking costs more than it saves."""


class PngStream(Protocol):
    """Images as they are made; ``close()`` stops the rest."""

    def __iter__(self) -> Iterator[bytes]: ...

    def __next__(self) -> bytes: ...

    def close(self) -> None: ...


class _ForkedPngs:
    """The images of a pool's batches in order; closing it stops the pool."""

    def __init__(
        self, pool: Any, results: Iterator[tuple[list[bytes], set[str]]], warnings: set[str]
    ) -> None:
        self._pool, self._results, self._warnings = pool, results, warnings
        self._ready: deque[bytes] = deque()

    def __iter__(self) -> Iterator[bytes]:
        return self

    def __next__(self) -> bytes:
        while not self._ready:
            pngs, warnings = next(self._results)
            self._warnings.update(warnings)
            self._ready.extend(pngs)
        return self._ready.popleft()

    def close(self) -> None:
        self._pool.terminate()


FACES_PER_DOCUMENT = 12
"""Faces drawn into one document for rasterising: few enough that the documents of a deck
spread over the workers, enough that embedding the fonts once per document costs little."""


@dataclass(frozen=True)
class _Batch:
    """Faces drawn into one document and rasterised together, with their pixel sizes."""

    faces: list[Face]
    sizes: Sizes


def _batches(decks: Sequence[Deck]) -> list[_Batch]:
    batches = []
    for faces, size, order in decks:
        for start in range(0, len(order), FACES_PER_DOCUMENT):
            pages = order[start : start + FACES_PER_DOCUMENT]
            sizes = [size[page] for page in pages] if isinstance(size, list) else size
            batches.append(_Batch([faces[page] for page in pages], sizes))
    return batches


_WORKER: dict[str, Any] = {}
"""In a forked worker: the rasteriser, the batches and the resolution."""


def _start_worker(rasteriser: Rasteriser, batches: list[_Batch], dpi: float) -> None:
    import pypdfium2  # noqa: F401 - loaded while the pool starts, not with the first task

    _WORKER.update(rasteriser=rasteriser, batches=batches, dpi=dpi)


def _batch_pngs(number: int) -> tuple[list[bytes], set[str]]:
    """The PNGs of the number-th batch's faces, drawn and rasterised here."""
    import pypdfium2

    rasteriser: Rasteriser = _WORKER["rasteriser"]
    batch: _Batch = _WORKER["batches"][number]
    dpi: float = _WORKER["dpi"]
    data, warnings = rasteriser.drawn(batch.faces, dpi, batch.sizes)
    document = pypdfium2.PdfDocument(data)
    try:
        return [_page_png(document[index], dpi) for index in range(len(batch.faces))], warnings
    finally:
        document.close()


def _page_png(page: Any, dpi: float) -> bytes:
    try:
        bitmap = page.render(
            scale=dpi / POINTS_PER_INCH, rev_byteorder=True, bitmap_maker=_ROWS.bitmap
        )
        try:
            if bitmap.n_channels != 3:
                raise ValueError(f"pdfium rendered {bitmap.mode}, expected RGB")
            return png_of_rows(_ROWS.rows(), bitmap.width, bitmap.height, dpi)
        finally:
            bitmap.close()
    finally:
        page.close()


class _PngRows:
    """One buffer a worker renders every page into, laid out as a PNG stores its rows: a
    filter byte (0), then the row's pixels. pdfium writes each row one byte in, with a stride
    one byte longer than the row, so the page goes to the encoder with no copy, and the
    buffer is not allocated (and zeroed) again for every page."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.stride = self.height = 0

    def bitmap(self, width: int, height: int, format: int, rev_byteorder: bool = False) -> Any:
        import ctypes

        from pypdfium2 import PdfBitmap

        stride = 3 * width + 1
        if len(self.data) != stride * height + 1:
            self.data = bytearray(stride * height + 1)
        self.stride, self.height = stride, height
        pixels = (ctypes.c_ubyte * (stride * height)).from_buffer(self.data, 1)
        bitmap = PdfBitmap.new_native(width, height, format, rev_byteorder, pixels, stride)
        fill_rect = bitmap.fill_rect

        def fill_white_at_once(color: Any, left: int, top: int, across: int, down: int) -> None:
            # pdfium fills a 24-bit bitmap pixel by pixel: six times the time of a memset,
            # which gives the same bytes for the page's white background (and its filter
            # bytes, which `rows` sets again).
            whole = (left, top, across, down) == (0, 0, width, height)
            if whole and tuple(color) == (255, 255, 255, 255):
                ctypes.memset(ctypes.addressof(pixels), 255, stride * height)
            else:
                fill_rect(color, left, top, across, down)

        bitmap.fill_rect = fill_white_at_once
        return bitmap

    def rows(self) -> memoryview:
        size = self.stride * self.height
        # The filter bytes lie in pdfium's row padding, which it may use: set them again.
        self.data[0 : size : self.stride] = bytes(self.height)
        return memoryview(self.data)[:size]


_ROWS = _PngRows()


def pixel_size(points: float, dpi: float) -> int:
    """Pixels for a length at `dpi`: round(mm / 25.4 * dpi)."""
    return round(points / POINTS_PER_MM / 25.4 * dpi)


def face_key(face: Face) -> tuple[object, ...]:
    """What is drawn, not which item it is: identical faces share one key."""
    return (face.width, face.height, face.bleed, face.shapes)


def face_digest(face: Face) -> str:
    return hashlib.sha1(repr(face_key(face)).encode("utf-8")).hexdigest()[:12]


def blank_back(face: Face) -> Face:
    """A plain white back for items whose product prints none (a digital table needs one)."""
    return Face(
        key=f"{face.key}#blank", width=face.width, height=face.height, bleed=face.bleed, shapes=()
    )


def collect(
    game: LoadedGame,
    templates_root: Path,
    *,
    bleed_mm: float,
    products: Iterable[str] | None = None,
) -> tuple[list[ExportProduct], Rasteriser]:
    """The game's products laid out with `bleed_mm` around cards, and a rasteriser whose
    font covers every character they draw."""
    from pnp.render.fonts import prepare_cjk_fonts

    wanted = set(products) if products is not None else None
    chosen = [p for p in game.model.products if wanted is None or p.id in wanted]
    laid_out = [layout_product(game, p, templates_root, mm(bleed_mm)) for p in chosen]
    fonts = prepare_cjk_fonts(text_of(laid_out) + game.model.info.title)
    result = []
    for product, laid in zip(chosen, laid_out, strict=True):
        width, height = item_size(product)
        items = tuple(
            ExportItem(product, item, front, back, copies)
            for item, (front, back, copies) in zip(laid.items, laid.runs, strict=True)
        )
        result.append(ExportProduct(product, items, width, height))
    return result, Rasteriser(game, fonts)


def png_bytes(image: Image.Image, dpi: float) -> bytes:
    """PNG bytes of an RGB image, tagged sRGB (ICC profile) with the resolution in pHYs;
    deterministic.

    Written here rather than by Pillow: Pillow tries all five PNG row filters on every row,
    which for flat card art buys 15 % smaller files at twice the time, and encoding is most
    of an export. Rows go unfiltered into zlib-ng's deflate at level 3, which finds the
    repeats of a flat colour three bytes apart itself: a zlib stream about as small as
    zlib's, in a third of the time."""
    if image.mode != "RGB":
        image = image.convert("RGB")
    width, height = image.size
    return rgb_png(image.tobytes(), width, height, 3 * width, dpi)


def rgb_png(pixels: Any, width: int, height: int, stride: int, dpi: float) -> bytes:
    """:func:`png_bytes` of RGB pixels in any buffer, ``stride`` bytes a row."""
    view = memoryview(pixels).cast("B")
    row = 3 * width
    rows = b"".join(
        [
            part
            for start in range(0, stride * height, stride)
            for part in (b"\0", view[start : start + row])
        ]
    )
    return png_of_rows(rows, width, height, dpi)


def png_of_rows(rows: Any, width: int, height: int, dpi: float) -> bytes:
    """The PNG of RGB rows each led by its filter byte (0: none), as the format stores them."""
    per_metre = round(dpi / 0.0254)
    return b"".join(
        [
            _PNG_SIGNATURE,
            _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)),
            _srgb_chunk(),
            _chunk(b"pHYs", struct.pack(">IIB", per_metre, per_metre, 1)),
            _chunk(b"IDAT", zlib_ng.compress(rows, 3)),
            _chunk(b"IEND", b""),
        ]
    )


_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@cache
def _srgb_chunk() -> bytes:
    """The iCCP chunk naming the sRGB profile: the same bytes in every PNG."""
    return _chunk(b"iCCP", b"ICC Profile\0\0" + zlib.compress(srgb_profile(), 9))


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


_SRGB: list[bytes] = []


# ICC header dateTime (bytes 24-35: year, month, day, hour, minute, second as uint16):
# Little CMS stamps the current time, which would make every export differ.
_ICC_DATE = slice(24, 36)
_FIXED_DATE = struct.pack(">6H", 2024, 1, 1, 0, 0, 0)


def srgb_profile() -> bytes:
    """Little CMS's built-in sRGB profile (588 bytes): pdfium renders in sRGB, so say so.

    Its creation date is fixed so identical images give identical files; the profile id
    (an MD5 that would cover the date) is left zero by Little CMS, meaning "not computed".
    """
    if not _SRGB:
        from PIL import ImageCms

        data = bytearray(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
        data[_ICC_DATE] = _FIXED_DATE
        _SRGB.append(bytes(data))
    return _SRGB[0]
