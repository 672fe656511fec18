"""What the engine keeps in the open, for the kit's physical checks (issue 15).

Every piece of public state a Dragon Hoard position holds (`DragonHoardState`), by the name
content's ``physical.state`` uses, with the values it takes, computed from content. The
validator (``pnp.validate.fit``) holds each against the component, track or convention that
shows it at the table.

Left out, on purpose, because they are the procedure of a round and not state a table keeps:
who is to act (``actor``), the run of waits that ends placement (``waited``, ``stopped``; at
the table the hourglass runs out), the draws still due and the preparation options used this
round (each is a card or token that moved: the used pile, the discards), and the round number
(no rule reads it beyond "the first round", which is the round the upcoming slot is empty).
"""

from __future__ import annotations

from collections.abc import Mapping

from pnp.games.dragon_hoard.model import DragonHoard
from pnp.games.dragon_hoard.state import Status
from pnp.registry import Range


def map_label(column: int, row: int) -> str:
    """A cell as the printed map labels it: the row's letter, then the column from 1 ('G7')."""
    return f"{chr(ord('A') + row)}{column + 1}"


def dragon_cells(model: DragonHoard) -> tuple[str, ...]:
    """Where the dragon's centre can stand: its body never leaves the domain (decision
    `trampling`), so within domain_radius - dragon_radius of C."""
    lair = model.lair
    reach = lair.domain_radius - lair.dragon_radius
    cx, cy = lair.centre
    return tuple(
        map_label(column, row)
        for row in range(cy - reach, cy + reach + 1)
        for column in range(cx - reach, cx + reach + 1)
    )


def public_state(model: DragonHoard) -> Mapping[str, Range]:
    """Every piece of public state the engine keeps, with its real range."""
    players = max(model.info.players, default=model.info.players.max)
    deck = model.ai_deck_size
    treasures = sum(t.copies for t in model.treasures)
    per_colour = max((sum(c.cards.values()) for c in model.player_colours), default=0)
    return {
        # -- the map
        "pawns": Range.of(
            *(map_label(c, r) for r in range(model.lair.rows) for c in range(model.lair.columns))
        ),
        "status": Range.of(*(s.value for s in Status)),
        "dragon": Range.of(*dragon_cells(model)),
        "floor": Range(0, treasures),
        # -- each seat
        "bags": Range(0, treasures),
        "heirlooms": Range(0, 1),
        "sideways": Range.of("upright", "sideways"),
        "used": Range(0, per_colour),
        "left-order": Range(1, players),
        # -- the round
        "holder": Range(0, players - 1),
        "placement-seconds": Range(0, model.placement_seconds),
        "placed": Range(0, players * per_colour),
        "revealed": Range.of("face-down", "face-up"),
        # -- the dragon's deck
        "deck": Range(0, deck),
        "upcoming": Range(0, 1),
        "current": Range(0, 1),
        "executed": Range(0, deck),
        "trap-colour": Range.of("none", *(c.id for c in model.trap_colours)),
        "removed": Range(0, model.recall_cards),
        "recalls": Range(0, model.settings.recall_limit),
        "countdown": Range.of("off", "on"),
        "discarded": Range(0, treasures),
    }
