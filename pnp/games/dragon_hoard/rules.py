"""Dragon Hoard (魔龙宝窟) as a plain rules library: every number comes from the model.

The rules of the post (shared/seeds/000_889b28401d11cb8f.txt) and this edition's decisions
(content/dragon-hoard/game.yaml `decisions`), cited where the code encodes them:

- Seats 0..n-1, clockwise is +1. Seat 0 holds the hourglass in round 1 (decision
  `first-holder`); from round 2 it passes clockwise at the start of each round.
- A round: preparation (each seat in clockwise order from the holder: heirloom swap, one
  treasure effect, one preparation card, each at most once, then ``done``; or ``give-up``),
  the AI draw (chance: round 1 draws ``settings.first_round_draws`` cards, later rounds one),
  placement, resolution and cleanup. Resolution and cleanup need no decision: they run inside
  the ``apply`` that ends placement.
- Real time is not simulated. Placement is a round robin from the holder: the seat to act
  places a card, reveals the AI card (only with nothing placed), or stops; the order of the
  placed cards is the order of these decisions, so the policy decides it.
- The AI card falls where :func:`pnp.games.dragon_hoard.model.resolution_order` puts it (cancelled
  cards counted, ☆ from the players at the start, rounded as ``settings.star_rounding``).

Chance is explicit: each AI draw is ``DrawAI(card)`` from the deck, kept as a multiset (a
uniform draw from a multiset is a draw from the top of a shuffled deck, so a reshuffle is just
moving cards into it).
"""

from __future__ import annotations

import enum
import json
import random
import statistics
import time
from collections import Counter, deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

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
from pnp.games.dragon_hoard.model import (
    AI,
    ActionKind,
    AIEffectKind,
    Cell,
    Direction,
    DragonHoard,
    GateType,
    Phase,
    Rounding,
    SpeedKind,
    SpeedMarker,
    TreasureEffect,
    resolution_order,
)

SLUG = "dragon-hoard"

ROUND_CAP = 500
"""Simulations stop a game after this many rounds and report a cap hit. The countdown starts at
the latest when the recall limit is reached, and after it every reshuffle shrinks the deck, so
natural games end in a few dozen rounds; a cap hit means an engine bug."""


class Mode(enum.Enum):
    """How a table plays."""

    STANDARD = "standard"
    """One game on the Ice-Fire Dragon's lair; multi-game matches chain games (`play_match`)."""


class Stage(enum.Enum):
    """Where in the round a state is."""

    PREPARATION = "prep"
    DRAW = "draw"
    PLACEMENT = "place"
    OVER = "over"


class Status(enum.Enum):
    IN = "in"
    """On the map."""
    DEAD = "dead"
    """Killed this round; respawns at the next preparation."""
    LEFT = "left"
    """Left the lair: scores, takes no further part."""
    QUIT = "quit"
    """Gave up: scores 0, takes no further part."""


class Termination(enum.Enum):
    DECK_EMPTY = "deck_empty"
    """The AI deck was empty at the end of a round and someone who left scored."""
    NOBODY_LEFT = "nobody_left"
    """The deck ran out with no player out of the lair: everyone scores 0, nobody wins."""


# Events of a round that start the countdown (bits of DragonHoardState.events).
LEFT_LAIR, GAVE_UP, HEART_OUT = 1, 2, 4
# Preparation options a seat has used this round (bits of DragonHoardState.prep).
PREP_HEIRLOOM, PREP_TREASURE, PREP_CARD = 1, 2, 4

_DIRECTIONS = tuple(Direction)


# -- actions ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Heirloom:
    """Preparation: make a treasure of your bag your heirloom (the old one goes back)."""

    treasure: str

    def __str__(self) -> str:
        return f"heirloom:{self.treasure}"


@dataclass(frozen=True, slots=True)
class UseTreasure:
    """Preparation: use a treasure's active effect (the token leaves the game)."""

    treasure: str
    gate: str | None = None

    def __str__(self) -> str:
        return f"use:{self.treasure}" + (f"@{self.gate}" if self.gate else "")


@dataclass(frozen=True, slots=True)
class PrepCard:
    """Preparation: play a preparation-phase action card, resolved at once."""

    card: str
    direction: Direction | None = None

    def __str__(self) -> str:
        return f"prep:{self.card}" + (f">{self.direction.value}" if self.direction else "")


@dataclass(frozen=True, slots=True)
class GiveUp:
    def __str__(self) -> str:
        return "give-up"


@dataclass(frozen=True, slots=True)
class Done:
    """Preparation: this seat is done; the next one clockwise acts."""

    def __str__(self) -> str:
        return "done"


@dataclass(frozen=True, slots=True)
class Place:
    """Placement: put an action card face down on the mat (on top of those already there)."""

    card: str

    def __str__(self) -> str:
        return f"place:{self.card}"


@dataclass(frozen=True, slots=True)
class Reveal:
    """Placement: turn this round's AI card face up and peek at next round's."""

    def __str__(self) -> str:
        return "reveal"


@dataclass(frozen=True, slots=True)
class Stop:
    """Placement: this seat places nothing more this round."""

    def __str__(self) -> str:
        return "stop"


@dataclass(frozen=True, slots=True)
class DrawAI:
    """Chance: the holder draws this AI card from the deck."""

    card: str

    def __str__(self) -> str:
        return f"ai:{self.card}"


Action = Heirloom | UseTreasure | PrepCard | GiveUp | Done | Place | Reveal | Stop | DrawAI
_GIVE_UP, _DONE, _REVEAL, _STOP = GiveUp(), Done(), Reveal(), Stop()


# -- state ------------------------------------------------------------------------------------


@dataclass(slots=True)
class DragonHoardState:
    """A position. AI cards, treasures and action cards are codes into the rules' tables;
    multisets are sorted tuples. The rules never mutate a state they were given."""

    round: int
    """The round being played, from 1."""
    stage: Stage
    holder: int
    """Seat holding the hourglass."""
    actor: int
    """Seat to act in preparation and placement; -1 otherwise."""
    status: tuple[Status, ...]
    pawns: tuple[Cell | None, ...]
    """Each seat's pawn on the map, None when dead, left or given up."""
    bags: tuple[tuple[int, ...], ...]
    """Treasures in each seat's bag (not the heirloom)."""
    heirlooms: tuple[int, ...]
    """Each seat's heirloom treasure, -1 for none."""
    sideways: tuple[bool, ...]
    """Character card turned sideways (dodging) this round."""
    used: tuple[tuple[int, ...], ...]
    """Action cards each seat has played or placed this round (temporarily removed)."""
    prep: tuple[int, ...]
    """Preparation options each seat has used this round (PREP_* bits)."""
    placed: tuple[tuple[int, int], ...]
    """(seat, action card) on the mat, first placed first."""
    stopped: tuple[bool, ...]
    revealed: bool
    peeker: int
    """Seat that revealed this round's AI card and peeked at the next; -1 for none."""
    deck: tuple[int, ...]
    current: int
    """This round's AI card, -1 before the draw or once executed."""
    upcoming: int
    """Next round's AI card, drawn in advance; -1 for none."""
    executed: tuple[int, ...]
    """Executed AI cards, oldest first: the last is the top (the active trap colour)."""
    removed: tuple[int, ...]
    """AI cards removed for good (recall cards dropped during the countdown)."""
    draws_due: int
    recalls: int
    """Recall cards drawn so far this game."""
    recall_round: bool
    """A recall card was drawn this round."""
    countdown: bool
    dragon: Cell
    floor: tuple[tuple[int, int, int], ...]
    """Treasures lying on the map: (column, row, treasure), sorted."""
    discarded: tuple[int, ...]
    """Treasures whose active effect was used: out of the game."""
    left_order: tuple[int, ...]
    """Seats in the order they left the lair."""
    events: int
    """Countdown triggers seen this round (LEFT_LAIR, GAVE_UP, HEART_OUT bits)."""
    turn: int
    """Rounds completed."""


def _copy(s: DragonHoardState) -> DragonHoardState:
    return DragonHoardState(*(getattr(s, name) for name in DragonHoardState.__slots__))


# -- the rules --------------------------------------------------------------------------------


class DragonHoardRules:
    """The rules of Dragon Hoard for one table: ``Rules[DragonHoardState, Action]``.

    ``must_hold[seat]`` is how many treasures that seat needs to leave the lair (the multi-game
    rule for the previous game's sole top scorer); default none.
    """

    slug = SLUG

    def __init__(
        self,
        model: DragonHoard,
        players: int,
        mode: Mode = Mode.STANDARD,
        must_hold: Sequence[int] | None = None,
    ) -> None:
        self.model = model
        self.players = players
        self.mode = mode
        if players not in model.info.players:
            raise ValueError(f"{SLUG} plays with {model.info.players} players, not {players}")
        settings = model.settings
        self.limit = settings.cards_per_round
        self.first_draws = settings.first_round_draws
        self.recall_limit = settings.recall_limit
        self.rounding: Rounding = settings.star_rounding
        self.must_hold = tuple(must_hold) if must_hold is not None else (0,) * players
        if len(self.must_hold) != players:
            raise ValueError(f"must_hold names {len(self.must_hold)} seats, not {players}")
        lair = self.lair = model.lair
        self.centre: Cell = (lair.centre[0], lair.centre[1])

        # AI cards: one code per card kind, copies in the deck multiset.
        self.ai_ids = [card.id for card in model.ai_cards]
        self.ai_markers: list[SpeedMarker] = [card.marker for card in model.ai_cards]
        self.ai_effects = [card.effects for card in model.ai_cards]
        self.ai_colour = [card.colour for card in model.ai_cards]
        self.ai_recall = [card.recall for card in model.ai_cards]
        self._deck = tuple(
            sorted(c for c, card in enumerate(model.ai_cards) for _ in range(card.copies))
        )
        self._ai_by_id = {card_id: c for c, card_id in enumerate(self.ai_ids)}
        self._draw_actions = [DrawAI(card_id) for card_id in self.ai_ids]

        # Treasures.
        self.treasure_ids = [t.id for t in model.treasures]
        self.value = [t.value for t in model.treasures]
        self.treasure_effect = [t.effect for t in model.treasures]
        self.heart = next((i for i, t in enumerate(model.treasures) if t.heart), -1)
        self._treasure_by_id = {t: i for i, t in enumerate(self.treasure_ids)}
        floor: list[tuple[int, int, int]] = []
        for spot in lair.treasure_setup:
            if spot.treasure not in self._treasure_by_id:
                raise ValueError(f"treasure setup names unknown treasure {spot.treasure!r}")
            floor.append((spot.cell[0], spot.cell[1], self._treasure_by_id[spot.treasure]))
        self._floor = tuple(sorted(floor))
        self._tokens = tuple(sorted(t for _, _, t in floor))

        # Action cards: each seat plays the set of its colour (seat i: the i-th colour).
        self.card_ids = [card.id for card in model.action_cards]
        self.cards = model.action_cards
        self._card_by_id = {card_id: i for i, card_id in enumerate(self.card_ids)}
        if len(model.player_colours) < players:
            raise ValueError(f"{len(model.player_colours)} player colours for {players} players")
        self.sets: list[tuple[int, ...]] = []
        for colour in model.player_colours[:players]:
            cards = []
            for card_id, copies in colour.cards.items():
                if card_id not in self._card_by_id:
                    raise ValueError(f"colour {colour.id!r} names unknown card {card_id!r}")
                cards.extend([self._card_by_id[card_id]] * copies)
            self.sets.append(tuple(sorted(cards)))
        self.dodge_cards = frozenset(c.id for c in self.cards if c.kind is ActionKind.DODGE)
        self._placeable = [Phase.PLACEMENT in card.phases for card in self.cards]
        self._preparable = [Phase.PREPARATION in card.phases for card in self.cards]

        # The map.
        entries = {entry.seat: (entry.cell[0], entry.cell[1]) for entry in lair.entries}
        missing = [seat for seat in range(players) if seat not in entries]
        if missing:
            raise ValueError(f"no entry teleporter for seats {missing}")
        self.entries = tuple(entries[seat] for seat in range(players))
        self.exits = frozenset((e.cell[0], e.cell[1]) for e in lair.exits)
        self.gate_ids = [gate.id for gate in lair.gates]
        self.gate_cells = [(gate.cell[0], gate.cell[1]) for gate in lair.gates]
        self.gate_pair: dict[Cell, Cell] = {}
        for kind in GateType:
            cells = [(g.cell[0], g.cell[1]) for g in lair.gates if g.type is kind]
            if len(cells) == 2:
                self.gate_pair[cells[0]], self.gate_pair[cells[1]] = cells[1], cells[0]
        self._gate_by_id = {gate_id: i for i, gate_id in enumerate(self.gate_ids)}
        self.traps: dict[str, frozenset[Cell]] = {}
        for trap in lair.traps:
            self.traps[trap.colour] = self.traps.get(trap.colour, frozenset()) | {
                (trap.cell[0], trap.cell[1])
            }
        self._body_cache: dict[Cell, frozenset[Cell]] = {}
        self._area_cache: dict[tuple[int, int, Cell], frozenset[Cell]] = {}

    # -- the protocol ---------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return self.players

    def initial_state(self, rng: random.Random) -> DragonHoardState:
        # Set-up: pawns on their entry teleporters, treasures by the setup guide, the dragon on
        # C, the AI deck shuffled (a multiset: the order is chance at each draw).
        n = self.players
        state = DragonHoardState(
            round=1,
            stage=Stage.PREPARATION,
            holder=0,
            actor=0,
            status=(Status.IN,) * n,
            pawns=self.entries,
            bags=((),) * n,
            heirlooms=(-1,) * n,
            sideways=(False,) * n,
            used=((),) * n,
            prep=(0,) * n,
            placed=(),
            stopped=(False,) * n,
            revealed=False,
            peeker=-1,
            deck=self._deck,
            current=-1,
            upcoming=-1,
            executed=(),
            removed=(),
            draws_due=0,
            recalls=0,
            recall_round=False,
            countdown=False,
            dragon=self.centre,
            floor=self._floor,
            discarded=(),
            left_order=(),
            events=0,
            turn=0,
        )
        return state

    def current_player(self, state: DragonHoardState) -> int | None:
        if state.stage in (Stage.PREPARATION, Stage.PLACEMENT):
            return state.actor
        return None

    def is_chance(self, state: DragonHoardState) -> bool:
        return state.stage is Stage.DRAW

    def is_terminal(self, state: DragonHoardState) -> bool:
        return state.stage is Stage.OVER

    def turns(self, state: DragonHoardState) -> int:
        return state.turn

    def legal_actions(self, state: DragonHoardState) -> list[Action]:
        if state.stage is Stage.DRAW:
            return [self._draw_actions[c] for c in _distinct(state.deck)]
        if state.stage is Stage.PREPARATION:
            return self._prep_actions(state, state.actor)
        if state.stage is Stage.PLACEMENT:
            return self._place_actions(state, state.actor)
        return []

    def chance_outcomes(self, state: DragonHoardState) -> list[tuple[Action, float]]:
        if state.stage is not Stage.DRAW:
            return []
        total = len(state.deck)
        return [(self._draw_actions[c], k / total) for c, k in sorted(Counter(state.deck).items())]

    def sample_chance(self, state: DragonHoardState, rng: random.Random) -> Action:
        if state.stage is not Stage.DRAW:
            raise ValueError(f"no chance step is due in {self.notation(state)}")
        return self._draw_actions[state.deck[int(rng.random() * len(state.deck))]]

    def apply(self, state: DragonHoardState, action: Action) -> DragonHoardState:
        if state.stage is Stage.OVER:
            raise self._illegal(state, action, "the game is over")
        kind = type(action)
        if state.stage is Stage.DRAW:
            if kind is not DrawAI:
                raise self._illegal(state, action, "an AI card draw is due")
            return self._draw(state, action)  # type: ignore[arg-type]
        if kind not in _ACTION_TYPES:
            raise self._illegal(state, action, "not a dragon-hoard action")
        if action not in self.legal_actions(state):
            raise self._illegal(state, action, f"not legal for seat {state.actor} now")
        new = _copy(state)
        seat = state.actor
        if state.stage is Stage.PREPARATION:
            self._prepare(new, seat, action)
        else:
            self._place(new, seat, action)
        return new

    def outcome(self, state: DragonHoardState) -> Outcome:
        if state.stage is not Stage.OVER:
            raise ValueError(f"game not over: {self.notation(state)}")
        winner = self.winner(state)
        if winner is None:
            return Outcome(frozenset(), Termination.NOBODY_LEFT)
        return Outcome(frozenset({winner}), Termination.DECK_EMPTY)

    def declares(self) -> Declaration:
        return Declaration(
            game=SLUG,
            effects=frozenset(AIEffectKind) | frozenset(ActionKind) | frozenset(TreasureEffect),
            modes=frozenset(Mode),
            settings=frozenset(
                {
                    "info.players",
                    "settings.cards_per_round",
                    "settings.first_round_draws",
                    "settings.recall_limit",
                    "settings.star_rounding",
                    "settings.win_bonus",
                    "settings.leader_min_treasures",
                    "lair.columns",
                    "lair.rows",
                    "lair.centre",
                    "lair.dragon_radius",
                    "lair.domain_radius",
                    "lair.entries.seat",
                    "lair.entries.cell",
                    "lair.exits.cell",
                    "lair.gates.id",
                    "lair.gates.type",
                    "lair.gates.cell",
                    "lair.traps.colour",
                    "lair.traps.cell",
                    "lair.treasure_setup.treasure",
                    "lair.treasure_setup.cell",
                    "ai_cards.id",
                    "ai_cards.speed",
                    "ai_cards.colour",
                    "ai_cards.recall",
                    "ai_cards.copies",
                    "ai_cards.effects.kind",
                    "ai_cards.effects.area",
                    "ai_cards.effects.steps",
                    "action_cards.id",
                    "action_cards.kind",
                    "action_cards.phases",
                    "action_cards.direction",
                    "action_cards.steps",
                    "player_colours.cards",
                    "treasures.id",
                    "treasures.value",
                    "treasures.effect",
                    "treasures.heart",
                }
            ),
            options=frozenset({"players", "mode", "must_hold"}),
        )

    # -- preparation ----------------------------------------------------------------------

    def _prep_actions(self, state: DragonHoardState, seat: int) -> list[Action]:
        actions: list[Action] = [_DONE]
        used = state.prep[seat]
        bag = state.bags[seat]
        if not used & PREP_HEIRLOOM:
            # Swap the heirloom: a bag treasure becomes it, the old one goes back in the bag.
            actions.extend(Heirloom(self.treasure_ids[t]) for t in _distinct(bag))
        if not used & PREP_TREASURE:
            owned = sorted({*bag, state.heirlooms[seat]} - {-1})
            holds_heart = self.heart in owned
            for t in owned:
                effect = self.treasure_effect[t]
                if effect is TreasureEffect.TELEPORT and not holds_heart:
                    # 龙之钻: to any A or B gate, unless you hold the Dragon Heart.
                    actions.extend(UseTreasure(self.treasure_ids[t], g) for g in self.gate_ids)
                elif effect is TreasureEffect.DODGE:
                    actions.append(UseTreasure(self.treasure_ids[t]))
        if not used & PREP_CARD:
            for c in _distinct(self._hand(state, seat)):
                if not self._preparable[c]:
                    continue
                card = self.cards[c]
                if card.kind is ActionKind.SPRINT:
                    # A sprint's direction is chosen when it is played.
                    actions.extend(PrepCard(card.id, d) for d in _DIRECTIONS)
                else:
                    actions.append(PrepCard(card.id))
        actions.append(_GIVE_UP)
        return actions

    def _prepare(self, new: DragonHoardState, seat: int, action: Action) -> None:
        if type(action) is Done:
            self._next_preparer(new, seat)
            return
        if type(action) is GiveUp:
            # The player gives up: out of the game with 0 points; everything they carry drops
            # on their cell (decision `giving-up`); the countdown starts this round.
            self._drop(new, seat, everything=True)
            new.status = _set(new.status, seat, Status.QUIT)
            new.pawns = _set(new.pawns, seat, None)
            new.events |= GAVE_UP
            self._next_preparer(new, seat)
            return
        if type(action) is Heirloom:
            t = self._treasure_by_id[action.treasure]
            bag = _remove(new.bags[seat], t)
            old = new.heirlooms[seat]
            if old >= 0:
                bag = _insert(bag, old)
            new.bags = _set(new.bags, seat, bag)
            new.heirlooms = _set(new.heirlooms, seat, t)
            new.prep = _set(new.prep, seat, new.prep[seat] | PREP_HEIRLOOM)
            return
        if type(action) is UseTreasure:
            t = self._treasure_by_id[action.treasure]
            # An active effect used: the token leaves the game.
            if new.heirlooms[seat] == t:
                new.heirlooms = _set(new.heirlooms, seat, -1)
            else:
                new.bags = _set(new.bags, seat, _remove(new.bags[seat], t))
            new.discarded = _insert(new.discarded, t)
            new.prep = _set(new.prep, seat, new.prep[seat] | PREP_TREASURE)
            if self.treasure_effect[t] is TreasureEffect.TELEPORT:
                assert action.gate is not None
                cell = self.gate_cells[self._gate_by_id[action.gate]]
                new.pawns = _set(new.pawns, seat, cell)
                self._pick_up(new, seat, cell)
                self._after_move(new, seat)
            else:
                new.sideways = _set(new.sideways, seat, True)
            return
        assert type(action) is PrepCard
        c = self._card_by_id[action.card]
        new.used = _set(new.used, seat, _insert(new.used[seat], c))
        new.prep = _set(new.prep, seat, new.prep[seat] | PREP_CARD)
        # A preparation-phase card resolves at once.
        self._resolve_card(new, seat, c, action.direction)

    def _next_preparer(self, new: DragonHoardState, seat: int) -> None:
        nxt = self._next_seat(new, seat, lambda s: new.status[s] is Status.IN, new.holder)
        if nxt is None:
            self._start_draw(new)
        else:
            new.actor = nxt

    def _next_seat(
        self, state: DragonHoardState, after: int, eligible: Any, start: int
    ) -> int | None:
        """The next eligible seat clockwise after `after`, not wrapping past `start`."""
        n = self.players
        seat = (after + 1) % n
        while seat != start:
            if eligible(seat):
                return seat
            seat = (seat + 1) % n
        return None

    # -- the AI draw ----------------------------------------------------------------------

    def _start_draw(self, new: DragonHoardState) -> None:
        new.actor = -1
        if new.round == 1:
            # Round 1: the holder draws two cards, this round's and next round's.
            due = self.first_draws
        else:
            # The card drawn last round is this round's; draw next round's (if a deck is left).
            new.current, new.upcoming = new.upcoming, -1
            due = 1 if new.current >= 0 else 2
        new.draws_due = min(due, len(new.deck))
        new.stage = Stage.DRAW
        if not new.draws_due:
            self._start_placement(new)

    def _draw(self, state: DragonHoardState, action: DrawAI) -> DragonHoardState:
        c = self._ai_by_id.get(action.card, -1)
        if c not in state.deck:
            raise self._illegal(state, action, f"AI card {action.card!r} is not in the deck")
        new = _copy(state)
        new.deck = _remove(state.deck, c)
        if new.current < 0:
            new.current = c
        else:
            new.upcoming = c
        if self.ai_recall[c]:
            new.recalls = state.recalls + 1
            new.recall_round = True
        new.draws_due = state.draws_due - 1
        if not new.draws_due:
            self._start_placement(new)
        return new

    # -- placement ------------------------------------------------------------------------

    def _placing(self, state: DragonHoardState, seat: int) -> bool:
        return (
            state.status[seat] is Status.IN
            and not state.stopped[seat]
            and sum(1 for s, _ in state.placed if s == seat) < self.limit
        )

    def _start_placement(self, new: DragonHoardState) -> None:
        new.stage = Stage.PLACEMENT
        first = new.holder if self._placing(new, new.holder) else None
        if first is None:
            first = self._next_seat(new, new.holder, lambda s: self._placing(new, s), new.holder)
        if first is None:
            self._resolve(new)
        else:
            new.actor = first

    def _place_actions(self, state: DragonHoardState, seat: int) -> list[Action]:
        actions: list[Action] = [_STOP]
        if not state.revealed and not any(s == seat for s, _ in state.placed):
            # Reveal-and-peek: only a player who has placed nothing may reveal.
            actions.append(_REVEAL)
        for c in _distinct(self._hand(state, seat)):
            if self._placeable[c]:
                actions.append(Place(self.card_ids[c]))
        return actions

    def _place(self, new: DragonHoardState, seat: int, action: Action) -> None:
        if type(action) is Reveal:
            new.revealed = True
            new.peeker = seat
            return  # the same seat acts again: it may now place
        if type(action) is Stop:
            new.stopped = _set(new.stopped, seat, True)
        else:
            assert type(action) is Place
            c = self._card_by_id[action.card]
            # At most `cards_per_round` cards per player: legal_actions offers no more.
            new.placed = (*new.placed, (seat, c))
            new.used = _set(new.used, seat, _insert(new.used[seat], c))
        nxt = self._next_seat(new, seat, lambda s: self._placing(new, s), seat)
        if nxt is None and self._placing(new, seat):
            nxt = seat
        if nxt is None:
            self._resolve(new)
        else:
            new.actor = nxt

    # -- resolution and cleanup -----------------------------------------------------------

    def resolution(self, state: DragonHoardState) -> list[tuple[int, int] | str]:
        """This round's resolution order: placed (seat, card) pairs with `AI` where the AI
        card falls (see :func:`pnp.games.dragon_hoard.model.resolution_order`)."""
        marker = self.ai_markers[state.current]
        return resolution_order(marker, state.placed, self.players, self.rounding)

    def _resolve(self, new: DragonHoardState) -> None:
        new.actor = -1
        # Resolution: the stack turned over, first placed first; the AI card at its speed.
        # ☆ counts the players at the start of the game (self.players), whoever has left.
        for item in self.resolution(new):
            if item == AI:
                self._run_ai(new, new.current)
                new.executed = (*new.executed, new.current)
                new.current = -1
            else:
                seat, c = item  # type: ignore[misc]
                # A dead or departed player's card is cancelled (it still counted above).
                if new.status[seat] is Status.IN:
                    self._resolve_card(new, seat, c, None)
        self._cleanup(new)

    def _cleanup(self, new: DragonHoardState) -> None:
        # Cleanup, in order: player cards, AI cards (neither has cleanup effects in this
        # edition), then terrain: pawns on traps of the active colour (the colour of the top
        # executed AI card) die, clockwise from the holder.
        if new.executed:
            self._spring_traps(new, self.ai_colour[new.executed[-1]])
        # Countdown, once in never out: a player left, a player gave up, the recall limit was
        # reached (Ice-Fire Dragon: the third recall card), the Heart left the domain.
        if not new.countdown and (new.events or new.recalls >= self.recall_limit):
            new.countdown = True
        # A recall card drawn this round: every AI card not removed for good (deck and executed
        # pile; next round's card stays aside) becomes a new deck; in the countdown the recall
        # cards of that reshuffle are removed for good.
        if new.recall_round:
            pool = [*new.deck, *new.executed]
            if new.countdown:
                gone = [c for c in pool if self.ai_recall[c]]
                pool = [c for c in pool if not self.ai_recall[c]]
                new.removed = tuple(sorted((*new.removed, *gone)))
            new.deck = tuple(sorted(pool))
            new.executed = ()
        # Temporarily removed action cards come back; character cards are straightened.
        n = self.players
        new.used = ((),) * n
        new.sideways = (False,) * n
        new.turn += 1
        # The game ends when the AI deck is empty at the end of a round.
        if not new.deck:
            new.stage = Stage.OVER
            return
        self._next_round(new)

    def _next_round(self, new: DragonHoardState) -> None:
        n = self.players
        new.round += 1
        # Preparation: the hourglass passes clockwise (to a player still in the game).
        holder = self._next_seat(new, new.holder, lambda s: self._in_game(new, s), new.holder)
        new.holder = holder if holder is not None else (new.holder + 1) % n
        # The dead respawn on their own entry teleporter.
        for seat in range(n):
            if new.status[seat] is Status.DEAD:
                new.status = _set(new.status, seat, Status.IN)
                new.pawns = _set(new.pawns, seat, self.entries[seat])
        new.prep = (0,) * n
        new.placed = ()
        new.stopped = (False,) * n
        new.revealed = False
        new.peeker = -1
        new.events = 0
        new.recall_round = False
        new.stage = Stage.PREPARATION
        first = new.holder if new.status[new.holder] is Status.IN else None
        if first is None:
            first = self._next_seat(
                new, new.holder, lambda s: new.status[s] is Status.IN, new.holder
            )
        if first is None:
            self._start_draw(new)
        else:
            new.actor = first

    # -- effects --------------------------------------------------------------------------

    def _resolve_card(
        self, new: DragonHoardState, seat: int, c: int, direction: Direction | None
    ) -> None:
        card = self.cards[c]
        if card.kind is ActionKind.MOVE:
            assert card.direction is not None
            self._move(new, seat, card.direction, card.steps)
        elif card.kind is ActionKind.SPRINT:
            if direction is not None:
                self._move(new, seat, direction, card.steps)
        elif card.kind is ActionKind.DODGE:
            new.sideways = _set(new.sideways, seat, True)
        elif card.kind is ActionKind.GRAB:
            self._grab(new, seat)

    def landing(self, pos: Cell, dragon: Cell, direction: Direction, steps: int) -> Cell:
        """Where a move from `pos` ends (before any gate), the dragon on `dragon`; for policies."""
        body = self.body(dragon)
        dx, dy = direction.step
        for _ in range(steps):
            nxt = (pos[0] + dx, pos[1] + dy)
            if not self.lair.contains(nxt) or nxt in body:
                break
            pos = nxt
            if pos in self.exits:
                break
        return pos

    def _move(self, new: DragonHoardState, seat: int, direction: Direction, steps: int) -> None:
        # Movement (decision `movement`): cell by cell, stopped by the map's edge and the
        # dragon's body; treasures on every cell entered are picked up; an exit leaves the lair
        # at once; a move that ends on a gate teleports to the other gate of its type.
        pos = new.pawns[seat]
        if pos is None:
            return
        body = self.body(new.dragon)
        dx, dy = direction.step
        moved = False
        for _ in range(steps):
            nxt = (pos[0] + dx, pos[1] + dy)
            if not self.lair.contains(nxt) or nxt in body:
                break
            pos = nxt
            moved = True
            new.pawns = _set(new.pawns, seat, pos)
            self._pick_up(new, seat, pos)
            if pos in self.exits and self._may_leave(new, seat):
                self._leave(new, seat)
                return
        if moved and pos in self.gate_pair:
            pos = self.gate_pair[pos]
            new.pawns = _set(new.pawns, seat, pos)
            self._pick_up(new, seat, pos)
        self._after_move(new, seat)

    def _may_leave(self, state: DragonHoardState, seat: int) -> bool:
        held = len(state.bags[seat]) + (state.heirlooms[seat] >= 0)
        return held >= self.must_hold[seat]

    def _leave(self, new: DragonHoardState, seat: int) -> None:
        if self._holds_heart(new, seat):
            new.events |= HEART_OUT
        new.status = _set(new.status, seat, Status.LEFT)
        new.pawns = _set(new.pawns, seat, None)
        new.left_order = (*new.left_order, seat)
        new.events |= LEFT_LAIR

    def _after_move(self, new: DragonHoardState, seat: int) -> None:
        pos = new.pawns[seat]
        # Ice-Fire Dragon: the Heart carried out of the dragon's domain starts the countdown.
        if pos is not None and not self.lair.in_domain(pos) and self._holds_heart(new, seat):
            new.events |= HEART_OUT

    def _holds_heart(self, state: DragonHoardState, seat: int) -> bool:
        return self.heart >= 0 and (
            self.heart in state.bags[seat] or state.heirlooms[seat] == self.heart
        )

    def _pick_up(self, new: DragonHoardState, seat: int, cell: Cell) -> None:
        here = [item for item in new.floor if (item[0], item[1]) == cell]
        if not here:
            return
        new.floor = tuple(item for item in new.floor if (item[0], item[1]) != cell)
        new.bags = _set(new.bags, seat, tuple(sorted((*new.bags[seat], *(t for _, _, t in here)))))

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
        t = max(new.bags[victim], key=lambda code: (self.value[code], -code))
        new.bags = _set(new.bags, victim, _remove(new.bags[victim], t))
        new.bags = _set(new.bags, seat, _insert(new.bags[seat], t))

    def _run_ai(self, new: DragonHoardState, c: int) -> None:
        for effect in self.ai_effects[c]:
            kind = effect.kind
            if kind is AIEffectKind.ATTACK:
                assert effect.area is not None
                cells = self.area(c, effect, new.dragon)
                for seat in self._clockwise(new):
                    pos = new.pawns[seat]
                    # A sideways character card dodges the dragon's attacks.
                    if pos in cells and not new.sideways[seat]:
                        self._kill(new, seat)
            elif kind is AIEffectKind.ADVANCE:
                for _ in range(effect.steps):
                    step = self._advance_step(new)
                    if step is None:
                        break
                    new.dragon = step
                    self._trample(new)
            elif kind is AIEffectKind.RETURN:
                new.dragon = self.centre
                self._trample(new)
            elif kind is AIEffectKind.TRAPS:
                self._spring_traps(new, self.ai_colour[c])

    def area(self, c: int, effect: Any, dragon: Cell) -> frozenset[Cell]:
        key = (c, self.ai_effects[c].index(effect), dragon)
        cells = self._area_cache.get(key)
        if cells is None:
            cells = self._area_cache[key] = effect.area.cells(self.lair, dragon)
        return cells

    def body(self, dragon: Cell) -> frozenset[Cell]:
        cells = self._body_cache.get(dragon)
        if cells is None:
            cells = self._body_cache[dragon] = self.lair.dragon_cells(dragon)
        return cells

    def _advance_step(self, new: DragonHoardState) -> Cell | None:
        """One step of the dragon toward the nearest pawn, its body staying in the domain."""
        pawns = [p for p in new.pawns if p is not None]
        if not pawns:
            return None
        x, y = new.dragon

        def gap(centre: Cell) -> int:
            r = self.lair.dragon_radius
            return min(
                max(abs(px - centre[0]) - r, 0) + max(abs(py - centre[1]) - r, 0)
                for px, py in pawns
            )

        now = gap(new.dragon)
        best: tuple[int, Cell] | None = None
        reach = self.lair.domain_radius - self.lair.dragon_radius
        for direction in _DIRECTIONS:
            dx, dy = direction.step
            to = (x + dx, y + dy)
            if max(abs(to[0] - self.centre[0]), abs(to[1] - self.centre[1])) > reach:
                continue
            distance = gap(to)
            if distance < now and (best is None or distance < best[0]):
                best = (distance, to)
        return None if best is None else best[1]

    def _trample(self, new: DragonHoardState) -> None:
        # Trampling (decision `trampling`): pawns under the dragon's body are attacked; a
        # dodging pawn moves instead to the nearest free cell (trying N, E, S, W).
        body = self.body(new.dragon)
        for seat in self._clockwise(new):
            pos = new.pawns[seat]
            if pos is None or pos not in body:
                continue
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
            if new.pawns[seat] in cells:
                # Traps hurt dodging players too (decision `death`).
                self._kill(new, seat)

    def _kill(self, new: DragonHoardState, seat: int) -> None:
        # Death: the pawn leaves the map, the bag's treasures drop on its cell; the heirloom
        # stays. It respawns at its entry teleporter next preparation.
        self._drop(new, seat, everything=False)
        new.status = _set(new.status, seat, Status.DEAD)
        new.pawns = _set(new.pawns, seat, None)

    def _drop(self, new: DragonHoardState, seat: int, everything: bool) -> None:
        pos = new.pawns[seat]
        dropped = list(new.bags[seat])
        if everything and new.heirlooms[seat] >= 0:
            dropped.append(new.heirlooms[seat])
            new.heirlooms = _set(new.heirlooms, seat, -1)
        new.bags = _set(new.bags, seat, ())
        if pos is not None and dropped:
            new.floor = tuple(sorted((*new.floor, *((pos[0], pos[1], t) for t in dropped))))

    def _clockwise(self, state: DragonHoardState) -> list[int]:
        return [(state.holder + k) % self.players for k in range(self.players)]

    def _in_game(self, state: DragonHoardState, seat: int) -> bool:
        return state.status[seat] in (Status.IN, Status.DEAD)

    def _hand(self, state: DragonHoardState, seat: int) -> tuple[int, ...]:
        """The seat's action cards still in hand this round."""
        hand = self.sets[seat]
        for c in state.used[seat]:
            hand = _remove(hand, c)
        return hand

    # -- scoring --------------------------------------------------------------------------

    def scores(self, state: DragonHoardState) -> tuple[int, ...]:
        """Only players who left the lair score: the value of everything they carry."""
        return tuple(
            sum(self.value[t] for t in (*state.bags[s], state.heirlooms[s]) if t >= 0)
            if state.status[s] is Status.LEFT
            else 0
            for s in range(self.players)
        )

    def winner(self, state: DragonHoardState) -> int | None:
        """Highest score among those who left; a tie goes to whoever left first."""
        if not state.left_order:
            return None
        scores = self.scores(state)
        return max(state.left_order, key=lambda s: (scores[s], -state.left_order.index(s)))

    def treasures_held(self, state: DragonHoardState, seat: int) -> int:
        return len(state.bags[seat]) + (state.heirlooms[seat] >= 0)

    # -- invariants -----------------------------------------------------------------------

    def invariant_problems(self, state: DragonHoardState) -> list[str]:
        problems = []
        tokens = [t for _, _, t in state.floor]
        tokens += [t for bag in state.bags for t in bag]
        tokens += [t for t in state.heirlooms if t >= 0]
        tokens += list(state.discarded)
        if tuple(sorted(tokens)) != self._tokens:
            problems.append(f"treasures not conserved: {len(tokens)} of {len(self._tokens)}")
        cards = [*state.deck, *state.executed, *state.removed]
        cards += [c for c in (state.current, state.upcoming) if c >= 0]
        if tuple(sorted(cards)) != self._deck:
            problems.append(f"AI cards not conserved: {len(cards)} of {len(self._deck)}")
        body = self.body(state.dragon)
        for seat, (status, pos) in enumerate(zip(state.status, state.pawns, strict=True)):
            if (status is Status.IN) != (pos is not None):
                problems.append(f"seat {seat} is {status.value} with pawn {pos}")
            if pos is not None and (pos in body or not self.lair.contains(pos)):
                problems.append(f"seat {seat}'s pawn on {pos} is under the dragon or off the map")
            placed = sum(1 for s, _ in state.placed if s == seat)
            if placed > self.limit:
                problems.append(f"seat {seat} placed {placed} cards (limit {self.limit})")
        if not self.lair.in_domain(state.dragon) or not all(self.lair.in_domain(c) for c in body):
            problems.append(f"the dragon on {state.dragon} left its domain")
        if state.stage is Stage.OVER and state.deck:
            problems.append("the game ended with AI cards in the deck")
        return problems

    def check_invariants(self, state: DragonHoardState) -> None:
        problems = self.invariant_problems(state)
        if problems:
            raise InvariantViolation(f"{'; '.join(problems)} in {self.notation(state)}")

    # -- notation -------------------------------------------------------------------------

    def notation(self, state: DragonHoardState) -> str:
        """The whole position as one line of JSON, cards and treasures named by id."""
        ai, tr, ac = self.ai_ids, self.treasure_ids, self.card_ids

        def cell(c: Cell | None) -> list[int] | None:
            return None if c is None else [c[0], c[1]]

        data = {
            "round": state.round,
            "stage": state.stage.value,
            "holder": state.holder,
            "actor": state.actor,
            "status": [s.value for s in state.status],
            "pawns": [cell(p) for p in state.pawns],
            "bags": [[tr[t] for t in bag] for bag in state.bags],
            "heirlooms": [tr[t] if t >= 0 else None for t in state.heirlooms],
            "sideways": list(state.sideways),
            "used": [[ac[c] for c in used] for used in state.used],
            "prep": list(state.prep),
            "placed": [[s, ac[c]] for s, c in state.placed],
            "stopped": list(state.stopped),
            "revealed": state.revealed,
            "peeker": state.peeker,
            "deck": [ai[c] for c in state.deck],
            "current": ai[state.current] if state.current >= 0 else None,
            "upcoming": ai[state.upcoming] if state.upcoming >= 0 else None,
            "executed": [ai[c] for c in state.executed],
            "removed": [ai[c] for c in state.removed],
            "draws_due": state.draws_due,
            "recalls": state.recalls,
            "recall_round": state.recall_round,
            "countdown": state.countdown,
            "dragon": cell(state.dragon),
            "floor": [[x, y, tr[t]] for x, y, t in state.floor],
            "discarded": [tr[t] for t in state.discarded],
            "left_order": list(state.left_order),
            "events": state.events,
            "turn": state.turn,
        }
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    def from_notation(self, text: str) -> DragonHoardState:
        def fail(why: str) -> ValueError:
            return ValueError(f"invalid {SLUG} notation {text!r}: {why}")

        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise fail(f"not JSON ({error.msg})") from None
        expected = set(DragonHoardState.__slots__)
        if not isinstance(data, dict) or set(data) != expected:
            raise fail(f"expected the keys {sorted(expected)}")
        n = self.players
        try:
            ai = self._ai_by_id
            tr = self._treasure_by_id
            ac = self._card_by_id

            def cell(value: Any) -> Cell | None:
                if value is None:
                    return None
                x, y = value
                if not self.lair.contains((x, y)):
                    raise fail(f"cell {value} is off the map")
                return (int(x), int(y))

            def per_seat(value: Any) -> list[Any]:
                if not isinstance(value, list) or len(value) != n:
                    raise fail(f"expected {n} seats, got {value!r}")
                return value

            dragon = cell(data["dragon"])
            assert dragon is not None
            state = DragonHoardState(
                round=int(data["round"]),
                stage=Stage(data["stage"]),
                holder=int(data["holder"]) % n,
                actor=int(data["actor"]),
                status=tuple(Status(s) for s in per_seat(data["status"])),
                pawns=tuple(cell(p) for p in per_seat(data["pawns"])),
                bags=tuple(tuple(sorted(tr[t] for t in bag)) for bag in per_seat(data["bags"])),
                heirlooms=tuple(-1 if t is None else tr[t] for t in per_seat(data["heirlooms"])),
                sideways=tuple(bool(b) for b in per_seat(data["sideways"])),
                used=tuple(tuple(sorted(ac[c] for c in u)) for u in per_seat(data["used"])),
                prep=tuple(int(p) for p in per_seat(data["prep"])),
                placed=tuple((int(s), ac[c]) for s, c in data["placed"]),
                stopped=tuple(bool(b) for b in per_seat(data["stopped"])),
                revealed=bool(data["revealed"]),
                peeker=int(data["peeker"]),
                deck=tuple(sorted(ai[c] for c in data["deck"])),
                current=-1 if data["current"] is None else ai[data["current"]],
                upcoming=-1 if data["upcoming"] is None else ai[data["upcoming"]],
                executed=tuple(ai[c] for c in data["executed"]),
                removed=tuple(sorted(ai[c] for c in data["removed"])),
                draws_due=int(data["draws_due"]),
                recalls=int(data["recalls"]),
                recall_round=bool(data["recall_round"]),
                countdown=bool(data["countdown"]),
                dragon=dragon,
                floor=tuple(sorted((int(x), int(y), tr[t]) for x, y, t in data["floor"])),
                discarded=tuple(sorted(tr[t] for t in data["discarded"])),
                left_order=tuple(int(s) for s in data["left_order"]),
                events=int(data["events"]),
                turn=int(data["turn"]),
            )
        except KeyError as error:
            raise fail(f"unknown id {error.args[0]!r}") from None
        except (TypeError, ValueError) as error:
            if str(error).startswith("invalid"):
                raise
            raise fail(str(error)) from None
        if state.stage in (Stage.PREPARATION, Stage.PLACEMENT) and not 0 <= state.actor < n:
            raise fail(f"seat to act must be 0..{n - 1}, got {state.actor}")
        return state

    def parse_action(self, text: str) -> Action:
        """Read ``done``, ``give-up``, ``reveal``, ``stop``, ``heirloom:gold``,
        ``use:dragon-diamond@gate-a1``, ``prep:sprint>n``, ``place:move-n`` or ``ai:pounce``."""
        simple = {"done": _DONE, "give-up": _GIVE_UP, "reveal": _REVEAL, "stop": _STOP}
        if text in simple:
            return simple[text]
        kind, _, rest = text.partition(":")
        if not rest:
            raise ValueError(f"invalid action: {text!r}")
        if kind == "heirloom":
            return Heirloom(rest)
        if kind == "use":
            treasure, _, gate = rest.partition("@")
            return UseTreasure(treasure, gate or None)
        if kind == "prep":
            card, _, direction = rest.partition(">")
            return PrepCard(card, Direction(direction) if direction else None)
        if kind == "place":
            return Place(rest)
        if kind == "ai":
            return DrawAI(rest)
        raise ValueError(f"invalid action: {text!r}")

    def _illegal(self, state: DragonHoardState, action: object, why: str) -> IllegalActionError:
        return IllegalActionError(f"illegal action {action!r} in {self.notation(state)}: {why}")


_ACTION_TYPES = frozenset({Heirloom, UseTreasure, PrepCard, GiveUp, Done, Place, Reveal, Stop})


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1 :])


# -- policies ---------------------------------------------------------------------------------


class TreasureHunterPolicy:
    """A sensible adventurer who sees only what a player sees.

    Preparation: keeps the most valuable treasure as heirloom, then is done. Placement: heads
    for the nearest treasure on the floor (walking distance around the dragon) until it carries
    ``greed`` points or the countdown has started, then for the nearest exit; it places the
    move cards that bring it closest, and dodges when no move helps. It never gives up.
    """

    def __init__(self, greed: int = 10) -> None:
        self.greed = greed

    def choose(self, rules: Rules[Any, Any], state: Any, rng: random.Random) -> Any:
        assert isinstance(rules, DragonHoardRules)
        actions = rules.legal_actions(state)
        seat = state.actor
        if state.stage is Stage.PREPARATION:
            return self._prepare(rules, state, seat, actions)
        placed = sum(1 for s, _ in state.placed if s == seat)
        pos = state.pawns[seat]
        if pos is None:
            return _STOP
        carried = sum(rules.value[t] for t in (*state.bags[seat], state.heirlooms[seat]) if t >= 0)
        heading_out = (
            state.countdown or carried >= self.greed or not state.floor
        ) and rules._may_leave(state, seat)
        # Where the pawn will stand after the cards it already placed this round.
        for s, c in state.placed:
            card = rules.cards[c]
            if s == seat and card.kind is ActionKind.MOVE and card.direction is not None:
                pos = rules.landing(pos, state.dragon, card.direction, card.steps)
        targets = rules.exits if heading_out else {(x, y) for x, y, _ in state.floor} or rules.exits
        distances = _walking(rules, state.dragon, targets)
        best, best_distance = None, distances.get(pos, 999)
        candidates = list(actions)
        rng.shuffle(candidates)  # no favourite direction among equally good moves
        for action in candidates:
            if type(action) is not Place:
                continue
            card = rules.cards[rules._card_by_id[action.card]]
            if card.kind is not ActionKind.MOVE or card.direction is None:
                continue
            to = rules.landing(pos, state.dragon, card.direction, card.steps)
            distance = distances.get(to, 999)
            if distance < best_distance:
                best, best_distance = action, distance
        if best is not None:
            return best
        dodge = next((a for a in actions if type(a) is Place and a.card in rules.dodge_cards), None)
        if dodge is not None and placed == 0:
            return dodge
        return _STOP

    def _prepare(
        self, rules: DragonHoardRules, state: Any, seat: int, actions: list[Action]
    ) -> Action:
        heirlooms = [a for a in actions if type(a) is Heirloom]
        if heirlooms:
            best = max(heirlooms, key=lambda a: rules.value[rules._treasure_by_id[a.treasure]])
            current = state.heirlooms[seat]
            if (
                current < 0
                or rules.value[rules._treasure_by_id[best.treasure]] > rules.value[current]
            ):
                return best
        return _DONE

    def __repr__(self) -> str:
        return f"TreasureHunterPolicy(greed={self.greed})"


_WALK_CACHE: dict[tuple[int, Cell, frozenset[Cell]], dict[Cell, int]] = {}


def _walking(rules: DragonHoardRules, dragon: Cell, targets: Iterable[Cell]) -> dict[Cell, int]:
    """Walking distance (cells) from every cell to the nearest target, around the dragon."""
    goal = frozenset(targets)
    key = (id(rules.lair), dragon, goal)
    cached = _WALK_CACHE.get(key)
    if cached is not None:
        return cached
    body = rules.body(dragon)
    columns, rows = rules.lair.columns, rules.lair.rows
    queue = deque(t for t in goal if t not in body)
    seen: dict[Cell, int] = {t: 0 for t in queue}
    while queue:
        cell = queue.popleft()
        x, y = cell
        d = seen[cell] + 1
        for nxt in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
            if nxt in seen or nxt in body or not (0 <= nxt[0] < columns and 0 <= nxt[1] < rows):
                continue
            seen[nxt] = d
            queue.append(nxt)
    if len(_WALK_CACHE) > 4096:
        _WALK_CACHE.clear()
    _WALK_CACHE[key] = seen
    return seen


# -- multi-game matches -----------------------------------------------------------------------


@dataclass(frozen=True)
class MatchResult:
    """A match of several games: each game's scores and winner, and the match's totals."""

    games: tuple[tuple[tuple[int, ...], int | None], ...]
    """(scores by seat, winner or None) of each game."""
    totals: tuple[int, ...]
    """Scores summed over the games, each game's winner +win_bonus."""
    winners: frozenset[int]
    """Match winners: the highest total; ties go to most game wins; still tied: a draw."""


def score_match(
    games: Sequence[tuple[Sequence[int], int | None]], players: int, win_bonus: int
) -> MatchResult:
    """Multi-game scoring: add each game's scores, the game's winner gets `win_bonus` more;
    the highest total wins, ties broken by games won, still tied: every tied seat draws."""
    totals = [0] * players
    wins = [0] * players
    for scores, winner in games:
        for seat in range(players):
            totals[seat] += scores[seat]
        if winner is not None:
            totals[winner] += win_bonus
            wins[winner] += 1
    top = max(totals)
    tied = [s for s in range(players) if totals[s] == top]
    most = max(wins[s] for s in tied)
    winners = frozenset(s for s in tied if wins[s] == most)
    return MatchResult(
        games=tuple((tuple(scores), winner) for scores, winner in games),
        totals=tuple(totals),
        winners=winners,
    )


def sole_leader(scores: Sequence[int]) -> int | None:
    """The only seat with the top score of a game, if exactly one has it."""
    top = max(scores)
    leaders = [s for s, v in enumerate(scores) if v == top]
    return leaders[0] if len(leaders) == 1 else None


def play_match(
    model: DragonHoard, players: int, games: int, rng: random.Random, policy: Policy
) -> MatchResult:
    """Play a match: after each game the sole top scorer must hold
    ``settings.leader_min_treasures`` treasures to leave the lair in the next one."""
    must_hold = [0] * players
    results: list[tuple[tuple[int, ...], int | None]] = []
    for _ in range(games):
        rules = DragonHoardRules(model, players, must_hold=must_hold)
        record = play_game(rules, [policy] * players, rng, ROUND_CAP * 100, max_turns=ROUND_CAP)
        state = record.final_state
        scores = rules.scores(state)
        winner = rules.winner(state) if not record.capped else None
        results.append((scores, winner))
        leader = sole_leader(scores)
        must_hold = [0] * players
        if leader is not None:
            must_hold[leader] = model.settings.leader_min_treasures
    return score_match(results, players, model.settings.win_bonus)


# -- simulation -------------------------------------------------------------------------------


@dataclass(frozen=True)
class SimulationReport:
    """Many games of one table with one policy: length, countdown, scores, wins."""

    players: int
    policy: str
    games: int
    seed: int
    mean_rounds: float
    median_rounds: float
    max_rounds: int
    countdown_games: int
    """Games that reached the countdown (every natural game should)."""
    nobody_left: int
    winning_scores: tuple[int, ...]
    """The winner's score of every game someone won."""
    wins_by_seat: tuple[int, ...]
    ended_by_cap: int
    capped_seeds: tuple[int, ...]
    ai_effects_run: dict[AIEffectKind, int]
    seconds: float = field(default=0.0, compare=False)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0


def simulate(
    model: DragonHoard,
    players: int,
    games: int = 200,
    seed: int = 0,
    policy: Policy | None = None,
    *,
    check: bool = False,
) -> SimulationReport:
    """Play ``games`` seeded games; game i uses ``random.Random(s_i)`` with s_i drawn from
    ``random.Random(seed)``, so a capped game is replayed from its seed."""
    rules = DragonHoardRules(model, players)
    chooser = policy if policy is not None else RandomPolicy()
    seeds = random.Random(seed)
    lengths: list[int] = []
    countdown = nobody = 0
    scores: list[int] = []
    wins = [0] * players
    capped: list[int] = []
    effects: Counter[AIEffectKind] = Counter()

    def observe(before: DragonHoardState, action: Action, after: DragonHoardState) -> None:
        # A round was resolved: this round's AI card (drawn before placement) was executed.
        if after.turn > before.turn and before.current >= 0:
            for effect in rules.ai_effects[before.current]:
                effects[effect.kind] += 1

    started = time.perf_counter()
    for _ in range(games):
        game_seed = seeds.getrandbits(63)
        record = play_game(
            rules,
            [chooser] * players,
            random.Random(game_seed),
            ROUND_CAP * 200,
            max_turns=ROUND_CAP,
            invariant=rules.check_invariants if check else None,
            observe=observe,
        )
        state = record.final_state
        lengths.append(record.turns)
        if record.capped:
            capped.append(game_seed)
            continue
        countdown += state.countdown
        winner = rules.winner(state)
        if winner is None:
            nobody += 1
        else:
            wins[winner] += 1
            scores.append(rules.scores(state)[winner])
    seconds = time.perf_counter() - started
    return SimulationReport(
        players=players,
        policy=repr(chooser),
        games=games,
        seed=seed,
        mean_rounds=statistics.fmean(lengths) if lengths else 0.0,
        median_rounds=statistics.median(lengths) if lengths else 0.0,
        max_rounds=max(lengths, default=0),
        countdown_games=countdown,
        nobody_left=nobody,
        winning_scores=tuple(scores),
        wins_by_seat=tuple(wins),
        ended_by_cap=len(capped),
        capped_seeds=tuple(capped),
        ai_effects_run=dict(effects),
        seconds=seconds,
    )


def example_tables(model: DragonHoard) -> list[tuple[str, DragonHoardRules]]:
    """Tables the shared contract test plays: every supported player count."""
    return [(f"{p}p", DragonHoardRules(model, p)) for p in model.info.players]


# -- rulebook ---------------------------------------------------------------------------------


def _example_table(model: DragonHoard) -> int:
    """The table the speed examples seat: the smallest with three seats or more where some
    ☆×N gives a fraction (so the rounding decision shows), else the largest."""
    fractional = [
        p
        for p in model.info.players
        if p >= 3 and any((p * n).denominator != 1 for n in model.star_multipliers)
    ]
    return fractional[0] if fractional else model.info.players.max


def rulebook_examples(model: DragonHoard) -> dict[str, dict[str, Any]]:
    """Worked examples for the rulebook, computed here so prose cannot drift from the rules.

    ``speed``: one round's placed player cards (the first player to place walks out of the lair
    with their first card, so their second card is cancelled, yet still counted) and where an
    AI card of each speed-marker kind falls among them, by
    :func:`pnp.games.dragon_hoard.model.resolution_order` with the content's ☆ rounding. The leaving
    and the cancelling are played out by this engine.
    """
    players = _example_table(model)
    rules = DragonHoardRules(model, players)
    colours = model.player_colours
    placeable = [card for card in model.action_cards if Phase.PLACEMENT in card.phases]
    moves = [card for card in placeable if card.kind is ActionKind.MOVE]
    others = [card for card in placeable if card.kind is not ActionKind.MOVE] or placeable

    # The leaver stands next to an exit; a move card pointing at it takes them out.
    body = rules.body(rules.centre)
    start, out_card = rules.entries[2 % players], moves[0]
    for exit_cell in sorted(rules.exits):
        for card in moves:
            assert card.direction is not None
            dx, dy = card.direction.step
            cell = (exit_cell[0] - dx, exit_cell[1] - dy)
            if model.lair.contains(cell) and cell not in body and cell not in rules.exits:
                start, out_card = cell, card
                break
        else:
            continue
        break
    leaver, holder, third = 2 % players, 0, 1 % players
    later = next((card for card in moves if card is not out_card), out_card)
    sequence = [
        (leaver, out_card),
        (holder, later),
        (leaver, next((c for c in moves if c not in (out_card, later)), later)),
        (third, others[0]),
    ]
    cancelled_at = 3  # the leaver's second card, counted from 1

    # Play the round out with the engine: the AI card last, so only the players act first.
    slowest = next(
        (
            c
            for c, marker in enumerate(rules.ai_markers)
            if marker.wanted(players, rules.rounding) is None
        ),
        0,
    )
    state = _copy(rules.initial_state(random.Random(0)))
    state.stage = Stage.PLACEMENT
    state.pawns = _set(state.pawns, leaver, start)
    state.placed = tuple((seat, rules._card_by_id[card.id]) for seat, card in sequence)
    state.deck = _remove(state.deck, slowest)
    state.current = slowest
    rules._resolve(state)
    left = state.status[leaver] is Status.LEFT and leaver in state.left_order

    def label(index: int) -> str:
        seat, card = sequence[index]
        return f"{colours[seat].name}「{card.name}」"

    labels = [label(i) for i in range(len(sequence))]

    def place(card: Any, cards: int | None = None) -> dict[str, Any]:
        marker = card.marker
        placed = list(range(len(sequence) if cards is None else cards))
        order = resolution_order(marker, placed, players, model.settings.star_rounding)
        after = order.index(AI)
        steps = [f"【{card.name}】" if item == AI else labels[int(item)] for item in order]
        return {
            "card": card.name,
            "symbol": marker.symbol,
            "wanted": marker.wanted(players, model.settings.star_rounding),
            "n": str(marker.n),
            # players × N before rounding, as a decimal (3 × 1/2 → "1.5")
            "exact": f"{float(players * marker.n):g}" if marker.kind is SpeedKind.STAR else None,
            "placed": len(placed),
            "after": after,
            "order": " → ".join(steps),
        }

    zero = model.ai_cards_with("0")
    infinity = model.ai_cards_with("∞")
    stars = sorted(model.ai_cards_with("☆"), key=lambda card: card.marker.n)
    numbers = sorted(model.ai_cards_with("n"), key=lambda card: card.marker.n)
    # A number card reached before the cancelled card, and the largest number for the case of
    # too few cards (the round cut short when the deck's numbers are all small).
    reached = next(
        (c for c in reversed(numbers) if c.marker.n < cancelled_at), numbers[0] if numbers else None
    )
    fewest = numbers[-1] if numbers else None
    fewer_cards = None if fewest is None else min(len(sequence), int(fewest.marker.n) - 1)
    return {
        "speed": {
            "players": players,
            "holder": colours[holder].name,
            "leaver": colours[leaver].name,
            "left": left,
            "cancelled_at": cancelled_at,
            "cancelled": labels[cancelled_at - 1],
            "placed": labels,
            "count": len(sequence),
            "zero": place(zero[0]) if zero else None,
            "infinity": place(infinity[0]) if infinity else None,
            "stars": [place(card) for card in stars],
            "number": place(reached) if reached is not None else None,
            "fewer": place(fewest, fewer_cards) if fewest is not None else None,
        }
    }
