"""CJK fonts for reportlab: Noto Sans CJK, Simplified forms, converted to TrueType outlines.

reportlab embeds (and subsets) only TrueType-outlined fonts, while the Noto Sans CJK
wheels on PyPI ship CFF-outlined OpenType.  So on first use the OTF is subset to the
characters a kit can need, its cmap is pointed at the Simplified-Chinese glyph forms
(the wheels carry the Traditional-Chinese build, whose default glyphs differ for many
hanzi and for the placement of ，。、), and the outlines are converted to quadratic
curves.  The result is cached on disk, keyed by everything that decides its bytes.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import io
import os
import tempfile
import threading
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from pnp.errors import FontError

# Bump whenever the conversion changes what it writes: the number is part of the
# cache key, so old cached fonts are simply never looked at again.
CONVERTER_VERSION = "1"

REGULAR_NAME = "PnpSans"
BOLD_NAME = "PnpSans-Bold"

# Environment overrides.
ENV_CACHE_DIR = "PNP_FONT_CACHE"
ENV_USER_FONT = "PNP_CJK_FONT"
ENV_USER_FONT_BOLD = "PNP_CJK_FONT_BOLD"

# cu2qu tolerance in font units (1000/em): 1 unit is 0.004 mm at 10 pt, far below print
# resolution, and larger tolerances barely shrink the file.
_MAX_ERR = 1.0

# (import name of the wheel's package, font file inside it, pip distribution name)
_SOURCES: dict[str, tuple[str, str, str]] = {
    "regular": (
        "cvttf_NotoSansCJK_Regular",
        "NotoSansCJKtc-Regular.otf",
        "cvttf-notosanscjk-regular",
    ),
    "bold": ("cvttf_NotoSansCJK_Bold", "NotoSansCJKtc-Bold.otf", "cvttf-notosanscjk-bold"),
}

# Simplified-Chinese glyph forms live behind the `locl` feature of language ZHS.  The
# latin/kana/hangul scripts carry their own copies of the (punctuation) substitutions.
_LOCL_SCRIPTS = ("hani", "latn", "kana", "hang")
_LOCL_LANGUAGE = "ZHS "

# Tables the PDF never uses.  Layout tables go because reportlab does no shaping (and
# GSUB closure would pull thousands of unreachable glyphs into the subset), vertical
# tables because reportlab only sets horizontal text.
_DROP_TABLES = (
    "GSUB",
    "GPOS",
    "GDEF",
    "BASE",
    "JSTF",
    "MATH",
    "VORG",
    "vhea",
    "vmtx",
    "DSIG",
)

_HEAD = 1024 * 1024  # bytes hashed from each end of a source font


@dataclass(frozen=True)
class FontSet:
    """The reportlab font names to draw Chinese with, and what they can show."""

    regular: str
    bold: str
    regular_path: Path
    bold_path: Path
    # Code points both faces can draw; a character outside it would print as tofu.
    coverage: frozenset[int] = field(repr=False)
    # Characters that were asked for but the source font has no glyph for.
    lacking: frozenset[str] = field(default=frozenset(), repr=False)

    def covers(self, char: str) -> bool:
        return ord(char) in self.coverage

    def missing(self, text: str) -> set[str]:
        """The characters of `text` these fonts cannot draw (whitespace never counts).

        A character outside the base set that was not passed to `prepare_cjk_fonts` as
        an extra character is missing too, even if the source font has it.
        """
        return {
            ch
            for ch in set(text)
            if ord(ch) not in self.coverage
            and not ch.isspace()
            and unicodedata.category(ch) != "Cc"
        }


# --------------------------------------------------------------------------- charset


def _gb2312() -> str:
    """Every character of GB2312 (symbols and both levels of hanzi), in code order."""
    chars: list[str] = []
    for high in range(0xA1, 0xF8):
        for low in range(0xA1, 0xFF):
            try:
                chars.append(bytes((high, low)).decode("gb2312"))
            except UnicodeDecodeError:
                continue
    return "".join(chars)


def _span(first: int, last: int) -> str:
    return "".join(chr(cp) for cp in range(first, last + 1))


@cache
def base_charset() -> str:
    """The characters every built font covers (if the source has them), sorted."""
    parts = [
        _span(0x20, 0x7E),  # ASCII printable
        _span(0xA0, 0xBF),  # Latin-1 punctuation and signs
        "×÷",
        _gb2312(),
        _span(0x3000, 0x303F),  # CJK symbols and punctuation
        _span(0xFF00, 0xFFEF),  # full-width and half-width forms
        _span(0x2010, 0x2044),  # general punctuation: dashes, quotes, ellipsis, bullet
        _span(0x2190, 0x21FF),  # arrows
        "±×÷−≤≥∞≠≈",
        "♠♥♣♦♤♡♧♢",
        "☆★",
        _span(0x2460, 0x2473),  # ①–⑳
        _span(0x2776, 0x277F),  # ❶–❿, for numbered steps on dark grounds
        _span(0x3251, 0x325F),  # ㉑–㉟
        _span(0x32B1, 0x32BF),  # ㊱–㊿
        "✓♪♫",
        _span(0x25A0, 0x25FF),  # geometric shapes
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


def _source_identity(path: Path) -> str:
    """A cheap content fingerprint: size plus the first and last megabyte.

    mtime would change on every reinstall of an identical wheel, and hashing all
    16 MB on every process start is wasted work.
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


def _cache_key(source: Path, charset: str) -> str:
    digest = hashlib.sha256()
    digest.update(CONVERTER_VERSION.encode())
    digest.update(b"\0")
    digest.update(_source_identity(source).encode())
    digest.update(b"\0")
    digest.update("".join(sorted(set(charset))).encode("utf-8"))
    return digest.hexdigest()[:20]


# ------------------------------------------------------------------- locating fonts


def _locate_source(style: str) -> Path | None:
    """The bundled OTF for `style`, found without importing the wheel's package."""
    module, filename, dist = _SOURCES[style]
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        spec = None
    if spec is not None and spec.submodule_search_locations:
        for location in spec.submodule_search_locations:
            candidate = Path(location) / filename
            if candidate.is_file():
                return candidate
    # The wheel also drops a copy next to the interpreter prefix; metadata finds
    # whichever copy is actually installed.
    try:
        files = importlib.metadata.files(dist) or []
    except importlib.metadata.PackageNotFoundError:
        return None
    for entry in files:
        if entry.name == filename:
            candidate = Path(str(entry.locate()))
            if candidate.is_file():
                return candidate
    return None


def _require_source(style: str) -> Path:
    path = _locate_source(style)
    if path is None:
        _, filename, dist = _SOURCES[style]
        raise FontError(
            f"The {style} CJK font ({filename}, Noto Sans CJK) is not installed. "
            f"Install it with: pip install {dist}  "
            f"(or point ${ENV_USER_FONT} at a TrueType font with Chinese glyphs)."
        )
    return path


# ------------------------------------------------------------------------ conversion


def _locl_substitutions(font: Any) -> dict[str, str]:
    """glyph -> Simplified-Chinese glyph, from the ZHS `locl` single substitutions."""
    if "GSUB" not in font:
        return {}
    gsub = font["GSUB"].table
    if gsub.ScriptList is None or gsub.FeatureList is None or gsub.LookupList is None:
        return {}
    features = gsub.FeatureList.FeatureRecord
    lookup_indices: list[int] = []
    for script in gsub.ScriptList.ScriptRecord:
        if script.ScriptTag not in _LOCL_SCRIPTS:
            continue
        for lang in script.Script.LangSysRecord:
            if lang.LangSysTag != _LOCL_LANGUAGE:
                continue
            for index in lang.LangSys.FeatureIndex:
                if features[index].FeatureTag == "locl":
                    for lookup in features[index].Feature.LookupListIndex:
                        if lookup not in lookup_indices:
                            lookup_indices.append(lookup)
    mapping: dict[str, str] = {}
    for index in sorted(lookup_indices):
        lookup = gsub.LookupList.Lookup[index]
        for sub in lookup.SubTable:
            if lookup.LookupType == 7:  # extension: the real subtable sits inside
                sub = sub.ExtSubTable
            # Only single substitutions re-map a character to one other glyph; the
            # first lookup to claim a glyph wins, as it would when shaping.
            for source, target in (getattr(sub, "mapping", None) or {}).items():
                mapping.setdefault(source, target)
    return mapping


def _remap_cmap(font: Any, substitutions: Mapping[str, str]) -> None:
    for table in font["cmap"].tables:
        if table.format == 14:  # variation sequences: not used by reportlab
            continue
        table.cmap = {cp: substitutions.get(glyph, glyph) for cp, glyph in table.cmap.items()}
    # Variation-sequence tables point at TC glyphs we no longer want to keep.
    font["cmap"].tables = [t for t in font["cmap"].tables if t.format != 14]


def _subset(font: Any, codepoints: Iterable[int]) -> None:
    from fontTools import subset

    options = subset.Options()
    options.layout_features = []
    options.drop_tables = [*options.drop_tables, *_DROP_TABLES]
    options.name_IDs = ["*"]  # keep copyright and the OFL text
    options.name_languages = ["*"]
    options.name_legacy = True
    options.notdef_outline = True
    options.glyph_names = True
    options.hinting = False  # CFF hints do not survive the conversion anyway
    options.recalc_timestamp = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=codepoints)
    subsetter.subset(font)


def _cff_to_glyf(font: Any) -> None:
    """Replace the CFF outlines with quadratic TrueType ones (the fontTools otf2ttf recipe)."""
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import newTable

    order = font.getGlyphOrder()
    glyph_set = font.getGlyphSet()
    glyphs = {}
    for name in order:
        tt_pen = TTGlyphPen(glyph_set)
        # PostScript contours run counter-clockwise, TrueType ones clockwise.
        glyph_set[name].draw(Cu2QuPen(tt_pen, _MAX_ERR, reverse_direction=True))
        glyphs[name] = tt_pen.glyph()

    font["loca"] = newTable("loca")
    glyf = font["glyf"] = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = glyphs
    del font["CFF "]
    glyf.compile(font)  # computes each glyph's bounds

    # TrueType left side bearings must equal xMin.
    hmtx = font["hmtx"]
    for name, glyph in glyphs.items():
        advance = hmtx.metrics[name][0]
        hmtx.metrics[name] = (advance, getattr(glyph, "xMin", 0))

    maxp = font["maxp"] = newTable("maxp")
    maxp.tableVersion = 0x00010000
    maxp.maxZones = 1
    maxp.maxTwilightPoints = 0
    maxp.maxStorage = 0
    maxp.maxFunctionDefs = 0
    maxp.maxInstructionDefs = 0
    maxp.maxStackElements = 0
    maxp.maxSizeOfInstructions = 0
    maxp.maxComponentElements = 0
    maxp.numGlyphs = len(order)
    maxp.compile(font)  # fills in the point and contour maxima from glyf

    post = font["post"]
    post.formatType = 2.0
    post.extraNames = []
    post.mapping = {}
    post.glyphOrder = order
    try:
        post.compile(font)
    except OverflowError:
        post.formatType = 3.0  # too many names for format 2: drop them

    font["head"].glyphDataFormat = 0
    font.sfntVersion = "\x00\x01\x00\x00"


def convert_font(source: Path, charset: str) -> bytes:
    """Build the TrueType subset of `source` for `charset`: deterministic bytes."""
    from fontTools.ttLib import TTFont

    font = TTFont(str(source), recalcTimestamp=False)
    if "CFF2" in font:
        raise FontError(f"{source}: variable CFF2 fonts are not supported")
    _remap_cmap(font, _locl_substitutions(font))
    _subset(font, sorted({ord(ch) for ch in charset}))
    if "CFF " in font:
        _cff_to_glyf(font)
    head = font["head"]
    # The source's creation date, not "now": identical inputs must give identical bytes.
    head.modified = head.created
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


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


def build_font_file(source: Path, charset: str, directory: Path, stem: str) -> Path:
    """The cached TrueType conversion of `source` for `charset`, built if absent."""
    path = directory / f"{stem}-{_cache_key(source, charset)}.ttf"
    if not _looks_like_truetype(path):
        _write_atomically(path, convert_font(source, charset))
    return path


def _looks_like_truetype(path: Path) -> bool:
    try:
        with path.open("rb") as stream:
            return stream.read(4) == b"\x00\x01\x00\x00"
    except OSError:
        return False


# ------------------------------------------------------------------ registration


def _coverage(path: Path) -> frozenset[int]:
    from fontTools.ttLib import TTFont

    with TTFont(str(path), lazy=True, fontNumber=0) as font:
        return frozenset(font.getBestCmap() or {})


@cache
def _source_cmap(source: Path) -> frozenset[int]:
    from fontTools.ttLib import TTFont

    with TTFont(str(source), lazy=True) as font:
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
            return name  # parsing a 2 MB font again would only cost time
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
    regular, bold = _register(
        (f"{REGULAR_NAME}User", regular_path, _source_identity(regular_path)),
        (f"{BOLD_NAME}User", bold_path, _source_identity(bold_path)),
    )
    return FontSet(
        regular=regular,
        bold=bold,
        regular_path=regular_path,
        bold_path=bold_path,
        coverage=_coverage(regular_path) & _coverage(bold_path),
    )


def _bundled_fonts(sources: Mapping[str, Path], extra: str) -> FontSet:
    charset = base_charset()
    suffix = ""
    if extra:
        charset = "".join(sorted(set(charset + extra)))
        suffix = "-" + _cache_key(sources["regular"], charset)[:8]
    directory = cache_dir()
    paths = {
        style: build_font_file(source, charset, directory, f"PnpSans-{style}")
        for style, source in sources.items()
    }
    regular, bold = _register(
        (REGULAR_NAME + suffix, paths["regular"], paths["regular"].stem),
        (BOLD_NAME + suffix, paths["bold"], paths["bold"].stem),
    )
    coverage = _coverage(paths["regular"]) & _coverage(paths["bold"])
    return FontSet(
        regular=regular,
        bold=bold,
        regular_path=paths["regular"],
        bold_path=paths["bold"],
        coverage=coverage,
        lacking=frozenset(ch for ch in charset if ord(ch) not in coverage),
    )


_lock = threading.Lock()
_prepared: dict[tuple[str, ...], FontSet] = {}


def _wanted_extra(extra_chars: str, sources: Mapping[str, Path]) -> str:
    """The extra characters worth a font of their own: not in the base set, drawable."""
    if not extra_chars:
        return ""
    base = set(base_charset())
    wanted = {
        ch
        for ch in extra_chars
        if ch not in base and not ch.isspace() and unicodedata.category(ch) != "Cc"
    }
    if not wanted:
        return ""
    # Characters the sources lack would only rebuild an identical font.
    available = _source_cmap(sources["regular"]) & _source_cmap(sources["bold"])
    return "".join(sorted(ch for ch in wanted if ord(ch) in available))


def prepare_cjk_fonts(extra_chars: str = "") -> FontSet:
    """Register the Chinese fonts with reportlab and return their names.

    The first call in a process may convert the bundled Noto Sans CJK (slow, once per
    machine thanks to the disk cache); later calls with the same extra characters
    return the same FontSet at once.  `extra_chars` may name characters outside the
    base set (GB2312 and common symbols); a font covering them is built on demand.
    """
    user = os.environ.get(ENV_USER_FONT)
    if user:
        user_bold = os.environ.get(ENV_USER_FONT_BOLD) or user
        key: tuple[str, ...] = ("user", user, user_bold)
    else:
        sources = {style: _require_source(style) for style in _SOURCES}
        key = ("bundled", str(cache_dir()), _wanted_extra(extra_chars, sources))
    with _lock:
        found = _prepared.get(key)
        if found is None:
            if user:
                found = _user_fonts(Path(user).expanduser(), Path(user_bold).expanduser())
            else:
                found = _bundled_fonts(sources, key[2])
            _prepared[key] = found
        return found
