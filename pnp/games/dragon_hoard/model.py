"""Dragon Hoard (魔龙宝窟): a real-time action-programming treasure race against a dragon.

Every number of the game (the lair's cells and features, the dragon's AI deck with its speed
markers, the action cards, the treasures, the settings of a round) is a field here, filled from
content/dragon-hoard/*.yaml. The engine, the card faces, the validator and the rulebook read it.

Two pieces of rule live here because every stage needs them and the model imports nothing:
the speed marker (`SpeedMarker`, with the ☆ rounding the content chooses) and the geometry of
the dragon's areas (`Lair.dragon_cells`, `Area.cells`).
"""

from __future__ import annotations

import enum
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import TypeVar

from pnp.errors import Location
from pnp.model.common import (
    NOWHERE,
    PlayerRange,
    doc,
)
from pnp.model.game import GameContent
from pnp.model.kit import Aid, Board, Card, Marker, Pawn, Token

T = TypeVar("T")
Cell = tuple[int, int]


class Direction(enum.Enum):
    """A compass direction on the lair map; north is the top edge of the printed map."""

    N = "n"
    E = "e"
    S = "s"
    W = "w"

    @property
    def step(self) -> Cell:
        return _STEPS[self]

    @property
    def label(self) -> str:
        return self.value.upper()


_STEPS: dict[Direction, Cell] = {
    Direction.N: (0, -1),
    Direction.E: (1, 0),
    Direction.S: (0, 1),
    Direction.W: (-1, 0),
}


class Rounding(enum.Enum):
    """How ☆×N becomes a whole number of player cards when players × N is a fraction."""

    DOWN = "down"
    """Round down: 3 players × ☆×1/2 = 1.5 → 1."""
    UP = "up"
    """Round up: 1.5 → 2."""
    NEAREST = "nearest"
    """Round half up: 1.5 → 2, 1.25 → 1."""

    def apply(self, value: Fraction) -> int:
        if self is Rounding.DOWN:
            return math.floor(value)
        if self is Rounding.UP:
            return math.ceil(value)
        return math.floor(value + Fraction(1, 2))


class SpeedKind(enum.Enum):
    """The four kinds of speed marker an AI card carries."""

    ZERO = "0"
    """Resolves before every player card."""
    INFINITY = "∞"
    """Resolves after every player card."""
    STAR = "☆"
    """Resolves after (players at game start × N) player cards, cancelled ones counted."""
    NUMBER = "n"
    """Resolves after N player cards (1..8), cancelled ones counted."""


STAR = "☆"
INFINITY = "∞"
TIMES = "×"
NUMBER_RANGE = range(1, 9)
"""Speed numbers the rules allow: 1..8."""
_STAR_TEXT = re.compile(r"^☆(?:[×x*](\d+)(?:/(\d+))?)?$")


class SpeedError(ValueError):
    """A speed marker that is not one of the four kinds."""


@dataclass(frozen=True)
class SpeedMarker:
    """A parsed speed marker: its kind and, for ☆×N and N, its number."""

    kind: SpeedKind
    n: Fraction = Fraction(0)

    @classmethod
    def parse(cls, text: str) -> SpeedMarker:
        """Read `0`, `∞`, `☆`, `☆×1/2`, `☆×3/2` or `1`..`8`; SpeedError if it is none of them."""
        raw = str(text).strip()
        if raw == "0":
            return cls(SpeedKind.ZERO)
        if raw == INFINITY:
            return cls(SpeedKind.INFINITY)
        if raw.isdigit():
            number = int(raw)
            if number not in NUMBER_RANGE:
                raise SpeedError(
                    f"speed {raw!r}: a number speed is {NUMBER_RANGE.start}..{NUMBER_RANGE[-1]}"
                )
            return cls(SpeedKind.NUMBER, Fraction(number))
        match = _STAR_TEXT.match(raw)
        if match is None:
            raise SpeedError(
                f"speed {raw!r} is not one of the four kinds: 0, ∞, ☆×N (☆, ☆×1/2, ☆×3/2 …) "
                f"or a number {NUMBER_RANGE.start}..{NUMBER_RANGE[-1]}"
            )
        numerator, denominator = match.groups()
        if numerator is None:
            return cls(SpeedKind.STAR, Fraction(1))
        if denominator is not None and int(denominator) == 0:
            raise SpeedError(f"speed {raw!r}: the fraction has a zero denominator")
        value = Fraction(int(numerator), int(denominator or 1))
        if value <= 0:
            raise SpeedError(f"speed {raw!r}: ☆×N needs N above 0")
        if denominator is not None and value.denominator != int(denominator):
            raise SpeedError(f"speed {raw!r}: write the fraction in lowest terms ({value})")
        return cls(SpeedKind.STAR, value)

    @property
    def symbol(self) -> str:
        """The marker as the cards and the rules print it: 0, ∞, ☆, ☆×1/2, 3."""
        if self.kind is SpeedKind.ZERO:
            return "0"
        if self.kind is SpeedKind.INFINITY:
            return INFINITY
        if self.kind is SpeedKind.NUMBER:
            return str(self.n)
        return STAR if self.n == 1 else f"{STAR}{TIMES}{self.n}"

    def wanted(self, players_at_start: int, rounding: Rounding) -> int | None:
        """Player cards the marker asks to resolve first; None for ∞ (after all of them)."""
        if self.kind is SpeedKind.ZERO:
            return 0
        if self.kind is SpeedKind.INFINITY:
            return None
        if self.kind is SpeedKind.NUMBER:
            return int(self.n)
        # ☆×N: players at the start of the game, whoever has left since.
        return rounding.apply(players_at_start * self.n)

    def slot(self, player_cards: int, players_at_start: int, rounding: Rounding) -> int:
        """How many of `player_cards` resolve before the AI card (cancelled cards counted).

        Fewer cards than the marker asks for: the AI card resolves after all of them.
        """
        wanted = self.wanted(players_at_start, rounding)
        return player_cards if wanted is None else min(wanted, player_cards)


AI = "AI"
"""The place of the AI card in a resolution order."""


def resolution_order(
    marker: SpeedMarker | str,
    player_cards: Sequence[T],
    players_at_start: int,
    rounding: Rounding = Rounding.DOWN,
) -> list[T | str]:
    """The player cards in resolution order (first placed first) with `AI` where the AI card
    falls: `resolution_order('☆', ['a', 'b', 'c'], 2)` → `['a', 'b', 'AI', 'c']`.

    Every card counts, cancelled ones included; the rounding is the content's
    `settings.star_rounding` (pass `game.settings.star_rounding`).
    """
    if isinstance(marker, str):
        marker = SpeedMarker.parse(marker)
    cards = list(player_cards)
    at = marker.slot(len(cards), players_at_start, rounding)
    return [*cards[:at], AI, *cards[at:]]


class AreaShape(enum.Enum):
    """Shapes of the cells a dragon attack hits, measured from the dragon's 3x3 body."""

    STRIP = "strip"
    """As wide as the dragon, from its body to the map's edge, in each of `directions`."""
    RING = "ring"
    """Every cell within `radius` cells (Chebyshev) of the dragon's body."""


@dataclass(frozen=True)
class Area:
    shape: AreaShape = field(metadata=doc("strip or ring"))
    directions: tuple[Direction, ...] = field(default=(), metadata=doc("strip: n, e, s, w"))
    radius: int = field(default=0, metadata=doc("ring: cells out from the dragon's body"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)

    def cells(self, lair: Lair, dragon: Cell) -> frozenset[Cell]:
        """The cells of the map this area hits with the dragon centred on `dragon`."""
        dx, dy = dragon
        body = lair.dragon_radius
        hit: set[Cell] = set()
        if self.shape is AreaShape.STRIP:
            for direction in self.directions:
                sx, sy = direction.step
                for x in range(lair.columns):
                    for y in range(lair.rows):
                        along = (x - dx) * sx + (y - dy) * sy
                        across = abs((x - dx) * sy) + abs((y - dy) * sx)
                        if along > body and across <= body:
                            hit.add((x, y))
        else:
            reach = body + self.radius
            for x in range(dx - reach, dx + reach + 1):
                for y in range(dy - reach, dy + reach + 1):
                    if max(abs(x - dx), abs(y - dy)) > body and lair.contains((x, y)):
                        hit.add((x, y))
        return frozenset(hit)


class AIEffectKind(enum.Enum):
    """What one step of an AI card does. The engine declares which kinds it implements."""

    ATTACK = "attack"
    """Every pawn in `area` dies, unless its character card is turned sideways."""
    ADVANCE = "advance"
    """The dragon moves `steps` cells toward the nearest pawn, staying inside its domain;
    pawns under its new body are trampled."""
    RETURN = "return"
    """The dragon returns to the centre C; pawns under its body are trampled."""
    TRAPS = "traps"
    """Every trap of the card's colour springs now: pawns standing on one die."""


@dataclass(frozen=True)
class AIEffect:
    kind: AIEffectKind = field(metadata=doc("attack, advance, return or traps"))
    area: Area | None = field(default=None, metadata=doc("attack: the cells hit"))
    steps: int = field(default=0, metadata=doc("advance: cells the dragon moves"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class AICard(Card):
    """A card of the dragon's AI deck."""

    speed: str = field(metadata=doc("speed marker: 0, ∞, ☆×N (☆, ☆×1/2 …) or 1..8"))
    colour: str = field(metadata=doc("id of a trap colour; the active trap colour once executed"))
    effects: tuple[AIEffect, ...] = field(metadata=doc("what it does, in order"))
    recall: bool = field(default=False, metadata=doc("carries the recall (归位) icon"))
    text: str = field(default="", metadata=doc("flavour line"))

    @property
    def marker(self) -> SpeedMarker:
        """The parsed speed marker; SpeedError if `speed` is not one of the four kinds."""
        return SpeedMarker.parse(self.speed)

    def preview_cells(self, lair: Lair) -> frozenset[Cell]:
        """Every cell the card's attacks hit with the dragon on C (for the card's diagram)."""
        hit: set[Cell] = set()
        for effect in self.effects:
            if effect.kind is AIEffectKind.ATTACK and effect.area is not None:
                hit |= effect.area.cells(lair, (lair.centre[0], lair.centre[1]))
        return frozenset(hit)

    def preview_diagram(self, lair: Lair) -> tuple[str, ...]:
        """What each cell of the card's lair diagram shows, row by row: ``dragon`` (its body
        on C), ``hit`` (an attack of this card reaches it), ``domain`` or ``paper``."""
        body = lair.dragon_cells(lair.centre)
        hit = self.preview_cells(lair)
        cells = ((column, row) for row in range(lair.rows) for column in range(lair.columns))
        return tuple(
            "dragon"
            if cell in body
            else "hit"
            if cell in hit
            else "domain"
            if lair.in_domain(cell)
            else "paper"
            for cell in cells
        )


class ActionKind(enum.Enum):
    """What an action card does when it resolves."""

    MOVE = "move"
    """Move up to `steps` cells in `direction`."""
    SPRINT = "sprint"
    """Move up to `steps` cells in a direction chosen when it is played."""
    DODGE = "dodge"
    """Turn your character card sideways: dragon attacks and trampling miss you this round."""
    GRAB = "grab"
    """Take the most valuable bag treasure of another pawn on your cell or next to it."""


class Phase(enum.Enum):
    """When an action card may be played."""

    PREPARATION = "preparation"
    """In the preparation phase, resolved at once."""
    PLACEMENT = "placement"
    """Placed face down in the placement phase, resolved in order."""


@dataclass(frozen=True)
class ActionCard:
    id: str = field(metadata=doc("slug"))
    name: str = field(metadata=doc("name on the card", nonempty=True))
    kind: ActionKind = field(metadata=doc("move, sprint, dodge or grab"))
    phases: tuple[Phase, ...] = field(metadata=doc("preparation and/or placement"))
    direction: Direction | None = field(default=None, metadata=doc("move: n, e, s or w"))
    steps: int = field(default=0, metadata=doc("move and sprint: most cells moved"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class PlayerColour:
    """A player colour: its action-card set, its pawn and its character card."""

    id: str = field(metadata=doc("slug"))
    name: str = field(metadata=doc("colour name in Chinese", nonempty=True))
    hex: str = field(metadata=doc("print colour, #rrggbb"))
    cards: dict[str, int] = field(metadata=doc("action card id -> copies in this colour's set"))
    own_set: bool = field(
        default=False, metadata=doc("this colour's set differs from the others on purpose")
    )
    where: Location = field(default=NOWHERE, compare=False, repr=False)

    @property
    def copies(self) -> int:
        return 1


@dataclass(frozen=True)
class TrapColour:
    """A colour of the dragon's AI cards, and of the traps it activates."""

    id: str = field(metadata=doc("slug"))
    name: str = field(metadata=doc("name in Chinese", nonempty=True))
    hex: str = field(metadata=doc("print colour, #rrggbb"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


class TreasureEffect(enum.Enum):
    """A treasure's active effect: used in the preparation phase, then the token is discarded."""

    NONE = "none"
    """No active effect."""
    TELEPORT = "teleport"
    """Move to any A or B gate, unless you carry the Dragon Heart."""
    DODGE = "dodge"
    """Turn your character card sideways, as the dodge action card does."""


@dataclass(frozen=True)
class Treasure(Token):
    """A treasure token: its points, and an effect its carrier may use once."""

    value: int = field(metadata=doc("points at scoring"))
    effect: TreasureEffect = field(default=TreasureEffect.NONE, metadata=doc("active effect"))
    heart: bool = field(
        default=False, metadata=doc("the Dragon Heart: leaving the domain with it starts the end")
    )
    text: str = field(default="", metadata=doc("flavour line"))


@dataclass(frozen=True)
class Entry:
    """An entry teleporter: where a seat's pawn starts and respawns."""

    seat: int = field(metadata=doc("seat number, 0 = first holder of the hourglass, clockwise"))
    cell: tuple[int, ...] = field(metadata=doc("[column, row]", items=2))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class Seating:
    """Which entry teleporters a table of one size uses, in seat order (decision
    `seats-and-entries`): the first holder of the hourglass takes the first, the others follow
    clockwise."""

    players: int = field(metadata=doc("table size"))
    entries: tuple[int, ...] = field(
        metadata=doc("printed entry numbers (seat + 1 of the entry), one per seat, in seat order")
    )
    where: Location = field(default=NOWHERE, compare=False, repr=False)


class GateType(enum.Enum):
    A = "a"
    B = "b"


@dataclass(frozen=True)
class Gate:
    """A teleport gate: ending a move on one takes you to the other gate of its type."""

    id: str = field(metadata=doc("slug"))
    type: GateType = field(metadata=doc("a or b"))
    cell: tuple[int, ...] = field(metadata=doc("[column, row]", items=2))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class Exit:
    """A way out of the lair: stepping onto it leaves the lair with everything you carry."""

    id: str = field(metadata=doc("slug"))
    cell: tuple[int, ...] = field(metadata=doc("[column, row]", items=2))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class Trap:
    colour: str = field(metadata=doc("id of a trap colour"))
    cell: tuple[int, ...] = field(metadata=doc("[column, row]", items=2))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class TreasureSpot:
    """One line of the treasure setup guide."""

    treasure: str = field(metadata=doc("treasure id"))
    cell: tuple[int, ...] = field(metadata=doc("[column, row]", items=2))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class Lair(Board):
    """The lair map: a grid of square cells with the dragon in the middle."""

    columns: int = field(metadata=doc("cells across"))
    rows: int = field(metadata=doc("cells down"))
    cell_mm: float = field(metadata=doc("printed side of a cell in mm"))
    centre: tuple[int, ...] = field(
        metadata=doc("[column, row] of C, the dragon's centre", items=2)
    )
    dragon_radius: int = field(metadata=doc("the dragon covers C and this many cells around it"))
    domain_radius: int = field(metadata=doc("the dragon's domain: cells this close to C"))
    entries: tuple[Entry, ...] = field(metadata=doc("one entry teleporter per seat"))
    exits: tuple[Exit, ...] = field(metadata=doc("ways out of the lair"))
    gates: tuple[Gate, ...] = field(metadata=doc("A and B teleport gates, two of each type"))
    traps: tuple[Trap, ...] = field(metadata=doc("coloured traps"))
    treasure_setup: tuple[TreasureSpot, ...] = field(metadata=doc("where each treasure starts"))
    seating: tuple[Seating, ...] = field(
        default=(),
        metadata=doc("per table size, the entry teleporters used (default: numbers 1, 2, …)"),
    )

    def contains(self, cell: Sequence[int]) -> bool:
        return len(cell) == 2 and 0 <= cell[0] < self.columns and 0 <= cell[1] < self.rows

    def dragon_cells(self, dragon: Sequence[int]) -> frozenset[Cell]:
        """The cells the dragon's body covers when centred on `dragon`."""
        r = self.dragon_radius
        return frozenset(
            (x, y)
            for x in range(dragon[0] - r, dragon[0] + r + 1)
            for y in range(dragon[1] - r, dragon[1] + r + 1)
        )

    @property
    def dragon_span(self) -> int:
        """Cells across the dragon's square body (rulebook prose: 3 for radius 1)."""
        return 2 * self.dragon_radius + 1

    @property
    def domain_span(self) -> int:
        """Cells across the dragon's square domain (rulebook prose: 7 for radius 3)."""
        return 2 * self.domain_radius + 1

    def in_domain(self, cell: Sequence[int]) -> bool:
        cx, cy = self.centre
        return max(abs(cell[0] - cx), abs(cell[1] - cy)) <= self.domain_radius

    def setup_at(self, cell: Sequence[int]) -> tuple[str, ...]:
        """Ids of the treasures the setup guide puts on `cell`."""
        return tuple(s.treasure for s in self.treasure_setup if tuple(s.cell) == tuple(cell))

    def seating_for(self, players: int) -> tuple[int, ...]:
        """The printed entry numbers a table of `players` uses, in seat order."""
        for seating in self.seating:
            if seating.players == players:
                return tuple(seating.entries)
        return tuple(range(1, players + 1))

    def entry_cells(self, players: int) -> tuple[Cell, ...]:
        """Where each seat of a table of `players` enters and respawns, in seat order."""
        by_number = {entry.seat + 1: (entry.cell[0], entry.cell[1]) for entry in self.entries}
        numbers = self.seating_for(players)
        missing = [n for n in numbers if n not in by_number]
        if missing:
            raise ValueError(f"no entry teleporter numbered {missing} for {players} players")
        return tuple(by_number[n] for n in numbers)

    def runs_clockwise(self, numbers: Sequence[int]) -> bool:
        """Whether the entry teleporters `numbers`, in seat order, go once clockwise round the
        map (north up). Seats sit clockwise round the table and each player enters at the
        teleporter nearest them (the post), so a seating must."""
        cells = {entry.seat + 1: entry.cell for entry in self.entries}
        cx, cy = self.centre
        # With rows counted downwards, the angle grows clockwise as seen from above.
        angles = [math.atan2(cells[n][1] - cy, cells[n][0] - cx) for n in numbers]
        count = len(angles)
        wraps = sum(angles[(k + 1) % count] <= angles[k] for k in range(count))
        return count < 2 or wraps == 1

    def entry_number(self, cell: Sequence[int]) -> int:
        """The printed number (seat + 1) of the entry teleporter on `cell`, 0 if none."""
        return next((e.seat + 1 for e in self.entries if tuple(e.cell) == tuple(cell)), 0)

    def feature_at(self, cell: Sequence[int]) -> str:
        """What the printed map shows on a cell (for the templates): entry, exit, gate-a …"""
        here = tuple(cell)
        if here in self.dragon_cells(self.centre):
            return "dragon"
        for group, name in ((self.entries, "entry"), (self.exits, "exit")):
            if any(tuple(item.cell) == here for item in group):
                return name
        for gate in self.gates:
            if tuple(gate.cell) == here:
                return f"gate-{gate.type.value}"
        for trap in self.traps:
            if tuple(trap.cell) == here:
                return f"trap-{trap.colour}"
        return ""


@dataclass(frozen=True)
class Character(Card):
    """A character card: turned sideways, it shows a dodge."""

    colour: str = field(metadata=doc("player colour id of its card border"))
    title: str = field(metadata=doc("epithet", nonempty=True))
    text: str = field(metadata=doc("flavour text", nonempty=True))


@dataclass(frozen=True)
class Settings:
    cards_per_round: int = field(metadata=doc("most action cards a player places in a round"))
    first_round_draws: int = field(metadata=doc("AI cards the holder draws in the first round"))
    recall_limit: int = field(metadata=doc("the countdown starts when this recall card is drawn"))
    star_rounding: Rounding = field(metadata=doc("how ☆×N rounds: down, up or nearest"))
    win_bonus: int = field(metadata=doc("multi-game: extra points for a game's winner"))
    leader_min_treasures: int = field(
        metadata=doc("multi-game: treasures a previous sole top scorer needs to leave")
    )
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class ActionPrint:
    """One action card in one player colour, as printed (derived)."""

    card: ActionCard
    colour: PlayerColour
    copies: int
    where: Location = field(default=NOWHERE, compare=False, repr=False)

    @property
    def id(self) -> str:
        return f"{self.colour.id}-{self.card.id}"

    @property
    def name(self) -> str:
        return self.card.name


@dataclass(frozen=True)
class DragonHoard(GameContent):
    """The whole content of Dragon Hoard."""

    settings: Settings = field(metadata=doc("numbers of a round and of scoring"))
    placement_seconds: int = field(metadata=doc("length of the placement phase (the hourglass)"))
    match_games: PlayerRange = field(metadata=doc("games recommended for a multi-game match"))
    lair: Lair = field(metadata=doc("the map"))
    trap_colours: tuple[TrapColour, ...] = field(metadata=doc("colours of AI cards and traps"))
    ai_cards: tuple[AICard, ...] = field(metadata=doc("the dragon's AI deck"))
    action_cards: tuple[ActionCard, ...] = field(metadata=doc("every kind of action card"))
    player_colours: tuple[PlayerColour, ...] = field(metadata=doc("colours with their sets"))
    characters: tuple[Character, ...] = field(metadata=doc("character cards"))
    treasures: tuple[Treasure, ...] = field(metadata=doc("treasure tokens"))
    mats: tuple[Board, ...] = field(metadata=doc("the action-card placement mat"))
    aids: tuple[Aid, ...] = field(metadata=doc("round-summary player aids"))
    tiles: tuple[Pawn, ...] = field(
        default=(), metadata=doc("the dragon's body: a 3x3-cell tile that moves on the map")
    )
    markers: tuple[Marker, ...] = field(
        default=(), metadata=doc("small markers for the tracks (recall count, countdown)")
    )
    timers: tuple[Aid, ...] = field(
        default=(), metadata=doc("the hourglass card: who holds the hourglass, how to time")
    )

    @property
    def maps(self) -> tuple[Lair, ...]:
        return (self.lair,)

    @cached_property
    def action_prints(self) -> tuple[ActionPrint, ...]:
        by_id = {card.id: card for card in self.action_cards}
        return tuple(
            ActionPrint(by_id[card_id], colour, copies, colour.where)
            for colour in self.player_colours
            for card_id, copies in colour.cards.items()
            if card_id in by_id
        )

    @cached_property
    def pawns(self) -> tuple[Pawn, ...]:
        """One pawn per player colour: the colour and its name printed on it."""
        return tuple(
            Pawn(
                id=f"pawn-{colour.id}",
                name=f"{colour.name}色棋子",
                symbol=colour.name,
                colour=colour.hex,
                where=colour.where,
            )
            for colour in self.player_colours
        )

    @property
    def heart(self) -> Treasure | None:
        return next((t for t in self.treasures if t.heart), None)

    def treasure(self, treasure_id: str) -> Treasure | None:
        return next((t for t in self.treasures if t.id == treasure_id), None)

    def trap_colour(self, colour_id: str) -> TrapColour | None:
        return next((c for c in self.trap_colours if c.id == colour_id), None)

    def player_colour(self, colour_id: str) -> PlayerColour | None:
        return next((c for c in self.player_colours if c.id == colour_id), None)

    def star_cards(self, n: str | Fraction, players: int) -> int:
        """Player cards ☆×n stands for at a table that started with `players` (rounded as the
        content says)."""
        return self.settings.star_rounding.apply(players * Fraction(n))

    @property
    def star_multipliers(self) -> tuple[Fraction, ...]:
        """Every N of a ☆×N marker the deck uses, ascending (for the aid's table)."""
        found = set()
        for card in self.ai_cards:
            try:
                marker = card.marker
            except SpeedError:
                continue
            if marker.kind is SpeedKind.STAR:
                found.add(marker.n)
        return tuple(sorted(found))

    def star_symbol(self, n: Fraction) -> str:
        return SpeedMarker(SpeedKind.STAR, Fraction(n)).symbol

    # -- lookups for rulebook prose -------------------------------------------------------

    def ai_card(self, card_id: str) -> AICard:
        """The AI card with this id (rulebook prose looks cards up by id)."""
        return next(card for card in self.ai_cards if card.id == card_id)

    def action_card(self, card_id: str) -> ActionCard:
        """The action card with this id."""
        return next(card for card in self.action_cards if card.id == card_id)

    @property
    def ai_deck_size(self) -> int:
        """Cards in the dragon's AI deck, copies counted."""
        return sum(card.copies for card in self.ai_cards)

    @property
    def recall_cards(self) -> int:
        """Recall (归位) cards in the AI deck, copies counted."""
        return sum(card.copies for card in self.ai_cards if card.recall)

    @property
    def speed_numbers(self) -> range:
        """The numbers an N speed marker may carry (1..8)."""
        return NUMBER_RANGE

    @property
    def speed_symbols(self) -> dict[str, str]:
        """The symbol of each speed-marker kind, by kind name: zero, infinity, star."""
        return {
            "zero": SpeedMarker(SpeedKind.ZERO).symbol,
            "infinity": SpeedMarker(SpeedKind.INFINITY).symbol,
            "star": SpeedMarker(SpeedKind.STAR, Fraction(1)).symbol,
        }

    def ai_cards_with(self, kind: str) -> tuple[AICard, ...]:
        """AI cards whose speed marker is of this kind ('0', '∞', '☆' or 'n')."""
        wanted = SpeedKind(kind)
        found = []
        for card in self.ai_cards:
            try:
                if card.marker.kind is wanted:
                    found.append(card)
            except SpeedError:
                continue
        return tuple(found)


SLUG = "dragon-hoard"
MODEL = DragonHoard
"""The root type content/dragon-hoard/*.yaml loads into (found by pnp.model.registry)."""
