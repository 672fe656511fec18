"""What the shared play checks (pnp.validate.play) need from Dragon Hoard: the tables, the
factors a balance report breaks win rates down by, the coverage items of the content, and the
strong player's evaluation hint.

Coverage is exact, not inferred from positions: :meth:`DragonHoardRules.apply` notes every rule
of the content it exercises when ``rules.trace`` is a list, and :func:`covered` replays the step
with the trace on (``apply`` is deterministic: chance arrives as explicit ``DrawAI`` actions).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pnp.engines.base import Table
from pnp.errors import Location
from pnp.games.dragon_hoard.model import ActionKind, DragonHoard, TreasureEffect
from pnp.games.dragon_hoard.rules import ROUND_CAP, DragonHoardRules
from pnp.games.dragon_hoard.state import DragonHoardState, Status
from pnp.registry import SearchSettings

STEPS_PER_ROUND = 200
"""Actions a round may take before a game counts as capped (a 4-player round takes ~16)."""

RULE_DECISIONS = {
    "rule:reveal": "placement-order",
    "rule:heirloom": "preparation-actions",
    "rule:give-up": "giving-up",
    "rule:grab-steals": "grab",
    "rule:trample": "trampling",
    "rule:heart-out": "heart-leaves-domain",
    "rule:recall-reshuffle": "recall-reshuffle",
    "rule:countdown": "recall-count",
    "rule:short-move": "move-distance",
}
"""Rules of this edition that play must reach, each located at the decision that states it."""


def play_tables(model: DragonHoard) -> list[Table]:
    """One table per player count the content supports (the game has one mode and no levels);
    capped after ``ROUND_CAP`` rounds."""
    return [
        Table(
            f"{players}p", DragonHoardRules(model, players), ROUND_CAP * STEPS_PER_ROUND, ROUND_CAP
        )
        for players in model.info.players
    ]


def compass(rules: DragonHoardRules, seat: int) -> str:
    """Which side of the map a seat's entry teleporter is on: north, east, south or west."""
    x, y = rules.entries[seat]
    dx, dy = x - rules.centre[0], y - rules.centre[1]
    if abs(dy) >= abs(dx):
        return "north" if dy < 0 else "south"
    return "west" if dx < 0 else "east"


def seat_factors(rules: Any, state: Any) -> Mapping[str, Sequence[str]]:
    """Each seat's entry teleporter (by the side of the map it is on) and character (each seat
    plays the colour, and so the character, of its place in ``player_colours``)."""
    assert isinstance(rules, DragonHoardRules)
    colours = [colour.id for colour in rules.model.player_colours]
    characters = {character.colour: character.id for character in rules.model.characters}
    seats = range(rules.players)
    return {
        "entry": [compass(rules, seat) for seat in seats],
        "character": [characters.get(colours[seat], colours[seat]) for seat in seats],
    }


def coverage_items(model: DragonHoard) -> dict[str, Location]:
    """Everything of the content play should exercise, with where content defines it: every AI
    card and AI effect kind, every action card and action kind, every treasure picked up and
    treasure effect used, every exit, gate, trap and entry teleporter, and the rules of this
    edition's decisions that only play reaches."""
    items: dict[str, Location] = {}
    for card in model.ai_cards:
        if card.copies:
            items[f"ai-card:{card.id}"] = card.where
            for effect in card.effects:
                items.setdefault(f"ai-effect:{effect.kind.value}", effect.where)
    for action in model.action_cards:
        items[f"action-card:{action.id}"] = action.where
        items.setdefault(f"action-kind:{action.kind.value}", action.where)
    for treasure in model.treasures:
        if treasure.copies:
            items[f"treasure:{treasure.id}"] = treasure.where
        if treasure.effect is not TreasureEffect.NONE:
            items.setdefault(f"treasure-effect:{treasure.effect.value}", treasure.where)
    lair = model.lair
    for exit_ in lair.exits:
        items[f"terrain:exit:{_cell(exit_.cell)}"] = exit_.where
    for gate in lair.gates:
        items[f"terrain:gate:{_cell(gate.cell)}"] = gate.where
    for trap in lair.traps:
        items[f"terrain:trap:{_cell(trap.cell)}"] = trap.where  # a pawn stepped on it
    for colour in model.trap_colours:
        items[f"trap-colour:{colour.id}"] = colour.where  # a trap of the colour killed
    for entry in lair.entries:
        if entry.seat < model.info.players.max:
            items[f"terrain:entry:{entry.seat}"] = entry.where
    decisions = {decision.id: decision.where for decision in model.decisions}
    for item, decision in RULE_DECISIONS.items():
        if decision in decisions:
            items[item] = decisions[decision]
    if not any(action.kind is ActionKind.GRAB for action in model.action_cards):
        items.pop("rule:grab-steals", None)
    return items


def covered(rules: Any, before: Any, action: Any, after: Any) -> Iterable[str]:
    """The coverage items one step exercised: the step replayed with the rules' trace on."""
    assert isinstance(rules, DragonHoardRules)
    rules.trace = []
    try:
        rules.apply(before, action)
        return tuple(rules.trace)
    finally:
        rules.trace = None


def _cell(cell: Sequence[int]) -> str:
    return f"{cell[0]},{cell[1]}"


# -- the search player -------------------------------------------------------------------------

SEARCH = SearchSettings(
    iterations=16, rollout="sensible", depth=24, method="halving", candidates=8, margin=1.0
)
"""The strong player: the sensible policy improved by 16 shared playouts a decision, each played
on by the sensible policy for 24 decisions (about two rounds) and then scored by
:func:`evaluate`, from positions resampled so the search never sees the face-down cards of the
others or the unrevealed AI card (``DragonHoardRules.resample``); a move replaces the sensible
one only when a standard error ahead on the same playouts. Against the sensible policy (3p, 200
paired games, seed 1) it wins 53 % against 26 % (p < 0.001). Playouts to the end of the game
(32 a decision) cost some twenty times the CPU; playouts of 12 decisions were cheaper still but
barely better than the sensible policy (34 % against 26 %, p = 0.04): the hint tells actions
apart by less than the AI draw's noise over so short a horizon (a tree search cut after 16
decisions lost to the sensible policy). ``pnp simulate dragon-hoard --duel`` measures it."""


# -- the search player's hint -----------------------------------------------------------------


def evaluate(rules: Any, state: Any) -> list[float]:
    """Each seat's chance of winning, guessed from a position that is not over: what a seat would
    score (what it carries; discounted while it is still in the lair, the more so the farther
    from an exit and the later in the game), turned into shares by a softmax."""
    assert isinstance(rules, DragonHoardRules) and isinstance(state, DragonHoardState)
    return _shares(rules, state, [_expected(rules, state, seat) for seat in range(rules.players)])


def _expected(rules: DragonHoardRules, state: DragonHoardState, seat: int) -> float:
    status = state.status[seat]
    if status is Status.QUIT:
        return -1.0
    carried = sum(rules.value[t] for t in (*state.bags[seat], state.heirlooms[seat]) if t >= 0)
    if status is Status.LEFT:
        return float(carried)
    heirloom = rules.value[state.heirlooms[seat]] if state.heirlooms[seat] >= 0 else 0
    pos = state.pawns[seat] if status is Status.IN else rules.entries[seat]
    assert pos is not None
    out = min(abs(pos[0] - x) + abs(pos[1] - y) for x, y in rules.exits)
    # Rounds left before the deck runs dry, roughly; a seat far from an exit risks scoring 0.
    late = 0.5 if state.countdown else 0.0
    risk = min(0.9, out / 24 + late * out / 12)
    alive = 1.0 if status is Status.IN else 0.8
    return alive * (heirloom + (carried - heirloom) * 0.85) * (1 - risk) - 0.05 * out


def _shares(rules: DragonHoardRules, state: DragonHoardState, values: list[float]) -> list[float]:
    top = max(values)
    weights = [math.exp((value - top) / 2.0) for value in values]
    total = sum(weights)
    return [weight / total for weight in weights]
