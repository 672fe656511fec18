"""MineVenture: an open-table survival battler in a blocky world.

Roll and move over a map assembled from tiles, draw what the cell you land on shows, fight, and
beat the Ender Dragon or be the last one standing. Every number (HP, hand limit, buff slots,
heal, combat rounds, the cards and the map) is a field here, filled from
content/mineventure/*.yaml; the engine, the card faces, the boards and the validator read it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from functools import cached_property

from pnp.errors import Location
from pnp.model import kit
from pnp.model.common import (
    NOWHERE,
    PlayerRange,
    doc,
)
from pnp.model.game import GameContent


class Zone(enum.Enum):
    """Where a deck's cards live once drawn."""

    FIELD = "field"
    """Field cards (装备/伙伴/事件): landscape, shown to all, discarded to their deck's bottom."""
    HAND = "hand"
    """Hand cards (道具/食物): portrait, hidden, played to the discard pile."""
    MIXED = "mixed"
    """The legendary deck: each card counts as a field or a hand card by its own kind."""


class Slot(enum.Enum):
    """The equipment slot an equipment card goes into."""

    MAIN_WEAPON = "main_weapon"
    SUB_WEAPON = "sub_weapon"
    ARMOUR = "armour"

    @property
    def label(self) -> str:
        """The slot's name as the player board and the cards print it."""
        return {"main_weapon": "主武器", "sub_weapon": "副武器", "armour": "防具"}[self.value]


class DamageType(enum.Enum):
    """The four damage types of the rules."""

    PHYSICAL = "physical"
    """Default damage: reduced by armour and buffs."""
    PIERCING = "piercing"
    """Not reduced by armour or buffs, but a shield can block it."""
    TRUE = "true"
    """Has no source: never reduced or blocked."""
    AREA = "area"
    """Combines with physical or piercing; a shield cannot block it; a blast-proof trait cancels
    it."""

    @property
    def label(self) -> str:
        """The type's name as the cards print it (物理, 穿透, 真实, 范围)."""
        return {"physical": "物理", "piercing": "穿透", "true": "真实", "area": "范围"}[self.value]


class Rounding(enum.Enum):
    """The rounding mark printed on a card that halves a number."""

    UP = "up"
    """↑: round up."""
    DOWN = "down"
    """↓: round down."""

    @property
    def mark(self) -> str:
        return "↑" if self is Rounding.UP else "↓"


class BuffClass(enum.Enum):
    """The class of an effect; the buff slots say which classes they take."""

    POSITIVE = "positive"
    NEUTRAL = "neutral"
    NEGATIVE = "negative"

    @property
    def label(self) -> str:
        """The class's name as the buff slots on the player board print it."""
        return {"positive": "增益", "neutral": "中性", "negative": "负面"}[self.value]


class ItemKind(enum.Enum):
    CONSUMABLE = "consumable"
    """Played in the decision phase or as a combat action; then discarded."""
    ENCHANT = "enchant"
    """An enchant book: goes under an equipped weapon of its weapon kind."""
    POTION = "potion"
    """Gives a buff to oneself or another player."""

    @property
    def label(self) -> str:
        """The kind's name as the item cards print it."""
        return {"consumable": "消耗品", "enchant": "附魔书", "potion": "药水"}[self.value]


class Timing(enum.Enum):
    """When a hand card is played: the footer every hand card prints and what the engine
    allows read this one value, so they cannot disagree (the validator probes the engine)."""

    ANYTIME = "anytime"
    """In the decision phase (any number) or as one combat action."""
    DECISION = "decision"
    """Only in the decision phase (enchant books go under a weapon outside combat)."""
    IN_HAND = "in_hand"
    """Never played: it works from the hand (the totem)."""


class Target(enum.Enum):
    SELF = "self"
    """The player who plays or draws the card."""
    OTHER = "other"
    """Another player: in combat the opponent, otherwise a player within attack range."""
    ALL = "all"
    """Every living player in the overworld."""


class Trait(enum.Enum):
    BLAST_PROOF = "blast_proof"
    """Cancels area damage entirely (the matching trait of area damage)."""

    @property
    def label(self) -> str:
        """The trait's name as the armour cards print it."""
        return {"blast_proof": "爆炸保护"}[self.value]


class EffectKind(enum.Enum):
    """What a card, buff, partner or character does. The engine declares which it resolves."""

    HEAL = "heal"
    """Restore `amount` HP (never above the maximum)."""
    DAMAGE = "damage"
    """Deal `amount` damage of `types` (combat only for hand cards; events hit `target`)."""
    DRAW = "draw"
    """Draw `count` cards from `deck`."""
    LEGENDARY = "legendary"
    """Draw `count` cards from the legendary deck: the only way to reach it."""
    STORY = "story"
    """A story event: stays in play; from then on the story damage hits every round."""
    REPAIR = "repair"
    """Restore `amount` durability to one of the player's weapons."""
    CLEANSE = "cleanse"
    """Remove every negative buff from the player."""
    BUFF = "buff"
    """Give `buff` to `target`."""
    REVIVE = "revive"
    """Kept in hand: when its holder would die, discard it and set HP to `amount`."""
    SHARPEN = "sharpen"
    """Enchant: the weapon deals `amount` more damage."""
    EXTEND_RANGE = "extend_range"
    """Enchant: the weapon's attack range grows by `amount`."""
    REINFORCE = "reinforce"
    """Enchant: the weapon gains `amount` durability when the book goes under it."""
    COMPANION_ATTACK = "companion_attack"
    """Partner: when the owner attacks with a weapon, a separate hit of `amount` `types`."""
    GUARD = "guard"
    """Partner: physical damage the owner takes is reduced by `amount`."""
    STRIDE = "stride"
    """Movement rolls count `amount` more (a buff may make it negative)."""
    NIMBLE = "nimble"
    """Flee rolls count `amount` more."""
    PACK = "pack"
    """The hand limit grows by `amount`."""
    NURSE = "nurse"
    """The daily heal restores `amount` more."""
    STRENGTH = "strength"
    """Buff: the player's weapon hits deal `amount` more damage."""
    HALVE_DEALT = "halve_dealt"
    """Buff: the player's hits deal half damage (rounded by `rounding`)."""
    HALVE_TAKEN = "halve_taken"
    """Buff: physical damage the player takes is halved (rounded by `rounding`)."""
    REGENERATION = "regeneration"
    """Buff: heal `amount` at the end of each round."""
    POISON = "poison"
    """Buff: take `amount` true damage at the end of each round."""
    GLOWING = "glowing"
    """Buff: the player's attack range and every other player's range against them grow by
    `amount`."""
    STARVE = "starve"
    """Buff: the player gets no daily heal."""


@dataclass(frozen=True)
class Effect:
    """One effect; which fields matter depends on `kind` (see EffectKind)."""

    kind: EffectKind = field(metadata=doc("what the effect does"))
    amount: int = field(default=0, metadata=doc("HP, damage, durability or bonus"))
    count: int = field(default=1, metadata=doc("cards drawn by draw and legendary"))
    deck: str = field(default="", metadata=doc("deck id drawn from by draw"))
    types: tuple[DamageType, ...] = field(default=(), metadata=doc("damage types of damage"))
    buff: str = field(default="", metadata=doc("buff id given by buff"))
    target: Target = field(default=Target.SELF, metadata=doc("who the effect hits"))
    rounding: Rounding | None = field(default=None, metadata=doc("up/down mark of a halving"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)

    @property
    def meaning(self) -> str:
        """What a buff's effect does to whoever holds it: the one wording that the potion,
        food and event faces, the rulebook's buff list and the glossary all print ("" for a
        kind no buff has). It names no one, so it reads the same on a potion thrown at
        another player as on one drunk; the numbers are the effect's own."""
        amount = f"{'+' if self.amount >= 0 else '−'}{abs(self.amount)}"
        mark = self.rounding.mark if self.rounding else ""
        return {
            # Bare hands gain it too (the engine adds it to every attack, not just a weapon's).
            "strength": f"攻击伤害 {amount}",
            "halve_taken": f"受到的物理伤害减半{mark}",
            "halve_dealt": f"造成的伤害减半{mark}",
            "regeneration": f"每轮结束时回复 {self.amount} 点血量",
            "poison": f"每轮结束时受到 {self.amount} 点真实伤害",
            "stride": f"移动点数 {amount}",
            "glowing": f"攻击范围 {amount}，别人对其的攻击范围也 {amount}",
            "starve": "每天结束时不回复血量",
        }.get(self.kind.value, "")


@dataclass(frozen=True)
class Icon:
    """A map-corner icon: printed in the corner of some cells and on the cards bound to them."""

    id: str = field(metadata=doc("slug"))
    name: str = field(metadata=doc("name in Chinese", nonempty=True))
    symbol: str = field(metadata=doc("the glyph printed in a corner"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class Terrain:
    """A kind of map cell (地块)."""

    id: str = field(metadata=doc("slug"))
    name: str = field(metadata=doc("name in Chinese", nonempty=True))
    code: str = field(metadata=doc("the one character that stands for it in tile rows"))
    colour: str = field(metadata=doc("fill colour on the map, '#rrggbb'"))
    draws: str = field(default="", metadata=doc("deck id a player landing here draws from"))
    icon: str = field(default="", metadata=doc("map-corner icon id printed on its cells"))
    landing_damage: int = field(default=0, metadata=doc("true damage on landing here"))
    overworld: bool = field(default=True, metadata=doc("false for the End (the dragon's lair)"))
    text: str = field(default="", metadata=doc("what the map-information card says"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class Point:
    x: int = field(metadata=doc("column, 0 at the left"))
    y: int = field(metadata=doc("row, 0 at the top"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class MapTile(kit.Board):
    """A printed map tile: a block of cells, each written as its terrain's code."""

    label: str = field(
        metadata=doc("short label the assembly guide shows, e.g. 'A1'", nonempty=True)
    )
    rows: tuple[str, ...] = field(metadata=doc("one string per row, one terrain code per cell"))
    spawns: tuple[Point, ...] = field(default=(), metadata=doc("spawn points on this tile"))
    dragon: Point | None = field(default=None, metadata=doc("the Ender Dragon's cell, if here"))

    @property
    def width(self) -> int:
        return max((len(row) for row in self.rows), default=0)

    @property
    def height(self) -> int:
        return len(self.rows)


@dataclass(frozen=True)
class Placement:
    tile: str = field(metadata=doc("tile id"))
    x: int = field(metadata=doc("column of the tile's top-left cell on the map"))
    y: int = field(metadata=doc("row of the tile's top-left cell on the map"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class Assembly(kit.Aid):
    """One way to lay the tiles out into a square map; its aid is the assembly guide."""

    size: int = field(metadata=doc("cells per side of the finished map"))
    players: PlayerRange = field(metadata=doc("player counts this map is for"))
    placements: tuple[Placement, ...] = field(metadata=doc("which tile goes where"))


@dataclass(frozen=True)
class Deck(kit.Deck):
    """A deck, and where its cards live once drawn."""

    zone: Zone = field(metadata=doc("field, hand or mixed"))


@dataclass(frozen=True)
class WeaponKind:
    id: str = field(metadata=doc("slug"))
    name: str = field(metadata=doc("name in Chinese", nonempty=True))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class Equipment(kit.Card):
    """A main weapon, sub weapon or armour card (a field card)."""

    slot: Slot = field(metadata=doc("main_weapon, sub_weapon or armour"))
    weapon_kind: str = field(default="", metadata=doc("weapon kind id (weapons only)"))
    range: int = field(default=0, metadata=doc("attack range in cells (weapons)"))
    damage: int = field(default=0, metadata=doc("damage of one hit (weapons)"))
    types: tuple[DamageType, ...] = field(default=(), metadata=doc("damage types of a hit"))
    durability: int = field(default=0, metadata=doc("uses before it breaks (weapons)"))
    blocks: bool = field(default=False, metadata=doc("a shield: blocks piercing hits"))
    defence: int = field(default=0, metadata=doc("physical damage an armour stops per hit"))
    traits: tuple[Trait, ...] = field(default=(), metadata=doc("traits, e.g. blast_proof"))
    legendary: bool = field(default=False, metadata=doc("in the legendary deck"))
    text: str = field(default="", metadata=doc("flavour line"))

    @property
    def is_weapon(self) -> bool:
        return self.slot is not Slot.ARMOUR


@dataclass(frozen=True)
class Partner(kit.Card):
    effect: Effect = field(metadata=doc("what the partner does"))
    text: str = field(default="", metadata=doc("flavour line"))


@dataclass(frozen=True)
class Event(kit.Card):
    effect: Effect = field(metadata=doc("what happens when it is drawn"))
    text: str = field(default="", metadata=doc("flavour line"))


@dataclass(frozen=True)
class Item(kit.Card):
    """A consumable, enchant book or potion (a hand card)."""

    kind: ItemKind = field(metadata=doc("consumable, enchant or potion"))
    effect: Effect = field(metadata=doc("what playing it does"))
    weapon_kind: str = field(default="", metadata=doc("enchant: the weapon kind it goes under"))
    icon: str = field(default="", metadata=doc("map-corner icon: playable only on such a cell"))
    legendary: bool = field(default=False, metadata=doc("in the legendary deck"))
    text: str = field(default="", metadata=doc("flavour line"))

    @property
    def timing(self) -> Timing:
        """When it is played: books in the decision phase only, a revive card never."""
        if self.kind is ItemKind.ENCHANT:
            return Timing.DECISION
        if self.effect.kind is EffectKind.REVIVE:
            return Timing.IN_HAND
        return Timing.ANYTIME


@dataclass(frozen=True)
class Food(kit.Card):
    heal: int = field(metadata=doc("HP restored"))
    buff: str = field(default="", metadata=doc("buff id it also gives the eater"))
    text: str = field(default="", metadata=doc("flavour line"))

    @property
    def timing(self) -> Timing:
        """Food is eaten in the decision phase or as one combat action."""
        return Timing.ANYTIME


Card = Equipment | Partner | Event | Item | Food
"""A card of any deck (the legendary deck holds equipment and items)."""


@dataclass(frozen=True)
class Buff:
    id: str = field(metadata=doc("slug"))
    name: str = field(metadata=doc("name in Chinese", nonempty=True))
    cls: BuffClass = field(metadata=doc("positive, neutral or negative"))
    effect: Effect = field(metadata=doc("what the buff does while in a slot"))
    rounds: int = field(metadata=doc("rounds it lasts (0: until replaced or cleansed)"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)

    @property
    def meaning(self) -> str:
        """What the buff does: its effect's one wording (see `Effect.meaning`)."""
        return self.effect.meaning


@dataclass(frozen=True)
class BuffToken:
    """The printed token of one buff: it lies in a buff slot on the rounds-left cell.

    The kit prints, per seat of the largest table, one for each slot that takes the buff's
    class: a player may hold the same buff in each of them (a new effect replaces an old one
    only when no slot is free), so that many tokens cover every position."""

    buff: Buff
    copies: int

    @property
    def id(self) -> str:
        return self.buff.id

    @property
    def name(self) -> str:
        return self.buff.name

    @property
    def where(self) -> Location:
        return self.buff.where


@dataclass(frozen=True)
class BuffSlot:
    id: str = field(metadata=doc("slug"))
    name: str = field(metadata=doc("label on the player board", nonempty=True))
    accepts: tuple[BuffClass, ...] = field(metadata=doc("buff classes the slot takes"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class Character(kit.Card):
    colour: str = field(metadata=doc("head token colour '#rrggbb'"))
    ability: Effect = field(metadata=doc("the character's passive ability"))
    text: str = field(default="", metadata=doc("flavour line"))


@dataclass(frozen=True)
class Dragon(kit.Card):
    hp: int = field(metadata=doc("hit points"))
    range: int = field(metadata=doc("attack range"))
    damage: int = field(metadata=doc("damage of its breath"))
    types: tuple[DamageType, ...] = field(metadata=doc("damage types of its breath"))
    defence: int = field(metadata=doc("physical damage its scales stop per hit"))
    text: str = field(default="", metadata=doc("what the dragon card says"))


@dataclass(frozen=True)
class Settings:
    max_hp: int = field(metadata=doc("HP at the start; 0 or below is death"))
    hp_per_heart: int = field(metadata=doc("HP one heart on the board stands for"))
    hand_limit: int = field(metadata=doc("cards kept at the end phase"))
    die_sides: int = field(metadata=doc("faces of the movement and flee die"))
    daily_heal: int = field(metadata=doc("HP everyone heals when a day ends"))
    rounds_per_day: int = field(metadata=doc("rounds in one day (day, night)"))
    combat_rounds: int = field(metadata=doc("most rounds one combat lasts"))
    flee_penalty: int = field(metadata=doc("subtracted from the flee roll"))
    flee_floor: int = field(metadata=doc("the flee roll never goes below this"))
    opening_equipment: int = field(metadata=doc("equipment cards dealt at setup"))
    opening_items: int = field(metadata=doc("item cards dealt at setup"))
    story_base: int = field(metadata=doc("story damage = dead players + this"))
    story_day: int = field(metadata=doc("day from which a story event is put in play"))
    final_day: int = field(
        metadata=doc(
            "the optional last-day variant: the game ends when this day begins, nobody wins"
        )
    )
    unarmed_damage: int = field(metadata=doc("damage of a bare-handed hit"))
    unarmed_range: int = field(metadata=doc("attack range bare-handed"))
    kill_equipment: int = field(metadata=doc("equipment cards a killer takes"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class Mineventure(GameContent):
    """The whole content of MineVenture."""

    settings: Settings = field(metadata=doc("every fixed number of the rules"))
    decks: tuple[Deck, ...] = field(metadata=doc("the card decks"))
    weapon_kinds: tuple[WeaponKind, ...] = field(metadata=doc("kinds of weapon"))
    equipment: tuple[Equipment, ...] = field(metadata=doc("equipment cards"))
    partners: tuple[Partner, ...] = field(metadata=doc("partner cards"))
    events: tuple[Event, ...] = field(metadata=doc("event cards"))
    items: tuple[Item, ...] = field(metadata=doc("item cards"))
    food: tuple[Food, ...] = field(metadata=doc("food cards"))
    buffs: tuple[Buff, ...] = field(metadata=doc("the effects a buff slot can hold"))
    buff_slots: tuple[BuffSlot, ...] = field(metadata=doc("the three buff slots"))
    characters: tuple[Character, ...] = field(metadata=doc("character cards and head tokens"))
    dragon: Dragon = field(metadata=doc("the Ender Dragon"))
    corner_icons: tuple[Icon, ...] = field(metadata=doc("map-corner icons"))
    terrains: tuple[Terrain, ...] = field(metadata=doc("kinds of map cell"))
    tiles: tuple[MapTile, ...] = field(metadata=doc("the printed map tiles"))
    assemblies: tuple[Assembly, ...] = field(metadata=doc("the two map layouts"))
    markers: tuple[kit.Marker, ...] = field(metadata=doc("HP, durability and board markers"))
    boards: tuple[kit.Board, ...] = field(metadata=doc("the player and game status boards"))

    # -- lookups ---------------------------------------------------------------------------

    @cached_property
    def terrain_by_code(self) -> dict[str, Terrain]:
        return {terrain.code: terrain for terrain in self.terrains}

    @cached_property
    def tile_by_id(self) -> dict[str, MapTile]:
        return {tile.id: tile for tile in self.tiles}

    @cached_property
    def buff_by_id(self) -> dict[str, Buff]:
        return {buff.id: buff for buff in self.buffs}

    def deck(self, deck_id: str) -> Deck | None:
        return next((deck for deck in self.decks if deck.id == deck_id), None)

    def icon(self, icon_id: str) -> Icon | None:
        return next((icon for icon in self.corner_icons if icon.id == icon_id), None)

    def weapon_kind(self, kind_id: str) -> WeaponKind | None:
        return next((kind for kind in self.weapon_kinds if kind.id == kind_id), None)

    # Lookups by id, for rulebook prose (`game.buff('poison').rounds`).

    def buff(self, buff_id: str) -> Buff:
        return self.buff_by_id[buff_id]

    def terrain(self, terrain_id: str) -> Terrain:
        return next(t for t in self.terrains if t.id == terrain_id)

    def equipment_card(self, card_id: str) -> Equipment:
        return next(card for card in self.equipment if card.id == card_id)

    def item(self, card_id: str) -> Item:
        return next(card for card in self.items if card.id == card_id)

    def event(self, card_id: str) -> Event:
        return next(card for card in self.events if card.id == card_id)

    def assembly(self, assembly_id: str) -> Assembly:
        return next(a for a in self.assemblies if a.id == assembly_id)

    def deck_cards(self, deck_id: str) -> tuple[Equipment | Partner | Event | Item | Food, ...]:
        """Every card shuffled into a deck (by id), each once however many copies it has."""
        cards: tuple[Equipment | Partner | Event | Item | Food, ...] = (
            *self.equipment,
            *self.partners,
            *self.events,
            *self.items,
            *self.food,
        )
        return tuple(card for card in cards if self.deck_of(card) == deck_id)

    def deck_size(self, deck_id: str) -> int:
        """Cards in a deck, copies counted."""
        return sum(card.copies for card in self.deck_cards(deck_id))

    @property
    def story_events(self) -> tuple[Event, ...]:
        """The event cards that bring the story into play."""
        return tuple(e for e in self.events if e.effect.kind is EffectKind.STORY)

    @property
    def weapons(self) -> tuple[Equipment, ...]:
        return tuple(card for card in self.equipment if card.is_weapon)

    @property
    def armours(self) -> tuple[Equipment, ...]:
        return tuple(card for card in self.equipment if not card.is_weapon)

    def damage_types_used(self) -> tuple[DamageType, ...]:
        """Every damage type some card, buff or the dragon deals, in the model's order."""
        used: set[DamageType] = set(self.dragon.types)
        for card in self.equipment:
            used.update(card.types)
        effects = [p.effect for p in self.partners]
        effects += [e.effect for e in self.events] + [i.effect for i in self.items]
        for effect in effects:
            used.update(effect.types)
        return tuple(t for t in DamageType if t in used)

    def deck_of(self, card: object) -> str:
        """The id of the deck a card is shuffled into (fixed by its type and legendary flag)."""
        if getattr(card, "legendary", False):
            return "legendary"
        return DECK_OF_TYPE.get(type(card).__name__, "")

    # -- what the kit prints -----------------------------------------------------------------

    @property
    def equipment_cards(self) -> tuple[Equipment, ...]:
        return tuple(card for card in self.equipment if not card.legendary)

    @property
    def legendary_field_cards(self) -> tuple[Equipment, ...]:
        return tuple(card for card in self.equipment if card.legendary)

    @property
    def item_cards(self) -> tuple[Item, ...]:
        return tuple(card for card in self.items if not card.legendary)

    @property
    def legendary_hand_cards(self) -> tuple[Item, ...]:
        return tuple(card for card in self.items if card.legendary)

    @property
    def dragon_cards(self) -> tuple[Dragon, ...]:
        return (self.dragon,)

    @property
    def map_info_cards(self) -> tuple[kit.Board, ...]:
        return tuple(board for board in self.boards if board.id == "map-info")

    @property
    def player_boards(self) -> tuple[kit.Board, ...]:
        return tuple(board for board in self.boards if board.id == "player-status")

    @property
    def equipment_mats(self) -> tuple[kit.Board, ...]:
        return tuple(board for board in self.boards if board.id == "equipment-area")

    @property
    def buff_tokens(self) -> tuple[BuffToken, ...]:
        """Each buff's tokens: one per slot that takes its class, for every seat of the
        largest table (a player may hold it in each such slot, decision buff-slots)."""
        return tuple(
            BuffToken(
                buff,
                sum(buff.cls in slot.accepts for slot in self.buff_slots) * self.info.players.max,
            )
            for buff in self.buffs
        )

    @property
    def game_boards(self) -> tuple[kit.Board, ...]:
        return tuple(board for board in self.boards if board.id == "game-status")

    @property
    def small_tiles(self) -> tuple[MapTile, ...]:
        return tuple(tile for tile in self.tiles if tile.width == self.tile_unit)

    @property
    def large_tiles(self) -> tuple[MapTile, ...]:
        return tuple(tile for tile in self.tiles if tile.width != self.tile_unit)

    @property
    def tile_unit(self) -> int:
        """Cells per side of the smallest tile (the others print in their own product)."""
        return min((tile.width for tile in self.tiles), default=0)

    def assembly_cells(self, assembly: Assembly) -> list[tuple[int, int, Terrain]]:
        """Every cell of an assembled map as (x, y, terrain); unknown tiles are skipped."""
        cells = []
        for placement in assembly.placements:
            tile = self.tile_by_id.get(placement.tile)
            if tile is None:
                continue
            for dy, row in enumerate(tile.rows):
                for dx, code in enumerate(row):
                    terrain = self.terrain_by_code.get(code)
                    if terrain is not None:
                        cells.append((placement.x + dx, placement.y + dy, terrain))
        return cells

    def assembly_spawns(self, assembly: Assembly) -> list[tuple[int, int]]:
        """Map cells of every spawn point of an assembly."""
        return [
            (placement.x + spawn.x, placement.y + spawn.y)
            for placement in assembly.placements
            if placement.tile in self.tile_by_id
            for spawn in self.tile_by_id[placement.tile].spawns
        ]

    def assembly_dragons(self, assembly: Assembly) -> list[tuple[int, int]]:
        """Map cells of the dragon on an assembly (exactly one on a valid map)."""
        return [
            (placement.x + tile.dragon.x, placement.y + tile.dragon.y)
            for placement in assembly.placements
            if (tile := self.tile_by_id.get(placement.tile)) is not None and tile.dragon
        ]

    def tile_cells(self, tile: MapTile) -> list[tuple[int, int, Terrain]]:
        return [
            (x, y, self.terrain_by_code[code])
            for y, row in enumerate(tile.rows)
            for x, code in enumerate(row)
            if code in self.terrain_by_code
        ]


DECK_OF_TYPE = {
    "Equipment": "equipment",
    "Partner": "partner",
    "Event": "event",
    "Item": "item",
    "Food": "food",
}
"""Which deck each kind of card belongs to (legendary cards go to 'legendary')."""

SLUG = "mineventure"
MODEL = Mineventure
"""The root type content/mineventure/*.yaml loads into (found by pnp.model.registry)."""
