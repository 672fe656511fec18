"""Chinese paragraphs that fit a box: line breaking with kinsoku rules, shrink-to-fit.

reportlab's CJK wrapping breaks between any two characters, knows only Japanese
line-start rules, lets a closing mark hang past the right edge, never keeps an
opening bracket off a line end, and cannot justify text without spaces.  Cards have
hard edges, so `CJKParagraph` re-implements the breaking (never wider than the box,
Chinese rules both ways, Latin words kept whole) and justifies by letter spacing.
"""

from __future__ import annotations

import contextlib
import contextvars
import math
import re
import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Literal
from xml.sax.saxutils import escape

from reportlab.lib.colors import HexColor
from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_LEFT, TA_RIGHT
from reportlab.lib.rl_accel import escapePDF, fp_str, sameFrag
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import getAscentDescent, getFont, stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.textobject import rtlSupport

from pnp.model.icons import INLINE_ICON, Icon
from pnp.render.deferred import link_pattern_deferred
from pnp.render.icons import ICON_CALLBACK, INLINE_ADVANCE, prepare_canvas
from pnp.render.reportlab_adapter import (
    LAYOUT_FUZZ,
    JustifyLine,
    begin_line_fragments,
    cannot_start_line,
    colour_space_enforced,
    draw_line_fragments,
    end_line_fragments,
    extend_line_breaking_rules,
    fill_is_opaque,
    install_justify,
    is_growable_truetype,
    operators,
    pdf_document,
)

with link_pattern_deferred():
    from reportlab.platypus.paragraph import FragLine, Paragraph, ParaLines, cjkU

Align = Literal["left", "center", "right", "justify"]
VAlign = Literal["top", "middle", "bottom"]

# Marks that must not begin a line (closing punctuation, pauses, ellipsis and dash,
# whose two halves must stay together, the percent sign after its number).
NO_LINE_START = "，。、；：？！）》」』】〉〕］｝〗〙〛”’…—·％～" + ",.;:?!)]}%"
# Marks that must not end a line: opening brackets and quotes.
NO_LINE_END = "（《「『【〈〔［｛〖〘〚“‘" + "([{"

# Top of the ideographic em box above the baseline, as a fraction of the size
# (880/1000 in Noto Sans CJK / Source Han Sans; other CJK fonts sit close to it).
_EM_ASCENT = 0.88

_ALIGNMENTS: dict[str, int] = {
    "left": TA_LEFT,
    "center": TA_CENTER,
    "right": TA_RIGHT,
    "justify": TA_JUSTIFY,
}
_SIZE_STEP = 0.5


# `CJKParagraph` applies its own rules; this covers plain reportlab Paragraphs with
# wordWrap='CJK' elsewhere in the project.
extend_line_breaking_rules(NO_LINE_START, NO_LINE_END)


# ------------------------------------------------------------------- line breaking


def _is_word_char(ch: str) -> bool:
    # Latin, Greek, Cyrillic and their punctuation: runs of these are words, which
    # break only at spaces.  General punctuation (U+2000 up) follows the mark tables.
    return ch < "\u2000" and not ch.isspace()


def _may_break(before: str, after: str) -> bool:
    """Whether a line may end after `before` and the next begin with `after`."""
    if not before or not after:  # zero-width markers (images, anchors)
        return True
    if after in NO_LINE_START or before in NO_LINE_END:
        return False
    if after.isspace():  # break after the space, so it trails and is dropped
        return False
    if before.isspace():
        return True
    return not (_is_word_char(before) and _is_word_char(after))


def _width(u: Any, max_width: float) -> float:
    w = u.width
    if hasattr(w, "normalizedValue"):  # a percentage width of an inline image
        w._normalizer = max_width
        w = w.normalizedValue(max_width)
    return float(w)


def _make_line(
    units: list[Any], widths: list[float], max_width: float, line_break: bool, style: ParagraphStyle
) -> Any:
    end = len(units)
    while end and units[end - 1] and units[end - 1].isspace():
        end -= 1  # trailing spaces would push right/centre/justified text off true
    kept = units[:end] if end else units[:0]
    used = sum(widths[:end]) if end else 0
    line = _cjk_para_line(kept, max_width, used, max_width - used, line_break)
    # Share each leading's slack above and below the em box, as CSS does, so a block
    # is optically centred in its box instead of sitting low.
    size = line.fontSize or style.fontSize
    line.ascent = (style.leading - size) / 2 + _EM_ASCENT * size
    line.descent = line.ascent - style.leading
    line.pnp_glyphs = _glyphs_to_space(kept)
    return line


def _cjk_para_line(
    units: list[Any], max_width: float, used: float, extra: float, line_break: bool
) -> Any:
    """reportlab's ``makeCJKParaLine(units, max_width, used, extra, line_break, False)``,
    the same line, with each run of characters of one fragment measured and compared once
    instead of once per character (a fragment is the same as itself unless it is an image
    or a line break, which reportlab's ``sameFrag`` never calls the same)."""
    words: list[Any] = []
    characters: list[str] = []
    current = FragLine()
    max_size = max_ascent = min_descent = 0.0
    previous: Any = None
    for unit in units:
        frag = unit._frag
        if frag is not previous:
            # An image or a line break is never the same as itself: each is its own word.
            kind = frag.__dict__
            previous = None if "cbDefn" in kind or "lineBreak" in kind else frag
            size = frag.fontSize
            ascent, descent = getAscentDescent(frag.fontName, size)
            max_size = max(max_size, size)
            max_ascent = max(max_ascent, ascent)
            min_descent = min(min_descent, descent)
            if not sameFrag(current, frag):
                current = current.clone()
                current.text = "".join(characters)
                words.append(current)
                characters = []
                current = frag
        characters.append(unit)
    if characters:
        current = current.clone()
        current.text = "".join(characters)
        words.append(current)
    return FragLine(
        kind=1,
        extraSpace=extra,
        wordCount=1,
        words=words[1:],
        fontSize=max_size,
        ascent=max_ascent,
        descent=min_descent,
        maxWidth=max_width,
        currentWidth=used,
        lineBreak=line_break,
    )


_CHAR_WIDTHS: dict[tuple[str, float], dict[str, float]] = {}
"""Each character's width by font and size, measured once per process: a font name never
changes meaning within a process (see fonts.py), and measuring goes through its Python."""


def _units(frags: list[Any]) -> tuple[list[Any], list[float | None], list[bool]]:
    """The characters of `frags` as reportlab's ``cjkU`` strings (a character with its
    fragment and width); their widths (None where it depends on the line: an inline image
    sized in percent); and which end a line (a ``<br/>``). A character is measured once per
    font and size (`_CHAR_WIDTHS`)."""
    units: list[Any] = []
    widths: list[float | None] = []
    breaks: list[bool] = []
    new_unit = str.__new__
    for frag in frags:
        text = frag.text
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        ends_line = hasattr(frag, "lineBreak")
        if not text or hasattr(frag, "cbDefn"):
            made = [cjkU(ch, frag, "utf8") for ch in text] if text else [cjkU(text, frag, "utf8")]
            units += made
            widths += [
                None if hasattr(u.width, "normalizedValue") else float(u.width) for u in made
            ]
            breaks += [ends_line] * len(made)
            continue
        font, size = frag.fontName, frag.fontSize
        measured = _CHAR_WIDTHS.get((font, size))
        if measured is None:
            measured = _CHAR_WIDTHS[font, size] = {}
        for ch in text:
            width = measured.get(ch)
            if width is None:
                width = measured[ch] = stringWidth(ch, font, size)
            # cjkU(ch, frag, "utf8"), the same object, without its constructor's lookups.
            unit = new_unit(cjkU, ch)
            unit._frag = frag
            unit._width = width
            units.append(unit)
            widths.append(width)
        breaks += [ends_line] * len(text)
    return units, widths, breaks


KEYWORD_BRACKETS = ("【", "】")
"""A keyword the cards quote (【锁定】) reads as one sign: a line does not break inside it."""

_LONGEST_HELD = 8
"""Characters between the brackets up to which they are kept on one line (a longer span is
a phrase, and a line too narrow for it must break somewhere)."""


def _held_together(units: list[Any]) -> list[bool]:
    """For each unit, whether the line may not break just before it: inside a short
    bracketed keyword."""
    held = [False] * (len(units) + 1)
    opened: int | None = None
    for index, unit in enumerate(units):
        if unit == KEYWORD_BRACKETS[0]:
            opened = index
        elif unit == KEYWORD_BRACKETS[1] and opened is not None:
            if index - opened - 1 <= _LONGEST_HELD:
                for inner in range(opened + 1, index + 1):
                    held[inner] = True
            opened = None
    return held


def _split_cjk(frags: list[Any], max_widths: list[float], style: ParagraphStyle) -> Any:
    units, known, breaks = _units(frags)
    lines: list[Any] = []

    def line_width() -> float:
        return max_widths[min(len(lines), len(max_widths) - 1)]

    def widths(begin: int, end: int, max_width: float) -> list[float]:
        found = known[begin:end]
        if None in found:
            return [_width(u, max_width) for u in units[begin:end]]
        return found  # type: ignore[return-value]

    start = i = 0
    used = 0.0
    count = len(units)
    held: list[bool] | None = None  # worked out at the first line that needs a break
    while i < count:
        max_width = line_width()
        if breaks[i]:
            end = i + 1
            lines.append(
                _make_line(units[start:end], widths(start, end, max_width), max_width, True, style)
            )
            start = i = end
            used = 0.0
            continue
        w = known[i]
        if w is None:
            w = _width(units[i], max_width)
        if used + w <= max_width + LAYOUT_FUZZ or i == start:
            used += w
            i += 1
            continue
        # units[i] does not fit: end the line at the last legal break at or before i.
        if held is None:
            held = _held_together(units)
        cut = next(
            (j for j in range(i, start, -1) if not held[j] and _may_break(units[j - 1], units[j])),
            i,
        )
        lines.append(
            _make_line(units[start:cut], widths(start, cut, max_width), max_width, False, style)
        )
        start = cut
        while start < count and units[start] and units[start].isspace():
            start += 1
        i = max(i, start)
        used = sum(widths(start, i, line_width()))
    if start < count:
        max_width = line_width()
        lines.append(
            _make_line(units[start:], widths(start, count, max_width), max_width, False, style)
        )
    return ParaLines(kind=1, lines=lines)


def _reportlab_cjk_split(frags: list[Any], max_widths: list[float] | tuple[float, ...]) -> Any:
    """reportlab's ``cjkFragSplit(frags, max_widths, False)`` — its rules, its lines — with
    the characters measured once per fragment and each line built by `_cjk_para_line`."""
    units, known, breaks = _units(frags)
    lines: list[Any] = []
    i = line_start = 0
    used: float = 0
    max_width = max_widths[0]
    count = len(units)
    while i < count:
        u = units[i]
        i += 1
        w = known[i - 1]
        if w is None:
            w = _width(u, max_width)
        used += w
        line_break = breaks[i - 1]
        if (used > max_width + LAYOUT_FUZZ and used > 0) or line_break:
            extra = max_width - used
            if not line_break:
                if ord(u) < 0x3000:
                    # Inside a run of Latin: go back to a space or an ideograph, or to half
                    # way along the line.
                    for j in range(i - 1, (line_start + i) >> 1, -1):
                        uj = units[j]
                        if (uj and unicodedata.category(uj) == "Zs") or ord(uj) >= 0x3000:
                            k = j + 1
                            if k < i:
                                j = k + 1
                                extra += sum(units[ii].width for ii in range(j, i))
                                w = units[k].width
                                u = units[k]
                                i = j
                                break
                # A mark that cannot start a line hangs in the margin; anything else moves on.
                if not cannot_start_line(u) and i > line_start + 1:
                    i -= 1
                    extra += w
            lines.append(_cjk_para_line(units[line_start:i], max_width, used, extra, line_break))
            max_width = max_widths[min(len(lines), len(max_widths) - 1)]
            line_start = i
            used = 0
    if used > 0:
        lines.append(_cjk_para_line(units[line_start:], max_width, used, max_width - used, False))
    return ParaLines(kind=1, lines=lines)


class WrappedOnce(Paragraph):
    """A reportlab Paragraph (wordWrap='CJK') that breaks its lines once per width: it is
    wrapped again and again at the same widths (a table measures its cells, a frame wraps
    before it draws, a rulebook lays out twice for its contents), and the lines depend on
    the widths and the fragments alone. It breaks them with reportlab's own rules, a
    paragraph of several fragments faster (`_reportlab_cjk_split`); `CJKParagraph` breaks
    them with Chinese rules."""

    def __init__(
        self, text: str, style: ParagraphStyle, *args: Any, icons: IconMap | None = None, **kw: Any
    ) -> None:
        super().__init__(text, style, *args, **kw)
        if text and ("[[" in text or ICON_CALLBACK in text):
            _size_inline_icons(self.frags, _INLINE_ICONS.get() if icons is None else icons)

    # reportlab's method name, overridden to break each width once.
    def breakLinesCJK(self, maxWidths: Any) -> Any:
        if hasattr(self, "blPara") and getattr(self, "_splitpara", False):
            return self._split_part_lines(maxWidths)
        key = (
            tuple(maxWidths) if isinstance(maxWidths, list | tuple) else (maxWidths,),
            id(self.frags),
            self.bulletText,
        )
        broken: dict[tuple[Any, ...], Any] = self.__dict__.setdefault("_pnp_broken", {})
        lines = broken.get(key)
        if lines is None:
            lines = broken[key] = self._break(maxWidths)
        else:
            self.height = 0  # as breaking does
        return lines

    def _split_part_lines(self, max_widths: Any) -> Any:
        """The lines of a part split off a paragraph (it keeps its lines)."""
        return super().breakLinesCJK(max_widths)

    def _break(self, max_widths: Any) -> Any:
        style = self.style
        frags = self.frags
        if (
            len(frags) < 2
            or self.bulletText
            or style.endDots
            or getattr(self, "autoLeading", getattr(style, "autoLeading", "")) not in ("", "off")
        ):
            return super().breakLinesCJK(max_widths)
        self.height = 0
        widths = max_widths if isinstance(max_widths, list | tuple) else [max_widths]
        return _reportlab_cjk_split(frags, widths)


class CJKParagraph(WrappedOnce):
    """A reportlab Paragraph with Chinese line breaking (style.wordWrap must be 'CJK')."""

    def _split_part_lines(self, max_widths: Any) -> Any:
        return self.blPara

    def _break(self, max_widths: Any) -> Any:
        style = self.style
        self.height = 0
        if not self.frags:
            return ParaLines(
                kind=0,
                fontSize=style.fontSize,
                fontName=style.fontName,
                textColor=style.textColor,
                lines=[],
                ascent=style.fontSize,
                descent=-0.2 * style.fontSize,
            )
        widths = list(max_widths) if isinstance(max_widths, list | tuple) else [max_widths]
        return _split_cjk(self.frags, widths, style)


def _letter_spaced(reportlab_justify: JustifyLine) -> JustifyLine:
    def justify_line(tx: Any, offset: float, line: Any, last: int = 0) -> None:
        """Justify our lines by letter spacing: Chinese has no spaces to stretch."""
        glyphs = getattr(line, "pnp_glyphs", None)
        if glyphs is None:
            reportlab_justify(tx, offset, line, last)
            return
        extra = line.extraSpace
        begin_line_fragments(tx, offset)
        if glyphs > 1 and not last and not line.lineBreak and extra > 1e-8:
            # Tc also follows the last glyph, which is harmless: nothing is drawn after it.
            tx.setCharSpace(extra / (glyphs - 1))
            draw_line_fragments(tx, offset, line, last)
            tx.setCharSpace(0)
        else:
            draw_line_fragments(tx, offset, line, last)
        end_line_fragments(tx, offset)

    return justify_line


# Lines not made by `_split_cjk` (no pnp_glyphs) still go to reportlab's own version.
install_justify(_letter_spaced)


# ------------------------------------------------------------------------- fitting


_BOLD = re.compile(r"\*\*(.+?)\*\*", re.DOTALL)


def to_markup(text: str) -> str:
    """Plain text to reportlab paragraph markup: escapes, **bold**, newlines, [[icons]]."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    markup = _BOLD.sub(r"<b>\1</b>", escape(text))
    return _icon_markup(markup.replace("\n", "<br/>"))


# ------------------------------------------------------------------- inline icons

IconMap = Mapping[str, Icon]
_NO_ICONS: IconMap = MappingProxyType({})
_INLINE_ICONS: contextvars.ContextVar[IconMap] = contextvars.ContextVar(
    "pnp_inline_icons", default=_NO_ICONS
)


@contextlib.contextmanager
def inline_icons(icons: IconMap) -> Iterator[None]:
    """Paragraphs made within the block find the icons their [[name]]s place in `icons`
    (a face's text carries its own; a rulebook's prose is made within this)."""
    token = _INLINE_ICONS.set(icons)
    try:
        yield
    finally:
        _INLINE_ICONS.reset(token)


def _icon_markup(markup: str) -> str:
    """``[[name]]`` as a zero-width drawing call the paragraph sizes (`_size_inline_icons`)."""
    if "[[" not in markup:
        return markup
    return INLINE_ICON.sub(rf'<onDraw name="{ICON_CALLBACK}" label="\1"/>', markup)


def _size_inline_icons(frags: list[Any], icons: IconMap) -> None:
    """Give each inline icon of a paragraph its advance at its text's size, and what its
    drawing needs (the icon, the size, the text's colour): the line breaker then measures
    it as a glyph of the line, and it is drawn in the colour of the words around it."""
    for frag in frags:
        defn = getattr(frag, "cbDefn", None)
        if defn is None or getattr(defn, "name", None) != ICON_CALLBACK:
            continue
        if not isinstance(defn.label, str):
            continue  # sized already: a part of a paragraph split across frames
        size = float(frag.fontSize)
        colour = "#" + frag.textColor.hexval()[2:] if frag.textColor is not None else "#000000"
        defn.width = size * INLINE_ADVANCE
        defn.label = (icons.get(defn.label), size, colour)


def _glyphs_to_space(units: list[Any]) -> int:
    """The glyphs justification spreads a line's slack over: none on a line with an inline
    icon, which is placed where reportlab's tally of the line says (letter spacing
    would run the words before it into it)."""
    glyphs = 0
    for unit in units:
        if unit:
            glyphs += 1
        elif getattr(getattr(unit._frag, "cbDefn", None), "name", None) == ICON_CALLBACK:
            return 0
    return glyphs


def _has_icons(text: str) -> bool:
    return "[[" in text and INLINE_ICON.search(text) is not None


@lru_cache(maxsize=1024)
def paragraph_style(
    font: str, size: float, leading: float, align: str, color: str
) -> ParagraphStyle:
    """A cached CJK paragraph style (styles are never mutated after creation)."""
    return ParagraphStyle(
        name=f"pnp-{font}-{size}-{leading}-{align}-{color}",
        fontName=font,
        fontSize=size,
        leading=leading,
        alignment=_ALIGNMENTS[align],
        textColor=HexColor(color),  # a colour object: a string is parsed again at every draw
        wordWrap="CJK",
        splitLongWords=False,
    )


@dataclass(frozen=True)
class FittedText:
    """A paragraph wrapped to a box, at the largest size tried that fits it."""

    paragraph: CJKParagraph
    size: float
    leading: float
    width: float  # the width it is wrapped to
    height: float  # the wrapped height
    overflow: bool  # True when even the smallest size does not fit

    @property
    def lines(self) -> int:
        return len(getattr(self.paragraph.blPara, "lines", []))


def _widest_line(paragraph: Paragraph) -> float:
    lines = getattr(paragraph.blPara, "lines", [])
    return max((getattr(line, "currentWidth", 0.0) for line in lines), default=0.0)


def _sizes(size: float, min_size: float) -> list[float]:
    steps = math.floor((size - min_size) / _SIZE_STEP + 1e-9)
    sizes = [round(size - k * _SIZE_STEP, 4) for k in range(steps + 1)]
    if sizes[-1] > min_size:
        sizes.append(min_size)
    return sizes


# A deck repeats its rules text on many faces (Deadline 99: 805 paragraphs, 31 texts):
# wrapped once. A font name never changes meaning within a process (fonts.py), and a
# FittedText is only drawn, never changed, so the same one serves every face.
@lru_cache(maxsize=4096)
def fit_paragraph(
    text: str,
    width: float,
    height: float,
    *,
    font: str,
    size: float,
    min_size: float,
    leading_ratio: float = 1.3,
    align: Align = "left",
    color: str = "#000000",
    icons: tuple[Icon, ...] = (),
) -> FittedText:
    """Shrink `text` in 0.5 pt steps from `size` to `min_size` until it fits the box.

    `font` must be a registered font family (see `prepare_cjk_fonts`) so that
    **bold** finds its bold face.  If nothing fits, the result is set at `min_size`
    with `overflow` True; the caller decides whether that is an error.
    """
    if align not in _ALIGNMENTS:
        raise ValueError(f"align must be one of {sorted(_ALIGNMENTS)}, not {align!r}")
    if not 0 < min_size <= size:
        raise ValueError(f"need 0 < min_size <= size, got {min_size} and {size}")
    if width <= 0 or height < 0:
        raise ValueError(f"box must have a positive width, got {width} x {height}")
    markup = to_markup(text)
    by_name = {icon.name: icon for icon in icons}
    # Every line is at most `width` wide, so the text needs at least this many lines;
    # sizes whose lower bound already overflows are skipped without wrapping (95% for
    # the bold runs and dropped spaces this estimate ignores).
    # An icon's [[name]] is not printed: counted as letters it made a line of icons look
    # several times its width, so a size that fits was skipped and the text shrank to its
    # smallest size. Left out, the estimate stays a lower bound.
    plain = re.sub(r"\s+", " ", INLINE_ICON.sub("", text).replace("*", ""))
    unit_width = stringWidth(plain, font, 1.0) * 0.95
    fitted: FittedText | None = None
    sizes = _sizes(size, min_size)
    for candidate in sizes:
        leading = round(candidate * leading_ratio, 4)
        is_last = candidate == sizes[-1]
        if (
            not is_last
            and math.ceil(unit_width * candidate / width) * leading > height + LAYOUT_FUZZ
        ):
            continue
        style = paragraph_style(font, candidate, leading, align, color)
        para = CJKParagraph(markup, style, icons=by_name)
        _, wrapped = para.wrap(width, height)
        fits = wrapped <= height + LAYOUT_FUZZ and _widest_line(para) <= width + LAYOUT_FUZZ
        fitted = FittedText(para, candidate, leading, width, wrapped, overflow=not fits)
        if fits:
            break
    assert fitted is not None  # the last size is always tried
    return fitted


def _shape_text_box(shape: Any) -> dict[str, Any]:
    """A laid-out text box (a TextShape) as the fitting functions' arguments."""
    return {
        "text": shape.text,
        "width": shape.width,
        "height": shape.height,
        "size": shape.size,
        "min_size": shape.min_size,
        "leading_ratio": shape.leading,
        "align": shape.align,
        "icons": shape.icons,
    }


def fit_text_shape(shape: Any, font: str) -> FittedText:
    """A laid-out text box's text shrunk to its box as the sheets print it (its icons too)."""
    return fit_paragraph(font=font, color=shape.color, **_shape_text_box(shape))


def text_shape_fits(shape: Any, font: str) -> bool:
    """Whether a laid-out text box's text fits it as the sheets print it (``text_fits``)."""
    return text_fits(font=font, **_shape_text_box(shape))


def draw_fitted(
    canvas: Canvas,
    fitted: FittedText,
    x: float,
    y_top: float,
    width: float,
    height: float,
    valign: VAlign = "top",
) -> None:
    """Draw a fitted paragraph in the box whose top-left corner is (x, y_top)."""
    para = fitted.paragraph
    prepare_canvas(canvas)
    wrapped = fitted.height
    if abs(width - fitted.width) > LAYOUT_FUZZ:
        _, wrapped = para.wrap(width, height)
    if valign == "top":
        y = y_top - wrapped
    elif valign == "middle":
        y = y_top - (height + wrapped) / 2
    elif valign == "bottom":
        y = y_top - height
    else:
        raise ValueError(f"valign must be top, middle or bottom, not {valign!r}")
    para.drawOn(canvas, x, y)


_PLAIN_LINE = re.compile(r"^[^\n*<>&]*$")


@lru_cache(maxsize=256)
def _colour(text: str) -> HexColor:
    return HexColor(text)


def text_fits(
    text: str,
    width: float,
    height: float,
    *,
    font: str,
    size: float,
    min_size: float,
    leading_ratio: float,
    align: Align,
    icons: tuple[Icon, ...] = (),
) -> bool:
    """Whether a box's text fits as it is drawn: one line at full size when it is plain and
    fits so, else wrapped and shrunk down to ``min_size`` (what the validator asks before any
    build draws it)."""
    if width <= 0 or height <= 0:
        return False
    if (
        align != "justify"
        and _PLAIN_LINE.match(text)
        and not _has_icons(text)
        and stringWidth(text, font, size) <= width + LAYOUT_FUZZ
        and size * leading_ratio <= height + LAYOUT_FUZZ
    ):
        return True
    fitted = fit_paragraph(
        text,
        width,
        height,
        font=font,
        size=size,
        min_size=min(min_size, size),
        leading_ratio=leading_ratio,
        align=align,
        icons=icons,
    )
    return not fitted.overflow


def draw_line_if_fits(
    canvas: Canvas,
    text: str,
    x: float,
    y_top: float,
    width: float,
    height: float,
    *,
    font: str,
    size: float,
    leading_ratio: float,
    align: Align,
    valign: VAlign,
    color: str,
) -> bool:
    """Draw `text` as one line at full size if it is plain and fits; False if it does not.

    Most card text is a short label; setting it without a paragraph is several times faster
    and lands exactly where the one-line paragraph would (same leading split, same ascent).
    """
    if align == "justify" or not _PLAIN_LINE.match(text) or _has_icons(text):
        return False
    text_width = stringWidth(text, font, size)
    leading = size * leading_ratio
    if text_width > width + LAYOUT_FUZZ or leading > height + LAYOUT_FUZZ:
        return False
    if valign == "top":
        top = y_top
    elif valign == "middle":
        top = y_top - (height - leading) / 2
    else:
        top = y_top - height + leading
    baseline = top - ((leading - size) / 2 + _EM_ASCENT * size)
    # The origin as drawCentredString and drawRightString compute it, to the last bit.
    if align == "center":
        origin = x + width / 2 - 0.5 * text_width
    elif align == "right":
        origin = x + width - text_width
    else:
        origin = x
    if not _set_line(canvas, text, origin, baseline, font, size, color):
        line_by_reportlab(
            canvas, text, x, baseline, width, font=font, size=size, align=align, color=color
        )
    return True


def line_by_reportlab(
    canvas: Canvas,
    text: str,
    x: float,
    baseline: float,
    width: float,
    *,
    font: str,
    size: float,
    align: Align,
    color: str,
) -> None:
    """One line set by reportlab's own calls, aligned in the box from `x`, `width` wide:
    what `_set_line` writes the operators of, where it can."""
    canvas.saveState()
    canvas.setFont(font, size)
    canvas.setFillColor(_colour(color))
    if align == "center":
        canvas.drawCentredString(x + width / 2, baseline, text)
    elif align == "right":
        canvas.drawRightString(x + width, baseline, text)
    else:
        canvas.drawString(x, baseline, text)
    canvas.restoreState()


_FILL_OPERATORS: dict[str, str] = {}


def _set_line(
    canvas: Canvas, text: str, x: float, baseline: float, font: str, size: float, color: str
) -> bool:
    """Append what reportlab writes for `text` set in a saved state (q, setFont,
    setFillColor, drawString, Q) without its text object; False where that is not certain.

    It writes the same operators for a TrueType font on a bottom-up canvas with opaque
    fills, which is every line pnp sets: a card face has a dozen of them, and reportlab's
    route spends most of its time saving and restoring Python state no operator shows.
    tests/render/test_text.py compares the two on every kind of text.
    """
    face = getFont(font)
    # reportlab writes no "gs" while the fill stays opaque
    if not (is_growable_truetype(face) and canvas.bottomup and fill_is_opaque(canvas)):
        return False
    if rtlSupport or colour_space_enforced(canvas):
        return False  # with rlbidi installed, reportlab may reorder the text
    fill = _FILL_OPERATORS.get(color)
    if fill is None:
        rgb = _colour(color)
        if rgb.alpha != 1:
            return False
        fill = _FILL_OPERATORS[color] = f"{fp_str(rgb.red, rgb.green, rgb.blue)} rg"
    document = pdf_document(canvas)
    document.ensureMinPdfVersion("transparency")  # setFillColor's opacity asks for PDF 1.4
    shown: list[str] = []
    current = -1
    sized = f"{fp_str(size)} Tf {fp_str(size * 1.2)} TL"
    for subset, chunk in face.splitString(text, document):
        if subset != current:
            shown.append(f"{face.getSubsetInternalName(subset, document)} {sized}")
            current = subset
        shown.append(f"({escapePDF(chunk)}) Tj")
    code = operators(canvas)
    code.append("q")
    code.append(fill)
    code.append(f"BT 1 0 0 1 {fp_str(x, baseline)} Tm {' '.join(shown)} T* ET")
    code.append("Q")
    return True
