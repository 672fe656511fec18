"""A round of Dragon Hoard after preparation: the AI draw, the placement race, resolution and
cleanup, and the start of the next round; and whose turn it is. A mixin of
:class:`~pnp.games.dragon_hoard.rules.DragonHoardRules` (over :class:`BoardEffects`, what
the cards and the dragon do on the map), which sets the tables and memos declared below in
its ``__init__`` and checks an action's legality before these steps run.
"""

from __future__ import annotations

from collections.abc import Callable

from pnp.engines.piles import distinct as _distinct
from pnp.engines.piles import with_card as _insert
from pnp.engines.piles import without as _remove
from pnp.errors import IllegalActionError
from pnp.games.dragon_hoard.actions import (
    _REVEAL,
    _STOP,
    _WAIT,
    Action,
    DrawAI,
    Listed,
    Place,
    Reveal,
    Stop,
    Wait,
    Walk,
)
from pnp.games.dragon_hoard.board import BoardEffects
from pnp.games.dragon_hoard.model import Cell, Rounding, SpeedMarker, resolution_order
from pnp.games.dragon_hoard.state import (
    _DEAD,
    _DRAW,
    _IN,
    _OVER,
    _PLACEMENT,
    _PREPARATION,
    _RESOLUTION,
    AI_ITEM,
    DragonHoardState,
    Status,
    _copy,
    _set,
)


class RoundFlow(BoardEffects):
    """The stages of a round after preparation; the rules set the tables below."""

    limit: int
    """Action cards a seat may place in a round (``settings.cards_per_round``)."""
    first_draws: int
    recall_limit: int
    rounding: Rounding
    entries: tuple[Cell, ...]
    ai_markers: list[SpeedMarker]
    ai_recall: list[bool]
    _ai_by_id: dict[str, int]
    _ai_wanted: list[int | None]
    _card_by_id: dict[str, int]
    _placeable: list[bool]
    _place_actions_of: list[Place]
    _move_direction: list[int]
    _walks_listed: list[Listed]
    _places_cache: dict[tuple[int, tuple[int, ...], bool, bool], Listed]
    _last_listed: tuple[DragonHoardState | None, Listed]
    _no_prep: tuple[int, ...]
    _none_stopped: tuple[bool, ...]
    _none_sideways: tuple[bool, ...]
    _nothing_used: tuple[tuple[int, ...], ...]

    # A method rather than a declared ``Callable`` attribute: in a class mypyc compiles, a
    # declared attribute is a slot of its own, which the rules' method would not fill.
    def _illegal(self, state: DragonHoardState, action: object, why: str) -> IllegalActionError:
        """The error for an illegal action (the rules' own)."""
        raise NotImplementedError

    # -- whose turn -----------------------------------------------------------------------

    def _next_with_status(
        self, status: tuple[Status, ...], after: int, start: int, wanted: Status = _IN
    ) -> int | None:
        """The next seat clockwise after `after` whose status is `wanted`, not wrapping past
        `start` (:meth:`_next_seat` for that test, without a call per seat)."""
        n = self.players
        seat = (after + 1) % n
        while seat != start:
            if status[seat] is wanted:
                return seat
            seat = (seat + 1) % n
        return None

    def _next_in_game(self, status: tuple[Status, ...], after: int) -> int | None:
        """The next seat clockwise after `after` still in the game (on the map or dead), not
        wrapping past `after` (:meth:`_next_seat` for :meth:`_in_game`)."""
        n = self.players
        seat = (after + 1) % n
        while seat != after:
            if status[seat] is _IN or status[seat] is _DEAD:
                return seat
            seat = (seat + 1) % n
        return None

    def _next_seat(
        self, state: DragonHoardState, after: int, eligible: Callable[[int], bool], start: int
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
        new.stage = _DRAW
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
        placed = state.placed
        return (
            state.status[seat] is _IN
            and not state.stopped[seat]
            and (len(placed) < self.limit or sum(1 for s, _ in placed if s == seat) < self.limit)
        )

    def _placers(self, state: DragonHoardState) -> list[bool]:
        """:meth:`_placing` of every seat, the mat counted once (once someone may be at the
        limit)."""
        stopped = state.stopped
        placers = [status is _IN and not stopped[s] for s, status in enumerate(state.status)]
        limit = self.limit
        if len(state.placed) >= limit:
            counts = [0] * self.players
            for s, _ in state.placed:
                counts[s] += 1
            for s, count in enumerate(counts):
                if count >= limit:
                    placers[s] = False
        return placers

    def _others_placing(self, state: DragonHoardState, seat: int) -> bool:
        """Whether a seat other than `seat` may still place (:meth:`_placing`)."""
        placers = self._placers(state)
        return sum(placers) > placers[seat]

    def _start_placement(self, new: DragonHoardState) -> None:
        new.stage = _PLACEMENT
        new.waited = 0
        placers, holder = self._placers(new), new.holder
        first = holder if placers[holder] else None
        if first is None:
            first = self._next_seat(new, holder, placers.__getitem__, holder)
        if first is None:
            self._resolve(new)
        else:
            new.actor = first

    def _place_actions(self, state: DragonHoardState, seat: int) -> list[Action]:
        # Decision `placement-order`: the race is played as decisions; waiting hands the
        # initiative on, so any order of the mat can happen.
        wait = self._others_placing(state, seat)
        # Reveal-and-peek: only a player who has placed nothing may reveal.
        placed = state.placed
        reveal = not state.revealed and (not placed or not any(s == seat for s, _ in placed))
        # Memoised on those and the seat's hand (a fresh list each call).
        key = (seat, state.used[seat], wait, reveal)
        listed = self._places_cache.get(key)
        if listed is None:
            actions: list[Action] = [_STOP]
            if wait:
                actions.append(_WAIT)
            if reveal:
                actions.append(_REVEAL)
            hand = _distinct(self._hand(state, seat))
            actions.extend(self._place_actions_of[c] for c in hand if self._placeable[c])
            listed = (tuple(actions), frozenset(map(id, actions)))
            self._places_cache[key] = listed
        self._last_listed = (state, listed)  # for apply (see _prep_actions)
        return list(listed[0])

    # Placement is a real-time race (decision `placement-order`): the seat to act places (and
    # keeps the initiative: it may place again at once), reveals, waits (the next seat that may
    # still place decides) or stops. When every seat that may still place has waited in a row,
    # the hourglass has run out.

    def _reveal(self, new: DragonHoardState, seat: int, action: Reveal) -> None:
        self._note("rule:reveal")
        new.revealed = True
        new.peeker = seat
        new.waited = 0  # the same seat acts again: it may now place

    def _wait(self, new: DragonHoardState, seat: int, action: Wait) -> None:
        new.waited += 1
        if new.waited >= sum(self._placers(new)):
            self._resolve(new)
        else:
            self._pass_initiative(new, seat)

    def _stop(self, new: DragonHoardState, seat: int, action: Stop) -> None:
        new.stopped = _set(new.stopped, seat, True)
        self._pass_initiative(new, seat)

    def _place_card(self, new: DragonHoardState, seat: int, action: Place) -> None:
        c = self._card_by_id[action.card]
        # At most `cards_per_round` cards per player: legal_actions offers no more.
        new.placed = (*new.placed, (seat, c))
        new.used = _set(new.used, seat, _insert(new.used[seat], c))
        new.waited = 0
        if not self._placing(new, seat):
            self._pass_initiative(new, seat)

    def _pass_initiative(self, new: DragonHoardState, seat: int) -> None:
        """The next seat clockwise that may still place acts (`seat` again if it is the only
        one); when nobody may, the round resolves."""
        placers = self._placers(new)
        nxt = self._next_seat(new, seat, placers.__getitem__, seat)
        if nxt is None and placers[seat]:
            nxt = seat
        if nxt is None:
            self._resolve(new)
        else:
            new.actor = nxt

    # -- resolution and cleanup -----------------------------------------------------------

    def counted(self, state: DragonHoardState) -> tuple[tuple[int, int], ...]:
        """The mat without the cards over each seat's limit: the post removes those (the later
        placed) before any effect, so they neither resolve nor count (decision `excess-cards`)."""
        seen = [0] * self.players
        kept = []
        for seat, c in state.placed:
            seen[seat] += 1
            if seen[seat] <= self.limit:
                kept.append((seat, c))
        return tuple(kept)

    def resolution(self, state: DragonHoardState) -> list[tuple[int, int] | str]:
        """This round's resolution order: the counted (seat, card) pairs with `AI` where the AI
        card falls (see :func:`pnp.games.dragon_hoard.model.resolution_order`)."""
        marker = self.ai_markers[state.current]
        return resolution_order(marker, self.counted(state), self.players, self.rounding)

    def _resolve(self, new: DragonHoardState) -> None:
        new.actor = -1
        new.waited = 0
        new.queue = self._resolution_queue(new)
        self._run_queue(new)

    def _resolution_queue(self, state: DragonHoardState) -> tuple[tuple[int, int], ...]:
        """:meth:`resolution` as the queue holds it, the AI card's slot worked out once."""
        # Resolution: the stack turned over, first placed first; the AI card at its speed.
        # ☆ counts the players at the start of the game (self.players), whoever has left.
        counted = state.placed if len(state.placed) <= self.limit else self.counted(state)
        wanted = self._ai_wanted[state.current]
        at = len(counted) if wanted is None else min(wanted, len(counted))
        return (*counted[:at], (AI_ITEM, state.current), *counted[at:])

    def _run_queue(self, new: DragonHoardState) -> None:
        """Resolve the queue in order until a move card's owner has a distance to choose."""
        while new.queue:
            seat, c = new.queue[0]
            if seat == AI_ITEM:
                new.queue = new.queue[1:]
                self._run_ai(new, c)
                new.executed = (*new.executed, c)
                new.current = -1
                continue
            # A dead or departed player's card is cancelled (it still counted above).
            if new.status[seat] is _IN:
                d = self._move_direction[c]
                if d >= 0:
                    reach = self._reaches(new, seat, self.cards[c].steps)[d]
                    if reach > 1:
                        # Decision `move-distance`: "at most N", the owner chooses now.
                        new.stage = _RESOLUTION
                        new.actor = seat
                        return
                new.queue = new.queue[1:]
                self._resolve_card(new, seat, c, None)
            else:
                new.queue = new.queue[1:]
        new.actor = -1
        self._cleanup(new)

    def _walk_actions(self, state: DragonHoardState) -> list[Action]:
        listed = self._walks_listed[self._walk_reach(state)]
        self._last_listed = (state, listed)  # for apply (see _prep_actions)
        return list(listed[0])

    def _walk_reach(self, state: DragonHoardState) -> int:
        """How far the move card being resolved may go (decision `move-distance`)."""
        seat, c = state.queue[0]
        d = self._move_direction[c]
        assert d >= 0
        return self._reaches(state, seat, self.cards[c].steps)[d]

    def _walk(self, new: DragonHoardState, seat: int, action: Walk) -> None:
        steps = action.steps
        _, c = new.queue[0]
        new.queue = new.queue[1:]
        card = self.cards[c]
        direction = card.direction
        assert direction is not None
        if self.trace is not None:
            self._note(f"action-card:{card.id}")
            self._note(f"action-kind:{card.kind.value}")
        if steps < card.steps:
            self._note("rule:short-move")
        self._move(new, seat, direction, steps)
        self._run_queue(new)

    def _cleanup(self, new: DragonHoardState) -> None:
        # Cleanup, in order: player cards, AI cards (neither has cleanup effects in this
        # edition), then terrain: pawns on traps of the active colour (the colour of the top
        # executed AI card) die, clockwise from the holder.
        if new.executed:
            self._spring_traps(new, self.ai_colour[new.executed[-1]])
        # Countdown, once in never out: a player left, a player gave up, the recall limit was
        # reached (Ice-Fire Dragon: the third recall card), the Heart left the domain.
        if not new.countdown and (new.events or new.recalls >= self.recall_limit):
            self._note("rule:countdown")
            new.countdown = True
        # A recall card drawn this round: every AI card not removed for good (deck and executed
        # pile; next round's card stays aside) becomes a new deck; in the countdown the recall
        # cards of that reshuffle are removed for good.
        if new.recall_round:
            self._note("rule:recall-reshuffle")
            pool = [*new.deck, *new.executed]
            if new.countdown:
                gone = [c for c in pool if self.ai_recall[c]]
                pool = [c for c in pool if not self.ai_recall[c]]
                new.removed = tuple(sorted((*new.removed, *gone)))
            new.deck = tuple(sorted(pool))
            new.executed = ()
        # Temporarily removed action cards come back; character cards are straightened.
        new.used = self._nothing_used
        new.sideways = self._none_sideways
        new.turn += 1
        new.queue = ()
        # The game ends when the AI deck is empty at the end of a round, or (decision
        # `everyone-out`) when every player has left the lair or given up.
        if not new.deck or not self._anyone_in_game(new):
            new.stage = _OVER
            new.actor = -1
            return
        self._next_round(new)

    def _next_round(self, new: DragonHoardState) -> None:
        n = self.players
        new.round += 1
        # Preparation: the hourglass passes clockwise (to a player still in the game).
        holder = self._next_in_game(new.status, new.holder)
        new.holder = holder if holder is not None else (new.holder + 1) % n
        # The dead respawn on their own entry teleporter.
        if _DEAD in new.status:
            for seat in range(n):
                if new.status[seat] is _DEAD:
                    if self.trace is not None:
                        self._note(f"terrain:entry:{seat}")
                    new.status = _set(new.status, seat, _IN)
                    new.pawns = _set(new.pawns, seat, self.entries[seat])
        new.prep = self._no_prep
        new.placed = ()
        new.stopped = self._none_stopped
        new.revealed = False
        new.peeker = -1
        new.events = 0
        new.recall_round = False
        new.stage = _PREPARATION
        first = new.holder if new.status[new.holder] is _IN else None
        if first is None:
            first = self._next_with_status(new.status, new.holder, new.holder)
        if first is None:
            self._start_draw(new)
        else:
            new.actor = first
