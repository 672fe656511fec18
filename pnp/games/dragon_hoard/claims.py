"""What the Dragon Hoard kit prints, tied to the engine (pnp.validate.claims).

Every AI card prints its speed marker and one line per effect (``templates/dragon-hoard/
base.yaml``, macro ``ai_effect_text``), every action card its effect and phases, every treasure
with an active effect what it does; the character card, the round aid and the speed aid print
the rules a player looks up at the table. Each is a claim located where a reader would fix it
(the card in content/, else the template line) and played out on a position written in the
game's notation: a round at placement about to be resolved, or a seat in preparation.

A probe position holds no treasures on the map and an empty AI deck, so the round it plays is
the game's last: a pawn killed stays dead (no respawn blurs who died) and nothing is picked up
on the way. What the printed words mean is worked out here from the words (a strip reaches
the map's edge, a ring counts cells from the body), never from the model's own helpers the
engine uses, so a wrong helper is caught too.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from fractions import Fraction
from functools import partial
from pathlib import Path

from pnp.games.dragon_hoard.actions import PrepCard, UseTreasure, Walk
from pnp.games.dragon_hoard.model import (
    ActionCard,
    ActionKind,
    AICard,
    AIEffect,
    AIEffectKind,
    AreaShape,
    Cell,
    Direction,
    DragonHoard,
    Phase,
    Treasure,
    TreasureEffect,
)
from pnp.games.dragon_hoard.notation import FIELDS
from pnp.games.dragon_hoard.rules import DragonHoardRules
from pnp.games.dragon_hoard.state import DragonHoardState, Stage, Status
from pnp.validate.claims import Claim, template_line

TABLE = 4
"""Seats of the probe table: four pawns per position, and eight cards on the mat at most."""

_DIRECTION_NAMES = {"n": "北", "e": "东", "s": "南", "w": "西"}


def claims(model: DragonHoard, templates_root: Path) -> list[Claim]:
    """Every claim the kit prints: per AI card, action card and treasure, and the lines of
    the character card and the two aids."""
    players = [p for p in model.info.players if p <= TABLE] or [model.info.players.max]
    try:
        bench = Bench(model, max(players))
    except (ValueError, KeyError, IndexError):
        return []  # check_static reports content the engine cannot set up
    found: list[Claim] = []
    for ai in model.ai_cards:
        found += bench.ai_claims(ai)
    for card in model.action_cards:
        found += bench.action_claims(card)
    for treasure in model.treasures:
        found += bench.treasure_claims(treasure)
    found += bench.template_claims(templates_root, players)
    found += bench.round_aid_claims(templates_root)
    return found


def _cell(cell: Cell) -> str:
    return f"{cell[0]}.{cell[1]}"


class Bench:
    """The probe table and the positions the probes are played on."""

    def __init__(self, model: DragonHoard, players: int) -> None:
        self.model = model
        self.rules = DragonHoardRules(model, players)
        self.tables = {players: self.rules}
        lair = model.lair
        self.centre: Cell = (lair.centre[0], lair.centre[1])
        self.trap_cells = {(t.cell[0], t.cell[1]): t.colour for t in lair.traps}
        self.special = (
            set(self.trap_cells)
            | {(g.cell[0], g.cell[1]) for g in lair.gates}
            | {(e.cell[0], e.cell[1]) for e in lair.exits}
        )
        start = self.rules.initial_state(random.Random(0))
        self.base = dict(zip(FIELDS, self.rules.notation(start).split(" "), strict=True))
        self.quiet = self._quiet_cells()

    def table(self, players: int) -> DragonHoardRules:
        if players not in self.tables:
            self.tables[players] = DragonHoardRules(self.model, players)
        return self.tables[players]

    # -- positions --------------------------------------------------------------------------

    def body(self, dragon: Cell) -> set[Cell]:
        r = self.model.lair.dragon_radius
        return {
            (dragon[0] + dx, dragon[1] + dy) for dx in range(-r, r + 1) for dy in range(-r, r + 1)
        }

    def _quiet_cells(self) -> list[Cell]:
        """Cells where a pawn is safe from every card on the dragon's first round: outside
        every attack with the dragon anywhere in its domain, no trap, gate or exit, with two
        free cells north and south of it (where the speed probes walk)."""
        lair = self.model.lair
        danger: set[Cell] = set()
        for ai in self.model.ai_cards:
            for effect in ai.effects:
                if effect.area is not None:
                    danger |= self.printed_area(effect, self.centre)
        reach = lair.domain_radius + lair.dragon_radius
        cells = []
        for x in range(lair.columns):
            for y in range(2, lair.rows - 2):
                path = {(x, y + d) for d in (-1, 0, 1)}
                if path & (self.special | danger):
                    continue
                if max(abs(x - self.centre[0]), abs(y - self.centre[1])) <= reach:
                    continue
                cells.append((x, y))
        return cells

    def open_start(self, direction: Direction, steps: int) -> Cell:
        """A quiet-enough cell from which ``steps`` cells ``direction`` run over open ground
        (no trap, gate, exit or attack of the dragon on C, inside the map)."""
        lair = self.model.lair
        reach = lair.domain_radius + lair.dragon_radius
        dx, dy = direction.step
        for cell in self.quiet + [(x, y) for y in range(lair.rows) for x in range(lair.columns)]:
            path = [(cell[0] + dx * k, cell[1] + dy * k) for k in range(steps + 1)]
            if all(
                0 <= x < lair.columns
                and 0 <= y < lair.rows
                and (x, y) not in self.special
                and max(abs(x - self.centre[0]), abs(y - self.centre[1])) > reach
                for x, y in path
            ):
                return cell
        return self.quiet[0]

    def placement(
        self,
        rules: DragonHoardRules,
        current: str,
        pawns: dict[int, Cell | str],
        placed: Iterable[tuple[int, str]] = (),
        sideways: Iterable[int] = (),
        dragon: Cell | None = None,
        bags: dict[int, str] | None = None,
    ) -> DragonHoardState:
        """Round 1 at placement, ``current`` this round's AI card (the deck empty: the game's
        last round), seat 0 to act and about to stop, every other seat stopped; seats not in
        ``pawns`` stand on quiet cells."""
        spare = iter(c for c in self.quiet if c not in pawns.values())
        cells = [pawns[s] if s in pawns else next(spare) for s in range(rules.players)]
        placed = list(placed)
        down = set(sideways)
        fields = dict(self.base)
        fields.update(
            stage="place",
            actor="0",
            pawns="/".join(c if isinstance(c, str) else _cell(c) for c in cells),
            bags="/".join((bags or {}).get(s, "-") for s in range(rules.players)),
            used="/".join(
                ",".join(sorted(c for o, c in placed if o == s)) or "-"
                for s in range(rules.players)
            ),
            seats="/".join(
                "0" + ("s" if s in down else "") + ("x" if s else "") for s in range(rules.players)
            ),
            placed=",".join(f"{s}:{c}" for s, c in placed) or "-",
            deck="-",
            current=current,
            upcoming="-",
            floor="-",
            dragon=_cell(dragon or self.centre),
        )
        return rules.from_notation(" ".join(fields[name] for name in FIELDS))

    def preparation(
        self, pawn: Cell, bags: str = "-", rules: DragonHoardRules | None = None
    ) -> DragonHoardState:
        """Round 1 in preparation, seat 0 to act on ``pawn`` carrying ``bags``."""
        rules = rules or self.rules
        spare = iter(c for c in self.quiet if c != pawn)
        fields = dict(self.base)
        fields.update(
            pawns="/".join(_cell(pawn if s == 0 else next(spare)) for s in range(rules.players)),
            bags="/".join(bags if s == 0 else "-" for s in range(rules.players)),
            floor="-",
        )
        return rules.from_notation(" ".join(fields[name] for name in FIELDS))

    def resolve(
        self, rules: DragonHoardRules, state: DragonHoardState, walk: Callable[[int], int]
    ) -> tuple[DragonHoardState, int]:
        """Stop placing and play the round out, each move going ``walk(reach)`` cells; the end
        position and how many move cards were chosen before the AI card was executed."""
        state = rules.apply(state, rules.parse_action("stop"))
        before = 0
        while state.stage is Stage.RESOLUTION:
            walks = [a.steps for a in rules.legal_actions(state) if isinstance(a, Walk)]
            if state.current >= 0:
                before += 1
            state = rules.apply(state, Walk(walk(max(walks))))
        return state, before

    # -- what the printed words mean ---------------------------------------------------------

    def printed_area(self, effect: AIEffect, dragon: Cell) -> set[Cell]:
        """The cells the card's words name: a strip 「与龙身同宽、直到地图边缘」 on each printed
        side, or 「距龙身 N 格以内的所有格子」 (the body itself is under the dragon)."""
        area = effect.area
        if area is None:
            return set()
        lair = self.model.lair
        body = self.body(dragon)
        r = lair.dragon_radius
        cells: set[Cell] = set()
        for x in range(lair.columns):
            for y in range(lair.rows):
                dx, dy = x - dragon[0], y - dragon[1]
                if (x, y) in body:
                    continue
                if area.shape is AreaShape.STRIP:
                    sides = {d.value for d in area.directions}
                    if (
                        ("n" in sides and dy < -r and abs(dx) <= r)
                        or ("s" in sides and dy > r and abs(dx) <= r)
                        or ("w" in sides and dx < -r and abs(dy) <= r)
                        or ("e" in sides and dx > r and abs(dy) <= r)
                    ):
                        cells.add((x, y))
                elif max(abs(dx) - r, abs(dy) - r) <= area.radius:
                    cells.add((x, y))
        return cells

    def after_cards(self, symbol: str, cards: int, players: int) -> int:
        """How many player cards come before an AI card of speed ``symbol``, as the speed aid
        prints it: 0 first, ∞ last, N after N, ☆×N after the starting players × N (rounded as
        the aid says); never more than the cards there are."""
        if symbol == "0":
            return 0
        if symbol == "∞":
            return cards
        if symbol.startswith("☆"):
            factor = Fraction(symbol.partition("×")[2] or "1")
            return min(self.model.settings.star_rounding.apply(factor * players), cards)
        return min(int(symbol), cards)

    # -- AI cards ----------------------------------------------------------------------------

    def ai_claims(self, ai: AICard) -> list[Claim]:
        subject = f"AI card {ai.name!r}"
        found = [
            Claim(ai.where, subject, f"速度 {ai.speed}", partial(self.speed, ai, 2, TABLE)),
            Claim(ai.where, subject, f"速度 {ai.speed}", partial(self.speed, ai, 1, TABLE)),
        ]
        moved_before = False
        for number, effect in enumerate(ai.effects, 1):
            where = effect.where if effect.where.path else ai.where
            says = f"{number}. {self.effect_words(effect, ai)}"
            probe: Callable[[], str | None] | None = None
            if effect.kind is AIEffectKind.ATTACK and not moved_before:
                probe = partial(self.attack, ai, effect)
            elif effect.kind is AIEffectKind.ADVANCE and number == 1:
                probe = partial(self.advance, ai, effect)
            elif effect.kind is AIEffectKind.RETURN and number == 1:
                probe = partial(self.go_home, ai)
            elif effect.kind is AIEffectKind.TRAPS and not moved_before:
                probe = partial(self.traps, ai)
            if probe is not None:
                found.append(Claim(where, subject, says, probe))
            moved_before |= effect.kind is AIEffectKind.ADVANCE
        return found

    def effect_words(self, effect: AIEffect, ai: AICard) -> str:
        if effect.kind is AIEffectKind.ATTACK and effect.area is not None:
            if effect.area.shape is AreaShape.STRIP:
                sides = "、".join(_DIRECTION_NAMES[d.value] for d in effect.area.directions)
                return f"攻击巨龙{sides}侧与龙身同宽、直到地图边缘的格子：其中的棋子死亡。"
            return f"攻击距龙身 {effect.area.radius} 格以内的所有格子：其中的棋子死亡。"
        if effect.kind is AIEffectKind.ADVANCE:
            return f"巨龙朝最近的棋子移动 {effect.steps} 格（不离开龙之领域），践踏身下的棋子。"
        if effect.kind is AIEffectKind.RETURN:
            return "巨龙回到中心 C，践踏身下的棋子。"
        colour = self.model.trap_colour(ai.colour)
        return f"所有{colour.name if colour else ai.colour}色陷阱立即发动：站在上面的棋子死亡。"

    def speed(self, ai: AICard, per_seat: int, players: int) -> str | None:
        """The AI card resolves after as many player cards as its marker says: every seat
        places ``per_seat`` moves on quiet cells, each chosen before the AI card counted."""
        rules = self.table(players)
        quiet = self.quiet[: rules.players]
        if len(quiet) < rules.players:
            return None
        order = [Direction.N, Direction.S][:per_seat]
        placed = [(s, f"move-{d.value}") for d in order for s in range(rules.players)]
        if not all(f"move-{d.value}" in rules.card_ids for d in order):
            return None
        state = self.placement(rules, ai.id, dict(enumerate(quiet)), placed)
        _, before = self.resolve(rules, state, lambda reach: 1)
        wanted = self.after_cards(ai.speed, len(placed), players)
        if before != wanted:
            return (
                f"with {len(placed)} player cards at {players} players the engine executes it "
                f"after {before}, not {wanted}"
            )
        return None

    def attack(self, ai: AICard, effect: AIEffect) -> str | None:
        """Pawns on every cell of the lair but the body and the traps, the dragon on C: the
        printed cells die, the others live (four pawns a round)."""
        body = self.body(self.centre)
        printed = set()
        for other in ai.effects:
            if other.kind is AIEffectKind.ATTACK:
                printed |= self.printed_area(other, self.centre)
        lair = self.model.lair
        cells = [
            (x, y)
            for y in range(lair.rows)
            for x in range(lair.columns)
            if (x, y) not in body and (x, y) not in self.trap_cells
        ]
        wrong: list[str] = []
        for start in range(0, len(cells), self.rules.players):
            batch = cells[start : start + self.rules.players]
            pawns: dict[int, Cell | str] = dict(enumerate(batch))
            state = self.placement(self.rules, ai.id, pawns)
            end, _ = self.resolve(self.rules, state, lambda reach: reach)
            for seat, cell in enumerate(batch):
                dead = end.status[seat] is Status.DEAD
                if dead != (cell in printed):
                    wrong.append(f"{_cell(cell)} {'dies' if dead else 'lives'}")
        if wrong:
            return f"with the dragon on C a pawn on {', '.join(wrong[:4])}" + (
                f" (and {len(wrong) - 4} more)" if len(wrong) > 4 else ""
            )
        return None

    def advance(self, ai: AICard, effect: AIEffect) -> str | None:
        """Toward the only pawn in reach it moves the printed cells; at the domain's edge it
        stays; a pawn it steps onto is trampled."""
        lair = self.model.lair
        cx, cy = self.centre
        limit = lair.domain_radius - lair.dragon_radius
        far: Cell = (cx, 0)
        state = self.placement(self.rules, ai.id, {0: far})
        end, _ = self.resolve(self.rules, state, lambda reach: reach)
        wanted = (cx, cy - min(effect.steps, limit))
        if end.dragon != wanted:
            return (
                f"with the only near pawn on {_cell(far)} the dragon goes from "
                f"{_cell(self.centre)} to {_cell(end.dragon)}, not {_cell(wanted)}"
            )
        edge: Cell = (cx, cy - limit)
        end, _ = self.resolve(
            self.rules,
            self.placement(self.rules, ai.id, {0: far}, dragon=edge),
            lambda reach: reach,
        )
        if end.dragon != edge:
            return (
                f"from the domain's edge {_cell(edge)} the dragon goes on to "
                f"{_cell(end.dragon)}, out of the domain"
            )
        near: Cell = (cx, cy - lair.dragon_radius - 1)
        if near in self.trap_cells:
            return None
        end, _ = self.resolve(
            self.rules, self.placement(self.rules, ai.id, {0: near}), lambda reach: reach
        )
        if end.status[0] is not Status.DEAD:
            return f"a pawn on {_cell(near)} the dragon steps onto lives"
        return None

    def go_home(self, ai: AICard) -> str | None:
        """From off centre the dragon goes back to C and tramples a pawn under its body."""
        lair = self.model.lair
        cx, cy = self.centre
        away: Cell = (cx, cy - (lair.domain_radius - lair.dragon_radius))
        under: Cell = (cx, cy + lair.dragon_radius)
        state = self.placement(self.rules, ai.id, {0: under}, dragon=away)
        end, _ = self.resolve(self.rules, state, lambda reach: reach)
        if end.dragon != self.centre:
            return f"the dragon on {_cell(away)} ends on {_cell(end.dragon)}, not on C"
        if end.status[0] is not Status.DEAD:
            return f"a pawn on {_cell(under)}, under the returned dragon, lives"
        return None

    def traps(self, ai: AICard) -> str | None:
        """A pawn on a trap of the card's colour dies, one on a trap of another colour lives."""
        cx, cy = self.centre

        def far(colour_is_card: bool) -> Cell | None:
            cells = [
                c
                for c, colour in self.trap_cells.items()
                if (colour == ai.colour) is colour_is_card
            ]
            return max(cells, key=lambda c: (max(abs(c[0] - cx), abs(c[1] - cy)), c), default=None)

        own, other = far(True), far(False)
        if own is None:
            return None
        pawns: dict[int, Cell | str] = {0: own}
        if other is not None:
            pawns[1] = other
        end, _ = self.resolve(
            self.rules, self.placement(self.rules, ai.id, pawns), lambda reach: reach
        )
        if end.status[0] is not Status.DEAD:
            return f"a pawn on the {ai.colour} trap {_cell(own)} lives"
        if other is not None and end.status[1] is Status.DEAD:
            return f"a pawn on the trap {_cell(other)} of another colour dies"
        return None

    # -- action cards --------------------------------------------------------------------

    def action_claims(self, card: ActionCard) -> list[Claim]:
        subject = f"action card {card.name!r}"
        phases = " / ".join(
            {"preparation": "准备阶段打出", "placement": "放置阶段放置"}[p.value]
            for p in card.phases
        )
        found = [Claim(card.where, subject, phases, partial(self.phases, card))]
        words = self.action_words(card)
        probe = {
            ActionKind.MOVE: self.move,
            ActionKind.SPRINT: self.sprint,
            ActionKind.DODGE: self.dodge,
            ActionKind.GRAB: self.grab,
        }[card.kind]
        found.append(Claim(card.where, subject, words, partial(probe, card)))
        return found

    @staticmethod
    def action_words(card: ActionCard) -> str:
        if card.kind is ActionKind.MOVE and card.direction is not None:
            name = _DIRECTION_NAMES[card.direction.value]
            return f"向{name}最多走 {card.steps} 格（执行时自选格数）。"
        if card.kind is ActionKind.SPRINT:
            return f"向任意一个方向最多走 {card.steps} 格（打出时选方向和格数）。"
        if card.kind is ActionKind.DODGE:
            return "横置你的角色卡：本回合巨龙的攻击和践踏对你无效。"
        return "从同格或相邻格的另一名玩家袋中拿走价值最高的宝物（传家宝除外）。"

    def phases(self, card: ActionCard) -> str | None:
        """Offered in preparation exactly when printed so, placeable exactly when printed so."""
        cell = self.quiet[0]
        prep = self.preparation(cell)
        in_prep = any(
            isinstance(a, PrepCard) and a.card == card.id for a in self.rules.legal_actions(prep)
        )
        place = self.placement(self.rules, self.model.ai_cards[0].id, {0: cell})
        in_place = any(str(a) == f"place:{card.id}" for a in self.rules.legal_actions(place))
        printed = (Phase.PREPARATION in card.phases, Phase.PLACEMENT in card.phases)
        if (in_prep, in_place) != printed:
            return (
                f"the engine offers it in preparation: {'yes' if in_prep else 'no'}, "
                f"at placement: {'yes' if in_place else 'no'}"
            )
        return None

    def _safe_ai(self) -> str:
        """An AI card that harms nobody on a quiet cell: the card a probe of a player's card
        is played under (an empty round for the dragon)."""
        for ai in self.model.ai_cards:
            if all(e.kind is AIEffectKind.ATTACK for e in ai.effects):
                return ai.id
        return self.model.ai_cards[0].id

    def move(self, card: ActionCard) -> str | None:
        """On open ground the owner chooses 1 to the printed cells, and goes that far that way."""
        if card.direction is None:
            return None
        start = self.open_start(card.direction, card.steps)
        state = self.placement(self.rules, self._safe_ai(), {0: start}, [(0, card.id)])
        paused = self.rules.apply(state, self.rules.parse_action("stop"))
        reach = sorted(a.steps for a in self.rules.legal_actions(paused) if isinstance(a, Walk))
        wanted = list(range(1, card.steps + 1))
        if card.steps > 1 and reach != wanted:
            return f"on open ground the engine offers walks of {reach} cells, not {wanted}"
        end, _ = self.resolve(self.rules, state, lambda most: most)
        dx, dy = card.direction.step
        goal = (start[0] + dx * card.steps, start[1] + dy * card.steps)
        if end.pawns[0] != goal:
            ended = _cell(end.pawns[0] or start)
            return f"from {_cell(start)} the pawn ends on {ended}, not {_cell(goal)}"
        return None

    def sprint(self, card: ActionCard) -> str | None:
        """Played in preparation, any of the four directions, the printed cells at most."""
        start = self.open_start(Direction.N, card.steps)
        prep = self.preparation(start)
        offered = {
            (a.direction, a.steps)
            for a in self.rules.legal_actions(prep)
            if isinstance(a, PrepCard) and a.card == card.id
        }
        directions = {d for d, _ in offered}
        if directions != set(Direction):
            names = sorted(d.value for d in directions if d is not None)
            return f"the engine offers the directions {names}, not all four"
        for direction in Direction:
            steps = card.steps if card.steps > 1 else None
            if (direction, steps) not in offered:
                return f"the engine does not offer {card.steps} cells {direction.value}"
        end = self.rules.apply(
            prep, PrepCard(card.id, Direction.N, card.steps if card.steps > 1 else None)
        )
        goal = (start[0], start[1] - card.steps)
        if end.pawns[0] != goal:
            return f"sprinting north from {_cell(start)} ends on {_cell(end.pawns[0] or start)}"
        return None

    def dodge(self, card: ActionCard) -> str | None:
        """Played, the character card is sideways; sideways, an attack and a trampling miss."""
        return self._sideways(lambda prep: self.rules.apply(prep, PrepCard(card.id)))

    def _sideways(self, use: Callable[[DragonHoardState], DragonHoardState]) -> str | None:
        prep = self.preparation(self.quiet[0])
        if not use(prep).sideways[0]:
            return "the character card stays upright"
        attack = next(
            (
                (ai, e)
                for ai in self.model.ai_cards
                for e in ai.effects
                if e.kind is AIEffectKind.ATTACK and ai.effects[0] is e
            ),
            None,
        )
        if attack is not None:
            ai, effect = attack
            hit = sorted(self.printed_area(effect, self.centre) - set(self.trap_cells))
            if hit:
                state = self.placement(self.rules, ai.id, {0: hit[0]}, sideways=[0])
                end, _ = self.resolve(self.rules, state, lambda reach: reach)
                if end.status[0] is Status.DEAD:
                    return f"a sideways pawn on {_cell(hit[0])} dies to {ai.name}"
                if end.sideways[0]:
                    return "the character card is still sideways after the round"
        home = next(
            (ai for ai in self.model.ai_cards if ai.effects[0].kind is AIEffectKind.RETURN), None
        )
        if home is not None:
            lair = self.model.lair
            cx, cy = self.centre
            under: Cell = (cx, cy + lair.dragon_radius)
            away: Cell = (cx, cy - (lair.domain_radius - lair.dragon_radius))
            state = self.placement(self.rules, home.id, {0: under}, sideways=[0], dragon=away)
            end, _ = self.resolve(self.rules, state, lambda reach: reach)
            if end.status[0] is Status.DEAD:
                return f"a sideways pawn the dragon returns onto is trampled ({home.name})"
        return None

    def grab(self, card: ActionCard) -> str | None:
        """Next to a pawn carrying an heirloom and two treasures, the most valuable of the bag
        moves to the grabber; the heirloom stays."""
        by_value = sorted(
            (t for t in self.model.treasures if not t.heart), key=lambda t: t.value, reverse=True
        )
        if len(by_value) < 3 or by_value[0].value == by_value[2].value:
            return None
        best, middle, low = by_value[0], by_value[1], by_value[-1]
        if middle.value == low.value:
            return None
        start = self.quiet[0]
        beside = (start[0], start[1] + 1)
        bags = {1: f"^{best.id},{middle.id},{low.id}"}
        state = self.placement(
            self.rules, self._safe_ai(), {0: start, 1: beside}, [(0, card.id)], bags=bags
        )
        end, _ = self.resolve(self.rules, state, lambda reach: reach)
        got = [self.rules.treasure_ids[t] for t in end.bags[0]]
        if got != [middle.id]:
            return (
                f"next to a bag of {middle.id} and {low.id} (heirloom {best.id}) the grabber "
                f"takes {got or 'nothing'}"
            )
        return None

    # -- treasures -----------------------------------------------------------------------

    def treasure_claims(self, treasure: Treasure) -> list[Claim]:
        subject = f"treasure {treasure.name!r}"
        found = [Claim(treasure.where, subject, f"{treasure.value}", partial(self.value, treasure))]
        if treasure.effect is TreasureEffect.TELEPORT:
            says = "准备阶段弃掉：传送到任意 A 或 B 传送门（持有龙之心时不可用）。"
            found.append(Claim(treasure.where, subject, says, partial(self.teleport, treasure)))
        elif treasure.effect is TreasureEffect.DODGE:
            says = "准备阶段弃掉：横置你的角色卡，本回合闪避。"
            found.append(
                Claim(
                    treasure.where,
                    subject,
                    says,
                    partial(self._sideways, lambda prep: self._use(prep, treasure)),
                )
            )
        return found

    def _use(self, prep: DragonHoardState, treasure: Treasure) -> DragonHoardState:
        fields = self.rules.notation(prep).split(" ")
        fields[FIELDS.index("bags")] = "/".join(
            treasure.id if s == 0 else "-" for s in range(self.rules.players)
        )
        state = self.rules.from_notation(" ".join(fields))
        return self.rules.apply(state, UseTreasure(treasure.id))

    def value(self, treasure: Treasure) -> str | None:
        """A player who left the lair with it alone scores the printed value."""
        fields = dict(self.base)
        fields.update(
            stage="over",
            actor="-",
            pawns="/".join("left" if s == 0 else "quit" for s in range(self.rules.players)),
            bags="/".join(treasure.id if s == 0 else "-" for s in range(self.rules.players)),
            floor="-",
            left="0",
        )
        try:
            state = self.rules.from_notation(" ".join(fields[name] for name in FIELDS))
        except ValueError:
            return None  # the one treasure of its kind is on the map in the base position
        score = self.rules.scores(state)[0]
        if score != treasure.value:
            return f"a player who left with it alone scores {score}"
        return None

    def teleport(self, treasure: Treasure) -> str | None:
        """In preparation, to each A and B gate, the token then out of the game; never while
        the carrier holds the Dragon Heart."""
        gates = {
            g.id: (g.cell[0], g.cell[1]) for g in self.model.lair.gates if g.type.value in "ab"
        }
        prep = self.preparation(self.quiet[0], treasure.id)
        offered = {
            a.gate
            for a in self.rules.legal_actions(prep)
            if isinstance(a, UseTreasure) and a.treasure == treasure.id
        }
        if offered != set(gates):
            listed = sorted(g or "-" for g in offered)
            return f"the engine offers the gates {listed}, not {sorted(gates)}"
        gate = sorted(gates)[0]
        end = self.rules.apply(prep, UseTreasure(treasure.id, gate))
        if end.pawns[0] != gates[gate]:
            return f"using it for {gate} puts the pawn on {_cell(end.pawns[0] or self.quiet[0])}"
        if self.rules.treasure_ids.index(treasure.id) in end.bags[0]:
            return "the token stays in the bag once used"
        heart = self.model.heart
        if heart is not None:
            both = self.preparation(self.quiet[0], f"{heart.id},{treasure.id}")
            if any(
                isinstance(a, UseTreasure) and a.treasure == treasure.id
                for a in self.rules.legal_actions(both)
            ):
                return f"the engine offers it to a carrier of {heart.name}"
        return None

    # -- the character card and the aids -------------------------------------------------

    def template_claims(self, templates_root: Path, players: list[int]) -> list[Claim]:
        found: list[Claim] = []
        character = "dragon-hoard/character-card.yaml"
        says = "**横置** = 本回合闪避巨龙的攻击与践踏；整理阶段竖置。"
        found.append(
            Claim(
                template_line(templates_root, character, "横置"),
                "the character card",
                says,
                partial(self._sideways, lambda prep: self._straight_then(prep)),
            )
        )
        aid = "dragon-hoard/speed-aid.yaml"
        star = next((ai for ai in self.model.ai_cards if ai.speed.startswith("☆")), None)
        for n in self.model.star_multipliers:
            card = next(
                (ai for ai in self.model.ai_cards if ai.speed == self.model.star_symbol(n)), star
            )
            if card is None:
                continue
            for p in players:
                says = f"{p} 人 {self.model.star_symbol(n)}: {self.model.star_cards(n, p)} 张"
                found.append(
                    Claim(
                        template_line(templates_root, aid, "star_cards"),
                        "the speed aid's table",
                        says,
                        partial(self.star_row, card, n, p),
                    )
                )
        cancelled = next(
            (ai for ai in self.model.ai_cards if ai.speed.isdigit() and ai.speed != "0"), None
        )
        if cancelled is not None:
            found.append(
                Claim(
                    template_line(templates_root, aid, "被取消的牌也计数"),
                    "the speed aid",
                    "被取消的牌也计数",
                    partial(self.cancelled_count, cancelled),
                )
            )
        return found

    def round_aid_claims(self, templates_root: Path) -> list[Claim]:
        aid = "dragon-hoard/round-aid.yaml"
        s = self.model.settings
        found = [
            Claim(
                template_line(templates_root, aid, "只有离开宝窟的玩家计分"),
                "the round aid",
                "只有离开宝窟的玩家计分，宝物总价值最高者胜；同分先离开者胜",
                self.scoring,
            ),
            Claim(
                template_line(templates_root, aid, "recall_limit"),
                "the round aid",
                f"第 {s.recall_limit} 次抽到归位牌（结束倒计时）",
                self.recall_countdown,
            ),
            Claim(
                template_line(templates_root, aid, "cards_per_round"),
                "the round aid",
                f"每人最多 {s.cards_per_round} 张，超出的结算前移除",
                self.card_limit,
            ),
        ]
        heart = self.model.heart
        if heart is not None:
            found.append(
                Claim(
                    heart.where,
                    f"treasure {heart.name!r}",
                    heart.text or "龙之心被带出龙之领域（结束倒计时）",
                    self.heart_out,
                )
            )
        return found

    def _ending(self, **fields: str) -> DragonHoardState:
        """A position of the probe table with ``fields`` of the notation changed."""
        base = dict(self.base)
        base.update(fields)
        return self.rules.from_notation(" ".join(base[name] for name in FIELDS))

    def scoring(self) -> str | None:
        """Seats 0 and 1 left with treasures of equal value, 0 first; seat 2, still in the
        lair, carries more: seat 2 scores nothing, seat 0 wins the tie."""
        rules = self.rules
        if rules.players < 3:
            return None
        ranked = sorted((t for t in self.model.treasures if not t.heart), key=lambda t: t.value)
        low, high = ranked[0], ranked[-1]
        pawns = ["left", "left", _cell(self.quiet[0])] + ["quit"] * (rules.players - 3)
        state = self._ending(
            stage="over",
            actor="-",
            pawns="/".join(pawns),
            bags="/".join([low.id, low.id, high.id] + ["-"] * (rules.players - 3)),
            floor="-",
            left="0,1",
        )
        scores = rules.scores(state)
        if scores[2] != 0:
            return f"a player still in the lair scores {scores[2]}"
        if scores[0] != low.value or scores[1] != low.value:
            return f"two players who left with {low.id} score {scores[0]} and {scores[1]}"
        if rules.winner(state) != 0:
            return f"of two tied players the one who left second (seat {rules.winner(state)}) wins"
        return None

    def _countdown_after(self, state: DragonHoardState) -> bool:
        end, _ = self.resolve(self.rules, state, lambda reach: reach)
        return end.countdown

    def _harmless(self, cells: Iterable[Cell]) -> str:
        """An attack-only AI card that hits none of ``cells`` with the dragon on C."""
        wanted = set(cells)
        for ai in self.model.ai_cards:
            if all(e.kind is AIEffectKind.ATTACK for e in ai.effects) and not any(
                self.printed_area(e, self.centre) & wanted for e in ai.effects
            ):
                return ai.id
        return self._safe_ai()

    def recall_countdown(self) -> str | None:
        """Once the recall cards drawn reach the limit, the countdown is on at the round's
        end; one short of it, it is not."""
        limit = self.model.settings.recall_limit
        ai = self._harmless(self.quiet[: self.rules.players])
        for drawn in (limit - 1, limit):
            state = self.placement(self.rules, ai, {})
            fields = self.rules.notation(state).split(" ")
            fields[FIELDS.index("recalls")] = str(drawn)
            state = self.rules.from_notation(" ".join(fields))
            if self._countdown_after(state) != (drawn >= limit):
                on = "on" if drawn < limit else "off"
                return f"with {drawn} recall cards drawn the countdown is {on} after the round"
        return None

    def card_limit(self) -> str | None:
        """A card over a seat's limit neither resolves nor counts for the speed."""
        limit = self.model.settings.cards_per_round
        moves = [c.id for c in self.model.action_cards if c.kind is ActionKind.MOVE]
        if len(moves) <= limit:
            return None
        start = self.quiet[0]
        ai = self._harmless([start])
        extra = moves[limit]
        placed = [(0, card) for card in moves[: limit + 1]]
        state = self.placement(self.rules, ai, {0: start}, placed)
        cards = {c.id: c for c in self.model.action_cards}
        after_limit, _ = self.resolve(self.rules, state, lambda reach: 1)
        x, y = start
        for card in moves[:limit]:
            direction = cards[card].direction
            assert direction is not None
            x, y = x + direction.step[0], y + direction.step[1]
        if after_limit.pawns[0] != (x, y):
            where = _cell(after_limit.pawns[0] or start)
            return (
                f"with {limit + 1} cards placed by one player the pawn ends on {where}, as if "
                f"{extra} resolved"
            )
        return None

    def heart_out(self) -> str | None:
        """Carried out of the domain the Heart starts the countdown; the same walk without
        it does not."""
        heart = self.model.heart
        assert heart is not None
        lair = self.model.lair
        cx, cy = self.centre
        start = (cx - 1, cy + lair.domain_radius)
        path = [start, (start[0], start[1] + 1), (start[0], start[1] + 2)]
        if any(c in self.special for c in path):
            return None
        ai = self._harmless(path)
        move = next(
            (
                c
                for c in self.model.action_cards
                if c.kind is ActionKind.MOVE and c.direction is Direction.S
            ),
            None,
        )
        if move is None:
            return None
        for carried in (True, False):
            state = self.placement(
                self.rules,
                ai,
                {0: start},
                [(0, move.id)],
                bags={0: heart.id} if carried else None,
            )
            if self._countdown_after(state) != carried:
                with_it, left = ("with", "off") if carried else ("without", "on")
                return (
                    f"a player walking out of the domain {with_it} it leaves the countdown {left}"
                )
        return None

    def _straight_then(self, prep: DragonHoardState) -> DragonHoardState:
        dodge = next((c for c in self.model.action_cards if c.kind is ActionKind.DODGE), None)
        if dodge is None:
            fields = self.rules.notation(prep).split(" ")
            seats = fields[FIELDS.index("seats")].split("/")
            fields[FIELDS.index("seats")] = "/".join(["0s", *seats[1:]])
            return self.rules.from_notation(" ".join(fields))
        return self.rules.apply(prep, PrepCard(dodge.id))

    def star_row(self, card: AICard, n: Fraction, players: int) -> str | None:
        """The table's cell: at ``players`` players a ☆×n card comes after that many cards."""
        rules = self.table(players)
        quiet = self.quiet[: rules.players]
        placed = [(s, f"move-{d}") for d in "ns" for s in range(rules.players)]
        state = self.placement(rules, card.id, dict(enumerate(quiet)), placed)
        _, before = self.resolve(rules, state, lambda reach: 1)
        wanted = min(self.model.star_cards(n, players), len(placed))
        if card.speed != self.model.star_symbol(n):
            return None  # no card prints this multiplier: the row is read for ☆ cards alone
        if before != wanted:
            return f"the engine executes {card.name} after {before} of {len(placed)} cards"
        return None

    def cancelled_count(self, card: AICard) -> str | None:
        """A dead seat's cards still count toward the speed."""
        n = int(card.speed)
        rules = self.rules
        quiet = self.quiet[: rules.players]
        pawns: dict[int, Cell | str] = dict(enumerate(quiet))
        pawns[1] = "dead"
        dead_cards = [(1, f"move-{d}") for d in "ns"][:n]
        placed = [*dead_cards, (0, "move-n"), (0, "move-s")]
        state = self.placement(rules, card.id, pawns, placed)
        _, before = self.resolve(rules, state, lambda reach: 1)
        wanted = max(0, self.after_cards(card.speed, len(placed), rules.players) - len(dead_cards))
        if before != wanted:
            return (
                f"after a dead player's {len(dead_cards)} cards, {card.name} (speed {n}) waits "
                f"for {before} more, not {wanted}"
            )
        return None
