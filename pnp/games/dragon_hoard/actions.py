"""Dragon Hoard actions: small frozen dataclasses whose text is their notation."""

from __future__ import annotations

from dataclasses import dataclass

from pnp.games.dragon_hoard.model import Direction


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

_ACTION_TYPES = frozenset({Heirloom, UseTreasure, PrepCard, GiveUp, Done, Place, Reveal, Stop})


def parse_action(text: str) -> Action:
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
