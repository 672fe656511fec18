"""Arena Tales content against its rules: the decks the post calls for, range specs, damage
fields, the keyword glossary against the cards and the engine, the arena, and seeded play."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from pnp.content.loader import LoadedGame
from pnp.engines.base import Policy, RandomPolicy
from pnp.engines.hexgrid import distance
from pnp.errors import Location, PnpError
from pnp.games.arena_tales.effects import KEYWORDS
from pnp.games.arena_tales.model import (
    ArenaTales,
    Card,
    CardType,
    Effect,
    EffectKind,
    Keyword,
    Timing,
)
from pnp.games.arena_tales.policies import SensiblePolicy
from pnp.games.arena_tales.rules import (
    RULE_CHARACTERS,
    RULE_DECK,
    RULE_DIRECTIONS,
    RULE_ORIENTATION_POINTS,
    RULE_PLAYERS,
    ArenaTalesRules,
)
from pnp.games.arena_tales.simulation import SimulationReport, simulate
from pnp.games.arena_tales.state import SLUG
from pnp.validate.checks import Findings, check_declaration, suggest

DEFAULT_GAMES = 30
"""Seeded games per player count in `pnp validate` (sensible policy, invariants checked at
every step): enough to see the common effects played and catch a stuck game, about 4 s."""

ALLOWED_TIMINGS: dict[EffectKind, frozenset[Timing]] = {
    EffectKind.LOCK: frozenset({Timing.BEFORE_PLAY}),
    EffectKind.FIXED_DAMAGE: frozenset({Timing.COMBAT}),
    EffectKind.INDISCRIMINATE: frozenset({Timing.COMBAT}),
    EffectKind.KNOCKBACK: frozenset({Timing.COMBAT}),
    EffectKind.COUNTER: frozenset({Timing.DISPLAYED}),
    EffectKind.MAINTAIN: frozenset({Timing.DISPLAYED}),
    EffectKind.PERMANENT: frozenset({Timing.DISPLAYED}),
    EffectKind.CRYSTAL: frozenset({Timing.DISPLAYED}),
    EffectKind.COMBO: frozenset({Timing.BEFORE_PLAY}),
    EffectKind.COMBO_PLAY: frozenset({Timing.ON_PLAY}),
    EffectKind.BURST: frozenset({Timing.BEFORE_PLAY}),
    EffectKind.LIFE: frozenset({Timing.TALENT}),
}
"""Where the engine reads an effect kind; any other timing would silently never apply."""

_ACTIVE = frozenset({Timing.BEFORE_PLAY, Timing.ON_PLAY, Timing.AFTER_PLAY, Timing.RESPONSE})
_PASSIVE = frozenset({Timing.DISPLAYED, Timing.TALENT})
_COMBAT_ONLY = frozenset(
    {EffectKind.LOCK, EffectKind.FIXED_DAMAGE, EffectKind.INDISCRIMINATE, EffectKind.KNOCKBACK}
)
_MAY_BE_ZERO = frozenset({EffectKind.SEE_THROUGH, EffectKind.BURST})


def used_effects(model: ArenaTales) -> dict[EffectKind | Timing, Location]:
    """Each effect kind and timing the cards use, with the first place using it."""
    used: dict[EffectKind | Timing, Location] = {}
    for card in model.cards:
        for effect in card.effects:
            used.setdefault(effect.kind, effect.where)
            used.setdefault(effect.timing, effect.where)
    return used


def used_keywords(model: ArenaTales) -> dict[Keyword, Location]:
    """Each glossary keyword the content uses: on cards, talents, the map and the sanity card."""
    used: dict[Keyword, Location] = {}
    for card in model.cards:
        for effect in card.effects:
            for keyword in effect.keywords:
                used.setdefault(keyword, effect.where)
        if card.type is CardType.TALENT:
            used.setdefault(Keyword.INITIAL_TALENT, card.where)
    for arena in model.arenas:
        if arena.orientation_points:
            used.setdefault(Keyword.ORIENTATION_POINT, arena.where)
        # Every figure faces an edge of its hex: the arrow its token prints.
        used.setdefault(Keyword.FACING, arena.where)
    for sanity in model.sanity_cards:
        used.setdefault(Keyword.SANITY, sanity.sane.where)
        used.setdefault(Keyword.OUT_OF_CONTROL, sanity.wild.where)
    return used


def rulebook_terms(model: ArenaTales) -> list[tuple[str, Location]]:
    """Words printed on the kit that the rulebook must explain: every keyword the cards, talents,
    map and sanity card use (as the cards print it), and every zone of the player board."""
    names = model.keyword_names
    terms = [
        (names[keyword.value], where)
        for keyword, where in used_keywords(model).items()
        if keyword.value in names
    ]
    return terms + [(zone.name, zone.where) for board in model.boards for zone in board.zones]


def _cards_where(model: ArenaTales) -> Location | None:
    return model.cards[0].where if model.cards else None


def check_static(findings: Findings) -> None:
    model: ArenaTales = findings.game.model
    _check_settings(findings, model)
    _check_colours_and_characters(findings, model)
    _check_decks(findings, model)
    _check_cards(findings, model)
    _check_variety(findings, model)
    _check_glossary(findings, model)
    _check_arena(findings, model)
    _check_board(findings, model)
    _check_player_counts(findings, model)
    if not any(p.severity == "error" for p in findings.problems):
        try:
            rules = ArenaTalesRules(model, min(s.players for s in model.arena.setups))
        except ValueError as error:
            findings.error(_cards_where(model), f"the rules engine refuses the content: {error}")
            return
        check_declaration(
            findings, rules.declares(), used_effects(model), ArenaTales, _cards_where(model)
        )


def _check_settings(findings: Findings, model: ArenaTales) -> None:
    s = model.settings
    expected = {
        "shared_names": RULE_DECK["shared"],
        "own_names": RULE_DECK["own"],
        "copies_per_name": RULE_DECK["copies"],
        "card_names": RULE_DECK["names"],
        "life": RULE_DECK["life"],
    }
    for name, value in expected.items():
        if getattr(s, name) != value:
            findings.error(
                s.where, f"settings: {name} is {getattr(s, name)}; the rule post fixes {value}"
            )
    names = s.shared_names + s.own_names
    if s.deck_size != names * s.copies_per_name:
        findings.error(
            s.where,
            f"settings: deck_size {s.deck_size} is not {names} names x {s.copies_per_name} "
            f"copies ({names * s.copies_per_name})",
        )
    if min(s.hand_limit, s.hand_refill, s.forced_end) <= 0:
        findings.error(s.where, "settings: hand_limit, hand_refill and forced_end must be > 0")


def _check_colours_and_characters(findings: Findings, model: ArenaTales) -> None:
    colours = model.colour_by_id
    if "none" not in colours:
        findings.error(
            model.colours[0].where if model.colours else None,
            "colours: the colourless colour 'none' of the shared cards is missing",
        )
    if len(model.characters) != RULE_CHARACTERS:
        findings.error(
            model.characters[0].where if model.characters else None,
            f"characters: {len(model.characters)} characters; the rule post has {RULE_CHARACTERS}",
        )
    seen: dict[str, str] = {}
    for character in model.characters:
        if character.colour not in colours or character.colour == "none":
            findings.error(
                character.where,
                f"character {character.id!r} has unknown colour {character.colour!r}"
                f"{suggest(character.colour, [c for c in colours if c != 'none'])}",
            )
        elif character.colour in seen:
            findings.error(
                character.where,
                f"character {character.id!r} shares colour {character.colour!r} with "
                f"{seen[character.colour]!r}",
            )
        else:
            seen[character.colour] = character.id
    for card in model.cards:
        if card.colour not in colours:
            findings.error(
                card.where,
                f"card {card.id!r} has unknown colour {card.colour!r}"
                f"{suggest(card.colour, list(colours))}",
            )
        elif card.colour != "none" and card.colour not in seen:
            findings.error(card.where, f"card {card.id!r}: no character plays {card.colour!r}")


def _check_decks(findings: Findings, model: ArenaTales) -> None:
    s = model.settings
    shared = model.shared_cards
    if len(shared) != s.shared_names:
        findings.error(
            shared[0].where if shared else _cards_where(model),
            f"cards: {len(shared)} colourless shared names; every deck needs {s.shared_names}",
        )
    for character in model.characters:
        own = model.own_cards(character)
        if len(own) != s.own_names:
            findings.error(
                own[-1].where if own else character.where,
                f"deck of {character.id!r}: {len(own)} names in its colour "
                f"{character.colour!r}; it needs {s.own_names}",
            )
        talents = [c for c in own if c.type is CardType.TALENT]
        if len(talents) != 1:
            findings.error(
                character.where,
                f"deck of {character.id!r}: {len(talents)} talent cards; it needs exactly 1",
            )
        deck = len(model.deck_of(character)) * s.copies_per_name
        if deck != s.deck_size:
            findings.error(
                character.where,
                f"deck of {character.id!r} holds {deck} cards, settings.deck_size is {s.deck_size}",
            )
        talent = model.talent_of(character)
        life = s.life + sum(
            e.amount for e in (talent.effects if talent else ()) if e.kind is EffectKind.LIFE
        )
        left = deck - (1 if talent else 0) - life
        if life < 1 or left < s.hand_refill:
            findings.error(
                (talent or character).where,
                f"deck of {character.id!r}: life {life} does not fit a deck of {deck} "
                f"(leaves {left} cards to draw; the first refill needs {s.hand_refill})",
            )
    if len(model.cards) != s.card_names:
        findings.error(
            model.cards[-1].where if model.cards else None,
            f"cards: {len(model.cards)} card names; settings.card_names is {s.card_names}",
        )


def _check_cards(findings: Findings, model: ArenaTales) -> None:
    for card in model.cards:
        where = card.where
        if len(card.range) != RULE_DIRECTIONS:
            findings.error(
                where,
                f"card {card.id!r}: range has {len(card.range)} sides; a hexagon has "
                f"{RULE_DIRECTIONS}",
            )
        for side, (text, spec) in enumerate(zip(card.range, card.ranges, strict=True)):
            if spec is None:
                findings.error(
                    where,
                    f"card {card.id!r}: range side {side} {text!r} is no range spec "
                    "(expected blank, 1-4, [X] or ②③④)",
                )
        aims = any(spec is not None and spec.reach for spec in card.ranges)
        if card.type is CardType.DAMAGE:
            if card.damage is None:
                findings.error(where, f"damage card {card.id!r} has no damage")
            if not aims:
                findings.error(where, f"damage card {card.id!r} has a blank range hexagon")
        else:
            if card.damage is not None:
                findings.error(where, f"{card.type.value} card {card.id!r} must not have damage")
            if aims:
                findings.error(where, f"{card.type.value} card {card.id!r} must not have a range")
        if card.cost < 0:
            findings.error(where, f"card {card.id!r}: cost {card.cost} is below 0")
        draws = sum(e.amount for e in card.effects if e.kind is EffectKind.DRAW)
        if draws and card.cost < 1:
            # A free card that draws could be played forever: every turn must wind down.
            findings.error(where, f"card {card.id!r} draws {draws} but costs 0; it must cost 1+")
        for effect in card.effects:
            _check_effect(findings, card, effect)
        if card.type is CardType.TALENT:
            bad = [e for e in card.effects if e.timing is not Timing.TALENT]
            if bad or not card.effects:
                findings.error(where, f"talent {card.id!r}: every effect must have timing talent")


def _check_variety(findings: Findings, model: ArenaTales) -> None:
    """Warnings where a card name does nothing of its own (issue 14): a name with no effect
    text, non-damage names or talents whose effects are the same as another's, a talent that
    only changes life. A name should be worth its printing."""
    same: dict[tuple[object, ...], list[Card]] = {}
    for card in model.cards:
        if not card.effects:
            findings.warning(card.where, f"card {card.id!r} has no effect text")
        if card.type is CardType.DAMAGE:
            continue
        key = (
            card.type,
            tuple(
                sorted(
                    (e.kind.value, e.timing.value, e.amount, str(e.element)) for e in card.effects
                )
            ),
        )
        same.setdefault(key, []).append(card)
        if card.type is CardType.TALENT and {e.kind for e in card.effects} == {EffectKind.LIFE}:
            findings.warning(card.where, f"talent {card.id!r} only changes life")
    for cards in same.values():
        if len(cards) > 1:
            names = ", ".join(repr(c.id) for c in cards)
            findings.warning(cards[1].where, f"card names {names} have the same effects")


def _check_effect(findings: Findings, card: Card, effect: Effect) -> None:
    kind, timing = effect.kind, effect.timing
    allowed = ALLOWED_TIMINGS.get(kind)
    if allowed is None:
        allowed = (
            _ACTIVE | _PASSIVE if kind in (EffectKind.DAMAGE_UP, EffectKind.REACH) else _ACTIVE
        )
    if card.type is CardType.TALENT and kind in (EffectKind.DAMAGE_UP, EffectKind.REACH):
        allowed = allowed | {Timing.TALENT}
    if timing not in allowed:
        names = ", ".join(sorted(t.value for t in allowed))
        findings.error(
            effect.where,
            f"card {card.id!r}: {kind.value} with timing {timing.value!r} never applies "
            f"(expected {names})",
        )
    if kind in _COMBAT_ONLY and card.type is not CardType.DAMAGE:
        findings.error(effect.where, f"card {card.id!r}: {kind.value} needs a damage card")
    if (kind is EffectKind.CRYSTAL) != (effect.element is not None):
        findings.error(effect.where, f"card {card.id!r}: only a crystal names an element")
    needs_amount = kind not in _COMBAT_ONLY | {
        EffectKind.PERMANENT,
        EffectKind.CRYSTAL,
        EffectKind.LOCK,
    }
    if needs_amount and effect.amount == 0 and kind not in _MAY_BE_ZERO:
        findings.error(effect.where, f"card {card.id!r}: {kind.value} needs an amount (X)")
    if kind is not EffectKind.LIFE and effect.amount < 0:
        findings.error(effect.where, f"card {card.id!r}: {kind.value} amount is negative")


def _check_glossary(findings: Findings, model: ArenaTales) -> None:
    defined: dict[Keyword, Location] = {}
    for entry in model.glossary:
        if entry.keyword in defined:
            findings.error(
                entry.where, f"glossary: keyword {entry.keyword.value!r} is defined twice"
            )
        defined.setdefault(entry.keyword, entry.where)
    used = used_keywords(model)
    glossary_where = model.glossary[0].where if model.glossary else None
    for keyword in sorted(set(used) - set(defined), key=lambda k: k.value):
        findings.error(
            used[keyword],
            f"keyword {keyword.value!r} is used but the glossary does not define it",
        )
    for keyword in sorted(set(defined) - set(used), key=lambda k: k.value):
        findings.error(
            defined[keyword], f"glossary: keyword {keyword.value!r} is defined but never used"
        )
    for keyword in sorted((set(defined) | set(used)) - KEYWORDS, key=lambda k: k.value):
        findings.error(
            defined.get(keyword, used.get(keyword, glossary_where)),
            f"keyword {keyword.value!r} has no implementation in the rules engine",
        )


def _check_arena(findings: Findings, model: ArenaTales) -> None:
    if len(model.arenas) != 1:
        findings.error(None, f"arenas: expected one arena, got {len(model.arenas)}")
        if not model.arenas:
            return
    arena = model.arena
    points = arena.orientation_points
    if len(points) != RULE_ORIENTATION_POINTS:
        findings.error(
            arena.where,
            f"arena: {len(points)} orientation points; the rule post has {RULE_ORIENTATION_POINTS}",
        )
    taken: dict[tuple[int, int], str] = {}
    for point in (*points, *arena.obstacles):
        hexagon = (point.q, point.r)
        if distance(hexagon, (0, 0)) > arena.radius:
            findings.error(point.where, f"arena: {point.id!r} at {hexagon} lies off the map")
        if hexagon in taken:
            findings.error(
                point.where, f"arena: {point.id!r} shares {hexagon} with {taken[hexagon]!r}"
            )
        taken[hexagon] = point.id
    for point in points:
        if distance((point.q, point.r), (0, 0)) != arena.radius:
            findings.error(
                point.where,
                f"arena: orientation point {point.id!r} is not on the map's edge",
            )
    ids = {p.id for p in points}
    counts = {setup.players for setup in arena.setups}
    for players in RULE_PLAYERS:
        if players not in counts:
            findings.error(arena.where, f"arena: no setup for {players} players")
    for setup in arena.setups:
        if setup.players not in RULE_PLAYERS:
            findings.error(setup.where, f"arena: {setup.players} players is not a rule count")
        if len(setup.starts) != setup.players or len(setup.teams) != setup.players:
            findings.error(
                setup.where,
                f"arena: the setup for {setup.players} must name a start and team for every seat",
            )
        for start in setup.starts:
            if start not in ids:
                findings.error(
                    setup.where,
                    f"arena: setup for {setup.players} names unknown orientation point "
                    f"{start!r}{suggest(start, ids)}",
                )
        if len(set(setup.starts)) != len(setup.starts):
            findings.error(setup.where, f"arena: setup for {setup.players} repeats a start")
        sizes = Counter(setup.teams)
        if len(sizes) != 2 or len(set(sizes.values())) != 1:
            findings.error(
                setup.where, f"arena: setup for {setup.players} must split two equal teams"
            )


def _check_board(findings: Findings, model: ArenaTales) -> None:
    needed = ["display", "exhausted", "recycle", "deck", "life", "sanity"]
    for board in model.boards:
        have = [zone.id for zone in board.zones]
        for zone in needed:
            if zone not in have:
                findings.error(board.where, f"board {board.id!r} lacks the {zone!r} zone")
        if have and have[0] != "display":
            findings.error(board.where, f"board {board.id!r}: the display must come first")
    if not model.sanity_cards:
        findings.error(None, "sanity_cards: the 理智/失控 card is missing")


def _check_player_counts(findings: Findings, model: ArenaTales) -> None:
    """The cover and the rulebook print the table sizes the arena has a setup for (2/4/6: two
    equal teams), not every count between the fewest and the most."""
    supported = model.player_counts
    printed = tuple(model.info.players)
    if supported and printed != supported:
        findings.error(
            model.info.where,
            f"info.players: the cover prints {str(model.info.players)!r} players, but the arena "
            f"has a setup for {'/'.join(str(p) for p in supported)} only: "
            f"give players.only {list(supported)}",
        )


# -- simulated play -------------------------------------------------------------------------


def check_simulated(findings: Findings, games: int, seed: int) -> dict[str, Any]:
    """Seeded sensible-policy play at every player count; invariants checked at every step."""
    model: ArenaTales = findings.game.model
    report: dict[str, Any] = {"games_per_table": games, "seed": seed, "tables": []}
    played: Counter[EffectKind] = Counter()
    for players in sorted(s.players for s in model.arena.setups):
        result = simulate(
            model, players, games=games, seed=seed, policy=SensiblePolicy(), check=True
        )
        played.update(result.effects_played)
        if result.ended_by_cap:
            findings.error(
                None,
                f"simulation: {result.ended_by_cap} of {games} games with {players} players "
                f"hit the turn cap (replay seed {result.capped_seeds[0]})",
            )
        report["tables"].append(_table(result))
    return report


def _table(result: SimulationReport) -> dict[str, Any]:
    finished = result.finished
    return {
        "players": result.players,
        "games": result.games,
        "mean_turns": round(result.mean_turns, 1),
        "max_turns": result.max_turns,
        "first_player_win_rate": round(result.first_player_win_rate, 3),
        "first_player_margin": round(1.96 * (0.25 / finished) ** 0.5, 3) if finished else 0.0,
        "win_rate_by_seat": [
            round(w / finished, 3) if finished else 0.0 for w in result.wins_by_seat
        ],
        "wins_by_pair": result.wins_by_pair,
    }


def summarise(report: dict[str, Any]) -> list[str]:
    lines = []
    for table in report.get("tables", []):
        lines.append(
            f"simulated {table['games']} {table['players']}-player games: mean length "
            f"{table['mean_turns']} turns, first player wins {table['first_player_win_rate']:.0%}"
            f" (±{table['first_player_margin']:.0%})"
        )
    return lines


POLICIES: dict[str, Callable[[], Policy]] = {"random": RandomPolicy, "sensible": SensiblePolicy}


def simulation_lines(
    game: LoadedGame, *, players: int | None, games: int, seed: int, policy: str
) -> list[str]:
    """Game length, first-player advantage and win rate by character pair for `pnp simulate`."""
    model: ArenaTales = game.model
    counts = sorted(s.players for s in model.arena.setups)
    if players is not None and players not in counts:
        raise PnpError(f"{SLUG} plays with {counts} players, not {players}")
    lines = [f"{SLUG}: {games} games per table, seed {seed}, policy {policy}"]
    for count in counts if players is None else [players]:
        result = simulate(model, count, games=games, seed=seed, policy=POLICIES[policy]())
        table = _table(result)
        rates = " ".join(f"{r:.1%}" for r in table["win_rate_by_seat"])
        ends = ", ".join(
            f"{t.value} {n}"
            for t, n in sorted(result.terminations.items(), key=lambda i: i[0].value)
        )
        lines.append(
            f"  {count} players: turns mean {result.mean_turns:.1f} median "
            f"{result.median_turns:.0f} max {result.max_turns}; cap hits {result.ended_by_cap}; "
            f"first player wins {result.first_player_win_rate:.1%} "
            f"(±{table['first_player_margin']:.1%}); wins by seat {rates}; ends: {ends}; "
            f"{result.games_per_second:,.1f} games/s"
        )
        pairs = sorted(result.wins_by_pair.items(), key=lambda i: -i[1][0])
        shown = [f"{pair} {wins}/{n}" for pair, (n, wins) in pairs if n]
        if shown:
            label = "seat 0 / seat 1" if count == 2 else "seat 0 / seat 1 (teams)"
            lines.append(f"    wins of {label} by character pair: " + ", ".join(shown[:12]))
    return lines
