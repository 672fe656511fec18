"""Arena Tales (斗擂奇谭): a team card battler on a hex arena.

Hand cards are action points: a move costs a discard, and playing a card makes the next player
draw its cost. Every number of the game (life, refill, forced end, deck make-up, element boosts,
the arena's size and points) is a field here, filled from content/arena-tales/*.yaml; the
engine, the card faces and the rulebook read it.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from functools import cached_property

from pnp.errors import Location
from pnp.model import kit
from pnp.model.common import (
    NOWHERE,
    Track,
    doc,
)
from pnp.model.game import GameContent

DIRECTIONS = 6
"""A hex has six sides; a range spec names one per side, clockwise from the facing side."""

SIDES = ("正前", "右前", "右后", "正后", "左后", "左前")
"""The printed names of the six sides of a range spec, clockwise from the facing side."""


class CardType(enum.Enum):
    """The icon on a card's left edge."""

    TALENT = "talent"
    """Switch icon: an initial talent, put into the display at the start of the game."""
    NON_DAMAGE = "non_damage"
    """X icon: a card that deals no combat damage."""
    DAMAGE = "damage"
    """Square frame with the base damage inside (0 is still a damage card)."""


class Timing(enum.Enum):
    """When an effect of a card applies (the timing steps [1]-[7] of playing a card)."""

    BEFORE_PLAY = "before_play"
    """[1] 打出前: before the cost is paid."""
    ON_PLAY = "on_play"
    """[3] 打出: after the cost, when the card is placed, before combat."""
    COMBAT = "combat"
    """[4] part of the combat itself (lock, fixed damage, knock-back, indiscriminate damage)."""
    AFTER_PLAY = "after_play"
    """[5] 打出后: after combat, still within the card's own resolution."""
    DISPLAYED = "displayed"
    """展示中: while the card lies face up in its owner's display (not while it is played)."""
    RESPONSE = "response"
    """响应: when the card is turned face up into its owner's display by damage or by another
    character's 识破; resolved at step [6]."""
    TALENT = "talent"
    """初始天赋: for the whole game, from the talent card put into the display at the start."""


class EffectKind(enum.Enum):
    """What an effect does. The engine declares which kinds it resolves."""

    LOCK = "lock"
    FIXED_DAMAGE = "fixed_damage"
    INDISCRIMINATE = "indiscriminate"
    KNOCKBACK = "knockback"
    BACKLASH = "backlash"
    HEAL = "heal"
    SEE_THROUGH = "see_through"
    RECYCLE = "recycle"
    EXHAUST = "exhaust"
    DISCARD = "discard"
    DISPLAY = "display"
    COUNTER = "counter"
    MAINTAIN = "maintain"
    PERMANENT = "permanent"
    COMBO = "combo"
    COMBO_PLAY = "combo_play"
    CRYSTAL = "crystal"
    BURST = "burst"
    DRAW = "draw"
    """Plain: draw `amount` cards."""
    DAMAGE_UP = "damage_up"
    """Plain: damage +`amount` (this card, or while displayed / as a talent every damage card)."""
    REACH = "reach"
    """Plain: every range number +`amount` (as DAMAGE_UP)."""
    DASH = "dash"
    """Plain: move up to `amount` hexes straight ahead (a card-given direction)."""
    LIFE = "life"
    """Plain, talents only: the starting life changes by `amount`."""


class Element(enum.Enum):
    WIND = "wind"
    FIRE = "fire"
    WATER = "water"
    EARTH = "earth"


class Keyword(enum.Enum):
    """Every keyword of the glossary (the rule post's 关键词介绍)."""

    LOCK = "lock"
    BEFORE_PLAY = "before_play"
    ON_PLAY = "on_play"
    AFTER_PLAY = "after_play"
    DISPLAYED = "displayed"
    DISPLAY = "display"
    PERMANENT = "permanent"
    ORIENTATION_POINT = "orientation_point"
    FACING = "facing"
    SANITY = "sanity"
    OUT_OF_CONTROL = "out_of_control"
    INITIAL_TALENT = "initial_talent"
    DISCARD = "discard"
    RECYCLE = "recycle"
    EXHAUST = "exhaust"
    FIXED_DAMAGE = "fixed_damage"
    RESPONSE = "response"
    COUNTER = "counter"
    HEAL = "heal"
    SEE_THROUGH = "see_through"
    BACKLASH = "backlash"
    KNOCKBACK = "knockback"
    INDISCRIMINATE = "indiscriminate"
    MAINTAIN = "maintain"
    COMBO = "combo"
    COMBO_PLAY = "combo_play"
    CRYSTAL = "crystal"
    CRYSTAL_WIND = "crystal_wind"
    CRYSTAL_FIRE = "crystal_fire"
    CRYSTAL_WATER = "crystal_water"
    CRYSTAL_EARTH = "crystal_earth"
    BURST = "burst"


EFFECT_KEYWORDS: dict[EffectKind, Keyword] = {
    kind: Keyword(kind.value) for kind in EffectKind if kind.value in Keyword._value2member_map_
}
"""The glossary keyword an effect kind stands for (plain kinds have none)."""

TIMING_KEYWORDS: dict[Timing, Keyword] = {
    Timing.BEFORE_PLAY: Keyword.BEFORE_PLAY,
    Timing.ON_PLAY: Keyword.ON_PLAY,
    Timing.AFTER_PLAY: Keyword.AFTER_PLAY,
    Timing.DISPLAYED: Keyword.DISPLAYED,
    Timing.RESPONSE: Keyword.RESPONSE,
    Timing.TALENT: Keyword.INITIAL_TALENT,
}


class RangeKind(enum.Enum):
    NONE = "none"
    """Blank: no damage in this direction."""
    AREA = "area"
    """`1`..`4`: every character within that distance."""
    SNIPE = "snipe"
    """`[X]`: only a character at exactly distance X."""
    CHARGE = "charge"
    """`②③④`: the nearest character or obstacle within the number; full damage at the maximum
    distance, -1 per hex closer, never below 1."""


CIRCLED = {"①": 1, "②": 2, "③": 3, "④": 4, "⑤": 5, "⑥": 6}
_AREA = re.compile(r"^([1-9])$")
_SNIPE = re.compile(r"^\[([1-9])\]$")


@dataclass(frozen=True)
class RangeSpec:
    """One side of a card's range hexagon, parsed from the printed spec."""

    kind: RangeKind
    reach: int = 0

    def __str__(self) -> str:
        if self.kind is RangeKind.AREA:
            return str(self.reach)
        if self.kind is RangeKind.SNIPE:
            return f"[{self.reach}]"
        if self.kind is RangeKind.CHARGE:
            return next(c for c, n in CIRCLED.items() if n == self.reach)
        return ""


def parse_range(text: str) -> RangeSpec | None:
    """`''`, `'2'`, `'[3]'`, `'④'` -> a RangeSpec; None if the text is no range spec."""
    text = text.strip()
    if text == "":
        return RangeSpec(RangeKind.NONE)
    if match := _AREA.match(text):
        return RangeSpec(RangeKind.AREA, int(match[1]))
    if match := _SNIPE.match(text):
        return RangeSpec(RangeKind.SNIPE, int(match[1]))
    if text in CIRCLED:
        return RangeSpec(RangeKind.CHARGE, CIRCLED[text])
    return None


@dataclass(frozen=True)
class Settings:
    life: int = field(metadata=doc("life cards dealt from the top of the deck (before talents)"))
    hand_refill: int = field(metadata=doc("the start-of-turn draw refills the hand to this"))
    forced_end: int = field(
        metadata=doc("the turn ends when the next player's pending draw reaches this")
    )
    hand_limit: int = field(metadata=doc("hand size kept at the end of a turn"))
    deck_size: int = field(metadata=doc("cards in each character's deck"))
    copies_per_name: int = field(metadata=doc("copies of each card name in a deck"))
    shared_names: int = field(metadata=doc("colourless card names every deck holds"))
    own_names: int = field(metadata=doc("card names in a character's own colour"))
    card_names: int = field(metadata=doc("card names of the whole game"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class Colour:
    id: str = field(metadata=doc("slug of the colour; 'none' for colourless"))
    name: str = field(metadata=doc("colour name in Chinese", nonempty=True))
    ink: str = field(metadata=doc("the printed colour, #rrggbb"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class ElementBoost:
    """What one consumed crystal of an element adds to the bursting card."""

    element: Element = field(metadata=doc("wind, fire, water or earth"))
    name: str = field(metadata=doc("element name in Chinese", nonempty=True))
    range: int = field(default=0, metadata=doc("range numbers +this"))
    damage: int = field(default=0, metadata=doc("damage +this"))
    cost: int = field(default=0, metadata=doc("cost +this (negative: cheaper)"))
    draw: int = field(default=0, metadata=doc("cards drawn"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class Effect:
    kind: EffectKind = field(metadata=doc("what the effect does"))
    timing: Timing = field(default=Timing.ON_PLAY, metadata=doc("when it applies"))
    amount: int = field(default=0, metadata=doc("the X of the keyword (0: all, where allowed)"))
    element: Element | None = field(default=None, metadata=doc("element of a crystal"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)

    @property
    def keywords(self) -> tuple[Keyword, ...]:
        found = []
        if self.timing in TIMING_KEYWORDS:
            found.append(TIMING_KEYWORDS[self.timing])
        if self.kind in EFFECT_KEYWORDS:
            found.append(EFFECT_KEYWORDS[self.kind])
        if self.kind is EffectKind.CRYSTAL and self.element is not None:
            found.append(Keyword(f"crystal_{self.element.value}"))
        return tuple(found)


@dataclass(frozen=True)
class Card:
    """One card name: printed twice in each deck that holds it."""

    id: str = field(metadata=doc("slug"))
    name: str = field(metadata=doc("name printed in the middle of the card", nonempty=True))
    colour: str = field(metadata=doc("colour id; 'none' for the shared colourless cards"))
    type: CardType = field(metadata=doc("talent, non_damage or damage"))
    cost: int = field(default=0, metadata=doc("cards the next player draws when it is played"))
    damage: int | None = field(default=None, metadata=doc("base damage of a damage card"))
    range: tuple[str, ...] = field(
        default=("", "", "", "", "", ""),
        metadata=doc("range spec per side, clockwise from the facing side: '', 1-4, [X], ②-④"),
    )
    effects: tuple[Effect, ...] = field(default=(), metadata=doc("what the card does"))
    flavour: str = field(default="", metadata=doc("a line of story, printed small"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)

    @cached_property
    def ranges(self) -> tuple[RangeSpec | None, ...]:
        """The parsed specs (None where a spec does not parse: the validator reports it)."""
        return tuple(parse_range(text) for text in self.range)

    @property
    def keywords(self) -> tuple[Keyword, ...]:
        return tuple(k for effect in self.effects for k in effect.keywords)

    def has(self, kind: EffectKind) -> bool:
        return any(effect.kind is kind for effect in self.effects)


@dataclass(frozen=True)
class Character:
    id: str = field(metadata=doc("slug"))
    name: str = field(metadata=doc("name in Chinese", nonempty=True))
    colour: str = field(metadata=doc("colour id of the character's own cards"))
    title: str = field(default="", metadata=doc("epithet printed on the deck's back"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class GlossaryEntry:
    keyword: Keyword = field(metadata=doc("the keyword"))
    name: str = field(metadata=doc("the keyword as printed on cards", nonempty=True))
    text: str = field(metadata=doc("what it means, in this edition's words", nonempty=True))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class IconTerm:
    """A glossary row for an icon the card faces print that is no keyword (damage, range,
    draw, life, move): a player who meets the icon finds it, drawn beside the term."""

    icon: str = field(metadata=doc("the icon's name, as [[name]] places it"))
    name: str = field(metadata=doc("the term, as the rules call it", nonempty=True))
    text: str = field(metadata=doc("what it means (numbers from the model)", nonempty=True))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class HexPoint:
    """A named hex of the arena in axial coordinates (q, r), flat-topped, r growing south."""

    id: str = field(metadata=doc("slug"))
    name: str = field(metadata=doc("name printed on the map", nonempty=True))
    q: int = field(metadata=doc("axial q"))
    r: int = field(metadata=doc("axial r"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class Setup:
    """Where each seat starts and which team it plays for, for one player count."""

    players: int = field(metadata=doc("player count"))
    starts: tuple[str, ...] = field(metadata=doc("orientation point id per seat"))
    teams: tuple[int, ...] = field(metadata=doc("team number per seat"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class Arena(kit.Board):
    """The hex arena the pawns fight on."""

    radius: int = field(metadata=doc("hexes from the centre to an edge"))
    hex_mm: float = field(metadata=doc("printed hex size across the flats, in mm"))
    orientation_points: tuple[HexPoint, ...] = field(metadata=doc("方位点 and starting spaces"))
    obstacles: tuple[HexPoint, ...] = field(default=(), metadata=doc("hexes no one may enter"))
    setups: tuple[Setup, ...] = field(default=(), metadata=doc("start spaces and teams"))

    @cached_property
    def cells(self) -> tuple[tuple[int, int, str], ...]:
        """Every hex as (q, r, kind): kind is 'point', 'obstacle' or 'floor'."""
        points = {(p.q, p.r) for p in self.orientation_points}
        blocked = {(o.q, o.r) for o in self.obstacles}
        n = self.radius
        return tuple(
            (q, r, "point" if (q, r) in points else "obstacle" if (q, r) in blocked else "floor")
            for q in range(-n, n + 1)
            for r in range(max(-n, -q - n), min(n, -q + n) + 1)
        )


@dataclass(frozen=True)
class Zone:
    id: str = field(metadata=doc("display, exhausted, recycle, deck, life or sanity"))
    name: str = field(metadata=doc("name printed on the board", nonempty=True))
    text: str = field(metadata=doc("how cards lie there", nonempty=True))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class Board(kit.Board):
    """A player board: where a character's cards lie, zone by zone."""

    zones: tuple[Zone, ...] = field(metadata=doc("the zones, display first"))


@dataclass(frozen=True)
class CardFace:
    name: str = field(metadata=doc("the face's title", nonempty=True))
    text: str = field(metadata=doc("what it means", nonempty=True))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class SanityCard(kit.Card):
    """The two-faced 理智/失控 card."""

    sane: CardFace = field(metadata=doc("the 理智 face"))
    wild: CardFace = field(metadata=doc("the 失控 face"))


@dataclass(frozen=True)
class Step:
    title: str = field(metadata=doc("short title", nonempty=True))
    text: str = field(metadata=doc("what happens (may use {{ game.x }})", nonempty=True))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class Aid(kit.Aid):
    """A player aid: the turn and timing steps, or the glossary."""

    kind: str = field(metadata=doc("'turn' (turn and timing steps) or 'glossary'"))


@dataclass(frozen=True)
class DeckCard:
    """One card name as it is printed in one character's deck (derived, not in content)."""

    character: Character
    card: Card
    colour: Colour
    copies: int
    where: Location = field(default=NOWHERE, compare=False, repr=False)

    @property
    def id(self) -> str:
        return f"{self.character.id}-{self.card.id}"

    @property
    def name(self) -> str:
        return self.card.name


@dataclass(frozen=True)
class ArenaTales(GameContent):
    """The whole content of Arena Tales."""

    settings: Settings = field(metadata=doc("life, refill, forced end, deck make-up"))
    colours: tuple[Colour, ...] = field(metadata=doc("card colours, colourless included"))
    elements: tuple[ElementBoost, ...] = field(metadata=doc("what each crystal element adds"))
    characters: tuple[Character, ...] = field(metadata=doc("the playable characters"))
    cards: tuple[Card, ...] = field(metadata=doc("every card name of the game"))
    glossary: tuple[GlossaryEntry, ...] = field(metadata=doc("the keywords and their meaning"))
    arenas: tuple[Arena, ...] = field(metadata=doc("the hex arena"))
    boards: tuple[Board, ...] = field(metadata=doc("the player board"))
    sanity_cards: tuple[SanityCard, ...] = field(metadata=doc("the 理智/失控 card"))
    turn_steps: tuple[Step, ...] = field(metadata=doc("the turn structure, for the aid"))
    timing_steps: tuple[Step, ...] = field(metadata=doc("the timing steps [1]-[7] of a card"))
    aids: tuple[Aid, ...] = field(metadata=doc("printed player aids"))
    markers: tuple[kit.Marker, ...] = field(
        default=(), metadata=doc("track markers (the pending draw), one per seat")
    )
    icon_glossary: tuple[IconTerm, ...] = field(
        default=(), metadata=doc("glossary rows for the card icons that are no keyword")
    )

    @property
    def arena(self) -> Arena:
        return self.arenas[0]

    @cached_property
    def colour_by_id(self) -> dict[str, Colour]:
        return {colour.id: colour for colour in self.colours}

    @cached_property
    def card_by_id(self) -> dict[str, Card]:
        return {card.id: card for card in self.cards}

    @cached_property
    def keyword_names(self) -> dict[str, str]:
        """Keyword id -> printed name, for the card faces."""
        return {entry.keyword.value: entry.name for entry in self.glossary}

    @cached_property
    def element_by_id(self) -> dict[Element, ElementBoost]:
        return {boost.element: boost for boost in self.elements}

    @property
    def shared_cards(self) -> tuple[Card, ...]:
        return tuple(card for card in self.cards if card.colour == "none")

    def own_cards(self, character: Character) -> tuple[Card, ...]:
        return tuple(card for card in self.cards if card.colour == character.colour)

    def deck_of(self, character: Character) -> tuple[Card, ...]:
        """The card names of a character's deck: the shared ones, then its own."""
        return self.shared_cards + self.own_cards(character)

    def talent_of(self, character: Character) -> Card | None:
        return next((c for c in self.own_cards(character) if c.type is CardType.TALENT), None)

    @cached_property
    def deck_cards(self) -> tuple[DeckCard, ...]:
        """Every card of every character deck, as printed (each name copies_per_name times)."""
        none = Colour("none", "无色", "#777777")
        return tuple(
            DeckCard(
                character,
                card,
                self.colour_by_id.get(card.colour, none),
                self.settings.copies_per_name,
                card.where,
            )
            for character in self.characters
            for card in self.deck_of(character)
        )

    @cached_property
    def pawns(self) -> tuple[kit.Pawn, ...]:
        """One pawn per character, in the character's colour (the arrow is the facing)."""
        none = Colour("none", "无色", "#777777")
        return tuple(
            kit.Pawn(
                id=f"pawn-{character.id}",
                name=character.name,
                colour=self.colour_by_id.get(character.colour, none).ink,
                where=character.where,
            )
            for character in self.characters
        )

    @property
    def sides(self) -> tuple[str, ...]:
        """The printed names of a range spec's six sides, clockwise from the facing side."""
        return SIDES

    @property
    def turn_aids(self) -> tuple[Aid, ...]:
        return tuple(aid for aid in self.aids if aid.kind == "turn")

    @property
    def glossary_aids(self) -> tuple[Aid, ...]:
        return tuple(aid for aid in self.aids if aid.kind == "glossary")

    def setup_for(self, players: int) -> Setup | None:
        return next((s for s in self.arena.setups if s.players == players), None)

    # -- lookups for rulebook prose (`{{ game.kw('knockback') }}`) ---------------------------

    def kw(self, keyword: str) -> str:
        """The printed name of a keyword (rulebook prose names keywords as the cards do)."""
        return self.keyword_names[keyword]

    def card(self, card_id: str) -> Card:
        """The card with this id."""
        return self.card_by_id[card_id]

    def character(self, character_id: str) -> Character:
        """The character with this id."""
        return next(c for c in self.characters if c.id == character_id)

    def track(self, track_id: str) -> Track:
        """A track printed on a product of the kit by id (the player board's 'pending')."""
        return next(t for p in self.products for t in p.tracks if t.id == track_id)

    def zone(self, zone_id: str) -> Zone:
        """A zone of the player board by id (display, exhausted, recycle, deck, life, sanity)."""
        return next(z for z in self.boards[0].zones if z.id == zone_id)

    def point(self, point_id: str) -> HexPoint:
        """An orientation point of the arena by id."""
        return next(p for p in self.arena.orientation_points if p.id == point_id)

    def element(self, element: str) -> ElementBoost:
        """The boost of one crystal element (wind, fire, water, earth)."""
        return self.element_by_id[Element(element)]

    @property
    def player_counts(self) -> tuple[int, ...]:
        """The player counts the arena has a setup for, ascending."""
        return tuple(sorted(s.players for s in self.arena.setups))

    @property
    def charge_cards(self) -> tuple[Card, ...]:
        """Damage cards with a charge side (②③④)."""
        return tuple(
            card
            for card in self.cards
            if any(spec is not None and spec.kind is RangeKind.CHARGE for spec in card.ranges)
        )


SLUG = "arena-tales"
MODEL = ArenaTales
"""The root type content/arena-tales/*.yaml loads into (found by pnp.model.registry)."""
