"""What the shared play checks (pnp.validate.play) need of Arena Tales: every table the content
supports, the factors balance is broken down by, the coverage items with where content defines
each, and how the search player scores an unfinished position."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pnp.engines import hexgrid
from pnp.engines.base import Rules, Table
from pnp.errors import Location
from pnp.games.arena_tales.model import ArenaTales, CardType, EffectKind, Timing
from pnp.games.arena_tales.rules import ArenaTalesRules
from pnp.games.arena_tales.simulation import TURN_CAP
from pnp.games.arena_tales.state import (
    DOWN,
    Absorb,
    ArenaState,
    Dash,
    Discard,
    Draw,
    Maintain,
    Move,
    Play,
    Reveal,
    Stall,
    Talent,
    Termination,
    arg,
)
from pnp.registry import SearchSettings

STEPS_PER_TURN = 200
"""A table's step cap is this many steps per turn of ``TURN_CAP`` (a turn is a few plays and
moves, each with its draws and decisions)."""


def table_name(players: int) -> str:
    """``2p``, ``4p``, ``6p``."""
    return f"{players}p"


def play_tables(model: ArenaTales) -> list[Table]:
    """Every player count the arena has a setup for; each game drafts its characters at random
    from the whole roster (so every character and matchup is played, in every seat)."""
    return [
        Table(
            table_name(players),
            ArenaTalesRules(model, players, draft=True),
            TURN_CAP * STEPS_PER_TURN,
            TURN_CAP,
        )
        for players in model.player_counts
    ]


def seat_factors(rules: Rules[Any, Any], state: ArenaState) -> Mapping[str, Sequence[str]]:
    """``character`` of each seat, and ``side``: whether the seat's team moves first
    (``first``) or second (in a duel the same as the seat)."""
    assert isinstance(rules, ArenaTalesRules)
    first = rules.teams[0]
    return {
        "character": rules.cast(state),
        "side": tuple("first" if team == first else "second" for team in rules.teams),
    }


# -- coverage -------------------------------------------------------------------------------

ACTIONS = {
    "action:play": "play a card",
    "action:move": "discard-move one hex",
    "action:stall": "exhaust a card when stuck (decision stuck)",
    "action:discard": "discard a chosen card",
    "action:absorb-face-up": "take 2 damage as one life card face up",
    "action:maintain": "pay to keep a 维持 card",
    "action:let-go": "let a 维持 card be exhausted",
    "action:dash": "a card's straight move",
    "action:skip-talent": "start without the talent (decision talent-start)",
    "action:reveal": "choose the face-down card 识破 turns up",
}
"""The kinds of decision a player makes (each located at the card or rule that asks for it)."""

DISPLAYED = frozenset({Timing.DISPLAYED, Timing.TALENT})


def _first_effect(model: ArenaTales) -> dict[EffectKind, Location]:
    found: dict[EffectKind, Location] = {}
    for card in model.cards:
        for effect in card.effects:
            found.setdefault(effect.kind, effect.where)
    return found


def coverage_items(model: ArenaTales) -> dict[str, Location]:
    """Every card name (a talent counts when its character plays), every effect kind the cards
    use (a displayed one only when it applies: a counter cancelling a hit, a bonus on a damage
    card, a maintained or permanent card staying, a crystal bursting), the response timing,
    each crystal element, every kind of decision, the orientation points and pillars, and both
    ways a game ends."""
    items: dict[str, Location] = {f"card:{card.id}": card.where for card in model.cards}
    effects = _first_effect(model)
    for kind, where in effects.items():
        items[f"effect:{kind.value}"] = where
    response = next(
        (e.where for c in model.cards for e in c.effects if e.timing is Timing.RESPONSE), None
    )
    if response is not None:
        items["timing:response"] = response
    if EffectKind.CRYSTAL in effects:
        for boost in model.elements:
            items[f"element:{boost.element.value}"] = boost.where
    decided = {decision.id: decision.where for decision in model.decisions}
    for item in ACTIONS:
        items[item] = model.settings.where
    items["action:stall"] = decided.get("stuck", model.settings.where)
    items["action:absorb-face-up"] = decided.get("life-face-up", model.settings.where)
    items["action:dash"] = decided.get("dash-at-most", model.settings.where)
    items["action:skip-talent"] = decided.get("talent-start", model.settings.where)
    if not any(card.type is CardType.TALENT for card in model.cards):
        items.pop("action:skip-talent")
    for kind, item in (
        (EffectKind.MAINTAIN, "action:maintain"),
        (EffectKind.MAINTAIN, "action:let-go"),
    ):
        if kind in effects:
            items[item] = effects[kind]
        else:
            items.pop(item)
    if EffectKind.DASH not in effects:
        items.pop("action:dash")
    if EffectKind.SEE_THROUGH in effects:
        items["action:reveal"] = effects[EffectKind.SEE_THROUGH]
    else:
        items.pop("action:reveal")
    arena = model.arena
    if arena.orientation_points:
        items["terrain:orientation-point"] = arena.orientation_points[0].where
    if arena.obstacles:
        items["terrain:pillar"] = arena.obstacles[0].where
    for ending in Termination:
        items[f"ending:{ending.value}"] = model.info.where
    return items


def covered(
    rules: Rules[Any, Any], before: ArenaState, action: Any, after: ArenaState
) -> Iterable[str]:
    """The coverage items one step exercised."""
    assert isinstance(rules, ArenaTalesRules)
    found: list[str] = []
    if after.ended is not None and before.ended is None:
        found.append(f"ending:{after.ended.value}")
    kind = type(action)
    if kind is Play:
        found += _played(rules, before, action, after)
    elif kind is Move:
        found.append("action:move")
        seat = before.seats[before.active]
        if seat.facing != action.facing:
            found.append("terrain:orientation-point")
        if any(h in rules.obstacles for _, h in _around(seat.pos)):
            found.append("terrain:pillar")
    elif kind is Stall:
        found.append("action:stall")
    elif kind is Discard:
        found.append("action:discard")
    elif kind is Absorb:
        if action.face_up:
            found.append("action:absorb-face-up")
    elif kind is Maintain:
        found += ["action:maintain", "effect:maintain"] if action.keep else ["action:let-go"]
    elif kind is Dash:
        found.append("action:dash")
    elif kind is Reveal:
        found.append("action:reveal")
    elif kind is Talent:
        if action.use:  # the talent stays in the display for the whole game
            for code, _ in before.seats[arg(before.queue[0], 1)].display:
                if rules.cards[code].type is CardType.TALENT:
                    found.append(f"card:{rules.tokens[code]}")
                    found.extend(f"effect:{e.kind.value}" for e in rules.cards[code].effects)
        else:
            found.append("action:skip-talent")
    elif kind is Draw:
        task = before.queue[0]
        if task[0] == "lose" and arg(task, 2) > 0:
            code = rules._by_token[action.card]
            if rules._responds[code]:
                found.append("timing:response")
    if after.turn > before.turn:
        for code, face in after.seats[after.active].display:
            if face != DOWN and EffectKind.PERMANENT in rules._has[code]:
                found.append("effect:permanent")
    return found


def _around(pos: tuple[int, int]) -> list[tuple[int, tuple[int, int]]]:
    return [(d, hexgrid.neighbour(pos, d)) for d in range(6)]


def _played(
    rules: ArenaTalesRules, before: ArenaState, action: Play, after: ArenaState
) -> list[str]:
    code = rules._by_token[action.card]
    card = rules.cards[code]
    found = ["action:play", f"card:{card.id}"]
    found += [f"effect:{e.kind.value}" for e in card.effects if e.timing not in DISPLAYED]
    mine = before.seats[before.active]
    if card.type is CardType.DAMAGE:
        # A displayed bonus (展示中 or talent) applies to this damage card.
        for kind in (EffectKind.DAMAGE_UP, EffectKind.REACH):
            if any(face != DOWN and kind in rules._has[c] for c, face in mine.display):
                found.append(f"effect:{kind.value}")
    for index, seat in enumerate(before.seats):
        if index == before.active:
            continue
        gone = len(after.seats[index].exhausted) - len(seat.exhausted)
        if gone > 0 and any(
            EffectKind.COUNTER in rules._has[c] for c in after.seats[index].exhausted[-gone:]
        ):
            found.append("effect:counter")
    if EffectKind.BURST in rules._has[code]:
        crystals = [c for c, face in mine.display if EffectKind.CRYSTAL in rules._has[c]]
        left = [c for c, face in after.seats[before.active].display]
        for c in crystals:
            if c in left:
                left.remove(c)
                continue
            found.append("effect:crystal")
            element = next(e.element for e in rules.cards[c].effects if e.element is not None)
            found.append(f"element:{element.value}")
    return found


# -- the search player ----------------------------------------------------------------------

EVALUATION_SCALE = 4.0
"""Life cards of lead that make a side about 73 % likely to win (a logistic in the lead)."""


def evaluate(rules: Rules[Any, Any], state: ArenaState) -> list[float]:
    """A hint where a playout stops: a side's chance grows with its lead in life (life plus
    a third of the cards still to draw, which are the life of the long run), as a logistic."""
    assert isinstance(rules, ArenaTalesRules)
    strength = [0.0, 0.0]
    first = rules.teams[0]
    for index, seat in enumerate(state.seats):
        side = 0 if rules.teams[index] == first else 1
        strength[side] += len(seat.life) + (len(seat.deck) + len(seat.recycle)) / 3
    lead = (strength[0] - strength[1]) / EVALUATION_SCALE
    first_wins = 1 / (1 + math.exp(-max(-30.0, min(30.0, lead))))
    return [first_wins if rules.teams[i] == first else 1 - first_wins for i in range(rules.players)]


SEARCH = SearchSettings(
    iterations=16,
    rollout="sensible",
    depth=8,
    method="halving",
    candidates=8,
    margin=0.5,
)
"""The strong player: the sensible policy improved by up to 16 shared playouts a decision, each
8 sensible decisions scored by ``evaluate`` (halving search, anchored on the sensible move,
replaced by a move half a standard error better). Against the sensible policy, paired games
from seed 1: at 4 players 65 % vs 53 % (200 games, p = 0.011), at 6 players 67 % vs 46 % (100
games, p = 0.004). Stopping a choice between two actions after 4 playouts when the other had
not gained (``look_early``) saved little and cost the edge: 64 % vs 53 % at 4 players and
62 % vs 51 % at 6 (p = 0.025, undecided at 200). 32 playouts won 72 % vs 53 % at 4 players
over the first 100 of those games (16: 65 %), but cost about twice as much. Playouts cut after
3 or 4 decisions lost the edge. Since 失控 forbids a discard-move next to an enemy, talents
are a choice and 识破 picks its card, a whole standard error asked too much at 4 players: one
seat of a side moves the side's result less than at 2. Measure it with ``pnp simulate
arena-tales --duel``."""
