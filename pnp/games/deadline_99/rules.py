"""Deadline 99 (死线99 / 99死) as a plain rules library: every number comes from the model.

The rules of the post (shared/seeds/001_e55f82889eed5107.txt), and what this engine decides
where the post is open. Each reading beyond the post is a decision of
content/deadline-99/game.yaml (``decisions:``, printed in the rulebook), named here by its id:

- Seats are 0..n-1; clockwise is +1 (seat 0 -> 1). Seat 0 takes the first turn.
- A turn: play one card to the discards, resolve it, then draw ``effect.draw`` cards (the model
  gives J and 7 a draw of 0, the Angel 2 in all: ``angel-draws-in-all``). A draw that finds the
  draw pile empty takes the discards, the card just played included, as a new draw pile
  (``reshuffle-when-drawing``); with both empty the rest of the draw is skipped
  (``no-cards-to-draw``).
- Every card in hand is a legal play, and a player whose every card would bust must still play
  one (``any-card-may-be-played``). A card that would take the count above the cap eliminates
  its player: the count stays, the whole hand and the card itself go to the discards, and no
  card is drawn (``bust-card-discarded``).
- A subtraction stops at the floor (``count-floor``). K sets the count to the cap and never
  eliminates. A may name any living player, the player themself included (``ace-may-choose-
  self``); play then goes on from that player in the same direction. J names another living
  player holding cards (with none, J is played for no effect); 7 names any other living player,
  even one with no cards (``steal-and-swap-targets``).
- A player who starts a turn with no cards is out. Normal mode: the last player standing wins.
- Camp mode: any king out ends the game; every player of the other camp (out or not) and every
  surviving free agent wins. Both kings are alive until the game ends, so it cannot end by a
  last player standing when the setup deals both kings (``camp-last-standing``); if a setup
  dealt fewer, the survivor wins with every player of their camp (a free agent alone). Camp mode
  combines with Angel and Death; a king who plays Death ends it (``camp-with-angel-death``).

Chance is explicit (see ``pnp.engines.base``): a draw is the chance outcome ``Draw(card)`` and a
J's random card is ``Steal(card)``. The draw pile is kept as a multiset and every draw picks a
uniformly random card of it, which is exactly the distribution of drawing from the top of a
shuffled pile: "shuffle the discards into a new draw pile" is therefore just moving them.
"""

from __future__ import annotations

import bisect
import enum
import random
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pnp.engines.base import Declaration, InvariantViolation, Outcome
from pnp.engines.piles import distinct as _distinct
from pnp.engines.piles import with_card as _insert
from pnp.engines.piles import without as _remove
from pnp.errors import IllegalActionError
from pnp.games.deadline_99.model import Camp, Deadline99, Effect, EffectKind, Identity, Role

SLUG = "deadline-99"


class Mode(enum.Enum):
    """How a table plays and wins."""

    NORMAL = "normal"
    """Everyone for themself; the last player standing wins."""
    CAMP = "camp"
    """Hidden identities in a red and a black camp plus free agents; a king out ends the game."""


class Termination(enum.Enum):
    """Why a game of Deadline 99 ended."""

    LAST_STANDING = "last_standing"
    """Only one player is left."""
    KING_OUT = "king_out"
    """Camp mode: a king was eliminated."""


_TOKEN_FORBIDDEN = re.compile(r"[\s,/*+@:-]")


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card from hand, with the sign (ADD_OR_SUBTRACT) or target seat it needs."""

    card: str
    """The card's token: rank id + suit initial (``qh``, ``10s``) or a variant card's id."""
    sign: int = 0
    """+1 or -1 for a card that adds or subtracts; 0 otherwise."""
    target: int | None = None
    """The seat a card names (A, J, 7); None otherwise."""

    def __str__(self) -> str:
        sign = {1: "+", -1: "-"}.get(self.sign, "")
        target = "" if self.target is None else f"@{self.target}"
        return f"{self.card}{sign}{target}"

    @classmethod
    def from_text(cls, text: str) -> Play:
        """Read ``qh-``, ``as@2``, ``ks`` back; ValueError if malformed."""
        match = re.fullmatch(r"([^\s,/*+@:-]+)([+-]?)(?:@(\d+))?", text)
        if match is None:
            raise ValueError(f"invalid play: {text!r}")
        card, sign, target = match.groups()
        return cls(card, {"+": 1, "-": -1, "": 0}[sign], None if target is None else int(target))


@dataclass(frozen=True, slots=True)
class Draw:
    """Chance: the player whose turn it is draws this card from the draw pile."""

    card: str

    def __str__(self) -> str:
        return f"draw:{self.card}"


@dataclass(frozen=True, slots=True)
class Steal:
    """Chance: a J's random card, taken from the named player's hand."""

    card: str

    def __str__(self) -> str:
        return f"steal:{self.card}"


Action = Play | Draw | Steal


@dataclass(slots=True)
class Deadline99State:
    """A position. Cards are codes into ``Deadline99Rules.tokens``; every pile is a sorted tuple.

    States are values: the rules never mutate one they were given (``apply`` returns a copy that
    shares the immutable tuples). Compare positions with ``==`` or through their notation.
    """

    hands: tuple[tuple[int, ...], ...]
    """Each seat's hand, sorted; an eliminated seat holds none."""
    count: int
    """The running count."""
    direction: int
    """+1 clockwise (seat 0 -> 1), -1 counter-clockwise."""
    seat: int
    """The seat whose turn it is (also during the chance steps of that turn)."""
    forced: int | None
    """The seat an A named to take the next turn, until that turn starts."""
    pending_draws: int
    """Cards the player still draws this turn (each one a chance step)."""
    steal_from: int | None
    """The seat a J takes a random card from (a chance step), if one is due."""
    turn: int
    """Turns played so far (cards played)."""
    draw_pile: tuple[int, ...]
    """The draw pile as a multiset (its order is chance, resolved at each draw)."""
    discard: tuple[int, ...]
    """The discard pile as a multiset."""
    out: tuple[bool, ...]
    """Eliminated seats."""
    identities: tuple[str, ...]
    """Camp mode: each seat's identity id; empty in normal mode."""
    ended: Termination | None = None
    """Why the game is over; None while it goes on (derived from ``out`` and identities)."""


class Deadline99Rules:
    """The rules of Deadline 99 for one table: ``Rules[Deadline99State, Action]``."""

    slug = SLUG

    def __init__(
        self,
        model: Deadline99,
        players: int,
        mode: Mode = Mode.NORMAL,
        angel_death: bool = False,
    ) -> None:
        self.model = model
        self.players = players
        self.mode = mode
        self.angel_death = angel_death
        settings = model.settings
        self.hand_size = settings.hand_size
        self.cap = settings.count_cap
        self.floor = settings.count_floor
        self.start = settings.count_start
        if players not in model.info.players:
            raise ValueError(f"{SLUG} plays with {model.info.players} players, not {players}")
        if not self.floor <= self.start <= self.cap:
            raise ValueError(
                f"count start {self.start} is not within floor {self.floor} and cap {self.cap}"
            )
        self.decks = model.decks_for(players)
        if self.decks < 1:
            raise ValueError(f"no deck rule covers {players} players")

        # The card table: every (rank, suit), then the variant cards.
        initials = [suit.id[:1] for suit in model.suits]
        if len(set(initials)) != len(initials):
            initials = [suit.id for suit in model.suits]
        self.tokens: list[str] = []
        self._effects: list[Effect] = []
        for rank in model.ranks:
            for initial in initials:
                self.tokens.append(f"{rank.id}{initial}")
                self._effects.append(rank.effect)
        deck = [code for code in range(len(self.tokens)) for _ in range(self.decks)]
        for card in model.variant_cards:
            code = len(self.tokens)
            self.tokens.append(card.id)
            self._effects.append(card.effect)
            if angel_death:
                # Angel and Death: the variant cards are shuffled into the draw pile.
                deck.extend([code] * card.copies)
        self._deck: tuple[int, ...] = tuple(sorted(deck))
        self._by_token = {token: code for code, token in enumerate(self.tokens)}
        bad = [t for t in self.tokens if not t or _TOKEN_FORBIDDEN.search(t)]
        if bad or len(self._by_token) != len(self.tokens):
            raise ValueError(f"card tokens are not unique, plain slugs: {self.tokens!r}")
        if len(deck) < self.hand_size * players:
            raise ValueError(f"{len(deck)} cards cannot deal {self.hand_size} to {players} players")
        self._kind = [effect.kind for effect in self._effects]
        self._amount = [effect.amount for effect in self._effects]
        self._draws = [effect.draw for effect in self._effects]

        # Interned actions: legal_actions hands out these objects, never new ones.
        n = range(len(self.tokens))
        self._plain = [Play(self.tokens[c]) for c in n]
        self._signed_plays = [(Play(self.tokens[c], 1), Play(self.tokens[c], -1)) for c in n]
        self._aimed = [[Play(self.tokens[c], 0, t) for t in range(players)] for c in n]
        self._draw_actions = [Draw(self.tokens[c]) for c in n]
        self._steal_actions = [Steal(self.tokens[c]) for c in n]

        # Camp mode: the identity deal for this player count.
        self._identities: dict[str, Identity] = {i.id: i for i in model.camp_mode.identities}
        self._identity_deal: tuple[str, ...] = ()
        if mode is Mode.CAMP:
            if players not in model.camp_mode.players:
                raise ValueError(
                    f"camp mode plays with {model.camp_mode.players} players, not {players}"
                )
            setup = model.camp_setup_for(players)
            if setup is None:
                raise ValueError(f"no camp setup for {players} players")
            unknown = sorted(set(setup.identities) - set(self._identities))
            if unknown:
                raise ValueError(f"camp setup for {players} names unknown identities {unknown}")
            deal = [i for i, k in sorted(setup.identities.items()) for _ in range(k)]
            if len(deal) != players:
                raise ValueError(f"camp setup for {players} players deals {len(deal)} identities")
            for ident in self._identities.values():
                if ident.role is Role.KING and ident.camp is Camp.FREE:
                    raise ValueError(f"king identity {ident.id!r} must be red or black")
            self._identity_deal = tuple(deal)

    # -- the protocol -------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return self.players

    def initial_state(self, rng: random.Random) -> Deadline99State:
        deck = list(self._deck)
        rng.shuffle(deck)
        size = self.hand_size
        # Deadline 99: deal hand_size cards to each player from the shuffled deck.
        hands = tuple(tuple(sorted(deck[i * size : (i + 1) * size])) for i in range(self.players))
        identities: tuple[str, ...] = ()
        if self.mode is Mode.CAMP:
            # Camp mode: shuffle the identity cards of this player count, one to each player.
            deal = list(self._identity_deal)
            rng.shuffle(deal)
            identities = tuple(deal)
        return Deadline99State(
            hands=hands,
            count=self.start,
            direction=1,
            seat=0,
            forced=None,
            pending_draws=0,
            steal_from=None,
            turn=0,
            draw_pile=tuple(sorted(deck[size * self.players :])),
            discard=(),
            out=(False,) * self.players,
            identities=identities,
        )

    def current_player(self, state: Deadline99State) -> int | None:
        if state.ended is not None or state.pending_draws or state.steal_from is not None:
            return None
        return state.seat

    def is_chance(self, state: Deadline99State) -> bool:
        return state.ended is None and (state.pending_draws > 0 or state.steal_from is not None)

    def is_terminal(self, state: Deadline99State) -> bool:
        return state.ended is not None

    def turns(self, state: Deadline99State) -> int:
        return state.turn

    def legal_actions(self, state: Deadline99State) -> list[Action]:
        if state.ended is not None:
            return []
        if state.steal_from is not None:
            cards = state.hands[state.steal_from]
            return [self._steal_actions[c] for c in _distinct(cards)]
        if state.pending_draws:
            return [self._draw_actions[c] for c in _distinct(state.draw_pile)]
        seat = state.seat
        actions: list[Action] = []
        living: list[int] | None = None
        for c in _distinct(state.hands[seat]):
            kind = self._kind[c]
            if kind is EffectKind.ADD_OR_SUBTRACT:
                actions.extend(self._signed_plays[c])
            elif kind is EffectKind.CHOOSE_NEXT or kind is EffectKind.SWAP_HANDS:
                if living is None:
                    living = [s for s, o in enumerate(state.out) if not o]
                aimed = self._aimed[c]
                # Deadline 99: A may name any living player, themself included; 7 another one.
                actions.extend(
                    aimed[t] for t in living if t != seat or kind is EffectKind.CHOOSE_NEXT
                )
            elif kind is EffectKind.STEAL_RANDOM:
                targets = self._steal_targets(state)
                if targets:
                    aimed = self._aimed[c]
                    actions.extend(aimed[t] for t in targets)
                else:
                    actions.append(self._plain[c])
            else:
                actions.append(self._plain[c])
        return actions

    def chance_outcomes(self, state: Deadline99State) -> list[tuple[Action, float]]:
        if not self.is_chance(state):
            return []
        table: Sequence[Action]
        if state.steal_from is not None:
            cards, table = state.hands[state.steal_from], self._steal_actions
        else:
            cards, table = state.draw_pile, self._draw_actions
        total = len(cards)
        return [(table[c], k / total) for c, k in sorted(Counter(cards).items())]

    def sample_chance(self, state: Deadline99State, rng: random.Random) -> Action:
        if state.ended is None:
            if state.steal_from is not None:
                hand = state.hands[state.steal_from]
                return self._steal_actions[hand[int(rng.random() * len(hand))]]
            if state.pending_draws:
                pile = state.draw_pile
                return self._draw_actions[pile[int(rng.random() * len(pile))]]
        raise ValueError(f"no chance step is due in {self.notation(state)}")

    def apply(self, state: Deadline99State, action: Action) -> Deadline99State:
        if state.ended is not None:
            raise self._illegal(state, action, "the game is over")
        if type(action) is Play:
            if state.pending_draws or state.steal_from is not None:
                raise self._illegal(state, action, "a chance step is due")
            return self._play(state, action)
        if type(action) is Draw:
            return self._draw(state, action)
        if type(action) is Steal:
            return self._steal(state, action)
        raise self._illegal(state, action, "not a deadline-99 action")

    def outcome(self, state: Deadline99State) -> Outcome:
        if state.ended is None:
            raise ValueError(f"game not over: {self.notation(state)}")
        return Outcome(self._winners(state, state.ended), state.ended)

    def declares(self) -> Declaration:
        return Declaration(
            game=SLUG,
            effects=frozenset(EffectKind),
            modes=frozenset(Mode),
            settings=frozenset(
                {
                    "info.players",
                    "settings.hand_size",
                    "settings.count_start",
                    "settings.count_cap",
                    "settings.count_floor",
                    "suits",
                    "suits.id",
                    "ranks",
                    "ranks.id",
                    "ranks.effect",
                    "ranks.effect.kind",
                    "ranks.effect.amount",
                    "ranks.effect.draw",
                    "deck_rules",
                    "deck_rules.players",
                    "deck_rules.decks",
                    "camp_mode.players",
                    "camp_mode.identities",
                    "camp_mode.identities.id",
                    "camp_mode.identities.camp",
                    "camp_mode.identities.role",
                    "camp_mode.setups",
                    "camp_mode.setups.players",
                    "camp_mode.setups.identities",
                    "variant_cards",
                    "variant_cards.id",
                    "variant_cards.effect",
                    "variant_cards.effect.kind",
                    "variant_cards.effect.amount",
                    "variant_cards.effect.draw",
                    "variant_cards.copies",
                }
            ),
            options=frozenset({"players", "mode", "angel_death"}),
        )

    # -- resolving actions --------------------------------------------------------------

    def _play(self, state: Deadline99State, action: Play) -> Deadline99State:
        seat = state.seat
        c = self._by_token.get(action.card, -1)
        hand = state.hands[seat]
        if c not in hand:
            raise self._illegal(state, action, f"card {action.card!r} is not in seat {seat}'s hand")
        kind = self._kind[c]
        sign, target = action.sign, action.target
        if kind is EffectKind.ADD_OR_SUBTRACT:
            if sign not in (1, -1) or target is not None:
                raise self._illegal(state, action, f"card {action.card!r} needs a sign + or -")
        elif sign:
            raise self._illegal(state, action, f"card {action.card!r} takes no sign")
        if kind is EffectKind.CHOOSE_NEXT or kind is EffectKind.SWAP_HANDS:
            if (
                target is None
                or not 0 <= target < self.players
                or state.out[target]
                or (target == seat and kind is EffectKind.SWAP_HANDS)
            ):
                raise self._illegal(state, action, f"seat {target} is not a target of {kind.value}")
        elif kind is EffectKind.STEAL_RANDOM:
            targets = self._steal_targets(state)
            if (target not in targets) if targets else (target is not None):
                raise self._illegal(state, action, f"seat {target} is not a target of {kind.value}")
        elif target is not None:
            raise self._illegal(state, action, f"card {action.card!r} takes no target")

        new = _copy(state)
        new.turn = state.turn + 1
        rest = _remove(hand, c)
        hands = list(state.hands)
        hands[seat] = rest
        count = state.count
        eliminated = False
        if kind is EffectKind.ADD or (kind is EffectKind.ADD_OR_SUBTRACT and sign > 0):
            total = count + self._amount[c]
            if total > self.cap:
                # Deadline 99: a card that would take the count above the cap eliminates its
                # player; the count stays where it was.
                eliminated = True
            else:
                new.count = max(self.floor, total)
        elif kind is EffectKind.ADD_OR_SUBTRACT:
            # Deadline 99 (decided): a subtraction stops at the floor.
            new.count = max(self.floor, count - self._amount[c])
        elif kind is EffectKind.SET_TO_CAP:
            # Deadline 99: K sets the count to the cap; at the cap it does not eliminate.
            new.count = self.cap
        elif kind is EffectKind.CHOOSE_NEXT:
            # Deadline 99: A names who takes the next turn; the direction stays.
            new.forced = target
        elif kind is EffectKind.REVERSE:
            # Deadline 99: 8 reverses the direction of play.
            new.direction = -state.direction
        elif kind is EffectKind.STEAL_RANDOM:
            # Deadline 99: J takes a random card from the named player (a chance step).
            new.steal_from = target
        elif kind is EffectKind.SWAP_HANDS:
            # Deadline 99: 7 swaps the whole remaining hands.
            assert target is not None
            hands[seat], hands[target] = hands[target], rest
        elif kind is EffectKind.ELIMINATE_SELF:
            # Angel and Death: whoever plays Death is out at once.
            eliminated = True
        # EffectKind.BONUS_DRAW: no effect but its draw (the Angel draws effect.draw = 2).

        if eliminated:
            # Deadline 99 (decided): the card played goes to the discards with the hand.
            new.discard = tuple(sorted((*state.discard, *rest, c)))
            hands[seat] = ()
            new.hands = tuple(hands)
            self._eliminate(new, seat)
            if new.ended is None:
                self._advance(new, seat)
            return new
        new.hands = tuple(hands)
        new.discard = _insert(state.discard, c)
        # Deadline 99: after playing, draw effect.draw cards (J and 7: 0, the Angel: 2).
        new.pending_draws = self._draws[c]
        self._settle(new)
        return new

    def _draw(self, state: Deadline99State, action: Draw) -> Deadline99State:
        if not state.pending_draws or state.steal_from is not None:
            raise self._illegal(state, action, "no draw is due")
        c = self._by_token.get(action.card, -1)
        pile = state.draw_pile
        i = bisect.bisect_left(pile, c)
        if i == len(pile) or pile[i] != c:
            raise self._illegal(state, action, f"card {action.card!r} is not in the draw pile")
        new = _copy(state)
        new.draw_pile = pile[:i] + pile[i + 1 :]
        hands = list(state.hands)
        hands[state.seat] = _insert(hands[state.seat], c)
        new.hands = tuple(hands)
        new.pending_draws = state.pending_draws - 1
        self._settle(new)
        return new

    def _steal(self, state: Deadline99State, action: Steal) -> Deadline99State:
        victim = state.steal_from
        if victim is None:
            raise self._illegal(state, action, "no steal is due")
        c = self._by_token.get(action.card, -1)
        if c not in state.hands[victim]:
            raise self._illegal(
                state, action, f"card {action.card!r} is not in seat {victim}'s hand"
            )
        new = _copy(state)
        hands = list(state.hands)
        hands[victim] = _remove(hands[victim], c)
        hands[state.seat] = _insert(hands[state.seat], c)
        new.hands = tuple(hands)
        new.steal_from = None
        self._settle(new)
        return new

    def _settle(self, new: Deadline99State) -> None:
        """After a step: leave a chance step due, or end the turn and start the next one."""
        if new.steal_from is not None:
            return
        if new.pending_draws and not new.draw_pile:
            if new.discard:
                # Deadline 99 (decided, reshuffle-when-drawing): a draw that finds the draw
                # pile empty takes the shuffled discards.
                new.draw_pile, new.discard = new.discard, ()
            else:
                # Deadline 99 (decided, no-cards-to-draw): with both piles empty, no draw.
                new.pending_draws = 0
        if not new.pending_draws:
            self._advance(new, new.seat)

    def _advance(self, new: Deadline99State, seat: int) -> None:
        """Start the next turn after ``seat``'s (the game is not over)."""
        if new.forced is not None:
            nxt, new.forced = new.forced, None
        else:
            nxt = self._next_living(new.out, seat, new.direction)
        while not new.hands[nxt]:
            # Deadline 99: a player who starts their turn with no cards is out.
            self._eliminate(new, nxt)
            if new.ended is not None:
                return
            nxt = self._next_living(new.out, nxt, new.direction)
        new.seat = nxt

    def _eliminate(self, new: Deadline99State, seat: int) -> None:
        """Mark ``seat`` out (its cards are already gone) and see whether the game ended."""
        out = list(new.out)
        out[seat] = True
        new.out = tuple(out)
        new.ended = self._termination(new.out, new.identities)

    def _next_living(self, out: tuple[bool, ...], seat: int, direction: int) -> int:
        n = self.players
        nxt = (seat + direction) % n
        while out[nxt]:
            nxt = (nxt + direction) % n
        return nxt

    def _steal_targets(self, state: Deadline99State) -> list[int]:
        seat = state.seat
        return [s for s, o in enumerate(state.out) if not o and s != seat and state.hands[s]]

    def _termination(
        self, out: tuple[bool, ...], identities: tuple[str, ...]
    ) -> Termination | None:
        if identities:
            for seat, ident in enumerate(identities):
                # Camp mode: when any king is out the game ends.
                if out[seat] and self._identities[ident].role is Role.KING:
                    return Termination.KING_OUT
        if out.count(False) <= 1:
            # Deadline 99: the last player standing wins.
            return Termination.LAST_STANDING
        return None

    def _winners(self, state: Deadline99State, termination: Termination) -> frozenset[int]:
        camps = [self._identities[i].camp for i in state.identities]
        living = [s for s, o in enumerate(state.out) if not o]
        if termination is Termination.KING_OUT:
            fallen = next(
                s
                for s, i in enumerate(state.identities)
                if state.out[s] and self._identities[i].role is Role.KING
            )
            other = Camp.BLACK if camps[fallen] is Camp.RED else Camp.RED
            # Camp mode: the other camp (out or not) and every surviving free agent win.
            return frozenset(
                s
                for s, camp in enumerate(camps)
                if camp is other or (camp is Camp.FREE and not state.out[s])
            )
        if camps and living and camps[living[0]] is not Camp.FREE:
            # Camp mode (decided; unreachable when both kings are dealt): the survivor's camp.
            return frozenset(s for s, camp in enumerate(camps) if camp is camps[living[0]])
        return frozenset(living)

    def _illegal(self, state: Deadline99State, action: object, why: str) -> IllegalActionError:
        return IllegalActionError(f"illegal action {action!r} in {self.notation(state)}: {why}")

    def resample(self, state: Deadline99State, seat: int, rng: random.Random) -> Deadline99State:
        """A position ``seat`` cannot tell from ``state`` (for the search player).

        What everyone sees stays: the count, the direction, the discards, who is out, how many
        cards each player and the draw pile hold, and the kings (camp mode: they reveal). What
        ``seat`` cannot see is dealt again at random: the other players' hands and the draw pile
        from the cards it has not seen, and the hidden identities of the others. (A 7 shows two
        players each other's hand; this determinisation forgets it, which only makes the search
        player a little weaker, never a cheat.)
        """
        hidden = [s for s in range(self.players) if s != seat and state.hands[s]]
        pool = [c for s in hidden for c in state.hands[s]]
        pool.extend(state.draw_pile)
        # The draw pile is a sorted multiset a draw picks from at random, so only the hands
        # need dealing: a random sample of the pool, not a shuffle of all of it (the shuffle
        # was a fifth of a strong game's CPU; the deal has the same distribution).
        picks = rng.sample(range(len(pool)), sum(len(state.hands[s]) for s in hidden))
        hands = list(state.hands)
        start = 0
        for s in hidden:
            size = len(state.hands[s])
            hands[s] = tuple(sorted(pool[i] for i in picks[start : start + size]))
            start += size
        rest = set(picks)
        new = _copy(state)
        new.hands = tuple(hands)
        new.draw_pile = tuple(sorted(c for i, c in enumerate(pool) if i not in rest))
        if state.identities:
            unseen = [
                s
                for s, ident in enumerate(state.identities)
                if s != seat and self._identities[ident].role is not Role.KING
            ]
            dealt = [state.identities[s] for s in unseen]
            rng.shuffle(dealt)
            identities = list(state.identities)
            for s, ident in zip(unseen, dealt, strict=True):
                identities[s] = ident
            new.identities = tuple(identities)
        return new

    # -- helpers for policies and tests ---------------------------------------------------

    def interned_plays(self) -> list[Play]:
        """Every Play object ``legal_actions`` can hand out (it never makes new ones)."""
        plays = list(self._plain)
        for pair in self._signed_plays:
            plays.extend(pair)
        for aimed in self._aimed:
            plays.extend(aimed)
        return plays

    def effect(self, card: str) -> Effect:
        """The effect of the card with this token."""
        return self._effects[self._by_token[card]]

    def hand(self, state: Deadline99State, seat: int) -> list[str]:
        """The tokens of a seat's hand."""
        return [self.tokens[c] for c in state.hands[seat]]

    def eliminates(self, state: Deadline99State, action: Play) -> bool:
        """Whether playing ``action`` now puts its player out (a bust, or Death)."""
        c = self._by_token[action.card]
        kind = self._kind[c]
        if kind is EffectKind.ELIMINATE_SELF:
            return True
        adds = kind is EffectKind.ADD or (kind is EffectKind.ADD_OR_SUBTRACT and action.sign > 0)
        return adds and state.count + self._amount[c] > self.cap

    def identity(self, state: Deadline99State, seat: int) -> Identity | None:
        """A seat's camp-mode identity (None in normal mode)."""
        return self._identities[state.identities[seat]] if state.identities else None

    def invariant_problems(self, state: Deadline99State) -> list[str]:
        """Rules every state reached from a deal must keep; empty when all hold."""
        problems = []
        if not self.floor <= state.count <= self.cap:
            problems.append(f"count {state.count} outside {self.floor}..{self.cap}")
        cards = sorted((*state.draw_pile, *state.discard, *(c for h in state.hands for c in h)))
        if tuple(cards) != self._deck:
            problems.append(f"cards not conserved: {len(cards)} of {len(self._deck)}")
        for seat, (hand, out) in enumerate(zip(state.hands, state.out, strict=True)):
            if out and hand:
                problems.append(f"eliminated seat {seat} holds cards")
        if state.ended is None:
            if state.out[state.seat]:
                problems.append(f"seat {state.seat} to move is out")
            if state.pending_draws and state.steal_from is None and not state.draw_pile:
                problems.append("a draw is due from an empty draw pile")
        if state.ended is not self._termination(state.out, state.identities):
            problems.append(f"ended is {state.ended}, rules say otherwise")
        return problems

    def check_invariants(self, state: Deadline99State) -> None:
        """Raise InvariantViolation, quoting the notation, if a rule of every state is broken."""
        problems = self.invariant_problems(state)
        if problems:
            raise InvariantViolation(f"{'; '.join(problems)} in {self.notation(state)}")

    # -- notation -----------------------------------------------------------------------

    def notation(self, state: Deadline99State) -> str:
        """``hands count dir seat forced pending turn draw discard identities``, e.g.

        ``3h,ks*2/x/- 42 + 0 - - 17 3s*2,5c ks -``, where hands are per seat (``x`` out,
        ``-`` no cards), dir is ``+`` (clockwise) or ``-``, forced is the seat an A named or
        ``-``, pending is ``-`` or ``s<seat>`` (a steal due) and/or ``d<n>`` (draws due), piles
        are multisets (``-`` empty) and identities per seat (``-`` in normal mode).
        """
        hands = "/".join(
            "x" if out else self._cards_text(hand)
            for hand, out in zip(state.hands, state.out, strict=True)
        )
        pending = ""
        if state.steal_from is not None:
            pending += f"s{state.steal_from}"
        if state.pending_draws:
            pending += f"d{state.pending_draws}"
        return " ".join(
            (
                hands,
                str(state.count),
                "+" if state.direction > 0 else "-",
                str(state.seat),
                "-" if state.forced is None else str(state.forced),
                pending or "-",
                str(state.turn),
                self._cards_text(state.draw_pile),
                self._cards_text(state.discard),
                "/".join(state.identities) or "-",
            )
        )

    def from_notation(self, text: str) -> Deadline99State:
        def fail(why: str) -> ValueError:
            return ValueError(f"invalid {SLUG} notation {text!r}: {why}")

        fields = text.split(" ")
        if len(fields) != 10:
            raise fail(f"expected 10 fields, got {len(fields)}")
        hands_f, count_f, dir_f, seat_f, forced_f, pending_f, turn_f, draw_f, disc_f, ids_f = fields
        seats = hands_f.split("/")
        if len(seats) != self.players:
            raise fail(f"expected {self.players} hands, got {len(seats)}")
        try:
            out = tuple(s == "x" for s in seats)
            hands = tuple(() if s == "x" else self._cards_parse(s) for s in seats)
            draw_pile = self._cards_parse(draw_f)
            discard = self._cards_parse(disc_f)
        except KeyError as error:
            raise fail(f"unknown card {error.args[0]!r}") from None
        if not re.fullmatch(r"\d+", count_f) or not self.floor <= int(count_f) <= self.cap:
            raise fail(f"count must be {self.floor}..{self.cap}, got {count_f!r}")
        if dir_f not in ("+", "-"):
            raise fail(f"direction must be + or -, got {dir_f!r}")
        seat = self._seat(seat_f, fail)
        forced = None if forced_f == "-" else self._seat(forced_f, fail)
        match = re.fullmatch(r"(?:s(\d+))?(?:d(\d+))?", "" if pending_f == "-" else pending_f)
        if match is None or pending_f == "":
            raise fail(f"pending must be -, s<seat> and/or d<n>, got {pending_f!r}")
        steal_from = None if match[1] is None else self._seat(match[1], fail)
        if not turn_f.isdigit():
            raise fail(f"turn must be a number, got {turn_f!r}")
        identities: tuple[str, ...] = ()
        if self.mode is Mode.CAMP:
            identities = tuple(ids_f.split("/"))
            if len(identities) != self.players or not set(identities) <= set(self._identities):
                raise fail(f"expected {self.players} identities of {sorted(self._identities)}")
        elif ids_f != "-":
            raise fail("identities are only dealt in camp mode")
        kings_out = sum(
            1 for s, i in enumerate(identities) if out[s] and self._identities[i].role is Role.KING
        )
        if kings_out > 1:
            raise fail("more than one king is out")
        pending_draws = int(match[2] or 0)
        if out.count(False) > 1 and not kings_out:
            if out[seat]:
                raise fail(f"seat {seat} to move is out")
            if forced is not None and out[forced]:
                raise fail(f"forced seat {forced} is out")
            if steal_from is not None and not hands[steal_from]:
                raise fail(f"seat {steal_from} has no card to steal")
            if pending_draws and steal_from is None and not draw_pile:
                raise fail("a draw is due from an empty draw pile")
        return Deadline99State(
            hands=hands,
            count=int(count_f),
            direction=1 if dir_f == "+" else -1,
            seat=seat,
            forced=forced,
            pending_draws=pending_draws,
            steal_from=steal_from,
            turn=int(turn_f),
            draw_pile=draw_pile,
            discard=discard,
            out=out,
            identities=identities,
            ended=self._termination(out, identities),
        )

    def parse_action(self, text: str) -> Action:
        """Read ``ks``, ``qh-``, ``as@2``, ``draw:3h`` or ``steal:3h``; ValueError if malformed."""
        kind, _, card = text.partition(":")
        if card and kind == "draw":
            return Draw(card)
        if card and kind == "steal":
            return Steal(card)
        return Play.from_text(text)

    def _seat(self, text: str, fail: Callable[[str], ValueError]) -> int:
        if not text.isdigit() or int(text) >= self.players:
            raise fail(f"seat must be 0..{self.players - 1}, got {text!r}")
        return int(text)

    def _cards_text(self, cards: Sequence[int]) -> str:
        if not cards:
            return "-"
        return ",".join(
            self.tokens[c] if k == 1 else f"{self.tokens[c]}*{k}"
            for c, k in sorted(Counter(cards).items())
        )

    def _cards_parse(self, text: str) -> tuple[int, ...]:
        if text == "-":
            return ()
        cards: list[int] = []
        for item in text.split(","):
            token, _, times = item.partition("*")
            cards.extend([self._by_token[token]] * (int(times) if times.isdigit() else 1))
        return tuple(sorted(cards))


def _copy(s: Deadline99State) -> Deadline99State:
    return Deadline99State(
        s.hands,
        s.count,
        s.direction,
        s.seat,
        s.forced,
        s.pending_draws,
        s.steal_from,
        s.turn,
        s.draw_pile,
        s.discard,
        s.out,
        s.identities,
        s.ended,
    )
