"""A before/after contact sheet of the pages a change redraws, for the gallery of a game.

    python benchmarks/before_after.py GAME NAME BEFORE_ROOT AFTER_ROOT PRODUCT:PAGE ...

BEFORE_ROOT and AFTER_ROOT are output roots (`pnp build --out`) of the two builds; each
PRODUCT:PAGE (`character-decks:1`) is a row of the sheet, the page as it was on the left and as
it is on the right. The sheet goes to AFTER_ROOT/GAME/export/gallery/before-after-NAME.png. A
review aid for the people changing faces, so it lives here and never in a kit.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pypdfium2
from PIL import Image, ImageDraw

DPI = 70
GAP = 16
LABEL = 22


def page_image(pdf: Path, page: int) -> Image.Image:
    document = pypdfium2.PdfDocument(pdf)
    try:
        if not 1 <= page <= len(document):
            raise SystemExit(f"{pdf}: has {len(document)} pages, no page {page}")
        bitmap = document[page - 1].render(scale=DPI / 72)
        return bitmap.to_pil().convert("RGB")
    finally:
        document.close()


def contact_sheet(rows: list[tuple[str, Image.Image, Image.Image]]) -> Image.Image:
    width = max(before.width + after.width for _, before, after in rows) + 3 * GAP
    height = sum(LABEL + max(b.height, a.height) + GAP for _, b, a in rows) + GAP
    sheet = Image.new("RGB", (width, height), "#d9d6cf")
    pen = ImageDraw.Draw(sheet)
    top = GAP
    for title, before, after in rows:
        pen.text((GAP, top + 4), f"{title}: before", fill="#222222")
        pen.text((2 * GAP + before.width, top + 4), f"{title}: after", fill="#222222")
        sheet.paste(before, (GAP, top + LABEL))
        sheet.paste(after, (2 * GAP + before.width, top + LABEL))
        top += LABEL + max(before.height, after.height) + GAP
    return sheet


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("name")
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("pages", nargs="+", metavar="PRODUCT:PAGE")
    args = parser.parse_args(argv)
    rows = []
    for wanted in args.pages:
        product, _, page = wanted.partition(":")
        if not page.isdigit():
            raise SystemExit(f"{wanted}: expected PRODUCT:PAGE, e.g. character-decks:1")
        name = f"{args.game}-{product}.pdf"
        before, after = (root / args.game / name for root in (args.before, args.after))
        for pdf in (before, after):
            if not pdf.is_file():
                raise SystemExit(f"{pdf}: no such PDF (build both roots first)")
        rows.append(
            (f"{product} p{page}", page_image(before, int(page)), page_image(after, int(page)))
        )
    target = args.after / args.game / "export" / "gallery" / f"before-after-{args.name}.png"
    target.parent.mkdir(parents=True, exist_ok=True)
    contact_sheet(rows).save(target, optimize=True)
    print(target)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
