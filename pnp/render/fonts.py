"""CJK fonts for reportlab: Noto Sans CJK SC, converted to TrueType outlines glyph by glyph.

reportlab embeds (and subsets) only TrueType-outlined fonts, while Noto Sans CJK ships
PostScript (CFF2) outlines: the ``manimgx-fonts-cjk`` wheel carries the unmodified variable
collection ``NotoSansCJK-VF.otf.ttc`` (SIL OFL 1.1), whose Simplified-Chinese face is drawn
here at weight 400 (regular) and 700 (bold).

Only the characters a kit draws are converted: a small base (ASCII and common punctuation),
what the caller passes, and any other character the moment reportlab measures or draws it
(the registered fonts grow, so no character is ever tofu).  Each glyph is converted once per
machine and kept in a glyph store on disk; a font for a set of characters is then assembled
from the store in milliseconds.

Every value of the assembled font that a PDF embeds and that could depend on which other
characters the file holds (the header's bounding box, the maxima of ``hhea`` and ``maxp``)
is fixed, so a PDF's bytes depend only on the characters it draws, never on the font file
it was set with: any font this module returns for a text sets it identically.
"""

from __future__ import annotations

import atexit
import contextlib
import copy
import functools
import hashlib
import importlib.util
import io
import logging
import marshal
import os
import shutil
import struct
import tempfile
import threading
import time
import unicodedata
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from pnp.errors import FontError
from pnp.trust import seal, seal_text, unseal, verify_text

log = logging.getLogger("pnp.fonts")

# Bump whenever the conversion changes what it writes: the number is part of every cache
# key, so old cached glyphs and fonts are simply never looked at again.
CONVERTER_VERSION = "2"

REGULAR_NAME = "PnpSans"
BOLD_NAME = "PnpSans-Bold"

# Environment overrides.
ENV_CACHE_DIR = "PNP_FONT_CACHE"
ENV_USER_FONT = "PNP_CJK_FONT"
ENV_USER_FONT_BOLD = "PNP_CJK_FONT_BOLD"

# cu2qu tolerance in font units (1000/em): 1 unit is 0.004 mm at 10 pt, far below print
# resolution, and larger tolerances barely shrink the file.
_MAX_ERR = 1.0

# The font: import name of the package, file inside it, pip distribution name.
SOURCE_PACKAGE = "manimgx_fonts_cjk"
SOURCE_FILE = "NotoSansCJK-VF.otf.ttc"
SOURCE_DIST = "manimgx-fonts-cjk"
# The face of the collection whose default glyphs are the Simplified-Chinese forms.
_FACE_PS_PREFIX = "NotoSansCJKsc-"
_FAMILY = "Noto Sans CJK SC"
# style -> (weight axis value, subfamily name)
STYLES: dict[str, tuple[int, str]] = {"regular": (400, "Regular"), "bold": (700, "Bold")}

_HEAD = 1024 * 1024  # bytes hashed from each end of a source font

# Fixed maxima of the assembled fonts (see the module docstring); a glyph beyond them
# raises them for its own font only, which no Noto Sans CJK glyph comes near.
_MAX_POINTS = 4096
_MAX_CONTOURS = 512
# The bounding box every font declares: the source's own, padded for the bold weight.
_BBOX_PAD = 100

# Glyph store key of the .notdef glyph (a code point can never be negative).
_NOTDEF = -1

# A stored glyph: (advance, left side bearing, points, contours, TrueType glyph data).
StoredGlyph = tuple[int, int, int, int, bytes]


@dataclass(frozen=True)
class FontSet:
    """The reportlab font names to draw Chinese with, and what they can show."""

    regular: str
    bold: str
    regular_path: Path
    bold_path: Path
    # Code points both faces held when the set was made; a bundled font takes in more.
    coverage: frozenset[int] = field(repr=False)
    # Characters that were asked for but the source font has no glyph for.
    lacking: frozenset[str] = field(default=frozenset(), repr=False)
    # What decides the glyphs' bytes (converter, source font), whatever the characters:
    # equal identities draw a text identically.
    identity: str = ""
    # The growing fonts behind a bundled set (None for a user's font).
    family: Any = field(default=None, repr=False, compare=False)

    def covers(self, char: str) -> bool:
        return not self.missing(char)

    def missing(self, text: str) -> set[str]:
        """The characters of `text` these fonts cannot draw (whitespace never counts).

        The bundled fonts draw every character the source font has; a user's font only
        those it holds.
        """
        if self.coverage.issuperset(map(ord, text)):  # nearly every text: no set built
            return set()
        outside = {ch for ch in set(text) if ord(ch) not in self.coverage and _drawable(ch)}
        if not outside or self.family is None:
            return outside
        family: _Family = self.family
        family.need(outside)
        return {ch for ch in outside if ord(ch) in family.absent}


def _drawable(ch: str) -> bool:
    return not ch.isspace() and unicodedata.category(ch) != "Cc"


# --------------------------------------------------------------------------- charset


def _span(first: int, last: int) -> str:
    return "".join(chr(cp) for cp in range(first, last + 1))


@cache
def base_charset() -> str:
    """The characters every prepared font holds from the start (if the source has them).

    Small on purpose: every other character comes in when it is first passed or drawn
    (see `_Family`), so a machine converts only glyphs some kit actually prints.
    """
    parts = [
        _span(0x20, 0x7E),  # ASCII printable: reportlab keeps them in the first subset
        "\u00a0\u3000",  # no-break and ideographic space
        "·×÷–—‘’“”…",
        "，。、：；！？（）《》「」",
    ]
    return "".join(sorted(set("".join(parts))))


# ----------------------------------------------------------------------- cache paths


def cache_dir() -> Path:
    """Where converted fonts are kept: $PNP_FONT_CACHE, else the XDG cache directory."""
    explicit = os.environ.get(ENV_CACHE_DIR)
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    root = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return root / "pnp" / "fonts"


@functools.cache
def _writable(directory: Path) -> Path:
    """``directory`` if fonts can be kept there, else a folder of this process's own (said
    once): a read-only or full cache folder is a fault of the machine, and the fonts are
    still made, only not kept for the next command."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=directory, prefix=".probe-"):
            pass
        return directory
    except OSError as error:
        fallback = Path(tempfile.mkdtemp(prefix="pnp-fonts-"))
        atexit.register(shutil.rmtree, fallback, ignore_errors=True)
        log.warning(
            "the font cache %s cannot be written (%s): fonts are prepared in a temporary "
            "folder for this command only; set %s to a writable folder to keep them",
            directory,
            error.strerror or error,
            ENV_CACHE_DIR,
        )
        return fallback


def _source_identity(path: Path) -> str:
    """A cheap content fingerprint: size plus the first and last megabyte.

    mtime would change on every reinstall of an identical wheel, and hashing all
    33 MB on every process start is wasted work.
    """
    digest = hashlib.sha256()
    size = path.stat().st_size
    digest.update(str(size).encode())
    with path.open("rb") as stream:
        digest.update(stream.read(_HEAD))
        if size > _HEAD:
            stream.seek(max(size - _HEAD, _HEAD))
            digest.update(stream.read())
    return digest.hexdigest()


def _key(*parts: str) -> str:
    digest = hashlib.sha256()
    for part in (CONVERTER_VERSION, *parts):
        digest.update(part.encode("utf-8"))
        digest.update(b"\0")
    return digest.hexdigest()[:20]


# ------------------------------------------------------------------- locating fonts


def locate_source() -> Path | None:
    """The bundled font collection, found without importing the wheel's package."""
    try:
        spec = importlib.util.find_spec(SOURCE_PACKAGE)
    except (ImportError, ValueError):
        spec = None
    if spec is not None and spec.submodule_search_locations:
        for location in spec.submodule_search_locations:
            candidate = Path(location) / SOURCE_FILE
            if candidate.is_file():
                return candidate
    from importlib import metadata  # for this fallback only: importing it is slow

    try:
        files = metadata.files(SOURCE_DIST) or []
    except metadata.PackageNotFoundError:
        return None
    for entry in files:
        if entry.name == SOURCE_FILE:
            candidate = Path(str(entry.locate()))
            if candidate.is_file():
                return candidate
    return None


def _require_source() -> Path:
    path = locate_source()
    if path is None:
        raise FontError(
            f"The CJK font ({SOURCE_FILE}, Noto Sans CJK) is not installed. "
            f"Install it with: pip install {SOURCE_DIST}  "
            f"(or point ${ENV_USER_FONT} at a TrueType font with Chinese glyphs)."
        )
    return path


def _open_face(source: Path, lazy: bool = True) -> Any:
    """The Simplified-Chinese face of the collection (a plain font file is its own face)."""
    from fontTools.ttLib import TTCollection, TTFont, TTLibError

    try:
        with source.open("rb") as stream:
            is_collection = stream.read(4) == b"ttcf"
        if not is_collection:
            return TTFont(str(source), lazy=lazy, recalcBBoxes=False, recalcTimestamp=False)
        collection = TTCollection(str(source), lazy=lazy)
    except (TTLibError, OSError) as exc:
        raise FontError(f"{source} is not a readable font: {exc}") from exc
    for font in collection.fonts:
        name = font["name"].getDebugName(6) or ""
        if name.startswith(_FACE_PS_PREFIX):
            return font
    raise FontError(f"{source} holds no Simplified-Chinese face ({_FACE_PS_PREFIX}*)")


# ------------------------------------------------------------------------ glyph store


def _store_path(directory: Path, identity: str, style: str) -> Path:
    return directory / f"glyphs-{style}-{_key(identity, style)}.marshal"


def _read_store(path: Path) -> dict[int, StoredGlyph | None]:
    # The cache folder is input, not trust: only a store this user sealed on this machine is
    # read (see pnp.trust); a planted one would put other outlines into every PDF.
    try:
        payload = unseal(_sealed_name(path), path.read_bytes())
        data = marshal.loads(payload) if payload is not None else None
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    return data if isinstance(data, dict) else {}


def _sealed_name(path: Path) -> str:
    return f"fonts/{path.name}"


def _font_seal_path(path: Path) -> Path:
    return path.with_name(path.name + ".seal")


def _sealed_font(path: Path) -> bool:
    """Whether ``path`` holds the TrueType font this user's pnp wrote under that name (its
    seal beside it verifies), so reportlab may embed it."""
    try:
        data = path.read_bytes()
        mark = _font_seal_path(path).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return False
    return data[:4] == b"\x00\x01\x00\x00" and verify_text(
        _sealed_name(path), hashlib.sha256(data).hexdigest(), mark
    )


def _write_sealed_font(path: Path, data: bytes) -> None:
    _write_atomically(path, data)
    mark = seal_text(_sealed_name(path), hashlib.sha256(data).hexdigest())
    _write_atomically(_font_seal_path(path), mark.encode("ascii"))


def _cmap_format12(face: Any) -> dict[int, int] | None:
    """code point -> glyph index from the face's format-12 cmap, read straight from its
    bytes: fontTools would decode all 44 000 entries and name every glyph first."""
    data = face.reader["cmap"]
    (count,) = struct.unpack(">H", data[2:4])
    for index in range(count):
        platform, encoding, offset = struct.unpack(">HHI", data[4 + 8 * index : 12 + 8 * index])
        if (platform, encoding) not in ((3, 10), (0, 4), (0, 6)):
            continue
        if struct.unpack(">H", data[offset : offset + 2])[0] != 12:
            continue
        (groups,) = struct.unpack(">I", data[offset + 12 : offset + 16])
        table = data[offset + 16 : offset + 16 + 12 * groups]
        mapping: dict[int, int] = {}
        for first, last, glyph in struct.iter_unpack(">III", table):
            for codepoint in range(first, last + 1):
                mapping[codepoint] = glyph + codepoint - first
        return mapping
    return None


class _GlyphSource:
    """The source face, opened once per process, converting glyphs on request."""

    def __init__(self, source: Path) -> None:
        self.source = source
        self.face = _open_face(source)
        indices = _cmap_format12(self.face) if "cmap" in self.face.reader else None
        if indices is None:
            self.order: list[str] = self.face.getGlyphOrder()
            self.names = dict((self.face.getBestCmap() or {}).items())
        else:
            # Glyphs named by index: spares fontTools naming 65 000 glyphs from the cmap.
            count = self.face["maxp"].numGlyphs
            self.order = [".notdef", *(f"glyph{gid:05d}" for gid in range(1, count))]
            self.face.setGlyphOrder(self.order)
            self.names = {cp: self.order[gid] for cp, gid in indices.items() if gid < count}
        self._glyph_sets: dict[str, Any] = {}

    def has(self, codepoint: int) -> bool:
        return codepoint in self.names

    def reopen(self) -> None:
        """Read the font through a file of this process's own: a forked process shares its
        parent's file, and so the position of every read (fontTools reads tables lazily)."""
        self.face.reader.file = self.source.open("rb")

    def convert(self, style: str, codepoints: Iterable[int]) -> dict[int, StoredGlyph | None]:
        """TrueType outlines of `codepoints` (None where the font has no glyph) at `style`'s
        weight: the fontTools otf2ttf recipe, glyph by glyph."""
        from fontTools.misc.roundTools import otRound
        from fontTools.pens.cu2quPen import Cu2QuPen
        from fontTools.pens.ttGlyphPen import TTGlyphPen
        from fontTools.ttLib import newTable

        glyph_set = self._glyph_sets.get(style)
        if glyph_set is None:
            location = {"wght": STYLES[style][0]} if "fvar" in self.face else None
            glyph_set = self.face.getGlyphSet(location=location, normalized=False)
            self._glyph_sets[style] = glyph_set
        glyf = newTable("glyf")
        glyf.glyphs = {}
        done: dict[int, StoredGlyph | None] = {}
        for codepoint in codepoints:
            name = self.order[0] if codepoint == _NOTDEF else self.names.get(codepoint)
            if name is None:
                done[codepoint] = None
                continue
            source_glyph = glyph_set[name]
            pen = TTGlyphPen(glyph_set)
            # PostScript contours run counter-clockwise, TrueType ones clockwise.
            source_glyph.draw(Cu2QuPen(pen, _MAX_ERR, reverse_direction=True))
            glyph = pen.glyph()
            data = glyph.compile(glyf, recalcBBoxes=True)
            contours = max(glyph.numberOfContours, 0)
            points = len(glyph.coordinates) if contours else 0
            # TrueType left side bearings must equal xMin.
            lsb = glyph.xMin if contours else 0
            done[codepoint] = (otRound(source_glyph.width), lsb, points, contours, data)
        return done


SIDE_BY_SIDE_GLYPHS = 48
"""Glyphs of each style from which the styles convert in two processes (a first build
converts hundreds; forking costs what a few glyphs do)."""


def _convert_styles(
    reader: _GlyphSource, wanted: Mapping[str, list[int]]
) -> dict[str, dict[int, StoredGlyph | None]]:
    """Each style's glyphs of `wanted` converted: the first style here, the others each in a
    forked process beside it when there are enough of them and a core for each. A child that
    fails leaves its style to this process, so the result never depends on how it was made."""
    from pnp.cores import default_workers, may_fork

    styles = list(wanted)
    beside = [
        style
        for style in styles[1:]
        if len(wanted[style]) >= SIDE_BY_SIDE_GLYPHS and len(wanted[styles[0]]) >= 2
    ][: default_workers() - 1]
    if not beside or not may_fork():
        return {style: reader.convert(style, wanted[style]) for style in styles}
    import multiprocessing

    # Each style's first glyph here: it reads and decodes the tables every style shares
    # (outlines, metrics and their variations, most of the cost of a few glyphs), which the
    # forked processes then hold without reading them again.
    done = {style: reader.convert(style, wanted[style][:1]) for style in styles}
    context = multiprocessing.get_context("fork")
    children = []
    for style in beside:
        receive, send = context.Pipe(duplex=False)
        child = context.Process(
            target=_convert_into, args=(reader, style, wanted[style][1:], send), daemon=True
        )
        child.start()
        send.close()
        children.append((style, child, receive))
    for style in styles:
        if style not in beside:
            done[style].update(reader.convert(style, wanted[style][1:]))
    for style, child, receive in children:
        try:
            found = marshal.loads(receive.recv_bytes())
        except (EOFError, OSError, ValueError):
            found = None
        finally:
            receive.close()
            child.join()
        if not isinstance(found, dict) or child.exitcode != 0:
            found = reader.convert(style, wanted[style][1:])
        done[style].update(found)
    return done


def _convert_into(reader: _GlyphSource, style: str, codepoints: list[int], send: Any) -> None:
    """A forked process's work: convert, and send the glyphs back. On any failure it sends
    nothing and the parent converts them itself."""
    try:
        reader.reopen()
        send.send_bytes(marshal.dumps(reader.convert(style, codepoints)))
    except Exception:
        pass
    finally:
        send.close()


_READERS: dict[tuple[str, str, int], _GlyphSource] = {}
"""The source faces opened, by path, fingerprint and process: a forked process opens its
own, since it would share the parent's file and so the position of every read."""


def _reader_of(source: Path, identity: str) -> _GlyphSource:
    """The source face, opened once per process: a process that keeps fonts in several
    caches (a test run; a command whose cache cannot be written, beside the fonts it read)
    then decodes the outlines and variations every style shares once, most of the cost of
    converting a few glyphs."""
    key = (str(source), identity, os.getpid())
    reader = _READERS.get(key)
    if reader is None:
        reader = _READERS[key] = _GlyphSource(source)
    return reader


class _GlyphStore:
    """Converted glyphs of one source, per style, on disk and in memory."""

    def __init__(self, source: Path, directory: Path) -> None:
        self.source = source
        self.directory = directory
        self.identity = _source_identity(source)
        self.glyphs = {
            style: _read_store(_store_path(directory, self.identity, style)) for style in STYLES
        }
        self._reader: _GlyphSource | None = None
        self._face: Any = None
        self._unsaved: set[str] = set()

    def ensure(self, codepoints: Iterable[int]) -> None:
        """Convert the glyphs of `codepoints` the store lacks (saved by `save`)."""
        with _lock:  # the source face may be shared with other stores (`_reader_of`)
            self._ensure(codepoints)

    def _ensure(self, codepoints: Iterable[int]) -> None:
        wanted = list(dict.fromkeys(codepoints))
        new = {s: [cp for cp in wanted if cp not in self.glyphs[s]] for s in STYLES}
        new = {style: cps for style, cps in new.items() if cps}
        if not new:
            return
        started = time.perf_counter()
        count = max(len(cps) for cps in new.values())
        reader = self._reader
        first = reader is None
        if reader is None:
            log.info(
                "preparing the Chinese font: converting %d characters of Noto Sans CJK to "
                "TrueType outlines (once; kept in %s)",
                count,
                self.directory,
            )
            reader = self._reader = _reader_of(self.source, self.identity)
        if not self._unsaved:
            # Glyphs measured but never embedded are worth keeping too.
            atexit.register(self.save)
        for style, converted in _convert_styles(reader, new).items():
            self.glyphs[style].update(converted)
            self._unsaved.add(style)
        elapsed = time.perf_counter() - started
        if first:
            log.info("font ready: %d characters converted in %.1f s", count, elapsed)
        else:  # characters met while drawing: quick, unless many at once
            (log.info if elapsed >= 0.5 else log.debug)(
                "font: %d more characters converted in %.1f s", count, elapsed
            )

    def save(self) -> None:
        for style in sorted(self._unsaved):
            path = _store_path(self.directory, self.identity, style)
            # Another process may have stored glyphs meanwhile: keep theirs as well.
            merged = {**_read_store(path), **self.glyphs[style]}
            _write_atomically(path, seal(_sealed_name(path), marshal.dumps(merged)))
            self.glyphs[style] = merged
        self._unsaved.clear()

    def font_bytes(self, style: str, codepoints: Iterable[int]) -> bytes:
        """The assembled TrueType font of `style` for `codepoints` (all ensured)."""
        if self._face is None:  # its small tables: names, metrics, header
            self._face = self._reader.face if self._reader is not None else _open_face(self.source)
        face = self._face
        store = self.glyphs[style]
        glyphs = {cp: store[cp] for cp in (_NOTDEF, *codepoints)}
        return _assemble(face, style, glyphs)


def build_fonts(
    source: Path, charset: str, directory: Path, store: _GlyphStore | None = None
) -> dict[str, Path]:
    """The cached TrueType fonts (style -> file) of `source` for `charset`, built if absent:
    glyphs the store lacks are converted and stored, then each font is assembled."""
    chars = "".join(sorted(set(charset)))
    identity = store.identity if store is not None else _source_identity(source)
    paths = {
        style: directory / f"PnpSans-{style}-{_key(identity, style, chars)}.ttf" for style in STYLES
    }
    todo = [style for style, path in paths.items() if not _sealed_font(path)]
    for style in set(paths) - set(todo):
        _mark_used(paths[style])
    if todo:
        store = store or _GlyphStore(source, directory)
        codepoints = [ord(ch) for ch in chars]
        store.ensure([_NOTDEF, *codepoints])
        store.save()
        for style in todo:
            _write_sealed_font(paths[style], store.font_bytes(style, codepoints))
        _prune_fonts(directory, keep=set(paths.values()), now=time.time())
    return paths


KEPT_FONTS = 64
"""Assembled fonts a cache keeps whatever their age (32 pairs). Each new set of characters
writes a pair (a few hundred KB); nothing removed them, and a designer's cache had grown to
469 pairs, 117 MB."""
UNUSED_FOR = 3600
"""Seconds a font beyond those must have gone unused before it is removed. A running pnp reads
its fonts into memory when it registers them; the readers of the files (the gallery, a table's
web font) ask `prepare_cjk_fonts` first, which marks them used (and writes again any pruned
meanwhile). An hour, not a day: a day of test runs on one machine wrote 370 pairs."""


def _mark_used(font: Path) -> None:
    """Note that `font` was just used, on its seal: the font file's own time says when it was
    written, which builds compare."""
    with contextlib.suppress(OSError):  # a read-only cache: it is not pruned either
        os.utime(_font_seal_path(font))


def _last_use(font: Path) -> float:
    try:
        return max(font.stat().st_mtime, _font_seal_path(font).stat().st_mtime)
    except OSError:
        return font.stat().st_mtime


def _prune_fonts(directory: Path, *, keep: Collection[Path], now: float) -> None:
    """Remove the assembled fonts beyond the `KEPT_FONTS` used last that have gone unused for
    `UNUSED_FOR` seconds, with their seals. Any of them is assembled again from the glyph
    store in milliseconds if a later text asks for it; the glyph store is never pruned."""
    used: list[tuple[float, str, Path]] = []
    for font in directory.glob("PnpSans-*.ttf"):
        try:
            used.append((_last_use(font), font.name, font))
        except OSError:
            continue  # removed meanwhile
    used.sort(reverse=True)
    for when, _, font in used[KEPT_FONTS:]:
        if font in keep or now - when < UNUSED_FOR:
            continue
        for path in (font, _font_seal_path(font)):
            with contextlib.suppress(OSError):  # another user's, or a read-only cache: kept
                path.unlink(missing_ok=True)


# ------------------------------------------------------------------------ assembling


def _glyph_name(codepoint: int) -> str:
    return f"uni{codepoint:04X}" if codepoint <= 0xFFFF else f"u{codepoint:05X}"


def _assemble(face: Any, style: str, glyphs: Mapping[int, StoredGlyph | None]) -> bytes:
    """A TrueType font of the stored glyphs, with the source's names and vertical metrics."""
    from fontTools.ttLib import TTFont, newTable
    from fontTools.ttLib.tables._c_m_a_p import CmapSubtable
    from fontTools.ttLib.tables._g_l_y_f import Glyph

    weight, subfamily = STYLES[style]
    font = TTFont(recalcBBoxes=False, recalcTimestamp=False)
    font.sfntVersion = "\x00\x01\x00\x00"

    notdef = glyphs[_NOTDEF]
    assert notdef is not None, "every font has a .notdef glyph"
    present = sorted((cp, g) for cp, g in glyphs.items() if cp != _NOTDEF and g is not None)
    entries: list[tuple[str, StoredGlyph]] = [
        (".notdef", notdef),
        *((_glyph_name(cp), g) for cp, g in present),
    ]
    order = [name for name, _ in entries]
    font.setGlyphOrder(order)

    glyf = font["glyf"] = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = {name: Glyph(data) for name, (*_, data) in entries}
    font["loca"] = newTable("loca")
    hmtx = font["hmtx"] = newTable("hmtx")
    hmtx.metrics = {name: (advance, lsb) for name, (advance, lsb, *_) in entries}

    tables: list[Any] = []
    for platform, encoding, fmt, limit in ((0, 3, 4, 0xFFFF), (3, 1, 4, 0xFFFF)):
        subtable = CmapSubtable.newSubtable(fmt)
        subtable.platformID, subtable.platEncID, subtable.language = platform, encoding, 0
        subtable.cmap = {cp: _glyph_name(cp) for cp, _ in present if cp <= limit}
        tables.append(subtable)
    if present and present[-1][0] > 0xFFFF:
        for platform, encoding in ((0, 4), (3, 10)):
            subtable = CmapSubtable.newSubtable(12)
            subtable.platformID, subtable.platEncID, subtable.language = platform, encoding, 0
            subtable.cmap = {cp: _glyph_name(cp) for cp, _ in present}
            tables.append(subtable)
    cmap = font["cmap"] = newTable("cmap")
    cmap.tableVersion = 0
    cmap.tables = tables

    head = font["head"] = copy.deepcopy(face["head"])
    head.xMin -= _BBOX_PAD
    head.yMin -= _BBOX_PAD
    head.xMax += _BBOX_PAD
    head.yMax += _BBOX_PAD
    head.modified = head.created  # the source's date, not "now": same input, same bytes
    head.glyphDataFormat = 0
    head.macStyle = 1 if style == "bold" else 0
    head.checkSumAdjustment = 0
    font["hhea"] = copy.deepcopy(face["hhea"])

    os2 = font["OS/2"] = copy.deepcopy(face["OS/2"])
    os2.usWeightClass = weight
    os2.fsSelection = (os2.fsSelection & ~0b1100001) | (0b100000 if style == "bold" else 0b1000000)

    maxp = font["maxp"] = newTable("maxp")
    maxp.tableVersion = 0x00010000
    maxp.numGlyphs = len(order)
    maxp.maxPoints = max(_MAX_POINTS, *(g[2] for _, g in entries))
    maxp.maxContours = max(_MAX_CONTOURS, *(g[3] for _, g in entries))
    for attribute in (
        "maxCompositePoints",
        "maxCompositeContours",
        "maxTwilightPoints",
        "maxStorage",
        "maxFunctionDefs",
        "maxInstructionDefs",
        "maxStackElements",
        "maxSizeOfInstructions",
        "maxComponentElements",
        "maxComponentDepth",
    ):
        setattr(maxp, attribute, 0)
    maxp.maxZones = 1

    post = font["post"] = newTable("post")
    post.formatType = 3.0
    source_post = face["post"]
    post.italicAngle = source_post.italicAngle
    post.underlinePosition = source_post.underlinePosition
    post.underlineThickness = source_post.underlineThickness
    post.isFixedPitch = 0
    post.minMemType42 = post.maxMemType42 = post.minMemType1 = post.maxMemType1 = 0

    font["name"] = _names(face["name"], style, subfamily)

    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def _names(source: Any, style: str, subfamily: str) -> Any:
    """The source's name table (copyright, licence) with the instance's own names."""
    table = copy.deepcopy(source)
    ps_name = f"{_FACE_PS_PREFIX}{subfamily}"
    version = (source.getDebugName(5) or "").removeprefix("Version ").split(";")[0]
    renamed = {1, 2, 3, 4, 6, 16, 17, 21, 22, 25}
    table.names = [r for r in table.names if r.nameID not in renamed and r.nameID < 256]
    for name_id, text in (
        (1, _FAMILY),
        (2, subfamily),
        (3, f"{version};{ps_name};pnp-{style}"),
        (4, f"{_FAMILY} {subfamily}"),
        (6, ps_name),
    ):
        table.setName(text, name_id, 3, 1, 0x409)
        table.setName(text, name_id, 1, 0, 0)
    table.names.sort(key=lambda r: (r.platformID, r.platEncID, r.langID, r.nameID))
    return table


def _write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        # mkstemp makes owner-only files; a font cache has nothing to hide.
        os.chmod(temp, 0o644)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def convert_font(source: Path, charset: str) -> dict[str, bytes]:
    """The TrueType fonts (style -> bytes) of `source` for `charset`, deterministic, built
    in a throw-away directory."""
    with tempfile.TemporaryDirectory() as directory:
        paths = build_fonts(source, charset, Path(directory))
        return {style: path.read_bytes() for style, path in paths.items()}


# ------------------------------------------------------------------ registration


def _coverage(path: Path) -> frozenset[int]:
    from fontTools.ttLib import TTFont

    with TTFont(str(path), lazy=True, fontNumber=0) as font:
        return frozenset(font.getBestCmap() or {})


# reportlab font name -> identity of the font file registered under it.
_registered: dict[str, str] = {}


def _register_one(preferred: str, path: Path, identity: str) -> str:
    """Register `path` under `preferred`, or a suffixed name if that is taken.

    A name never changes meaning within a process: a canvas that already drew with a
    font must not find another font behind the same name later.
    """
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFError, TTFont

    for name in (preferred, f"{preferred}-{identity[:8]}"):
        known = _registered.get(name)
        if known == identity:
            return name  # parsing the font again would only cost time
        if known is None:
            try:
                pdfmetrics.registerFont(TTFont(name, str(path)))
            except TTFError as exc:
                raise FontError(f"reportlab cannot use the font {path}: {exc}") from exc
            _registered[name] = identity
            return name
    raise FontError(f"cannot register {path}: the font names {preferred}-* are taken")


def _register(regular: tuple[str, Path, str], bold: tuple[str, Path, str]) -> tuple[str, str]:
    from reportlab.pdfbase import pdfmetrics

    regular_name = _register_one(*regular)
    bold_name = _register_one(*bold)
    # Lets <b> in a Paragraph set in either face find the bold one.
    pdfmetrics.registerFontFamily(
        regular_name,
        normal=regular_name,
        bold=bold_name,
        italic=regular_name,
        boldItalic=bold_name,
    )
    return regular_name, bold_name


def _check_user_font(path: Path) -> None:
    from fontTools.ttLib import TTFont, TTLibError

    if not path.is_file():
        raise FontError(f"${ENV_USER_FONT} names {path}, which is not a file")
    try:
        with TTFont(str(path), lazy=True, fontNumber=0) as font:
            tables = set(font.keys())
    except (TTLibError, OSError) as exc:
        raise FontError(f"{path} is not a readable font: {exc}") from exc
    if "CFF " in tables or "CFF2" in tables:
        raise FontError(
            f"{path} has PostScript (CFF) outlines; reportlab can only embed TrueType "
            "outlines. Use a .ttf font, or unset "
            f"${ENV_USER_FONT} to use the bundled Noto Sans CJK."
        )
    if "glyf" not in tables:
        raise FontError(f"{path} has no TrueType outlines ('glyf' table)")


def _user_fonts(regular_path: Path, bold_path: Path) -> FontSet:
    for path in (regular_path, bold_path):
        _check_user_font(path)
    identities = (_source_identity(regular_path), _source_identity(bold_path))
    regular, bold = _register(
        (f"{REGULAR_NAME}User", regular_path, identities[0]),
        (f"{BOLD_NAME}User", bold_path, identities[1]),
    )
    return FontSet(
        regular=regular,
        bold=bold,
        regular_path=regular_path,
        bold_path=bold_path,
        coverage=_coverage(regular_path) & _coverage(bold_path),
        identity=_key("user", *identities),
    )


# ------------------------------------------------------------------ growing fonts


class _Family:
    """The regular and bold fonts of one process, registered once and grown on demand.

    reportlab measures (`stringWidth`) and encodes (`splitString`) text through the font
    object; the grown fonts take in each character on first sight, converting its glyph if
    the store lacks it, and rebuild their TrueType data before a document embeds them
    (`addObjects`).  So a character nobody passed to `prepare_cjk_fonts` is still drawn,
    never tofu.  A PDF's bytes do not depend on when a character came in (see the module
    docstring).
    """

    def __init__(self, source: Path, directory: Path) -> None:
        self.store = _GlyphStore(source, directory)
        self.directory = directory
        self.codepoints: set[int] = set()  # in the fonts
        self.absent: set[int] = set()  # asked for, but the source has no glyph
        self.settled: set[int] = set()  # in the fonts, absent, or control characters
        self.fonts: dict[str, Any] = {}
        self.paths: dict[str, Path] = {}
        self.identity = _key(self.store.identity, *STYLES)
        self.current: FontSet | None = None

    def need(self, text: str | Collection[str]) -> bool:
        """Take in the drawable characters of `text`; True when any was new."""
        if self.settled.issuperset(map(ord, text)):  # the common case, without the lock
            return False
        with _lock:
            return self._take_in(set(map(ord, text)) - self.settled)

    def _take_in(self, unseen: set[int]) -> bool:
        # Spaces are glyphs too (their advance); only control characters are not.
        control = {cp for cp in unseen if unicodedata.category(chr(cp)) == "Cc"}
        self.settled |= control
        new = sorted(unseen - control)
        if not new:
            return False
        self.store.ensure(new)
        self.settled.update(new)
        from pnp.render.reportlab_adapter import teach_glyph

        for codepoint in new:
            stored = [self.store.glyphs[style][codepoint] for style in STYLES]
            if any(glyph is None for glyph in stored):
                self.absent.add(codepoint)
                continue
            self.codepoints.add(codepoint)
            for style, glyph in zip(STYLES, stored, strict=True):
                font = self.fonts.get(style)
                if font is not None and glyph is not None:
                    # Measured now; the glyph itself is embedded after `rebuild`.
                    teach_glyph(font, codepoint, glyph[0])
                    font.stale = True
        return True

    def write_files(self) -> None:
        """Save new glyphs, and the fonts as they are now to the cache (for tools that
        read the file, such as the gallery's web font)."""
        self.store.save()
        chars = "".join(chr(cp) for cp in sorted(self.codepoints))
        self.paths = build_fonts(self.store.source, chars, self.directory, self.store)

    def reload(self) -> None:
        """Point the registered fonts at the files just written (no rebuild needed)."""
        from reportlab.pdfbase.ttfonts import TTFontFace

        for style, font in self.fonts.items():
            if font.stale:
                font.face = TTFontFace(str(self.paths[style]), validate=0)
                font.stale = False

    def rebuild(self, font: Any) -> None:
        """Give `font` the glyphs taken in since it was loaded (from the cache when a
        previous run drew the same characters)."""
        with _lock:
            if font.stale:
                self.write_files()
                self.reload()


@cache
def _growing_font_class() -> type:
    from reportlab.pdfbase.ttfonts import TTFont

    class GrowingTTFont(TTFont):
        """A reportlab TrueType font that takes in every character it is asked about."""

        family: _Family
        style: str
        stale: bool = False

        def stringWidth(self, text: Any, size: float, encoding: str = "utf8") -> float:
            if isinstance(text, str):
                self.family.need(text)
            return float(super().stringWidth(text, size, encoding))

        def splitString(self, text: Any, doc: Any, encoding: str = "utf-8") -> Any:
            if isinstance(text, str):
                self.family.need(text)
            return super().splitString(text, doc, encoding)

        def addObjects(self, doc: Any) -> None:
            self.family.rebuild(self)
            super().addObjects(doc)

    return GrowingTTFont


def _registered_family(source: Path, directory: Path, text: str) -> _Family:
    from reportlab.pdfbase import pdfmetrics

    family = _Family(source, directory)
    family.need(base_charset() + text)  # one batch: the first run converts once
    family.write_files()
    cls = _growing_font_class()
    names = {}
    for style, preferred in (("regular", REGULAR_NAME), ("bold", BOLD_NAME)):
        suffix = _key(family.identity, str(directory))[:8]
        name = preferred if preferred not in _registered else f"{preferred}-{suffix}"
        if name in _registered:
            raise FontError(f"cannot register the fonts: the names {preferred}-* are taken")
        font = cls(name, str(family.paths[style]))
        font.family, font.style = family, style
        pdfmetrics.registerFont(font)
        _registered[name] = family.identity
        family.fonts[style] = font
        names[style] = name
    pdfmetrics.registerFontFamily(
        names["regular"],
        normal=names["regular"],
        bold=names["bold"],
        italic=names["regular"],
        boldItalic=names["bold"],
    )
    return family


_lock = threading.RLock()
_user_prepared: dict[tuple[str, str], FontSet] = {}
# (cache directory, source) -> the growing fonts of this process.
_families: dict[tuple[str, str], _Family] = {}


def prepare_cjk_fonts(extra_chars: str = "") -> FontSet:
    """Register the Chinese fonts with reportlab and return their names.

    The fonts hold the base set (`base_charset`) and `extra_chars`, and take in any other
    character drawn with them (see `_Family`); passing the text up front only saves
    rebuilding the font data later.  The first call on a machine converts the glyphs it
    needs (logged on ``pnp.fonts``); later ones find them in the glyph store.  A call that
    adds no character returns the same FontSet as the last one.
    """
    user = os.environ.get(ENV_USER_FONT)
    if user:
        user_bold = os.environ.get(ENV_USER_FONT_BOLD) or user
        with _lock:
            found = _user_prepared.get((user, user_bold))
            if found is None:
                found = _user_fonts(Path(user).expanduser(), Path(user_bold).expanduser())
                _user_prepared[(user, user_bold)] = found
            return found
    source = _require_source()
    directory = _writable(cache_dir())
    with _lock:
        family = _families.get((str(directory), str(source)))
        if family is None:
            family = _families[(str(directory), str(source))] = _registered_family(
                source, directory, extra_chars
            )
        grew = family.need(extra_chars)
        # Files another process pruned from the cache while these fonts lived on in memory
        # (readers such as the gallery and the table's web font use the files).
        current = family.current
        pruned = current is not None and not (
            current.regular_path.exists() and current.bold_path.exists()
        )
        if current is not None and not grew and not pruned:
            for path in (current.regular_path, current.bold_path):
                _mark_used(path)
        if grew or pruned or current is None:
            family.write_files()
            family.reload()
            current = family.current = FontSet(
                regular=family.fonts["regular"].fontName,
                bold=family.fonts["bold"].fontName,
                regular_path=family.paths["regular"],
                bold_path=family.paths["bold"],
                coverage=frozenset(family.codepoints),
                lacking=frozenset(chr(cp) for cp in family.absent),
                identity=family.identity,
                family=family,
            )
        return current
