"""What each seat sees of a MineVenture table, drawn with the kit's own faces.

The map as its tiles lie in the table's assembly, with every player's head token on its cell;
the game status board's tracks (day, day or night, the Ender Dragon's life); each player's
field cards face up (weapons, armour, partner), life and buffs; a seat's own hand face up and
every other hand as backs with a count; the draw piles with their counts.
"""

from __future__ import annotations

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
    faces_by_id,
    player_name,
    product_of,
)
from pnp.games.mineventure.rules import MineventureRules
from pnp.games.mineventure.state import Act, MineventureState


class MineventureView:
    """The views of one MineVenture table."""

    def __init__(self, rules: MineventureRules) -> None:
        self.rules = rules
        model = rules.model
        self.faces = faces_by_id(model)
        self.assembly = rules.assembly
        self.heads = product_of(model, "characters")
        self.back: dict[int, FaceRef] = {}
        for code, token in enumerate(rules.tokens):
            deck = rules.card_deck[code]
            face = self.faces.get(token)
            if face is not None and deck not in self.back:
                self.back[deck] = face.back_of

    def _card(self, code: int, label: str = "", element: str = "") -> Card:
        token = self.rules.tokens[code]
        return Card(self.faces.get(token), label or token, element=element)

    # -- the scene -------------------------------------------------------------------------

    def scene(self, state: MineventureState, seat: int | None, played: Sequence[Any] = ()) -> Scene:
        rules = self.rules
        model = rules.model
        size = self.assembly.size
        tiles = {tile.id: tile for tile in model.small_tiles + model.large_tiles}
        cards: list[tuple[Card, float, float, float]] = []
        for placement in self.assembly.placements:
            tile = tiles[placement.tile]
            cards.append(
                (
                    Card(self.faces.get(tile.id), tile.name),
                    placement.x / size,
                    placement.y / size,
                    tile.width / size,
                )
            )
        pieces = []
        for s, player in enumerate(state.players):
            if player.alive and player.x >= 0:
                character = model.characters[player.character]
                pieces.append(
                    Piece(
                        (player.x + 0.5) / size,
                        (player.y + 0.5) / size,
                        1.6 / size,
                        character.colour,
                        player_name(s),
                        FaceRef(self.heads, character.id),
                    )
                )
        areas: list[Any] = [Board(self.assembly.name, None, (), tuple(pieces), tuple(cards))]
        piles = []
        for deck, (pile, _bottom, _discard) in enumerate(state.piles):
            back = self.back.get(deck)
            if back is not None:
                piles.append(
                    Card(
                        back,
                        model.decks[deck].name if deck < len(model.decks) else f"deck {deck}",
                        count=len(pile),
                    )
                )
        areas.append(Row("Draw piles", tuple(piles)))
        values = [
            ("day", str(state.day)),
            ("time", "night" if state.night else "day"),
            ("round", str(state.round)),
            ("Ender Dragon", str(state.dragon_hp)),
        ]
        if state.roll:
            values.append(("roll", str(state.roll)))
        areas.append(Counters("World", tuple(values)))
        for s in range(len(state.players)):
            if s != seat:
                areas.append(self._player(state, s, open_=seat is None))
        if seat is not None:
            areas.append(self._player(state, seat, open_=True, own=True))
        return Scene(
            status=self._status(state),
            seats=tuple(
                SeatInfo(
                    s,
                    (model.characters[p.character].name, f"HP {p.hp}", f"hand {len(p.hand)}"),
                    out=not p.alive,
                )
                for s, p in enumerate(state.players)
            ),
            areas=tuple(areas),
            focus=seat,
        )

    def _player(self, state: MineventureState, seat: int, *, open_: bool, own: bool = False) -> Row:
        player = state.players[seat]
        model = self.rules.model
        cards = [Card(self.faces.get(model.characters[player.character].id), f"HP {player.hp}")]
        for slot, code in (
            ("main", player.main),
            ("sub", player.sub),
            ("armour", player.armour),
            ("partner", player.partner),
        ):
            if code >= 0:
                cards.append(self._card(code, slot))
        if open_:
            for code in player.hand:
                cards.append(self._card(code, element=f"card:{self.rules.tokens[code]}"))
        elif player.hand:
            backs = {self.back.get(self.rules.card_deck[c]) for c in player.hand}
            face = next(iter(backs)) if len(backs) == 1 else None
            cards.append(Card(face, "hand", count=len(player.hand)))
        title = "You" if own else player_name(seat)
        return Row(title, tuple(cards), size="large" if own else "small")

    def _status(self, state: MineventureState) -> str:
        if state.ended:
            return f"Game over ({state.ended})"
        actor = self.rules.current_player(state)
        return "Chance" if actor is None else f"{player_name(actor)}: {state.phase}"

    # -- moves and the log -------------------------------------------------------------------

    def moves(self, state: MineventureState, seat: int) -> list[Move]:
        rules = self.rules
        if rules.current_player(state) != seat:
            return []
        hand = {rules.tokens[c] for c in state.players[seat].hand}
        moves = []
        for action in rules.legal_actions(state):
            text = str(action)
            if isinstance(action, Act) and action.a in hand:
                moves.append(Move(text, f"card:{action.a}", text))
            else:
                moves.append(Move(text, "", text))
        return moves

    def describe(
        self, before: MineventureState, action: Any, after: MineventureState, seat: int | None
    ) -> str:
        actor = self.rules.current_player(before)
        if seat is None or actor == seat:
            return str(action)
        if actor is None:
            # A chance step deals or draws: the card shows in its holder's own view.
            return "chance: a card is dealt or drawn"
        return str(action)


def view(rules: Any) -> MineventureView:
    """``Game.view``: the views of one table."""
    assert isinstance(rules, MineventureRules)
    return MineventureView(rules)
