"""What the player sees of a MAQUIS table, drawn with the kit's own faces.

The town board with the figures on its spaces (resistance workers, police, soldiers), the
vacant-house tiles laid, the airdrops lying on their zones and the two mission cards at the
exits with their success marks; the morale, soldier and day tracks with their markers; the
stock of resources; the patrol deck (face down, a count) and the last patrol card drawn. A
solo game hides only the order of the patrol deck, which no view shows.
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
    Spot,
    TrackMark,
    product,
    product_of,
    sheet_size_mm,
)
from pnp.games.maquis.model import LocationKind, Reward
from pnp.games.maquis.rules import MaquisRules
from pnp.games.maquis.state import (
    ACTIVE,
    POLICE,
    SOLDIER,
    WORKER,
    Activate,
    Kill,
    MaquisState,
    PatrolDraw,
    Place,
    Return,
    Stay,
)
from pnp.units import parse_length, to_mm

SPACE_MM = (50.0, 28.0)
"""The clickable box round a space's centre (a little inside the printed space)."""
FIGURE_MM = 13.0
NAME_STRIP_MM = 7.0
"""A mission slot's name strip, above the card lying in it."""


class MaquisView:
    """The views of one MAQUIS table."""

    def __init__(self, rules: MaquisRules) -> None:
        self.rules = rules
        model = rules.model
        board_product = product(model, product_of(model, "boards"))
        self.board = FaceRef(board_product.id, model.boards[0].id)
        self.width, self.height = sheet_size_mm(board_product)
        self.mission_slots = [
            slot for slot in board_product.slots if slot.holds == product_of(model, "missions")
        ]
        # Workers still waiting to be recruited stand in the café's box (a slot of the board).
        self.waiting = next((s for s in board_product.slots if s.id == "cafe-waiting"), None)
        figures = product_of(model, "figure_tokens")
        self.figure = {
            WORKER: FaceRef(figures, "resistance"),
            ACTIVE: FaceRef(figures, "resistance"),
            POLICE: FaceRef(figures, "police"),
            SOLDIER: FaceRef(figures, "soldier"),
        }
        self.patrols = product_of(model, "patrol_cards")
        self.missions = product_of(model, "missions")
        self.mission_size = sheet_size_mm(product(model, self.missions))
        self.tiles = product_of(model, "vacant_tiles")
        self.resources = product_of(model, "resource_tokens")
        # The kit prints one token per resource; the engine names resources by their own id.
        self.resource_face = {
            res.id: FaceRef(self.resources, token.id)
            for res, token in zip(model.resources, model.resource_tokens, strict=True)
        }
        self.markers = product_of(model, "marker_tokens")

    # -- the scene -------------------------------------------------------------------------

    def scene(self, state: MaquisState, seat: int | None, played: Sequence[Any] = ()) -> Scene:
        rules = self.rules
        model = rules.model
        spots = []
        pieces: list[Piece] = []
        cards: list[tuple[Card, float, float, float]] = []
        size = FIGURE_MM / self.width
        for i, loc in enumerate(rules.locs):
            x, y = loc.x / self.width, loc.y / self.height
            spots.append(
                Spot(
                    f"loc:{loc.id}",
                    x - SPACE_MM[0] / 2 / self.width,
                    y - SPACE_MM[1] / 2 / self.height,
                    SPACE_MM[0] / self.width,
                    SPACE_MM[1] / self.height,
                    loc.name,
                )
            )
            figure = state.board[i]
            if figure in self.figure:
                pieces.append(Piece(x, y + 0.01, size, label=loc.name, face=self.figure[figure]))
            if loc.kind is LocationKind.SAFE_HOUSE:
                for k in range(state.home):
                    pieces.append(
                        Piece(
                            x + (k - (state.home - 1) / 2) * size * 1.1,
                            y + 0.02,
                            size,
                            label="worker at home",
                            face=self.figure[WORKER],
                        )
                    )
        for k, tile in enumerate(state.tiles):
            if tile:
                loc = rules.locs[rules.vacant[k]]
                width = 50.0 / self.width
                cards.append(
                    (
                        Card(FaceRef(self.tiles, tile), rules.tiles[tile].name),
                        loc.x / self.width - width / 2,
                        (loc.y - 15) / self.height,
                        width,
                    )
                )
        for k, drop in enumerate(state.drops):
            loc = rules.locs[rules.zones[k]]
            placed = 0
            for r, amount in enumerate(drop):
                for _ in range(amount):
                    pieces.append(
                        Piece(
                            (loc.x - 18 + 7 * placed) / self.width,
                            (loc.y + 6) / self.height,
                            6 / self.width,
                            label=rules.res[r],
                            face=self.resource_face[rules.res[r]],
                        )
                    )
                    placed += 1
        for slot, mission_id in zip(self.mission_slots, state.missions, strict=False):
            # The mission card lies a quarter turn in its slot, under the slot's name strip.
            card_w, card_h = self.mission_size
            centre_x = (_mm(slot.x) + _mm(slot.w) / 2) / self.width
            centre_y = _mm(slot.y) + NAME_STRIP_MM + (_mm(slot.h) - NAME_STRIP_MM) / 2
            cards.append(
                (
                    Card(
                        FaceRef(self.missions, mission_id),
                        rules.missions[mission_id].name,
                        turned=True,
                    ),
                    centre_x - card_w / 2 / self.width,
                    (centre_y - card_h / 2) / self.height,
                    card_w / self.width,
                )
            )
        if self.waiting is not None:
            left, top = _mm(self.waiting.x), _mm(self.waiting.y)
            for k in range(state.cafe):
                pieces.append(
                    Piece(
                        (left + 10 + k * (FIGURE_MM + 2)) / self.width,
                        (top + _mm(self.waiting.h) / 2) / self.height,
                        size,
                        label="waiting in the café",
                        face=self.figure[WORKER],
                    )
                )
        board = Board("Town", self.board, tuple(spots), tuple(pieces), tuple(cards))
        marker = {m.id: FaceRef(self.markers, m.id) for m in model.tokens}
        tracks = (
            TrackMark(
                "Morale", self.board.product, "morale", state.morale, marker.get("morale-marker")
            ),
            TrackMark(
                "Soldiers",
                self.board.product,
                "soldiers",
                state.soldiers,
                marker.get("soldier-marker"),
            ),
            TrackMark("Day", self.board.product, "day", state.day, marker.get("day-marker")),
        )
        stock = Row(
            "Stock",
            tuple(
                Card(self.resource_face[res.id], res.name, count=state.stock[r])
                for r, res in enumerate(model.resources)
            ),
            size="small",
        )
        last = next((a for a in reversed(played) if isinstance(a, PatrolDraw)), None)
        patrols = Row(
            "Patrol deck",
            (
                Card(
                    FaceRef(self.patrols, model.patrol_cards[0].id, "back"),
                    "draw pile",
                    count=len(state.draw),
                ),
                Card(
                    FaceRef(self.patrols, last.card),
                    "last patrol",
                    count=len(state.discard),
                    marked=True,
                )
                if last is not None and state.discard
                else Card(label="no patrol drawn yet"),
            ),
        )
        missions = []
        for mission_id, boxes in zip(state.missions, state.boxes, strict=True):
            mission = rules.missions[mission_id]
            missions.append((mission.name, f"{sum(boxes)} of {len(boxes)} boxes"))
        counters = Counters(
            "Round",
            (
                ("round", str(state.rounds + 1)),
                (
                    "phase",
                    {"place": "placement", "act": "actions", "over": "over"}.get(
                        state.phase, state.phase
                    ),
                ),
                ("patrols this round", f"{state.patrols} ({state.round_soldiers} soldiers)"),
                ("workers at home", str(state.home)),
                ("waiting in the café", str(state.cafe)),
                *missions,
            ),
        )
        return Scene(
            status=self._status(state),
            seats=(SeatInfo(0, (f"morale {state.morale}", f"day {state.day}")),),
            areas=(board, *tracks, stock, patrols, counters),
            focus=seat,
        )

    def _status(self, state: MaquisState) -> str:
        rules = self.rules
        if state.ended is not None:
            return f"Game over: {rules.result(state).value} ({state.ended.value})"
        if rules.current_player(state) is None:
            return "A patrol goes out"
        if state.phase == "place":
            return f"Place a worker ({state.to_place} to place)"
        if state.active >= 0:
            return f"The worker on {rules.locs[state.active].name} walks home"
        return "Activate your workers"

    # -- moves and the log -------------------------------------------------------------------

    def moves(self, state: MaquisState, seat: int) -> list[Move]:
        rules = self.rules
        if rules.current_player(state) != seat:
            return []
        moves = []
        for action in rules.legal_actions(state):
            if isinstance(action, Place):
                moves.append(Move(str(action), f"loc:{action.loc}", "place a worker here"))
            elif isinstance(action, Activate):
                moves.append(Move(str(action), f"loc:{action.loc}", self._choice(state, action)))
            elif isinstance(action, Kill):
                cost = _bundle(rules.model.settings.kill_cost, rules)
                moves.append(Move(str(action), f"loc:{action.loc}", f"kill the police ({cost})"))
            elif isinstance(action, Stay):
                moves.append(Move(str(action), "", "no space left: stay home"))
            elif isinstance(action, Return):
                moves.append(Move(str(action), "", "walk home"))
            else:
                moves.append(Move(str(action), "", str(action)))
        return moves

    def _choice(self, state: MaquisState, action: Activate) -> str:
        rules = self.rules
        if action.choice == "-":
            return "do nothing here"
        index = rules.index[action.loc]
        option = next((o for o in rules.options(state, index) if o.key == action.choice), None)
        if option is None:
            return action.choice
        parts = []
        if option.pay:
            parts.append(f"pay {_bundle(option.pay, rules)}")
        if option.build:
            parts.append(f"lay {rules.tiles[option.build].name}")
        if option.collect >= 0:
            parts.append("collect the airdrop")
        if option.mission is not None:
            slot, step = option.mission
            mission = rules.missions[state.missions[slot]]
            parts.append(f"{mission.name}: {mission.steps[step].name}")
        if option.airdrop:
            parts.append(f"airdrop {_bundle(option.airdrop, rules)}")
        if option.reward is not None:
            parts.append(_reward(option.reward, rules))
        return " → ".join(part for part in parts if part) or action.choice

    def describe(
        self, before: MaquisState, action: Any, after: MaquisState, seat: int | None
    ) -> str:
        rules = self.rules
        if isinstance(action, PatrolDraw):
            card = next(c for c in rules.model.patrol_cards if c.id == action.card)
            text = f"patrol {card.name} ({action})"
            arrested = (
                before.home
                + sum(c in (WORKER, ACTIVE) for c in before.board)
                - (after.home + sum(c in (WORKER, ACTIVE) for c in after.board))
            )
            if arrested > 0:
                text += ": a worker is arrested"
            return text
        if isinstance(action, Place):
            return f"places a worker on {rules.locs[rules.index[action.loc]].name} ({action})"
        if isinstance(action, Activate):
            name = rules.locs[rules.index[action.loc]].name
            return f"{name}: {self._choice(before, action)} ({action})"
        if isinstance(action, Return):
            if after.home > before.home:
                return "the worker walks home (home)"
            return "the worker is arrested on the way home (home)"
        if isinstance(action, Kill):
            return f"kills the police on {rules.locs[rules.index[action.loc]].name} ({action})"
        return str(action)


def _bundle(bundle: dict[str, int], rules: MaquisRules) -> str:
    names = {r.id: r.name for r in rules.model.resources}
    return " ".join(f"{amount} {names.get(res, res)}" for res, amount in bundle.items() if amount)


def _reward(reward: Reward, rules: MaquisRules) -> str:
    parts = []
    if reward.resources:
        parts.append(f"take {_bundle(reward.resources, rules)}")
    if reward.morale:
        parts.append(f"morale {reward.morale:+d}")
    if reward.recruit:
        parts.append(f"recruit {reward.recruit}")
    if reward.airdrop:
        parts.append("call an airdrop")
    return ", ".join(parts)


def _mm(length: str) -> float:
    return to_mm(parse_length(length))


def view(rules: Any) -> MaquisView:
    """``Game.view``: the views of one table."""
    assert isinstance(rules, MaquisRules)
    return MaquisView(rules)
