"""Arena Tales (斗擂奇谭) as a plain rules library: every number comes from the model.

The rules of the post (shared/seeds/002_e9a2f11918556f0f.txt) and the decisions recorded in
content/arena-tales/game.yaml (cited as "decided" where the code encodes them):

- Seats 0..n-1 take turns clockwise; the "next player" is seat + 1. Teams and starting
  orientation points come from the arena's setup for the player count; pieces start facing the
  centre. Each seat plays the character of the same index (modulo the roster), or the ones
  given to the constructor.
- Set-up: each player in seat order may put their talent face up into the display (post:
  「游戏开始时,可以把一张【天赋】卡放到展示区」; decided, talent-start), then the deck is
  shuffled and ``settings.life`` (+ the talent's life if it is used) cards are dealt face down
  to the life zone. No hand.
- A turn: start step (maintain choices, clear the display, draw the pending draw, then refill to
  ``settings.hand_refill``), then any number of plays and discard-moves; it ends after the card
  in resolution when the next player's pending draw reached ``settings.forced_end``, or when the
  hand is empty; end step: discard to ``settings.hand_limit``, then the sanity flip.
- Playing a card follows the timing steps [1]-[7] as a queue of tasks (``ArenaState.queue``):
  before-play effects, cost, placing, on-play effects, combat, after-play effects, recorded
  responses, then the end check. Decisions inside (how much damage to take face up, what to
  discard, whether to maintain) belong to the player concerned; draws and life cards are chance.

The package: ``state`` (actions and the position), ``rules`` (this module: set-up, the protocol,
legal actions and the legality check), its mixins ``movement`` (the arena's hexes, the steps
over them) and ``turn`` (the task queue of a turn, victory), ``combat``, ``effects`` (one
handler per effect kind), ``notation``, ``policies``, ``examples`` and ``simulation``.

Chance is explicit (``pnp.engines.base``): deck, recycle and life are multisets and each card
taken from them is a chance outcome ``Draw(card)``, which is exactly drawing from the top of a
shuffled pile. Shuffling the recycle pile into an empty deck is therefore just moving it.

Speed (issue 17), with the same games for the same seeds: ``apply`` checks the one action it is
given (``is_legal``, the same test as ``legal_actions`` asked of one action) instead of listing
them all; the next state shares every seat the step leaves alone (``state.fork`` copies the
seat the action writes, ``state.writable`` any other on its first write), so ``apply`` stays
pure for callers; actions are shared objects built once; what the hot paths ask of a card or a
hex is a table built once per model and shared by every table of it; the queue's tasks between
two decisions are resolved at once where no decision or draw can come between. A step's copies
are made field by field (``state.fork``); a state remembers the actions listed (or the chance
outcome drawn) for it, so ``apply`` of that very object skips the check (``ArenaState.vetted``);
the moves of a set of steps are picked out of a card's row by an ``itemgetter``.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Sequence
from functools import cache

from pnp.engines import hexgrid
from pnp.engines.base import Declaration, InvariantViolation, Outcome
from pnp.engines.memo import ByIdentity
from pnp.engines.piles import distinct
from pnp.errors import IllegalActionError
from pnp.games.arena_tales import combat
from pnp.games.arena_tales.effects import EFFECTS
from pnp.games.arena_tales.model import (
    ArenaTales,
    Card,
    CardType,
    Character,
    EffectKind,
    RangeKind,
    RangeSpec,
    Timing,
)
from pnp.games.arena_tales.movement import HEX_TABLES, SIX, move_row
from pnp.games.arena_tales.notation import format_state, parse_action, parse_state
from pnp.games.arena_tales.state import (
    CHANCE_TASKS,
    DOWN,
    PLAY_CARD,
    PLAY_DAMAGE,
    PLAY_TARGET,
    SLUG,
    UP,
    Absorb,
    Action,
    ArenaState,
    Dash,
    Discard,
    Draw,
    Maintain,
    Mode,
    Move,
    Play,
    Reveal,
    Seat,
    Stall,
    Talent,
    Task,
    arg,
    fork,
    redeal_hidden,
    task_seat,
)
from pnp.games.arena_tales.turn import TurnFlow

RULE_PLAYERS = (2, 4, 6)
"""The player counts of the post (teams in 4 and 6), for the validator."""
RULE_CHARACTERS = 8
RULE_DIRECTIONS = 6
RULE_ORIENTATION_POINTS = 6
RULE_DECK = {"shared": 4, "own": 12, "copies": 2, "names": 100, "life": 18}
"""What the post fixes about decks and life, for the validator to check content against."""


_FIELDS_READ = {
    "settings": "life hand_refill forced_end hand_limit deck_size copies_per_name shared_names "
    "own_names card_names",
    "cards": "id colour type cost damage range effects",
    "cards.effects": "kind timing amount element",
    "characters": "id colour",
    "elements": "element range damage cost draw",
    "arenas": "radius orientation_points obstacles setups",
    "arenas.orientation_points": "id q r",
    "arenas.obstacles": "q r",
    "arenas.setups": "players starts teams",
}
SETTINGS_READ = frozenset(
    {"cards", "characters", "elements"}
    | {f"{where}.{name}" for where, names in _FIELDS_READ.items() for name in names.split()}
)
"""Every content path the engine reads, for the validator to compare with what content uses."""

_TOKEN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")

# How a card in hand is played (``ArenaTalesRules._play_kind``).
PLAIN, LOCKED, TARGETED, TALENT = range(4)
ANY_TARGET = object()
"""Asked of ``_playable``: whether a card can be played naming any target at all."""
NO_CARD = -1
"""``ArenaTalesRules._check`` of a legal action that names no card."""
MAINTAIN_KEEP, MAINTAIN_DROP = Maintain(True), Maintain(False)
TALENT_USE, TALENT_SKIP = Talent(True), Talent(False)
ACTION_TYPES = (Play, Move, Stall, Discard, Absorb, Maintain, Dash, Reveal, Talent, Draw)


@cache
def targeted_plays(token: str, players: int) -> tuple[Play, ...]:
    """The play of ``token`` naming each seat."""
    return tuple(Play(token, t) for t in range(players))


@cache
def reveal_action(index: int) -> Reveal:
    """识破's choice of the face-down card at ``index`` (shared objects, as every action)."""
    return Reveal(index)


@cache
def absorb_options(most: int) -> tuple[Absorb, ...]:
    return tuple(Absorb(k) for k in range(most + 1))


_SHARED: ByIdentity[ArenaTales, ArenaTalesRules] = ByIdentity(limit=8)
"""A model -> the table that built the tables all its tables share."""

SHARED_TABLES = (
    *HEX_TABLES,
    "cards", "tokens", "_by_token", "_ranges", "_colour", "_sides", "_reach_span", "_has",
    "_stays", "_responds", "_targeted", "_kits", "_owner", "_draw_actions", "_play_kind",
    "_maintain_need", "_asks_maintain", "_locks", "_damaging", "_discard_rank", "_fixed",
    "_indiscriminate", "_knock", "_counter", "_reach_bonus", "_damage_bonus", "_effect_calls",
    "_timed", "_talent_life", "_play_actions", "_move_rows", "_stall_actions",
    "_discard_actions", "_boosts", "_seat_plays_by_teams", "_covers", "_lines_exact",
)  # fmt: skip
"""The attributes ``ArenaTalesRules._build_tables`` sets, named one by one: a class compiled
with mypyc has no ``__dict__`` to copy them through (tests/games/arena_tales/test_rules.py
checks that a table that shares them has every attribute a table that built them has)."""


class ArenaTalesRules(TurnFlow):
    """The rules of Arena Tales for one table: ``Rules[ArenaState, Action]``."""

    slug = SLUG

    def __init__(
        self,
        model: ArenaTales,
        players: int,
        characters: Sequence[str] | None = None,
        *,
        draft: bool = False,
    ) -> None:
        """``characters``: one id per seat (default: the roster in order). ``draft``: every game
        draws its own characters at random from the roster instead (``initial_state``); the
        characters of a position are then read from its cards (``cast``)."""
        self.model = model
        self.players = players
        settings = model.settings
        self.life = settings.life
        self.refill = settings.hand_refill
        self.forced_end = settings.forced_end
        self.hand_limit = settings.hand_limit
        setup = model.setup_for(players)
        if setup is None:
            supported = sorted(s.players for s in model.arena.setups)
            raise ValueError(f"{SLUG} plays with {supported} players, not {players}")
        if len(setup.starts) != players or len(setup.teams) != players:
            raise ValueError(f"the setup for {players} players does not name {players} seats")
        self.mode = Mode.DUEL if players == 2 else Mode.TEAMS
        self.teams = tuple(setup.teams)
        arena = model.arena
        self.radius = arena.radius
        points = {p.id: (p.q, p.r) for p in arena.orientation_points}
        unknown = [s for s in setup.starts if s not in points]
        if unknown:
            raise ValueError(f"setup for {players} names unknown orientation points {unknown}")
        self.starts = tuple(points[s] for s in setup.starts)
        self.points = frozenset(points.values())
        self.obstacles = frozenset((o.q, o.r) for o in arena.obstacles)
        if not model.characters:
            raise ValueError("no characters")
        roster = {c.id: c for c in model.characters}
        if characters is None:
            chosen = [model.characters[i % len(model.characters)] for i in range(players)]
        else:
            missing = [c for c in characters if c not in roster]
            if missing or len(characters) != players:
                raise ValueError(f"characters {list(characters)!r}: need {players} of {roster}")
            chosen = [roster[c] for c in characters]
        self.characters: tuple[Character, ...] = tuple(chosen)

        # The card table and the arena's tables (with the content checks they make) are the
        # same for every table of a model: built once and shared, for a simulation builds a
        # table per drafted cast. Attributes, so the hot paths read them directly.
        builder = _SHARED.get(model, lambda: self._built(model))
        if builder is not self:
            for name in SHARED_TABLES:
                setattr(self, name, getattr(builder, name))
        self.draft = draft
        self._decks = [self._kits[c.id][0] for c in self.characters]
        self._talents = [self._kits[c.id][1] for c in self.characters]

        # Per table: who is whose enemy, the plays naming a seat, the task handlers.
        self._team_of = tuple(
            frozenset(s for s in range(players) if self.teams[s] == self.teams[seat])
            for seat in range(players)
        )
        """Each seat's team, the seat included (who a card that is not 无差别 spares)."""
        self._mates = tuple(tuple(sorted(team - {seat})) for seat, team in enumerate(self._team_of))
        self._enemies = tuple(
            tuple(s for s in range(players) if self.teams[s] != self.teams[seat])
            for seat in range(players)
        )
        self._plans: list[list[tuple[Task, ...] | None]] = [
            [None] * len(self.tokens) for _ in range(players)
        ]
        """Per seat and card, the tasks of playing it (``_plan``), as they are first asked."""
        self._members = tuple(
            (team, tuple(i for i in range(players) if self.teams[i] == team))
            for team in sorted(set(self.teams))
        )
        self._handlers = {
            name.removeprefix("_task_"): getattr(self, name)
            for name in dir(type(self))
            if name.startswith("_task_")
        }
        self._targeted_plays = [targeted_plays(token, players) for token in self.tokens]
        seat_plays = self._seat_plays_by_teams.get(self.teams)
        if seat_plays is None:  # the same for every table of these teams (a drafted cast)
            seat_plays = self._seat_plays_by_teams[self.teams] = [
                [self._fixed_plays(seat, code) for code in range(len(self.tokens))]
                for seat in range(players)
            ]
        self._seat_plays = seat_plays
        """Per seat, each card's plays when they do not depend on the position (None: 锁定,
        whose targets are the characters in range)."""

    def _built(self, model: ArenaTales) -> ArenaTalesRules:
        """This table, after building the tables of ``model`` (for the tables after it)."""
        self._build_tables(model)
        return self

    def _build_tables(self, model: ArenaTales) -> None:
        """The tables of the cards and the arena (the same for every table of ``model``)."""
        settings = model.settings
        self._build_hex_tables()  # the arena's (movement.py); then the cards'
        # The card table: every card name of the game.
        self.cards: tuple[Card, ...] = model.cards
        self.tokens = [card.id for card in model.cards]
        self._by_token = {token: code for code, token in enumerate(self.tokens)}
        if len(self._by_token) != len(self.tokens) or not all(map(_TOKEN.match, self.tokens)):
            raise ValueError("card ids are not unique lowercase slugs")
        for card in self.cards:
            if card.type is CardType.DAMAGE and card.damage is None:
                raise ValueError(f"damage card {card.id!r} has no damage")
            if any(spec is None for spec in card.ranges) or len(card.ranges) != RULE_DIRECTIONS:
                raise ValueError(f"card {card.id!r} has a range that does not parse")
        self._ranges: list[tuple[RangeSpec, ...]] = [
            tuple(spec for spec in card.ranges if spec is not None) for card in self.cards
        ]
        self._colour = [card.colour for card in self.cards]
        self._sides = [
            tuple(
                (side, spec.kind, spec.reach)
                for side, spec in enumerate(ranges)
                if spec.kind is not RangeKind.NONE
            )
            for ranges in self._ranges
        ]
        self._reach_span = [
            (min(r for _, _, r in sides), max(r for _, _, r in sides))
            if card.type is CardType.DAMAGE and sides
            else None
            for card, sides in zip(self.cards, self._sides, strict=True)
        ]
        """Per card, the least and greatest reach of its sides if it deals damage (for
        ``combat.reach_limit``), else None."""
        self._has = [frozenset(e.kind for e in card.effects) for card in self.cards]
        self._stays = [
            card.type is CardType.TALENT
            or bool({EffectKind.PERMANENT, EffectKind.CRYSTAL} & self._has[i])
            for i, card in enumerate(self.cards)
        ]
        self._responds = [
            any(e.timing is Timing.RESPONSE for e in card.effects) for card in self.cards
        ]
        self._targeted = [
            card.type is not CardType.DAMAGE
            and any(
                e.kind in (EffectKind.SEE_THROUGH, EffectKind.EXHAUST)
                and e.timing is not Timing.RESPONSE
                for e in card.effects
            )
            for card in self.cards
        ]

        # Decks: the shared names and the character's own, copies_per_name each (the deck
        # size is checked against settings.deck_size); the whole roster's, for drafted tables.
        if len(model.cards) != settings.card_names:
            raise ValueError(f"{len(model.cards)} card names, not {settings.card_names}")
        self._kits = {c.id: self._kit(c) for c in model.characters}
        self._owner = {c.colour: c.id for c in model.characters}
        self._draw_actions = [Draw(token) for token in self.tokens]

        self._play_kind = [
            TALENT
            if card.type is CardType.TALENT
            else LOCKED
            if EffectKind.LOCK in self._has[code]
            else TARGETED
            if self._targeted[code]
            else PLAIN
            for code, card in enumerate(self.cards)
        ]
        # Per card, what the hot paths ask (an EffectKind set lookup hashes in Python).
        self._maintain_need = [self._amount(c, EffectKind.MAINTAIN) for c in range(len(self.cards))]
        self._asks_maintain = [
            EffectKind.MAINTAIN in has and not stays
            for has, stays in zip(self._has, self._stays, strict=True)
        ]
        self._locks = [EffectKind.LOCK in has for has in self._has]
        self._damaging = [card.type is CardType.DAMAGE for card in self.cards]
        self._discard_rank = [
            (damaging, card.cost) for damaging, card in zip(self._damaging, self.cards, strict=True)
        ]
        """Per card, (deals damage, cost): the sensible policy discards the least first for a
        discard-move (a card that deals no damage, then the cheapest)."""
        self._fixed = [EffectKind.FIXED_DAMAGE in has for has in self._has]
        self._indiscriminate = [EffectKind.INDISCRIMINATE in has for has in self._has]
        self._knock = [self._amount(c, EffectKind.KNOCKBACK) for c in range(len(self.cards))]
        self._counter = [
            self._amount(c, EffectKind.COUNTER) if EffectKind.COUNTER in has else None
            for c, has in enumerate(self._has)
        ]
        self._reach_bonus = self._bonus_table(EffectKind.REACH)
        self._damage_bonus = self._bonus_table(EffectKind.DAMAGE_UP)
        self._effect_calls = [
            tuple((EFFECTS.get(e.kind), e.amount, e.timing) for e in card.effects)
            for card in self.cards
        ]
        self._timed = {
            timing: [
                tuple(i for i, e in enumerate(card.effects) if e.timing is timing)
                for card in self.cards
            ]
            for timing in Timing
        }
        self._talent_life = [
            sum(e.amount for e in card.effects if e.kind is EffectKind.LIFE) for card in self.cards
        ]
        """Per card, the life a talent changes when it is used (生命 ±X)."""
        self._play_actions = [Play(token) for token in self.tokens]
        self._move_rows = [move_row(token) for token in self.tokens]
        self._stall_actions = [Stall(token) for token in self.tokens]
        self._discard_actions = [Discard(token) for token in self.tokens]
        self._boosts = {boost.element: boost for boost in model.elements}
        self._seat_plays_by_teams: dict[tuple[int, ...], list[list[tuple[Play, ...] | None]]]
        self._seat_plays_by_teams = {}
        """``_seat_plays`` of every table of the model, by its teams."""
        self._covers = [
            [sum({1 << (facing + side) % 6 for side, _, _ in sides}) for facing in range(6)]
            for sides in self._sides
        ]
        """Per card and facing, a bit per direction a side of its range points in."""
        self._lines_exact = all(
            spec.reach >= 0 for ranges in self._ranges for spec in ranges
        ) and all(bonus >= 0 for table in self._reach_bonus for bonus in table)
        """Whether a card reaches only along the lines ``_covers`` names (no reach that a
        negative bonus could turn round), so ``_lock_hits`` may skip a board with no one on
        them."""

    def _kit(self, character: Character) -> tuple[tuple[int, ...], int | None]:
        """A character's deck (card codes, sorted) and talent."""
        settings, model = self.model.settings, self.model
        names = model.deck_of(character)
        shared = len(model.shared_cards)
        if shared != settings.shared_names or len(names) - shared != settings.own_names:
            raise ValueError(
                f"deck of {character.id!r}: {shared} shared + {len(names) - shared} own names, "
                f"the settings call for {settings.shared_names} + {settings.own_names}"
            )
        deck = sorted(
            self._by_token[card.id] for card in names for _ in range(settings.copies_per_name)
        )
        if len(deck) != settings.deck_size:
            raise ValueError(
                f"deck of {character.id!r} holds {len(deck)} cards, not {settings.deck_size}"
            )
        talent = model.talent_of(character)
        return tuple(deck), None if talent is None else self._by_token[talent.id]

    # -- the protocol -------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return self.players

    def initial_state(self, rng: random.Random) -> ArenaState:
        seats = []
        kits = list(zip(self._decks, self._talents, strict=True))
        if self.draft:
            kits = [self._kits[c] for c in rng.sample(sorted(self._kits), self.players)]
        choices: list[Task] = []
        for seat, (cards, talent) in enumerate(kits):
            deck = list(cards)
            display: tuple[tuple[int, int], ...] = ()
            life_change = 0
            if talent is not None:
                # 初始天赋 is the player's choice (``Talent``). The deal of a player who uses
                # it is made now: the talent face up in the display, life with its change. One
                # who does not takes both back into the deck and is dealt life again from it,
                # card by card (chance): the same deal as choosing first, and no chance step
                # for the usual choice.
                deck.remove(talent)
                display = ((talent, UP),)
                life_change = self._talent_life[talent]
                choices.append(("talent", seat))
            rng.shuffle(deck)
            # Life: settings.life cards (changed by the talent) from the top of the deck.
            count = max(0, min(len(deck), self.life + life_change))
            pos = self.starts[seat]
            seats.append(
                Seat(
                    pos=pos,
                    facing=hexgrid.facing_towards(pos, (0, 0)),
                    hand=(),
                    deck=tuple(sorted(deck[count:])),
                    recycle=(),
                    exhausted=(),
                    life=tuple(sorted(deck[:count])),
                    display=display,
                )
            )
        state = ArenaState(seats=tuple(seats), active=0, turn=0, queue=(*choices, ("start", 0)))
        self._settle(state)
        return state

    def current_player(self, state: ArenaState) -> int | None:
        if state.ended is not None:
            return None
        if not state.queue:
            return state.active
        task = state.queue[0]
        return None if task[0] in CHANCE_TASKS else task_seat(task)

    def is_chance(self, state: ArenaState) -> bool:
        return state.ended is None and bool(state.queue) and state.queue[0][0] in CHANCE_TASKS

    def is_terminal(self, state: ArenaState) -> bool:
        return state.ended is not None

    def turns(self, state: ArenaState) -> int:
        return state.turn

    def legal_actions(self, state: ArenaState) -> list[Action]:
        """In a player's turn: the plays, card by card, then the discard-moves, card by card,
        each card over the same steps in the same order; stalls only when there is neither
        (the sensible policy reads the moves in this order)."""
        if state.ended is not None:
            return []
        if state.queue:
            task = state.queue[0]
            name = task[0]
            if name in CHANCE_TASKS:
                draws = self._draw_actions
                return [draws[c] for c in distinct(self._source(state, task))]
            seat = state.seats[task_seat(task)]
            if name == "absorb":
                return self._absorbs(min(arg(task, 2) // 2, len(seat.life)))
            if name == "discard":
                discards = self._discard_actions
                return [discards[c] for c in distinct(seat.hand)]
            if name == "maintain":
                need = self._maintain_need[seat.display[arg(task, 2)][0]]
                return [MAINTAIN_KEEP, MAINTAIN_DROP] if len(seat.hand) >= need else []
            if name == "dash":
                return self._dashes(self._dash_reach(state, task_seat(task), arg(task, 2)))
            if name == "reveal":
                display = state.seats[arg(task, 2)].display
                return [reveal_action(i) for i, (_, face) in enumerate(display) if face == DOWN]
            if name == "talent":
                return [TALENT_USE, TALENT_SKIP]
            raise AssertionError(f"task {task!r} waits for nothing")  # pragma: no cover
        hand = state.seats[state.active].hand
        codes = sorted(set(hand)) if len(hand) > 1 else hand  # piles.distinct
        actions: list[Action] = []
        fixed = self._seat_plays[state.active]
        for code in codes:
            plays = fixed[code]
            actions += self._locked_plays(state, code) if plays is None else plays
        steps, pick = self._step_set(state)
        if steps:
            rows = self._move_rows
            for code in codes:
                actions += pick(rows[code])
        if not actions:
            # Decided: with no play and no move possible, discard a card where you stand.
            stalls = self._stall_actions
            actions = [stalls[c] for c in codes]
        state.vetted = tuple(actions)  # apply need not check one of these again
        return actions

    def is_legal(self, state: ArenaState, action: object) -> bool:
        """Whether ``action`` is one of ``legal_actions(state)``, without listing them all:
        the same test, asked of the one action (what ``apply`` checks)."""
        return self._check(state, action) is not None

    def _check(self, state: ArenaState, action: object) -> int | None:
        """``is_legal``: None if ``action`` is not legal, else the code of its card (``NO_CARD``
        for an action that names none), for ``apply`` to use."""
        if state.ended is not None:
            return None
        if state.queue:
            task = state.queue[0]
            name = task[0]
            seat = state.seats[task_seat(task)]
            if name in CHANCE_TASKS:
                return self._drawn(state, action) if type(action) is Draw else None
            if name == "absorb":
                if type(action) is not Absorb:
                    return None
                most = min(arg(task, 2) // 2, len(seat.life))
                return NO_CARD if action.face_up in range(most + 1) else None
            if name == "discard":
                if type(action) is not Discard:
                    return None
                code = self._code(action.card)
                return code if code is not None and code in seat.hand else None
            if name == "maintain":
                if type(action) is not Maintain:
                    return None
                need = self._maintain_need[seat.display[arg(task, 2)][0]]
                legal = len(seat.hand) >= need and action.keep in (True, False)
                return NO_CARD if legal else None
            if name == "dash":
                if type(action) is not Dash:
                    return None
                reach = self._dash_reach(state, task_seat(task), arg(task, 2))
                return NO_CARD if action.steps in range(reach + 1) else None
            if name == "reveal":
                if type(action) is not Reveal:
                    return None
                display = state.seats[arg(task, 2)].display
                index = action.index
                legal = type(index) is int and 0 <= index < len(display)
                return NO_CARD if legal and display[index][1] == DOWN else None
            if name == "talent":
                return NO_CARD if type(action) is Talent and action.use in (True, False) else None
            raise AssertionError(f"task {task!r} waits for nothing")  # pragma: no cover
        if type(action) is not Move and type(action) is not Play and type(action) is not Stall:
            return None
        try:
            code = self._by_token.get(action.card)
        except TypeError:  # not even a string
            return None
        if code is None or code not in state.seats[state.active].hand:
            return None
        if isinstance(action, Move):
            if action.direction not in SIX or action.facing not in SIX:
                return None
            return code if self._step_ok(state, int(action.direction), int(action.facing)) else None
        if isinstance(action, Play):
            if self._play_kind[code] == PLAIN:
                return code if action.target is None else None
            return code if self._playable(state, code, action.target) else None
        # A stall only when there is no play and no move at all.
        stuck = not self._steps(state) and not any(
            self._playable(state, c, ANY_TARGET) for c in distinct(state.seats[state.active].hand)
        )
        return code if stuck else None

    def _drawn(self, state: ArenaState, action: Draw) -> int | None:
        """``_check`` of a chance outcome: the code of its card if a chance task is due and
        its pile holds the card, else None."""
        queue = state.queue
        if state.ended is not None or not queue or queue[0][0] not in CHANCE_TASKS:
            return None
        task = queue[0]
        seat = state.seats[task_seat(task)]
        try:
            code = self._by_token.get(action.card)
        except TypeError:  # not even a string
            return None
        pile = seat.life if task[0] == "lose" else seat.deck or seat.life  # _source
        return code if code is not None and code in pile else None

    def chance_outcomes(self, state: ArenaState) -> list[tuple[Action, float]]:
        if not self.is_chance(state):
            return []
        pile = self._source(state, state.queue[0])
        total = len(pile)
        return [(self._draw_actions[c], k / total) for c, k in sorted(Counter(pile).items())]

    def sample_chance(self, state: ArenaState, rng: random.Random) -> Action:
        queue = state.queue
        if queue and state.ended is None:
            task = queue[0]
            name = task[0]
            if name in CHANCE_TASKS:
                seat = state.seats[task_seat(task)]
                pile = seat.life if name == "lose" else seat.deck or seat.life  # _source
                action = self._draw_actions[pile[int(rng.random() * len(pile))]]
                state.vetted = (action,)  # apply need not check it again
                return action
        raise ValueError(f"no chance step is due in {self.notation(state)}")

    def apply(self, state: ArenaState, action: Action) -> ArenaState:
        # The very object legal_actions listed (or sample_chance drew) for this state is legal
        # (found by identity: == would call a dataclass __eq__ per action listed before it).
        listed = False
        if state.vetted is not None:
            for known in state.vetted:
                if known is action:
                    listed = True
                    break
        if listed:
            if isinstance(action, (Move, Play, Stall, Discard, Draw)):
                code = self._by_token[action.card]
            else:
                code = NO_CARD
        else:
            checked = self._check(state, action)
            if checked is None:
                raise self._refusal(state, action)
            code = checked
        # The seat the action writes to is copied with the state; the others are shared.
        # Exactly one of the action types (``_check`` saw to it): no subclass to allow for.
        if type(action) is Draw:
            # Half the steps of a game.
            s = fork(state, task_seat(state.queue[0]))
            if not self._take(s, code):
                self._settle(s)
            return s  # else the same task takes its next card: nothing to resolve
        if type(action) is Move or type(action) is Stall:
            s = fork(state, state.active)
            self._move(s, action, code)
        elif type(action) is Play:
            s = fork(state, state.active)
            self._play(s, action, code)
        else:
            s = fork(state, task_seat(state.queue[0]))
            self._decide(s, action)
        self._settle(s)
        return s

    def outcome(self, state: ArenaState) -> Outcome:
        if state.ended is None:
            raise ValueError(f"game not over: {self.notation(state)}")
        return Outcome(frozenset(state.winners), state.ended)

    def declares(self) -> Declaration:
        return Declaration(
            game=SLUG,
            effects=frozenset(EFFECTS) | frozenset(Timing),
            modes=frozenset(Mode),
            settings=SETTINGS_READ,
            options=frozenset({"players", "characters"}),
        )

    # -- reading the table ----------------------------------------------------------------

    def team(self, seat: int) -> int:
        return self.teams[seat]

    def enemies(self, seat: int) -> list[int]:
        return [s for s in range(self.players) if self.teams[s] != self.teams[seat]]

    def cast(self, state: ArenaState) -> tuple[str, ...]:
        """The character of each seat, read from the colour of the seat's own cards."""
        return tuple(self._character_of(seat) for seat in state.seats)

    def _character_of(self, seat: Seat) -> str:
        # The first card of a character's colour, zone by zone (shared cards have none).
        owner, colour = self._owner, self._colour
        for zone in (seat.life, seat.deck, seat.hand, seat.recycle, seat.exhausted):
            for c in zone:
                found = owner.get(colour[c])
                if found is not None:
                    return found
        for c, _ in seat.display:
            found = owner.get(colour[c])
            if found is not None:
                return found
        raise StopIteration  # no card of a character's colour: as next() on none found

    def resample(self, state: ArenaState, seat: int, rng: random.Random) -> ArenaState:
        """A position ``seat`` cannot tell from ``state``, for the search player
        (``state.redeal_hidden``)."""
        return redeal_hidden(state, seat, rng)

    def card(self, token: str) -> Card:
        return self.cards[self._by_token[token]]

    def _bonus_table(self, kind: EffectKind) -> tuple[list[int], list[int], list[int]]:
        """Per card, the ``kind`` bonus it gives face up in a display: as a talent (初始天赋),
        as 展示中 (which the card in resolution does not give itself), and both."""
        talent = [0] * len(self.cards)
        displayed = [0] * len(self.cards)
        for code, card in enumerate(self.cards):
            for e in card.effects:
                if e.kind is kind and e.timing is Timing.TALENT:
                    talent[code] += e.amount
                elif e.kind is kind and e.timing is Timing.DISPLAYED:
                    displayed[code] += e.amount
        return talent, displayed, [t + d for t, d in zip(talent, displayed, strict=True)]

    def _amount(self, code: int, kind: EffectKind) -> int:
        return next((e.amount for e in self.cards[code].effects if e.kind is kind), 0)

    def _source(self, state: ArenaState, task: Task) -> tuple[int, ...]:
        """The pile a chance task takes from (see ``_settle`` for the order of piles)."""
        seat = state.seats[task_seat(task)]
        if task[0] == "lose":
            return seat.life
        return seat.deck or seat.life

    # -- legal actions ------------------------------------------------------------------

    def _locked_plays(self, state: ArenaState, code: int) -> list[Play]:
        """锁定: there must be a character in range to lock; name one."""
        row = self._targeted_plays[code]
        return [row[t] for t, _, _ in self._lock_hits(state, code)]

    def _fixed_plays(self, seat: int, code: int) -> tuple[Play, ...] | None:
        """The plays of ``code`` by ``seat`` wherever the pieces stand; None for 锁定
        (``_locked_plays``)."""
        kind = self._play_kind[code]
        if kind == PLAIN:
            return (self._play_actions[code],)
        if kind == TARGETED:
            row = self._targeted_plays[code]
            return tuple(row[t] for t in self._enemies[seat])
        if kind == LOCKED:
            return None
        return ()  # TALENT: decided, a talent drawn later can only be discarded.

    def _playable(self, state: ArenaState, code: int, target: object) -> bool:
        """Whether the active player may play ``code`` (in hand) naming ``target``; with
        ``ANY_TARGET``, whether it can be played at all."""
        kind = self._play_kind[code]
        if kind == PLAIN:
            return target is None or target is ANY_TARGET
        if kind == LOCKED:
            hits = self._lock_hits(state, code)
            return bool(hits) if target is ANY_TARGET else target in [t for t, _, _ in hits]
        if kind == TARGETED:
            enemies = self._enemies[state.active]
            return bool(enemies) if target is ANY_TARGET else target in enemies
        return False

    def _lock_hits(self, state: ArenaState, code: int) -> list[tuple[int, int, int | None]]:
        seat_index = state.active
        seat = state.seats[seat_index]
        if self._lines_exact:
            # Every range runs along a line the card covers: with no one on such a line (most
            # of the time), nothing is in range, without the bonuses and the rays.
            covered = self._covers[code][seat.facing]
            lines = self._lines[seat.pos]
            for other in state.seats:
                direction = lines.get(other.pos)
                if direction is not None and covered >> direction & 1:
                    break
            else:
                return []
        return combat.hits(self, state, seat_index, code, combat.range_bonus(self, seat, None))

    def _absorbs(self, most: int) -> list[Action]:
        # Life: every 2 damage may be paid with one life card face up instead of two face down.
        return list(absorb_options(most))

    def _code(self, token: str) -> int | None:
        """The code of a card id, None if there is no such card."""
        try:
            return self._by_token.get(token)
        except TypeError:  # not even a string
            return None

    # -- the tasks that call combat and the effects (the rest of the queue: turn.py) -----

    # Here, not in turn.py, for combat's functions and the effect handlers take an
    # ArenaTalesRules: passed from a mixin, self would need a cast, a call per task.

    def _task_effect(self, s: ArenaState, task: Task) -> None:
        seat_index, code, index = task_seat(task), arg(task, 2), arg(task, 3)
        handler, amount, timing = self._effect_calls[code][index]
        if handler is not None:
            handler(self, s, seat_index, code, amount, timing)

    def _task_combat(self, s: ArenaState, task: Task) -> None:
        """[4] Hits in range, display modifiers, damage, the sanity flip, knock-back."""
        attacker = s.active
        seat = s.seats[attacker]
        code = s.play[PLAY_CARD]
        card = self.cards[code]
        fixed = self._fixed[code]
        hits = combat.hits(self, s, attacker, code, combat.range_bonus(self, seat, s.play))
        if self._locks[code]:
            # 锁定: only the named character takes this damage.
            hits = [h for h in hits if h[0] == s.play[PLAY_TARGET]]
        if not hits:
            s.hits = ()
            return
        base = card.damage or 0
        # 固定伤害 ignores every bonus; otherwise the card's own bonuses and the display's.
        bonus = (
            0
            if fixed
            else s.play[PLAY_DAMAGE] + combat.display_bonus(self, seat, EffectKind.DAMAGE_UP, code)
        )
        knock = self._knock[code]
        damage_tasks: list[Task] = []
        push_tasks: list[Task] = []
        order = sorted(hits, key=lambda h: (h[0] - attacker) % self.players) if hits[1:] else hits
        landed: list[int] = []
        for target, direction, falloff in order:
            amount = max(0, base + bonus)
            if falloff is not None:
                # Charge: full damage at the maximum distance, -1 per hex closer, at least 1.
                amount = max(1, amount - falloff)
            if combat.countered(self, s, target, base) and amount > 0:
                continue
            landed.append(target)
            damage_tasks += combat.damage(self, s, target, amount)
            if knock:
                push_tasks.append(("push", target, direction, knock))
        # Decided (counter-reach): a countered character is not hit at all, so the card's
        # 打出后 effects on the characters it hit pass them by too.
        s.hits = tuple(landed)
        s.queue = (*damage_tasks, *push_tasks, *s.queue)

    # -- invariants -----------------------------------------------------------------------

    def invariant_problems(self, s: ArenaState) -> list[str]:
        problems = []
        cast = self.cast(s)
        for index, seat in enumerate(s.seats):
            cards = sorted(
                (
                    *seat.hand,
                    *seat.deck,
                    *seat.recycle,
                    *seat.exhausted,
                    *seat.life,
                    *(c for c, _ in seat.display),
                )
            )
            if s.play and index == s.active and ("place",) in s.queue:
                cards = sorted((*cards, s.play[PLAY_CARD]))  # [1]-[2]: between hand and display
            if tuple(cards) != self._kits[cast[index]][0]:
                problems.append(f"seat {index}: cards not conserved ({len(cards)})")
            if not seat.deck and seat.recycle:
                problems.append(f"seat {index}: an empty deck beside a recycle pile")
            if not hexgrid.in_map(seat.pos, self.radius) or seat.pos in self.obstacles:
                problems.append(f"seat {index} stands off the floor at {seat.pos}")
        if len({seat.pos for seat in s.seats}) != self.players:
            problems.append("two pieces share a hex")
        if s.ended is None and not s.queue and not s.seats[s.active].hand:
            problems.append("the active player waits with an empty hand")
        return problems

    def check_invariants(self, state: ArenaState) -> None:
        problems = self.invariant_problems(state)
        if problems:
            raise InvariantViolation(f"{'; '.join(problems)} in {self.notation(state)}")

    # -- notation -------------------------------------------------------------------------

    def notation(self, s: ArenaState) -> str:
        return format_state(self, s)

    def from_notation(self, text: str) -> ArenaState:
        return parse_state(self, text)

    def parse_action(self, text: str) -> Action:
        return parse_action(self, text)

    def _refusal(self, state: ArenaState, action: object) -> IllegalActionError:
        if state.ended is not None:
            return self._illegal(state, action, "the game is over")
        if not isinstance(action, ACTION_TYPES):
            return self._illegal(state, action, f"not an {SLUG} action")
        return self._illegal(state, action, "not a legal action here")

    def _illegal(self, state: ArenaState, action: object, why: str) -> IllegalActionError:
        return IllegalActionError(f"illegal action {action!r} in {self.notation(state)}: {why}")
