"""Deadline 99 (死线99 / 99死): a shedding game on a shared running count capped at 99.

Every number of the game (hand size, cap, floor, deck make-up, identity deal) is a field here,
filled from content/deadline-99/*.yaml; the engine, the card faces and the rulebook read it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from functools import cached_property

from pnp.errors import Location
from pnp.model.common import NOWHERE, PlayerRange, doc
from pnp.model.game import GameContent
from pnp.model.kit import Aid, Board, Card


class Colour(enum.Enum):
    """Suit colour; it also names the two camps of camp mode."""

    RED = "red"
    BLACK = "black"


class EffectKind(enum.Enum):
    """What playing a card does. The engine declares which kinds it implements."""

    ADD = "add"
    """Add `amount` to the count."""
    ADD_OR_SUBTRACT = "add_or_subtract"
    """The player chooses: add or subtract `amount`."""
    SET_TO_CAP = "set_to_cap"
    """Set the count to the cap (set, not add: at the cap it eliminates nobody)."""
    CHOOSE_NEXT = "choose_next"
    """The player names who takes the next turn; the direction of play stays."""
    REVERSE = "reverse"
    """Reverse the direction of play."""
    STEAL_RANDOM = "steal_random"
    """Take a random card from a chosen player's hand."""
    SWAP_HANDS = "swap_hands"
    """Swap whole hands with a chosen player."""
    BONUS_DRAW = "bonus_draw"
    """No effect on the count; the player draws `draw` cards (Angel)."""
    ELIMINATE_SELF = "eliminate_self"
    """The player who plays it is out at once (Death)."""


class Camp(enum.Enum):
    RED = "red"
    BLACK = "black"
    FREE = "free"


class Role(enum.Enum):
    KING = "king"
    MINISTER = "minister"
    AGENT = "agent"


@dataclass(frozen=True)
class Effect:
    kind: EffectKind = field(metadata=doc("what the card does"))
    amount: int = field(default=0, metadata=doc("count change for add and add_or_subtract"))
    draw: int = field(default=1, metadata=doc("cards the player draws after playing it"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class Suit:
    id: str = field(metadata=doc("slug: spade, heart, club, diamond"))
    name: str = field(metadata=doc("suit name in Chinese", nonempty=True))
    symbol: str = field(metadata=doc("the suit's symbol, e.g. ♠"))
    colour: Colour = field(metadata=doc("red or black"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class Rank:
    id: str = field(metadata=doc("slug of the rank: 3..10, j, q, k, a"))
    label: str = field(metadata=doc("index printed in the card's corners", nonempty=True))
    name: str = field(metadata=doc("the card's name on its face", nonempty=True))
    effect: Effect = field(metadata=doc("what playing it does"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)

    @property
    def is_function(self) -> bool:
        """A function card does something other than add its own value."""
        return self.effect.kind is not EffectKind.ADD


@dataclass(frozen=True)
class PlayingCard:
    """One face of the playing deck: a rank in a suit (derived, not typed into content)."""

    rank: Rank
    suit: Suit
    copies: int
    where: Location = field(default=NOWHERE, compare=False, repr=False)

    @property
    def id(self) -> str:
        return f"{self.rank.id}-{self.suit.id}"

    @property
    def name(self) -> str:
        return f"{self.suit.name}{self.rank.label}"


@dataclass(frozen=True)
class DeckRule:
    """How many decks a table of this many players shuffles together."""

    players: PlayerRange = field(metadata=doc("player counts this rule covers"))
    decks: int = field(metadata=doc("decks shuffled together"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class Settings:
    hand_size: int = field(metadata=doc("cards dealt to each player"))
    count_start: int = field(metadata=doc("the count at the start of a game"))
    count_cap: int = field(metadata=doc("highest count a card may leave; above it you are out"))
    count_floor: int = field(metadata=doc("lowest count; a subtraction stops there"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class Identity(Card):
    """A camp-mode identity card."""

    camp: Camp = field(metadata=doc("red, black or free"))
    role: Role = field(metadata=doc("king, minister or agent"))
    text: str = field(metadata=doc("what the card tells its holder", nonempty=True))
    stands_for: str = field(default="", metadata=doc("the poker card it replaces, if any"))


@dataclass(frozen=True)
class CampSetup:
    """Which identity cards are shuffled and dealt for a number of players."""

    players: int = field(metadata=doc("player count"))
    identities: dict[str, int] = field(metadata=doc("identity id -> cards in the deal"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class CampMode:
    players: PlayerRange = field(metadata=doc("player counts camp mode supports"))
    identities: tuple[Identity, ...] = field(metadata=doc("identity cards of the kit"))
    setups: tuple[CampSetup, ...] = field(metadata=doc("the deal for each player count"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class VariantCard(Card):
    """A card of the Angel and Death variant, shuffled into the draw pile (its copies)."""

    effect: Effect = field(metadata=doc("what playing it does"))
    stands_for: str = field(default="", metadata=doc("the poker card it replaces"))


@dataclass(frozen=True)
class Tracker(Board):
    """The running-count tracker board."""

    columns: int = field(metadata=doc("cells per row of the track"))


@dataclass(frozen=True)
class Deadline99(GameContent):
    """The whole content of Deadline 99."""

    settings: Settings = field(metadata=doc("hand size, start, cap and floor of the count"))
    suits: tuple[Suit, ...] = field(metadata=doc("the four suits"))
    ranks: tuple[Rank, ...] = field(metadata=doc("the ranks kept in the deck and their effects"))
    deck_rules: tuple[DeckRule, ...] = field(metadata=doc("decks by player count"))
    kit_decks: int = field(metadata=doc("decks of playing cards the kit prints"))
    camp_mode: CampMode = field(metadata=doc("identities and deals of camp mode"))
    variant_cards: tuple[VariantCard, ...] = field(metadata=doc("the Angel and Death cards"))
    reference_cards: tuple[Aid, ...] = field(metadata=doc("player aid cards"))
    trackers: tuple[Tracker, ...] = field(metadata=doc("the running-count tracker"))

    @cached_property
    def playing_cards(self) -> tuple[PlayingCard, ...]:
        """Every face of one deck, each printed `kit_decks` times."""
        return tuple(
            PlayingCard(rank=rank, suit=suit, copies=self.kit_decks, where=rank.where)
            for rank in self.ranks
            for suit in self.suits
        )

    @property
    def identity_cards(self) -> tuple[Identity, ...]:
        return self.camp_mode.identities

    @property
    def cards_per_deck(self) -> int:
        return len(self.ranks) * len(self.suits)

    def decks_for(self, players: int) -> int:
        """Decks shuffled together for a table of `players`; 0 if no rule covers it."""
        for rule in self.deck_rules:
            if players in rule.players:
                return rule.decks
        return 0

    def rank(self, rank_id: str) -> Rank:
        """The rank with this id (rulebook prose looks ranks up by id)."""
        return next(rank for rank in self.ranks if rank.id == rank_id)

    def identity(self, identity_id: str) -> Identity:
        return next(i for i in self.camp_mode.identities if i.id == identity_id)

    def camp_setup_for(self, players: int) -> CampSetup | None:
        return next((s for s in self.camp_mode.setups if s.players == players), None)


SLUG = "deadline-99"
MODEL = Deadline99
"""The root type content/deadline-99/*.yaml loads into (found by pnp.model.registry)."""
