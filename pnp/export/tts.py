"""Tabletop Simulator: deck sheets, tile images and a saved-object JSON per game.

The JSON has the shape TTS writes for saved objects (checked in tests against a real one):
a `DeckCustom` per card product whose `CustomDeck` entries name sheet images of up to
10 x 7 cards, `ContainedObjects` holding one `Card` per copy with `CardID` = deck id x 100
+ index on its sheet, and `Custom_Tile` objects for boards, aids and tokens. Card sheets
keep the deck's back in their last slot, which TTS shows for a card hidden in a hand.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from pnp.content.loader import LoadedGame
from pnp.export.faces import ExportItem, ExportProduct, Rasteriser, blank_back, collect, png_bytes
from pnp.export.files import write_bytes, write_json
from pnp.export.png import CardPair, ExportReport, pair_cards
from pnp.units import POINTS_PER_INCH, to_mm

SHEET_COLUMNS, SHEET_ROWS = 10, 7  # the largest deck sheet TTS reads
CARDS_PER_SHEET = SHEET_COLUMNS * SHEET_ROWS - 1  # the last slot is the hidden card
# Our own cap, not TTS's: sheets no larger than 4096 px a side load fast everywhere.
MAX_SHEET_PX = 4096
CARD_DPI = 300  # at most; large sheets come out coarser to stay under MAX_SHEET_PX
TILE_DPI = 150
TOKEN_MAX_MM = 40.0  # card products this small (both sides) become stackable tokens
POKER_MM = (63.0, 88.0)  # a card of TTS scale 1
# Estimate: TTS draws a Custom_Tile of scale 1 about 2 table units (inches) across.
TILE_UNITS_PER_SCALE = 2.0
COLOUR = {"r": 0.713235259, "g": 0.713235259, "b": 0.713235259}  # TTS's default tint
WHITE = {"r": 1.0, "g": 1.0, "b": 1.0}


@dataclass(frozen=True)
class Sheet:
    """One CustomDeck entry: up to 69 fronts sharing a back, the back in the last slot."""

    deck_id: int
    pairs: tuple[CardPair, ...]
    back: Any  # Face
    columns: int
    rows: int
    face_file: str
    back_file: str


def plan_grid(count: int) -> tuple[int, int]:
    """Columns and rows for `count` cards plus the hidden slot, at most 10 x 7."""
    slots = count + 1
    if slots > SHEET_COLUMNS * SHEET_ROWS:
        raise ValueError(f"{count} cards do not fit one sheet of {CARDS_PER_SHEET}")
    columns = min(SHEET_COLUMNS, slots)
    return columns, math.ceil(slots / columns)


def export_tts(
    game: LoadedGame,
    out_dir: Path,
    templates_root: Path,
    *,
    base_url: str | None = None,
    products: Iterable[str] | None = None,
) -> ExportReport:
    """Write sheet and tile images and `<game>.json` (a TTS saved object) into `out_dir`.

    Image URLs are `base_url` + the file's path below `out_dir` when the images are hosted;
    without one they are paths relative to the JSON, so the saved object names no file of
    the build machine, and `HOW-TO-LOAD.txt` beside it says how a player points TTS at them.
    """
    base = base_url.rstrip("/") if base_url else ""
    laid_out, rasteriser = collect(game, templates_root, bleed_mm=0.0, products=products)
    report = ExportReport(game.slug, out_dir)
    builder = _Builder(game, out_dir, base, rasteriser, report)
    for product in laid_out:
        if product.is_cards and not _is_token(product):
            builder.deck(product)
        else:
            builder.tiles(product)
    save = {
        "SaveName": game.model.info.title,
        "GameMode": game.model.info.title,
        "Date": "",
        "Table": "",
        "Sky": "",
        "Note": f"pnp export of {game.slug}",
        "Rules": "",
        "PlayerTurn": "",
        "LuaScript": "",
        "ObjectStates": builder.objects,
    }
    path = out_dir / f"{game.slug}.json"
    write_json(path, save)
    report.files.append(path)
    how_to = out_dir / HOW_TO_LOAD
    write_bytes(how_to, how_to_load(game.slug, base_url).encode("utf-8"))
    report.files.append(how_to)
    report.warnings.extend(sorted(rasteriser.warnings))
    return report


HOW_TO_LOAD = "HOW-TO-LOAD.txt"


def how_to_load(slug: str, base_url: str | None) -> str:
    """What a player does with the export to see it in Tabletop Simulator."""
    saved = "Documents/My Games/Tabletop Simulator/Saves/Saved Objects/"
    steps = [
        f"在 Tabletop Simulator 中载入 {slug}（Loading {slug} in Tabletop Simulator）",
        "",
        f"1. 把 {slug}.json 复制到 TTS 的“已保存物件”文件夹：",
        f"   Copy {slug}.json into TTS's Saved Objects folder:",
        f"   Windows: %USERPROFILE%/{saved}",
        "   macOS / Linux: ~/Library/Tabletop Simulator/Saves/Saved Objects/ 或 ~/.local/share/"
        "Tabletop Simulator/Saves/Saved Objects/",
        "2. 在 TTS 中：物件（Objects）→ 已保存物件（Saved Objects）→ 选它。",
        "   In TTS: Objects -> Saved Objects -> pick it.",
        "",
    ]
    if base_url:
        host = base_url.rstrip("/")
        steps += [
            f"图片从 {host}/ 加载：这个文件夹里的 sheets/ 与 tiles/ 须放在那个地址。",
            f"Images load from {host}/: host this folder's sheets/ and tiles/ there.",
        ]
    else:
        steps += [
            "图片路径是相对路径（sheets/…、tiles/…），TTS 需要完整地址。二选一：",
            "Image paths are relative (sheets/..., tiles/...); TTS needs full addresses. Either:",
            "a) 上传 sheets/ 与 tiles/（TTS 的 Modding → Cloud Manager，或任何网站），再用",
            f"   pnp export {slug} --format tts --base-url <地址> 重新导出；",
            "   upload sheets/ and tiles/ (TTS's Modding -> Cloud Manager, or any web host) and",
            f"   export again with: pnp export {slug} --format tts --base-url <URL>",
            f'b) 仅在本机玩：用文本编辑器打开 {slug}.json，把每个 "sheets/ 与 "tiles/ 替换为',
            "   本文件夹的 file:/// 地址加上 sheets/ 或 tiles/（例如 file:///C:/kits/tts/sheets/）。",
            f'   for play on this computer only: in {slug}.json replace each "sheets/ and',
            "   \"tiles/ with this folder's file:/// address plus sheets/ or tiles/.",
        ]
    return "\n".join(steps) + "\n"


def _is_token(product: ExportProduct) -> bool:
    return max(to_mm(product.width), to_mm(product.height)) <= TOKEN_MAX_MM


def _guid(*parts: object) -> str:
    return hashlib.sha1("/".join(map(str, parts)).encode("utf-8")).hexdigest()[:6]


def _transform(
    x: float,
    z: float,
    *,
    y: float = 1.0,
    flip: bool = False,
    scale_x: float = 1.0,
    scale_z: float = 1.0,
) -> dict[str, float]:
    return {
        "posX": round(x, 4), "posY": y, "posZ": round(z, 4),
        "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0 if flip else 0.0,
        "scaleX": round(scale_x, 4), "scaleY": 1.0, "scaleZ": round(scale_z, 4),
    }  # fmt: skip


def _common(
    guid: str,
    name: str,
    transform: dict[str, float],
    nickname: str,
    description: str = "",
    *,
    locked: bool = False,
) -> dict[str, Any]:
    return {
        "GUID": guid,
        "Name": name,
        "Transform": transform,
        "Nickname": nickname,
        "Description": description,
        "GMNotes": "",
        "ColorDiffuse": dict(COLOUR),
        "LayoutGroupSortIndex": 0,
        "Value": 0,
        "Locked": locked,
        "Grid": True,
        "Snap": True,
        "IgnoreFoW": False,
        "MeasureMovement": False,
        "DragSelectable": True,
        "Autoraise": True,
        "Sticky": True,
        "Tooltip": True,
        "GridProjection": False,
        "HideWhenFaceDown": False,
        "Hands": False,
        "LuaScript": "",
        "LuaScriptState": "",
        "XmlUI": "",
    }  # fmt: skip


def _describe(item: ExportItem) -> str:
    return f"{item.product.title} · {item.id}"


class _Builder:
    def __init__(
        self,
        game: LoadedGame,
        out_dir: Path,
        base: str,
        rasteriser: Rasteriser,
        report: ExportReport,
    ) -> None:
        self.game, self.out_dir, self.base = game, out_dir, base
        self.rasteriser, self.report = rasteriser, report
        self.objects: list[dict[str, Any]] = []
        self.next_deck_id = 1
        self.deck_x = 0.0
        self.tile_x = 0.0
        self.token_x = 0.0

    def _write(self, relative: str, image: Image.Image, dpi: float) -> str:
        path = self.out_dir / relative
        write_bytes(path, png_bytes(image, dpi))
        self.report.files.append(path)
        return f"{self.base}/{relative}" if self.base else relative

    # -- decks -------------------------------------------------------------------------

    def deck(self, product: ExportProduct) -> None:
        slug = product.product.id
        pairs = pair_cards(product)
        by_back: dict[object, list[CardPair]] = {}
        for pair in pairs:
            back = pair.back or blank_back(pair.front)
            by_back.setdefault((back.width, back.height, back.shapes), []).append(pair)
        sheets: list[Sheet] = []
        for group in by_back.values():
            for start in range(0, len(group), CARDS_PER_SHEET):
                chunk = tuple(group[start : start + CARDS_PER_SHEET])
                columns, rows = plan_grid(len(chunk))
                number = len(sheets) + 1
                sheets.append(
                    Sheet(
                        deck_id=self.next_deck_id,
                        pairs=chunk,
                        back=chunk[0].back or blank_back(chunk[0].front),
                        columns=columns,
                        rows=rows,
                        face_file=f"sheets/{slug}-{number}-faces.png",
                        back_file=f"sheets/{slug}-{number}-back.png",
                    )
                )
                self.next_deck_id += 1
        custom: dict[str, dict[str, Any]] = {}
        card_ids: dict[int, int] = {}  # pair number -> CardID
        sideways = product.width > product.height
        for sheet in sheets:
            custom[str(sheet.deck_id)] = self._sheet(product, sheet)
            for index, pair in enumerate(sheet.pairs):
                card_ids[pair.number] = sheet.deck_id * 100 + index
        # TTS draws cards on a poker-shaped mesh: scale it to the card's own size.
        short, long_ = sorted((to_mm(product.width), to_mm(product.height)))
        scale_x, scale_z = short / POKER_MM[0], long_ / POKER_MM[1]
        transform = _transform(self.deck_x, 0.0, flip=True, scale_x=scale_x, scale_z=scale_z)
        self.deck_x += 3.5 * max(scale_x, scale_z) + (1.5 if sideways else 0.0)
        cards: list[dict[str, Any]] = []
        for pair in pairs:
            card_id = card_ids[pair.number]
            deck_key = str(card_id // 100)
            for item in pair.items:
                for copy in range(item.copies):
                    card = _common(
                        _guid(self.game.slug, slug, item.id, copy),
                        "Card",
                        dict(transform),
                        item.name,
                        _describe(item),
                    )
                    card.update(
                        Hands=True,
                        HideWhenFaceDown=True,
                        CardID=card_id,
                        SidewaysCard=sideways,
                        CustomDeck={deck_key: custom[deck_key]},
                    )
                    cards.append(card)
        if len(cards) == 1:  # TTS saves a lone card as a Card, not a deck of one
            cards[0]["Transform"] = transform
            self.objects.append(cards[0])
            return
        deck = _common(
            _guid(self.game.slug, slug),
            "DeckCustom",
            transform,
            product.product.title,
            f"{len(cards)} cards",
        )
        deck.update(
            HideWhenFaceDown=True,
            SidewaysCard=sideways,
            DeckIDs=[card["CardID"] for card in cards],
            CustomDeck=custom,
            ContainedObjects=cards,
        )
        self.objects.append(deck)

    def _sheet(self, product: ExportProduct, sheet: Sheet) -> dict[str, Any]:
        width_in = product.width / POINTS_PER_INCH
        height_in = product.height / POINTS_PER_INCH
        dpi = min(
            CARD_DPI,
            MAX_SHEET_PX / (sheet.columns * width_in),
            MAX_SHEET_PX / (sheet.rows * height_in),
        )
        dpi = math.floor(dpi)
        faces = [pair.front for pair in sheet.pairs] + [sheet.back]
        images = self.rasteriser.render(faces, dpi)
        cell_w, cell_h = images[0].size
        canvas = Image.new("RGB", (cell_w * sheet.columns, cell_h * sheet.rows), "white")
        last = sheet.columns * sheet.rows - 1
        slots = [*range(len(sheet.pairs)), last]  # fronts in order, the back in the last slot
        for slot, image in zip(slots, images, strict=True):
            row, column = divmod(slot, sheet.columns)
            canvas.paste(
                image.resize((cell_w, cell_h)) if image.size != (cell_w, cell_h) else image,
                (column * cell_w, row * cell_h),
            )
        face_url = self._write(sheet.face_file, canvas, dpi)
        back_url = self._write(sheet.back_file, images[-1], dpi)
        return {
            "FaceURL": face_url,
            "BackURL": back_url,
            "NumWidth": sheet.columns,
            "NumHeight": sheet.rows,
            "BackIsHidden": True,
            "UniqueBack": False,
            "Type": 0,
        }

    # -- boards, aids and tokens ------------------------------------------------------

    def tiles(self, product: ExportProduct) -> None:
        slug = product.product.id
        token = product.is_cards
        long_in = max(product.width, product.height) / POINTS_PER_INCH
        dpi = math.floor(min(CARD_DPI if token else TILE_DPI, MAX_SHEET_PX / long_in))
        scale = long_in / TILE_UNITS_PER_SCALE
        for item in product.items:
            faces = [item.front] + ([item.back] if item.back else [])
            images = self.rasteriser.render(faces, dpi)
            front_url = self._write(f"tiles/{slug}-{item.id}-front.png", images[0], dpi)
            back_url = (
                self._write(f"tiles/{slug}-{item.id}-back.png", images[1], dpi)
                if item.back
                else front_url
            )
            if token:
                x, z = self.token_x, -6.0
                self.token_x += max(2.0, 2 * scale) + 0.5
            else:
                x, z = self.tile_x, 14.0
                self.tile_x += long_in + 1.0
            for copy in range(item.copies):
                tile = _common(
                    _guid(self.game.slug, slug, item.id, copy),
                    "Custom_Tile",
                    _transform(x, z, y=1.0 + 0.2 * copy, scale_x=scale, scale_z=scale),
                    item.name,
                    _describe(item),
                    locked=not token,
                )
                tile["ColorDiffuse"] = dict(WHITE)
                tile["CustomImage"] = {
                    "ImageURL": front_url,
                    "ImageSecondaryURL": back_url,
                    "ImageScalar": 1.0,
                    "WidthScale": 0.0,
                    "CustomTile": {
                        "Type": 0,  # box
                        "Thickness": 0.1 if token else 0.2,
                        "Stackable": token,
                        "Stretch": True,
                    },
                }
                self.objects.append(tile)
