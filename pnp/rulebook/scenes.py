"""Figures of positions the engine reaches: the board or table as the kit lies, drawn by the
kit's own renderer from the game's view of the position (``pnp/games/<game>/view.py``, what
``pnp play`` shows), so a rulebook's picture of a rule is the rule played out.

A figure draws, for each state of the position (one, or a before and an after), the scene's
boards — the board's printed face scaled to the column, the cards lying on it, and each piece:
a face of the kit (a figure, a treasure, a head token) or a coloured disc with its label — and
its rows of cards, face up or by their backs as the view shows them to an onlooker.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from reportlab.lib.colors import HexColor
from reportlab.platypus import Flowable

from pnp.content.loader import LoadedGame
from pnp.engines.view import Board, Card, FaceRef, Pictured, Piece, Row
from pnp.errors import PnpError
from pnp.layout.primitives import Face, TextShape
from pnp.layout.products import laid_out_for_pictures
from pnp.model.common import ProductKind
from pnp.model.icons import Icon
from pnp.registry import find_game
from pnp.render.fonts import FontSet
from pnp.render.forms import document_forms
from pnp.render.icons import draw_icon
from pnp.units import mm

_GAP = mm(2)
_ARROW = mm(8)
_ROW_CARD = mm(16)
"""A card's width in a row under a board (a hand, the piles)."""
_CAPTION = 9.0
_SMALLEST_PIECE = mm(3.2)
"""A piece is drawn at least this wide on the page, however small its board is drawn."""


class KitFaces:
    """Every face of the kit by (product, item, side), laid out as the kit prints it."""

    def __init__(self, game: LoadedGame, templates_root: Path) -> None:
        self._game, self._root = game, templates_root
        self.content_root = game.folder
        """Where a face's images are read from (the kit's own drawing needs it)."""
        self._faces: dict[FaceRef, Face] = {}
        self._laid: set[str] = set()

    def get(self, ref: FaceRef | None) -> Face | None:
        if ref is None:
            return None
        if ref.product not in self._laid:
            self._laid.add(ref.product)
            product = next((p for p in self._game.model.products if p.id == ref.product), None)
            if product is not None:
                laid = laid_out_for_pictures(self._game, product, self._root)
                for item, (front, back, _) in zip(laid.items, laid.runs, strict=True):
                    self._faces[FaceRef(product.id, item.id)] = front
                    if back is not None:
                        self._faces[FaceRef(product.id, item.id, "back")] = back
        return self._faces.get(ref)

    def anchor(self, ref: FaceRef, text: str) -> tuple[float, float] | None:
        """The centre of the first text `text` printed on a face, in fractions from its top
        left corner (what the web table does with a piece placed by a printed word)."""
        face = self.get(ref)
        for shape in face.shapes if face is not None else ():
            if isinstance(shape, TextShape) and shape.text.strip() == text:
                return (
                    (shape.x + shape.width / 2) / face.width,  # type: ignore[union-attr]
                    1 - (shape.y + shape.height / 2) / face.height,  # type: ignore[union-attr]
                )
        return None


_POSITIONS: dict[int, tuple[Any, Mapping[str, Pictured]]] = {}


def positions_of(game: LoadedGame) -> Mapping[str, Pictured]:
    """The positions the game's engine offers the rulebook, computed once per model."""
    kept = _POSITIONS.get(id(game.model))
    if kept is not None and kept[0] is game.model:
        return kept[1]
    plugin = find_game(game.slug)
    found: Mapping[str, Pictured] = {}
    if plugin is not None and plugin.rulebook_positions is not None:
        found = plugin.rulebook_positions(game.model)
    if len(_POSITIONS) > 16:
        _POSITIONS.clear()
    _POSITIONS[id(game.model)] = (game.model, found)
    return found


def scene_areas(game: LoadedGame, pictured: Pictured) -> list[list[Board | Row]]:
    """For each state of the position, the areas its figure draws, from the game's view."""
    plugin = find_game(game.slug)
    if plugin is None or plugin.view is None:
        raise PnpError(f"{game.slug}: the game has no view to draw its positions with")
    view = plugin.view(pictured.rules)
    drawn = []
    for index, state in enumerate(pictured.states):
        played = (*pictured.played, *pictured.between[:index])
        scene = view.scene(state, None, played)
        areas = [a for a in scene.areas if isinstance(a, Board | Row)]
        if pictured.areas:
            chosen = [a for title in pictured.areas for a in areas if a.title.startswith(title)]
        else:
            chosen = [next(a for a in areas if isinstance(a, Board))]
        drawn.append(chosen)
    return drawn


class SceneFigure(Flowable):
    """The states of one position in order, an arrow between: side by side or one under
    another, whichever draws them larger. Each area is
    scaled to its column on its own (a board to its width, a row of cards at most to its
    natural size); the whole shrinks if it is taller than `max_height`."""

    def __init__(
        self,
        states: Sequence[Sequence[Board | Row]],
        captions: Sequence[str],
        faces: KitFaces,
        fonts: FontSet,
        width: float,
        max_height: float,
    ) -> None:
        super().__init__()
        self.states, self.captions, self.faces, self.fonts = states, captions, faces, fonts
        # Side by side or one under another: whichever draws the states larger.
        plans = [self._plan(width, max_height, vertical=False)]
        if len(states) > 1:
            plans.append(self._plan(width, max_height, vertical=True))
        plan = max(plans, key=lambda p: float(p["column"]))
        self.__dict__.update(plan)

    def _plan(self, width: float, max_height: float, *, vertical: bool) -> dict[str, Any]:
        count = max(1, len(self.states))
        column = width if vertical else (width - _ARROW * (count - 1)) / count
        caption = _CAPTION * 1.6 if any(self.captions) else 0.0
        layout: list[list[tuple[Board | Row, float, float, float]]] = []
        heights = []
        for areas in self.states:
            placed = []
            height = 0.0
            for area in areas:
                w, h = self._size(area)
                scale = column / w if isinstance(area, Board) else min(1.0, column / w)
                placed.append((area, scale, w, h))
                height += h * scale + (_GAP if len(placed) > 1 else 0.0)
            layout.append(placed)
            heights.append(height)
        if vertical:
            natural = sum(heights) + count * caption + (count - 1) * _ARROW
            fixed = count * caption + (count - 1) * _ARROW
        else:
            natural, fixed = max(heights, default=0.0) + caption, caption
        shrink = min(1.0, (max_height - fixed) / (natural - fixed)) if natural > fixed else 1.0
        drawn = [h * shrink for h in heights]
        return {
            "vertical": vertical,
            "layout": layout,
            "column": column * shrink,
            "shrink": shrink,
            "caption": caption,
            "heights": drawn,
            "width": column * shrink
            if vertical
            else column * shrink * count + _ARROW * (count - 1),
            "height": (sum(drawn) + fixed) if vertical else max(drawn, default=0.0) + caption,
        }

    def _size(self, area: Board | Row) -> tuple[float, float]:
        return self._board_size(area) if isinstance(area, Board) else self._row_size(area)

    # -- sizes at scale 1 (points; a board as printed, a row's cards at _ROW_CARD wide) ----

    def _board_size(self, board: Board) -> tuple[float, float]:
        face = self.faces.get(board.face)
        if face is not None:
            return face.width, face.height
        # A bare board (map tiles put together): as wide as it is tall, as the table has it.
        return mm(120), mm(120)

    def _row_size(self, row: Row) -> tuple[float, float]:
        sizes = [self._card_size(card) for card in row.cards]
        width = sum(w for w, _ in sizes) + _GAP * max(0, len(sizes) - 1)
        return width, max((h for _, h in sizes), default=0.0)

    def _card_size(self, card: Card) -> tuple[float, float]:
        face = self.faces.get(card.face)
        if face is None:
            return _ROW_CARD, _ROW_CARD * 0.6
        return _ROW_CARD, _ROW_CARD * face.height / face.width

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        return self.width, self.height

    def text_drawn(self) -> str:
        """Every character the figure draws (its faces' texts, labels and captions), for the
        font subset."""
        chars: set[str] = set("".join(self.captions))
        for areas in self.states:
            for area in areas:
                refs: list[FaceRef | None] = []
                if isinstance(area, Board):
                    refs.append(area.face)
                    refs.extend(card.face for card, *_ in area.cards)
                    refs.extend(piece.face for piece in area.pieces)
                    chars.update("".join(piece.label[:3] for piece in area.pieces))
                else:
                    refs.extend(card.face for card in area.cards)
                for ref in refs:
                    face = self.faces.get(ref)
                    for shape in face.shapes if face is not None else ():
                        if isinstance(shape, TextShape):
                            chars.update(shape.text)
        return "".join(sorted(chars))

    # -- drawing ----------------------------------------------------------------------------

    def draw(self) -> None:
        canvas = self.canv
        x, top = 0.0, self.height
        for index, placed in enumerate(self.layout):
            y = top
            for area, scale, w, h in placed:
                scale *= self.shrink
                self._scale = scale
                canvas.saveState()
                canvas.translate(x + (self.column - w * scale) / 2, y - h * scale)
                canvas.scale(scale, scale)
                if isinstance(area, Board):
                    self._draw_board(area, 0, 0, w, h)
                else:
                    self._draw_row(area, 0, 0)
                canvas.restoreState()
                y -= h * scale + _GAP * self.shrink
            below = top - self.heights[index] - self.caption if self.vertical else 0.0
            if index < len(self.captions) and self.captions[index]:
                canvas.setFont(self.fonts.regular, _CAPTION)
                canvas.setFillColor(HexColor("#555555"))
                canvas.drawCentredString(x + self.column / 2, below + 3, self.captions[index])
            if index == len(self.layout) - 1:
                break
            if self.vertical:
                self._draw_arrow(x + self.column / 2, below - _ARROW / 2, down=True)
                top = below - _ARROW
            else:
                x += self.column
                self._draw_arrow(x + _ARROW / 2, self.caption + (self.height - self.caption) / 2)
                x += _ARROW

    def _draw_arrow(self, cx: float, cy: float, *, down: bool = False) -> None:
        draw_arrow(self.canv, cx, cy, down=down)

    def _face_at(self, face: Face, x: float, y: float, width: float) -> float:
        """Draw `face` scaled to `width` with its bottom-left at (x, y); its drawn height."""
        # Once per book as a form (its box clips to the trim): the same board, cards and
        # pieces come back in figure after figure.
        forms = document_forms(self.canv, self.fonts, self.faces.content_root)
        return forms.place(face, x, y, width)

    def _draw_board(self, board: Board, x: float, y: float, w: float, h: float) -> None:
        canvas = self.canv
        face = self.faces.get(board.face)
        if face is not None:
            self._face_at(face, x, y, w)
        else:
            canvas.setFillColor(HexColor("#2d2a22"))
            canvas.rect(x, y, w, h, stroke=0, fill=1)
        for card, left, top, width in board.cards:
            card_face = self.faces.get(card.face)
            if card_face is None:
                continue
            drawn_w = width * w
            drawn_h = drawn_w * card_face.height / card_face.width
            if card.turned:
                # Lying a quarter turn about the centre of its box, as the table shows it.
                canvas.saveState()
                canvas.translate(x + left * w + drawn_w / 2, y + h - top * h - drawn_h / 2)
                canvas.rotate(-90)
                self._face_at(card_face, -drawn_w / 2, -drawn_h / 2, drawn_w)
                canvas.restoreState()
                continue
            self._face_at(card_face, x + left * w, y + h - top * h - drawn_h, drawn_w)
            if card.marked:
                self._ring_box(x + left * w, y + h - top * h - drawn_h, drawn_w, drawn_h)
        for piece in board.pieces:
            self._draw_piece(board, piece, x, y, w, h)

    def _draw_piece(
        self, board: Board, piece: Piece, x: float, y: float, w: float, h: float
    ) -> None:
        canvas = self.canv
        px, py = piece.x, piece.y
        if piece.anchor and board.face is not None:
            found = self.faces.get(board.face) and self.faces.anchor(board.face, piece.anchor)
            if not found:
                return  # as the table: a piece whose printed place is absent is not drawn
            px, py = found
        # At least _SMALLEST_PIECE on the page: a figure token on a board scaled to a column
        # would otherwise be a speck.
        size = max(piece.size * w, _SMALLEST_PIECE / getattr(self, "_scale", 1.0))
        cx, cy = x + px * w, y + h - py * h
        face = self.faces.get(piece.face)
        if face is not None:
            drawn_h = size * face.height / face.width
            self._face_at(face, cx - size / 2, cy - drawn_h / 2, size)
            return
        canvas.setFillColor(HexColor(piece.colour))
        canvas.setStrokeColor(HexColor("#ffffff"))
        canvas.setLineWidth(max(0.4, size / 14))
        canvas.circle(cx, cy, size / 2, stroke=1, fill=1)
        if piece.label:
            canvas.setFillColor(HexColor("#ffffff"))
            text_size = min(size * 0.45, 14.0)
            canvas.setFont(self.fonts.bold, text_size)
            canvas.drawCentredString(cx, cy - text_size * 0.35, piece.label[:3])

    def _draw_row(self, row: Row, x: float, y: float) -> None:
        _, height = self._row_size(row)
        for card in row.cards:
            w, h = self._card_size(card)
            face = self.faces.get(card.face)
            bottom = y + height - h
            if face is not None:
                self._face_at(face, x, bottom, w)
            else:
                # A place with nothing on it (an empty discard pile, a player's empty seat):
                # a dashed outline, as a place is marked on a table.
                canvas = self.canv
                canvas.saveState()
                canvas.setStrokeColor(HexColor("#999999"))
                canvas.setLineWidth(0.6)
                canvas.setDash([2, 2])
                canvas.rect(x, bottom, w, h, stroke=1, fill=0)
                canvas.restoreState()
            if card.marked:
                self._ring_box(x, bottom, w, h)
            x += w + _GAP

    def _ring_box(self, x: float, y: float, w: float, h: float) -> None:
        canvas = self.canv
        canvas.setStrokeColor(HexColor("#e0a800"))
        canvas.setLineWidth(2)
        canvas.rect(x - 1, y - 1, w + 2, h + 2, stroke=1, fill=0)


def draw_arrow(canvas: Any, cx: float, cy: float, *, down: bool = False) -> None:
    """A short thick arrow centred on (cx, cy), pointing right (or down)."""
    canvas.saveState()
    canvas.translate(cx, cy)
    if down:
        canvas.rotate(-90)
    canvas.setFillColor(HexColor("#8c2a2a"))
    half = _ARROW / 2
    path = canvas.beginPath()
    path.moveTo(-half + mm(1.5), mm(1.2))
    path.lineTo(half - mm(3), mm(1.2))
    path.lineTo(half - mm(3), mm(2.6))
    path.lineTo(half - mm(1), 0)
    path.lineTo(half - mm(3), -mm(2.6))
    path.lineTo(half - mm(3), -mm(1.2))
    path.lineTo(-half + mm(1.5), -mm(1.2))
    path.close()
    canvas.drawPath(path, stroke=0, fill=1)
    canvas.restoreState()


class StepArrow(Flowable):
    """The arrow from one state of a position to the next, between figures drawn one under
    another."""

    def __init__(self, width: float) -> None:
        super().__init__()
        self.width, self.height = width, _ARROW

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        draw_arrow(self.canv, self.width / 2, self.height / 2, down=True)


class CoverArt(Flowable):
    """The cover's picture, composed from the kit itself: the game's mark (its icon named
    ``mark``) over a fan of the first card of each card product, as they are printed."""

    def __init__(
        self,
        faces: Sequence[Face],
        mark: Icon | None,
        colour: str,
        fonts: FontSet,
        width: float,
        content_root: Path,
    ) -> None:
        super().__init__()
        self.content_root = content_root
        self.faces, self.mark, self.colour, self.fonts = list(faces)[:4], mark, colour, fonts
        self.width, self.card_w = width, mm(30)
        tallest = max((f.height / f.width for f in self.faces), default=1.4)
        self.height = mm(24) + self.card_w * tallest + mm(8)

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        return self.width, self.height

    def text_drawn(self) -> str:
        chars: set[str] = set()
        for face in self.faces:
            for shape in face.shapes:
                if isinstance(shape, TextShape):
                    chars.update(shape.text)
        return "".join(sorted(chars))

    def draw(self) -> None:
        canvas = self.canv
        if self.mark is not None:
            side = mm(18)
            draw_icon(
                canvas, self.mark, (self.width - side) / 2, self.height - side, side, self.colour
            )
        count = len(self.faces)
        # The first product (the main deck) lies on top: drawn last.
        for index, face in reversed(list(enumerate(self.faces))):
            # Fanned as a hand holds them: each a little turned about the fan's foot.
            angle = (index - (count - 1) / 2) * 9.0
            scale = self.card_w / face.width
            canvas.saveState()
            canvas.translate(self.width / 2, -mm(30))
            canvas.rotate(-angle)
            canvas.translate(-self.card_w / 2, mm(30) + mm(4))
            canvas.scale(scale, scale)
            path = canvas.beginPath()
            path.roundRect(0, 0, face.width, face.height, mm(2.5) / scale)
            canvas.clipPath(path, stroke=0, fill=0)
            canvas.doForm(document_forms(canvas, self.fonts, self.content_root).name_for(face))
            canvas.restoreState()


def cover_faces(game: LoadedGame, faces: KitFaces) -> list[Face]:
    """The first front of each card product of the kit, in the kit's order."""
    found = []
    for product in game.model.products:
        if product.kind is not ProductKind.CARDS:
            continue
        items = getattr(game.model, product.items, ())
        first = next(iter(items), None)
        face = faces.get(FaceRef(product.id, first.id)) if first is not None else None
        if face is not None:
            found.append(face)
    return found
