"""Model types every game shares: identity, player counts, decisions, the kit's products."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from pnp.errors import Location

NOWHERE = Location("<derived>")


def doc(text: str) -> dict[str, str]:
    """Field metadata: the description the schema shows in error messages and docs."""
    return {"doc": text}


@dataclass(frozen=True)
class PlayerRange:
    """An inclusive range of player counts."""

    min: int = field(metadata=doc("fewest players"))
    max: int = field(metadata=doc("most players"))

    def __contains__(self, players: object) -> bool:
        return isinstance(players, int) and self.min <= players <= self.max

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(range(self.min, self.max + 1))

    def __str__(self) -> str:
        return f"{self.min}-{self.max}" if self.min != self.max else str(self.min)


@dataclass(frozen=True)
class Decision:
    """A point the rule source leaves open or contradicts, and what this edition decided."""

    id: str = field(metadata=doc("stable slug of the decision"))
    question: str = field(metadata=doc("what the rule source leaves open"))
    answer: str = field(metadata=doc("what this edition rules"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class GameInfo:
    """What a player sees on the box: title, player count, play time."""

    slug: str = field(metadata=doc("the game's slug, same as its content folder"))
    title: str = field(metadata=doc("title in Simplified Chinese"))
    subtitle: str = field(default="", metadata=doc("second title or edition name"))
    players: PlayerRange = field(default=PlayerRange(1, 1), metadata=doc("supported players"))
    minutes: int = field(default=30, metadata=doc("typical play time in minutes"))
    source: str = field(default="", metadata=doc("rule source file in shared/seeds"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


class ProductKind(enum.Enum):
    """How a product of the kit is laid out on paper."""

    CARDS = "cards"
    """Cards at true size, many to a page, with bleed, crop marks and duplex backs."""
    SHEET = "sheet"
    """One component filling its own page or pages (board, tracker, player aid), tiled if large."""


@dataclass(frozen=True)
class Product:
    """One printable file of a kit: which items, drawn by which template, at which size."""

    id: str = field(metadata=doc("slug; also the PDF's file name"))
    title: str = field(metadata=doc("what the cover page calls it"))
    kind: ProductKind = field(metadata=doc("cards or sheet"))
    items: str = field(metadata=doc("name of the model collection the product prints"))
    face: str = field(metadata=doc("template of the front, relative to templates/"))
    size: str = field(default="poker", metadata=doc("card size name, or a sheet size like 'a4'"))
    back: str = field(default="", metadata=doc("template of the back; empty: no back"))
    landscape: bool = field(default=False, metadata=doc("lay the item out landscape"))
    note: str = field(default="", metadata=doc("printing or cutting note for the cover page"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@runtime_checkable
class Printable(Protocol):
    """Anything a product can print: it has an id, a name and a number of copies in the kit."""

    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def copies(self) -> int: ...

    @property
    def where(self) -> Location: ...


@dataclass(frozen=True)
class Spread:
    """A promise that no value of one factor wins much more or less than is fair."""

    factor: str = field(
        metadata=doc(
            "'seat', a per-seat factor the engine reports (e.g. 'character', 'entry', "
            "'camp') or a per-game factor (e.g. 'missions')"
        )
    )
    tolerance: float = field(
        metadata=doc("largest allowed distance from the fair win rate, as a rate (0.1 = 10 points)")
    )
    fair: float | None = field(
        default=None,
        metadata=doc(
            "the fair win rate; default 1/players for seat factors, the table's overall win "
            "rate for game factors"
        ),
    )
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class Band:
    """A promise about one table's win rate (a difficulty level's, typically)."""

    table: str = field(metadata=doc("the table (mode, level) the band is for"))
    min: float = field(metadata=doc("lowest acceptable win rate"))
    max: float = field(metadata=doc("highest acceptable win rate"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class Ladder:
    """A promise that each table of a list is harder than the one before it."""

    tables: tuple[str, ...] = field(metadata=doc("the tables from easiest to hardest"))
    alpha: float = field(
        default=0.05,
        metadata=doc("one-sided level of the paired sign test each step must pass"),
    )
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class Balance:
    """What the design promises about fairness and difficulty, and how hard to look.

    ``pnp validate`` plays ``games`` games per table with ``policy`` and fails when a promise is
    broken beyond doubt (the 95 % interval lies outside it); a figure outside a promise whose
    interval still reaches it is a warning that more games are needed.
    """

    policy: str = field(
        default="strong",
        metadata=doc("the policy the promises are made for: strong, sensible or random"),
    )
    games: int = field(default=200, metadata=doc("games per table in pnp validate's balance run"))
    spreads: tuple[Spread, ...] = field(default=(), metadata=doc("fairness promises"))
    bands: tuple[Band, ...] = field(default=(), metadata=doc("win-rate promises per table"))
    ladder: Ladder | None = field(default=None, metadata=doc("a difficulty ladder"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)
