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
    """Preparation: play a preparation-phase action card, resolved at once; a sprint names its
    direction, and its distance when more than one is possible (decision `move-distance`)."""

    card: str
    direction: Direction | None = None
    steps: int | None = None

    def __str__(self) -> str:
        text = f"prep:{self.card}" + (f">{self.direction.value}" if self.direction else "")
        return text + (f"/{self.steps}" if self.steps is not None else "")


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
class Wait:
    """Placement: not yet; the next seat clockwise that may still place decides."""

    def __str__(self) -> str:
        return "wait"


@dataclass(frozen=True, slots=True)
class Walk:
    """Resolution: the move card being resolved goes this many cells (at most the card's)."""

    steps: int

    def __str__(self) -> str:
        return f"walk:{self.steps}"


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


Action = (
    Heirloom | UseTreasure | PrepCard | GiveUp | Done | Place | Reveal | Wait | Stop | Walk | DrawAI
)
_GIVE_UP, _DONE, _REVEAL, _WAIT, _STOP = GiveUp(), Done(), Reveal(), Wait(), Stop()

Listed = tuple[tuple[Action, ...], frozenset[int]]
"""Legal actions, and the identities of those objects."""

_ACTION_TYPES = frozenset(
    {Heirloom, UseTreasure, PrepCard, GiveUp, Done, Place, Reveal, Wait, Stop, Walk}
)


def parse_action(text: str) -> Action:
    """Read ``done``, ``give-up``, ``reveal``, ``wait``, ``stop``, ``heirloom:gold``,
    ``use:dragon-diamond@gate-a1``, ``prep:sprint>n`` (``prep:sprint>n/1``), ``place:move-n``,
    ``walk:1`` or ``ai:pounce``; ValueError quoting the text otherwise."""
    simple: dict[str, Action] = {
        "done": _DONE,
        "give-up": _GIVE_UP,
        "reveal": _REVEAL,
        "wait": _WAIT,
        "stop": _STOP,
    }
    if text in simple:
        return simple[text]
    kind, _, rest = text.partition(":")
    if not rest:
        raise ValueError(f"invalid action: {text!r}")
    try:
        if kind == "heirloom":
            return Heirloom(rest)
        if kind == "use":
            treasure, _, gate = rest.partition("@")
            return UseTreasure(treasure, gate or None)
        if kind == "prep":
            card, _, tail = rest.partition(">")
            direction, _, steps = tail.partition("/")
            return PrepCard(
                card,
                Direction(direction) if direction else None,
                int(steps) if steps else None,
            )
        if kind == "place":
            return Place(rest)
        if kind == "walk":
            return Walk(int(rest))
        if kind == "ai":
            return DrawAI(rest)
    except ValueError:
        raise ValueError(f"invalid action: {text!r}") from None
    raise ValueError(f"invalid action: {text!r}")
