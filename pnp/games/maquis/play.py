"""What the shared play checks (pnp.validate.play) need from Maquis: its tables, the factors
its balance is judged by, what the content offers to play and what each step played, and the
scores the search player plays for.

- Tables: one per difficulty level, named by the level's id (``normal``), so the content's
  ``balance:`` section names them as the rulebook does.
- Factors: Maquis is solo, so there is no seat to compare; a game is labelled by the pair of
  missions dealt (``missions``: ``pilot+train``) and, for each mission, whether it was dealt
  (``mission:train``: ``dealt`` / ``not dealt``), so a mission that sinks the games it is
  dealt in shows up against the table's own win rate.
- Coverage: every patrol card drawn, every space a worker went to, every alternative of every
  action paid and taken, every vacant-house tile laid and its action used, every mission box
  filled and every mission done, every effect kind taking effect, the police kill, and every
  airdrop option of every level.
- Scores: a win is 1, a draw (one mission) one half, a loss 0; :func:`evaluate` is the search
  player's hint for a position it stops in: missions and their boxes, workers, morale and the
  days left.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pnp.engines.base import Rules, Table
from pnp.errors import Location
from pnp.games.maquis.checks import used_effects
from pnp.games.maquis.model import EffectKind, LocationKind, Maquis
from pnp.games.maquis.options import Option
from pnp.games.maquis.policies import GreedyPolicy
from pnp.games.maquis.rules import STANDARD_LEVEL, MaquisRules
from pnp.games.maquis.simulation import ROUND_CAP
from pnp.games.maquis.state import (
    ACTIVE,
    WORKER,
    Activate,
    Kill,
    MaquisState,
    PatrolDraw,
    Place,
    Result,
    Return,
)

STEPS_PER_ROUND = 60
"""Actions a round takes at most (placements, patrols, activations, walks home, a kill)."""

DEALT, NOT_DEALT = "dealt", "not dealt"


def play_tables(model: Maquis) -> list[Table]:
    """Every difficulty level, easiest first, capped at ROUND_CAP rounds."""
    return [
        Table(
            level.id,
            MaquisRules(model, difficulty=level.id),
            ROUND_CAP * STEPS_PER_ROUND,
            max_turns=ROUND_CAP,
            standard=level.id == STANDARD_LEVEL,
        )
        for level in model.difficulties
    ]


def _rules(rules: Rules[Any, Any]) -> MaquisRules:
    assert isinstance(rules, MaquisRules), f"not maquis rules: {rules!r}"
    return rules


def game_factors(rules: Rules[Any, Any], first: Any) -> dict[str, str]:
    """The pair of missions dealt, and for each mission of the content whether it was dealt."""
    assert isinstance(first, MaquisState)
    dealt = set(first.missions)
    factors = {"missions": "+".join(sorted(dealt))}
    for mission_id in sorted(_rules(rules).missions):
        factors[f"mission:{mission_id}"] = DEALT if mission_id in dealt else NOT_DEALT
    return factors


# -- coverage -------------------------------------------------------------------------------


def coverage_items(model: Maquis) -> dict[str, Location]:
    """Everything of the content simulated play should exercise, with where it is defined."""
    items: dict[str, Location] = {}
    for card in model.patrol_cards:
        items[f"card:{card.id}"] = card.where
    for loc in model.locations:
        if loc.kind is not LocationKind.SAFE_HOUSE:
            items[f"space:{loc.id}"] = loc.where
        if loc.action is not None:
            for i, _pay in enumerate(loc.action.pay):
                items[f"pay:{loc.id}:{i}"] = loc.action.where
            for j, reward in enumerate(loc.action.gain):
                items[f"gain:{loc.id}:{j}"] = reward.where
    for tile in model.vacant_tiles:
        items[f"tile:{tile.id}"] = tile.where
        if tile.action is not None:
            for i, _pay in enumerate(tile.action.pay):
                items[f"pay:{tile.id}:{i}"] = tile.action.where
            for j, reward in enumerate(tile.action.gain):
                items[f"gain:{tile.id}:{j}"] = reward.where
    for mission in model.missions:
        items[f"mission:{mission.id}"] = mission.where
        for k, step in enumerate(mission.steps):
            items[f"box:{mission.id}:{k}"] = step.where
    for kind, where in used_effects(model).items():
        items[f"effect:{kind.value}"] = where
    items["kill"] = model.settings.where
    for level in model.difficulties:
        for k, _bundle in enumerate(level.airdrop):
            items[f"airdrop:{level.id}:{k}"] = level.where
    return items


def _alternatives(key: str) -> tuple[int, int]:
    """The pay and gain alternative a choice key names: ``p1g0d2@airdrop-west`` -> (1, 0)."""
    pay = gain = -1
    number = ""
    letter = ""
    for c in key.partition("@")[0] + "$":
        if c.isdigit():
            number += c
            continue
        if letter == "p" and number:
            pay = int(number)
        elif letter == "g" and number:
            gain = int(number)
        letter, number = c, ""
    return pay, gain


def covered(rules: Rules[Any, Any], before: Any, action: Any, after: Any) -> Iterable[str]:
    """The coverage items one step exercised. An action counts when a worker does it; its
    right side, a tile, a mission box or an airdrop counts when it takes effect (the worker got
    home, or stood on a star-shield space)."""
    r = _rules(rules)
    assert isinstance(before, MaquisState) and isinstance(after, MaquisState)
    if isinstance(action, PatrolDraw):
        return (f"card:{action.card}",)
    if isinstance(action, Place):
        return (f"space:{action.loc}",)
    if isinstance(action, Kill):
        return ("kill",)
    if isinstance(action, Activate):
        return _activated(r, before, action)
    if isinstance(action, Return) and before.pending not in ("", "-"):
        return _took_effect(r, before, after)
    return ()


def _place_name(r: MaquisRules, s: MaquisState, i: int) -> str:
    """The location id, or the id of the tile lying on a vacant house."""
    loc = r.locs[i]
    if loc.kind is LocationKind.VACANT:
        tile = s.tiles[r.vacant.index(i)]
        if tile:
            return tile
    return loc.id


def _activated(r: MaquisRules, s: MaquisState, action: Activate) -> list[str]:
    if action.choice == "-" or action.choice.startswith(("m", "b", "c")):
        return []
    i = r.index[action.loc]
    pay, _gain = _alternatives(action.choice)
    return [f"pay:{_place_name(r, s, i)}:{pay}"] if pay >= 0 else []


def _took_effect(r: MaquisRules, before: MaquisState, after: MaquisState) -> list[str]:
    i = before.active
    if not (r.has_path_home(before, i) or r.locs[i].shield):
        return []
    option: Option = r._option_for(before, i, before.pending)
    items: list[str] = []
    kinds: set[EffectKind] = set()
    if option.reward is not None:
        kinds |= option.reward.kinds
    if option.mission is not None:
        slot, k = option.mission
        mission_id = before.missions[slot]
        items.append(f"box:{mission_id}:{k}")
        kinds.add(EffectKind.MISSION_SUCCESS)
        if all(after.boxes[slot]):
            items.append(f"mission:{mission_id}")
    elif option.build:
        items.append(f"tile:{option.build}")
        kinds.add(EffectKind.BUILD)
        if r.tiles[option.build].safe_house:
            kinds.add(EffectKind.SECOND_SAFE_HOUSE)
    elif option.collect >= 0:
        kinds.add(EffectKind.COLLECT)
    else:
        _pay, gain = _alternatives(before.pending)
        items.append(f"gain:{_place_name(r, before, i)}:{gain}")
        if option.airdrop is not None:
            k = r.level.airdrop.index(option.airdrop)
            items.append(f"airdrop:{r.level.id}:{k}")
    items += [f"effect:{kind.value}" for kind in kinds]
    return items


# -- scores ---------------------------------------------------------------------------------

SCORE = {Result.WIN: 1.0, Result.DRAW: 0.5, Result.LOSS: 0.0}
"""What a finished game is worth to the player: one mission (a draw) is half a win."""


def score(rules: Rules[Any, Any], state: Any) -> Sequence[float]:
    """The player's score of a finished game: 1 a win, 0.5 a draw, 0 a loss."""
    assert isinstance(state, MaquisState)
    return [SCORE[_rules(rules).result(state)]]


def evaluate(rules: Rules[Any, Any], state: Any) -> Sequence[float]:
    """A hint for the search player: roughly the score to expect from ``state``.

    Each mission is worth its filled boxes plus half of the boxes whose cost is already in
    stock, over its box count; unfinished work is discounted by what is left to do it with
    (days, workers) and by morale near the fail space. A win is 1, a draw one half.
    """
    r = _rules(rules)
    assert isinstance(state, MaquisState)
    if state.ended is not None:
        return score(r, state)
    if state.failed:
        return [0.0]
    stock = list(state.stock)
    workers = state.home + sum(c in (WORKER, ACTIVE) for c in state.board)
    days_total = r.level.end_day or r.model.days.days + 1
    days_left = 12 if r.level.loop else max(0, days_total - state.day)
    capacity = min(1.0, days_left * (workers + 0.5 * state.cafe) / 12)
    progress = []
    for slot, mission_id in enumerate(state.missions):
        mission = r.missions[mission_id]
        boxes = state.boxes[slot]
        if all(boxes):
            progress.append(1.0)
            continue
        have = sum(boxes) + 0.0
        for k, filled in enumerate(boxes):
            if filled or not mission.steps[k].pay:
                continue
            pay = mission.steps[k].pay[0]
            if all(stock[r.res_index[x]] >= n for x, n in pay.items()):
                have += 0.5
                for x, n in pay.items():
                    stock[r.res_index[x]] -= n
        progress.append(have / len(boxes) * (0.3 + 0.7 * capacity))
    missions = sum(progress)
    value = 0.5 * missions - 0.1 * (1 - min(state.morale, 3) / 3) + _on_board(r, state)
    return [max(0.0, min(1.0, value))]


_GREEDY = GreedyPolicy()
WORKER_VALUE = 0.0025
"""What one point of the sensible player's option value is worth in score (a mission box,
60 points, is roughly a sixth of a mission: 0.5 / 3)."""
LOST_WORKER = 0.08
"""What a worker with no way home costs in score."""


def _on_board(r: MaquisRules, s: MaquisState) -> float:
    """Workers out in the town this round: what each can still bring home (the sensible
    player's value of its best option) if a way home is open, a lost worker if not."""
    if s.phase == "over" or (WORKER not in s.board and ACTIVE not in s.board):
        return 0.0
    need = _GREEDY.needs(r, s)
    total = 0.0
    for i, c in enumerate(s.board):
        if c not in (WORKER, ACTIVE):
            continue
        safe = r.has_path_home(s, i)
        if c == WORKER:
            value, _ = _GREEDY.best(r, s, i, need)
            total += value * WORKER_VALUE if safe or r.locs[i].shield else 0.0
        if not safe:
            total -= LOST_WORKER
    return total
