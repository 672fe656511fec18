"""What each seat sees of an Arena Tales table, drawn with the kit's own faces.

The hex arena with each character's pawn; per player the zones of the player board: the
display (face-up cards shown, face-down ones as backs to everyone else), the exhausted pile
(face up), the recycle pile, deck and life (face down, with counts), the sanity card's side
and the pending draw. A seat sees its own hand face up and every other hand as backs.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from pnp.engines.view import (
    Board,
    Card,
    Counters,
    FaceRef,
    Move,
    Piece,
    Row,
    Scene,
    SeatInfo,
    Spot,
    player_name,
    product,
    product_of,
    sheet_size_mm,
)
from pnp.games.arena_tales.rules import ArenaTalesRules
from pnp.games.arena_tales.state import DOWN, ArenaState, Draw
from pnp.games.arena_tales.state import Move as Step
from pnp.games.arena_tales.state import Play as PlayCard

ARENA_TOP_MM = 20.0
"""Where the arena template starts the hex grid, below the title (templates/arena-tales/
arena.yaml: ``cy``); the hexes' size and count come from the model."""


class ArenaTalesView:
    """The views of one Arena Tales table."""

    def __init__(self, rules: ArenaTalesRules) -> None:
        self.rules = rules
        model = rules.model
        arena_product = product(model, product_of(model, "arenas"))
        self.arena = model.arena
        self.map = FaceRef(arena_product.id, self.arena.id)
        self.width, self.height = sheet_size_mm(arena_product)
        self.decks = product_of(model, "deck_cards")
        self.pawns = product_of(model, "pawns")
        self.sanity = FaceRef(product_of(model, "sanity_cards"), model.sanity_cards[0].id)
        self.deck_face = {(d.character.id, d.card.id): d.id for d in model.deck_cards}
        first = model.deck_cards[0].id
        self.back = FaceRef(self.decks, first, "back")

    def _face(self, character: str, code: int) -> FaceRef:
        token = self.rules.tokens[code]
        item = self.deck_face.get((character, token))
        if item is None:
            item = next(i for (c, t), i in self.deck_face.items() if t == token)
        return FaceRef(self.decks, item)

    def _hex(self, q: int, r: int) -> tuple[float, float]:
        # Flat-topped hexes as the template draws them: centre column at the middle.
        f = self.arena.hex_mm
        s = f / math.sqrt(3)
        cx = self.width / 2 + 1.5 * s * q
        cy = ARENA_TOP_MM + f * (2 * self.arena.radius + 1) / 2 + f * (r + q / 2)
        return cx / self.width, cy / self.height

    # -- the scene -------------------------------------------------------------------------

    def scene(self, state: ArenaState, seat: int | None, played: Sequence[Any] = ()) -> Scene:
        rules = self.rules
        cast = rules.cast(state)
        size = self.arena.hex_mm * 0.8 / self.width
        pieces = []
        for s, other in enumerate(state.seats):
            x, y = self._hex(*other.pos)
            pieces.append(
                Piece(
                    x,
                    y,
                    size,
                    label=f"{player_name(s)} ({cast[s]})",
                    face=FaceRef(self.pawns, f"pawn-{cast[s]}"),
                )
            )
        spots = []
        hex_w = self.arena.hex_mm / self.width
        hex_h = self.arena.hex_mm / self.height
        for q, r, _kind in self.arena.cells:
            x, y = self._hex(q, r)
            spots.append(Spot(f"hex:{q},{r}", x - hex_w / 2, y - hex_h / 2, hex_w, hex_h))
        areas: list[Any] = [
            Board(self.arena.name, self.map, tuple(spots), tuple(pieces), size="medium")
        ]
        for s in range(len(state.seats)):
            if s != seat:
                areas.append(self._zones(state, s, cast[s], open_=seat is None))
        areas.append(
            Counters("Turn", (("turn", str(state.turn)), ("to act", player_name(state.active))))
        )
        if seat is not None:
            areas.append(self._zones(state, seat, cast[seat], open_=True, own=True))
        return Scene(
            status=self._status(state),
            seats=tuple(
                SeatInfo(
                    s,
                    (
                        cast[s],
                        f"life {len(o.life)}",
                        f"hand {len(o.hand)}",
                        "sane" if o.sane else "out of control",
                    ),
                )
                for s, o in enumerate(state.seats)
            ),
            areas=tuple(areas),
            focus=seat,
        )

    def _zones(
        self, state: ArenaState, seat: int, character: str, *, open_: bool, own: bool = False
    ) -> Row:
        mine = state.seats[seat]
        cards: list[Card] = []
        for code, facing in mine.display:
            shown = open_ or facing != DOWN
            cards.append(
                Card(
                    self._face(character, code) if shown else self.back,
                    "display",
                    marked=facing != DOWN,
                )
            )
        if mine.exhausted:
            cards.append(
                Card(
                    self._face(character, mine.exhausted[-1]),
                    "exhausted",
                    count=len(mine.exhausted),
                )
            )
        for name, pile in (("recycle", mine.recycle), ("deck", mine.deck), ("life", mine.life)):
            cards.append(Card(self.back, name, count=len(pile)))
        cards.append(
            Card(self.sanity, "sane" if mine.sane else "out of control", turned=not mine.sane)
        )
        if open_:
            for code in mine.hand:
                cards.append(
                    Card(
                        self._face(character, code),
                        "hand",
                        element=f"card:{self.rules.tokens[code]}",
                    )
                )
        elif mine.hand:
            cards.append(Card(self.back, "hand", count=len(mine.hand)))
        title = (
            f"Your board · pending draw {mine.pending}"
            if own
            else (f"{player_name(seat)} · pending draw {mine.pending}")
        )
        return Row(title, tuple(cards), size="large" if own else "card")

    def _status(self, state: ArenaState) -> str:
        if state.ended is not None:
            return f"Game over ({state.ended.value})"
        actor = self.rules.current_player(state)
        return "Chance" if actor is None else f"{player_name(actor)} to act"

    # -- moves and the log -------------------------------------------------------------------

    def moves(self, state: ArenaState, seat: int) -> list[Move]:
        rules = self.rules
        if rules.current_player(state) != seat:
            return []
        moves = []
        for action in rules.legal_actions(state):
            text = str(action)
            if isinstance(action, PlayCard):
                target = "" if action.target is None else f" at {player_name(action.target)}"
                moves.append(Move(text, f"card:{action.card}", f"play{target}"))
            elif isinstance(action, Step):
                moves.append(Move(text, f"card:{action.card}", f"discard to move: {text}"))
            else:
                moves.append(Move(text, "", text))
        return moves

    def describe(self, before: ArenaState, action: Any, after: ArenaState, seat: int | None) -> str:
        actor = self.rules.current_player(before)
        if isinstance(action, Draw):
            return str(action) if seat is None else "a card is drawn"
        if isinstance(action, Step) and seat is not None and seat != actor:
            return "discards a card face down and moves"
        if isinstance(action, PlayCard) or seat is None or seat == actor:
            return str(action)
        return f"{type(action).__name__.lower()}"


def view(rules: Any) -> ArenaTalesView:
    """``Game.view``: the views of one table."""
    assert isinstance(rules, ArenaTalesRules)
    return ArenaTalesView(rules)
