"""The table a MineVenture game plays on: its map and card table, the numbers derived from a
seat's cards and buffs, the card piles, damage, healing, buffs and deaths.

`Board` holds no turn flow; `CombatRules` (combat.py) and `MineventureRules` (rules.py) build on it.
"""

from __future__ import annotations

import weakref
from collections.abc import Collection
from typing import Any, NamedTuple

from pnp.engines.piles import with_card as _insert
from pnp.engines.piles import without as _remove
from pnp.games.mineventure.model import (
    Card,
    DamageType,
    Effect,
    EffectKind,
    Equipment,
    Event,
    Food,
    Item,
    ItemKind,
    Mineventure,
    Partner,
    Rounding,
    Slot,
    Target,
    Terrain,
    Timing,
    Trait,
)
from pnp.games.mineventure.state import (
    DIRECTIONS,
    DRAGON,
    PERPENDICULAR,
    SLUG,
    Act,
    MineventureState,
    Mode,
    Player,
    Termination,
    copy_player,
)

IMPLEMENTED = frozenset(EffectKind)
"""Every effect kind of the model has a handler here (the validator checks content uses all)."""

_MEMO_SIZE = 1 << 12
"""Entries a memo of derived numbers holds before it is emptied."""


class _Fx(NamedTuple):
    """A seat's effects per kind (see `Board._fx`), and the bonuses read on every step."""

    bonus: dict[EffectKind, int]
    """Kind -> the summed amounts of the seat's effects of that kind."""
    first: dict[EffectKind, Effect]
    """Kind -> the seat's first effect of that kind (character, partner, buff slots)."""
    glow: int
    pack: int
    regeneration: int
    poison: int
    stride: int
    daily_heal: int
    """What the seat heals when a day begins: 0 when starving, else the day's heal and nursing."""


_Pattern = tuple[
    dict[tuple[int, int], int],
    list[tuple[int, int, int, list[tuple[dict[tuple[int, int], int], int, Act]]]],
]
"""The moves of one first direction (see `_MapMoves._pattern`)."""

_LASTING = 1 << 30
"""Rounds left of a lasting buff (0 in the state) when buffs are compared."""

_NO_LAST_DAY = 1 << 62
"""The final day of a table that does not play the last-day variant: never reached."""


class _MapMoves:
    """The moves of one map, found as play reaches them and shared by every table of the map
    (they depend on its cells alone)."""

    __slots__ = ("_battles", "_ends", "_index", "_patterns", "_shapes", "plain", "runs", "walks")

    def __init__(self, cells: Collection[tuple[int, int]]) -> None:
        self.walks: dict[
            tuple[int, int, int], tuple[tuple[Act, tuple[tuple[int, int], ...]], ...]
        ] = {}
        """(x, y, steps) -> every plain move with the cells it passes."""
        self.plain: dict[tuple[int, int, int], tuple[Act, ...]] = {}
        """(x, y, steps) -> the plain moves, as `walks` lists them."""
        self._patterns: dict[int, list[_Pattern]] = {}
        self._shapes: dict[str, tuple[str, int, str, int, int, int, int, int]] = {}
        self._index: dict[tuple[int, int, int], dict[str, int]] = {}
        self._ends: dict[tuple[int, int, int], tuple[tuple[int, int], ...]] = {}
        self._battles: dict[tuple[str, str], Act] = {}
        self.runs: dict[str, dict[tuple[int, int], int]] = {}
        """Direction -> cell -> how many cells of the map follow it in a row that way."""
        for direction, (dx, dy) in DIRECTIONS.items():
            run: dict[tuple[int, int], int] = {}
            # Cells furthest that way first, so the next cell's run is known.
            for x, y in sorted(cells, key=lambda c: -(c[0] * dx + c[1] * dy)):
                run[(x, y)] = run.get((x + dx, y + dy), -1) + 1
            self.runs[direction] = run

    def _pattern(self, steps: int) -> list[_Pattern]:
        """Every move of `steps` cells wherever it starts, in the order of `walks`: per first
        direction, its run and step, then per first run (longest first) its length, the
        corner's offset and the turns (run of the second direction, its length, the action)."""
        found = self._patterns.get(steps)
        if found is None:
            found = []
            for first, (dx, dy) in DIRECTIONS.items():
                legs: list[tuple[int, int, int, list[tuple[dict[tuple[int, int], int], int, Act]]]]
                legs = []
                for n1 in range(steps, 0, -1):
                    n2 = steps - n1
                    seconds = PERPENDICULAR[first] if n2 else (first,)
                    turns = [
                        (self.runs[second], n2, Act("move", f"{first}{n1}{second}{n2}"))
                        if n2
                        else (self.runs[first], 0, Act("move", f"{first}{n1}"))
                        for second in seconds
                    ]
                    legs.append((n1, dx * n1, dy * n1, turns))
                found.append((self.runs[first], legs))
            self._patterns[steps] = found
        return found

    def plain_moves(self, x: int, y: int, steps: int) -> tuple[Act, ...]:
        """Every plain move of ``steps`` cells from (x, y), in the order of
        ``MineventureRules.walks`` (decision movement)."""
        key = (x, y, steps)
        found = self.plain.get(key)
        if found is not None:
            return found
        acts: list[Act] = []
        start = (x, y)
        for run, legs in self._pattern(steps):
            longest = run[start]
            for n1, cx, cy, turns in legs:
                if n1 > longest:
                    continue  # the move may not leave the map
                corner = (x + cx, y + cy)
                for second, n2, act in turns:
                    if not n2 or second[corner] >= n2:
                        acts.append(act)
        self.plain[key] = found = tuple(acts)
        return found

    def plain_ends(self, x: int, y: int, steps: int) -> tuple[tuple[int, int], ...]:
        """Where each of `plain_moves(x, y, steps)` ends (kept: policies ask again)."""
        key = (x, y, steps)
        found = self._ends.get(key)
        if found is None:
            found = tuple(self.landing(x, y, act.a) for act in self.plain_moves(x, y, steps))
            self._ends[key] = found
        return found

    def landing(self, x: int, y: int, code: str) -> tuple[int, int]:
        """Where the move ``code`` from (x, y) ends; ValueError if it leaves the map."""
        shape = self._shapes.get(code)
        if shape is None:
            first, rest = code[:1], code[1:]
            digits = len(rest) - len(rest.lstrip("0123456789"))
            second, n2 = (rest[digits], int(rest[digits + 1 :])) if rest[digits:] else (first, 0)
            n1 = int(rest[:digits])
            (dx, dy), (ex, ey) = DIRECTIONS[first], DIRECTIONS[second]
            shape = (first, n1, second, n2, dx * n1, dy * n1, dx * n1 + ex * n2, dy * n1 + ey * n2)
            self._shapes[code] = shape
        first, n1, second, n2, cx, cy, ox, oy = shape
        runs = self.runs
        if runs[first][(x, y)] < n1 or (n2 and runs[second][(x + cx, y + cy)] < n2):
            raise ValueError(f"move {code!r} from {(x, y)} leaves the map")
        return (x + ox, y + oy)

    def index(self, x: int, y: int, steps: int) -> dict[str, int]:
        """Move code -> its place among `plain_moves(x, y, steps)`."""
        key = (x, y, steps)
        found = self._index.get(key)
        if found is None:
            acts = self.plain_moves(x, y, steps)
            found = self._index[key] = {act.a: i for i, act in enumerate(acts)}
        return found

    def battle(self, code: str, target: str) -> Act:
        """The move `code` stopped by a battle with `target` (a seat or 'dragon') on the way."""
        act = self._battles.get((code, target))
        if act is None:
            act = self._battles[(code, target)] = Act("move", code, target)
        return act


_MAPS: dict[tuple[int, str], tuple[weakref.ref[Mineventure], _MapMoves]] = {}


def _map_moves(model: Mineventure, assembly: str, cells: Collection[tuple[int, int]]) -> _MapMoves:
    """The moves of a map of `model`, shared while the model lives."""
    key = (id(model), assembly)
    found = _MAPS.get(key)
    if found is not None and found[0]() is model:
        return found[1]
    moves = _MapMoves(cells)
    _MAPS[key] = (weakref.ref(model, lambda _: _MAPS.pop(key, None)), moves)
    return moves


def halved(amount: int, rounding: Rounding | None) -> int:
    """Halve with the card's rounding mark: ↑ rounds up, ↓ rounds down."""
    return (amount + 1) // 2 if rounding is Rounding.UP else amount // 2


class Board:
    """One table's map, cards and the rules every phase shares."""

    slug = SLUG

    def __init__(
        self,
        model: Mineventure,
        players: int,
        mode: Mode | str | None = None,
        last_day: bool = False,
    ) -> None:
        """A table of `players` on the map `mode`; `last_day` plays the optional variant that
        ends the game when day ``settings.final_day`` begins (decision final-day): the post
        has no last day, so it is off unless a table agrees to it."""
        self.model = model
        self.players = players
        self.last_day = last_day
        s = model.settings
        self.settings = s
        if players not in model.info.players:
            raise ValueError(f"{SLUG} plays with {model.info.players} players, not {players}")
        if mode is None:
            candidates = [a for a in model.assemblies if players in a.players]
            if not candidates:
                raise ValueError(f"no map is for {players} players")
            assembly = candidates[0]
        else:
            wanted = mode.value if isinstance(mode, Mode) else mode
            found = [a for a in model.assemblies if a.id == wanted]
            if not found:
                raise ValueError(f"no map {wanted!r}")
            assembly = found[0]
            if players not in assembly.players:
                raise ValueError(f"map {assembly.id} is for {assembly.players} players")
        self.assembly = assembly
        self.size = assembly.size
        self.terrain: dict[tuple[int, int], Terrain] = {
            (x, y): t for x, y, t in model.assembly_cells(assembly)
        }
        self.spawns = tuple(model.assembly_spawns(assembly))
        dragons = model.assembly_dragons(assembly)
        if len(dragons) != 1:
            raise ValueError(f"map {assembly.id} has {len(dragons)} dragons, needs 1")
        self.dragon_at = dragons[0]
        if len(self.spawns) < players:
            raise ValueError(f"map {assembly.id} has {len(self.spawns)} spawn points")
        if s.max_hp % s.hp_per_heart:
            raise ValueError(f"max_hp {s.max_hp} is not a whole number of hearts")
        if s.kill_equipment not in (0, 1):
            raise ValueError("a killer takes 0 or 1 equipment card")
        if s.rounds_per_day < 1:
            raise ValueError("a day needs at least one round")
        if len(model.characters) < players:
            raise ValueError(f"{len(model.characters)} characters cannot seat {players}")

        # The card table: every card of every deck; a card's token is its id.
        self.decks = [deck.id for deck in model.decks]
        self.deck_index = {deck_id: i for i, deck_id in enumerate(self.decks)}
        self.cards: list[Card] = []
        self.card_deck: list[int] = []
        start: list[list[int]] = [[] for _ in self.decks]
        for collection in (model.equipment, model.partners, model.events, model.items, model.food):
            for card in collection:
                deck_id = model.deck_of(card)
                if deck_id not in self.deck_index:
                    raise ValueError(f"card {card.id!r} belongs to unknown deck {deck_id!r}")
                code = len(self.cards)
                self.cards.append(card)
                self.card_deck.append(self.deck_index[deck_id])
                start[self.deck_index[deck_id]].extend([code] * card.copies)
        self.tokens = [card.id for card in self.cards]
        # Chance outcomes as shared objects: a die face, a card drawn.
        self._draw_acts = [Act("draw", token) for token in self.tokens]
        self._die_acts = [Act("die", str(n)) for n in range(1, s.die_sides + 1)]
        self._die_by_text = {act.a: act for act in self._die_acts}
        self.by_token = {token: code for code, token in enumerate(self.tokens)}
        if len(self.by_token) != len(self.tokens):
            raise ValueError("card ids are not unique across the decks")
        self._start = tuple((tuple(sorted(cards)), (), ()) for cards in start)
        self._dealt = sorted(code for cards in start for code in cards)
        """Every card of the game, sorted (what `invariant_problems` compares with)."""
        for deck_id, need in (("equipment", s.opening_equipment), ("item", s.opening_items)):
            if deck_id not in self.deck_index:
                raise ValueError(f"setup draws from deck {deck_id!r}, which does not exist")
            if len(start[self.deck_index[deck_id]]) < need * players:
                raise ValueError(f"deck {deck_id!r} cannot deal {need} to {players} players")
        self.buffs = list(model.buffs)
        self.buff_index = {buff.id: i for i, buff in enumerate(model.buffs)}
        self.slots = [tuple(slot.accepts) for slot in model.buff_slots]
        self.legendary = self.deck_index.get("legendary", -1)
        # Per card code: a weapon's damage and range (0 for other cards), and the range and
        # damage an enchant book adds (0 for other cards).
        self._damage = [c.damage if isinstance(c, Equipment) else 0 for c in self.cards]
        self._range = [c.range if isinstance(c, Equipment) else 0 for c in self.cards]
        self._extend = [
            c.effect.amount
            if isinstance(c, Item) and c.effect.kind is EffectKind.EXTEND_RANGE
            else 0
            for c in self.cards
        ]
        self._sharpen = [
            c.effect.amount if isinstance(c, Item) and c.effect.kind is EffectKind.SHARPEN else 0
            for c in self.cards
        ]
        # Per hand card code, what `playable` reads: (timing, food, map icon, the weapon kind
        # of an enchant book (else None), repair, aimed at another player); None for others.
        self._hand_rules: list[tuple[Timing, bool, str, str | None, bool, bool] | None] = [
            None
            if not isinstance(c, (Item, Food))
            else (c.timing, True, "", None, False, False)
            if isinstance(c, Food)
            else (
                c.timing,
                False,
                c.icon,
                c.weapon_kind if c.kind is ItemKind.ENCHANT else None,
                c.effect.kind is EffectKind.REPAIR,
                c.effect.target is Target.OTHER,
            )
            for c in self.cards
        ]
        self._weapon_kind = [
            c.weapon_kind if isinstance(c, Equipment) else None for c in self.cards
        ]
        self._play_acts: dict[tuple[int, str], Act] = {}
        """(card, argument) -> the action playing it, one object for every position."""
        self._seat_args = [str(seat) for seat in range(players)]
        # What `playable` answers in the decision phase, as per-card tables `_decisions` reads
        # (None where a card is not of that sort; a card of none of them asks `playable`):
        # the plays of a card that depend on the card alone (food, plain items, in-hand cards);
        self._fixed_plays: list[tuple[Act, ...] | None] = []
        # a card aimed at another player: its play per target seat;
        self._aimed_plays: list[list[Act] | None] = []
        # an enchant book: its weapon kind and its plays under the main and the sub weapon;
        self._book_plays: list[tuple[str, Act, Act] | None] = []
        # a card played on a map icon: the icon and its play.
        self._icon_plays: list[tuple[str, Act] | None] = []
        for code, rule in enumerate(self._hand_rules):
            fixed: tuple[Act, ...] | None = None
            aimed: list[Act] | None = None
            book: tuple[str, Act, Act] | None = None
            icon: tuple[str, Act] | None = None
            if rule is not None:
                timing, food, on_icon, weapon_kind, repair, other = rule
                if timing is Timing.IN_HAND:
                    fixed = ()
                elif food or not (on_icon or weapon_kind is not None or repair or other):
                    fixed = (self.play_act("play", code, ""),)
                elif other and not (on_icon or weapon_kind is not None or repair):
                    aimed = [self.play_act("play", code, arg) for arg in self._seat_args]
                elif weapon_kind is not None and not (on_icon or repair or other):
                    main, sub = (self.play_act("play", code, slot) for slot in ("main", "sub"))
                    book = (weapon_kind, main, sub)
                elif on_icon and not (weapon_kind is not None or repair or other):
                    icon = (on_icon, self.play_act("play", code, ""))
            self._fixed_plays.append(fixed)
            self._aimed_plays.append(aimed)
            self._book_plays.append(book)
            self._icon_plays.append(icon)
        self._icons = {cell: terrain.icon for cell, terrain in self.terrain.items()}
        # Per card code: a field card (equipment, partner, event; it goes back to its deck's
        # bottom) or a hand card (item, food).
        self._field = [isinstance(c, (Equipment, Partner, Event)) for c in self.cards]
        self._in_hand = [isinstance(c, (Item, Food)) for c in self.cards]
        # The day that ends the game, past any a game reaches when the variant is off.
        self._final_day = s.final_day if last_day else _NO_LAST_DAY
        self._hand_limit = s.hand_limit
        self._overworld_cells = {cell: bool(t.overworld) for cell, t in self.terrain.items()}
        # The most a seat can glow: its character's, a partner's and a buff in every slot.
        glows = [
            [e.amount for e in effects if e.kind is EffectKind.GLOWING] or [0]
            for effects in (
                [c.ability for c in model.characters],
                [c.effect for c in model.partners],
                [b.effect for b in model.buffs],
            )
        ]
        self._glow_bound = (
            max(0, *glows[0]) + max(0, *glows[1]) + len(self.slots) * max(0, *glows[2])
        )
        # And the least (a negative glow hides a seat).
        self._glow_floor = (
            min(0, *glows[0]) + min(0, *glows[1]) + len(self.slots) * min(0, *glows[2])
        )
        self._in_reach_hint: tuple[MineventureState, int, list[int]] | None = None
        self._armed_range: dict[tuple[int, int, tuple[int, ...], tuple[int, ...]], int] = {}
        """(main, sub, their books) -> the attack range before glowing (see attack_range)."""
        """While `_decisions` lists a position: (it, the seat, the seats it can attack)."""
        self._fx_memo: dict[tuple[int, int, tuple[tuple[int, int, int] | None, ...]], _Fx] = {}
        self._fx_kinds: dict[tuple[int, int, tuple[int, ...]], _Fx] = {}
        """(character, partner, buff per slot) -> `_fx` (see `_fx_of`)."""
        self._end_act = Act("end")
        self._keep_act, self._return_act = Act("keep"), Act("return")
        self._skip_act, self._roll_act = Act("skip"), Act("roll")
        self._discard_acts = [Act("discard", token) for token in self.tokens]
        self._strike_acts = {slot: Act("strike", slot) for slot in ("main", "sub", "fist", "none")}
        self._flee_act = Act("flee")
        self._fight_acts = {seat: Act("fight", str(seat)) for seat in range(players)}
        self._fight_acts[DRAGON] = Act("fight", "dragon")
        self.event_deck = self.deck_index.get("event", -1)
        self._last: tuple[object, list[Act]] = (None, [])
        self._shared: tuple[Player, ...] = ()
        """In `apply`: the seats of the state applied to, which `_set` copies before changing."""
        self._map_moves = moves = _map_moves(model, assembly.id, self.terrain)
        self._walks = moves.walks
        self.story_cards = [
            code
            for code, card in enumerate(self.cards)
            if isinstance(card, Event) and card.effect.kind is EffectKind.STORY
        ]

    @property
    def start_piles(self) -> tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]:
        """Every deck as dealt: (all its cards as a sorted pile, no bottom, no discards)."""
        return self._start

    # -- derived numbers -------------------------------------------------------------------

    def _effects(self, state: MineventureState, seat: int) -> list[Effect]:
        """Every effect working on a seat: character ability, partner, buffs in slots."""
        p = state.players[seat]
        out: list[Effect] = [self.model.characters[p.character].ability]
        if p.partner >= 0:
            out.append(self.card_effect(p.partner))
        for entry in p.buffs:
            if entry is not None:
                out.append(self.buffs[entry[0]].effect)
        return out

    def _fx(self, p: Player) -> _Fx:
        """A seat's effects (see `_effects`) per kind: their summed amounts and the first, and
        the bonuses read on every step.

        They depend on the character, partner and buff slots alone, so they are memoised on
        those values (the memo is emptied when it grows large: buff stamps vary without end),
        and behind that on the buffs without their rounds and stamps (which they ignore).
        """
        key = (p.character, p.partner, p.buffs)
        found = self._fx_memo.get(key)
        if found is None:
            if len(self._fx_memo) >= _MEMO_SIZE:
                self._fx_memo.clear()
            found = self._fx_memo[key] = self._fx_of(
                p.character, p.partner, tuple(-1 if e is None else e[0] for e in p.buffs)
            )
        return found

    def _fx_of(self, character: int, partner: int, buffs: tuple[int, ...]) -> _Fx:
        """`_fx` of a character, a partner (or -1) and the buff in each slot (or -1)."""
        key = (character, partner, buffs)
        found = self._fx_kinds.get(key)
        if found is None:
            bonus: dict[EffectKind, int] = {}
            first: dict[EffectKind, Effect] = {}
            effects = [self.model.characters[character].ability]
            if partner >= 0:
                effects.append(self.card_effect(partner))
            effects.extend(self.buffs[buff].effect for buff in buffs if buff >= 0)
            for effect in effects:
                bonus[effect.kind] = bonus.get(effect.kind, 0) + effect.amount
                first.setdefault(effect.kind, effect)
            if len(self._fx_kinds) >= _MEMO_SIZE:
                self._fx_kinds.clear()
            found = _Fx(
                bonus,
                first,
                bonus.get(EffectKind.GLOWING, 0),
                bonus.get(EffectKind.PACK, 0),
                bonus.get(EffectKind.REGENERATION, 0),
                bonus.get(EffectKind.POISON, 0),
                bonus.get(EffectKind.STRIDE, 0),
                0
                if EffectKind.STARVE in first
                else self.settings.daily_heal + bonus.get(EffectKind.NURSE, 0),
            )
            self._fx_kinds[key] = found
        return found

    def _bonus(self, state: MineventureState, seat: int, kind: EffectKind) -> int:
        return self._fx(state.players[seat]).bonus.get(kind, 0)

    def _has(self, state: MineventureState, seat: int, kind: EffectKind) -> Effect | None:
        return self._fx(state.players[seat]).first.get(kind)

    def hand_limit(self, state: MineventureState, seat: int) -> int:
        return self.settings.hand_limit + self._fx(state.players[seat]).pack

    def weapon_range(self, state: MineventureState, seat: int, slot: str) -> int:
        """Range of one weapon slot with its enchants; -1 when it cannot attack."""
        p = state.players[seat]
        if slot == "main":
            return self._weapon_range(p.main, p.main_ench)
        return self._weapon_range(p.sub, p.sub_ench)

    def _weapon_range(self, code: int, enchants: tuple[int, ...]) -> int:
        if code < 0 or self._damage[code] <= 0:
            return -1
        extend = self._extend
        return self._range[code] + (sum(extend[e] for e in enchants) if enchants else 0)

    def weapon_damage(self, code: int, enchants: tuple[int, ...]) -> int:
        """A weapon's damage with its sharpening enchants (before buffs and the foe's armour)."""
        sharpen = self._sharpen
        return self._damage[code] + (sum(sharpen[e] for e in enchants) if enchants else 0)

    def attack_range(self, state: MineventureState, seat: int) -> int:
        """The larger weapon range, or the bare-handed one (decision attack-range)."""
        if seat == DRAGON:
            return self.model.dragon.range
        p = state.players[seat]
        key = (p.main, p.sub, p.main_ench, p.sub_ench)
        base = self._armed_range.get(key)
        if base is None:
            best = max(
                self._weapon_range(p.main, p.main_ench), self._weapon_range(p.sub, p.sub_ench)
            )
            base = best if best >= 0 else self.settings.unarmed_range
            if len(self._armed_range) >= _MEMO_SIZE:
                self._armed_range.clear()
            self._armed_range[key] = base
        return base + self._fx(p).glow

    def reach(self, state: MineventureState, seat: int, target: int) -> int:
        """How far `seat` can attack `target`: a glowing target is seen from further away."""
        glow = self._fx(state.players[target]).glow if target != DRAGON else 0
        return self.attack_range(state, seat) + glow

    def position(self, state: MineventureState, seat: int) -> tuple[int, int]:
        if seat == DRAGON:
            return self.dragon_at
        p = state.players[seat]
        return (p.x, p.y)

    def distance(self, state: MineventureState, a: int, b: int) -> int:
        """Manhattan distance: the sum of the X and Y distances (the post's ambush rule)."""
        (ax, ay), (bx, by) = self.position(state, a), self.position(state, b)
        return abs(ax - bx) + abs(ay - by)

    def gear(self, code: int) -> Equipment:
        """The equipment card (weapon or armour) with this code."""
        card = self.cards[code]
        assert isinstance(card, Equipment), f"{self.tokens[code]!r} is not equipment"
        return card

    def effect_of(self, code: int) -> Effect | None:
        """What a card does when played or while in play; None for equipment and food."""
        card = self.cards[code]
        return None if isinstance(card, (Equipment, Food)) else card.effect

    def hand_card(self, code: int) -> Item | Food:
        """The hand card (item or food) with this code."""
        card = self.cards[code]
        assert isinstance(card, (Item, Food)), f"{self.tokens[code]!r} is not a hand card"
        return card

    def card_effect(self, code: int) -> Effect:
        """The effect of a card that has one (partner, event, item)."""
        effect = self.effect_of(code)
        assert effect is not None, f"{self.tokens[code]!r} has no effect"
        return effect

    def living(self, state: MineventureState) -> list[int]:
        return [seat for seat, p in enumerate(state.players) if p.alive]

    # -- card piles --------------------------------------------------------------------------

    def _take(self, new: MineventureState, deck: int, code: int) -> None:
        pile, bottom, discard = new.piles[deck]
        if pile:
            pile = _remove(pile, code)
        else:
            bottom = bottom[1:]
        piles = list(new.piles)
        piles[deck] = (pile, bottom, discard)
        new.piles = tuple(piles)

    def _put_back(self, new: MineventureState, code: int) -> None:
        """A card leaves play: field cards to their deck's bottom, hand cards to its discards."""
        deck = self.card_deck[code]
        pile, bottom, discard = new.piles[deck]
        if self._is_field(code):
            bottom = (*bottom, code)
        else:
            discard = _insert(discard, code)
        piles = list(new.piles)
        piles[deck] = (pile, bottom, discard)
        new.piles = tuple(piles)

    def _is_field(self, code: int) -> bool:
        return self._field[code]

    def _equip(
        self,
        new: MineventureState,
        seat: int,
        code: int,
        durability: int = -1,
        enchants: tuple[int, ...] = (),
    ) -> None:
        """Equip a card; the old one in its slot leaves play (new equipment replaces old)."""
        card = self.gear(code)
        p = new.players[seat]
        dur = card.durability if durability < 0 else durability
        if card.slot is Slot.ARMOUR:
            if p.armour >= 0:
                self._put_back(new, p.armour)
            self._set(new, seat, armour=code)
        elif card.slot is Slot.MAIN_WEAPON:
            self._drop_weapon(new, seat, "main")
            self._set(new, seat, main=code, main_dur=dur, main_ench=enchants)
        else:
            self._drop_weapon(new, seat, "sub")
            self._set(new, seat, sub=code, sub_dur=dur, sub_ench=enchants)

    def _drop_weapon(self, new: MineventureState, seat: int, slot: str) -> None:
        p = new.players[seat]
        code = p.main if slot == "main" else p.sub
        if code < 0:
            return
        # Decision broken-weapon: the weapon to its deck's bottom, its books to the discards.
        self._put_back(new, code)
        for book in p.main_ench if slot == "main" else p.sub_ench:
            self._put_back(new, book)
        if slot == "main":
            self._set(new, seat, main=-1, main_dur=0, main_ench=())
        else:
            self._set(new, seat, sub=-1, sub_dur=0, sub_ench=())

    # -- effects --------------------------------------------------------------------------

    def _repair(self, new: MineventureState, seat: int, amount: int) -> None:
        p = new.players[seat]
        # Repair the weapon that has lost the most durability.
        options = [
            (self.gear(code).durability - dur, slot)
            for slot, code, dur in (("main", p.main, p.main_dur), ("sub", p.sub, p.sub_dur))
            if code >= 0
        ]
        if not options:
            return
        _, slot = max(options)
        self.mend(new, seat, slot, amount)

    def mend(self, new: MineventureState, seat: int, slot: str, amount: int) -> None:
        """Restore durability to a weapon, up to the boxes printed on its card: repairs fill
        boxes, they never add any (decision repair-cap)."""
        p = new.players[seat]
        code, durability = (p.main, p.main_dur) if slot == "main" else (p.sub, p.sub_dur)
        restored = min(self.gear(code).durability, durability + amount)
        self._set(new, seat, **{f"{slot}_dur": restored})

    def give_buff(self, new: MineventureState, seat: int, buff: int) -> None:
        """Put a buff in a slot (decision buff-slots): the first free slot that takes its
        class, even with the same buff in another (the post replaces an effect only 「当没有
        槽位可装时」); else it replaces, among those slots, the buff with the fewest rounds
        left (a lasting one counts as the most), the lower slot on a tie: what the tokens on
        the board's rounds-left cells show, so no order of arrival is kept."""
        b = self.buffs[buff]
        p = new.players[seat]
        buffs = list(p.buffs)
        new.stamp += 1
        entry = (buff, b.rounds, new.stamp)
        fitting = [i for i, accepts in enumerate(self.slots) if b.cls in accepts]
        if not fitting:
            return
        free = [i for i in fitting if buffs[i] is None]
        # No free slot: every fitting slot holds a buff; replace the one with the fewest
        # rounds left, the lower slot on a tie (decision buff-slots).
        left = {i: e[1] or _LASTING for i in fitting if (e := buffs[i]) is not None}
        index = free[0] if free else min(fitting, key=lambda i: (left[i], i))
        buffs[index] = entry
        self._set(new, seat, buffs=tuple(buffs))

    def _heal(self, new: MineventureState, seat: int, amount: int) -> None:
        p = new.players[seat]
        if p.alive:
            hp = min(self.settings.max_hp, p.hp + amount)
            if hp != p.hp:  # a seat at full health is left as it is
                self._own(new, seat).hp = hp

    def _true_damage(self, new: MineventureState, seat: int, amount: int) -> None:
        """True damage has no source: never reduced or blocked."""
        self._set(new, seat, hp=new.players[seat].hp - amount)
        self._deaths(new, killer=None)

    def damage_taken(
        self,
        state: MineventureState,
        seat: int,
        amount: int,
        types: tuple[DamageType, ...],
        blocking: bool,
    ) -> int:
        """What one hit of `amount` `types` takes from `seat` (decision damage-order)."""
        if DamageType.TRUE in types:
            return amount
        if seat == DRAGON:
            if DamageType.PHYSICAL in types:
                amount -= self.model.dragon.defence
            return max(0, amount)
        p = state.players[seat]
        armour = self.gear(p.armour) if p.armour >= 0 else None
        # Area damage: cancelled by the matching blast-proof trait; a shield cannot block it.
        if DamageType.AREA in types and armour is not None and Trait.BLAST_PROOF in armour.traits:
            return 0
        if DamageType.PIERCING in types:
            # Piercing: armour and buffs do not reduce it, but a raised shield blocks it.
            return 0 if blocking and DamageType.AREA not in types else amount
        if DamageType.PHYSICAL in types:
            amount -= (armour.defence if armour else 0) + self._bonus(state, seat, EffectKind.GUARD)
            amount = max(0, amount)
            halve = self._has(state, seat, EffectKind.HALVE_TAKEN)
            if halve is not None:
                amount = halved(amount, halve.rounding)
        return max(0, amount)

    def _hit(
        self,
        new: MineventureState,
        seat: int,
        amount: int,
        types: tuple[DamageType, ...],
        blocking: bool,
    ) -> int:
        taken = self.damage_taken(new, seat, amount, types, blocking)
        if seat == DRAGON:
            new.dragon_hp -= taken
        else:
            self._own(new, seat).hp -= taken
        return taken

    def _overworld(self, state: MineventureState, seat: int) -> bool:
        return bool(self.terrain[self.position(state, seat)].overworld)

    # -- hand cards -----------------------------------------------------------------------

    def playable(self, state: MineventureState, seat: int, code: int, in_combat: bool) -> list[str]:
        """The arguments a hand card can be played with ('' for none); [] if it cannot."""
        rule = self._hand_rules[code]
        if rule is None:
            self.hand_card(code)  # not a hand card: the assertion names it
            return []  # pragma: no cover
        timing, food, icon, weapon_kind, repair, other = rule
        # When a card is played is the one value its footer prints (Timing).
        if timing is Timing.IN_HAND or (in_combat and timing is Timing.DECISION):
            return []
        if food:
            return [""]
        p = state.players[seat]
        # Map-corner icon: only on a cell bearing the same icon (decision map-icons).
        if icon and self._icons[(p.x, p.y)] != icon:
            return []
        if weapon_kind is not None:
            # An enchant book, under a weapon of its kind that does not hold it yet.
            if in_combat:
                return []
            kinds = self._weapon_kind
            return [
                slot
                for slot, weapon, enchants in (
                    ("main", p.main, p.main_ench),
                    ("sub", p.sub, p.sub_ench),
                )
                if weapon >= 0 and kinds[weapon] == weapon_kind and code not in enchants
            ]
        if repair and p.main < 0 and p.sub < 0:
            return []
        if other:
            if in_combat:
                return ["foe"]
            # Potions and thrown cards for others: a player within attack range (decision
            # potion-targets).
            return [self._seat_args[s] for s in self.in_reach(state, seat)]
        return [""]

    def in_reach(self, state: MineventureState, seat: int) -> list[int]:
        """The other living seats `seat` can attack from where it stands (see `reach`)."""
        hint = self._in_reach_hint
        if hint is not None and hint[0] is state and hint[1] == seat:
            return hint[2]
        return self._in_reach(state, seat, self.attack_range(state, seat))

    def _in_reach(self, state: MineventureState, seat: int, attack: int) -> list[int]:
        players = state.players
        me = players[seat]
        x, y = me.x, me.y
        # A seat further than any glow could bring it is out of reach without asking, and one
        # nearer than any glow could hide it is in reach.
        bound = attack + self._glow_bound
        sure = attack + self._glow_floor
        fx = self._fx
        out = []
        for s, p in enumerate(players):
            if p.alive and s != seat:
                d = abs(p.x - x) + abs(p.y - y)
                if d <= sure or (d <= bound and d <= attack + fx(p).glow):
                    out.append(s)
        return out

    def play_act(self, kind: str, code: int, arg: str) -> Act:
        """The action playing hand card `code` with `arg` (`kind` 'play' or 'use')."""
        key = (code, arg) if kind == "play" else (~code, arg)
        act = self._play_acts.get(key)
        if act is None:
            act = self._play_acts[key] = Act(kind, self.tokens[code], arg)
        return act

    def _deaths(self, new: MineventureState, killer: dict[int, int] | None) -> list[int]:
        """Everyone at 0 HP or below dies (a totem in hand saves once)."""
        dead = []
        for seat, p in enumerate(new.players):
            if not p.alive or p.hp > 0:
                continue
            totem = next(
                (
                    c
                    for c in p.hand
                    if self.effect_of(c) is not None
                    and self.card_effect(c).kind is EffectKind.REVIVE
                ),
                None,
            )
            if totem is not None:
                self._set(new, seat, hp=self.card_effect(totem).amount, hand=_remove(p.hand, totem))
                self._put_back(new, totem)
                continue
            dead.append(seat)
        for seat in dead:
            self._set(new, seat, alive=False)
        for seat in dead:
            p = new.players[seat]
            winner = killer.get(seat) if killer else None
            if winner is not None and winner != DRAGON and new.players[winner].alive:
                # A kill: the whole hand and one equipment card of the victim's.
                self._set(
                    new,
                    winner,
                    hand=tuple(sorted(new.players[winner].hand + p.hand)),
                    killed=True,
                    spoils=True,
                )
                self._set(new, seat, hand=())
                if self.settings.kill_equipment and any(
                    code >= 0 for code in (p.main, p.sub, p.armour)
                ):
                    new.loot = (winner, seat)
                    new.phase = "loot"
                    continue
            self._clear(new, seat)
        return dead

    def _clear(self, new: MineventureState, seat: int) -> None:
        p = new.players[seat]
        for code in p.hand:
            self._put_back(new, code)
        for code in (p.armour, p.partner):
            if code >= 0:
                self._put_back(new, code)
        self._drop_weapon(new, seat, "main")
        self._drop_weapon(new, seat, "sub")
        self._set(new, seat, hand=(), armour=-1, partner=-1, buffs=(None,) * len(self.slots))

    def _check_end(self, new: MineventureState) -> bool:
        if new.ended:
            return True
        if new.dragon_hp > 0 and new.day < self._final_day:
            # The usual case, asked after every turn: two players alive are enough to go on.
            alive = 0
            for p in new.players:
                if p.alive:
                    if alive:
                        return False
                    alive = 1
        living = self.living(new)
        if new.dragon_hp <= 0:
            new.ended = Termination.DRAGON_SLAIN.value
            new.winners = tuple(s for s in living if new.players[s].hit_dragon)
        elif len(living) == 1:
            new.ended = Termination.LAST_STANDING.value
            new.winners = tuple(living)
        elif not living:
            new.ended = Termination.ALL_DEAD.value
            new.winners = ()
        elif new.day >= self._final_day:
            # The last-day variant: story damage spares the End, so a table that fears a game
            # of hiding there may agree that when day `final_day` begins the game ends and
            # nobody wins (decision final-day).
            new.ended = Termination.TIME_UP.value
            new.winners = ()
        else:
            return False
        if new.loot[1] >= 0:
            self._clear(new, new.loot[1])
            new.loot = (-1, -1)
        if new.drawn >= 0:
            self._put_back(new, new.drawn)
            new.drawn = new.drawn_by = -1
        new.phase = "over"
        new.combat = None
        new.queue = ()
        return True

    def _own(self, new: MineventureState, seat: int) -> Player:
        """A seat of `new` that may be changed. In `apply`, a seat still shared with the state
        applied to is copied first (copy on write); elsewhere `new` owns its seats (see
        state.clone)."""
        player = new.players[seat]
        shared = self._shared
        if shared and player is shared[seat]:
            player = copy_player(player)
            players = list(new.players)
            players[seat] = player
            new.players = tuple(players)
        return player

    def _set(self, new: MineventureState, seat: int, **changes: Any) -> None:
        """Change a seat's fields (see `_own`)."""
        player = self._own(new, seat)
        for name, value in changes.items():
            setattr(player, name, value)
