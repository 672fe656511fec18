"""Dragon Hoard on the map: movement, treasures picked up and dropped, the dragon's attacks,
advance and trampling, traps and deaths. A mixin of :class:`DragonHoardRules`."""

from __future__ import annotations

from pnp.engines.piles import with_card as _insert
from pnp.engines.piles import without as _remove
from pnp.games.dragon_hoard.model import (
    ActionCard,
    ActionKind,
    AIEffect,
    AIEffectKind,
    Cell,
    Direction,
    Lair,
)
from pnp.games.dragon_hoard.state import (
    _DEAD,
    _IN,
    _LEFT,
    HEART_OUT,
    LEFT_LAIR,
    DragonHoardState,
    _set,
)

_DIRECTIONS = tuple(Direction)
_DELTAS = tuple(d.step for d in _DIRECTIONS)
"""Each direction's step, by its place in _DIRECTIONS (found by identity, not by hashing)."""

# Kinds compared on every card and AI effect, as module constants (see the note in state.py).
_MOVE, _SPRINT = ActionKind.MOVE, ActionKind.SPRINT
_DODGE, _GRAB = ActionKind.DODGE, ActionKind.GRAB
_ATTACK, _ADVANCE = AIEffectKind.ATTACK, AIEffectKind.ADVANCE
_RETURN, _TRAPS = AIEffectKind.RETURN, AIEffectKind.TRAPS


def _cell(cell: Cell) -> str:
    """A cell as coverage items name it: ``[4, 2]`` -> ``4,2``."""
    return f"{cell[0]},{cell[1]}"


class BoardEffects:
    """What action cards, AI cards and terrain do to the map; the rules set the tables."""

    players: int
    lair: Lair
    centre: Cell
    cards: tuple[ActionCard, ...]
    value: list[int]
    heart: int
    must_hold: tuple[int, ...]
    exits: frozenset[Cell]
    cells: frozenset[Cell]
    """Every cell of the map (``lair.contains``, as a set)."""
    domain: frozenset[Cell]
    """Every cell of the map in the dragon's domain (``lair.in_domain``, as a set)."""
    gate_pair: dict[Cell, Cell]
    traps: dict[str, frozenset[Cell]]
    ai_effects: list[tuple[AIEffect, ...]]
    ai_colour: list[str]
    sets: list[tuple[int, ...]]
    card_ids: list[str]
    ai_ids: list[str]
    treasure_ids: list[str]
    _body_cache: dict[Cell, frozenset[Cell]]
    _area_cache: dict[tuple[int, int, Cell], frozenset[Cell]]
    _hand_cache: dict[tuple[int, tuple[int, ...]], tuple[int, ...]]
    _landing_cache: dict[tuple[Cell, Cell, int, int], Cell]
    _reach_cache: dict[tuple[Cell, Cell, int, bool], tuple[int, ...]]
    _floor_key: tuple[tuple[int, int, int], ...] | None
    _floor_set: frozenset[Cell]
    _clockwise_from: list[tuple[int, ...]]
    """The seats clockwise from each holder's (the holder first)."""
    trace: list[str] | None
    """When a list, every rule of the content an ``apply`` exercises is appended to it as a
    coverage item ('ai-card:pounce', 'terrain:gate:gate-a1', …); None in ordinary play."""

    def _note(self, item: str) -> None:
        if self.trace is not None:
            self.trace.append(item)

    # -- effects --------------------------------------------------------------------------

    def _resolve_card(
        self,
        new: DragonHoardState,
        seat: int,
        c: int,
        direction: Direction | None,
        steps: int | None = None,
    ) -> None:
        """Resolve action card `c` of `seat`; a move goes `steps` cells (default: the card's,
        as far as the way allows)."""
        card = self.cards[c]
        if self.trace is not None:
            self._note(f"action-card:{card.id}")
            self._note(f"action-kind:{card.kind.value}")
        if card.kind is _MOVE:
            assert card.direction is not None
            self._move(new, seat, card.direction, card.steps if steps is None else steps)
        elif card.kind is _SPRINT:
            if direction is not None:
                self._move(new, seat, direction, card.steps if steps is None else steps)
        elif card.kind is _DODGE:
            new.sideways = _set(new.sideways, seat, True)
        elif card.kind is _GRAB:
            self._grab(new, seat)

    def landing(self, pos: Cell, dragon: Cell, direction: Direction, steps: int) -> Cell:
        """Where a move from `pos` ends (before any gate), the dragon on `dragon`; for policies
        (memoised: a policy asks the same few questions again and again)."""
        key = (pos, dragon, _DIRECTIONS.index(direction), steps)
        end = self._landing_cache.get(key)
        if end is None:
            end = self._landing_cache[key] = self._find_landing(pos, dragon, direction, steps)
        return end

    def _find_landing(self, pos: Cell, dragon: Cell, direction: Direction, steps: int) -> Cell:
        body = self.body(dragon)
        dx, dy = _DELTAS[_DIRECTIONS.index(direction)]
        for _ in range(steps):
            nxt = (pos[0] + dx, pos[1] + dy)
            if nxt not in self.cells or nxt in body:
                break
            pos = nxt
            if pos in self.exits:
                break
        return pos

    def _path(
        self, state: DragonHoardState, seat: int, direction: Direction, steps: int
    ) -> list[Cell]:
        """The cells a move of at most `steps` would enter, in order: it stops at the map's
        edge, the dragon's body, or an exit the seat may leave by. Its length is how many
        distinct distances the move offers (decision `move-distance`)."""
        pos = state.pawns[seat]
        if pos is None:
            return []
        body = self.body(state.dragon)
        dx, dy = _DELTAS[_DIRECTIONS.index(direction)]
        cells: list[Cell] = []
        for _ in range(steps):
            nxt = (pos[0] + dx, pos[1] + dy)
            if nxt not in self.cells or nxt in body:
                break
            pos = nxt
            cells.append(pos)
            if pos in self.exits and self._may_leave(state, seat):
                break
        return cells

    def _reaches(self, state: DragonHoardState, seat: int, steps: int) -> tuple[int, ...]:
        """How many cells a move of at most `steps` may go in each of `_DIRECTIONS` (the length
        of :meth:`_path`), memoised on what it depends on: the pawn, the dragon, whether the
        seat may leave by an exit."""
        pos = state.pawns[seat]
        if pos is None:
            return (0,) * len(_DIRECTIONS)
        key = (pos, state.dragon, steps, self._may_leave(state, seat))
        reaches = self._reach_cache.get(key)
        if reaches is None:
            reaches = tuple(len(self._path(state, seat, d, steps)) for d in _DIRECTIONS)
            self._reach_cache[key] = reaches
        return reaches

    def _move(self, new: DragonHoardState, seat: int, direction: Direction, steps: int) -> None:
        # Movement (decision `movement`): cell by cell, stopped by the map's edge and the
        # dragon's body; treasures on every cell entered are picked up; an exit leaves the lair
        # at once; a move that ends on a gate teleports to the other gate of its type.
        pos = new.pawns[seat]
        if pos is None:
            return
        body = self.body(new.dragon)
        dx, dy = _DELTAS[_DIRECTIONS.index(direction)]
        on_map, exits = self.cells, self.exits
        # The floor's treasure cells before the move: a straight move enters each cell once,
        # and picking up only empties cells.
        treasure_cells = self._floor_cells(new.floor)
        moved = False
        for _ in range(steps):
            nxt = (pos[0] + dx, pos[1] + dy)
            if nxt not in on_map or nxt in body:
                break
            pos = nxt
            moved = True
            if pos in treasure_cells:
                self._pick_up(new, seat, pos)  # (the pawn is written once it stops)
            if self.trace is not None and any(pos in cells for cells in self.traps.values()):
                self._note(f"terrain:trap:{_cell(pos)}")
            if pos in exits and self._may_leave(new, seat):
                new.pawns = _set(new.pawns, seat, pos)
                self._leave(new, seat)
                return
        if moved:
            new.pawns = _set(new.pawns, seat, pos)
        if moved and pos in self.gate_pair:
            if self.trace is not None:
                self._note(f"terrain:gate:{_cell(pos)}")
            pos = self.gate_pair[pos]
            new.pawns = _set(new.pawns, seat, pos)
            self._pick_up(new, seat, pos)
        self._after_move(new, seat)

    def _may_leave(self, state: DragonHoardState, seat: int) -> bool:
        held = len(state.bags[seat]) + (state.heirlooms[seat] >= 0)
        return held >= self.must_hold[seat]

    def _leave(self, new: DragonHoardState, seat: int) -> None:
        pos = new.pawns[seat]
        if pos is not None and self.trace is not None:
            self._note(f"terrain:exit:{_cell(pos)}")
        if self._holds_heart(new, seat):
            new.events |= HEART_OUT
        new.status = _set(new.status, seat, _LEFT)
        new.pawns = _set(new.pawns, seat, None)
        new.left_order = (*new.left_order, seat)
        new.events |= LEFT_LAIR

    def _after_move(self, new: DragonHoardState, seat: int) -> None:
        pos = new.pawns[seat]
        # Ice-Fire Dragon: the Heart carried out of the dragon's domain starts the countdown.
        if pos is not None and pos not in self.domain and self._holds_heart(new, seat):
            self._note("rule:heart-out")
            new.events |= HEART_OUT

    def _holds_heart(self, state: DragonHoardState, seat: int) -> bool:
        return self.heart >= 0 and (
            self.heart in state.bags[seat] or state.heirlooms[seat] == self.heart
        )

    def _pick_up(self, new: DragonHoardState, seat: int, cell: Cell) -> None:
        if cell not in self._floor_cells(new.floor):
            return
        x, y = cell
        here = [t for tx, ty, t in new.floor if tx == x and ty == y]
        new.floor = tuple(item for item in new.floor if item[0] != x or item[1] != y)
        if self.trace is not None:
            for t in here:
                self._note(f"treasure:{self.treasure_ids[t]}")
        new.bags = _set(new.bags, seat, tuple(sorted((*new.bags[seat], *here))))

    def _floor_cells(self, floor: tuple[tuple[int, int, int], ...]) -> frozenset[Cell]:
        """The cells with treasures on them, for the last floor asked about (floors are shared
        between states until a treasure is picked up or dropped)."""
        if floor is not self._floor_key:
            self._floor_key = floor
            self._floor_set = frozenset((x, y) for x, y, _ in floor)
        return self._floor_set

    def _grab(self, new: DragonHoardState, seat: int) -> None:
        # Grab (decision `grab`): from another pawn on the same or an orthogonally adjacent
        # cell, the one with the most valuable bag (ties: clockwise from the holder), its most
        # valuable bag treasure. Heirlooms cannot be grabbed.
        pos = new.pawns[seat]
        if pos is None:
            return
        best: tuple[int, int] | None = None
        for k in range(self.players):
            other = (new.holder + k) % self.players
            there = new.pawns[other]
            if other == seat or there is None or not new.bags[other]:
                continue
            if abs(there[0] - pos[0]) + abs(there[1] - pos[1]) > 1:
                continue
            worth = sum(self.value[t] for t in new.bags[other])
            if best is None or worth > best[0]:
                best = (worth, other)
        if best is None:
            return
        victim = best[1]
        self._note("rule:grab-steals")
        t = max(new.bags[victim], key=lambda code: (self.value[code], -code))
        new.bags = _set(new.bags, victim, _remove(new.bags[victim], t))
        new.bags = _set(new.bags, seat, _insert(new.bags[seat], t))

    def _run_ai(self, new: DragonHoardState, c: int) -> None:
        if self.trace is not None:
            self._note(f"ai-card:{self.ai_ids[c]}")
        for index, effect in enumerate(self.ai_effects[c]):
            kind = effect.kind
            if self.trace is not None:
                self._note(f"ai-effect:{kind.value}")
            if kind is _ATTACK:
                assert effect.area is not None
                cells = self._area(c, index, effect, new.dragon)
                for seat in self._clockwise(new):
                    pos = new.pawns[seat]
                    # A sideways character card dodges the dragon's attacks.
                    if pos in cells and not new.sideways[seat]:
                        self._kill(new, seat)
            elif kind is _ADVANCE:
                for _ in range(effect.steps):
                    step = self._advance_step(new)
                    if step is None:
                        break
                    new.dragon = step
                    self._trample(new)
            elif kind is _RETURN:
                new.dragon = self.centre
                self._trample(new)
            elif kind is _TRAPS:
                self._spring_traps(new, self.ai_colour[c])

    def area(self, c: int, effect: AIEffect, dragon: Cell) -> frozenset[Cell]:
        """The cells `effect` of AI card `c` hits with the dragon on `dragon` (cached)."""
        return self._area(c, self.ai_effects[c].index(effect), effect, dragon)

    def _area(self, c: int, index: int, effect: AIEffect, dragon: Cell) -> frozenset[Cell]:
        """:meth:`area` of the effect at `index` among the card's effects."""
        key = (c, index, dragon)
        cells = self._area_cache.get(key)
        if cells is None:
            assert effect.area is not None
            cells = self._area_cache[key] = effect.area.cells(self.lair, dragon)
        return cells

    def body(self, dragon: Cell) -> frozenset[Cell]:
        cells = self._body_cache.get(dragon)
        if cells is None:
            cells = self._body_cache[dragon] = self.lair.dragon_cells(dragon)
        return cells

    def _advance_step(self, new: DragonHoardState) -> Cell | None:
        """One step of the dragon toward the nearest pawn, its body staying in the domain.

        Decision `trampling`: pawns equally near are taken clockwise from the hourglass holder
        (so no side of the map is chased first by the rules themselves); the dragon closes the
        larger of the two gaps to its prey first, the north-south one when they are equal."""
        r = self.lair.dragon_radius
        x, y = new.dragon

        def gap(centre: Cell, pawn: Cell) -> int:
            return max(abs(pawn[0] - centre[0]) - r, 0) + max(abs(pawn[1] - centre[1]) - r, 0)

        prey: Cell | None = None
        for seat in self._clockwise(new):
            pawn = new.pawns[seat]
            if pawn is not None and (prey is None or gap(new.dragon, pawn) < gap(new.dragon, prey)):
                prey = pawn
        if prey is None:
            return None
        now = gap(new.dragon, prey)
        reach = self.lair.domain_radius - self.lair.dragon_radius
        steps = []
        for dx, dy in _DELTAS:
            to = (x + dx, y + dy)
            if max(abs(to[0] - self.centre[0]), abs(to[1] - self.centre[1])) > reach:
                continue
            if gap(to, prey) < now:
                along = abs(prey[1] - y) if dy else abs(prey[0] - x)
                steps.append((-along, 0 if dy else 1, to))
        return min(steps)[2] if steps else None

    def _trample(self, new: DragonHoardState) -> None:
        # Trampling (decision `trampling`): pawns under the dragon's body are attacked; a
        # dodging pawn moves instead to the nearest free cell (trying N, E, S, W).
        body = self.body(new.dragon)
        for seat in self._clockwise(new):
            pos = new.pawns[seat]
            if pos is None or pos not in body:
                continue
            self._note("rule:trample")
            if not new.sideways[seat]:
                self._kill(new, seat)
                continue
            for distance in range(1, self.lair.columns + self.lair.rows):
                spots = [
                    (pos[0] + d.step[0] * distance, pos[1] + d.step[1] * distance)
                    for d in _DIRECTIONS
                ]
                free = [s for s in spots if self.lair.contains(s) and s not in body]
                if free:
                    new.pawns = _set(new.pawns, seat, free[0])
                    self._after_move(new, seat)
                    break

    def _spring_traps(self, new: DragonHoardState, colour: str) -> None:
        cells = self.traps.get(colour, frozenset())
        for seat in self._clockwise(new):
            pos = new.pawns[seat]
            if pos is not None and pos in cells:
                # Traps hurt dodging players too (decision `death`).
                self._note(f"trap-colour:{colour}")
                self._kill(new, seat)

    def _kill(self, new: DragonHoardState, seat: int) -> None:
        # Death: the pawn leaves the map, the bag's treasures drop on its cell; the heirloom
        # stays. It respawns at its entry teleporter next preparation.
        self._drop_bag(new, seat)
        new.status = _set(new.status, seat, _DEAD)
        new.pawns = _set(new.pawns, seat, None)

    def _drop_bag(self, new: DragonHoardState, seat: int) -> None:
        """The seat's bag empties onto its cell; its heirloom never drops (the post)."""
        pos = new.pawns[seat]
        dropped = new.bags[seat]
        new.bags = _set(new.bags, seat, ())
        if pos is not None and dropped:
            new.floor = tuple(sorted((*new.floor, *((pos[0], pos[1], t) for t in dropped))))

    def _clockwise(self, state: DragonHoardState) -> tuple[int, ...]:
        return self._clockwise_from[state.holder]

    def _in_game(self, state: DragonHoardState, seat: int) -> bool:
        status = state.status[seat]
        return status is _IN or status is _DEAD

    @staticmethod
    def _anyone_in_game(state: DragonHoardState) -> bool:
        """Whether some seat is still in the game (on the map, or dead until it respawns)."""
        return _IN in state.status or _DEAD in state.status

    def _hand(self, state: DragonHoardState, seat: int) -> tuple[int, ...]:
        """The seat's action cards still in hand this round."""
        key = (seat, state.used[seat])
        hand = self._hand_cache.get(key)
        if hand is None:
            hand = self.sets[seat]
            for c in state.used[seat]:
                hand = _remove(hand, c)
            self._hand_cache[key] = hand
        return hand
