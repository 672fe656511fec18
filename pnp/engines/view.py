"""What one seat may see of a position, and how its moves are chosen by clicking.

The web table (:mod:`pnp.play`) shows each seat a :class:`Scene`: the kit's faces laid out as
the physical game lies (hands, piles with counts, boards with pieces, tracks with markers),
built by the game's own view (``pnp/games/<game>/view.py``, named by ``Game.view``) from a
position and a seat. A scene for a seat holds only what that seat may know: the test of every
game holds each scene against the engine's ``resample`` (a position the seat cannot tell from
the real one must give the very same scene). ``seat=None`` is the onlooker who sees all (a
replay, a finished game).

Moves tie the engine's legal actions to what is clicked: each :class:`Move` names the action's
text (``str(action)``, what a client sends back), the element a click on which offers it
(a card, a hex, a space; empty for a button) and the label of its button. The engine's
``legal_actions`` stays the only authority: the table offers exactly the moves listed and
checks every action it is sent against them.

A game without a view gets :class:`DefaultView`: the seats, whose turn it is and every legal
action as a button, and nothing of any hand.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from pnp.engines.base import Rules
from pnp.model.common import field_names
from pnp.units import CARD_SIZES_MM, PAPER_SIZES_MM, parse_length, to_mm


@dataclass(frozen=True)
class FaceRef:
    """One face of one item of the kit, as the kit prints it."""

    product: str
    """The product's id (``playing-cards``)."""
    item: str
    """The item's id within the product."""
    side: str = "front"
    """``front`` or ``back``."""

    @property
    def back_of(self) -> FaceRef:
        return FaceRef(self.product, self.item, "back")


@dataclass(frozen=True)
class Card:
    """A card, tile or token lying on the table: shown by its face, or by its label alone."""

    face: FaceRef | None = None
    label: str = ""
    """A caption under it (or the whole thing, without a face)."""
    element: str = ""
    """The id a click on it sends; empty when clicking it offers nothing."""
    count: int | None = None
    """A pile's count, shown as a badge."""
    turned: bool = False
    """Lying a quarter turn (a sideways character card)."""
    marked: bool = False
    """Worth the eye: just played, or the active one."""


@dataclass(frozen=True)
class Row:
    """Cards side by side: a hand, a display, the piles of a table."""

    kind: ClassVar[str] = "row"
    title: str
    cards: tuple[Card, ...]
    size: str = "card"
    """How large its cards are drawn: ``card``, ``small`` (tokens) or ``wide`` (landscape)."""


@dataclass(frozen=True)
class Spot:
    """A place on a board a click can choose (a space, a hex, a cell), in fractions of the
    board's width and height from its top left corner."""

    element: str
    x: float
    y: float
    w: float
    h: float
    label: str = ""
    anchor: str = ""
    """Text printed on the board where the spot is: the table finds it on the face and
    takes its box instead of x, y, w and h (a track's cell, a named space)."""


@dataclass(frozen=True)
class Piece:
    """A pawn, figure or token on a board: its centre and width as fractions of the board."""

    x: float
    y: float
    size: float
    colour: str = "#333333"
    label: str = ""
    face: FaceRef | None = None
    anchor: str = ""
    """Text printed on the board where the piece stands (see :attr:`Spot.anchor`)."""


@dataclass(frozen=True)
class Board:
    """A board, map or mat of the kit, with what lies on it."""

    kind: ClassVar[str] = "board"
    title: str
    face: FaceRef | None
    """None: a bare board on which ``cards`` lie (map tiles put together)."""
    spots: tuple[Spot, ...] = ()
    pieces: tuple[Piece, ...] = ()
    cards: tuple[tuple[Card, float, float, float], ...] = ()
    """Cards lying on the board: (card, left, top, width) in fractions of the board."""
    size: str = "large"
    """How large it is drawn: ``large`` (the table's width), ``medium`` or ``small``."""


@dataclass(frozen=True)
class TrackMark:
    """Where the marker of one of a product's printed tracks stands."""

    kind: ClassVar[str] = "track"
    title: str
    product: str
    track: str
    """The track's id in the product's ``tracks``."""
    value: int | str | None
    """The value the marker shows; None: off the track."""
    marker: FaceRef | None = None


@dataclass(frozen=True)
class Counters:
    """Values read off the table that no printed track shows (turn, treasure in a bag)."""

    kind: ClassVar[str] = "counters"
    title: str
    values: tuple[tuple[str, str], ...]


Area = Row | Board | TrackMark | Counters


@dataclass(frozen=True)
class SeatInfo:
    """A player as everyone sees them."""

    seat: int
    lines: tuple[str, ...] = ()
    """What is known of them: cards in hand, life, a revealed identity."""
    out: bool = False


@dataclass(frozen=True)
class Scene:
    """Everything one seat sees of a position."""

    status: str
    """One line: whose turn, what is asked."""
    seats: tuple[SeatInfo, ...]
    areas: tuple[Area, ...]
    focus: int | None = None
    """The seat whose own things the scene shows face up (None: every seat's)."""


@dataclass(frozen=True)
class Move:
    """One legal action as the table offers it."""

    action: str
    """``str(action)``: what the client sends back."""
    element: str = ""
    """The element whose click offers it; empty: a button of its own."""
    label: str = ""
    """The button's text (among the moves of one element, what tells them apart)."""


@dataclass(frozen=True)
class Pictured:
    """A position the rulebook draws (a figure's ``position:``): states the engine reached at
    one table, drawn left to right from the game's own view of them, so a picture of the
    rules cannot disagree with the rules."""

    rules: Rules[Any, Any]
    states: tuple[Any, ...]
    """One state, or a few in the order they were reached (before, after)."""
    played: tuple[Any, ...] = ()
    """The actions that led to the first state (what the view shows of the last play)."""
    between: tuple[Any, ...] = ()
    """The action from each state to the next (the card played between before and after)."""
    areas: tuple[str, ...] = ()
    """The scene's areas to draw (its boards and rows), each by the start of its title, in
    this order; none: its first board."""
    captions: tuple[str, ...] = ()
    """A few words under each state (``打出前`` / ``打出后``)."""


class GameView(Protocol):
    """One game's views of one table (``Game.view(rules)`` builds it)."""

    def scene(self, state: Any, seat: int | None, played: Sequence[Any] = ()) -> Scene:
        """What ``seat`` sees of ``state`` (None: everything). ``played`` is every action
        that led there, for what the position forgets but the table shows (the card on top
        of the discards); a view shows of it only what ``seat`` saw."""
        ...

    def moves(self, state: Any, seat: int) -> list[Move]:
        """The legal actions of ``seat`` (empty when it is not to act), one move each."""
        ...

    def describe(self, before: Any, action: Any, after: Any, seat: int | None) -> str:
        """One line of the game log for ``seat``: the action as that seat saw it (a card
        drawn by another player is "draws a card"), in the game's notation where it may
        see it."""
        ...


def plain_moves(rules: Rules[Any, Any], state: Any, seat: int) -> list[Move]:
    """Every legal action of ``seat`` as a button labelled with its notation."""
    if rules.current_player(state) != seat:
        return []
    return [Move(str(action), "", str(action)) for action in rules.legal_actions(state)]


def product_of(model: Any, collection: str) -> str:
    """The id of the kit's product that prints the model's ``collection`` (``"ranks"``);
    KeyError when none does."""
    for product in model.products:
        if product.items == collection:
            return str(product.id)
    raise KeyError(f"no product prints {collection!r}")


def faces_by_id(model: Any) -> dict[str, FaceRef]:
    """The front of every item the kit prints, by the item's id (the first product that
    prints an id wins): how a view finds the face of a card its engine names by id."""
    found: dict[str, FaceRef] = {}
    for printed in model.products:
        for item in getattr(model, printed.items, ()):
            found.setdefault(str(item.id), FaceRef(str(printed.id), str(item.id)))
    return found


def product(model: Any, product_id: str) -> Any:
    """The kit's product ``product_id`` of the model (KeyError when there is none)."""
    for found in model.products:
        if found.id == product_id:
            return found
    raise KeyError(f"no product {product_id!r}")


def sheet_size_mm(product: Any) -> tuple[float, float]:
    """The width and height in mm of one item of a product: a card size's name (``poker``,
    turned for a landscape product), a paper's, or a size like ``420x297mm``."""
    name = str(product.size)
    if name in CARD_SIZES_MM or name in PAPER_SIZES_MM:
        width, height = CARD_SIZES_MM.get(name) or PAPER_SIZES_MM[name]
        return (height, width) if product.landscape else (width, height)
    width_text, _, height_text = name.partition("x")
    unit = height_text.lstrip("0123456789.")
    return to_mm(parse_length(width_text + unit)), to_mm(parse_length(height_text))


def player_name(seat: int) -> str:
    return f"Player {seat + 1}"


class DefaultView:
    """The view of a game that names none: who is to act and the moves as buttons; no hand,
    no pile, no board, and another player's action only as "Player N acted"."""

    def __init__(self, rules: Rules[Any, Any]) -> None:
        self.rules = rules

    def scene(self, state: Any, seat: int | None, played: Sequence[Any] = ()) -> Scene:
        rules = self.rules
        if rules.is_terminal(state):
            status = f"Game over: {rules.outcome(state)}"
        else:
            actor = rules.current_player(state)
            status = "Chance" if actor is None else f"{player_name(actor)} to act"
        return Scene(
            status=status,
            seats=tuple(SeatInfo(s) for s in range(rules.num_players)),
            areas=(Counters("Table", (("turns", str(rules.turns(state))),)),),
            focus=seat,
        )

    def moves(self, state: Any, seat: int) -> list[Move]:
        return plain_moves(self.rules, state, seat)

    def describe(self, before: Any, action: Any, after: Any, seat: int | None) -> str:
        actor = self.rules.current_player(before)
        if seat is None:
            return str(action)
        if actor is None:
            return "chance"
        return str(action) if actor == seat else f"{player_name(actor)} acted"


def scene_json(scene: Scene) -> dict[str, Any]:
    """A scene as plain JSON data; each area carries its ``kind``."""
    return {
        "status": scene.status,
        "focus": scene.focus,
        "seats": [dataclasses.asdict(info) for info in scene.seats],
        "areas": [{"kind": area.kind, **_plain(area)} for area in scene.areas],
    }


def _plain(value: Any) -> Any:
    kind = type(value)
    if kind is tuple or kind is list:
        return [_plain(item) for item in value]
    names = field_names(kind)
    if names is not None:
        if isinstance(value, FaceRef):
            return f"{value.product}/{value.item}/{value.side}"
        return {name: _plain(getattr(value, name)) for name in names}
    if isinstance(value, (tuple, list)):  # a subclass (a named tuple)
        return [_plain(item) for item in value]
    return value


def faces_of(scene: Scene) -> set[FaceRef]:
    """Every face a scene shows (what a table must have rasterised to draw it)."""
    found: set[FaceRef] = set()

    def walk(value: Any) -> None:
        if isinstance(value, FaceRef):
            found.add(value)
        elif dataclasses.is_dataclass(value) and not isinstance(value, type):
            for f in dataclasses.fields(value):
                walk(getattr(value, f.name))
        elif isinstance(value, (tuple, list)):
            for item in value:
                walk(item)

    walk(scene)
    return found


def moves_by_element(moves: Sequence[Move]) -> dict[str, list[Move]]:
    """Moves grouped by the element that offers them (``""``: the buttons)."""
    grouped: dict[str, list[Move]] = {}
    for move in moves:
        grouped.setdefault(move.element, []).append(move)
    return grouped


def played_until(
    rules: Rules[Any, Any],
    policy: Any,
    wanted: Any,
    *,
    seed: int = 0,
    limit: int = 5_000,
) -> tuple[tuple[Any, ...], Any, Any, Any]:
    """Play a game from the table's initial position (chance from ``seed``, every seat by
    ``policy``) to the first step ``wanted(before, action, after)`` accepts; the actions played
    before it, the state before it, the action and the state after. A figure drawn from here
    shows a position the rules reach in play, not one set up by hand."""
    rng = random.Random(seed)
    state = rules.initial_state(rng)
    played: list[Any] = []
    for _ in range(limit):
        if rules.is_terminal(state):
            break
        if rules.is_chance(state):
            action = rules.sample_chance(state, rng)
        else:
            action = policy.choose(rules, state, rng)
        after = rules.apply(state, action)
        if wanted(state, action, after):
            return tuple(played), state, action, after
        played.append(action)
        state = after
    raise ValueError(f"no step the figure wants within {limit} steps of seed {seed}")


def first_played(
    rules: Rules[Any, Any], policy: Any, wanted: Any, *, seeds: int, limit: int
) -> tuple[tuple[Any, ...], Any, Any, Any] | None:
    """``played_until`` in the first of ``seeds`` seeded games that reaches the step; None
    when none does."""
    for seed in range(seeds):
        try:
            return played_until(rules, policy, wanted, seed=seed, limit=limit)
        except ValueError:
            continue
    return None


def first_pictured(
    rules: Rules[Any, Any],
    policy: Any,
    wanted: Any,
    captions: tuple[str, ...],
    *,
    seeds: int,
    limit: int,
) -> Pictured | None:
    """The step ``wanted`` accepts, drawn before and after, from the first seeded game that
    reaches it; None when none of ``seeds`` games does."""
    found = first_played(rules, policy, wanted, seeds=seeds, limit=limit)
    if found is None:
        return None
    played, before, action, after = found
    return Pictured(rules, (before, after), played=played, between=(action,), captions=captions)
