"""MineVenture content against its rules: the map and its assemblies, the decks and where each
card may go, damage types and rounding marks, and seeded play through the reference engine."""

from __future__ import annotations

import random
import statistics
from collections import Counter
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from pnp.content.loader import LoadedGame
from pnp.engines.base import Policy, RandomPolicy
from pnp.errors import Location, PnpError
from pnp.games.mineventure.model import (
    DECK_OF_TYPE,
    DamageType,
    Effect,
    EffectKind,
    Equipment,
    Event,
    Food,
    Item,
    ItemKind,
    Mineventure,
    Partner,
    Slot,
    Timing,
    Zone,
)
from pnp.games.mineventure.policies import SensiblePolicy
from pnp.games.mineventure.rules import MineventureRules
from pnp.games.mineventure.simulation import simulate
from pnp.games.mineventure.state import (
    SLUG,
    TURN_CAP,
    Act,
    MineventureState,
    Mode,
    Termination,
    clone,
)
from pnp.validate.checks import Findings, check_declaration, suggest
from pnp.validate.claims import Claim

DEFAULT_GAMES = 3
"""Seeded games per map, player count and policy that `check_simulated` plays with every
invariant checked after every step (no card created or lost, HP and hands within bounds). The
shared play checks replay the large batches (liveness and coverage: random, sensible, passive
and strong on every table), so this run stays small: `pnp validate` must stay fast."""

LEGENDARY_DECK = "legendary"

# Which effect kinds make sense where (the engine resolves them all; content must put them
# where they act).
PASSIVE = {
    EffectKind.STRIDE,
    EffectKind.NIMBLE,
    EffectKind.PACK,
    EffectKind.NURSE,
    EffectKind.GUARD,
    EffectKind.STRENGTH,
}
ALLOWED: dict[str, set[EffectKind]] = {
    "partner": PASSIVE | {EffectKind.COMPANION_ATTACK},
    "character": PASSIVE,
    "event": {
        EffectKind.DRAW,
        EffectKind.LEGENDARY,
        EffectKind.STORY,
        EffectKind.DAMAGE,
        EffectKind.HEAL,
        EffectKind.BUFF,
    },
    "consumable": {
        EffectKind.HEAL,
        EffectKind.DAMAGE,
        EffectKind.DRAW,
        EffectKind.REPAIR,
        EffectKind.CLEANSE,
        EffectKind.REVIVE,
    },
    "enchant": {EffectKind.SHARPEN, EffectKind.EXTEND_RANGE, EffectKind.REINFORCE},
    "potion": {EffectKind.BUFF},
    "buff": PASSIVE
    | {
        EffectKind.HALVE_DEALT,
        EffectKind.HALVE_TAKEN,
        EffectKind.REGENERATION,
        EffectKind.POISON,
        EffectKind.GLOWING,
        EffectKind.STARVE,
    },
}
HALVING = {EffectKind.HALVE_DEALT, EffectKind.HALVE_TAKEN}
LANDSCAPE_TYPES = (Equipment, Partner, Event)
PORTRAIT_TYPES = (Item, Food)


def _effects(model: Mineventure) -> list[tuple[str, Any, Effect]]:
    """(context, owner, effect) of every effect in the content."""
    out: list[tuple[str, Any, Effect]] = []
    out += [("partner", p, p.effect) for p in model.partners]
    out += [("event", e, e.effect) for e in model.events]
    out += [(i.kind.value, i, i.effect) for i in model.items]
    out += [("buff", b, b.effect) for b in model.buffs]
    out += [("character", c, c.ability) for c in model.characters]
    return out


def used_effects(model: Mineventure) -> dict[EffectKind, Location]:
    used: dict[EffectKind, Location] = {}
    for _, _, effect in _effects(model):
        used.setdefault(effect.kind, effect.where)
    return used


def rulebook_terms(model: Mineventure) -> list[tuple[str, Location]]:
    """Words the cards, boards and map print that the rulebook must explain: deck and slot
    names, item kinds, damage types and traits, rounding marks, buff names and classes, map
    terrains and icons, the weapon kinds enchant books name, story events and the dragon."""
    terms: dict[str, Location] = {}

    def add(term: str, where: Location) -> None:
        terms.setdefault(term, where)

    for deck in model.decks:
        add(deck.name, deck.where)
    for card in model.equipment:
        add(card.slot.label, card.where)
        for kind in card.types:
            add(kind.label, card.where)
        for trait in card.traits:
            add(trait.label, card.where)
    effects = [p.effect for p in model.partners]
    effects += [e.effect for e in model.events] + [i.effect for i in model.items]
    for effect in effects:
        for kind in effect.types:
            add(kind.label, effect.where)
    for kind in model.dragon.types:
        add(kind.label, model.dragon.where)
    for item in model.items:
        add(item.kind.label, item.where)
        weapon_kind = model.weapon_kind(item.weapon_kind) if item.weapon_kind else None
        if weapon_kind is not None:
            add(weapon_kind.name, item.where)
    for buff in model.buffs:
        add(buff.name, buff.where)
        add(buff.cls.label, buff.where)
        if buff.effect.rounding is not None:
            add(buff.effect.rounding.mark, buff.effect.where)
    for slot in model.buff_slots:
        for cls in slot.accepts:
            add(cls.label, slot.where)
    for terrain in model.terrains:
        add(terrain.name, terrain.where)
    for icon in model.corner_icons:
        add(icon.name, icon.where)
    for event in model.story_events:
        add("剧情事件", event.where)
    add(model.dragon.name, model.dragon.where)
    return list(terms.items())


def check_static(findings: Findings) -> None:
    model: Mineventure = findings.game.model
    for assembly in model.assemblies:
        try:
            rules = MineventureRules(model, assembly.players.max, assembly.id)
        except (ValueError, KeyError) as error:
            findings.error(assembly.where, f"the rules engine refuses map {assembly.id!r}: {error}")
        else:
            if assembly is model.assemblies[0]:
                where = model.items[0].where if model.items else None
                check_declaration(
                    findings, rules.declares(), used_effects(model), Mineventure, where
                )
    _check_settings(findings, model)
    _check_tiles(findings, model)
    _check_assemblies(findings, model)
    _check_decks(findings, model)
    _check_equipment(findings, model)
    _check_effects(findings, model)
    _check_items(findings, model)
    _check_legendary(findings, model)
    _check_orientation(findings, model)
    _check_dragon(findings, model)
    _check_day_track(findings, model)


def _check_day_track(findings: Findings, model: Mineventure) -> None:
    """The day track runs to the optional last day: a table that plays that variant ends the
    game on its cell (decision final-day). Without the variant a game's day has no bound, so
    the shared check of the track's range cannot ask for it."""
    final = model.settings.final_day
    for product in model.products:
        for track in product.tracks:
            if track.id != "day":
                continue
            days = [v for v in track.values() if isinstance(v, int)]
            if days and final not in days:
                findings.error(
                    track.where,
                    f"track 'day' on {product.id!r} shows {min(days)}..{max(days)}: the optional "
                    f"last day, day {final}, has no cell to end the game on",
                )


def _check_dragon(findings: Findings, model: Mineventure) -> None:
    """The dragon must threaten everyone who goes for it: its breath, the hit it deals every
    combat round and to everyone in range at every round's end, must get through each armour
    card on its own (no partner, no buff). An armour it cannot hurt makes the world boss a
    punching bag for whoever draws that card."""
    if not model.assemblies:
        return
    try:
        rules = MineventureRules(model, model.info.players.min, model.assemblies[0].id)
    except (ValueError, KeyError):
        return  # check_static reports the engine refusing the map
    state = clone(rules.initial_state(random.Random(0)))
    me = state.players[0]
    me.buffs = (None,) * len(me.buffs)
    plain = [
        i
        for i, c in enumerate(model.characters)
        if c.ability.kind not in (EffectKind.GUARD, EffectKind.HALVE_TAKEN)
    ]
    if plain:
        me.character = plain[0]
    dragon = model.dragon
    kinds = "+".join(t.value for t in dragon.types)
    for card in model.equipment:
        if card.slot is not Slot.ARMOUR:
            continue
        me.armour = rules.by_token[card.id]
        taken = rules.damage_taken(state, 0, dragon.damage, dragon.types, blocking=False)
        if taken <= 0:
            findings.error(
                card.where,
                f"dragon: its breath ({dragon.damage} {kinds} damage) takes nothing from a "
                f"player wearing {card.id!r}: the armour makes the dragon harmless",
            )


def _check_settings(findings: Findings, model: Mineventure) -> None:
    s = model.settings
    if s.max_hp <= 0 or s.max_hp % s.hp_per_heart:
        findings.error(
            s.where,
            f"settings: max_hp {s.max_hp} must be a positive whole number of "
            f"{s.hp_per_heart}-HP hearts",
        )
    for name in ("hand_limit", "die_sides", "combat_rounds", "rounds_per_day"):
        if getattr(s, name) < 1:
            findings.error(s.where, f"settings: {name} must be at least 1")
    if s.final_day <= s.story_day:
        findings.error(
            s.where, f"settings: final_day {s.final_day} must come after story_day {s.story_day}"
        )
    if s.final_day * s.rounds_per_day >= TURN_CAP:
        findings.error(
            s.where,
            f"settings: final_day {s.final_day} is {s.final_day * s.rounds_per_day} rounds, "
            f"past the simulation's cap of {TURN_CAP}",
        )
    if s.flee_floor < 1 or s.flee_floor > s.die_sides:
        findings.error(s.where, f"settings: flee_floor {s.flee_floor} is not a face of the die")
    if len(model.characters) < model.info.players.max:
        findings.error(
            model.characters[0].where if model.characters else None,
            f"characters: {len(model.characters)} characters cannot seat "
            f"{model.info.players.max} players",
        )
    if len(model.buff_slots) != 3:
        findings.error(
            None, f"buff_slots: the rules give 3 buff slots, content has {len(model.buff_slots)}"
        )


def _check_tiles(findings: Findings, model: Mineventure) -> None:
    codes = Counter(t.code for t in model.terrains)
    for terrain in model.terrains:
        if len(terrain.code) != 1 or codes[terrain.code] > 1:
            findings.error(
                terrain.where, f"terrains: code {terrain.code!r} must be one unique character"
            )
        if terrain.draws and model.deck(terrain.draws) is None:
            findings.error(
                terrain.where,
                f"terrains: {terrain.id!r} draws from unknown deck {terrain.draws!r}"
                f"{suggest(terrain.draws, [d.id for d in model.decks])}",
            )
        if terrain.draws == LEGENDARY_DECK:
            findings.error(
                terrain.where,
                f"terrains: {terrain.id!r} draws legendary cards; they come only through events",
            )
        if terrain.icon and model.icon(terrain.icon) is None:
            findings.error(
                terrain.where,
                f"terrains: {terrain.id!r} has unknown icon {terrain.icon!r}"
                f"{suggest(terrain.icon, [i.id for i in model.corner_icons])}",
            )
        if terrain.landing_damage < 0:
            findings.error(terrain.where, f"terrains: {terrain.id!r} has negative landing damage")
    for tile in model.tiles:
        widths = {len(row) for row in tile.rows}
        if len(widths) != 1:
            findings.error(
                tile.where, f"tiles: {tile.id!r} rows have different lengths {sorted(widths)}"
            )
            continue  # points on a ragged tile cannot be looked up
        unknown = sorted({ch for row in tile.rows for ch in row} - set(codes))
        if unknown:
            findings.error(
                tile.where, f"tiles: {tile.id!r} uses unknown terrain codes {''.join(unknown)!r}"
            )
        points = [("spawn", p) for p in tile.spawns] + (
            [("dragon", tile.dragon)] if tile.dragon else []
        )
        for what, point in points:
            if not (0 <= point.x < tile.width and 0 <= point.y < tile.height):
                findings.error(
                    point.where, f"tiles: {tile.id!r} {what} ({point.x}, {point.y}) is off the tile"
                )
                continue
            under = model.terrain_by_code.get(tile.rows[point.y][point.x])
            if under is None:
                continue
            if what == "dragon" and under.overworld:
                findings.error(
                    point.where,
                    f"tiles: the dragon on {tile.id!r} must stand in the End, not on {under.id!r}",
                )
            if what == "spawn" and (not under.overworld or under.landing_damage):
                findings.error(
                    point.where, f"tiles: spawn point on {tile.id!r} lies on {under.id!r}"
                )


def _check_assemblies(findings: Findings, model: Mineventure) -> None:
    sizes = {a.size for a in model.assemblies}
    # The rules fix two maps: 24x24 for 3-4 players and 32x32 for 4-6 players.
    for size in (24, 32):
        if size not in sizes:
            findings.error(
                None, f"assemblies: the rules call for a {size}x{size} map; none is defined"
            )
    covered_players = {n for a in model.assemblies for n in a.players}
    for players in model.info.players:
        if players not in covered_players:
            findings.error(model.info.where, f"assemblies: no map is for {players} players")
    for assembly in model.assemblies:
        owner: dict[tuple[int, int], str] = {}
        for placement in assembly.placements:
            tile = model.tile_by_id.get(placement.tile)
            if tile is None:
                findings.error(
                    placement.where,
                    f"assemblies: {assembly.id!r} places unknown tile {placement.tile!r}"
                    f"{suggest(placement.tile, list(model.tile_by_id))}",
                )
                continue
            off_map: list[tuple[int, int]] = []
            overlaps: list[tuple[tuple[int, int], str]] = []
            for dy in range(tile.height):
                for dx in range(tile.width):
                    cell = (placement.x + dx, placement.y + dy)
                    if not (0 <= cell[0] < assembly.size and 0 <= cell[1] < assembly.size):
                        off_map.append(cell)
                    elif cell in owner:
                        overlaps.append((cell, owner[cell]))
                    else:
                        owner[cell] = tile.id
            if off_map:
                findings.error(
                    placement.where,
                    f"assemblies: {assembly.id!r}: tile {tile.id!r} runs off the "
                    f"{assembly.size}x{assembly.size} map at {off_map[0]}",
                )
            if overlaps:
                cell, other = overlaps[0]
                findings.error(
                    placement.where,
                    f"assemblies: {assembly.id!r}: tile {tile.id!r} overlaps {other!r} at {cell} "
                    f"({len(overlaps)} cells)",
                )
        gaps = [
            (x, y)
            for y in range(assembly.size)
            for x in range(assembly.size)
            if (x, y) not in owner
        ]
        if gaps:
            findings.error(
                assembly.where,
                f"assemblies: {assembly.id!r} leaves {len(gaps)} cells of its "
                f"{assembly.size}x{assembly.size} map uncovered (first at {gaps[0]})",
            )
        spawns = set(model.assembly_spawns(assembly))
        if len(spawns) < assembly.players.max:
            findings.error(
                assembly.where,
                f"assemblies: {assembly.id!r} has {len(spawns)} spawn points for up to "
                f"{assembly.players.max} players",
            )
        dragons = model.assembly_dragons(assembly)
        if len(dragons) != 1:
            findings.error(
                assembly.where,
                f"assemblies: {assembly.id!r} has {len(dragons)} dragons; exactly one",
            )
        icons = {t.icon for _, _, t in model.assembly_cells(assembly) if t.icon}
        for item in model.items:
            if item.icon and model.icon(item.icon) and item.icon not in icons:
                findings.error(
                    item.where,
                    f"items: {item.id!r} needs icon {item.icon!r}, "
                    f"which map {assembly.id!r} never shows",
                )


def _check_decks(findings: Findings, model: Mineventure) -> None:
    zones = {
        "equipment": Zone.FIELD,
        "partner": Zone.FIELD,
        "event": Zone.FIELD,
        "item": Zone.HAND,
        "food": Zone.HAND,
    }
    for deck_id in [*DECK_OF_TYPE.values(), LEGENDARY_DECK]:
        deck = model.deck(deck_id)
        if deck is None:
            findings.error(None, f"decks: the rules need a deck {deck_id!r}")
        elif deck_id in zones and deck.zone is not zones[deck_id]:
            findings.error(
                deck.where,
                f"decks: {deck_id!r} holds {zones[deck_id].value} cards, not {deck.zone.value}",
            )


def _check_equipment(findings: Findings, model: Mineventure) -> None:
    for card in model.equipment:
        where = card.where
        if card.is_weapon:
            if model.weapon_kind(card.weapon_kind) is None:
                findings.error(
                    where,
                    f"equipment: weapon {card.id!r} has unknown weapon kind {card.weapon_kind!r}"
                    f"{suggest(card.weapon_kind, [k.id for k in model.weapon_kinds])}",
                )
            if card.durability < 1:
                findings.error(
                    where, f"equipment: weapon {card.id!r} needs a durability of at least 1"
                )
            if card.defence or card.traits:
                findings.error(
                    where, f"equipment: weapon {card.id!r} has armour values; it fits no slot"
                )
            if card.blocks:
                if card.damage or card.types or card.slot is not Slot.SUB_WEAPON:
                    findings.error(
                        where, f"equipment: shield {card.id!r} must be a sub weapon without damage"
                    )
            elif card.damage < 1 or card.range < 1:
                findings.error(
                    where, f"equipment: weapon {card.id!r} needs range and damage of at least 1"
                )
            else:
                _check_types(
                    findings, where, f"equipment: {card.id!r}", card.types, sourceless=False
                )
        else:
            if (
                card.weapon_kind
                or card.damage
                or card.range
                or card.durability
                or card.blocks
                or card.types
            ):
                findings.error(
                    where, f"equipment: armour {card.id!r} has weapon values; it fits no slot"
                )
            if card.defence < 0:
                findings.error(where, f"equipment: armour {card.id!r} has negative defence")


def _check_types(
    findings: Findings, where: Location, what: str, types: tuple[DamageType, ...], sourceless: bool
) -> None:
    """Damage types: physical or piercing (either, not both), area only beside one of them,
    true alone and only where there is no source."""
    kinds = set(types)
    if len(kinds) != len(types):
        findings.error(where, f"{what}: damage types repeat: {[t.value for t in types]}")
    if DamageType.TRUE in kinds:
        if len(kinds) > 1:
            findings.error(where, f"{what}: true damage combines with nothing")
        if not sourceless:
            findings.error(
                where, f"{what}: true damage has no source; a card that attacks cannot deal it"
            )
        return
    main = kinds & {DamageType.PHYSICAL, DamageType.PIERCING}
    if len(main) != 1:
        findings.error(
            where,
            f"{what}: needs exactly one of physical or piercing "
            f"(area only goes with one of them), got {[t.value for t in types]}",
        )


def _check_effects(findings: Findings, model: Mineventure) -> None:
    buffs = {b.id for b in model.buffs}
    for context, owner, effect in _effects(model):
        where = effect.where
        name = f"{context} {owner.id!r}"
        if effect.kind not in ALLOWED[context]:
            findings.error(
                where, f"{name}: effect {effect.kind.value!r} does nothing on a {context} card"
            )
        if effect.kind in HALVING and effect.rounding is None:
            findings.error(
                where, f"{name}: a halving effect needs a rounding mark (up ↑ or down ↓)"
            )
        if effect.kind not in HALVING and effect.rounding is not None:
            findings.error(
                where,
                f"{name}: rounding mark {effect.rounding.mark} on an effect that halves nothing",
            )
        if effect.kind is EffectKind.DAMAGE:
            _check_types(findings, where, name, effect.types, sourceless=context == "event")
            if effect.amount < 1:
                findings.error(where, f"{name}: damage of {effect.amount}")
        elif effect.types and effect.kind is not EffectKind.COMPANION_ATTACK:
            findings.error(where, f"{name}: damage types on an effect that deals no damage")
        if effect.kind is EffectKind.COMPANION_ATTACK:
            _check_types(findings, where, name, effect.types, sourceless=False)
        if effect.kind is EffectKind.BUFF and effect.buff not in buffs:
            findings.error(
                where, f"{name}: unknown buff {effect.buff!r}{suggest(effect.buff, buffs)}"
            )
        if effect.kind is EffectKind.DRAW:
            if model.deck(effect.deck) is None:
                findings.error(
                    where,
                    f"{name}: draws from unknown deck {effect.deck!r}"
                    f"{suggest(effect.deck, [d.id for d in model.decks])}",
                )
            elif effect.deck == LEGENDARY_DECK:
                findings.error(
                    where, f"{name}: legendary cards are drawn only by a 'legendary' event"
                )
    for food in model.food:
        if food.buff and food.buff not in buffs:
            findings.error(
                food.where,
                f"food: {food.id!r} gives unknown buff {food.buff!r}{suggest(food.buff, buffs)}",
            )
    # Buff slots: every buff must fit a slot class; every class named must exist.
    accepted = {cls for slot in model.buff_slots for cls in slot.accepts}
    for buff in model.buffs:
        if buff.cls not in accepted:
            findings.error(
                buff.where, f"buffs: {buff.id!r} is {buff.cls.value}, which no buff slot takes"
            )
        if buff.rounds < 0:
            findings.error(buff.where, f"buffs: {buff.id!r} lasts {buff.rounds} rounds")


def _check_items(findings: Findings, model: Mineventure) -> None:
    kinds = {w.id for w in model.weapon_kinds}
    weapon_kinds = {c.weapon_kind for c in model.equipment if c.is_weapon}
    for item in model.items:
        if item.kind is ItemKind.ENCHANT:
            if item.weapon_kind not in kinds:
                findings.error(
                    item.where,
                    f"items: enchant book {item.id!r} names unknown weapon kind "
                    f"{item.weapon_kind!r}{suggest(item.weapon_kind, kinds)}",
                )
            elif item.weapon_kind not in weapon_kinds:
                findings.error(
                    item.where,
                    f"items: no weapon of kind {item.weapon_kind!r} can take {item.id!r}",
                )
        elif item.weapon_kind:
            findings.error(
                item.where, f"items: {item.id!r} is not an enchant book but names a weapon kind"
            )
        if item.icon and model.icon(item.icon) is None:
            findings.error(
                item.where,
                f"items: {item.id!r} has unknown icon {item.icon!r}"
                f"{suggest(item.icon, [i.id for i in model.corner_icons])}",
            )


def _check_legendary(findings: Findings, model: Mineventure) -> None:
    # Legendary cards: only in the legendary deck, which only events reach.
    legendary = [*model.legendary_field_cards, *model.legendary_hand_cards]
    if not legendary:
        findings.error(None, "legendary cards: the rules call for a few; content has none")
    if not any(e.effect.kind is EffectKind.LEGENDARY for e in model.events):
        findings.error(
            model.events[0].where if model.events else None,
            "events: no event draws legendary cards, so they can never be reached",
        )
    others: list[Partner | Event | Food] = [*model.partners, *model.events, *model.food]
    for card in others:
        if getattr(card, "legendary", False):  # pragma: no cover - these types have no flag
            findings.error(card.where, f"{card.id!r} cannot be legendary")


def _check_orientation(findings: Findings, model: Mineventure) -> None:
    # Field cards are landscape, hand cards portrait.
    for product in model.products:
        items = getattr(model, product.items, None)
        if not isinstance(items, tuple) or not items:
            continue
        if all(isinstance(i, LANDSCAPE_TYPES) for i in items) and not product.landscape:
            findings.error(
                product.where,
                f"product {product.id!r} prints field cards; they are landscape (landscape: true)",
            )
        if all(isinstance(i, PORTRAIT_TYPES) for i in items) and product.landscape:
            findings.error(
                product.where, f"product {product.id!r} prints hand cards; they are portrait"
            )


def claims(model: Mineventure, templates_root: Path) -> list[Claim]:
    """What the kit prints, tied to the engine (pnp.validate.claims): every hand card's footer
    prints its timing (decision phase, combat, from the hand); the engine must allow it exactly
    there. Each card is probed on a table where its other conditions hold: a weapon of the
    book's kind, a cell with the card's icon, a foe in reach."""
    if not model.assemblies:
        return []
    try:
        rules = MineventureRules(model, model.info.players.min, model.assemblies[0].id)
    except (ValueError, KeyError):
        return []  # check_static reports the engine refusing the map
    hand: list[Item | Food] = [*model.items, *model.food]
    return [
        Claim(
            card.where,
            f"card {card.id!r}",
            f"footer {card.timing.value!r}",
            partial(_footer, rules, card),
        )
        for card in hand
    ]


def _footer(rules: MineventureRules, card: Item | Food) -> str | None:
    state = _probe(rules, card)
    if state is None:
        return None
    code = rules.by_token[card.id]
    fight = rules.apply(state, Act("fight", "1"))
    allowed = (
        bool(rules.playable(state, 0, code, in_combat=False)),
        bool(rules.playable(fight, 0, code, in_combat=True)),
    )
    printed = {
        Timing.ANYTIME: (True, True),
        Timing.DECISION: (True, False),
        Timing.IN_HAND: (False, False),
    }[card.timing]
    if allowed != printed:
        return (
            f"the engine allows it (decision phase, combat) {allowed}, the footer means {printed}"
        )
    return None


def _probe(rules: MineventureRules, card: Item | Food) -> MineventureState | None:
    """Seat 0 in the decision phase holding `card`, armed for it, on a cell with its icon,
    seat 1 next to it; None when the map or the decks cannot set that up."""
    icon = getattr(card, "icon", "")
    cells = [
        (cell, east)
        for cell, terrain in rules.terrain.items()
        if terrain.overworld
        and (not icon or terrain.icon == icon)
        and (east := (cell[0] + 1, cell[1])) in rules.terrain
        and rules.terrain[east].overworld
    ]
    kind = getattr(card, "weapon_kind", "")
    weapons = [
        code
        for code, c in enumerate(rules.cards)
        if isinstance(c, Equipment) and c.is_weapon and c.damage > 0 and not c.legendary
        if not kind or c.weapon_kind == kind
    ]
    if not cells or not weapons:
        return None
    state = clone(rules.initial_state(random.Random(0)))
    state.spawn_order, state.phase, state.seat = (), "decision", 0
    weapon = weapons[0]
    slot = "main" if rules.gear(weapon).slot is Slot.MAIN_WEAPON else "sub"
    (cell, east) = cells[0]
    me, foe = state.players[0], state.players[1]
    (me.x, me.y), (foe.x, foe.y) = cell, east
    setattr(me, slot, weapon)
    setattr(me, f"{slot}_dur", rules.gear(weapon).durability - 1)
    me.hand = (rules.by_token[card.id],)
    # The probe's cards are borrowed from nowhere: only `playable` reads this position.
    return state


# -- simulated play --------------------------------------------------------------------------


POLICIES: dict[str, Callable[[], Policy]] = {"random": RandomPolicy, "sensible": SensiblePolicy}


def tables(model: Mineventure) -> list[tuple[Mode, int]]:
    return [
        (Mode(a.id), players)
        for a in model.assemblies
        if a.id in {m.value for m in Mode}
        for players in a.players
    ]


def check_simulated(findings: Findings, games: int, seed: int) -> dict[str, Any]:
    """Seeded play on both maps for every player count, random and sensible, invariants on."""
    model: Mineventure = findings.game.model
    report: dict[str, Any] = {"games_per_table": games, "seed": seed, "tables": []}
    for mode, players in tables(model):
        where = next(a.where for a in model.assemblies if a.id == mode.value)
        for policy in POLICIES:
            result = simulate(
                model, players, mode, games=games, seed=seed, policy=POLICIES[policy](), check=True
            )
            if result.ended_by_cap:
                findings.error(
                    where,
                    f"simulation: {result.ended_by_cap} of {games} {policy} games on {mode.value} "
                    f"with {players} players hit the round cap "
                    f"(replay seed {result.capped_seeds[0]})",
                )
            report["tables"].append(
                {
                    "map": mode.value,
                    "players": players,
                    "policy": policy,
                    "games": games,
                    "mean_rounds": round(result.mean_rounds, 2),
                    "max_rounds": result.max_rounds,
                    # the day counter after the last round (it moves on after each night)
                    "max_day": result.max_rounds // model.settings.rounds_per_day,
                    "ends": {t.value: result.terminations.get(t, 0) for t in Termination},
                }
            )
    return report


def summarise(report: dict[str, Any]) -> list[str]:
    lines = []
    for policy in POLICIES:
        rows = [t for t in report.get("tables", []) if t["policy"] == policy]
        if not rows:
            continue
        ends: Counter[str] = Counter()
        for row in rows:
            ends.update(row["ends"])
        total = sum(ends.values()) or 1
        mean = statistics.fmean(t["mean_rounds"] for t in rows)
        lines.append(
            f"simulated {len(rows)} tables x {report['games_per_table']} {policy} games: mean "
            f"length {mean:.1f} rounds; dragon slain {ends['dragon_slain'] / total:.0%}, last "
            f"standing {ends['last_standing'] / total:.0%}, all dead "
            f"{ends['all_dead'] / total:.0%}, time up {ends['time_up'] / total:.0%}"
        )
    return lines


def simulation_lines(
    game: LoadedGame, *, players: int | None, games: int, seed: int, policy: str
) -> list[str]:
    model: Mineventure = game.model
    chosen = [t for t in tables(model) if players is None or t[1] == players]
    if not chosen:
        raise PnpError(f"{SLUG} supports {model.info.players} players, not {players}")
    lines = [f"{SLUG}: {games} games per table, seed {seed}, policy {policy}"]
    for mode, count in chosen:
        r = simulate(model, count, mode, games=games, seed=seed, policy=POLICIES[policy]())
        ends = ", ".join(f"{t.value} {r.terminations.get(t, 0)}" for t in Termination)
        rates = " ".join(f"{w / games:.0%}" for w in r.wins_by_seat)
        lines.append(
            f"  {mode.value} {count} players: rounds mean {r.mean_rounds:.1f} median "
            f"{r.median_rounds:.0f} max {r.max_rounds}; cap hits {r.ended_by_cap}; ends: {ends}; "
            f"wins by seat {rates}; {r.games_per_second:,.0f} games/s"
        )
    return lines
