"""What each seat sees of a Dragon Hoard table, drawn with the kit's own faces.

The lair map with the pawns, the dragon tile and the treasures on their cells; the placement
mat with the action cards placed this round (face down, in order, until the round's
resolution turns them up; a seat sees its own); this round's AI card (face down until
revealed) and next round's (seen only by the seat that peeked), the AI deck and the executed
pile; each seat's action cards in hand (its own face up), bag and heirloom.
"""

from __future__ import annotations

from collections import Counter
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
    player_name,
    product,
    product_of,
    sheet_size_mm,
)
from pnp.games.dragon_hoard.actions import DrawAI, Heirloom, Place, PrepCard, UseTreasure
from pnp.games.dragon_hoard.rules import DragonHoardRules
from pnp.games.dragon_hoard.state import DragonHoardState, Stage, Status
from pnp.units import parse_length, to_mm


class DragonHoardView:
    """The views of one Dragon Hoard table."""

    def __init__(self, rules: DragonHoardRules) -> None:
        self.rules = rules
        model = rules.model
        lair = model.lair
        map_product = product(model, product_of(model, "maps"))
        self.map = FaceRef(map_product.id, lair.id)
        self.width, self.height = sheet_size_mm(map_product)
        pawns = product_of(model, "pawns")
        # The map's first cell (A1) is a slot of the map; every cell lies a cell's side on.
        first = next(slot for slot in map_product.slots if slot.holds == pawns)
        self.origin = (to_mm(parse_length(first.x)), to_mm(parse_length(first.y)))
        self.cell = lair.cell_mm
        self.pawn = [FaceRef(pawns, pawn.id) for pawn in model.pawns]
        self.treasures = product_of(model, "treasures")
        self.ai = product_of(model, "ai_cards")
        self.actions = product_of(model, "action_prints")
        self.colours = model.player_colours
        self.dragon = FaceRef(product_of(model, "tiles"), model.tiles[0].id)
        self.ai_back = FaceRef(self.ai, rules.ai_ids[0], "back")
        self.action_back = FaceRef(self.actions, model.action_prints[0].id, "back")

    def _action_face(self, seat: int, card: int) -> FaceRef:
        return FaceRef(self.actions, f"{self.colours[seat].id}-{self.rules.card_ids[card]}")

    def _treasure(self, code: int) -> FaceRef:
        return FaceRef(self.treasures, self.rules.treasure_ids[code])

    def _at(self, cell: tuple[int, int]) -> tuple[float, float]:
        x = self.origin[0] + (cell[0] + 0.5) * self.cell
        y = self.origin[1] + (cell[1] + 0.5) * self.cell
        return x / self.width, y / self.height

    def hand(self, state: DragonHoardState, seat: int) -> list[int]:
        """The action cards ``seat`` still holds this round: its set less those used."""
        left = Counter(self.rules.sets[seat])
        left.subtract(Counter(state.used[seat]))
        return sorted(left.elements())

    # -- the scene -------------------------------------------------------------------------

    def scene(self, state: DragonHoardState, seat: int | None, played: Sequence[Any] = ()) -> Scene:
        rules = self.rules
        pieces: list[Piece] = []
        cards: list[tuple[Card, float, float, float]] = []
        dragon_w = (2 * rules.model.lair.dragon_radius + 1) * self.cell / self.width
        dx, dy = self._at(state.dragon)
        dragon_h = dragon_w * self.width / self.height
        cards.append((Card(self.dragon, "dragon"), dx - dragon_w / 2, dy - dragon_h / 2, dragon_w))
        token = 0.8 * self.cell / self.width
        for column, row, code in state.floor:
            x, y = self._at((column, row))
            pieces.append(
                Piece(x, y, token, label=rules.treasure_ids[code], face=self._treasure(code))
            )
        for s, cell in enumerate(state.pawns):
            if cell is not None:
                x, y = self._at(cell)
                pieces.append(
                    Piece(
                        x + 0.1 * token, y - 0.005, token, label=player_name(s), face=self.pawn[s]
                    )
                )
        areas: list[Any] = [Board(rules.model.lair.name, self.map, (), tuple(pieces), tuple(cards))]

        faces_up = state.stage is not Stage.PLACEMENT
        mat = []
        for owner, code in state.placed:
            shown = faces_up or seat is None or owner == seat
            mat.append(
                Card(
                    self._action_face(owner, code) if shown else self.action_back,
                    player_name(owner),
                )
            )
        areas.append(
            Row("Placement mat (first placed first)", tuple(mat) or (Card(label="empty"),))
        )

        current_shown = state.revealed or state.stage not in (Stage.DRAW, Stage.PLACEMENT)
        ai_cards = [Card(self.ai_back, "AI deck", count=len(state.deck))]
        if state.current >= 0:
            shown = current_shown or seat is None
            ai_cards.append(
                Card(
                    FaceRef(self.ai, rules.ai_ids[state.current]) if shown else self.ai_back,
                    "this round",
                    marked=shown,
                )
            )
        if state.upcoming >= 0:
            shown = seat is None or state.peeker == seat
            ai_cards.append(
                Card(
                    FaceRef(self.ai, rules.ai_ids[state.upcoming]) if shown else self.ai_back,
                    "next round",
                )
            )
        if state.executed:
            ai_cards.append(
                Card(
                    FaceRef(self.ai, rules.ai_ids[state.executed[-1]]),
                    "executed",
                    count=len(state.executed),
                )
            )
        areas.append(Row("Dragon AI", tuple(ai_cards)))

        for s in range(rules.players):
            if s == seat:
                continue
            areas.append(self._seat_row(state, s, open_=seat is None))
        areas.append(
            Counters(
                "Round",
                (
                    ("round", str(state.round)),
                    ("stage", state.stage.name.lower()),
                    ("hourglass", player_name(state.holder)),
                    ("recall cards drawn", str(state.recalls)),
                    ("countdown", "yes" if state.countdown else "no"),
                ),
            )
        )
        if seat is not None:
            areas.append(self._seat_row(state, seat, open_=True, own=True))
        return Scene(
            status=self._status(state),
            seats=tuple(self._info(state, s) for s in range(rules.players)),
            areas=tuple(areas),
            focus=seat,
        )

    def _seat_row(
        self, state: DragonHoardState, seat: int, *, open_: bool, own: bool = False
    ) -> Row:
        hand = self.hand(state, seat)
        cards: list[Card] = []
        if open_:
            for code in sorted(set(hand)):
                card_id = self.rules.card_ids[code]
                cards.append(
                    Card(
                        self._action_face(seat, code),
                        self.rules.cards[code].name,
                        element=f"card:{card_id}",
                        count=hand.count(code),
                    )
                )
        elif hand:
            cards.append(Card(self.action_back, "action cards", count=len(hand)))
        if state.heirlooms[seat] >= 0:
            code = state.heirlooms[seat]
            cards.append(
                Card(
                    self._treasure(code),
                    "heirloom",
                    element=f"treasure:{self.rules.treasure_ids[code]}",
                )
            )
        for code in sorted(set(state.bags[seat])):
            cards.append(
                Card(
                    self._treasure(code),
                    "bag",
                    count=state.bags[seat].count(code),
                    element=f"treasure:{self.rules.treasure_ids[code]}",
                )
            )
        title = "Your cards and treasures" if own else f"{player_name(seat)}"
        return Row(
            title, tuple(cards) or (Card(label="nothing"),), size="large" if own else "small"
        )

    def _info(self, state: DragonHoardState, seat: int) -> SeatInfo:
        score = sum(self.rules.value[c] for c in state.bags[seat])
        if state.heirlooms[seat] >= 0:
            score += self.rules.value[state.heirlooms[seat]]
        status = state.status[seat]
        return SeatInfo(
            seat,
            (status.value, f"treasure {score}", *(["sideways"] if state.sideways[seat] else [])),
            out=status in (Status.DEAD, Status.QUIT),
        )

    def _status(self, state: DragonHoardState) -> str:
        if state.stage is Stage.OVER:
            return "Game over"
        if state.stage is Stage.DRAW:
            return f"{player_name(state.holder)} draws the AI card"
        return f"Round {state.round}, {state.stage.name.lower()}: {player_name(state.actor)} to act"

    # -- moves and the log -------------------------------------------------------------------

    def moves(self, state: DragonHoardState, seat: int) -> list[Move]:
        rules = self.rules
        if rules.current_player(state) != seat:
            return []
        moves = []
        for action in rules.legal_actions(state):
            text = str(action)
            if isinstance(action, (Place, PrepCard)):
                label = "place face down" if isinstance(action, Place) else text.partition(":")[2]
                moves.append(Move(text, f"card:{action.card}", label or "play it"))
            elif isinstance(action, (Heirloom, UseTreasure)):
                label = (
                    "make it the heirloom"
                    if isinstance(action, Heirloom)
                    else (f"use it{' → gate ' + action.gate if action.gate else ''}")
                )
                moves.append(Move(text, f"treasure:{action.treasure}", label))
            else:
                moves.append(Move(text, "", text))
        return moves

    def describe(
        self, before: DragonHoardState, action: Any, after: DragonHoardState, seat: int | None
    ) -> str:
        actor = self.rules.current_player(before)
        if isinstance(action, Place):
            if seat is None or seat == actor:
                return f"places {action.card} face down ({action})"
            return "places an action card face down"
        if isinstance(action, DrawAI):
            # The first round draws this round's card and the next; both lie face down.
            if seat is None:
                return f"the AI card {action.card} is drawn ({action})"
            return "an AI card is drawn face down"
        return str(action)


def view(rules: Any) -> DragonHoardView:
    """``Game.view``: the views of one table."""
    assert isinstance(rules, DragonHoardRules)
    return DragonHoardView(rules)
