"""A static gallery per game: every card, board and token as rendered, with its data and
the validator's findings beside it. Plain HTML with relative links: it opens from the file
system, no server, no script needed."""

from __future__ import annotations

import dataclasses
import enum
import html
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp.content.loader import LoadedGame
from pnp.errors import Problem
from pnp.export.faces import ExportItem, collect, face_digest, png_bytes
from pnp.export.files import write_bytes, write_text
from pnp.export.png import ExportReport
from pnp.layout.primitives import Face
from pnp.render.fonts import prepare_cjk_fonts
from pnp.units import to_mm

THUMBNAIL_DPI = 100
BOARD_DPI = 50  # boards and aids are big: a lighter image, shown scaled anyway
INDEX_NAME = "index.html"

_STYLE = """
@font-face{font-family:"PnpSans";src:url("font/PnpSans.ttf") format("truetype")}
body{font-family:"PnpSans","Noto Sans CJK SC","PingFang SC","Microsoft YaHei",sans-serif;
margin:1.5rem;color:#222;background:#f4f3ef}
h1{margin:0 0 .2rem}h2{margin:2rem 0 .6rem;border-bottom:2px solid #ccc}
.meta{color:#666;font-size:.9rem}
.item{display:flex;gap:1rem;background:#fff;border:1px solid #ddd;border-radius:6px;
padding:.8rem;margin:.6rem 0;align-items:flex-start}
.faces{display:flex;gap:.5rem;flex:none}
.faces img{display:block;max-width:260px;max-height:360px;border:1px solid #bbb;
border-radius:4px;box-shadow:0 1px 3px #0002}
.sheet .faces img{max-width:520px;max-height:520px}
table{border-collapse:collapse;font-size:.85rem}
th{text-align:left;color:#555;padding:.1rem .6rem .1rem 0;vertical-align:top;white-space:nowrap}
td{padding:.1rem 0;vertical-align:top}
.copies{font-weight:bold}
.findings{margin:.4rem 0 0;padding-left:1.2rem;font-size:.85rem}
.error{color:#b00020}.warning{color:#a36200}.ok{color:#2a7a2a;font-size:.85rem}
nav a{margin-right:1rem}
"""


@dataclass(frozen=True)
class GalleryPage:
    game: str
    title: str
    path: Path
    items: int
    problems: int


def export_gallery(
    game: LoadedGame,
    out_dir: Path,
    templates_root: Path,
    *,
    problems: Sequence[Problem] | None = None,
    products: Iterable[str] | None = None,
    link_index: bool = True,
) -> ExportReport:
    """Write `index.html` and its images (img/) into `out_dir`; `link_index` links the page
    to the index of all games three folders up (output/index.html).

    `problems` are the validator's findings for the game (static checks by default);
    each is shown beside the item whose content file and line it points at.
    """
    if problems is None:
        problems = static_findings(game, templates_root)
    laid_out, rasteriser = collect(game, templates_root, bleed_mm=0.0, products=products)
    report = ExportReport(game.slug, out_dir)
    written: dict[str, str] = {}

    def image(face: Face, dpi: int) -> str:
        name = f"img/{face_digest(face)}-{dpi}.png"
        if name not in written:
            [picture] = rasteriser.render([face], dpi)
            path = out_dir / name
            write_bytes(path, png_bytes(picture, dpi))
            report.files.append(path)
            written[name] = name
        return name

    by_line: dict[tuple[str, int], list[Problem]] = {}
    for problem in problems:
        by_line.setdefault((problem.location.path, problem.location.line), []).append(problem)
    shown: set[int] = set()

    def findings_for(where: Any) -> list[Problem]:
        if where is None or not getattr(where, "line", 0):
            return []
        found = by_line.get((where.path, where.line), [])
        shown.update(id(p) for p in found)
        return found

    sections: list[str] = []
    total = 0
    for product in laid_out:
        dpi = THUMBNAIL_DPI if product.is_cards else BOARD_DPI
        kind = "cards" if product.is_cards else "sheet"
        size = f"{to_mm(product.width):g} × {to_mm(product.height):g} mm"
        count = sum(item.copies for item in product.items)
        parts = [
            f'<section class="product {kind}" id="{_e(product.product.id)}">',
            f"<h2>{_e(product.product.title)} <small class=meta>{_e(product.product.id)} · "
            f"{kind} · {size} · {count} in the kit</small></h2>",
            _findings_html(findings_for(product.product.where)),
        ]
        for item in product.items:
            total += 1
            parts.append(
                _item_html(
                    item,
                    kind,
                    image(item.front, dpi),
                    image(item.back, dpi) if item.back else None,
                    findings_for(getattr(item.item, "where", None)),
                )
            )
        parts.append("</section>")
        sections.append("\n".join(parts))
    others = [p for p in problems if id(p) not in shown]
    info = game.model.info
    body = [
        '<nav><a href="../../../index.html">all games</a></nav>' if link_index else "",
        f"<h1>{_e(info.title)}</h1>",
        f'<p class="meta">{_e(game.slug)} · {len(laid_out)} products · {total} distinct items'
        f" · {len(problems)} findings (static checks)</p>",
        "<nav>"
        + "".join(f'<a href="#{_e(p.product.id)}">{_e(p.product.title)}</a>' for p in laid_out)
        + "</nav>",
    ]
    if others:
        body.append("<h2>Other findings</h2>" + _findings_html(others))
    body.extend(sections)
    document = _document(f"{info.title} · gallery", "\n".join(body), title=info.title)
    font = out_dir / "font" / "PnpSans.ttf"
    # The page's own text (titles, findings) may hold characters no card draws.
    write_bytes(font, _font_subset(prepare_cjk_fonts(document).regular_path, document))
    report.files.append(font)
    page = out_dir / INDEX_NAME
    write_text(page, document)
    report.files.append(page)
    report.warnings.extend(sorted(rasteriser.warnings))
    return report


def _font_subset(source: Path, text: str) -> bytes:
    """The kit's own CJK font cut down to the page's characters (a few hundred KB at most),
    so the page reads the same on a machine without Chinese fonts."""
    import io

    from fontTools import subset

    options = subset.Options()
    options.layout_features = []
    options.name_IDs = ["*"]
    font = subset.load_font(str(source), options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(text="".join(sorted(set(text))))
    subsetter.subset(font)
    buffer = io.BytesIO()
    font.save(buffer)
    return buffer.getvalue()


def static_findings(game: LoadedGame, templates_root: Path) -> list[Problem]:
    from pnp.validate.runner import validate_games

    result = validate_games(game.folder.parent, [game.slug], templates_root, simulate=False)
    return list(result.problems)


def write_index(output_root: Path, galleries: Sequence[tuple[str, str, Path]]) -> list[Path]:
    """`output_root/index.html` linking every game's gallery found below it, and the font
    subset it shows its titles in (the files written).

    `galleries` are (slug, title, page) of this run; pages left by earlier runs are kept,
    under the title each page records.
    """
    found = {slug: (title, page) for slug, title, page in galleries}
    for page in sorted(output_root.glob(f"*/export/gallery/{INDEX_NAME}")):
        slug = page.parent.parent.parent.name
        if slug not in found:
            found[slug] = (_recorded_title(page) or slug, page)
    rows = [
        f'<li><a href="{_e(page.relative_to(output_root).as_posix())}">{_e(title)}</a>'
        f' <span class="meta">{_e(slug)}</span></li>'
        for slug, (title, page) in sorted(found.items())
    ]
    document = _document(
        "pnp galleries", "<h1>Galleries</h1><ul>" + "".join(rows) + "</ul>", title=""
    )
    # The style links font/PnpSans.ttf beside the page: the index needs its own subset,
    # holding every game's title (a gallery's holds only its own game's text).
    font = output_root / "font" / "PnpSans.ttf"
    write_bytes(font, _font_subset(prepare_cjk_fonts(document).regular_path, document))
    path = output_root / INDEX_NAME
    write_text(path, document)
    return [font, path]


_TITLE_META = re.compile(r'<meta name="pnp-title" content="([^"<>]{0,500})">')
_TITLE_READ = 4096
"""Bytes of an earlier gallery page read for its title: the meta tag is in its head."""


def _recorded_title(page: Path) -> str | None:
    """The game title an earlier gallery page recorded, or None (a page of an older pnp, or
    one that cannot be read: the index then shows the slug)."""
    try:
        with page.open("rb") as handle:
            head = handle.read(_TITLE_READ).decode("utf-8", errors="replace")
    except OSError:
        return None
    match = _TITLE_META.search(head)
    return html.unescape(match.group(1)) if match else None


def _document(page_title: str, body: str, *, title: str) -> str:
    """A page; ``title`` is the game's, recorded for the index of all games."""
    meta = f'<meta name="pnp-title" content="{_e(title)}">\n' if title else ""
    return (
        '<!DOCTYPE html>\n<html lang="zh-Hans">\n<head>\n<meta charset="utf-8">\n'
        f"{meta}<title>{_e(page_title)}</title>\n<style>{_STYLE}</style>\n</head>\n"
        f"<body>\n{body}\n</body>\n</html>\n"
    )


def _item_html(
    item: ExportItem, kind: str, front: str, back: str | None, problems: list[Problem]
) -> str:
    alt = f"{item.name} ({item.id})"
    faces = f'<img src="{_e(front)}" alt="{_e(alt)} front" loading="eager">'
    if back:
        faces += f'<img src="{_e(back)}" alt="{_e(alt)} back" loading="eager">'
    rows = [
        f"<tr><th>id</th><td><code>{_e(item.id)}</code></td></tr>",
        f"<tr><th>name</th><td>{_e(item.name)}</td></tr>",
        f'<tr><th>copies</th><td class="copies">{item.copies}</td></tr>',
    ]
    for name, value in _fields(item.item):
        rows.append(f"<tr><th>{_e(name)}</th><td>{_e(value)}</td></tr>")
    where = getattr(item.item, "where", None)
    if where is not None and int(getattr(where, "line", 0)):
        rows.append(f"<tr><th>source</th><td><code>{_e(str(where))}</code></td></tr>")
    return (
        f'<article class="item {kind}" data-product="{_e(item.product.id)}" '
        f'data-id="{_e(item.id)}" data-copies="{item.copies}">'
        f'<div class="faces">{faces}</div><div class="data"><table>{"".join(rows)}</table>'
        f"{_findings_html(problems, ok=True)}</div></article>"
    )


def _findings_html(problems: Sequence[Problem], *, ok: bool = False) -> str:
    if not problems:
        return '<p class="ok">no findings</p>' if ok else ""
    lines = "".join(
        f'<li class="{_e(p.severity)}">{_e(p.severity)}: {_e(p.message)} '
        f"<code>{_e(str(p.location))}</code></li>"
        for p in problems
    )
    return f'<ul class="findings">{lines}</ul>'


_SKIP = {"id", "name", "copies", "where"}


def _fields(item: Any) -> list[tuple[str, str]]:
    """The item's own fields (dataclass fields and public properties), as short text."""
    names: list[str] = []
    if dataclasses.is_dataclass(item):
        names = [f.name for f in dataclasses.fields(item)]
    names += [
        name
        for name, value in vars(type(item)).items()
        if isinstance(value, property) and not name.startswith("_")
    ]
    seen: set[str] = set()
    result = []
    for name in names:
        if name in _SKIP or name in seen:
            continue
        seen.add(name)
        try:
            value = getattr(item, name)
        except Exception:  # a derived property that fails is not the gallery's business
            continue
        result.append((name, _text(value)))
    return result


def _text(value: Any, depth: int = 0) -> str:
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, str):
        return value
    if isinstance(value, bool | int | float) or value is None:
        return str(value)
    if isinstance(value, tuple | list | frozenset | set):
        return ", ".join(_text(v, depth + 1) for v in value) or "—"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_text(v, depth + 1)}" for k, v in value.items()) or "—"
    if dataclasses.is_dataclass(value):
        label = getattr(value, "name", None) or getattr(value, "id", None)
        if label is not None:
            return str(label)
        if depth >= 2:
            return "…"
        return ", ".join(
            f"{f.name}={_text(getattr(value, f.name), depth + 1)}"
            for f in dataclasses.fields(value)
            if f.name != "where"
        )
    return str(value)


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)
