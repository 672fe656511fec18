"""What the engine keeps in the open, for the kit's physical checks (issue 15).

Every piece of public state an Arena Tales position holds (``ArenaState`` and its ``Seat``s),
by the name content's ``physical.state`` uses, with the values it takes, computed from content.
The validator (``pnp.validate.fit``) holds each against the component, track, slot or
convention that shows it at the table.

Left out, on purpose, because they are the procedure of one card or one turn and not state the
table keeps between them: the queue of timing steps, the card in resolution with its bonuses,
the seats it hit and the responses it recorded, whether the forced end was triggered (the
pending track shows it: at ``settings.forced_end`` or more the turn ends), whose turn it is and
the turn count, the turn in which a team player's life reached 0 and whether it was 0 at the
start of their own turn (both matter inside that turn only), and the ending. Hidden
information (which cards a hand, deck or life pile holds) is not public; how many is.
"""

from __future__ import annotations

from collections.abc import Mapping

from pnp.games.arena_tales.model import ArenaTales
from pnp.registry import Range

FACINGS = ("北", "东北", "东南", "南", "西南", "西北")
"""The six directions a pawn can face on the flat-topped arena, clockwise from north."""


def pending_high(model: ArenaTales) -> int:
    """The largest pending draw: one short of the forced end, plus the dearest card (a cost
    boost from a crystal can only add to it); the card that reaches the forced end is the last
    one whose cost counts."""
    dearest = max((card.cost for card in model.cards), default=0)
    boost = max((element.cost for element in model.elements), default=0)
    return model.settings.forced_end - 1 + dearest + max(0, boost)


def public_state(model: ArenaTales) -> Mapping[str, Range]:
    """Every piece of public state the engine keeps, with its real range."""
    cards = model.settings.deck_size  # every pile can hold a whole deck (回复 heals discards too)
    spaces = [f"{q},{r}" for q, r, kind in model.arena.cells if kind != "obstacle"]
    colours = [colour.id for colour in model.colours if colour.id != "none"]
    return {
        # -- on the arena: where each pawn stands and which way it faces
        "position": Range.of(*spaces),
        "facing": Range.of(*FACINGS),
        # -- each seat's zones: how many cards, face up or down (the contents are the cards)
        "hand": Range(0, cards),
        "deck": Range(0, cards),
        "recycle": Range(0, cards),
        "exhausted": Range(0, cards),
        "life": Range(0, cards),
        "display": Range(0, cards),
        "sanity": Range.of("sane", "wild"),
        # -- the pending draw the previous player's costs give this seat: the forced end
        "pending": Range(0, pending_high(model)),
        # -- this turn: whether the active player has dealt damage (the sanity flip at the
        # end step) and the colour of the last card played (连击)
        "dealt": Range.of("no", "yes"),
        "combo": Range.of("none", *colours),
    }
