"""What each seat sees of a Deadline 99 table, drawn with the kit's own faces.

A seat sees its own hand face up, every other hand as card backs with a count, the draw pile
as a back with its count, the card last played on the discards, and the running count as a
marker on the kit's count tracker. Camp mode: the kings' identity cards lie face up (they
reveal), every other identity is a back except the seat's own. A card drawn or stolen shows
in the log only to the players who saw it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pnp.engines.view import (
    Board,
    Card,
    Counters,
    FaceRef,
    Move,
    Piece,
    Row,
    Scene,
    SeatInfo,
    player_name,
    product_of,
)
from pnp.games.deadline_99.model import EffectKind, Role
from pnp.games.deadline_99.rules import Action, Deadline99Rules, Deadline99State, Draw, Play, Steal


class Deadline99View:
    """The views of one Deadline 99 table."""

    def __init__(self, rules: Deadline99Rules) -> None:
        self.rules = rules
        model = rules.model
        cards = product_of(model, "playing_cards")
        variants = product_of(model, "variant_cards")
        self.identities = product_of(model, "identity_cards")
        self.tracker = FaceRef(product_of(model, "trackers"), model.trackers[0].id)
        playing = model.playing_cards
        # The engine numbers its tokens rank by rank, suit by suit, as the kit prints them;
        # the Angel and Death cards follow under their own ids.
        self.face: dict[str, FaceRef] = {}
        self.name: dict[str, str] = {}
        for code, token in enumerate(rules.tokens):
            if code < len(playing):
                self.face[token] = FaceRef(cards, playing[code].id)
                self.name[token] = playing[code].name
            else:
                self.face[token] = FaceRef(variants, token)
                self.name[token] = next(v.name for v in model.variant_cards if v.id == token)
        self.back = FaceRef(cards, playing[0].id, "back")
        self.identity_back = FaceRef(self.identities, model.camp_mode.identities[0].id, "back")

    # -- the scene -------------------------------------------------------------------------

    def scene(self, state: Deadline99State, seat: int | None, played: Sequence[Any] = ()) -> Scene:
        rules = self.rules
        areas: list[Any] = []
        for other in range(rules.players):
            if other != seat:
                areas.append(self._hand(state, other, open_=seat is None))
        last = next((a for a in reversed(played) if isinstance(a, Play)), None)
        top = (
            Card(self.face[last.card], self.name[last.card], count=len(state.discard), marked=True)
            if last is not None and state.discard
            else Card(label="no discards yet")
        )
        direction = "clockwise (+1)" if state.direction > 0 else "counter-clockwise (−1)"
        areas.append(
            Row(
                "Draw pile and discards",
                (Card(self.back, "draw pile", count=len(state.draw_pile)), top),
            )
        )
        areas.append(
            Board(
                f"Count {state.count} (cap {rules.cap})",
                self.tracker,
                pieces=(Piece(0, 0, 0.05, "#c0262d", str(state.count), anchor=str(state.count)),),
                size="medium",
            )
        )
        values = [("count", str(state.count)), ("direction", direction), ("turn", str(state.turn))]
        if state.forced is not None:
            values.append(("next, named by an A", player_name(state.forced)))
        areas.append(Counters("Play", tuple(values)))
        if seat is not None:
            areas.append(self._hand(state, seat, open_=True, own=True))
        return Scene(
            status=self._status(state),
            seats=tuple(self._seat_info(state, s, seat) for s in range(rules.players)),
            areas=tuple(areas),
            focus=seat,
        )

    def _hand(self, state: Deadline99State, seat: int, *, open_: bool, own: bool = False) -> Row:
        hand = state.hands[seat]
        cards: list[Card] = []
        identity = self._identity_card(state, seat, shown=open_)
        if identity is not None:
            cards.append(identity)
        if state.out[seat]:
            cards.append(Card(label="out"))
        elif open_:
            for token in self.rules.hand(state, seat):
                cards.append(Card(self.face[token], self.name[token], element=f"card:{token}"))
        elif hand:
            cards.append(Card(self.back, f"{len(hand)} cards", count=len(hand)))
        title = "Your hand" if own else f"{player_name(seat)}'s hand"
        return Row(title, tuple(cards), size="large" if own else "card")

    def _identity_card(self, state: Deadline99State, seat: int, *, shown: bool) -> Card | None:
        identity = self.rules.identity(state, seat)
        if identity is None:
            return None
        # Camp mode: the kings reveal their cards; the others stay hidden to the end.
        if shown or identity.role is Role.KING:
            return Card(FaceRef(self.identities, identity.id), identity.name)
        return Card(self.identity_back, "identity")

    def _seat_info(self, state: Deadline99State, seat: int, viewer: int | None) -> SeatInfo:
        lines = []
        if not state.out[seat]:
            lines.append(f"{len(state.hands[seat])} cards")
        identity = self.rules.identity(state, seat)
        if identity is not None and (viewer in (None, seat) or identity.role is Role.KING):
            lines.append(identity.name)
        return SeatInfo(seat, tuple(lines), out=state.out[seat])

    def _status(self, state: Deadline99State) -> str:
        rules = self.rules
        if state.ended is not None:
            return f"Game over ({state.ended.value.replace('_', ' ')})"
        if state.steal_from is not None:
            victim = player_name(state.steal_from)
            return f"{player_name(state.seat)} takes a random card from {victim}"
        if state.pending_draws:
            return f"{player_name(state.seat)} draws"
        return f"{player_name(state.seat)} to play; the count is {state.count} of {rules.cap}"

    # -- moves and the log -------------------------------------------------------------------

    def moves(self, state: Deadline99State, seat: int) -> list[Move]:
        rules = self.rules
        if rules.current_player(state) != seat:
            return []
        moves = []
        for action in rules.legal_actions(state):
            assert isinstance(action, Play)
            moves.append(Move(str(action), f"card:{action.card}", self._choice(state, action)))
        return moves

    def _choice(self, state: Deadline99State, action: Play) -> str:
        effect = self.rules.effect(action.card)
        kind = effect.kind
        if action.sign:
            amount = effect.amount * action.sign
            after = _clamp(state.count + amount, self.rules)
            return f"{'+' if amount > 0 else '−'}{abs(amount)} → {after}"
        if action.target is not None:
            who = "yourself" if action.target == state.seat else player_name(action.target)
            verb = {
                EffectKind.CHOOSE_NEXT: "next turn:",
                EffectKind.STEAL_RANDOM: "take a card from",
                EffectKind.SWAP_HANDS: "swap hands with",
            }.get(kind, "name")
            return f"{verb} {who}"
        warning = " (you are out)" if self.rules.eliminates(state, action) else ""
        return f"play {self.name[action.card]}{warning}"

    def describe(
        self, before: Deadline99State, action: Action, after: Deadline99State, seat: int | None
    ) -> str:
        actor = before.seat
        if isinstance(action, Play):
            text = f"plays {self.name[action.card]} ({action})"
            if after.count != before.count:
                text += f", count {before.count} → {after.count}"
        elif isinstance(action, Draw):
            sees = seat is None or seat == actor
            who = player_name(actor)
            text = (
                f"{who} draws {self.name[action.card]} ({action})"
                if sees
                else f"{who} draws a card"
            )
        elif isinstance(action, Steal):
            victim = before.steal_from
            sees = seat is None or seat in (actor, victim)
            victim_name = player_name(victim) if victim is not None else "?"
            who = player_name(actor)
            text = (
                f"{who} takes {self.name[action.card]} from {victim_name} ({action})"
                if sees
                else f"{who} takes a random card from {victim_name}"
            )
        else:
            text = str(action)
        newly_out = [s for s in range(self.rules.players) if after.out[s] and not before.out[s]]
        for s in newly_out:
            text += f"; {player_name(s)} is out"
        return text


def _clamp(count: int, rules: Deadline99Rules) -> int | str:
    if count > rules.cap:
        return "out!"
    return max(rules.floor, count)


def view(rules: Any) -> Deadline99View:
    """``Game.view``: the views of one table."""
    assert isinstance(rules, Deadline99Rules)
    return Deadline99View(rules)
