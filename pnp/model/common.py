"""Model types every game shares: identity, player counts, decisions, the kit's products."""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from pnp.errors import Location

NOWHERE = Location("<derived>")

_FIELD_NAMES: dict[type, tuple[str, ...] | None] = {}


def field_names(kind: type) -> tuple[str, ...] | None:
    """The field names of the dataclass ``kind``, in order; None for any other type. Kept per
    type: the checks walk every value of a model and the web table every value of a scene,
    and asking ``dataclasses`` each time was most of those walks."""
    try:
        return _FIELD_NAMES[kind]
    except KeyError:
        pass
    names = (
        tuple(f.name for f in dataclasses.fields(kind))
        if dataclasses.is_dataclass(kind) and isinstance(kind, type)
        else None
    )
    _FIELD_NAMES[kind] = names
    return names


def doc(
    text: str,
    *,
    at_least: float | None = None,
    at_most: float | None = None,
    nonempty: bool = False,
    items: int | None = None,
) -> dict[str, object]:
    """Field metadata: the description the schema shows in error messages and docs, and the
    limits the schema holds a value to (a number ``at_least``/``at_most``; a text or list
    ``nonempty``; a list of exactly ``items`` values). A value outside them is a located
    content error, and the editor schemas (``pnp schema``) carry them too."""
    metadata: dict[str, object] = {"doc": text}
    limits = {"at_least": at_least, "at_most": at_most, "items": items}
    metadata.update({key: value for key, value in limits.items() if value is not None})
    if nonempty:
        metadata["nonempty"] = True
    return metadata


@dataclass(frozen=True)
class PlayerRange:
    """An inclusive range of player counts."""

    min: int = field(metadata=doc("fewest players", at_least=1, at_most=99))
    max: int = field(metadata=doc("most players", at_least=1, at_most=99))
    only: tuple[int, ...] = field(
        default=(),
        metadata=doc("the counts the game supports when not every one between (e.g. [2, 4, 6])"),
    )

    def __contains__(self, players: object) -> bool:
        in_range = isinstance(players, int) and self.min <= players <= self.max
        return in_range and (not self.only or players in self.only)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(p for p in range(self.min, self.max + 1) if not self.only or p in self.only)

    def __str__(self) -> str:
        if self.only:
            return "/".join(str(p) for p in self.only)
        return f"{self.min}-{self.max}" if self.min != self.max else str(self.min)


@dataclass(frozen=True)
class Decision:
    """A point the rule source leaves open or contradicts, and what this edition decided."""

    id: str = field(metadata=doc("stable slug of the decision", nonempty=True))
    question: str = field(metadata=doc("what the rule source leaves open", nonempty=True))
    answer: str = field(metadata=doc("what this edition rules", nonempty=True))
    reason: str = field(
        default="",
        metadata=doc(
            "why: how the ruling was found and measured (simulations, figures); printed in "
            "the designer's report only, never in a player's document"
        ),
    )
    designer: bool = field(
        default=False,
        metadata=doc(
            "the whole decision is about the software or the balance, not a rule players "
            "apply: the designer's report prints it, the read-me and rulebook do not"
        ),
    )
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class GameInfo:
    """What a player sees on the box: title, player count, play time."""

    slug: str = field(metadata=doc("the game's slug, same as its content folder", nonempty=True))
    title: str = field(metadata=doc("title in Simplified Chinese", nonempty=True))
    subtitle: str = field(default="", metadata=doc("second title or edition name"))
    players: PlayerRange = field(default=PlayerRange(1, 1), metadata=doc("supported players"))
    minutes: int = field(
        default=30, metadata=doc("typical play time in minutes", at_least=1, at_most=1000)
    )
    source: str = field(default="", metadata=doc("rule source file in shared/seeds"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


class ProductKind(enum.Enum):
    """How a product of the kit is laid out on paper."""

    CARDS = "cards"
    """Cards at true size, many to a page, with bleed, crop marks and duplex backs."""
    SHEET = "sheet"
    """One component filling its own page or pages (board, tracker, player aid), tiled if large."""


@dataclass(frozen=True)
class Slot:
    """A place on a board or sheet where a component lies: a card, a token, a deck.

    ``pnp validate`` checks that one item of ``holds`` fits inside it, as printed (a
    landscape product lies landscape) or, when ``turn`` is set, a quarter turn either way.
    """

    id: str = field(metadata=doc("slug, unique within the product (e.g. 'equipment-1')"))
    x: str = field(metadata=doc("left edge from the item's left trim, a length ('12mm')"))
    y: str = field(metadata=doc("top edge from the item's top trim, a length ('30mm')"))
    w: str = field(metadata=doc("width, a length ('90mm')"))
    h: str = field(metadata=doc("height, a length ('65mm')"))
    holds: str = field(metadata=doc("id of the product whose items lie here"))
    kind: str = field(
        default="",
        metadata=doc("only items of this id or kind lie here (a token kind); empty: any item"),
    )
    turn: bool = field(
        default=False, metadata=doc("the component may lie a quarter turn from how it prints")
    )
    tolerance: str = field(
        default="1mm", metadata=doc("how far the component may overhang the slot, a length")
    )
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class Track:
    """A row of cells on a board, with a marker that moves along it to show one value.

    The cells show ``start``, ``start + step``, … (``cells`` of them), or one label each
    (``labels``); a value no cell shows cannot be played from the kit unless ``beyond`` or
    ``off_track`` says how.
    """

    id: str = field(metadata=doc("slug, unique within the kit (e.g. 'hp', 'day')"))
    cells: int = field(default=0, metadata=doc("number of cells; may be left out with labels"))
    cell: str = field(
        default="",
        metadata=doc("size of one cell: '16mm' (square) or '16x20mm'; needed with a marker"),
    )
    marker: str = field(default="", metadata=doc("id of the product printing its marker"))
    start: int = field(default=0, metadata=doc("the value the first cell shows"))
    step: int = field(default=1, metadata=doc("how much each next cell adds"))
    labels: tuple[str, ...] = field(
        default=(),
        metadata=doc("what each cell shows, instead of start/step ('1', '2', … or 'red', …)"),
    )
    off_track: int | None = field(
        default=None,
        metadata=doc("the value a marker taken off the track shows (e.g. 0 HP); none: no value"),
    )
    beyond: str = field(
        default="",
        metadata=doc("the printed rule for values past the last cell (e.g. 'turn the marker')"),
    )
    tolerance: str = field(
        default="1mm", metadata=doc("how far the marker may overhang a cell, a length")
    )
    where: Location = field(default=NOWHERE, compare=False, repr=False)

    def values(self) -> tuple[int | str, ...]:
        """What the cells show, first to last: integers where a label is a number."""
        if self.labels:
            return tuple(int(label) if _is_int(label) else label for label in self.labels)
        return tuple(self.start + index * self.step for index in range(self.cells))


def _is_int(text: str) -> bool:
    return text.strip().lstrip("-").isdigit()


@dataclass(frozen=True)
class Product:
    """One printable file of a kit: which items, drawn by which template, at which size."""

    id: str = field(metadata=doc("slug; also the PDF's file name", nonempty=True))
    title: str = field(metadata=doc("what the cover page calls it", nonempty=True))
    kind: ProductKind = field(metadata=doc("cards or sheet"))
    items: str = field(metadata=doc("name of the model collection the product prints"))
    face: str = field(metadata=doc("template of the front, relative to templates/"))
    size: str = field(default="poker", metadata=doc("card size name, or a sheet size like 'a4'"))
    back: str = field(default="", metadata=doc("template of the back; empty: no back"))
    landscape: bool = field(default=False, metadata=doc("lay the item out landscape"))
    note: str = field(default="", metadata=doc("printing or cutting note for the cover page"))
    slots: tuple[Slot, ...] = field(
        default=(), metadata=doc("places on each item where components lie (boards, mats)")
    )
    tracks: tuple[Track, ...] = field(
        default=(), metadata=doc("tracks printed on each item, with their marker and values")
    )
    where: Location = field(default=NOWHERE, compare=False, repr=False)


class Per(enum.Enum):
    """How many of a thing a table needs."""

    GAME = "game"
    """One set for the whole table."""
    SEAT = "seat"
    """One set for each player: a table of the most players the game supports needs them all."""


class Convention(enum.Enum):
    """A way of showing public state without a component of its own."""

    ORIENTATION = "orientation"
    """Which way a pawn or card faces or is turned (facing, exhausted)."""
    CARD_FACE = "card-face"
    """Which cards lie face up, face down or where (a revealed trap, the active mission)."""
    PILE = "pile"
    """The cards themselves: how many are in a deck, a hand, a discard pile."""


@dataclass(frozen=True)
class Bring:
    """Something the kit does not print and the players bring: a die, bags, a timer."""

    id: str = field(metadata=doc("slug (e.g. 'd6', 'bag', 'timer')"))
    name: str = field(
        metadata=doc("what the cover and the components table call it", nonempty=True)
    )
    count: int = field(
        default=1,
        metadata=doc("how many, per table or per seat (see per)", at_least=1, at_most=1000),
    )
    per: Per = field(default=Per.GAME, metadata=doc("game: for the table; seat: per player"))
    note: str = field(default="", metadata=doc("what it is for, or what may stand in for it"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class Trackable:
    """One piece of public state the engine keeps, and what on the table shows it.

    Exactly one of ``product``, ``track``, ``slot``, ``bring`` and ``convention`` is set.
    """

    name: str = field(
        metadata=doc("the quantity's name as the engine declares it ('hp')", nonempty=True)
    )
    product: str = field(default="", metadata=doc("id of the product whose items show it"))
    track: str = field(default="", metadata=doc("id of the track that shows it"))
    slot: str = field(default="", metadata=doc("id of the slot whose contents show it"))
    bring: str = field(default="", metadata=doc("id of a brought thing that shows it (a d6)"))
    convention: Convention | None = field(
        default=None, metadata=doc("orientation, card-face or pile: shown without a component")
    )
    count: int = field(default=1, metadata=doc("components needed, per table or per seat"))
    per: Per = field(default=Per.GAME, metadata=doc("game: one set; seat: a set per player"))
    note: str = field(default="", metadata=doc("how the players show it (prose, jinja)"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)

    @property
    def shown_by(self) -> list[tuple[str, str]]:
        """The (kind, name) of every way this entry names, e.g. [('track', 'hp')]."""
        named = [
            ("product", self.product),
            ("track", self.track),
            ("slot", self.slot),
            ("bring", self.bring),
            ("convention", self.convention.value if self.convention else ""),
        ]
        return [(kind, name) for kind, name in named if name]


@dataclass(frozen=True)
class Physical:
    """How the printed kit carries the game's state to the table, and what players bring.

    A game's model includes it as ``physical: Physical = field(default=Physical(), …)``.
    """

    bring: tuple[Bring, ...] = field(
        default=(), metadata=doc("what the players bring: dice, bags, a timer")
    )
    state: tuple[Trackable, ...] = field(
        default=(), metadata=doc("every piece of public state the engine keeps, and its component")
    )
    where: Location = field(default=NOWHERE, compare=False, repr=False)


def physical_of(model: object) -> Physical:
    """A game model's ``physical:`` section, or an empty one when its game has none."""
    physical = getattr(model, "physical", None)
    return physical if isinstance(physical, Physical) else Physical()


def bring_amount(bring: Bring) -> str:
    """How the cover and the components table give a brought thing's count: '1', '每人 1'."""
    return f"每人 {bring.count}" if bring.per is Per.SEAT else str(bring.count)


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
            "the fair win rate; default for seat factors the wins per game shared by the seats "
            "(1/players when every game has one winner); for game factors the table's overall "
            "win rate"
        ),
    )
    reason: str = field(
        default="",
        metadata=doc(
            "why the tolerance is what it is (what the rule source says, what was measured); "
            "for the designer, never printed in a player's document"
        ),
    )
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class Band:
    """A promise about one table's win rate (a difficulty level's, typically)."""

    table: str = field(metadata=doc("the table (mode, level) the band is for", nonempty=True))
    min: float = field(metadata=doc("lowest acceptable win rate", at_least=0, at_most=1))
    max: float = field(metadata=doc("highest acceptable win rate", at_least=0, at_most=1))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class Ladder:
    """A promise that each table of a list is harder than the one before it."""

    tables: tuple[str, ...] = field(
        metadata=doc("the tables from easiest to hardest", nonempty=True)
    )
    alpha: float = field(
        default=0.05,
        metadata=doc("one-sided level of the paired sign test each step must pass"),
    )
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class StrongTables:
    """Where a balance run with the strong player plays it, when the promises are made for
    another policy: the tables where skill could change who wins, each up to ``games`` games.
    The other tables are judged with the policy the promises are made for, and the run says
    which table was judged by which player."""

    tables: tuple[str, ...] = field(
        metadata=doc("the tables the strong player plays in a strong balance run", nonempty=True)
    )
    games: int = field(metadata=doc("games per strong table at most", at_least=1, at_most=100_000))
    reason: str = field(
        default="",
        metadata=doc(
            "why these tables stand for the rest (what differs between tables, what was "
            "measured); for the designer, never printed in a player's document"
        ),
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
    games: int = field(
        default=200,
        metadata=doc("games per table in pnp validate's balance run", at_least=1, at_most=100_000),
    )
    spreads: tuple[Spread, ...] = field(default=(), metadata=doc("fairness promises"))
    bands: tuple[Band, ...] = field(default=(), metadata=doc("win-rate promises per table"))
    ladder: Ladder | None = field(default=None, metadata=doc("a difficulty ladder"))
    strong: StrongTables | None = field(
        default=None,
        metadata=doc(
            "when the promises are made for another policy: the tables a strong balance run "
            "plays the strong player on (every table when absent)"
        ),
    )
    where: Location = field(default=NOWHERE, compare=False, repr=False)
