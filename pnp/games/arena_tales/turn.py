"""A turn of Arena Tales as a queue of tasks: how a player's action and a chance outcome
resolve, the tasks in between resolved at once until a decision or a draw is due (``_settle``),
the steps of a turn (start, the timing steps [1]-[7] of a card, the end) and victory.

A mixin of :class:`~pnp.games.arena_tales.rules.ArenaTalesRules` (over :class:`Movement`, the
arena's hexes), which sets the tables declared below in its ``__init__``, checks an action
before these steps run, and finds the task handlers (every ``_task_`` method) by name. The two
tasks that hand the rules object to ``combat`` and ``effects`` (``_task_combat``,
``_task_effect``) are methods of ``ArenaTalesRules`` itself: those modules' functions take an
``ArenaTalesRules``, which a mixin is not to the type checker, and a ``cast`` would be a call
on the hot path.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable

from pnp.engines import hexgrid
from pnp.engines.piles import without
from pnp.games.arena_tales.model import Card, CardType, EffectKind, Timing
from pnp.games.arena_tales.movement import Movement
from pnp.games.arena_tales.state import (
    CHANCE_TASKS,
    DECISION_TASKS,
    DOWN,
    KEPT,
    PLAY_CARD,
    PLAY_COST,
    PLAY_DAMAGE,
    TO_DISPLAY,
    TO_HAND,
    TO_LIFE,
    UP,
    Absorb,
    Action,
    ArenaState,
    Dash,
    Discard,
    Maintain,
    Play,
    Reveal,
    Talent,
    Task,
    Termination,
    arg,
    bump,
    refill_deck,
    task_seat,
    writable,
)

ChanceTask = tuple[str, int, int, int]
"""``("draw", seat, count, TO_HAND/TO_DISPLAY/TO_LIFE)`` or
``("lose", seat, face up, face down)``."""
END: Task = ("end",)
END_TURN: Task = ("endturn",)


class TurnFlow(Movement):
    """The task queue of a turn and what resolves it; the rules set the tables below."""

    players: int
    life: int
    """``settings.life``: the life dealt to a player who plays without a talent."""
    refill: int
    """``settings.hand_refill``."""
    forced_end: int
    hand_limit: int
    teams: tuple[int, ...]
    cards: tuple[Card, ...]
    tokens: list[str]
    _by_token: dict[str, int]
    _colour: list[str]
    _stays: list[bool]
    _responds: list[bool]
    _asks_maintain: list[bool]
    _maintain_need: list[int]
    _timed: dict[Timing, list[tuple[int, ...]]]
    _plans: list[list[tuple[Task, ...] | None]]
    _mates: tuple[tuple[int, ...], ...]
    _members: tuple[tuple[int, tuple[int, ...]], ...]
    _handlers: dict[str, Callable[[ArenaState, Task], None]]

    # A method rather than a declared ``Callable`` attribute: in a class mypyc compiles, a
    # declared attribute is a slot of its own, which the rules' method would not fill.
    def _amount(self, code: int, kind: EffectKind) -> int:
        """The amount of a card's effect of that kind (the rules' own)."""
        raise NotImplementedError

    # -- resolving player actions -------------------------------------------------------

    def _play(self, s: ArenaState, action: Play, code: int) -> None:
        seat_index = s.active
        seat = s.seats[seat_index]  # apply forked ``s`` with this seat copied
        seat.hand = without(seat.hand, code)
        colour = self._colour[code]
        # 连击: a card was played before this turn and the last one played has this colour.
        combo = int(s.played > 0 and colour != "none" and s.last_colour == colour)
        s.play = (code, -1 if action.target is None else action.target, 0, 0, 0, combo)
        s.hits = ()
        plans = self._plans[seat_index]
        plan = plans[code]
        if plan is None:
            plan = plans[code] = self._plan(seat_index, code)
        if plan[0] == ("cost",):
            # No before-play effect: [2] and [3] at once, as the queue would resolve them.
            self._task_cost(s, plan[0])
            self._task_place(s, plan[1])
            plan = plan[2:]
        s.queue = plan + s.queue

    def _plan(self, seat_index: int, code: int) -> tuple[Task, ...]:
        """The tasks of playing ``code``: [1] lock and before-play; [2] cost; [3] place and
        on-play; [4] combat; [5] after-play; [6] recorded responses; [7] the end check."""
        tasks: list[Task] = []
        tasks += self._effect_tasks(seat_index, code, Timing.BEFORE_PLAY)
        tasks += [("cost",), ("place",)]
        tasks += self._effect_tasks(seat_index, code, Timing.ON_PLAY)
        if self.cards[code].type is CardType.DAMAGE:
            tasks.append(("combat",))
        tasks += self._effect_tasks(seat_index, code, Timing.AFTER_PLAY)
        tasks += [("responses",), ("finish",)]
        return tuple(tasks)

    def _effect_tasks(self, seat: int, code: int, timing: Timing) -> list[Task]:
        return [("effect", seat, code, i) for i in self._timed[timing][code]]

    def _decide(self, s: ArenaState, action: Action) -> None:
        task, rest = s.queue[0], s.queue[1:]
        seat = writable(s, task_seat(task))
        if type(action) is Discard:
            code = self._by_token[action.card]
            seat.hand = without(seat.hand, code)
            seat.display = (*seat.display, (code, DOWN))
            s.queue = (
                rest
                if arg(task, 2) <= 1
                else (("discard", task_seat(task), arg(task, 2) - 1), *rest)
            )
        elif type(action) is Absorb:
            up = min(action.face_up, len(seat.life))
            down = min(arg(task, 2) - 2 * action.face_up, len(seat.life) - up)
            s.queue = (("lose", task_seat(task), up, down), *rest)
        elif type(action) is Dash:
            # A card's "move at most X straight ahead": the player chose how far.
            s.queue = rest
            for _ in range(action.steps):
                seat.pos = hexgrid.neighbour(seat.pos, seat.facing)
        elif type(action) is Reveal:
            target, left = arg(task, 2), arg(task, 3)
            self._reveal(s, target, action.index)
            s.queue = (("reveal", task_seat(task), target, left - 1), *rest) if left > 1 else rest
        elif type(action) is Talent:
            s.queue = rest
            if not action.use:
                # Played without the talent: it and the life dealt with it go back into the
                # deck, and life is dealt again, settings.life cards (chance, from the deck).
                talent = next(c for c, _ in seat.display if self.cards[c].type is CardType.TALENT)
                seat.display = tuple(e for e in seat.display if e[0] != talent)
                seat.deck = tuple(sorted((*seat.deck, *seat.life, talent)))
                seat.life = ()
                count = min(self.life, len(seat.deck))
                if count > 0:
                    s.queue = (("draw", task_seat(task), count, TO_LIFE), *rest)
        elif type(action) is Maintain:
            s.queue = rest
            if action.keep:
                display = list(seat.display)
                display[arg(task, 2)] = (display[arg(task, 2)][0], KEPT)
                seat.display = tuple(display)
                need = self._amount(display[arg(task, 2)][0], EffectKind.MAINTAIN)
                if need:
                    s.queue = (("discard", task_seat(task), need), *rest)

    def _take(self, s: ArenaState, code: int) -> bool:
        """A chance outcome: the head task takes ``code`` from its pile. True when the task
        goes on taking from a pile that is not empty (``_settle`` would stop there at once)."""
        task, rest = s.queue[0], s.queue[1:]
        assert len(task) == 4  # a ChanceTask (this narrows the type, where cast() is a call)
        name, index, count, where = task
        seat = s.seats[index]  # apply forked ``s`` with this seat copied
        if name == "lose":
            up, down = count, where
            seat.life = without(seat.life, code)
            face = UP if up else DOWN
            seat.display = (*seat.display, (code, face))
            if face == UP and self._responds[code]:
                # 响应: a card turned face up into the display by damage triggers.
                s.responses = (*s.responses, (index, code))
            up, down = (up - 1, down) if up else (up, down - 1)
            self._note_life(s, index)
            if up + down == 0:
                s.queue = rest
                return False
            s.queue = (("lose", index, up, down), *rest)
            return bool(seat.life)
        # "draw": from the deck, or (deck and recycle empty) from life.
        if seat.deck:
            deck = list(seat.deck)
            deck.remove(code)  # piles.without, a little faster on a pile this long
            seat.deck = tuple(deck)
            if not deck:
                refill_deck(seat)
        else:
            seat.life = without(seat.life, code)
            self._note_life(s, index)
        if where == TO_LIFE:
            life = list(seat.life)
            life.insert(bisect_right(life, code), code)
            seat.life = tuple(life)
        elif where == TO_DISPLAY:
            # 展示: face up into the display; a damage card adds 1 to the card in play.
            seat.display = (*seat.display, (code, UP))
            if s.play and self.cards[code].type is CardType.DAMAGE:
                s.play = bump(s.play, PLAY_DAMAGE, 1)
        else:
            hand = list(seat.hand)
            hand.insert(bisect_right(hand, code), code)  # piles.with_card
            seat.hand = tuple(hand)
        if count <= 1:
            s.queue = rest
            return False
        s.queue = ((name, index, count - 1, where), *rest)
        return bool(seat.deck or seat.life)

    def _note_life(self, s: ArenaState, seat_index: int) -> None:
        seat = writable(s, seat_index)
        if not seat.life and seat.zero_turn < 0:
            seat.zero_turn = s.turn
        elif seat.life:
            seat.zero_turn = -1

    # -- the task queue -----------------------------------------------------------------

    def _settle(self, s: ArenaState) -> None:
        """Resolve automatic tasks until a decision or a chance step is due, or the game ends."""
        handlers = self._handlers
        while s.ended is None:
            queue = s.queue
            if not queue:
                for seat in s.seats:
                    if not seat.life:  # otherwise no one is down or out of cards
                        # The answer, not a second read of s.ended: inside this loop mypy
                        # holds s.ended to None, and mypyc would check the read against that.
                        if self._check_victory(s):
                            return
                        break
                if not s.seats[s.active].hand:
                    self._task_end(s, END)  # an empty hand ends the turn
                    continue
                return
            task = queue[0]
            name = task[0]
            handler = handlers.get(name)
            if handler is not None:
                s.queue = queue[1:]
                handler(s, task)
            elif name in CHANCE_TASKS:
                assert len(task) == 4  # a ChanceTask
                _, index, count, where = task
                seat = s.seats[index]
                if name == "lose":
                    empty = count + where <= 0 or not seat.life  # face up + face down
                else:
                    empty = count <= 0 or not (seat.deck or seat.life)
                if empty:
                    s.queue = queue[1:]
                    continue
                return
            elif name in DECISION_TASKS:
                if not self._automatic(s, task):
                    return
            else:  # pragma: no cover - every task name has a handler or is chance or a decision
                raise AssertionError(f"unknown task {task!r}")

    def _automatic(self, s: ArenaState, task: Task) -> bool:
        """Resolve a decision task that has one choice or none; True if it was resolved."""
        seat = s.seats[task_seat(task)]
        name = task[0]
        if name == "discard":
            if arg(task, 2) <= 0 or not seat.hand:
                s.queue = s.queue[1:]
                return True
            if len(seat.hand) <= arg(task, 2):
                own = writable(s, task_seat(task))
                own.display = (*own.display, *((c, DOWN) for c in own.hand))
                own.hand = ()
                s.queue = s.queue[1:]
                return True
            return len(set(seat.hand)) == 1 and self._decide_first(s)
        if name == "absorb":
            amount = arg(task, 2)
            if not seat.life or amount <= 0:
                s.queue = s.queue[1:]
                return True
            if min(amount // 2, len(seat.life)) == 0:  # one option: all face down
                self._decide(s, Absorb(0))
                return True
            return False
        if name == "dash":
            if self._dash_reach(s, task_seat(task), arg(task, 2)) == 0:
                s.queue = s.queue[1:]  # blocked straight ahead: nothing to choose
                return True
            return False
        if name == "reveal":
            # Nothing to choose when the user turns up every face-down card (识破 with no
            # number, or no more of them than it turns): all of them, oldest first.
            target, left = arg(task, 2), arg(task, 3)
            downs = [i for i, (_, face) in enumerate(s.seats[target].display) if face == DOWN]
            if left > 0 and len(downs) > left:
                return False
            for index in downs:
                self._reveal(s, target, index)
            s.queue = s.queue[1:]
            return True
        if name == "maintain":
            need = self._maintain_need[seat.display[arg(task, 2)][0]]
            if len(seat.hand) < need:
                s.queue = s.queue[1:]  # cannot pay: the card is exhausted at clean-up
                return True
            return False
        return False  # the talent: always the player's choice

    def _reveal(self, s: ArenaState, target: int, index: int) -> None:
        """识破 turns up the face-down card at ``index`` of the target's display; a card with
        a 响应 is recorded, to resolve at step [6]."""
        own = writable(s, target)
        card = own.display[index][0]
        own.display = (*own.display[:index], (card, UP), *own.display[index + 1 :])
        if self._responds[card]:
            s.responses = (*s.responses, (target, card))

    def _decide_first(self, s: ArenaState) -> bool:
        seat = s.seats[task_seat(s.queue[0])]
        self._decide(s, Discard(self.tokens[seat.hand[0]]))
        return True

    def _task_start(self, s: ArenaState, task: Task) -> None:
        seat_index = task_seat(task)
        seat = writable(s, seat_index)
        seat.dead_start = not seat.life
        tasks: list[Task] = []
        for index, (code, face) in enumerate(seat.display):
            # 维持: a face-up card that would leave asks its owner to pay or let it go.
            if face != DOWN and self._asks_maintain[code]:
                tasks.append(("maintain", seat_index, index))
        if tasks:
            tasks += [("clean", seat_index), ("pending", seat_index), ("refill", seat_index)]
            s.queue = (*tasks, *s.queue)
            return
        # Nothing to decide first: clean up, then the pending draw, then the refill, at once
        # (the queue ends up as the tasks one by one would leave it).
        self._task_clean(s, ("clean", seat_index))
        count, seat.pending = seat.pending, 0
        if count:
            s.queue = (("draw", seat_index, count, TO_HAND), ("refill", seat_index), *s.queue)
        else:
            self._task_refill(s, ("refill", seat_index))

    def _task_clean(self, s: ArenaState, task: Task) -> None:
        # Start: face-down cards to the recycle pile, face-up ones to the exhausted pile, except
        # the talent, 永久展示中, 元素结晶 and maintained cards.
        seat = writable(s, task_seat(task))
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
        refill_deck(seat)
        seat.exhausted = tuple(exhausted)

    def _task_pending(self, s: ArenaState, task: Task) -> None:
        # Decided: first the pending draw from the previous player's costs, all of it...
        seat = writable(s, task_seat(task))
        count, seat.pending = seat.pending, 0
        if count:
            s.queue = (("draw", task_seat(task), count, TO_HAND), *s.queue)

    def _task_refill(self, s: ArenaState, task: Task) -> None:
        # ...then refill the hand to settings.hand_refill (no draw at or above it).
        missing = self.refill - len(s.seats[task_seat(task)].hand)
        if missing > 0:
            s.queue = (("draw", task_seat(task), missing, TO_HAND), *s.queue)

    def _task_cost(self, s: ArenaState, task: Task) -> None:
        # [2] The next player will draw the cost; at settings.forced_end the turn will end
        # (decided, forced-end-count: the pending draw counts, not the cards in their hand).
        code = s.play[PLAY_CARD]
        cost = max(0, self.cards[code].cost + s.play[PLAY_COST])
        index = (s.active + 1) % self.players
        if cost:
            following = writable(s, index)
            following.pending += cost
        else:
            following = s.seats[index]  # nothing to write: no copy
        if following.pending >= self.forced_end:
            s.forced = True

    def _task_place(self, s: ArenaState, task: Task) -> None:
        # [3] The card goes face up into the display; it counts as played for 连击.
        seat = writable(s, s.active)
        code = s.play[PLAY_CARD]
        seat.display = (*seat.display, (code, UP))
        s.played += 1
        s.last_colour = self._colour[code]

    def _task_push(self, s: ArenaState, task: Task) -> None:
        # 击退 X: back along the attack direction; stop at an obstacle, a character, the edge.
        target, direction, steps = task_seat(task), arg(task, 2), arg(task, 3)
        seat = writable(s, target)
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
        # [7] The end check: forced end at settings.forced_end, or an empty hand (decided,
        # empty-hand-end: checked once the card and its responses have resolved).
        s.play = ()
        s.hits = ()
        if s.forced or not s.seats[s.active].hand:
            self._task_end(s, END)

    def _task_end(self, s: ArenaState, task: Task) -> None:
        # End step: drop until-end-of-turn effects (none outlive the card here), discard down
        # to settings.hand_limit, then the sanity flip.
        over = len(s.seats[s.active].hand) - self.hand_limit
        if over > 0:
            s.queue = (("discard", s.active, over), ("endturn",), *s.queue)
        else:
            self._task_endturn(s, END_TURN)

    def _task_endturn(self, s: ArenaState, task: Task) -> None:
        seat = writable(s, s.active)
        if not s.dealt and seat.sane:
            # 理智 -> 失控 when the turn dealt no damage to anyone.
            seat.sane = False
        s.dealt = s.forced = False
        s.played = 0
        s.last_colour = ""
        s.active = (s.active + 1) % self.players
        s.turn += 1
        self._task_start(s, ("start", s.active))

    # -- victory --------------------------------------------------------------------------

    def _check_victory(self, s: ArenaState) -> bool:
        """End the game if a team is all down or out of cards; whether it ended."""
        seats = s.seats
        for index, seat in enumerate(seats):
            if seat.life:
                continue
            if not (seat.deck or seat.recycle):
                break  # out of cards: the team may have lost
            for mate in self._mates[index]:
                if seats[mate].life:
                    break
            else:
                break  # the whole team is down
        else:
            return False  # no team is all down, no one is out of cards
        lost: dict[int, Termination] = {}
        for team, members in self._members:
            if all(not seats[m].life for m in members):
                lost[team] = Termination.ALL_DOWN
            elif any(not (seats[m].deck or seats[m].recycle or seats[m].life) for m in members):
                lost[team] = Termination.EXHAUSTED
        if not lost:
            return False
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
        return True
