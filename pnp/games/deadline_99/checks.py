"""Deadline 99 content against its rules: the deck the post calls for, the camp-mode deals,
the variant, and seeded play through the reference engine."""

from __future__ import annotations

import random
import statistics
from collections import Counter
from collections.abc import Mapping
from functools import partial
from pathlib import Path
from typing import Any

from pnp.content.loader import LoadedGame
from pnp.engines.base import RandomPolicy
from pnp.errors import Location
from pnp.games.deadline_99.model import Camp, Colour, Deadline99, Effect, EffectKind, Role
from pnp.games.deadline_99.policies import SafePolicy
from pnp.games.deadline_99.rules import SLUG, Deadline99Rules, Deadline99State, Mode, Play
from pnp.games.deadline_99.simulation import simulate
from pnp.validate.checks import Findings, check_declaration
from pnp.validate.claims import Claim, template_line

RULE_RANKS: dict[str, EffectKind] = {
    "3": EffectKind.ADD,
    "4": EffectKind.ADD,
    "5": EffectKind.ADD,
    "6": EffectKind.ADD,
    "7": EffectKind.SWAP_HANDS,
    "8": EffectKind.REVERSE,
    "9": EffectKind.ADD,
    "10": EffectKind.ADD_OR_SUBTRACT,
    "j": EffectKind.STEAL_RANDOM,
    "q": EffectKind.ADD_OR_SUBTRACT,
    "k": EffectKind.SET_TO_CAP,
    "a": EffectKind.CHOOSE_NEXT,
}
"""What the rule post fixes about the ranks (poker decks without jokers and 2s), for the
validator to check content against. The engine itself never reads this: it plays the model."""

RULE_DECK_SIZE = 96
"""Deadline 99: two poker decks without jokers and 2s, 2 x 48 playable cards (for the validator;
the engine deals whatever the model's deck rules make)."""

DEFAULT_GAMES = 24
"""Seeded random games per mode and player count in `pnp validate` (invariants checked at every
step); the shared play checks add random, sensible, passive and search play at every table
(``DEFAULT_GAMES // 4`` games, at least 8, for the game's own policies) and demand that every
coverage item is exercised. Small enough to keep the default run within CI's budget."""


def used_effects(model: Deadline99) -> dict[EffectKind, Location]:
    """Each effect kind the content uses, with the first place that uses it."""
    used: dict[EffectKind, Location] = {}
    for effect in [rank.effect for rank in model.ranks] + [c.effect for c in model.variant_cards]:
        used.setdefault(effect.kind, effect.where)
    return used


def _ranks_where(model: Deadline99) -> Location | None:
    return model.ranks[0].where if model.ranks else None


def rulebook_terms(model: Deadline99) -> list[tuple[str, Location]]:
    """Names printed on function and variant cards: the rulebook must explain each."""
    terms = [(rank.name, rank.where) for rank in model.ranks if rank.is_function]
    return terms + [(card.name, card.where) for card in model.variant_cards]


def check_static(findings: Findings) -> None:
    model: Deadline99 = findings.game.model
    try:
        rules = Deadline99Rules(model, model.info.players.min)
    except ValueError as error:
        # The reference engine cannot even seat a table with this content.
        findings.error(_ranks_where(model), f"the rules engine refuses the content: {error}")
    else:
        check_declaration(
            findings, rules.declares(), used_effects(model), Deadline99, _ranks_where(model)
        )
    _check_deck(findings, model)
    _check_settings(findings, model)
    _check_deck_rules(findings, model)
    _check_camp_mode(findings, model)
    _check_variant(findings, model)


def _check_deck(findings: Findings, model: Deadline99) -> None:
    # Deadline 99: two poker decks without jokers and 2s; 10 J Q K A 7 8 are function cards.
    ranks = {rank.id: rank for rank in model.ranks}
    for rank_id, kind in RULE_RANKS.items():
        rank = ranks.get(rank_id)
        if rank is None:
            findings.error(
                _ranks_where(model),
                f"ranks: the deck needs rank {rank_id!r} ({kind.value}); it is missing",
            )
        elif rank.effect.kind is not kind:
            findings.error(
                rank.effect.where,
                f"ranks: rank {rank_id!r} must be {kind.value!r}, got {rank.effect.kind.value!r}",
            )
    for rank in model.ranks:
        if rank.id not in RULE_RANKS:
            findings.error(
                rank.where,
                f"ranks: rank {rank.id!r} is not in the deck the rules "
                f"call for ({', '.join(RULE_RANKS)})",
            )
        effect = rank.effect
        if effect.kind is EffectKind.ADD and str(effect.amount) != rank.label:
            # Deadline 99: a number card adds its own value.
            findings.error(
                effect.where,
                f"ranks: number card {rank.label!r} must add its value, adds {effect.amount}",
            )
        if effect.kind is EffectKind.ADD_OR_SUBTRACT and effect.amount <= 0:
            findings.error(effect.where, f"ranks: {rank.id!r} needs a positive amount")
        if effect.draw < 0:
            findings.error(effect.where, f"ranks: {rank.id!r} draws {effect.draw} cards")
    colours = Counter(suit.colour for suit in model.suits)
    if len(model.suits) != 4 or colours[Colour.RED] != 2 or colours[Colour.BLACK] != 2:
        findings.error(
            model.suits[0].where if model.suits else None,
            "suits: a poker deck has four suits, two red and two black; got "
            f"{colours[Colour.RED]} red and {colours[Colour.BLACK]} black",
        )
    printed = model.cards_per_deck * model.kit_decks
    if printed != RULE_DECK_SIZE:
        findings.error(
            None,
            f"kit_decks: the kit prints {printed} playing cards "
            f"({model.kit_decks} decks x {model.cards_per_deck}); the rules "
            f"call for {RULE_DECK_SIZE}",
        )


def _check_settings(findings: Findings, model: Deadline99) -> None:
    s = model.settings
    if not s.count_floor <= s.count_start <= s.count_cap:
        findings.error(
            s.where,
            f"settings: need count_floor <= count_start <= count_cap, got "
            f"{s.count_floor}, {s.count_start}, {s.count_cap}",
        )
    if s.hand_size < 1:
        findings.error(s.where, f"settings: hand_size must be at least 1, got {s.hand_size}")


def _check_deck_rules(findings: Findings, model: Deadline99) -> None:
    for players in model.info.players:
        covering = [rule for rule in model.deck_rules if players in rule.players]
        if len(covering) != 1:
            findings.error(
                model.info.where,
                f"deck_rules: {len(covering)} rules cover {players} players; exactly one must",
            )
            continue
        rule = covering[0]
        cards = rule.decks * model.cards_per_deck
        if cards < players * model.settings.hand_size + 1:
            findings.error(
                rule.where,
                f"deck_rules: {rule.decks} decks ({cards} cards) cannot "
                f"deal {model.settings.hand_size} to {players} players "
                "and leave a draw pile",
            )
        if rule.decks % model.kit_decks:
            findings.error(
                rule.where,
                f"deck_rules: {rule.decks} decks is not a whole number "
                f"of printed kits ({model.kit_decks} decks each)",
            )


def _check_camp_mode(findings: Findings, model: Deadline99) -> None:
    camp = model.camp_mode
    identities = {identity.id: identity for identity in camp.identities}
    if camp.players.min <= 3:
        # Deadline 99: camp mode is for more than 3 players.
        findings.error(
            camp.where,
            f"camp_mode: camp mode needs more than 3 players, starts at {camp.players.min}",
        )
    for players in camp.players:
        if players not in model.info.players:
            findings.error(
                camp.where,
                f"camp_mode: {players} players is outside the game's {model.info.players}",
            )
            continue
        setup = model.camp_setup_for(players)
        if setup is None:
            findings.error(camp.where, f"camp_mode: no identity deal for {players} players")
            continue
        for identity_id, count in setup.identities.items():
            identity = identities.get(identity_id)
            if identity is None:
                findings.error(
                    setup.where,
                    f"camp_mode: setup for {players} names unknown "
                    f"identity {identity_id!r}"
                    f"{_suggest(identity_id, identities)}",
                )
            elif count > identity.copies:
                findings.error(
                    setup.where,
                    f"camp_mode: setup for {players} deals {count} "
                    f"{identity_id!r}, the kit prints {identity.copies}",
                )
        dealt = sum(setup.identities.values())
        if dealt != players:
            findings.error(
                setup.where, f"camp_mode: setup for {players} players deals {dealt} identity cards"
            )
        kings = Counter(
            identities[i].camp
            for i, n in setup.identities.items()
            if i in identities and identities[i].role is Role.KING
            for _ in range(n)
        )
        if len(kings) != 2 or any(n != 1 for n in kings.values()):
            findings.error(
                setup.where, f"camp_mode: setup for {players} must deal one red and one black king"
            )
    # Camp mode: a king out ends the game and the living free agents win with the other camp;
    # each king's card tells its holder so, naming the free agents' card.
    agents = [identity.name for identity in camp.identities if identity.camp is Camp.FREE]
    for identity in camp.identities:
        missing = [name for name in agents if name not in identity.text]
        if identity.role is Role.KING and missing:
            findings.error(
                identity.where,
                f"camp_mode: king card {identity.id!r} must say that living free agents "
                f"({', '.join(repr(name) for name in missing)}) also win when it falls",
            )
    for setup in camp.setups:
        if setup.players not in camp.players:
            findings.error(
                setup.where,
                f"camp_mode: setup for {setup.players} players is "
                f"outside camp mode's {camp.players}",
            )
    # Deadline 99: identities are the removed jokers (kings) and 2s (ministers) of the decks;
    # the variant uses one joker of each kind too. The kit's counts must fit in them.
    decks = model.kit_decks
    stands: Counter[str] = Counter()
    for identity in camp.identities:
        if identity.role is Role.KING:
            stands[f"{identity.camp.value}-joker"] += identity.copies
        if identity.role is Role.MINISTER and identity.copies > 2 * decks:
            findings.error(
                identity.where,
                f"camp_mode: {identity.copies} {identity.id!r}; "
                f"{decks} decks hold only {2 * decks} 2s of a colour",
            )
    for card in model.variant_cards:
        joker = "red" if card.effect.kind is EffectKind.BONUS_DRAW else "black"
        stands[f"{joker}-joker"] += card.copies
    for joker, count in sorted(stands.items()):
        if count > decks:
            findings.error(
                camp.where,
                f"camp_mode: kings and variant cards need {count} "
                f"{joker}s; {decks} decks hold {decks}",
            )


def _check_variant(findings: Findings, model: Deadline99) -> None:
    kinds = Counter(card.effect.kind for card in model.variant_cards)
    for kind in (EffectKind.BONUS_DRAW, EffectKind.ELIMINATE_SELF):
        if kinds[kind] != 1:
            findings.error(
                model.variant_cards[0].where if model.variant_cards else None,
                f"variant_cards: the Angel and Death variant needs one "
                f"{kind.value!r} card, got {kinds[kind]}",
            )


def _suggest(name: str, known: Mapping[str, object]) -> str:
    from pnp.validate.checks import suggest

    return suggest(name, known)


def configurations(model: Deadline99) -> list[tuple[Mode, bool, int]]:
    """(mode, angel_death, players) for every table the content supports."""
    tables: list[tuple[Mode, bool, int]] = []
    for players in model.info.players:
        tables.append((Mode.NORMAL, False, players))
        tables.append((Mode.NORMAL, True, players))
        if players in model.camp_mode.players:
            # Decision camp-with-angel-death: camp mode takes the variant too.
            tables.append((Mode.CAMP, False, players))
            tables.append((Mode.CAMP, True, players))
    return tables


def _label(mode: Mode, angel_death: bool) -> str:
    return f"{mode.value}{'+angel-death' if angel_death else ''}"


def check_simulated(findings: Findings, games: int, seed: int) -> dict[str, Any]:
    """Seeded random play over every supported table; invariants checked at every step."""
    model: Deadline99 = findings.game.model
    report: dict[str, Any] = {"games_per_table": games, "seed": seed, "tables": []}
    played: dict[str, Counter[EffectKind]] = {}
    for mode, angel_death, players in configurations(model):
        label = _label(mode, angel_death)
        result = simulate(
            model,
            players,
            mode,
            angel_death,
            games=games,
            seed=seed,
            policy=RandomPolicy(),
            check=True,
        )
        played.setdefault(label, Counter()).update(result.effects_played)
        if result.ended_by_cap:
            findings.error(
                None,
                f"simulation: {result.ended_by_cap} of {games} {label} games "
                f"with {players} players hit the turn cap (replay seed "
                f"{result.capped_seeds[0]})",
            )
        if result.max_count > model.settings.count_cap:
            findings.error(
                None,
                f"simulation: the count reached {result.max_count} "
                f"(cap {model.settings.count_cap})",
            )
        report["tables"].append(
            {
                "mode": label,
                "players": players,
                "games": games,
                "mean_turns": round(result.mean_turns, 2),
                "max_turns": result.max_turns,
                "win_rate_by_seat": [round(r, 3) for r in result.win_rate_by_seat],
            }
        )
    for label, counter in played.items():
        expected = {rank.effect.kind for rank in model.ranks}
        if "angel" in label:
            expected |= {card.effect.kind for card in model.variant_cards}
        for kind in sorted(expected - set(counter), key=lambda k: k.value):
            findings.error(None, f"simulation: no {label} game ever played a {kind.value!r} card")
    return report


def summarise(report: dict[str, Any]) -> list[str]:
    lines = []
    by_mode: dict[str, list[dict[str, Any]]] = {}
    for table in report.get("tables", []):
        by_mode.setdefault(table["mode"], []).append(table)
    for label, tables in by_mode.items():
        mean = statistics.fmean(t["mean_turns"] for t in tables)
        lines.append(
            f"simulated {len(tables)} tables x {report['games_per_table']} {label} "
            f"games: mean length {mean:.1f} turns"
        )
    return lines


POLICIES: dict[str, type[RandomPolicy] | type[SafePolicy]] = {
    "random": RandomPolicy,
    "sensible": SafePolicy,
}
ENGINE_SLUG = SLUG


def simulation_lines(
    game: LoadedGame, *, players: int | None, games: int, seed: int, policy: str
) -> list[str]:
    """Game length and win statistics for `pnp simulate`, per mode."""
    model: Deadline99 = game.model
    tables = [t for t in configurations(model) if players is None or t[2] == players]
    if not tables:
        from pnp.errors import PnpError

        raise PnpError(f"{SLUG} supports {model.info.players} players, not {players}")
    lines = [f"{SLUG}: {games} games per table, seed {seed}, policy {policy}"]
    for mode, angel_death, count in tables:
        result = simulate(
            model, count, mode, angel_death, games=games, seed=seed, policy=POLICIES[policy]()
        )
        rates = " ".join(f"{rate:.1%}" for rate in result.win_rate_by_seat)
        ends = ", ".join(
            f"{t.name.lower()} {n}"
            for t, n in sorted(result.terminations.items(), key=lambda item: item[0].name)
        )
        lines.append(
            f"  {_label(mode, angel_death):<18} {count:>2} players: turns mean "
            f"{result.mean_turns:.1f} median {result.median_turns:.0f} max {result.max_turns}; "
            f"cap hits {result.ended_by_cap}; wins by seat {rates}; ends: {ends}; "
            f"{result.games_per_second:,.0f} games/s"
        )
    return lines


# -- printed text against the engine (pnp.validate.claims) -----------------------------------


def claims(model: Deadline99, templates_root: Path) -> list[Claim]:
    """Every effect a card face prints (``templates/deadline-99/base.yaml``: the effect and
    draw phrases), the same lines of the function reference card, and its count-cap line; each
    played out on a four-player table (Angel and Death in it) from a position built for it."""
    bench = _Bench(model)
    reference = "deadline-99/function-reference.yaml"
    line = template_line(templates_root, reference, "effect_text(rank.effect)")
    cap_line = template_line(templates_root, reference, "count_cap")
    name = model.reference_cards[0].name if model.reference_cards else "function reference"
    found: list[Claim] = []
    for rank in model.ranks:
        probe = partial(bench.effect, rank.effect)
        says = bench.says(rank.effect)
        subject = f"card {rank.label} {rank.name}"
        found.append(Claim(rank.where, subject, says, probe))
        if rank.is_function:
            found.append(Claim(line, f"the {name} card's {rank.label}", says, probe))
    for card in model.variant_cards:
        found.append(
            Claim(
                card.where,
                f"card {card.name}",
                bench.says(card.effect),
                partial(bench.effect, card.effect),
            )
        )
    cap = model.settings.count_cap
    draw = model.ranks[0].effect.draw if model.ranks else 1
    found += [
        Claim(cap_line, f"the {name} card", f"出牌后计数超过 {cap} 即出局", bench.over_the_cap),
        Claim(cap_line, f"the {name} card", "回合开始时没有手牌也出局", bench.empty_hand_out),
        Claim(cap_line, f"the {name} card", f"除特别说明，出牌后抽 {draw} 张", bench.plain_draw),
    ]
    return found


class _Bench:
    """A four-player table with Angel and Death, and positions built on it: seat 0 to play
    the probed card, every other seat and the draw pile holding plain number cards."""

    def __init__(self, model: Deadline99) -> None:
        self.model = model
        players = 4 if 4 in model.info.players else model.info.players.min
        self.rules = Deadline99Rules(model, players, angel_death=True)
        settings = model.settings
        self.cap, self.floor = settings.count_cap, settings.count_floor
        plain = [c for c, e in enumerate(self.rules._effects) if e.kind is EffectKind.ADD]
        self.filler = plain[0] if plain else 0

    def says(self, effect: Effect) -> str:
        """The effect in the words the face prints (without the numbers' context)."""
        cap, floor = self.cap, self.floor
        words = {
            EffectKind.ADD: f"计数 +{effect.amount}",
            EffectKind.ADD_OR_SUBTRACT: f"计数 +{effect.amount} 或 −{effect.amount}，由你选择。"
            f"计数最低为 {floor}。",
            EffectKind.SET_TO_CAP: f"计数直接变为 {cap}。已是 {cap} 时打出也不会出局。",
            EffectKind.CHOOSE_NEXT: "指定下一回合由谁行动（可指定自己）。轮转方向不变。",
            EffectKind.REVERSE: "轮转方向反转。",
            EffectKind.STEAL_RANDOM: "指定另一名玩家，从其手牌中随机抽走一张。",
            EffectKind.SWAP_HANDS: "指定另一名玩家，与其交换全部手牌。",
            EffectKind.BONUS_DRAW: "计数不变。",
            EffectKind.ELIMINATE_SELF: "打出这张牌的玩家立即出局。",
        }[effect.kind]
        if effect.draw == 0:
            words += "本回合不抽牌。"
        elif effect.draw > 1:
            words += f"本回合抽 {effect.draw} 张牌。"
        return words

    def position(self, card: int, count: int) -> Deadline99State:
        """Seat 0 to play, holding ``card`` and two fillers; the others three fillers each."""
        rules, filler = self.rules, self.filler
        state = rules.initial_state(random.Random(0))
        hands = [tuple(sorted((card, filler, filler)))] + [(filler,) * 3] * (rules.players - 1)
        state.hands = tuple(hands)
        state.count, state.direction, state.seat, state.forced = count, 1, 0, None
        state.pending_draws, state.steal_from = 0, None
        state.draw_pile, state.discard = (filler,) * 20, ()
        state.out = (False,) * rules.players
        return state

    def resolve(self, state: Deadline99State) -> Deadline99State:
        """Every chance step of the turn (draws, the J's steal), the first card listed."""
        rules = self.rules
        while rules.is_chance(state):
            state = rules.apply(state, rules.legal_actions(state)[0])
        return state

    def code_of(self, effect: Effect) -> int:
        return next(c for c, e in enumerate(self.rules._effects) if e is effect)

    def effect(self, effect: Effect) -> str | None:
        rules = self.rules
        card = self.code_of(effect)
        token = rules.tokens[card]
        count = (self.cap + self.floor) // 2
        state = self.position(card, count)
        plays = [a for a in rules.legal_actions(state) if isinstance(a, Play) and a.card == token]
        kind = effect.kind
        others = [s for s in range(rules.players) if s != 0]
        wanted: list[Play]
        if kind is EffectKind.ADD_OR_SUBTRACT:
            wanted = [Play(token, 1), Play(token, -1)]
        elif kind is EffectKind.CHOOSE_NEXT:
            wanted = [Play(token, 0, s) for s in range(rules.players)]
        elif kind in (EffectKind.STEAL_RANDOM, EffectKind.SWAP_HANDS):
            wanted = [Play(token, 0, s) for s in others]
        else:
            wanted = [Play(token)]
        if sorted(map(str, plays)) != sorted(map(str, wanted)):
            return f"the engine offers {[str(a) for a in plays]}"
        problems = []
        for play in wanted:
            before = state
            after = self.resolve(rules.apply(before, play))
            drew = len(before.draw_pile) - len(after.draw_pile)
            problem = self._outcome(effect, play, before, after, drew)
            if problem:
                problems.append(f"after {play}: {problem}")
        if kind is EffectKind.ADD_OR_SUBTRACT:
            low = self.resolve(rules.apply(self.position(card, self.floor + 1), Play(token, -1)))
            if low.count != self.floor:
                problems.append(f"from {self.floor + 1}, −{effect.amount} leaves {low.count}")
        if kind is EffectKind.SET_TO_CAP:
            top = self.resolve(rules.apply(self.position(card, self.cap), Play(token)))
            if top.out[0] or top.count != self.cap:
                problems.append(f"at {self.cap} it puts its player out or moves the count")
        return "; ".join(problems) or None

    def _outcome(
        self, effect: Effect, play: Play, before: Deadline99State, after: Deadline99State, drew: int
    ) -> str | None:
        kind, count = effect.kind, before.count
        if kind is EffectKind.ELIMINATE_SELF:
            return None if after.out[0] else "its player stays in"
        if after.out[0]:
            return "its player is out"
        if drew != effect.draw:
            return f"its player draws {drew} cards"
        expected_count = {
            EffectKind.ADD: count + effect.amount,
            EffectKind.ADD_OR_SUBTRACT: max(self.floor, count + play.sign * effect.amount),
            EffectKind.SET_TO_CAP: self.cap,
        }.get(kind, count)
        if after.count != expected_count:
            return f"the count becomes {after.count}, not {expected_count}"
        players = self.rules.players
        if kind is EffectKind.REVERSE:
            if after.direction != -before.direction or after.seat != players - 1:
                return f"play goes on to seat {after.seat} in direction {after.direction}"
        elif after.direction != before.direction:
            return "the direction of play changes"
        if kind is EffectKind.CHOOSE_NEXT and after.seat != play.target:
            return f"seat {after.seat} takes the next turn, not the named seat {play.target}"
        target = play.target
        stolen = target is not None and len(after.hands[target]) == len(before.hands[target]) - 1
        if kind is EffectKind.STEAL_RANDOM and not stolen:
            return "the named player keeps every card"
        if kind is EffectKind.SWAP_HANDS and target is not None:
            mine = tuple(sorted(c for c in before.hands[0] if c != self.code_of(effect)))
            if after.hands[0] != before.hands[target] or after.hands[target] != mine:
                return "the hands are not swapped"
        return None

    def over_the_cap(self) -> str | None:
        """A card that takes the count above the cap puts its player out (the count stays);
        one that reaches the cap exactly does not."""
        rules, filler = self.rules, self.filler
        step = rules._effects[filler].amount
        over = self.resolve(
            rules.apply(self.position(filler, self.cap - step + 1), Play(rules.tokens[filler]))
        )
        if not over.out[0] or over.count != self.cap - step + 1:
            return f"a card taking the count to {self.cap + 1} leaves its player in"
        exact = self.resolve(
            rules.apply(self.position(filler, self.cap - step), Play(rules.tokens[filler]))
        )
        if exact.out[0]:
            return f"a card taking the count to exactly {self.cap} puts its player out"
        return None

    def empty_hand_out(self) -> str | None:
        """Seat 1, next to play, has no card: it is out and seat 2 plays."""
        rules, filler = self.rules, self.filler
        state = self.position(filler, self.floor)
        hands = list(state.hands)
        hands[1] = ()
        state.hands = tuple(hands)
        after = self.resolve(rules.apply(state, Play(rules.tokens[filler])))
        if not after.out[1] or after.seat != 2:
            return "a player who starts a turn with no card plays on"
        return None

    def plain_draw(self) -> str | None:
        rules, filler = self.rules, self.filler
        state = self.position(filler, self.floor)
        after = self.resolve(rules.apply(state, Play(rules.tokens[filler])))
        drew = len(state.draw_pile) - len(after.draw_pile)
        expected = rules._effects[filler].draw
        return None if drew == expected else f"a number card draws {drew}"
