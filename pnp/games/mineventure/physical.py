"""What the engine keeps in the open, for the kit's physical checks (issue 15).

Every piece of public state a MineVenture position holds (`MineventureState` and its
`Player` seats), by the name content's ``physical.state`` uses, with the values it takes,
computed from content. The validator (``pnp.validate.fit``) holds each against the component,
track, slot or convention that shows it at the table.

Left out, on purpose, because they are the procedure of one turn or one round and not state
the table keeps: the phase and whose turn it is (seats act in order), the round count (the
day and the time of day give it), the draws still due and a drawn field card waiting for
keep-or-return (they resolve before anyone else acts), a combat's participants, declarations
and flee roll (spoken aloud in the one turn a combat lasts; its round has a track), the
killer choosing loot, the spawn order (setup only), this round's flags (killed, fled,
skipped, holding spoils: they clear when the round ends), the buff stamp (no rule reads it
since the fewest-rounds-left rule, decision buff-slots) and the ending.
"""

from __future__ import annotations

from collections.abc import Mapping

from pnp.games.mineventure.model import BuffSlot, Mineventure, Slot
from pnp.registry import Range


def _rounds(model: Mineventure, slot: BuffSlot) -> Range:
    """Rounds left on a buff in ``slot``: 1..the longest it takes; 0 when one lasts."""
    rounds = [b.rounds for b in model.buffs if b.cls in slot.accepts]
    return Range(0 if 0 in rounds else 1, max(rounds, default=0))


def public_state(model: Mineventure) -> Mapping[str, Range]:
    """Every piece of public state the engine keeps, with its real range."""
    s = model.settings
    cells = {f"{x},{y}" for a in model.assemblies for x, y, _ in model.assembly_cells(a)}
    weapons = {
        slot: [card for card in model.equipment if card.slot is slot and card.is_weapon]
        for slot in (Slot.MAIN_WEAPON, Slot.SUB_WEAPON)
    }
    books = {
        slot: max(
            (
                len({i.id for i in model.items if i.weapon_kind == card.weapon_kind})
                for card in cards
            ),
            default=0,
        )
        for slot, cards in weapons.items()
    }

    def cards_for(slot: Slot) -> Range:
        return Range.of("none", *(c.id for c in model.equipment if c.slot is slot))

    state: dict[str, Range] = {
        # -- each seat: on the map and the player board
        "position": Range.of(*cells),
        "alive": Range.of("alive", "dead"),
        "character": Range.of(*(c.id for c in model.characters)),
        # 0 or below is death: the marker comes off the track
        "hp": Range(0, s.max_hp),
        # -- each seat: the equipment area
        "main-weapon": cards_for(Slot.MAIN_WEAPON),
        "sub-weapon": cards_for(Slot.SUB_WEAPON),
        "armour": cards_for(Slot.ARMOUR),
        "partner": Range.of("none", *(p.id for p in model.partners)),
        # repairs fill the printed boxes and never add any (decision repair-cap)
        "main-durability": Range(
            0, max((c.durability for c in weapons[Slot.MAIN_WEAPON]), default=0)
        ),
        "sub-durability": Range(
            0, max((c.durability for c in weapons[Slot.SUB_WEAPON]), default=0)
        ),
        # enchant books under a weapon: several, none of the same name
        "main-enchants": Range(0, books[Slot.MAIN_WEAPON]),
        "sub-enchants": Range(0, books[Slot.SUB_WEAPON]),
        "hand": Range(0, sum(model.deck_size(d.id) for d in model.decks)),
        # whether the seat ever hurt the dragon: the living ones win when it falls
        "dragon-hit": Range.of("no", "yes"),
    }
    # -- each seat: the buff slots, which buff and its rounds left
    for number, slot in enumerate(model.buff_slots, start=1):
        accepted = [b.id for b in model.buffs if b.cls in slot.accepts]
        state[f"buff-{number}"] = Range.of("none", *accepted)
        state[f"buff-{number}-rounds"] = _rounds(model, slot)
    # -- the table
    state.update(
        {
            # no last day unless a table plays the variant: a game's length has no bound
            "day": Range(0),
            "time": Range.of("day", "night"),
            "story": Range.of("none", *(e.id for e in model.story_events)),
            "dragon-hp": Range(0, model.dragon.hp),
            "roll": Range(1, s.die_sides),
            "combat-round": Range(1, s.combat_rounds),
            "decks": Range(0, max((model.deck_size(d.id) for d in model.decks), default=0)),
            "discards": Range(0, max((model.deck_size(d.id) for d in model.decks), default=0)),
        }
    )
    return state


def observed_state(report: dict[str, object]) -> Mapping[str, int]:
    """The latest day simulated games reached (``check_simulated``'s tables' ``max_day``)."""
    tables = report.get("tables", [])
    days = (
        [int(t.get("max_day", 0)) for t in tables if isinstance(t, dict)]
        if isinstance(tables, list)
        else []
    )
    return {"day": max(days)} if days else {}
