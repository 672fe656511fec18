"""Dragon Hoard (魔龙宝窟) as a plain rules library: every number comes from the model.

The rules of the post (shared/seeds/000_889b28401d11cb8f.txt) and this edition's decisions
(content/dragon-hoard/game.yaml `decisions`), cited where the code encodes them:

- Seats 0..n-1, clockwise is +1. Seat 0 holds the hourglass in round 1 (decision
  `first-holder`); from round 2 it passes clockwise at the start of each round.
- A round: preparation (each seat in clockwise order from the holder: heirloom swap, one
  treasure effect, one preparation card, each at most once, then ``done``; or ``give-up``),
  the AI draw (chance: round 1 draws ``settings.first_round_draws`` cards, later rounds one),
  placement, resolution and cleanup.
- Placement is a real-time race, played as decisions (decision `placement-order`): from the
  holder, the seat to act places a card (and may place again at once), reveals the AI card
  (only with nothing placed), waits (the next seat clockwise that may still place decides) or
  stops; when every seat that may still place has waited in a row, time is up. Every order of
  the mat is reachable.
- Resolution runs inside the ``apply`` that ends placement, pausing (stage ``resolve``) where a
  move card's owner chooses how far it goes (decision `move-distance`). Cards over a seat's
  limit are removed before any effect (decision `excess-cards`).
- The game ends when the AI deck is empty at a round's end, or once every player has left or
  given up (decision `everyone-out`).
- The AI card falls where :func:`pnp.games.dragon_hoard.model.resolution_order` puts it (cancelled
  cards counted, ☆ from the players at the start, rounded as ``settings.star_rounding``).

Chance is explicit: each AI draw is ``DrawAI(card)`` from the deck, kept as a multiset (a
uniform draw from a multiset is a draw from the top of a shuffled deck, so a reshuffle is just
moving cards into it).

This module holds what a table sets up (``__init__``), the protocol, preparation and the
legality check; the rest of a round (the AI draw, placement, resolution and cleanup) is in
``round``, and what cards and the dragon do on the map in ``board``: mixins this class
inherits, ``RoundFlow`` over ``BoardEffects``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from pnp.engines.base import Declaration, InvariantViolation, Outcome
from pnp.engines.piles import distinct as _distinct
from pnp.engines.piles import with_card as _insert
from pnp.engines.piles import without as _remove
from pnp.errors import IllegalActionError
from pnp.games.dragon_hoard.actions import (
    _ACTION_TYPES,
    _DONE,
    _GIVE_UP,
    Action,
    Done,
    DrawAI,
    GiveUp,
    Heirloom,
    Listed,
    Place,
    PrepCard,
    Reveal,
    Stop,
    UseTreasure,
    Wait,
    Walk,
    parse_action,
)
from pnp.games.dragon_hoard.board import _DIRECTIONS
from pnp.games.dragon_hoard.model import (
    ActionKind,
    AIEffectKind,
    Cell,
    DragonHoard,
    GateType,
    Phase,
    Rounding,
    SpeedMarker,
    TreasureEffect,
)
from pnp.games.dragon_hoard.notation import format_position, parse_position
from pnp.games.dragon_hoard.round import RoundFlow
from pnp.games.dragon_hoard.state import (
    _DRAW,
    _IN,
    _LEFT,
    _OVER,
    _PLACEMENT,
    _PREPARATION,
    _QUIT,
    _RESOLUTION,
    GAVE_UP,
    PREP_CARD,
    PREP_HEIRLOOM,
    PREP_TREASURE,
    SLUG,
    DragonHoardState,
    Mode,
    Stage,
    Termination,
    _copy,
    _set,
)

ROUND_CAP = 500
"""Simulations stop a game after this many rounds and report a cap hit. The countdown starts at
the latest when the recall limit is reached, and after it every reshuffle shrinks the deck, so
natural games end in a few dozen rounds; a cap hit means an engine bug."""
_PLAYER_STAGES = (Stage.PREPARATION, Stage.PLACEMENT, Stage.RESOLUTION)
"""The stages where a seat acts (the others are chance or the end)."""

_CACHE_LIMIT = 1 << 16
"""Entries a memo of the rules holds before it starts afresh (memory stays bounded)."""


# -- the rules --------------------------------------------------------------------------------


class DragonHoardRules(RoundFlow):
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
        # Decision `seats-and-entries`: the table's size picks the entry teleporters it uses.
        self.entries = lair.entry_cells(players)
        self.exits = frozenset((e.cell[0], e.cell[1]) for e in lair.exits)
        self.cells = frozenset((x, y) for x in range(lair.columns) for y in range(lair.rows))
        self.domain = frozenset(cell for cell in self.cells if lair.in_domain(cell))
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
        self.trace: list[str] | None = None

        # The actions, built once: legal_actions hands out these shared (frozen) objects.
        self._heirloom_actions = [Heirloom(t) for t in self.treasure_ids]
        self._dodge_uses = [UseTreasure(t) for t in self.treasure_ids]
        self._teleports = [
            tuple(UseTreasure(t, g) for g in self.gate_ids) for t in self.treasure_ids
        ]
        self._place_actions_of = [Place(card_id) for card_id in self.card_ids]
        self._prep_plain = [PrepCard(card_id) for card_id in self.card_ids]
        # A sprint's actions per direction: index 0 names no distance, index k goes k cells.
        self._sprints = [
            tuple(
                (PrepCard(card.id, d), *(PrepCard(card.id, d, k) for k in range(1, card.steps + 1)))
                for d in _DIRECTIONS
            )
            for card in self.cards
        ]
        longest = max((card.steps for card in self.cards), default=0)
        self._walk_of: list[Action] = [Walk(k) for k in range(longest + 1)]
        self._direction_index = {d: i for i, d in enumerate(_DIRECTIONS)}
        # Each card's direction by its place in _DIRECTIONS if it is a move card, else -1.
        self._move_direction = [
            _DIRECTIONS.index(card.direction)
            if card.kind is ActionKind.MOVE and card.direction is not None
            else -1
            for card in self.cards
        ]
        # The walks a move that may go k cells offers (index k), listed once with their
        # identities (see _last_listed).
        self._walks_listed: list[Listed] = [
            (tuple(self._walk_of[1 : k + 1]), frozenset(map(id, self._walk_of[1 : k + 1])))
            for k in range(longest + 1)
        ]
        # How many player cards each AI card lets resolve before it (its speed marker's count
        # at this table, None for ∞): `resolution_order`'s slot, worked out once.
        self._ai_wanted = [marker.wanted(players, self.rounding) for marker in self.ai_markers]
        # Pure functions of a few immutable parts of a state, memoised.
        self._hand_cache: dict[tuple[int, tuple[int, ...]], tuple[int, ...]] = {}
        self._reach_cache: dict[tuple[Cell, Cell, int, bool], tuple[int, ...]] = {}
        self._prep_cache: dict[tuple[object, ...], Listed] = {}
        # The state legal_actions listed last, with its actions and their identities (the
        # tuple keeps them alive, so an identity found among them is one of them).
        self._last_listed: tuple[DragonHoardState | None, Listed] = (None, ((), frozenset()))
        self._landing_cache: dict[tuple[Cell, Cell, int, int], Cell] = {}
        self._places_cache: dict[tuple[int, tuple[int, ...], bool, bool], Listed] = {}
        self._floor_key: tuple[tuple[int, int, int], ...] | None = None
        self._floor_set: frozenset[Cell] = frozenset()
        # Per-seat tuples every round starts with, shared by the states.
        self._no_prep: tuple[int, ...] = (0,) * players
        self._none_stopped: tuple[bool, ...] = (False,) * players
        self._none_sideways: tuple[bool, ...] = (False,) * players
        self._nothing_used: tuple[tuple[int, ...], ...] = ((),) * players
        self._clockwise_from = [
            tuple((holder + k) % players for k in range(players)) for holder in range(players)
        ]
        # What each kind of player action does: a kind is legal in one stage only, so the
        # action's kind alone picks its effect.
        self._effects: dict[type, Callable[[DragonHoardState, int, Any], None]] = {
            Done: self._done,
            GiveUp: self._give_up,
            Heirloom: self._swap_heirloom,
            UseTreasure: self._use_treasure,
            PrepCard: self._play_prep_card,
            Place: self._place_card,
            Reveal: self._reveal,
            Wait: self._wait,
            Stop: self._stop,
            Walk: self._walk,
        }
        self._start = self._set_up()

    # -- the protocol ---------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return self.players

    def initial_state(self, rng: random.Random) -> DragonHoardState:
        # Set-up takes no chance (the deck is a multiset, drawn from at random), so every game
        # starts from a copy of the one set-up position.
        return _copy(self._start)

    def _set_up(self) -> DragonHoardState:
        # Set-up: pawns on their entry teleporters, treasures by the setup guide, the dragon on
        # C, the AI deck shuffled (a multiset: the order is chance at each draw).
        n = self.players
        return DragonHoardState(
            round=1,
            stage=_PREPARATION,
            holder=0,
            actor=0,
            status=(_IN,) * n,
            pawns=self.entries,
            bags=((),) * n,
            heirlooms=(-1,) * n,
            sideways=(False,) * n,
            used=((),) * n,
            prep=(0,) * n,
            placed=(),
            queue=(),
            waited=0,
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

    def current_player(self, state: DragonHoardState) -> int | None:
        if state.stage in _PLAYER_STAGES:
            return state.actor
        return None

    def is_chance(self, state: DragonHoardState) -> bool:
        return state.stage is _DRAW

    def is_terminal(self, state: DragonHoardState) -> bool:
        return state.stage is _OVER

    def turns(self, state: DragonHoardState) -> int:
        return state.turn

    def legal_actions(self, state: DragonHoardState) -> list[Action]:
        if state.stage is _DRAW:
            return [self._draw_actions[c] for c in _distinct(state.deck)]
        if state.stage is _PREPARATION:
            return self._prep_actions(state, state.actor)
        if state.stage is _PLACEMENT:
            return self._place_actions(state, state.actor)
        if state.stage is _RESOLUTION:
            return self._walk_actions(state)
        return []

    def chance_outcomes(self, state: DragonHoardState) -> list[tuple[Action, float]]:
        if state.stage is not _DRAW:
            return []
        total = len(state.deck)
        return [(self._draw_actions[c], k / total) for c, k in sorted(Counter(state.deck).items())]

    def sample_chance(self, state: DragonHoardState, rng: random.Random) -> Action:
        if state.stage is not _DRAW:
            raise ValueError(f"no chance step is due in {self.notation(state)}")
        return self._draw_actions[state.deck[int(rng.random() * len(state.deck))]]

    def resample(self, state: DragonHoardState, seat: int, rng: random.Random) -> DragonHoardState:
        """A position ``seat`` cannot tell from ``state`` (for the search player).

        Hidden from ``seat``: the action cards the others placed face down this round (only
        their count and order show; each is redrawn from what that player held), this round's
        AI card until someone reveals it, and next round's unless ``seat`` peeked at it (both
        redrawn with the deck; a recall card is announced on the recall track, so a redrawn card
        keeps being a recall card or not)."""
        new = _copy(state)
        if state.stage is _PLACEMENT and state.placed:
            placed = list(state.placed)
            used = list(state.used)
            for other in range(self.players):
                slots = [i for i, (s, _) in enumerate(placed) if s == other]
                if other == seat or not slots:
                    continue
                pool = list(self._hand(state, other))
                for i in slots:
                    pool.append(placed[i][1])
                    used[other] = _remove(used[other], placed[i][1])
                pool = [c for c in pool if self._placeable[c]]
                for i, c in zip(slots, rng.sample(pool, len(slots)), strict=True):
                    placed[i] = (other, c)
                    used[other] = _insert(used[other], c)
            new.placed, new.used = tuple(placed), tuple(used)
        hidden = []
        face_down = state.stage in (_DRAW, _PLACEMENT) and not state.revealed
        if state.current >= 0 and face_down:
            hidden.append("current")
        if state.upcoming >= 0 and state.peeker != seat:
            hidden.append("upcoming")
        if hidden:
            pool = list(state.deck)
            for name in hidden:
                pool.append(getattr(state, name))
            for name in hidden:
                recall = self.ai_recall[getattr(state, name)]
                like = [c for c in pool if self.ai_recall[c] == recall]
                c = like[int(rng.random() * len(like))]
                pool.remove(c)
                setattr(new, name, c)
            new.deck = tuple(sorted(pool))
        return new

    def apply(self, state: DragonHoardState, action: Action) -> DragonHoardState:
        listed_for, (_, listed_ids) = self._last_listed
        if state is not listed_for or id(action) not in listed_ids:
            # Not one of the very objects legal_actions just listed for this state: check it.
            stage = state.stage
            if stage is _DRAW:
                if not isinstance(action, DrawAI):
                    raise self._illegal(state, action, "an AI card draw is due")
                return self._draw(state, action)
            if stage is _OVER:
                raise self._illegal(state, action, "the game is over")
            if type(action) not in _ACTION_TYPES:
                raise self._illegal(state, action, "not a dragon-hoard action")
            try:
                legal = self._is_legal(state, state.actor, action)
            except TypeError:  # an unhashable field: compare with every legal action instead
                legal = action in self.legal_actions(state)
            if not legal:
                raise self._illegal(state, action, f"not legal for seat {state.actor} now")
        new = _copy(state)
        # A legal action's kind belongs to the stage, so its kind alone picks its effect.
        self._effects[type(action)](new, state.actor, action)
        return new

    def outcome(self, state: DragonHoardState) -> Outcome:
        if state.stage is not _OVER:
            raise ValueError(f"game not over: {self.notation(state)}")
        winner = self.winner(state)
        if winner is None:
            return Outcome(frozenset(), Termination.NOBODY_LEFT)
        why = Termination.DECK_EMPTY if not state.deck else Termination.EVERYONE_OUT
        return Outcome(frozenset({winner}), why)

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
        # Memoised on everything of the seat they depend on (a fresh list each call).
        key = (
            seat,
            state.prep[seat],
            state.bags[seat],
            state.heirlooms[seat],
            state.used[seat],
            state.pawns[seat],
            state.dragon,
        )
        listed = self._prep_cache.get(key)
        if listed is None:
            if len(self._prep_cache) >= _CACHE_LIMIT:
                self._prep_cache.clear()
            actions = tuple(self._list_prep_actions(state, seat))
            listed = self._prep_cache[key] = (actions, frozenset(map(id, actions)))
        # Kept for apply: the action a policy picks from this list is one of these objects.
        self._last_listed = (state, listed)
        return list(listed[0])

    def _list_prep_actions(self, state: DragonHoardState, seat: int) -> list[Action]:
        actions: list[Action] = [_DONE]
        used = state.prep[seat]
        bag = state.bags[seat]
        if not used & PREP_HEIRLOOM:
            # Swap the heirloom: a bag treasure becomes it, the old one goes back in the bag.
            actions.extend(self._heirloom_actions[t] for t in _distinct(bag))
        if not used & PREP_TREASURE:
            owned = sorted({*bag, state.heirlooms[seat]} - {-1})
            holds_heart = self.heart in owned
            for t in owned:
                effect = self.treasure_effect[t]
                if effect is TreasureEffect.TELEPORT and not holds_heart:
                    # 龙之钻: to any A or B gate, unless you hold the Dragon Heart.
                    actions.extend(self._teleports[t])
                elif effect is TreasureEffect.DODGE:
                    actions.append(self._dodge_uses[t])
        if not used & PREP_CARD:
            for c in _distinct(self._hand(state, seat)):
                if not self._preparable[c]:
                    continue
                if self.cards[c].kind is ActionKind.SPRINT:
                    # A sprint's direction is chosen when it is played, and its distance
                    # (at most the card's) when more than one is possible.
                    reaches = self._reaches(state, seat, self.cards[c].steps)
                    for sprints, reach in zip(self._sprints[c], reaches, strict=True):
                        if reach <= 1:
                            actions.append(sprints[0])
                        else:
                            actions.extend(sprints[1 : reach + 1])
                else:
                    actions.append(self._prep_plain[c])
        actions.append(_GIVE_UP)
        return actions

    def _is_legal(self, state: DragonHoardState, seat: int, action: Action) -> bool:
        """Whether ``action in self.legal_actions(state)``, without building that list: the
        same conditions, asked of this one action (the stage is a player's)."""
        kind = type(action)
        stage = state.stage
        if state is self._last_listed[0] and id(action) in self._last_listed[1][1]:
            return True  # one of the very objects legal_actions just listed for this state
        if stage is _PREPARATION:
            if kind is Done or kind is GiveUp:
                return True
            used = state.prep[seat]
            if kind is Heirloom:
                assert isinstance(action, Heirloom)
                t = self._treasure_by_id.get(action.treasure, -1)
                return not used & PREP_HEIRLOOM and t in state.bags[seat]
            if kind is UseTreasure:
                assert isinstance(action, UseTreasure)
                t = self._treasure_by_id.get(action.treasure, -1)
                bag, heirloom = state.bags[seat], state.heirlooms[seat]
                if used & PREP_TREASURE or t < 0 or (t not in bag and t != heirloom):
                    return False
                effect = self.treasure_effect[t]
                if effect is TreasureEffect.TELEPORT:
                    heart = self.heart
                    holds_heart = heart >= 0 and (heart in bag or heart == heirloom)
                    return not holds_heart and action.gate in self._gate_by_id
                return effect is TreasureEffect.DODGE and action.gate is None
            if kind is PrepCard:
                assert isinstance(action, PrepCard)
                c = self._card_by_id.get(action.card, -1)
                if used & PREP_CARD or c < 0 or not self._preparable[c]:
                    return False
                if c not in self._hand(state, seat):
                    return False
                card = self.cards[c]
                if card.kind is not ActionKind.SPRINT:
                    return action.direction is None and action.steps is None
                d = self._direction_index.get(action.direction, -1)  # type: ignore[arg-type]
                if d < 0:
                    return False
                reach = self._reaches(state, seat, card.steps)[d]
                if reach <= 1:
                    return action.steps is None
                return action.steps in range(1, reach + 1)
            return False
        if stage is _PLACEMENT:
            if kind is Stop:
                return True
            if kind is Wait:
                return self._others_placing(state, seat)
            if kind is Reveal:
                return not state.revealed and not any(s == seat for s, _ in state.placed)
            if kind is Place:
                assert isinstance(action, Place)
                c = self._card_by_id.get(action.card, -1)
                return c >= 0 and self._placeable[c] and c in self._hand(state, seat)
            return False
        if stage is _RESOLUTION and kind is Walk:
            assert isinstance(action, Walk)
            return action.steps in range(1, self._walk_reach(state) + 1)
        return False

    def _done(self, new: DragonHoardState, seat: int, action: Done) -> None:
        self._next_preparer(new, seat)

    def _give_up(self, new: DragonHoardState, seat: int, action: GiveUp) -> None:
        # The player gives up: out of the game with 0 points; their bag drops on their cell,
        # the heirloom stays with them (the post: an heirloom never drops and is never lost;
        # decision `giving-up`); the countdown starts this round.
        self._note("rule:give-up")
        self._drop_bag(new, seat)
        new.status = _set(new.status, seat, _QUIT)
        new.pawns = _set(new.pawns, seat, None)
        new.events |= GAVE_UP
        self._next_preparer(new, seat)

    def _swap_heirloom(self, new: DragonHoardState, seat: int, action: Heirloom) -> None:
        t = self._treasure_by_id[action.treasure]
        bag = _remove(new.bags[seat], t)
        old = new.heirlooms[seat]
        if old >= 0:
            bag = _insert(bag, old)
        new.bags = _set(new.bags, seat, bag)
        new.heirlooms = _set(new.heirlooms, seat, t)
        new.prep = _set(new.prep, seat, new.prep[seat] | PREP_HEIRLOOM)
        self._note("rule:heirloom")

    def _use_treasure(self, new: DragonHoardState, seat: int, action: UseTreasure) -> None:
        t = self._treasure_by_id[action.treasure]
        # An active effect used: the token leaves the game.
        if new.heirlooms[seat] == t:
            new.heirlooms = _set(new.heirlooms, seat, -1)
        else:
            new.bags = _set(new.bags, seat, _remove(new.bags[seat], t))
        new.discarded = _insert(new.discarded, t)
        new.prep = _set(new.prep, seat, new.prep[seat] | PREP_TREASURE)
        if self.trace is not None:
            self._note(f"treasure-effect:{self.treasure_effect[t].value}")
        if self.treasure_effect[t] is TreasureEffect.TELEPORT:
            assert action.gate is not None
            cell = self.gate_cells[self._gate_by_id[action.gate]]
            if self.trace is not None:
                self._note(f"terrain:gate:{cell[0]},{cell[1]}")
            new.pawns = _set(new.pawns, seat, cell)
            self._pick_up(new, seat, cell)
            self._after_move(new, seat)
        else:
            new.sideways = _set(new.sideways, seat, True)

    def _play_prep_card(self, new: DragonHoardState, seat: int, action: PrepCard) -> None:
        c = self._card_by_id[action.card]
        new.used = _set(new.used, seat, _insert(new.used[seat], c))
        new.prep = _set(new.prep, seat, new.prep[seat] | PREP_CARD)
        # A preparation-phase card resolves at once.
        self._resolve_card(new, seat, c, action.direction, action.steps)
        if new.status[seat] is not _IN:
            self._next_preparer(new, seat)  # it walked out of the lair: nothing more to do

    def _next_preparer(self, new: DragonHoardState, seat: int) -> None:
        nxt = self._next_with_status(new.status, seat, new.holder)
        if nxt is not None:
            new.actor = nxt
        elif not self._anyone_in_game(new):
            # Decision `everyone-out`: the last players gave up; nothing is left to play.
            new.countdown = new.countdown or bool(new.events)
            new.actor = -1
            new.turn += 1
            new.stage = _OVER
        else:
            self._start_draw(new)

    # -- scoring --------------------------------------------------------------------------

    def scores(self, state: DragonHoardState) -> tuple[int, ...]:
        """Only players who left the lair score: the value of everything they carry."""
        return tuple(
            sum(self.value[t] for t in (*state.bags[s], state.heirlooms[s]) if t >= 0)
            if state.status[s] is _LEFT
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
            if (status is _IN) != (pos is not None):
                problems.append(f"seat {seat} is {status.value} with pawn {pos}")
            if pos is not None and (pos in body or not self.lair.contains(pos)):
                problems.append(f"seat {seat}'s pawn on {pos} is under the dragon or off the map")
        if not self.lair.in_domain(state.dragon) or not all(self.lair.in_domain(c) for c in body):
            problems.append(f"the dragon on {state.dragon} left its domain")
        in_game = any(self._in_game(state, s) for s in range(self.players))
        if state.stage is _OVER and state.deck and in_game:
            problems.append("the game ended with AI cards in the deck")
        if state.stage is not _OVER and not in_game:
            # Decision `everyone-out`: no round is played with nobody in the lair.
            problems.append("the game goes on with nobody in the lair")
        return problems

    def check_invariants(self, state: DragonHoardState) -> None:
        problems = self.invariant_problems(state)
        if problems:
            raise InvariantViolation(f"{'; '.join(problems)} in {self.notation(state)}")

    # -- notation -------------------------------------------------------------------------

    def notation(self, state: DragonHoardState) -> str:
        """The whole position as one line of text (see :mod:`pnp.games.dragon_hoard.notation`)."""
        return format_position(self, state)

    def from_notation(self, text: str) -> DragonHoardState:
        return parse_position(self, text)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def _illegal(self, state: DragonHoardState, action: object, why: str) -> IllegalActionError:
        return IllegalActionError(f"illegal action {action!r} in {self.notation(state)}: {why}")
