"""Dragon Hoard content against its rules: speed markers, colours, recall cards, the lair's
features and setup guide, the action sets, and seeded play through the reference engine."""

from __future__ import annotations

import statistics
from collections import Counter
from typing import Any

from pnp.content.loader import LoadedGame
from pnp.engines.base import RandomPolicy
from pnp.errors import Location, PnpError
from pnp.games.dragon_hoard.model import (
    ActionKind,
    AIEffectKind,
    AreaShape,
    DragonHoard,
    GateType,
    Phase,
    SpeedError,
    SpeedKind,
    TreasureEffect,
)
from pnp.games.dragon_hoard.policies import TreasureHunterPolicy
from pnp.games.dragon_hoard.rules import DragonHoardRules
from pnp.games.dragon_hoard.simulation import simulate
from pnp.games.dragon_hoard.state import SLUG
from pnp.validate.checks import Findings, check_declaration, suggest

DEFAULT_GAMES = 40
"""Seeded games per player count and policy in `pnp validate`."""

STAR_DECISION = "star-rounding"
"""The decision that states the ☆×N rounding; its answer must name the setting it explains."""


def used_effects(model: DragonHoard) -> dict[Any, Location]:
    """Each effect kind content uses (AI steps, action cards, treasures), first place first."""
    used: dict[Any, Location] = {}
    for card in model.ai_cards:
        for effect in card.effects:
            used.setdefault(effect.kind, effect.where)
    for action in model.action_cards:
        used.setdefault(action.kind, action.where)
    for treasure in model.treasures:
        used.setdefault(treasure.effect, treasure.where)
    return used


def _first(items: Any) -> Location | None:
    return items[0].where if items else None


def rulebook_terms(model: DragonHoard) -> list[tuple[str, Location]]:
    """Words printed on the kit's cards, tokens and map that the rulebook must explain: every
    action card's name, each treasure with an effect (and the Dragon Heart), each trap colour's
    traps, every ☆ and ∞ speed marker the deck uses, and the keywords the faces print (归位牌,
    横置, 传家宝, 龙之领域, 践踏) where content uses them."""
    terms: list[tuple[str, Location]] = [(card.name, card.where) for card in model.action_cards]
    terms += [
        (t.name, t.where) for t in model.treasures if t.heart or t.effect is not TreasureEffect.NONE
    ]
    terms += [(f"{colour.name}色陷阱", colour.where) for colour in model.trap_colours]
    seen: set[str] = set()
    for card in model.ai_cards:
        try:
            marker = card.marker
        except SpeedError:
            continue
        if marker.kind in (SpeedKind.STAR, SpeedKind.INFINITY) and marker.symbol not in seen:
            seen.add(marker.symbol)
            terms.append((marker.symbol, card.where))
    recall = next((card for card in model.ai_cards if card.recall), None)
    if recall is not None:
        terms.append(("归位牌", recall.where))
    kinds = {effect.kind: card for card in model.ai_cards for effect in card.effects}
    for kind in (AIEffectKind.ADVANCE, AIEffectKind.RETURN):
        if kind in kinds:
            terms.append(("践踏", kinds[kind].where))
            break
    dodging = [c.where for c in model.action_cards if c.kind is ActionKind.DODGE]
    dodging += [t.where for t in model.treasures if t.effect is TreasureEffect.DODGE]
    if dodging:
        terms.append(("横置", dodging[0]))
    if model.characters:
        terms.append(("传家宝", model.characters[0].where))
    heart = model.heart
    if heart is not None:
        terms.append(("龙之领域", heart.where))
    return terms


def check_static(findings: Findings) -> None:
    model: DragonHoard = findings.game.model
    _check_speeds(findings, model)
    _check_colours(findings, model)
    _check_recall(findings, model)
    _check_ai_effects(findings, model)
    _check_lair(findings, model)
    _check_treasures(findings, model)
    _check_action_sets(findings, model)
    _check_characters(findings, model)
    if any(p.severity == "error" for p in findings.problems):
        return  # the engine would only repeat these in its own words
    try:
        rules = DragonHoardRules(model, model.info.players.max)
    except ValueError as error:
        findings.error(_first(model.ai_cards), f"the rules engine refuses the content: {error}")
    else:
        check_declaration(
            findings, rules.declares(), used_effects(model), DragonHoard, _first(model.ai_cards)
        )


def _check_speeds(findings: Findings, model: DragonHoard) -> None:
    # Speed markers: exactly four kinds, 0, ∞, ☆×N (N a positive fraction), N in 1..8.
    for card in model.ai_cards:
        try:
            card.marker  # noqa: B018 - parsing is the check
        except SpeedError as error:
            findings.error(card.where, f"ai_cards: card {card.id!r}: {error}")
    # ☆×N rounding: the rulebook states it through the decision, which must name the setting.
    decision = next((d for d in model.decisions if d.id == STAR_DECISION), None)
    if decision is None:
        findings.error(
            model.settings.where,
            f"decisions: no {STAR_DECISION!r} decision states how ☆×N rounds "
            f"(settings.star_rounding is {model.settings.star_rounding.value!r})",
        )
    elif "settings.star_rounding" not in decision.answer:
        findings.error(
            decision.where,
            f"decisions: {STAR_DECISION!r} must state the rounding from "
            "{{ game.settings.star_rounding }}, not retype it",
        )


def _check_colours(findings: Findings, model: DragonHoard) -> None:
    defined = {colour.id for colour in model.trap_colours}
    on_map = Counter(trap.colour for trap in model.lair.traps)
    used = {card.colour for card in model.ai_cards}
    for card in model.ai_cards:
        if card.colour not in defined:
            findings.error(
                card.where,
                f"ai_cards: card {card.id!r} has colour {card.colour!r}, not a trap colour"
                f"{suggest(card.colour, defined)}",
            )
        elif not on_map[card.colour]:
            findings.error(
                card.where,
                f"ai_cards: card {card.id!r} is {card.colour!r} but the map has no "
                f"{card.colour!r} trap",
            )
    for trap in model.lair.traps:
        if trap.colour not in defined:
            findings.error(
                trap.where,
                f"lair: trap colour {trap.colour!r} is not a trap colour"
                f"{suggest(trap.colour, defined)}",
            )
        elif trap.colour not in used:
            findings.error(
                trap.where,
                f"lair: no AI card is {trap.colour!r}, so {trap.colour!r} traps never activate",
            )


def _check_recall(findings: Findings, model: DragonHoard) -> None:
    # Ice-Fire Dragon: the countdown starts at the recall_limit-th recall card drawn.
    recalls = sum(card.copies for card in model.ai_cards if card.recall)
    limit = model.settings.recall_limit
    if recalls < limit:
        findings.error(
            _first(model.ai_cards),
            f"ai_cards: {recalls} recall cards; the time limit (settings.recall_limit) "
            f"needs at least {limit}",
        )
    deck = sum(card.copies for card in model.ai_cards)
    if deck < model.settings.first_round_draws + 1:
        findings.error(
            _first(model.ai_cards), f"ai_cards: a deck of {deck} cannot play a second round"
        )


def _check_ai_effects(findings: Findings, model: DragonHoard) -> None:
    for card in model.ai_cards:
        if not card.effects:
            findings.error(card.where, f"ai_cards: card {card.id!r} has no effect")
        for effect in card.effects:
            area = effect.area
            if effect.kind is AIEffectKind.ATTACK:
                if area is None:
                    findings.error(effect.where, f"ai_cards: {card.id!r}: an attack needs an area")
                elif area.shape is AreaShape.STRIP and not area.directions:
                    findings.error(area.where, f"ai_cards: {card.id!r}: a strip needs directions")
                elif area.shape is AreaShape.RING and area.radius < 1:
                    findings.error(area.where, f"ai_cards: {card.id!r}: a ring needs radius >= 1")
            elif area is not None:
                findings.error(
                    effect.where,
                    f"ai_cards: {card.id!r}: {effect.kind.value!r} takes no area",
                )
            if effect.kind is AIEffectKind.ADVANCE and effect.steps < 1:
                findings.error(effect.where, f"ai_cards: {card.id!r}: advance needs steps >= 1")


def _check_seating(findings: Findings, model: DragonHoard) -> None:
    """Each seating row names a supported table size once and one printed entry per seat,
    none twice, going clockwise round the map as the seats do (decision `seats-and-entries`)."""
    lair = model.lair
    numbers = {entry.seat + 1 for entry in lair.entries}
    seen: set[int] = set()
    for seating in lair.seating:
        label = f"lair: seating for {seating.players} players"
        if seating.players not in model.info.players:
            findings.error(seating.where, f"{label}: the game seats {model.info.players}")
        if seating.players in seen:
            findings.error(seating.where, f"{label} is given twice")
        seen.add(seating.players)
        if len(seating.entries) != seating.players:
            findings.error(
                seating.where,
                f"{label} names {len(seating.entries)} entries, one per seat is needed",
            )
        if len(set(seating.entries)) != len(seating.entries):
            findings.error(seating.where, f"{label} uses an entry twice: {list(seating.entries)}")
        unknown = [n for n in seating.entries if n not in numbers]
        if unknown:
            findings.error(
                seating.where,
                f"{label} names entry teleporters {unknown}; the map numbers {sorted(numbers)}",
            )
        elif len(set(seating.entries)) == len(seating.entries) and not lair.runs_clockwise(
            seating.entries
        ):
            findings.error(
                seating.where,
                f"{label}: entries {list(seating.entries)} do not go clockwise round the map; "
                "seats sit clockwise and each player enters at the teleporter nearest them "
                "(the post: 放置在离自己最近的入场传送点)",
            )


def _check_lair(findings: Findings, model: DragonHoard) -> None:
    lair = model.lair
    where = lair.where
    features: dict[tuple[int, ...], str] = {}

    def place(cell: tuple[int, ...], name: str, at: Location, under_ok: bool = False) -> bool:
        if not lair.contains(cell):
            findings.error(
                at,
                f"lair: {name} at {list(cell)} is off the {lair.columns}x{lair.rows} map",
            )
            return False
        if (
            not under_ok
            and lair.contains(lair.centre)
            and tuple(cell) in lair.dragon_cells(lair.centre)
        ):
            findings.error(at, f"lair: {name} at {list(cell)} lies under the dragon")
        return True

    if not lair.contains(lair.centre):
        findings.error(where, f"lair: the centre C {list(lair.centre)} is off the map")
        return
    cx, cy = lair.centre
    reach = lair.domain_radius
    if lair.dragon_radius > reach:
        findings.error(where, "lair: the dragon's body is larger than its domain")
    if not (lair.contains((cx - reach, cy - reach)) and lair.contains((cx + reach, cy + reach))):
        findings.error(where, f"lair: the domain (radius {reach} around C) runs off the map")
    # One entry teleporter per seat of the largest table.
    seats = Counter(entry.seat for entry in lair.entries)
    for seat in range(model.info.players.max):
        if seats[seat] != 1:
            findings.error(
                _first(lair.entries) or where,
                f"lair: seat {seat} needs exactly one entry teleporter, has {seats[seat]}",
            )
    _check_seating(findings, model)
    for entry in lair.entries:
        if entry.seat not in range(model.info.players.max):
            findings.error(
                entry.where,
                f"lair: entry for seat {entry.seat}, but the game seats "
                f"{model.info.players.max} (seats 0..{model.info.players.max - 1})",
            )
    for group, name in (
        (lair.entries, "entry teleporter"),
        (lair.exits, "exit"),
        (lair.gates, "gate"),
        (lair.traps, "trap"),
    ):
        for item in group:
            cell = tuple(item.cell)
            if place(cell, name, item.where) and cell in features:
                findings.error(
                    item.where,
                    f"lair: {name} at {list(cell)} shares its cell with {features[cell]}",
                )
            features.setdefault(cell, name)
    # Every feature the rules name: exits, A and B gates (in pairs), traps.
    if not lair.exits:
        findings.error(where, "lair: the map needs at least one exit")
    for kind in GateType:
        count = sum(1 for gate in lair.gates if gate.type is kind)
        if count != 2:
            findings.error(
                _first(lair.gates) or where,
                f"lair: type-{kind.value.upper()} gates come in a pair; the map has {count}",
            )
    if not lair.traps:
        findings.error(where, "lair: the map needs coloured traps")
    for spot in lair.treasure_setup:
        place(tuple(spot.cell), f"treasure {spot.treasure!r}", spot.where, under_ok=True)


def _check_treasures(findings: Findings, model: DragonHoard) -> None:
    by_id = {t.id: t for t in model.treasures}
    placed: Counter[str] = Counter()
    for spot in model.lair.treasure_setup:
        if spot.treasure not in by_id:
            findings.error(
                spot.where,
                f"lair: the setup guide names unknown treasure {spot.treasure!r}"
                f"{suggest(spot.treasure, by_id)}",
            )
        placed[spot.treasure] += 1
    for treasure in model.treasures:
        if placed[treasure.id] != treasure.copies:
            findings.error(
                treasure.where,
                f"treasures: {treasure.copies} {treasure.id!r} tokens but the setup guide "
                f"places {placed[treasure.id]}",
            )
        if treasure.value < 0:
            findings.error(treasure.where, f"treasures: {treasure.id!r} has a negative value")
    hearts = [t for t in model.treasures if t.heart]
    if len(hearts) != 1:
        findings.error(
            _first(model.treasures),
            f"treasures: exactly one treasure is the Dragon Heart (heart: true); got {len(hearts)}",
        )


def _check_action_sets(findings: Findings, model: DragonHoard) -> None:
    cards = {card.id: card for card in model.action_cards}
    for card in model.action_cards:
        if not card.phases:
            findings.error(card.where, f"action_cards: {card.id!r} has no phase")
        if card.kind is ActionKind.MOVE and (card.direction is None or card.steps < 1):
            findings.error(card.where, f"action_cards: move {card.id!r} needs direction and steps")
        if card.kind is ActionKind.SPRINT and (
            card.steps < 1 or Phase.PREPARATION not in card.phases
        ):
            findings.error(
                card.where,
                f"action_cards: sprint {card.id!r} needs steps and the preparation phase",
            )
        if card.kind is not ActionKind.MOVE and card.direction is not None:
            findings.error(card.where, f"action_cards: {card.id!r} takes no direction")
    if not any(Phase.PREPARATION in card.phases for card in model.action_cards):
        findings.error(
            _first(model.action_cards), "action_cards: no card can be played in preparation"
        )
    colours = model.player_colours
    if len(colours) < model.info.players.max:
        findings.error(
            _first(colours),
            f"player_colours: {len(colours)} colours for up to {model.info.players.max} players",
        )
    used: set[str] = set()
    for colour in colours:
        for card_id, copies in colour.cards.items():
            used.add(card_id)
            if card_id not in cards:
                findings.error(
                    colour.where,
                    f"player_colours: {colour.id!r} names unknown action card {card_id!r}"
                    f"{suggest(card_id, cards)}",
                )
            elif copies < 1:
                findings.error(colour.where, f"player_colours: {colour.id!r}: {copies} {card_id!r}")
    for card in model.action_cards:
        if card.id not in used:
            findings.error(card.where, f"action_cards: {card.id!r} is in no colour's set")
    # Every colour plays the same set unless the content says so (own_set: true).
    if colours:
        reference = colours[0]
        for colour in colours[1:]:
            if colour.own_set or colour.cards == reference.cards:
                continue
            differ = sorted(
                card_id
                for card_id in set(colour.cards) | set(reference.cards)
                if colour.cards.get(card_id, 0) != reference.cards.get(card_id, 0)
            )
            findings.error(
                colour.where,
                f"player_colours: {colour.id!r}'s set differs from {reference.id!r}'s in "
                f"{', '.join(differ)} (set own_set: true if that is meant)",
            )


def _check_characters(findings: Findings, model: DragonHoard) -> None:
    colours = {c.id for c in model.player_colours}
    for character in model.characters:
        if character.colour not in colours:
            findings.error(
                character.where,
                f"characters: {character.id!r} has unknown colour {character.colour!r}"
                f"{suggest(character.colour, colours)}",
            )
    if sum(c.copies for c in model.characters) < model.info.players.max:
        findings.error(
            _first(model.characters),
            f"characters: fewer character cards than the {model.info.players.max} players",
        )


# -- simulated play ---------------------------------------------------------------------------

POLICIES = {"random": RandomPolicy, "sensible": TreasureHunterPolicy}


def _spread(scores: tuple[int, ...]) -> dict[str, float]:
    if not scores:
        return {"min": 0, "median": 0, "max": 0}
    return {"min": min(scores), "median": statistics.median(scores), "max": max(scores)}


def check_simulated(findings: Findings, games: int, seed: int) -> dict[str, Any]:
    """Seeded games per player count with a random and a sensible policy, invariants checked
    at every step: every game ends, every game reaches the countdown, sensible players score."""
    model: DragonHoard = findings.game.model
    report: dict[str, Any] = {"games_per_table": games, "seed": seed, "tables": []}
    effects: Counter[AIEffectKind] = Counter()
    for players in model.info.players:
        for name, policy in POLICIES.items():
            count = games if name == "random" else max(1, games // 2)
            result = simulate(model, players, games=count, seed=seed, policy=policy(), check=True)
            effects.update(result.ai_effects_run)
            finished = count - result.ended_by_cap
            if result.ended_by_cap:
                findings.error(
                    None,
                    f"simulation: {result.ended_by_cap} of {count} {name} games with {players} "
                    f"players hit the round cap (replay seed {result.capped_seeds[0]})",
                )
            if result.countdown_games < finished:
                findings.error(
                    None,
                    f"simulation: {finished - result.countdown_games} {name} games with "
                    f"{players} players ended without reaching the countdown",
                )
            if name == "sensible" and not result.winning_scores:
                findings.error(
                    None,
                    f"simulation: no sensible game with {players} players had a winner "
                    "(nobody ever left the lair)",
                )
            wins = sum(result.wins_by_seat)
            report["tables"].append(
                {
                    "players": players,
                    "policy": name,
                    "games": count,
                    "mean_rounds": round(result.mean_rounds, 2),
                    "max_rounds": result.max_rounds,
                    "countdown_games": result.countdown_games,
                    "nobody_left": result.nobody_left,
                    "winning_score": _spread(result.winning_scores),
                    "win_rate_by_seat": [
                        round(w / wins, 3) if wins else 0.0 for w in result.wins_by_seat
                    ],
                }
            )
    used = {effect.kind for card in model.ai_cards for effect in card.effects}
    for kind in sorted(used - set(effects), key=lambda k: k.value):
        findings.error(None, f"simulation: no game ever executed an AI {kind.value!r} effect")
    return report


def summarise(report: dict[str, Any]) -> list[str]:
    lines = []
    for table in report.get("tables", []):
        spread = table["winning_score"]
        lines.append(
            f"simulated {table['games']} {table['policy']} games x {table['players']} players: "
            f"{table['mean_rounds']:.1f} rounds on average, winning score "
            f"{spread['min']}–{spread['max']} (median {spread['median']})"
        )
    return lines


def simulation_lines(
    game: LoadedGame, *, players: int | None, games: int, seed: int, policy: str
) -> list[str]:
    """Game length, countdown, winning scores and wins by seat for `pnp simulate`."""
    model: DragonHoard = game.model
    counts = [p for p in model.info.players if players is None or p == players]
    if not counts:
        raise PnpError(f"{SLUG} supports {model.info.players} players, not {players}")
    lines = [f"{SLUG}: {games} games per table, seed {seed}, policy {policy}"]
    for count in counts:
        result = simulate(model, count, games=games, seed=seed, policy=POLICIES[policy]())
        spread = _spread(result.winning_scores)
        wins = sum(result.wins_by_seat)
        rates = " ".join(f"{w / wins:.1%}" if wins else "-" for w in result.wins_by_seat)
        lines.append(
            f"  {count} players: rounds mean {result.mean_rounds:.1f} median "
            f"{result.median_rounds:.0f} max {result.max_rounds}; countdown reached "
            f"{result.countdown_games}/{games}; nobody left {result.nobody_left}; winning score "
            f"{spread['min']}–{spread['max']} (median {spread['median']}); wins by seat {rates}; "
            f"cap hits {result.ended_by_cap}; {result.games_per_second:,.0f} games/s"
        )
    return lines
