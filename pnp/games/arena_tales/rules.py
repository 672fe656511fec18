"""Arena Tales (斗擂奇谭) as a plain rules library: every number comes from the model.

The rules of the post (shared/seeds/002_e9a2f11918556f0f.txt) and the decisions recorded in
content/arena-tales/game.yaml (cited as "decided" where the code encodes them):

- Seats 0..n-1 take turns clockwise; the "next player" is seat + 1. Teams and starting
  orientation points come from the arena's setup for the player count; pieces start facing the
  centre. Each seat plays the character of the same index (modulo the roster), or the ones
  given to the constructor.
- Set-up: the talent goes face up into the display (decided: always), the deck is shuffled and
  ``settings.life`` (+ talent life) cards are dealt face down to the life zone. No hand.
- A turn: start step (maintain choices, clear the display, draw the pending draw, then refill to
  ``settings.hand_refill``), then any number of plays and discard-moves; it ends after the card
  in resolution when the next player's pending draw reached ``settings.forced_end``, or when the
  hand is empty; end step: discard to ``settings.hand_limit``, then the sanity flip.
- Playing a card follows the timing steps [1]-[7] as a queue of tasks (``ArenaState.queue``):
  before-play effects, cost, placing, on-play effects, combat, after-play effects, recorded
  responses, then the end check. Decisions inside (how much damage to take face up, what to
  discard, whether to maintain) belong to the player concerned; draws and life cards are chance.

Chance is explicit (``pnp.engines.base``): deck, recycle and life are multisets and each card
taken from them is a chance outcome ``Draw(card)``, which is exactly drawing from the top of a
shuffled pile. Shuffling the recycle pile into an empty deck is therefore just moving it.
"""

from __future__ import annotations

import enum
import random
import re
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pnp.engines import hexgrid
from pnp.engines.base import (
    Declaration,
    InvariantViolation,
    Outcome,
    Policy,
    RandomPolicy,
    Rules,
    play_game,
)
from pnp.engines.piles import distinct as _distinct
from pnp.engines.piles import with_card as _insert
from pnp.engines.piles import without as _remove
from pnp.errors import IllegalActionError
from pnp.games.arena_tales.model import (
    EFFECT_KEYWORDS,
    TIMING_KEYWORDS,
    ArenaTales,
    Card,
    CardType,
    Character,
    EffectKind,
    Element,
    Keyword,
    RangeKind,
    RangeSpec,
    Timing,
)

SLUG = "arena-tales"

TURN_CAP = 400
"""Simulations stop a game after this many turns and report a cap hit. Every card played ends
in an exhausted pile, so decks run dry and life is drawn; natural games end far sooner."""

RULE_PLAYERS = (2, 4, 6)
"""The player counts of the post (teams in 4 and 6), for the validator."""
RULE_CHARACTERS = 8
RULE_DIRECTIONS = 6
RULE_ORIENTATION_POINTS = 6
RULE_DECK = {"shared": 4, "own": 12, "copies": 2, "names": 100, "life": 18}
"""What the post fixes about decks and life, for the validator to check content against."""

RULE_KEYWORDS = frozenset({Keyword.ORIENTATION_POINT, Keyword.SANITY, Keyword.OUT_OF_CONTROL})
"""Keywords the rules core implements (facing changes, the sanity flip, the move restriction)
rather than a card effect."""

_TOKEN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


class Mode(enum.Enum):
    DUEL = "duel"
    """Two players, one against one."""
    TEAMS = "teams"
    """Four or six players in two alternating teams; a player at 0 life stays in."""


class Termination(enum.Enum):
    ALL_DOWN = "all_down"
    """Every player of the losing team is at 0 life."""
    EXHAUSTED = "exhausted"
    """A player of the losing team has no card in deck, recycle and life."""


# -- actions --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card from hand; ``target`` is the seat a lock or targeted card names."""

    card: str
    target: int | None = None

    def __str__(self) -> str:
        return f"play:{self.card}" + ("" if self.target is None else f"@{self.target}")


@dataclass(frozen=True, slots=True)
class Move:
    """Discard a card face down to the display, then step one hex; ``facing`` after the step."""

    card: str
    direction: int
    facing: int

    def __str__(self) -> str:
        return f"move:{self.card}:{self.direction}:{self.facing}"


@dataclass(frozen=True, slots=True)
class Stall:
    """Decided: with no play and no move possible, discard a card without moving."""

    card: str

    def __str__(self) -> str:
        return f"stall:{self.card}"


@dataclass(frozen=True, slots=True)
class Discard:
    """Choose a card for a pending discard (弃牌 X, maintain, discard to the hand limit)."""

    card: str

    def __str__(self) -> str:
        return f"discard:{self.card}"


@dataclass(frozen=True, slots=True)
class Absorb:
    """Take pending damage with ``face_up`` life cards face up (2 damage each), rest face down."""

    face_up: int

    def __str__(self) -> str:
        return f"absorb:{self.face_up}"


@dataclass(frozen=True, slots=True)
class Maintain:
    """维持: keep the card (paying its discards) or let it be exhausted."""

    keep: bool

    def __str__(self) -> str:
        return "maintain:keep" if self.keep else "maintain:drop"


@dataclass(frozen=True, slots=True)
class Draw:
    """Chance: the card taken from the pile the task at the head of the queue draws from."""

    card: str

    def __str__(self) -> str:
        return f"draw:{self.card}"


Action = Play | Move | Stall | Discard | Absorb | Maintain | Draw

# Display entry states: face down, face up, face up and maintained through this clean-up.
DOWN, UP, KEPT = 0, 1, 2
# Draw destinations.
TO_HAND, TO_DISPLAY = 0, 1


@dataclass(slots=True)
class Seat:
    """One player's piece and zones. Cards are codes into ``ArenaTalesRules.tokens``."""

    pos: tuple[int, int]
    facing: int
    hand: tuple[int, ...]
    """Sorted."""
    deck: tuple[int, ...]
    """A sorted multiset (its order is chance)."""
    recycle: tuple[int, ...]
    """A sorted multiset (face down)."""
    exhausted: tuple[int, ...]
    """A face-up stack, last = top."""
    life: tuple[int, ...]
    """A sorted multiset (face down)."""
    display: tuple[tuple[int, int], ...]
    """(card, DOWN/UP/KEPT) in the order the cards were placed."""
    sane: bool = True
    pending: int = 0
    """Cards this seat draws at the start of its next turn (the previous player's costs)."""
    zero_turn: int = -1
    """The turn in which this seat's life reached 0 (-1: life above 0)."""
    dead_start: bool = False
    """Life was 0 at the start of this seat's own turn: it cannot heal (team rule)."""

    def copy(self) -> Seat:
        return Seat(
            self.pos,
            self.facing,
            self.hand,
            self.deck,
            self.recycle,
            self.exhausted,
            self.life,
            self.display,
            self.sane,
            self.pending,
            self.zero_turn,
            self.dead_start,
        )


Task = tuple[Any, ...]
"""(name, *ints): a step still to resolve; see ``ArenaTalesRules._settle``."""


@dataclass(slots=True)
class ArenaState:
    seats: tuple[Seat, ...]
    active: int
    turn: int
    queue: tuple[Task, ...] = ()
    played: int = 0
    """Cards played this turn."""
    last_colour: str = ""
    """Colour of the last card played this turn (for 连击)."""
    dealt: bool = False
    """The active player dealt damage this turn."""
    forced: bool = False
    """The forced end was triggered by the card in resolution."""
    play: tuple[int, ...] = ()
    """The card in resolution: (card, target or -1, damage bonus, range bonus, cost change,
    combo 0/1)."""
    hits: tuple[int, ...] = ()
    """Seats the card in resolution hit."""
    responses: tuple[tuple[int, int], ...] = ()
    """Recorded responses (seat, card), resolved at step [6]."""
    ended: Termination | None = None
    winners: tuple[int, ...] = ()


_PLAY, _TARGET, _DMG, _RANGE, _COST, _COMBO = range(6)
_DECISIONS = frozenset({"absorb", "discard", "maintain"})
_CHANCE = frozenset({"draw", "lose"})


class ArenaTalesRules:
    """The rules of Arena Tales for one table: ``Rules[ArenaState, Action]``."""

    slug = SLUG

    def __init__(
        self,
        model: ArenaTales,
        players: int,
        characters: Sequence[str] | None = None,
    ) -> None:
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
        self._floor = frozenset(hexgrid.cells(self.radius)) - self.obstacles
        self._around = {
            h: tuple((d, hexgrid.neighbour(h, d)) for d in range(6)) for h in self._floor
        }
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
        # size is checked against settings.deck_size).
        self._decks: list[tuple[int, ...]] = []
        self._talents: list[int | None] = []
        for character in self.characters:
            names = model.deck_of(character)
            if (
                len(model.shared_cards) != settings.shared_names
                or len(names) - len(model.shared_cards) != settings.own_names
            ):
                raise ValueError(
                    f"deck of {character.id!r}: {len(model.shared_cards)} shared + "
                    f"{len(names) - len(model.shared_cards)} own names, the settings call for "
                    f"{settings.shared_names} + {settings.own_names}"
                )
            deck = sorted(
                self._by_token[card.id] for card in names for _ in range(settings.copies_per_name)
            )
            if len(deck) != settings.deck_size:
                raise ValueError(
                    f"deck of {character.id!r} holds {len(deck)} cards, not {settings.deck_size}"
                )
            if len(model.cards) != settings.card_names:
                raise ValueError(f"{len(model.cards)} card names, not {settings.card_names}")
            talent = model.talent_of(character)
            self._talents.append(None if talent is None else self._by_token[talent.id])
            self._decks.append(tuple(deck))
        self._draw_actions = [Draw(token) for token in self.tokens]
        self._boosts = {boost.element: boost for boost in model.elements}

    # -- the protocol -------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return self.players

    def initial_state(self, rng: random.Random) -> ArenaState:
        seats = []
        for seat in range(self.players):
            deck = list(self._decks[seat])
            display: tuple[tuple[int, int], ...] = ()
            life_change = 0
            talent = self._talents[seat]
            if talent is not None:
                # 初始天赋 (decided: always used): the talent goes face up into the display.
                deck.remove(talent)
                display = ((talent, UP),)
                life_change = sum(
                    e.amount for e in self.cards[talent].effects if e.kind is EffectKind.LIFE
                )
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
        state = ArenaState(seats=tuple(seats), active=0, turn=0, queue=(("start", 0),))
        self._settle(state)
        return state

    def current_player(self, state: ArenaState) -> int | None:
        if state.ended is not None:
            return None
        if not state.queue:
            return state.active
        task = state.queue[0]
        return None if task[0] in _CHANCE else task[1]

    def is_chance(self, state: ArenaState) -> bool:
        return state.ended is None and bool(state.queue) and state.queue[0][0] in _CHANCE

    def is_terminal(self, state: ArenaState) -> bool:
        return state.ended is not None

    def turns(self, state: ArenaState) -> int:
        return state.turn

    def legal_actions(self, state: ArenaState) -> list[Action]:
        if state.ended is not None:
            return []
        if state.queue:
            task = state.queue[0]
            name = task[0]
            if name in _CHANCE:
                return [self._draw_actions[c] for c in _distinct(self._source(state, task))]
            seat = state.seats[task[1]]
            if name == "absorb":
                return [Absorb(k) for k in self._absorb_options(seat, task[2])]
            if name == "discard":
                return [Discard(self.tokens[c]) for c in _distinct(seat.hand)]
            if name == "maintain":
                need = self._amount(seat.display[task[2]][0], EffectKind.MAINTAIN)
                return [Maintain(True), Maintain(False)] if len(seat.hand) >= need else []
            raise AssertionError(f"task {task!r} waits for nothing")  # pragma: no cover
        actions: list[Action] = [*self._plays(state), *self._moves(state)]
        if not actions:
            # Decided: with no play and no move possible, discard a card where you stand.
            actions = [Stall(self.tokens[c]) for c in _distinct(state.seats[state.active].hand)]
        return actions

    def chance_outcomes(self, state: ArenaState) -> list[tuple[Action, float]]:
        if not self.is_chance(state):
            return []
        pile = self._source(state, state.queue[0])
        total = len(pile)
        return [(self._draw_actions[c], k / total) for c, k in sorted(Counter(pile).items())]

    def sample_chance(self, state: ArenaState, rng: random.Random) -> Action:
        if self.is_chance(state):
            pile = self._source(state, state.queue[0])
            return self._draw_actions[pile[int(rng.random() * len(pile))]]
        raise ValueError(f"no chance step is due in {self.notation(state)}")

    def apply(self, state: ArenaState, action: Action) -> ArenaState:
        if state.ended is not None:
            raise self._illegal(state, action, "the game is over")
        kind = type(action)
        if kind not in (Play, Move, Stall, Discard, Absorb, Maintain, Draw):
            raise self._illegal(state, action, f"not an {SLUG} action")
        legal = self.legal_actions(state)
        if action not in legal:
            raise self._illegal(state, action, "not a legal action here")
        s = _clone(state)
        if kind is Draw:
            self._take(s, self._by_token[action.card])  # type: ignore[union-attr]
        elif kind is Play:
            self._play(s, action)  # type: ignore[arg-type]
        elif kind is Move or kind is Stall:
            self._move(s, action)  # type: ignore[arg-type]
        else:
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
            effects=frozenset(_EFFECTS) | frozenset(Timing),
            modes=frozenset(Mode),
            settings=frozenset(
                {
                    "settings.life",
                    "settings.hand_refill",
                    "settings.forced_end",
                    "settings.hand_limit",
                    "settings.deck_size",
                    "settings.copies_per_name",
                    "settings.shared_names",
                    "settings.own_names",
                    "settings.card_names",
                    "cards",
                    "cards.id",
                    "cards.colour",
                    "cards.type",
                    "cards.cost",
                    "cards.damage",
                    "cards.range",
                    "cards.effects",
                    "cards.effects.kind",
                    "cards.effects.timing",
                    "cards.effects.amount",
                    "cards.effects.element",
                    "characters",
                    "characters.id",
                    "characters.colour",
                    "elements",
                    "elements.element",
                    "elements.range",
                    "elements.damage",
                    "elements.cost",
                    "elements.draw",
                    "arenas.radius",
                    "arenas.orientation_points",
                    "arenas.orientation_points.id",
                    "arenas.orientation_points.q",
                    "arenas.orientation_points.r",
                    "arenas.obstacles",
                    "arenas.obstacles.q",
                    "arenas.obstacles.r",
                    "arenas.setups",
                    "arenas.setups.players",
                    "arenas.setups.starts",
                    "arenas.setups.teams",
                }
            ),
            options=frozenset({"players", "characters"}),
        )

    # -- reading the table ----------------------------------------------------------------

    def team(self, seat: int) -> int:
        return self.teams[seat]

    def enemies(self, seat: int) -> list[int]:
        return [s for s in range(self.players) if self.teams[s] != self.teams[seat]]

    def card(self, token: str) -> Card:
        return self.cards[self._by_token[token]]

    def _amount(self, code: int, kind: EffectKind) -> int:
        return next((e.amount for e in self.cards[code].effects if e.kind is kind), 0)

    def _occupant(self, state: ArenaState, hexagon: tuple[int, int]) -> int | None:
        for index, seat in enumerate(state.seats):
            if seat.pos == hexagon:
                return index
        return None

    def _free(self, state: ArenaState, hexagon: tuple[int, int]) -> bool:
        return hexagon in self._floor and all(seat.pos != hexagon for seat in state.seats)

    def _source(self, state: ArenaState, task: Task) -> tuple[int, ...]:
        """The pile a chance task takes from (see ``_settle`` for the order of piles)."""
        seat = state.seats[task[1]]
        if task[0] == "lose":
            return seat.life
        return seat.deck or seat.life

    # -- legal actions ------------------------------------------------------------------

    def _plays(self, state: ArenaState) -> list[Action]:
        seat_index = state.active
        seat = state.seats[seat_index]
        actions: list[Action] = []
        for code in _distinct(seat.hand):
            card = self.cards[code]
            token = self.tokens[code]
            if card.type is CardType.TALENT:
                continue  # decided: a talent drawn later can only be discarded
            if EffectKind.LOCK in self._has[code]:
                # 锁定: there must be a character in range to lock; name one.
                hits = self._hits(state, seat_index, code, self._range_bonus(seat, None))
                actions.extend(Play(token, t) for t, _, _ in hits)
            elif self._targeted[code]:
                actions.extend(Play(token, t) for t in self.enemies(seat_index))
            else:
                actions.append(Play(token))
        return actions

    def _moves(self, state: ArenaState) -> list[Action]:
        seat_index = state.active
        seat = state.seats[seat_index]
        enemies = [state.seats[e].pos for e in self.enemies(seat_index)]
        taken = {other.pos for other in state.seats}
        floor = self._floor
        free = [d for d, h in self._around[seat.pos] if h in floor and h not in taken]
        if not seat.sane:
            # 失控: a discard-move must end closer to at least one enemy (decided: any one;
            # when no free step does, the restriction lifts rather than freezing the piece).
            closer = [
                d
                for d in free
                if any(
                    hexgrid.distance(hexgrid.neighbour(seat.pos, d), e)
                    < hexgrid.distance(seat.pos, e)
                    for e in enemies
                )
            ]
            free = closer or free
        steps = []
        for direction in free:
            target = hexgrid.neighbour(seat.pos, direction)
            turning = seat.pos in self.points or target in self.points
            # 方位点: the piece may turn only when entering or leaving an orientation point.
            facings = range(6) if turning else (seat.facing,)
            steps.extend((direction, f) for f in facings)
        return [
            Move(self.tokens[c], direction, facing)
            for c in _distinct(seat.hand)
            for direction, facing in steps
        ]

    def _absorb_options(self, seat: Seat, amount: int) -> list[int]:
        # Life: every 2 damage may be paid with one life card face up instead of two face down.
        return list(range(min(amount // 2, len(seat.life)) + 1))

    # -- resolving player actions -------------------------------------------------------

    def _play(self, s: ArenaState, action: Play) -> None:
        seat_index = s.active
        code = self._by_token[action.card]
        seat = _own(s, seat_index)
        seat.hand = _remove(seat.hand, code)
        colour = self._colour[code]
        # 连击: a card was played before this turn and the last one played has this colour.
        combo = int(s.played > 0 and colour != "none" and s.last_colour == colour)
        s.play = (code, -1 if action.target is None else action.target, 0, 0, 0, combo)
        s.hits = ()
        card = self.cards[code]
        tasks: list[Task] = []
        # [1] lock and before-play; [2] cost; [3] place and on-play; [4] combat;
        # [5] after-play; [6] recorded responses; [7] the end check.
        tasks += self._effect_tasks(seat_index, code, Timing.BEFORE_PLAY)
        tasks += [("cost",), ("place",)]
        tasks += self._effect_tasks(seat_index, code, Timing.ON_PLAY)
        if card.type is CardType.DAMAGE:
            tasks.append(("combat",))
        tasks += self._effect_tasks(seat_index, code, Timing.AFTER_PLAY)
        tasks += [("responses",), ("finish",)]
        s.queue = (*tasks, *s.queue)

    def _effect_tasks(self, seat: int, code: int, timing: Timing) -> list[Task]:
        return [
            ("effect", seat, code, i)
            for i, e in enumerate(self.cards[code].effects)
            if e.timing is timing
        ]

    def _move(self, s: ArenaState, action: Move | Stall) -> None:
        seat = _own(s, s.active)
        code = self._by_token[action.card]
        # 弃牌: the card goes face down to the display, then the piece steps one hex.
        seat.hand = _remove(seat.hand, code)
        seat.display = (*seat.display, (code, DOWN))
        if type(action) is Move:
            seat.pos = hexgrid.neighbour(seat.pos, action.direction)
            seat.facing = action.facing
        # An empty hand ends the turn: _settle sees it once nothing is left to resolve.

    def _decide(self, s: ArenaState, action: Action) -> None:
        task, rest = s.queue[0], s.queue[1:]
        seat = _own(s, task[1])
        if type(action) is Discard:
            code = self._by_token[action.card]
            seat.hand = _remove(seat.hand, code)
            seat.display = (*seat.display, (code, DOWN))
            s.queue = rest if task[2] <= 1 else (("discard", task[1], task[2] - 1), *rest)
        elif type(action) is Absorb:
            up = min(action.face_up, len(seat.life))
            down = min(task[2] - 2 * action.face_up, len(seat.life) - up)
            s.queue = (("lose", task[1], up, down), *rest)
        elif type(action) is Maintain:
            s.queue = rest
            if action.keep:
                display = list(seat.display)
                display[task[2]] = (display[task[2]][0], KEPT)
                seat.display = tuple(display)
                need = self._amount(display[task[2]][0], EffectKind.MAINTAIN)
                if need:
                    s.queue = (("discard", task[1], need), *rest)

    def _take(self, s: ArenaState, code: int) -> None:
        """A chance outcome: the head task takes ``code`` from its pile."""
        task, rest = s.queue[0], s.queue[1:]
        seat = _own(s, task[1])
        if task[0] == "lose":
            up, down = task[2], task[3]
            seat.life = _remove(seat.life, code)
            face = UP if up else DOWN
            seat.display = (*seat.display, (code, face))
            if face == UP and self._responds[code]:
                # 响应: a card turned face up into the display by damage triggers.
                s.responses = (*s.responses, (task[1], code))
            up, down = (up - 1, down) if up else (up, down - 1)
            self._note_life(s, task[1])
            s.queue = rest if up + down == 0 else (("lose", task[1], up, down), *rest)
            return
        # "draw": from the deck, or (deck and recycle empty) from life.
        from_life = not seat.deck
        if from_life:
            seat.life = _remove(seat.life, code)
            self._note_life(s, task[1])
        else:
            seat.deck = _remove(seat.deck, code)
        if task[3] == TO_DISPLAY:
            # 展示: face up into the display; a damage card adds 1 to the card in play.
            seat.display = (*seat.display, (code, UP))
            if s.play and self.cards[code].type is CardType.DAMAGE:
                s.play = _bump(s.play, _DMG, 1)
        else:
            seat.hand = _insert(seat.hand, code)
        s.queue = rest if task[2] <= 1 else ((task[0], task[1], task[2] - 1, task[3]), *rest)

    def _note_life(self, s: ArenaState, seat_index: int) -> None:
        seat = s.seats[seat_index]
        if not seat.life and seat.zero_turn < 0:
            seat.zero_turn = s.turn
        elif seat.life:
            seat.zero_turn = -1

    # -- the task queue -----------------------------------------------------------------

    def _settle(self, s: ArenaState) -> None:
        """Resolve automatic tasks until a decision or a chance step is due, or the game ends."""
        while s.ended is None:
            if not s.queue:
                self._check_victory(s)
                if s.ended is not None:
                    return
                if not s.seats[s.active].hand:
                    s.queue = (("end",),)  # an empty hand ends the turn
                    continue
                return
            task = s.queue[0]
            name = task[0]
            if name in _CHANCE:
                seat = s.seats[task[1]]
                if name == "draw" and task[2] > 0 and not seat.deck and seat.recycle:
                    # The deck ran out: the recycle pile is shuffled into a new deck.
                    seat = _own(s, task[1])
                    seat.deck, seat.recycle = seat.recycle, ()
                empty = task[2] + task[3] <= 0 if name == "lose" else task[2] <= 0
                if empty or not self._source(s, task):
                    s.queue = s.queue[1:]
                    continue
                return
            if name in _DECISIONS:
                if self._automatic(s, task):
                    continue
                return
            s.queue = s.queue[1:]
            getattr(self, f"_task_{name}")(s, task)

    def _automatic(self, s: ArenaState, task: Task) -> bool:
        """Resolve a decision task that has one choice or none; True if it was resolved."""
        seat = s.seats[task[1]]
        name = task[0]
        if name == "discard":
            if task[2] <= 0 or not seat.hand:
                s.queue = s.queue[1:]
                return True
            if len(seat.hand) <= task[2]:
                own = _own(s, task[1])
                own.display = (*own.display, *((c, DOWN) for c in own.hand))
                own.hand = ()
                s.queue = s.queue[1:]
                return True
            return len(set(seat.hand)) == 1 and self._decide_first(s)
        if name == "absorb":
            options = self._absorb_options(seat, task[2])
            if not seat.life or task[2] <= 0:
                s.queue = s.queue[1:]
                return True
            if len(options) == 1:
                self._decide(s, Absorb(0))
                return True
            return False
        if name == "maintain":
            need = self._amount(seat.display[task[2]][0], EffectKind.MAINTAIN)
            if len(seat.hand) < need:
                s.queue = s.queue[1:]  # cannot pay: the card is exhausted at clean-up
                return True
            return False
        return False  # pragma: no cover

    def _decide_first(self, s: ArenaState) -> bool:
        seat = s.seats[s.queue[0][1]]
        self._decide(s, Discard(self.tokens[seat.hand[0]]))
        return True

    def _task_start(self, s: ArenaState, task: Task) -> None:
        seat_index = task[1]
        seat = _own(s, seat_index)
        seat.dead_start = not seat.life
        tasks: list[Task] = []
        for index, (code, face) in enumerate(seat.display):
            # 维持: a face-up card that would leave asks its owner to pay or let it go.
            if face != DOWN and EffectKind.MAINTAIN in self._has[code] and not self._stays[code]:
                tasks.append(("maintain", seat_index, index))
        tasks += [("clean", seat_index), ("pending", seat_index), ("refill", seat_index)]
        s.queue = (*tasks, *s.queue)

    def _task_clean(self, s: ArenaState, task: Task) -> None:
        # Start: face-down cards to the recycle pile, face-up ones to the exhausted pile, except
        # the talent, 永久展示中, 元素结晶 and maintained cards.
        seat = _own(s, task[1])
        keep: list[tuple[int, int]] = []
        recycle = list(seat.recycle)
        exhausted = list(seat.exhausted)
        for code, face in seat.display:
            if face == DOWN:
                recycle.append(code)
            elif face == KEPT or self._stays[code]:
                keep.append((code, UP))
            else:
                exhausted.append(code)
        seat.display = tuple(keep)
        seat.recycle = tuple(sorted(recycle))
        seat.exhausted = tuple(exhausted)

    def _task_pending(self, s: ArenaState, task: Task) -> None:
        # Decided: first the pending draw from the previous player's costs, all of it...
        seat = _own(s, task[1])
        count, seat.pending = seat.pending, 0
        if count:
            s.queue = (("draw", task[1], count, TO_HAND), *s.queue)

    def _task_refill(self, s: ArenaState, task: Task) -> None:
        # ...then refill the hand to settings.hand_refill (no draw at or above it).
        missing = self.refill - len(s.seats[task[1]].hand)
        if missing > 0:
            s.queue = (("draw", task[1], missing, TO_HAND), *s.queue)

    def _task_cost(self, s: ArenaState, task: Task) -> None:
        # [2] The next player will draw the cost; at settings.forced_end the turn will end.
        code = s.play[_PLAY]
        cost = max(0, self.cards[code].cost + s.play[_COST])
        following = _own(s, (s.active + 1) % self.players)
        following.pending += cost
        if following.pending >= self.forced_end:
            s.forced = True

    def _task_place(self, s: ArenaState, task: Task) -> None:
        # [3] The card goes face up into the display; it counts as played for 连击.
        seat = _own(s, s.active)
        code = s.play[_PLAY]
        seat.display = (*seat.display, (code, UP))
        s.played += 1
        s.last_colour = self._colour[code]

    def _task_effect(self, s: ArenaState, task: Task) -> None:
        _, seat_index, code, index = task
        effect = self.cards[code].effects[index]
        handler = _EFFECTS.get(effect.kind)
        if handler is not None:
            handler(self, s, seat_index, code, effect.amount, effect.timing)

    def _task_combat(self, s: ArenaState, task: Task) -> None:
        """[4] Hits in range, display modifiers, damage, the sanity flip, knock-back."""
        attacker = s.active
        seat = s.seats[attacker]
        code = s.play[_PLAY]
        card = self.cards[code]
        has = self._has[code]
        fixed = EffectKind.FIXED_DAMAGE in has
        hits = self._hits(s, attacker, code, self._range_bonus(seat, s.play))
        if EffectKind.LOCK in has:
            # 锁定: only the named character takes this damage.
            hits = [h for h in hits if h[0] == s.play[_TARGET]]
        base = card.damage or 0
        # 固定伤害 ignores every bonus; otherwise the card's own bonuses and the display's.
        bonus = 0 if fixed else s.play[_DMG] + self._display_bonus(seat, EffectKind.DAMAGE_UP, code)
        knock = self._amount(code, EffectKind.KNOCKBACK)
        damage_tasks: list[Task] = []
        push_tasks: list[Task] = []
        order = sorted(hits, key=lambda h: (h[0] - attacker) % self.players)
        for target, direction, falloff in order:
            amount = max(0, base + bonus)
            if falloff is not None:
                # Charge: full damage at the maximum distance, -1 per hex closer, at least 1.
                amount = max(1, amount - falloff)
            if self._countered(s, target, base) and amount > 0:
                continue
            damage_tasks += self._damage(s, target, amount)
            if knock:
                push_tasks.append(("push", target, direction, knock))
        s.hits = tuple(h[0] for h in order)
        s.queue = (*damage_tasks, *push_tasks, *s.queue)

    def _task_push(self, s: ArenaState, task: Task) -> None:
        # 击退 X: back along the attack direction; stop at an obstacle, a character, the edge.
        _, target, direction, steps = task
        seat = _own(s, target)
        for _ in range(steps):
            ahead = hexgrid.neighbour(seat.pos, direction)
            if not self._free(s, ahead):
                break
            seat.pos = ahead

    def _task_responses(self, s: ArenaState, task: Task) -> None:
        # [6] Recorded responses: the active player's first, then in seat order; one player's
        # own in the order they were revealed.
        if not s.responses:
            return
        recorded, s.responses = s.responses, ()
        ordered = sorted(
            enumerate(recorded), key=lambda item: ((item[1][0] - s.active) % self.players, item[0])
        )
        tasks: list[Task] = []
        for _, (seat_index, code) in ordered:
            tasks += self._effect_tasks(seat_index, code, Timing.RESPONSE)
        s.queue = (*tasks, ("responses",), *s.queue)

    def _task_finish(self, s: ArenaState, task: Task) -> None:
        # [7] The end check: forced end at settings.forced_end, or an empty hand.
        s.play = ()
        s.hits = ()
        if s.forced or not s.seats[s.active].hand:
            s.queue = (("end",), *s.queue)

    def _task_end(self, s: ArenaState, task: Task) -> None:
        # End step: drop until-end-of-turn effects (none outlive the card here), discard down
        # to settings.hand_limit, then the sanity flip.
        over = len(s.seats[s.active].hand) - self.hand_limit
        discard: tuple[Task, ...] = (("discard", s.active, over),) if over > 0 else ()
        s.queue = (*discard, ("endturn",), *s.queue)

    def _task_endturn(self, s: ArenaState, task: Task) -> None:
        seat = _own(s, s.active)
        if not s.dealt and seat.sane:
            # 理智 -> 失控 when the turn dealt no damage to anyone.
            seat.sane = False
        s.dealt = s.forced = False
        s.played = 0
        s.last_colour = ""
        s.active = (s.active + 1) % self.players
        s.turn += 1
        s.queue = (("start", s.active), *s.queue)

    # -- combat helpers -------------------------------------------------------------------

    def _range_bonus(self, seat: Seat, play: tuple[int, ...] | None) -> int:
        playing = play[_PLAY] if play else None
        return (play[_RANGE] if play else 0) + self._display_bonus(seat, EffectKind.REACH, playing)

    def _display_bonus(self, seat: Seat, kind: EffectKind, playing: int | None = None) -> int:
        """展示中 / 初始天赋 bonuses of the face-up cards in a display. [3]: the card in
        resolution (``playing``, its latest face-up copy) does not count for itself."""
        total = 0
        entries = seat.display
        skip = -1
        if playing is not None:
            skip = max(
                (i for i, (c, f) in enumerate(entries) if c == playing and f != DOWN), default=-1
            )
        for index, (code, face) in enumerate(entries):
            if face == DOWN or kind not in self._has[code]:
                continue
            for e in self.cards[code].effects:
                if e.kind is kind and e.timing in (Timing.DISPLAYED, Timing.TALENT):
                    if e.timing is Timing.DISPLAYED and index == skip:
                        continue
                    total += e.amount
        return total

    def _hits(
        self, s: ArenaState, attacker: int, code: int, range_bonus: int
    ) -> list[tuple[int, int, int | None]]:
        """(seat, direction, charge falloff or None) of every character the card hits."""
        seat = s.seats[attacker]
        indiscriminate = EffectKind.INDISCRIMINATE in self._has[code]
        team = self.teams[attacker]
        where = {st.pos: i for i, st in enumerate(s.seats)}
        hits: list[tuple[int, int, int | None]] = []

        def hittable(other: int) -> bool:
            # 无差别伤害: teammates are hit too; never oneself. Otherwise only enemies.
            return other != attacker and (indiscriminate or self.teams[other] != team)

        for side, spec in enumerate(self._ranges[code]):
            if spec.kind is RangeKind.NONE:
                continue
            direction = (seat.facing + side) % 6
            reach = spec.reach + range_bonus
            if spec.kind is RangeKind.AREA:
                for hexagon in hexgrid.ray(seat.pos, direction, reach):
                    other = where.get(hexagon)
                    if other is not None and hittable(other):
                        hits.append((other, direction, None))
            elif spec.kind is RangeKind.SNIPE:
                # Snipe: only the hex at exactly the distance.
                other = where.get(hexgrid.neighbour(seat.pos, direction, reach))
                if other is not None and hittable(other):
                    hits.append((other, direction, None))
            else:
                # Charge: the nearest character or obstacle only.
                for distance, hexagon in enumerate(hexgrid.ray(seat.pos, direction, reach), 1):
                    if hexagon in self.obstacles:
                        break
                    other = where.get(hexagon)
                    if other is not None:
                        if hittable(other):
                            hits.append((other, direction, reach - distance))
                        break
        return hits

    def _countered(self, s: ArenaState, target: int, base: int) -> bool:
        """反制 X: a face-up counter of the target nullifies a hit of base damage <= X and is
        exhausted."""
        seat = s.seats[target]
        for index, (code, face) in enumerate(seat.display):
            if (
                face != DOWN
                and EffectKind.COUNTER in self._has[code]
                and base <= self._amount(code, EffectKind.COUNTER)
            ):
                own = _own(s, target)
                own.display = own.display[:index] + own.display[index + 1 :]
                own.exhausted = (*own.exhausted, code)
                return True
        return False

    def _damage(self, s: ArenaState, target: int, amount: int) -> list[Task]:
        """The absorb task of ``amount`` damage to ``target``, with the team rule."""
        if amount <= 0:
            return []
        payer = target
        if not s.seats[target].life:
            if self.mode is Mode.DUEL or s.seats[target].zero_turn == s.turn:
                return []  # nothing left to take / no damage in the turn life reached 0
            # Team rule (decided): the first teammate after them with life pays.
            mates = [
                (target + k) % self.players
                for k in range(1, self.players)
                if self.teams[(target + k) % self.players] == self.teams[target]
            ]
            payer = next((m for m in mates if s.seats[m].life), -1)
            if payer < 0:
                return []
        # Damage to anyone, oneself included, flips the active player back to 理智.
        s.dealt = True
        if not s.seats[s.active].sane:
            _own(s, s.active).sane = True
        return [("absorb", payer, amount)]

    def _targets(self, s: ArenaState, seat_index: int, code: int, timing: Timing) -> list[int]:
        """Who an 识破 / 耗竭 acts on: the attacker for a response, the characters hit for a
        damage card, the named enemy for any other card."""
        if timing is Timing.RESPONSE:
            return [s.active] if s.active != seat_index else []
        if self.cards[code].type is CardType.DAMAGE:
            return list(s.hits)
        return [s.play[_TARGET]] if s.play and s.play[_TARGET] >= 0 else []

    def threat(self, state: ArenaState, move: Move) -> int:
        """Enemy damage the best card left in hand could deal after ``move`` (for policies)."""
        seat = state.seats[state.active]
        moved = _clone(state)
        mover = moved.seats[state.active]
        mover.pos = hexgrid.neighbour(seat.pos, move.direction)
        mover.facing = move.facing
        mover.hand = _remove(seat.hand, self._by_token[move.card])
        best = 0
        for code in _distinct(mover.hand):
            if self.cards[code].type is CardType.DAMAGE:
                best = max(best, self.preview(moved, Play(self.tokens[code])))
        return best

    def preview(self, state: ArenaState, action: Play) -> int:
        """Enemy damage the play would deal if it resolved now (no bonuses from its own effects)."""
        code = self._by_token[action.card]
        card = self.cards[code]
        if card.type is not CardType.DAMAGE:
            return 0
        seat = state.seats[state.active]
        hits = self._hits(state, state.active, code, self._range_bonus(seat, None))
        if action.target is not None:
            hits = [h for h in hits if h[0] == action.target]
        base = (card.damage or 0) + self._display_bonus(seat, EffectKind.DAMAGE_UP)
        total = 0
        for target, _, falloff in hits:
            amount = base if falloff is None else max(1, base - falloff)
            sign = 1 if self.teams[target] != self.teams[state.active] else -1
            total += sign * amount
        return total

    # -- victory --------------------------------------------------------------------------

    def _check_victory(self, s: ArenaState) -> None:
        lost: dict[int, Termination] = {}
        for team in sorted(set(self.teams)):
            members = [i for i in range(self.players) if self.teams[i] == team]
            if all(not s.seats[m].life for m in members):
                lost[team] = Termination.ALL_DOWN
            elif any(
                not (s.seats[m].deck or s.seats[m].recycle or s.seats[m].life) for m in members
            ):
                lost[team] = Termination.EXHAUSTED
        if not lost:
            return
        mine = self.teams[s.active]
        if len(lost) == len(set(self.teams)):
            # Decided: when both sides fall at once, the active player's side wins.
            winner, why = mine, lost[next(t for t in lost if t != mine)]
        else:
            loser = next(iter(lost))
            winner = next(t for t in set(self.teams) if t not in lost)
            why = lost[loser]
        s.ended = why
        s.winners = tuple(i for i in range(self.players) if self.teams[i] == winner)
        s.queue = ()

    # -- invariants -----------------------------------------------------------------------

    def invariant_problems(self, s: ArenaState) -> list[str]:
        problems = []
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
                cards = sorted((*cards, s.play[_PLAY]))  # [1]-[2]: between hand and display
            if tuple(cards) != self._decks[index]:
                problems.append(f"seat {index}: cards not conserved ({len(cards)})")
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
        """``seats active turn played colour flags play hits responses queue ended``.

        Seats are ``/``-separated: ``q,r,facing,sane,pending,zero_turn,dead|hand|deck|recycle|
        exhausted|life|display``; piles are card ids (``id*2`` for two), ``-`` when empty; the
        display lists ``id^`` (face up), ``id_`` (face down) or ``id+`` (maintained). Flags are
        ``d`` (damage dealt) and ``f`` (forced end) or ``-``; tasks are ``name:int:...``.
        """
        seats = "/".join(
            ",".join(
                str(v)
                for v in (
                    seat.pos[0],
                    seat.pos[1],
                    seat.facing,
                    int(seat.sane),
                    seat.pending,
                    seat.zero_turn,
                    int(seat.dead_start),
                )
            )
            + "|"
            + "|".join(
                (
                    self._multiset(seat.hand),
                    self._multiset(seat.deck),
                    self._multiset(seat.recycle),
                    ",".join(self.tokens[c] for c in seat.exhausted) or "-",
                    self._multiset(seat.life),
                    ",".join(f"{self.tokens[c]}{'_^+'[f]}" for c, f in seat.display) or "-",
                )
            )
            for seat in s.seats
        )
        flags = ("d" if s.dealt else "") + ("f" if s.forced else "")
        return " ".join(
            (
                seats,
                str(s.active),
                str(s.turn),
                str(s.played),
                s.last_colour or "-",
                flags or "-",
                ":".join(map(str, s.play)) or "-",
                ",".join(map(str, s.hits)) or "-",
                ",".join(f"{a}:{self.tokens[c]}" for a, c in s.responses) or "-",
                ",".join(":".join(map(str, t)) for t in s.queue) or "-",
                "-" if s.ended is None else f"{s.ended.value}:{'.'.join(map(str, s.winners))}",
            )
        )

    def from_notation(self, text: str) -> ArenaState:
        def fail(why: str) -> ValueError:
            return ValueError(f"invalid {SLUG} notation {text!r}: {why}")

        fields = text.split(" ")
        if len(fields) != 11:
            raise fail(f"expected 11 fields, got {len(fields)}")
        seats_f, active, turn, played, colour, flags, play, hits, responses, queue, ended = fields
        try:
            seats = []
            for chunk in seats_f.split("/"):
                parts = chunk.split("|")
                if len(parts) != 7:
                    raise fail(f"a seat has 7 parts, got {len(parts)}")
                q, r, facing, sane, pending, zero, dead = map(int, parts[0].split(","))
                display = tuple(
                    (self._by_token[item[:-1]], "_^+".index(item[-1])) for item in _items(parts[6])
                )
                seats.append(
                    Seat(
                        (q, r),
                        facing,
                        self._parse_multiset(parts[1]),
                        self._parse_multiset(parts[2]),
                        self._parse_multiset(parts[3]),
                        tuple(self._by_token[t] for t in _items(parts[4])),
                        self._parse_multiset(parts[5]),
                        display,
                        bool(sane),
                        pending,
                        zero,
                        bool(dead),
                    )
                )
            if len(seats) != self.players:
                raise fail(f"expected {self.players} seats, got {len(seats)}")
            state = ArenaState(
                seats=tuple(seats),
                active=int(active),
                turn=int(turn),
                queue=tuple(
                    (name, *map(int, rest)) for name, *rest in (t.split(":") for t in _items(queue))
                ),
                played=int(played),
                last_colour="" if colour == "-" else colour,
                dealt="d" in flags,
                forced="f" in flags,
                play=() if play == "-" else tuple(map(int, play.split(":"))),
                hits=tuple(map(int, _items(hits))),
                responses=tuple(
                    (int(a), self._by_token[c])
                    for a, c in (item.split(":") for item in _items(responses))
                ),
            )
            if ended != "-":
                why, _, winners = ended.partition(":")
                state.ended = Termination(why)
                state.winners = tuple(int(w) for w in winners.split(".") if w)
        except (KeyError, ValueError, IndexError) as error:
            if isinstance(error, ValueError) and str(error).startswith("invalid"):
                raise
            raise fail(f"{type(error).__name__}: {error}") from None
        if not 0 <= state.active < self.players:
            raise fail(f"active seat {state.active} out of range")
        for task in state.queue:
            if f"_task_{task[0]}" not in dir(self) and task[0] not in _DECISIONS | _CHANCE:
                raise fail(f"unknown task {task[0]!r}")
        return state

    def parse_action(self, text: str) -> Action:
        kind, _, rest = text.partition(":")
        try:
            if kind == "play":
                card, _, target = rest.partition("@")
                return Play(card, int(target) if target else None)
            if kind == "move":
                card, direction, facing = rest.split(":")
                return Move(card, int(direction), int(facing))
            if kind == "stall":
                return Stall(rest)
            if kind == "discard":
                return Discard(rest)
            if kind == "absorb":
                return Absorb(int(rest))
            if kind == "maintain" and rest in ("keep", "drop"):
                return Maintain(rest == "keep")
            if kind == "draw" and rest:
                return Draw(rest)
        except ValueError:
            pass
        raise ValueError(f"invalid action: {text!r}")

    def _multiset(self, cards: Sequence[int]) -> str:
        if not cards:
            return "-"
        return ",".join(
            self.tokens[c] if k == 1 else f"{self.tokens[c]}*{k}"
            for c, k in sorted(Counter(cards).items())
        )

    def _parse_multiset(self, text: str) -> tuple[int, ...]:
        cards: list[int] = []
        for item in _items(text):
            token, _, times = item.partition("*")
            cards.extend([self._by_token[token]] * (int(times) if times else 1))
        return tuple(sorted(cards))

    def _illegal(self, state: ArenaState, action: object, why: str) -> IllegalActionError:
        return IllegalActionError(f"illegal action {action!r} in {self.notation(state)}: {why}")


# -- effect handlers: one per effect kind the engine resolves ------------------------------


def _fx_noop(
    rules: ArenaTalesRules, s: ArenaState, seat: int, code: int, x: int, t: Timing
) -> None:
    """Read elsewhere: lock / fixed damage / indiscriminate / knock-back by combat, counter by
    combat, maintain / permanent / crystal by the clean-up, life by the set-up."""


def _fx_backlash(
    rules: ArenaTalesRules, s: ArenaState, seat: int, code: int, x: int, t: Timing
) -> None:
    # 反噬 X: X damage to the card's user (it counts as damage dealt).
    s.queue = (*rules._damage(s, seat, x), *s.queue)


def _fx_heal(
    rules: ArenaTalesRules, s: ArenaState, seat: int, code: int, x: int, t: Timing
) -> None:
    # 回复 X: the newest X face-down display cards go back to life; none there, no effect.
    # Team rule: a player at 0 life at the start of their turn cannot heal.
    own = _own(s, seat)
    if own.dead_start and rules.mode is Mode.TEAMS:
        return
    display = list(own.display)
    life = list(own.life)
    for index in range(len(display) - 1, -1, -1):
        if x <= 0:
            break
        if display[index][1] == DOWN:
            life.append(display.pop(index)[0])
            x -= 1
    own.display, own.life = tuple(display), tuple(sorted(life))
    rules._note_life(s, seat)


def _fx_see_through(
    rules: ArenaTalesRules, s: ArenaState, seat: int, code: int, x: int, t: Timing
) -> None:
    # 识破 X: turn the target's newest X face-down display cards face up (0: all); responses.
    for target in rules._targets(s, seat, code, t):
        own = _own(s, target)
        display = list(own.display)
        left = x if x > 0 else len(display)
        for index in range(len(display) - 1, -1, -1):
            if left <= 0:
                break
            card, face = display[index]
            if face == DOWN:
                display[index] = (card, UP)
                left -= 1
                if rules._responds[card]:
                    s.responses = (*s.responses, (target, card))
        own.display = tuple(display)


def _fx_recycle(
    rules: ArenaTalesRules, s: ArenaState, seat: int, code: int, x: int, t: Timing
) -> None:
    # 回收 X: the top X cards of your exhausted pile go face down to your recycle pile.
    own = _own(s, seat)
    moved = own.exhausted[len(own.exhausted) - min(x, len(own.exhausted)) :]
    own.exhausted = own.exhausted[: len(own.exhausted) - len(moved)]
    own.recycle = tuple(sorted((*own.recycle, *moved)))


def _fx_exhaust(
    rules: ArenaTalesRules, s: ArenaState, seat: int, code: int, x: int, t: Timing
) -> None:
    # 耗竭 X: the target's newest X face-down display cards go to its exhausted pile.
    for target in rules._targets(s, seat, code, t):
        own = _own(s, target)
        display = list(own.display)
        left = x
        for index in range(len(display) - 1, -1, -1):
            if left <= 0:
                break
            if display[index][1] == DOWN:
                own.exhausted = (*own.exhausted, display.pop(index)[0])
                left -= 1
        own.display = tuple(display)


def _fx_discard(
    rules: ArenaTalesRules, s: ArenaState, seat: int, code: int, x: int, t: Timing
) -> None:
    # 弃牌 X: discard X cards of your choice face down to your display.
    s.queue = (("discard", seat, x), *s.queue)


def _fx_display(
    rules: ArenaTalesRules, s: ArenaState, seat: int, code: int, x: int, t: Timing
) -> None:
    # 展示 X: the top X cards of your deck face up into your display (damage +1 each damage card).
    s.queue = (("draw", seat, x, TO_DISPLAY), *s.queue)


def _fx_draw(
    rules: ArenaTalesRules, s: ArenaState, seat: int, code: int, x: int, t: Timing
) -> None:
    s.queue = (("draw", seat, x, TO_HAND), *s.queue)


def _fx_combo(
    rules: ArenaTalesRules, s: ArenaState, seat: int, code: int, x: int, t: Timing
) -> None:
    # 连击 (before play): damage +X when the combo holds.
    if s.play and s.play[_COMBO]:
        s.play = _bump(s.play, _DMG, x)


def _fx_combo_play(
    rules: ArenaTalesRules, s: ArenaState, seat: int, code: int, x: int, t: Timing
) -> None:
    # 连击打出 (on play): draw X when the combo holds.
    if s.play and s.play[_COMBO]:
        _fx_draw(rules, s, seat, code, x, t)


def _fx_burst(
    rules: ArenaTalesRules, s: ArenaState, seat: int, code: int, x: int, t: Timing
) -> None:
    # 元素爆发 X: exhaust the X oldest crystals of your display (0: all) and take their boosts.
    own = _own(s, seat)
    display = list(own.display)
    left = x if x > 0 else len(display)
    draws = 0
    index = 0
    while index < len(display) and left > 0:
        card = display[index][0]
        element = next(
            (e.element for e in rules.cards[card].effects if e.kind is EffectKind.CRYSTAL), None
        )
        if element is None or display[index][1] == DOWN:
            index += 1
            continue
        display.pop(index)
        own.exhausted = (*own.exhausted, card)
        boost = rules._boosts.get(element)
        if boost is not None:
            s.play = _bump(
                _bump(_bump(s.play, _RANGE, boost.range), _DMG, boost.damage), _COST, boost.cost
            )
            draws += boost.draw
        left -= 1
    own.display = tuple(display)
    if draws:
        _fx_draw(rules, s, seat, code, draws, t)


def _fx_damage_up(
    rules: ArenaTalesRules, s: ArenaState, seat: int, code: int, x: int, t: Timing
) -> None:
    # 伤害 +X played as an effect: the card in resolution (as 展示中 / 天赋, combat reads it).
    s.play = _bump(s.play, _DMG, x)


def _fx_reach(
    rules: ArenaTalesRules, s: ArenaState, seat: int, code: int, x: int, t: Timing
) -> None:
    # 范围 +X played as an effect: the card in resolution.
    s.play = _bump(s.play, _RANGE, x)


def _fx_dash(
    rules: ArenaTalesRules, s: ArenaState, seat: int, code: int, x: int, t: Timing
) -> None:
    # Move up to X hexes straight ahead: a card-given direction, so 失控 does not restrict it.
    own = _own(s, seat)
    for _ in range(x):
        ahead = hexgrid.neighbour(own.pos, own.facing)
        if not rules._free(s, ahead):
            break
        own.pos = ahead


_EFFECTS = {
    EffectKind.LOCK: _fx_noop,
    EffectKind.FIXED_DAMAGE: _fx_noop,
    EffectKind.INDISCRIMINATE: _fx_noop,
    EffectKind.KNOCKBACK: _fx_noop,
    EffectKind.COUNTER: _fx_noop,
    EffectKind.MAINTAIN: _fx_noop,
    EffectKind.PERMANENT: _fx_noop,
    EffectKind.CRYSTAL: _fx_noop,
    EffectKind.LIFE: _fx_noop,
    EffectKind.BACKLASH: _fx_backlash,
    EffectKind.HEAL: _fx_heal,
    EffectKind.SEE_THROUGH: _fx_see_through,
    EffectKind.RECYCLE: _fx_recycle,
    EffectKind.EXHAUST: _fx_exhaust,
    EffectKind.DISCARD: _fx_discard,
    EffectKind.DISPLAY: _fx_display,
    EffectKind.DRAW: _fx_draw,
    EffectKind.COMBO: _fx_combo,
    EffectKind.COMBO_PLAY: _fx_combo_play,
    EffectKind.BURST: _fx_burst,
    EffectKind.DAMAGE_UP: _fx_damage_up,
    EffectKind.REACH: _fx_reach,
    EffectKind.DASH: _fx_dash,
}
"""Effect kind -> handler; the declaration and the implemented keywords derive from it."""

ELEMENTS_HANDLED = frozenset(Element)
"""Every element's boost is applied by ``_fx_burst`` (range, damage, cost, draw)."""

KEYWORDS = frozenset(
    {EFFECT_KEYWORDS[kind] for kind in _EFFECTS if kind in EFFECT_KEYWORDS}
    | set(TIMING_KEYWORDS.values())
    | {Keyword(f"crystal_{element.value}") for element in ELEMENTS_HANDLED}
    | RULE_KEYWORDS
)
"""Every glossary keyword this engine implements."""


# -- small helpers ---------------------------------------------------------------------------


def _clone(s: ArenaState) -> ArenaState:
    """A copy whose seats may be written: states already handed out are never touched."""
    return ArenaState(
        tuple(seat.copy() for seat in s.seats),
        s.active,
        s.turn,
        s.queue,
        s.played,
        s.last_colour,
        s.dealt,
        s.forced,
        s.play,
        s.hits,
        s.responses,
        s.ended,
        s.winners,
    )


def _own(s: ArenaState, index: int) -> Seat:
    """Seat ``index`` of a state being built (``_clone`` copied its seats), to write to."""
    return s.seats[index]


def _bump(play: tuple[int, ...], slot: int, by: int) -> tuple[int, ...]:
    if not play or not by:
        return play
    return (*play[:slot], play[slot] + by, *play[slot + 1 :])


def _items(text: str) -> list[str]:
    return [] if text == "-" else text.split(",")


def example_tables(model: ArenaTales) -> list[tuple[str, ArenaTalesRules]]:
    """Tables the shared contract test plays: a duel and both team sizes."""
    names = [c.id for c in model.characters]
    # 6 players plays the same code paths as 4, only longer: tests/engines covers it.
    return [
        ("2p", ArenaTalesRules(model, 2)),
        ("4p", ArenaTalesRules(model, 4, names[2:6])),
    ]


def rulebook_examples(model: ArenaTales) -> dict[str, dict[str, Any]]:
    """Worked examples for the rulebook, played out by this engine so prose cannot drift.

    ``charge``: a charge card (the longest reach; among those the least full damage, so the
    floor of 1 shows) played by its owner from the centre of the arena with the charge side
    facing down a clear line, the owner's talent in the display as in play; one enemy stands at
    each distance in turn, and the damage is the life that enemy loses. ``nearest``: the same
    play at the smallest team table with one enemy near and one at the maximum distance, the
    same line: only the nearer is hit.
    """
    duel = min(s.players for s in model.arena.setups)
    candidates = []
    for card in model.cards:
        for side, spec in enumerate(card.ranges):
            if card.type is CardType.DAMAGE and spec is not None and spec.kind is RangeKind.CHARGE:
                owner = next(c for c in model.characters if c.colour == card.colour)
                talent = model.talent_of(owner)
                bonus = sum(
                    e.amount
                    for e in (talent.effects if talent is not None else ())
                    if e.kind is EffectKind.DAMAGE_UP
                )
                full = (card.damage or 0) + bonus
                candidates.append((-spec.reach, full, card.id, side, owner, talent, bonus))
    if not candidates:
        return {}
    minus_reach, full, card_id, side, owner, talent, bonus = min(candidates)
    card, reach = model.card_by_id[card_id], -minus_reach
    centre = (0, 0)
    obstacles = {(o.q, o.r) for o in model.arena.obstacles}
    direction = next(
        d
        for d in range(6)
        if all(
            h not in obstacles and hexgrid.in_map(h, model.arena.radius)
            for h in hexgrid.ray(centre, d, reach)
        )
    )
    facing = (direction - side) % 6

    def damage_at(players: int, distances: Sequence[int]) -> list[int]:
        """Life lost by the enemies standing at ``distances`` down the line."""
        others = [c.id for c in model.characters if c.id != owner.id]
        rules = ArenaTalesRules(model, players, [owner.id, *others[: players - 1]])
        state = rules.initial_state(random.Random(0))
        enemies = rules.enemies(0)
        code = rules._by_token[card.id]
        filler = next(c for c in rules._decks[0] if c != code and not rules._stays[c])
        line = set(hexgrid.ray(centre, direction, reach + 1))
        spare = iter(h for h in sorted(rules._floor) if h not in line and h != centre)
        for seat in state.seats:
            seat.pos = next(spare)
            seat.pending = 0
        actor = state.seats[0]
        actor.pos, actor.facing = centre, facing
        actor.hand = tuple(sorted((code, filler, filler)))
        for enemy, distance in zip(enemies, distances, strict=False):
            state.seats[enemy].pos = hexgrid.neighbour(centre, direction, distance)
        state.queue = ()
        before = [len(seat.life) for seat in state.seats]
        target = enemies[0] if EffectKind.LOCK in rules._has[code] else None
        state = rules.apply(state, Play(card.id, target))
        # Take every hit face down (one life card per point) until the card has resolved.
        while any(task[0] in ("absorb", "lose") for task in state.queue):
            if state.queue[0][0] == "absorb":
                state = rules.apply(state, Absorb(0))
            elif rules.is_chance(state):
                state = rules.apply(state, rules.chance_outcomes(state)[0][0])
            else:  # pragma: no cover - the order of the queue is the engine's
                raise AssertionError(rules.notation(state))
        return [before[e] - len(state.seats[e].life) for e in enemies[: len(distances)]]

    rows = [{"distance": d, "damage": damage_at(duel, [d])[0]} for d in range(reach, 0, -1)]
    teams = sorted(s.players for s in model.arena.setups if s.players > duel)
    near, far = max(1, reach // 2), reach
    nearest = damage_at(teams[0], [near, far]) if teams else []
    towards = hexgrid.neighbour(centre, direction, model.arena.radius)
    point = next((p.name for p in model.arena.orientation_points if (p.q, p.r) == towards), "")
    return {
        "charge": {
            "character": owner.name,
            "talent": "" if talent is None else talent.name,
            "bonus": bonus,
            "card": card.name,
            "spec": str(card.ranges[side]),
            "side": side,
            "reach": reach,
            "base": card.damage or 0,
            "full": full,
            "direction": direction,
            "towards": point,
            "rows": rows,
            "players": teams[0] if teams else duel,
            "near": near,
            "far": far,
            "near_damage": nearest[0] if nearest else 0,
            "far_damage": nearest[1] if nearest else 0,
        }
    }


# -- policies -------------------------------------------------------------------------------


class SensiblePolicy:
    """A simple player: the play that hits enemies hardest; otherwise a step towards the nearest
    enemy (discarding a non-damage card first); take damage face down; keep maintained cards;
    discard the cheapest card. Falls back to the first legal action."""

    def choose(self, rules: Rules[Any, Any], state: Any, rng: random.Random) -> Any:
        assert isinstance(rules, ArenaTalesRules)
        actions = rules.legal_actions(state)
        first = actions[0]
        if isinstance(first, Absorb):
            return first
        if isinstance(first, Maintain):
            return Maintain(True)
        if isinstance(first, Discard):
            return min(actions, key=lambda a: (rules.card(a.card).cost, a.card))  # type: ignore[union-attr]
        seat = state.seats[state.active]
        best: tuple[int, Action] | None = None
        for action in actions:
            if isinstance(action, Play):
                score = rules.preview(state, action)
                if score > 0 and (best is None or score > best[0]):
                    best = (score, action)
        if best is not None:
            return best[1]
        enemies = [state.seats[e].pos for e in rules.enemies(state.active)]
        near = min(hexgrid.distance(seat.pos, e) for e in enemies)
        moves = [a for a in actions if isinstance(a, Move)]
        if moves:
            # A step after which a card left in hand would hit an enemy; else a step closer.
            def key(move: Move) -> tuple[int, int, int, int]:
                card = rules.card(move.card)
                ahead = hexgrid.neighbour(seat.pos, move.direction)
                aim = rules.threat(state, move)
                closer = min(hexgrid.distance(ahead, e) for e in enemies) < near
                return (-aim, not closer, card.type is CardType.DAMAGE, card.cost)

            best_move = min(moves, key=key)
            if key(best_move)[0] < 0 or key(best_move)[1] is False:
                return best_move
        # Nothing useful: any play or move (a stall only when nothing else is left).
        useful = [a for a in actions if not isinstance(a, Stall)] or actions
        return useful[int(rng.random() * len(useful))]

    def __repr__(self) -> str:
        return "SensiblePolicy()"


# -- simulation -----------------------------------------------------------------------------


@dataclass(frozen=True)
class SimulationReport:
    players: int
    policy: str
    games: int
    seed: int
    mean_turns: float
    median_turns: float
    max_turns: int
    wins_by_seat: tuple[int, ...]
    wins_by_pair: dict[str, tuple[int, int]]
    """"a/b" (first team's character / second's, seat 0 and 1) -> (games, wins of seat 0)."""
    terminations: dict[Termination, int]
    ended_by_cap: int
    capped_seeds: tuple[int, ...]
    effects_played: dict[EffectKind, int]
    steps: int = 0
    seconds: float = field(default=0.0, compare=False)

    @property
    def finished(self) -> int:
        return self.games - self.ended_by_cap

    @property
    def first_player_win_rate(self) -> float:
        return self.wins_by_seat[0] / self.finished if self.finished else 0.0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0


def simulate(
    model: ArenaTales,
    players: int,
    games: int = 100,
    seed: int = 0,
    policy: Policy | None = None,
    *,
    check: bool = False,
) -> SimulationReport:
    """Play ``games`` seeded games; each draws its characters at random (seeded) from the
    roster. Game ``i`` uses ``random.Random(s_i)``, ``s_i`` drawn from ``random.Random(seed)``."""
    chooser = policy if policy is not None else RandomPolicy()
    seeds = random.Random(seed)
    roster = [c.id for c in model.characters]
    tables: dict[tuple[str, ...], ArenaTalesRules] = {}
    played: Counter[EffectKind] = Counter()
    lengths: list[int] = []
    wins = [0] * players
    pairs: dict[str, list[int]] = {}
    terminations: Counter[Termination] = Counter()
    capped: list[int] = []
    steps = 0
    started = time.perf_counter()
    for _ in range(games):
        game_seed = seeds.getrandbits(63)
        rng = random.Random(game_seed)
        chosen = tuple(rng.sample(roster, players) if len(roster) >= players else roster)
        rules = tables.get(chosen)
        if rules is None:
            rules = tables[chosen] = ArenaTalesRules(model, players, chosen)

        def observe(before: ArenaState, action: Action, after: ArenaState, r=rules) -> None:
            if type(action) is Play:
                for e in r.card(action.card).effects:  # type: ignore[union-attr]
                    played[e.kind] += 1

        record = play_game(
            rules,
            [chooser] * players,
            rng,
            TURN_CAP * 200,
            max_turns=TURN_CAP,
            invariant=rules.check_invariants if check else None,
            observe=observe,
        )
        steps += record.steps
        lengths.append(record.turns)
        pair = f"{chosen[0]}/{chosen[1]}"
        entry = pairs.setdefault(pair, [0, 0])
        if record.outcome is None:
            capped.append(game_seed)
            continue
        assert isinstance(record.outcome.termination, Termination)
        terminations[record.outcome.termination] += 1
        entry[0] += 1
        for seat in record.outcome.winners:
            wins[seat] += 1
        if 0 in record.outcome.winners:
            entry[1] += 1
    seconds = time.perf_counter() - started
    return SimulationReport(
        players=players,
        policy=repr(chooser),
        games=games,
        seed=seed,
        mean_turns=statistics.fmean(lengths) if lengths else 0.0,
        median_turns=statistics.median(lengths) if lengths else 0.0,
        max_turns=max(lengths, default=0),
        wins_by_seat=tuple(wins),
        wins_by_pair={k: (v[0], v[1]) for k, v in sorted(pairs.items())},
        terminations=dict(terminations),
        ended_by_cap=len(capped),
        capped_seeds=tuple(capped),
        effects_played=dict(played),
        steps=steps,
        seconds=seconds,
    )
