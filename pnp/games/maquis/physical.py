"""What the engine keeps in the open, for the kit's physical checks (issue 15).

Every piece of public state a Maquis position holds (`MaquisState`), by the name content's
``physical.state`` uses, with the values it takes, computed from content. The validator
(``pnp.validate.fit``) holds each against the component, track, slot or convention that shows
it at the table.

Left out, on purpose, because they are the procedure of a round and not state a table keeps:
the phase, the workers still to place, the patrols left and how many are soldiers (the red
number and the soldier track give them again each round), the worker who acted and has not
walked home yet (he stands on his space), whether a kill was made this round, the pending
choice, the round count and the ending.
"""

from __future__ import annotations

from collections.abc import Mapping

from pnp.games.maquis.model import Maquis
from pnp.registry import Range


def public_state(model: Maquis) -> Mapping[str, Range]:
    """Every piece of public state the engine keeps, with its real range."""
    figures = {t.id: t.copies for t in model.tokens if t.kind.value == "figure"}
    workers = figures.get("resistance", 0)
    most_cafe = max((d.cafe for d in model.difficulties), default=0)
    supply = max((r.count for r in model.resources), default=0)
    spaces = [loc.id for loc in model.locations]
    steps = max((len(m.steps) for m in model.missions), default=0)
    return {
        # -- the tracks: the start space beside day 1 is 0, the End space follows the last day
        "day": Range(0, model.days.days + 1),
        "morale": Range(0, model.morale.top),
        "soldiers": Range(model.soldiers.start, model.soldiers.spaces),
        # -- the figures
        "home": Range(0, workers),
        "cafe": Range(0, most_cafe),
        "board": Range.of(*spaces),
        # -- resources: the tokens are the supply's limit
        "stock": Range(0, supply),
        "drops": Range(0, supply),
        # -- the vacant houses and the missions
        "tiles": Range.of("none", *(t.id for t in model.vacant_tiles)),
        # the mission card lying at each exit
        "missions": Range.of(*(m.id for m in model.missions)),
        "boxes": Range(0, steps),
        # -- the patrol deck
        "draw": Range(0, len(model.patrol_cards)),
        "discard": Range(0, len(model.patrol_cards)),
    }
